"""What a tier's site and its quotes change in the engine (methodology §29, §30).

- Facility power of the final cluster ``P = it_kw * pue / 1000`` (MW), ``it_kw``
  the sum of the deployments' ``units * power_kw * (1 + aux_power_fraction)``.
- Grid (inputs ``grid_mw``, ``grid_connection_per_mw``, ``grid_lead_months``, given
  when the site limits its grid): in build mode with ``P > grid_mw`` a connection
  costs ``(P - grid_mw) * grid_connection_per_mw`` at month 0 (facility) and the
  first capex month ``B = round(build_months)`` is lengthened by
  ``grid_lead_months``.
- Supply lead time (``lead_months`` of the tier's server): ``B = max(B, lead_months)``
  after the grid's lengthening.
- ``price_factor`` of the site multiplies the spot and contract GPU-hour prices.
- Quotes with ``as_of`` (``<input>_roll_months``) are rolled to ``start`` at their
  decline (:func:`rolled`).

Without these inputs every function returns what the engine computed before sites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from costmodel.core.finance import FloatArray
from costmodel.core.units import MONTHS_PER_YEAR

KW_PER_MW = 1000.0


def it_kw(q: Mapping[str, FloatArray], gpus: FloatArray) -> FloatArray:
    """IT load of ``gpus`` GPUs: ``gpus / gpus_per_server * power_kw * (1 + aux)``."""
    return gpus / q["gpus_per_server"] * q["server_power_kw"] * (1.0 + q["aux_power_fraction"])


def facility_mw(q: Mapping[str, FloatArray], all_gpus: Sequence[FloatArray]) -> FloatArray:
    """``P = it_kw(final cluster) * pue / 1000`` (MW, methodology §29)."""
    return it_kw(q, sum(all_gpus)) * q["pue"] / KW_PER_MW


def grid_excess_mw(q: Mapping[str, FloatArray], all_gpus: Sequence[FloatArray]) -> FloatArray:
    """MW a build-mode tier must connect: ``build_flag * max(0, P - grid_mw)``; 0
    without a grid limit."""
    if "grid_mw" not in q:
        return np.zeros_like(np.asarray(q["gpus"], dtype=float))
    return q["build_flag"] * np.maximum(facility_mw(q, all_gpus) - q["grid_mw"], 0.0)


def first_capex_month(q: Mapping[str, FloatArray], all_gpus: Sequence[FloatArray]) -> FloatArray:
    """``B = round(build_months) + grid_lead_months * [a connection is needed]``,
    then ``max(B, lead_months)`` (methodology §29, §30)."""
    build = np.round(q["build_months"])
    if "grid_mw" in q:
        build = build + np.round(q["grid_lead_months"]) * (grid_excess_mw(q, all_gpus) > 0)
    if "lead_months" in q:
        build = np.maximum(build, np.round(q["lead_months"]))
    return build


def grid_connection(q: Mapping[str, FloatArray], all_gpus: Sequence[FloatArray]) -> FloatArray:
    """Capex of the grid connection at month 0: ``excess MW * grid_connection_per_mw``."""
    if "grid_mw" not in q:
        return np.zeros_like(np.asarray(q["gpus"], dtype=float))
    return grid_excess_mw(q, all_gpus) * q["grid_connection_per_mw"]


#: a rolled input -> (its months of roll, the input of its annual decline)
ROLLS = {
    "price_per_gpu_hour": ("spot_roll_months", "price_decline"),
    "contract_price_per_gpu_hour": ("contract_roll_months", "price_decline"),
    "cloud_price_per_gpu_hour": ("cloud_roll_months", "price_decline"),
    "server_price": ("server_price_roll_months", "server_price_decline"),
}

#: the inputs the site's ``price_factor`` multiplies
FACTORED = ("price_per_gpu_hour", "contract_price_per_gpu_hour")


def rolled(q: Mapping[str, FloatArray], name: str) -> FloatArray:
    """Input ``name`` rolled from its quote's month to ``start`` (methodology §30):
    ``value * (1 - d)^(roll_months / 12)``, ``d`` its decline (:data:`ROLLS`); the
    value itself without a roll.

    >>> q = {"price_per_gpu_hour": 16.0, "spot_roll_months": 22.0, "price_decline": 0.1}
    >>> f"{float(rolled(q, 'price_per_gpu_hour')):.6f}"  # 16 x 0.9^(22/12)
    '13.189589'
    """
    months, decline = ROLLS[name]
    if months not in q:
        return q[name]
    return q[name] * np.power(1.0 - q[decline], q[months] / MONTHS_PER_YEAR)


def selling_prices(q: dict[str, FloatArray]) -> dict[str, FloatArray]:
    """``q`` with the prices the engine uses: each quote rolled to ``start``
    (:func:`rolled`) and the spot and contract prices times the site's
    ``price_factor`` (unchanged without rolls and factor)."""
    if "price_factor" not in q and not any(m in q for m, _ in ROLLS.values()):
        return q
    out = dict(q)
    for name in ROLLS:
        if name in q:
            out[name] = rolled(q, name)
    if "price_factor" in q:
        for name in FACTORED:
            out[name] = out[name] * q["price_factor"]
    return out
