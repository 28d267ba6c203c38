"""The discount rate the financing implies (methodology §11.10)."""

from __future__ import annotations

import numpy as np

from costmodel.core.finance import FloatArray
from costmodel.core.tierparams import TierParams


def wacc(
    debt_share: FloatArray,
    interest_rate: FloatArray,
    tax_rate: FloatArray,
    cost_of_equity: FloatArray,
) -> FloatArray:
    """The after-tax weighted average cost of capital, ``D * interest_rate * (1 -
    tax_rate) + (1 - D) * cost_of_equity`` with ``D`` the debt share (0 without
    financing, which gives the cost of equity).

    >>> round(float(wacc(0.6, 0.05, 0.25, 0.12)), 12)
    0.0705
    """
    d = np.asarray(debt_share, dtype=float)
    return d * interest_rate * (1.0 - np.asarray(tax_rate)) + (1.0 - d) * cost_of_equity


def with_discount_rate(q: TierParams) -> TierParams:
    """The engine inputs ``q`` with ``discount_rate`` set: as given, or, with the
    flag ``discount_wacc`` (``finance.discount_rate: wacc``), :func:`wacc` of the
    tier's debt share, loan rate, tax rate and cost of equity (each (S,), so a
    drawn loan rate moves the rate of its draw)."""
    if q.discount_wacc is None or not np.any(q.discount_wacc):
        return q
    rate = wacc(q.debt_share, q.interest_rate, q.tax_rate, q.cost_of_equity)
    given = rate if q.discount_rate is None else q.discount_rate
    return q.replaced(discount_rate=np.where(np.asarray(q.discount_wacc) > 0, rate, given))


def discount_rates(q: TierParams) -> FloatArray:
    """(S,): the rate the NPV is discounted at, the summary column ``discount_rate``."""
    return np.asarray(q.discount_rate, dtype=float) + 0.0
