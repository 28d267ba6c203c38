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

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from costmodel.core.finance import FloatArray
from costmodel.core.tierparams import TierParams
from costmodel.core.units import MONTHS_PER_YEAR

KW_PER_MW = 1000.0


def it_kw(q: TierParams, gpus: FloatArray) -> FloatArray:
    """IT load of ``gpus`` GPUs: ``gpus / gpus_per_server * power_kw * (1 + aux)``."""
    return gpus / q.gpus_per_server * q.server_power_kw * (1.0 + q.aux_power_fraction)


def facility_mw(q: TierParams, all_gpus: Sequence[FloatArray]) -> FloatArray:
    """``P = it_kw(final cluster) * pue / 1000`` (MW, methodology §29)."""
    return it_kw(q, sum(all_gpus)) * q.pue / KW_PER_MW


def grid_excess_mw(q: TierParams, all_gpus: Sequence[FloatArray]) -> FloatArray:
    """MW a build-mode tier must connect: ``build_flag * max(0, P - grid_mw)``; 0
    without a grid limit."""
    if q.grid_mw is None:
        return np.zeros_like(np.asarray(q.gpus, dtype=float))
    return q.build_flag * np.maximum(facility_mw(q, all_gpus) - q.grid_mw, 0.0)


def first_capex_month(q: TierParams, all_gpus: Sequence[FloatArray]) -> FloatArray:
    """``B = round(build_months) + grid_lead_months * [a connection is needed]``,
    then ``max(B, lead_months)`` (methodology §29, §30)."""
    build = np.round(q.build_months)
    if q.grid_mw is not None:
        build = build + np.round(q.grid_lead_months) * (grid_excess_mw(q, all_gpus) > 0)
    if q.lead_months is not None:
        build = np.maximum(build, np.round(q.lead_months))
    return build


def grid_connection(q: TierParams, all_gpus: Sequence[FloatArray]) -> FloatArray:
    """Capex of the grid connection at month 0: ``excess MW * grid_connection_per_mw``."""
    if q.grid_mw is None:
        return np.zeros_like(np.asarray(q.gpus, dtype=float))
    return grid_excess_mw(q, all_gpus) * q.grid_connection_per_mw


#: a rolled input -> (its months of roll, the input of its annual decline)
ROLLS = {
    "price_per_gpu_hour": ("spot_roll_months", "price_decline"),
    "contract_price_per_gpu_hour": ("contract_roll_months", "price_decline"),
    "cloud_price_per_gpu_hour": ("cloud_roll_months", "price_decline"),
    "server_price": ("server_price_roll_months", "server_price_decline"),
}

#: the inputs the site's ``price_factor`` multiplies
FACTORED = ("price_per_gpu_hour", "contract_price_per_gpu_hour")


def _check_inputs() -> None:
    """Every name of :data:`ROLLS` and :data:`FACTORED` is an engine input (a field
    of :class:`TierParams`): a misspelt one raises ``AttributeError`` when this
    module is imported."""
    named = {n for k, (m, d) in ROLLS.items() for n in (k, m, d)} | set(FACTORED)
    for name in sorted(named - {f.name for f in fields(TierParams)}):
        raise AttributeError(f"siteprices names {name!r}, no engine input")


_check_inputs()


def rolled(q: Any, name: str) -> FloatArray:
    """Input ``name`` of ``q`` (:class:`~costmodel.core.tierparams.TierParams`)
    rolled from its quote's month to ``start`` (methodology §30): ``value * (1 -
    d)^(roll_months / 12)``, ``d`` its decline (:data:`ROLLS`); the value itself
    without a roll.

    >>> from types import SimpleNamespace
    >>> q = SimpleNamespace(price_per_gpu_hour=16.0, spot_roll_months=22.0, price_decline=0.1)
    >>> f"{float(rolled(q, 'price_per_gpu_hour')):.6f}"  # 16 x 0.9^(22/12)
    '13.189589'
    """
    months, decline = ROLLS[name]
    value, roll = getattr(q, name), getattr(q, months)
    if roll is None:
        return value
    return value * np.power(1.0 - getattr(q, decline), roll / MONTHS_PER_YEAR)


def selling_prices(q: TierParams) -> TierParams:
    """``q`` with the prices the engine uses: each quote rolled to ``start``
    (:func:`rolled`) and the spot and contract prices times the site's
    ``price_factor`` (unchanged without rolls and factor)."""
    if q.price_factor is None and all(getattr(q, m) is None for m, _ in ROLLS.values()):
        return q
    out = {name: rolled(q, name) for name in ROLLS if getattr(q, name) is not None}
    if q.price_factor is not None:
        for name in FACTORED:
            out[name] = out[name] * q.price_factor
    return q.replaced(**out)
