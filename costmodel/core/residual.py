"""The residual value from income, ``terminal_value: income`` (methodology §30).

For each hardware deployment d (its servers, network and storage together), bought
at month ``t_d``:

```
R_d      = max(0, t_d + 12 * economic_life_years - M)   # months of life left after M
margin_d = revenue_d(M) - sum_l line_{l,d}(M)             # its own lines in month M
           - insurance_rate * hardware_d / 12           # on its hardware alone
V_d      = max(0, margin_d) * sum_{k=1..R_d} (1 - price_decline)^(k/12) / (1 + r)^k
```

``r`` the monthly discount rate, ``l`` the opex lines the catalogue counts in a
deployment's margin (``LineItem.margin``: the power, the rent, the upkeep and the
licences it causes; methodology §33.1). Each line in month M is the one definition
of the operating lines (:func:`costmodel.core.lines.operating_coefficients`) read at
M on the deployment's own shapes (its contracts' survival with a default rate, methodology
§11.12). The facility (mode build) is valued at market (section
19), so a buyer prices the used cluster on the rent it still earns, on the same
price path as the revenue.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from costmodel.catalogue.items import OPEX_ITEMS
from costmodel.core.finance import FloatArray, monthly_rate
from costmodel.core.lines import operating_coefficients
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import (
    CapexEvent,
    contract_years,
    operating_shapes,
    surviving,
    when,
)
from costmodel.core.units import MONTHS_PER_YEAR

#: the lines of a deployment's margin in month M, with their sign: revenue less the
#: opex lines the catalogue counts in it (``LineItem.margin``)
MARGIN_LINES = {"revenue": 1.0, **{i.key: -1.0 for i in OPEX_ITEMS if i.margin}}


def _owner(k: int, n_dep: int, n_years: int) -> int:
    """The deployment of shape k (:func:`costmodel.core.timing.operating_shapes`)."""
    if k < 3 * n_dep:
        return k % n_dep
    if k < 4 * n_dep:
        return k - 3 * n_dep
    return (k - 4 * n_dep) // n_years


def margins_at_horizon(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    months: int,
) -> list[FloatArray]:
    """Per deployment, ``margin_d`` (S,) in month M (module docstring)."""
    years = -(-months // MONTHS_PER_YEAR)
    coefficients = operating_coefficients(q, deps, events, years)
    n_dep = len(deps)
    n_years = contract_years(q.contract_months, months)
    starts = [when(d["month"]) for d in deps]
    m = np.array([float(months)])
    shapes = operating_shapes(m, starts, when(q.ramp_months), when(q.contract_months), n_years)
    rate = q.contract_default_rate
    if n_years and rate is not None and np.any(np.asarray(rate) > 0):  # methodology §11.12
        shapes = surviving(shapes, m, starts, when(rate), n_years)
    size = q.gpus.shape[0]
    out = [np.zeros(size) for _ in deps]
    for line, sign in MARGIN_LINES.items():
        for k, c in coefficients[line].items():
            h = np.broadcast_to(np.asarray(shapes[k], dtype=float), (size, 1))[:, 0]
            out[_owner(k, n_dep, n_years)] += sign * c[-1] * h
    for i, d in enumerate(deps):  # the insured rate on the deployment's hardware only
        live = (months > np.asarray(d["month"])).astype(float)
        out[i] -= q.insurance_rate * d["hardware"] / MONTHS_PER_YEAR * live
    return out


def remaining_months(q: TierParams, d: Mapping[str, FloatArray], months: int) -> FloatArray:
    """``R_d = max(0, t_d + 12 * economic_life_years - M)``."""
    return np.maximum(0.0, d["month"] + MONTHS_PER_YEAR * q.economic_life_years - months)


def annuity(q: TierParams, remaining: FloatArray) -> FloatArray:
    """``sum_{k=1..R} x^k``, ``x = (1 - price_decline)^(1/12) / (1 + r)``, in closed form
    ``x (1 - x^R) / (1 - x)`` (``R`` where ``x = 1``)."""
    x = np.power(1.0 - q.price_decline, 1.0 / MONTHS_PER_YEAR) / (
        1.0 + monthly_rate(q.discount_rate)
    )
    r = np.asarray(remaining, dtype=float)
    level = np.isclose(x, 1.0, rtol=0.0, atol=1e-15)
    safe = np.where(level, 0.5, x)
    return np.where(level, r, safe * (1.0 - np.power(safe, r)) / (1.0 - safe))


def income_values(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    months: int,
) -> list[FloatArray]:
    """``V_d`` (S,) of each deployment (module docstring)."""
    margins = margins_at_horizon(q, deps, events, months)
    return [
        np.maximum(0.0, mg) * annuity(q, remaining_months(q, d, months))
        for mg, d in zip(margins, deps, strict=True)
    ]


def residual_table(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    months: int,
) -> dict[str, list[float]]:
    """The income residual of each deployment (variant 0), as the workbook and the
    model show it: ``month`` t_d, ``remaining_months`` R_d, ``margin`` margin_d in M,
    ``annuity`` the sum of discounted, declining months, ``value`` V_d."""
    margins = margins_at_horizon(q, deps, events, months)
    rows: dict[str, list[float]] = {
        k: [] for k in ("month", "remaining_months", "margin", "annuity", "value")
    }
    for mg, d in zip(margins, deps, strict=True):
        r = remaining_months(q, d, months)
        f = annuity(q, r)
        rows["month"].append(float(np.asarray(d["month"]).reshape(-1)[0]))
        rows["remaining_months"].append(float(np.asarray(r).reshape(-1)[0]))
        rows["margin"].append(float(mg[0]))
        rows["annuity"].append(float(np.asarray(f).reshape(-1)[0]))
        rows["value"].append(float(max(0.0, mg[0]) * np.asarray(f).reshape(-1)[0]))
    return rows
