"""Discounting: monthly discount factors, their sums over runs of months in
closed form, and the engine's cache of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core import finance as fin
from costmodel.core.finance import FloatArray
from costmodel.core.memo import Memo
from costmodel.core.timing import when


def discount_table(rate: ArrayLike, months: int) -> FloatArray:
    """:func:`finance.discount_factors`, computed once per distinct rate."""
    r = np.atleast_1d(np.asarray(rate, dtype=float))
    unique, inverse = np.unique(r, return_inverse=True)
    if unique.size == 1:
        return np.broadcast_to(fin.discount_factors(unique, months), (r.size, months + 1))
    if 2 * unique.size > r.size:
        return fin.discount_factors(r, months)
    return fin.discount_factors(unique, months)[inverse.reshape(-1)]


class Discount:
    """Discounting at the annual ``rate`` of each variant ((1,) when all share it,
    else (S,)): the factors ``d(m) = exp(-m L)``, ``L = ln(1 + r_m)``
    (:func:`finance.discount_factors`), month by month (:meth:`table`) or summed
    over runs of months in closed form (:meth:`sums`)."""

    def __init__(self, rate: FloatArray):
        self.rate = rate
        self.key = rate.tobytes()  # what it is computed from, for the caches
        self.log_base = np.log(1.0 + fin.monthly_rate(rate))
        self._step = np.expm1(-self.log_base)  # e^(-L) - 1, every ratio's denominator
        self._tables: dict[int, FloatArray] = {}
        self._ratios: dict[int, FloatArray] = {}

    def table(self, months: int) -> FloatArray:
        """(M+1, 1 or S), read-only: ``d(m)`` for m = 0..M."""
        out = self._tables.get(months)
        if out is None:
            out = fin.discount_factors(self.rate, months, months_first=True)
            out.flags.writeable = False
            self._tables[months] = out
        return out

    def _ratio(self, k: int) -> FloatArray:
        """``sum_{j<k} e^(-jL) = (1 - e^(-kL)) / (1 - e^(-L))`` (k where L = 0), by
        ``expm1``; exactly 1 for k = 1."""
        out = self._ratios.get(k)
        if out is None:
            with np.errstate(invalid="ignore"):
                out = np.expm1(-k * self.log_base) / self._step
            out = np.where(self.log_base == 0.0, float(k), out)
            self._ratios[k] = out
        return out

    def sums(self, starts: np.ndarray, lengths: Sequence[int]) -> FloatArray:
        """(R, 1 or S): ``sum_{m=a}^{a+k-1} d(m) = d(a) sum_{j<k} e^(-jL)`` for each
        run of months (first month a, k months): one exponential per run, within a
        few units in the last place of the k factors added; a run of one month is
        ``d(a)`` itself."""
        out = np.exp(np.multiply.outer(-np.asarray(starts, dtype=float), self.log_base))
        for r, k in enumerate(lengths):
            if k != 1:
                out[r] *= self._ratio(k)
        return out

    def same_rates(self, other: Discount) -> bool:
        """Whether ``other`` discounts every variant at the same rate."""
        return other is self or np.array_equal(other.rate, self.rate)


#: the discounting of the last few rates (the tiers of one chunk share the discount
#: rate and usually the cost of equity)
DISCOUNTS = Memo("discounting", 8)

#: sums of discount factors over a tier's runs of months or segments, by (what, the
#: key of the shapes or segments, the key of the rates)
DISCOUNTED = Memo("discounted sums", 16)


def discounting(rate: FloatArray) -> Discount:
    """The :class:`Discount` of ``rate`` (S,) (one for all variants when they
    share it), kept in :data:`DISCOUNTS`."""
    r = when(rate)[:, 0]
    return DISCOUNTS.get(r.tobytes(), lambda: Discount(r))


def sum_rows(x: FloatArray) -> FloatArray:
    """``x.sum(axis=0)`` of an (n, S) array added row after row, also when S = 1
    (numpy sums a single column pairwise): a variant's sum does not depend on
    whether its discount rate was shared by the chunk (a (M+1, 1) column) or not."""
    return x.sum(axis=0) if x.shape[1] > 1 else np.cumsum(x, axis=0)[-1]


def pv_months(x: FloatArray, d: FloatArray) -> FloatArray:
    """(S,): present value ``sum_m x(m) d(m)`` of x (M+1, S) at d (M+1, S or 1)."""
    return (x * d).sum(axis=0)
