"""Build versus rent: what the same GPU-hours would cost from a cloud provider.

For a tier t whose server has a cloud price for the tier's ``cloud_term``
(``revenue_mode(a, t)``; ``servers.<sku>.cloud_<term>_per_gpu_hour``), with the
engine's own monthly GPU-hours ``h_m``, discount factors ``d_m`` and the tier's
``price_decline`` ``g`` (the same decline the engine applies to a GPU-hour's
value; ``y = ceil(m / 12)``)::

    cloud_m          = h_m * p_cloud * (1 - g)^(y-1)              m = 1..M
    pv_cloud_cost    = sum_m cloud_m * d_m
    pv_build_cost    = capex + sum_m opex_m * d_m                  (= the levelized-cost numerator)
    saving           = pv_cloud_cost - pv_build_cost               (> 0: building is cheaper)
    break_even_month = min { m >= 1 : capex + sum_{k<=m} opex_k <= sum_{k<=m} cloud_k }
                       (nominal, undiscounted; NaN if never within the horizon)

``saving`` is before tax and terminal value. ``npv_vs_cloud`` is the full,
after-tax NPV of the tier with every GPU-hour valued at the cloud price (the
``avoided_cloud`` variant of the assumptions); ``break_even_utilization`` is
the utilization in [0, 1] at which that NPV is 0 (NaN if there is no root).
Tiers whose server has no cloud price for the term get NaN in every number.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .loader import with_overrides
from .params import resolve_tier, revenue_mode
from .schema import Assumptions

if TYPE_CHECKING:
    from .model import Model

GRID = 41  # utilizations per round (one vectorised engine call each)
ROUNDS = 5  # bracket 1/40**5 ~ 1e-8 wide, then linear interpolation
MONTHS_PER_YEAR = 12

COLUMNS = [
    "server",
    "cloud_term",
    "cloud_price_per_gpu_hour",
    "gpu_hours",
    "pv_gpu_hours",
    "pv_cloud_cost",
    "pv_build_cost",
    "saving",
    "saving_share",
    "build_cost_per_gpu_hour",
    "npv_vs_cloud",
    "break_even_utilization",
    "break_even_month",
]


def cloud_cost_schedule(model: Model, tier: str, price: float) -> np.ndarray:
    """Monthly cloud cost ``h_m * price * (1 - g)^(y-1)``, months 0..M (0 at month 0)."""
    r = model.results[tier]
    hours = np.asarray(r.flows["gpu_hours"])[0]
    decline = model.inputs[tier].values()["price_decline"]
    m = np.arange(hours.shape[0])
    years_in = np.maximum(-(-m // MONTHS_PER_YEAR) - 1, 0)
    return hours * price * np.power(1.0 - decline, years_in)


def break_even_month(capex: float, opex: np.ndarray, cloud: np.ndarray) -> float:
    """First month m >= 1 with ``capex + sum opex[1..m] <= sum cloud[1..m]``
    (arrays indexed by month 0..M); NaN if never. A relative tolerance of 1e-12
    absorbs rounding in the cumulative sums."""
    build = capex + np.cumsum(opex[1:])
    rent = np.cumsum(cloud[1:])
    ok = build <= rent + 1e-12 * np.maximum(np.abs(rent), 1.0)
    return float(np.argmax(ok) + 1) if ok.any() else math.nan


def avoided_cloud_variant(a: Assumptions, tiers: list[str]) -> Assumptions:
    """``a`` with ``tiers.<t>.revenue.mode = avoided_cloud`` for each of ``tiers``
    (each keeps its own cloud_term); ``a`` itself if nothing changes."""
    change = {
        f"tiers.{t}.revenue.mode": "avoided_cloud"
        for t in tiers
        if revenue_mode(a, t)[0] != "avoided_cloud"
    }
    return with_overrides(a, change) if change else a


def _npv_at(a: Assumptions, tier: str, path: str, u: np.ndarray) -> np.ndarray:
    from .model import run_variants

    return np.asarray(run_variants(a, {path: u}, tiers=[tier])[tier].metrics["npv"], dtype=float)


def break_even_utilization(a: Assumptions, tier: str) -> float:
    """Utilization in [0, 1] at which the tier's NPV is 0, for assumptions ``a``
    (pass the ``avoided_cloud`` variant to get the build-versus-rent break-even).

    Bracketing over the engine's scenario axis: each round evaluates ``GRID``
    utilizations across the current bracket in one :func:`run_variants` call and
    keeps the first sub-interval where NPV changes sign (or hits 0); after
    ``ROUNDS`` rounds the root is interpolated linearly inside the last bracket.
    NaN if NPV has the same strict sign at every grid point of [0, 1].
    """
    path = resolve_tier(a, tier).paths()["utilization"]
    lo, hi = 0.0, 1.0
    for _ in range(ROUNDS):
        u = np.linspace(lo, hi, GRID)
        npv = _npv_at(a, tier, path, u)
        zero = np.flatnonzero(npv == 0.0)
        if zero.size:
            return float(u[zero[0]])
        change = np.flatnonzero(np.sign(npv[:-1]) != np.sign(npv[1:]))
        if not change.size:
            return math.nan
        i = int(change[0])
        lo, hi = float(u[i]), float(u[i + 1])
        f_lo, f_hi = float(npv[i]), float(npv[i + 1])
    return lo + (hi - lo) * f_lo / (f_lo - f_hi)


def build_vs_rent(model: Model) -> pd.DataFrame:
    """One row per tier (in tier order), the columns of :data:`COLUMNS`
    (formulas in the module docstring). ``saving_share = saving / pv_cloud_cost``;
    ``build_cost_per_gpu_hour`` is the levelized ``cost_per_gpu_hour``."""
    a = model.assumptions
    priced = [t for t in model.tiers if "cloud_price_per_gpu_hour" in model.inputs[t].values()]
    variant = avoided_cloud_variant(a, priced)
    if variant is not a:
        from .model import Model as _Model

        npv_cloud = {t: float(v.metrics["npv"][0]) for t, v in _Model(variant).results.items()}
    else:
        npv_cloud = {t: float(model.results[t].metrics["npv"][0]) for t in model.tiers}
    rows: dict[str, dict[str, object]] = {}
    for t in model.tiers:
        r = model.results[t]
        row: dict[str, object] = dict.fromkeys(COLUMNS, math.nan)
        row["server"] = a.tiers[t].server
        row["cloud_term"] = revenue_mode(a, t)[1]
        if t in priced:
            metrics = {k: float(v[0]) for k, v in r.metrics.items()}
            row["gpu_hours"] = metrics["gpu_hours"]
            row["pv_gpu_hours"] = metrics["pv_gpu_hours"]
            row["pv_build_cost"] = metrics["pv_cost"]
            row["build_cost_per_gpu_hour"] = metrics["cost_per_gpu_hour"]
            price = model.inputs[t].values()["cloud_price_per_gpu_hour"]
            cloud = cloud_cost_schedule(model, t, price)
            discount = np.asarray(r.flows["discount_factor"])[0]
            opex = np.asarray(r.flows["opex"])[0]
            pv_cloud = float((cloud * discount).sum())
            row["cloud_price_per_gpu_hour"] = price
            row["pv_cloud_cost"] = pv_cloud
            row["saving"] = pv_cloud - metrics["pv_cost"]
            row["saving_share"] = (
                (pv_cloud - metrics["pv_cost"]) / pv_cloud if pv_cloud else math.nan
            )
            row["npv_vs_cloud"] = npv_cloud[t]
            row["break_even_utilization"] = break_even_utilization(variant, t)
            row["break_even_month"] = break_even_month(metrics["capex"], opex, cloud)
        rows[t] = row
    df = pd.DataFrame.from_dict(rows, orient="index")[COLUMNS]
    df.index.name = "tier"
    return df
