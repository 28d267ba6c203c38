"""The contract revenue a counterparty default puts at risk (methodology §11.12);
the contracts' survival itself is :func:`costmodel.core.timing.surviving`."""

from __future__ import annotations

import numpy as np

from costmodel.core.finance import FloatArray
from costmodel.core.lines import Coefficients, monthly_line
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import Clock, tier_shapes


def contract_at_risk(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    contract_revenue: Coefficients,
    shapes: list,
    clock: Clock,
) -> FloatArray:
    """(S,): ``contract_at_risk = sum_m`` contract revenue without default - with
    default (nominal): the contract revenue on the shapes without survival less the
    same on ``shapes`` (the tier's, with it), the revenue lost, not net of the
    defaulted hours' spot resale. 0 without a default rate."""
    size = q.gpus.shape[0]
    if not np.any(q.contract_default_rate > 0) or not contract_revenue:
        return np.zeros(size)
    raw = tier_shapes(q.replaced(contract_default_rate=np.zeros(size)), deps, clock)
    lost = monthly_line(contract_revenue, raw, clock) - monthly_line(
        contract_revenue, shapes, clock
    )
    return np.broadcast_to(lost.sum(axis=1), (size,)) + 0.0
