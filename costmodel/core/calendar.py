"""The model's calendar: months 0..M, month 0 the investment month, model year y
the months 12(y-1)+1 .. 12y (methodology, timeline).

:func:`year_sums` is the one place where months are summed into years; the
engine, the model's annual table and the writers all read it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.units import MONTHS_PER_YEAR


def year_sums(monthly: ArrayLike, axis: int = -1) -> np.ndarray:
    """Months 1..M summed per model year; month 0 (the investment month) is left out.

    For a series x over months t = 0..M (M a multiple of 12), along ``axis``:

        year_sums(x)[y - 1] = sum(x[t] for t in 12(y-1)+1 .. 12y),  y = 1..M/12

    Parameters
    ----------
    monthly : array_like
        Values by month, months 0..M along ``axis``.
    axis : int
        The month axis (default the last). The result has the year axis there,
        of length M/12; the other axes are kept.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(25.0)  # months 0..24: two model years
    >>> year_sums(x)
    array([ 78., 222.])
    >>> year_sums(np.stack([x, 2 * x]))
    array([[ 78., 222.],
           [156., 444.]])
    >>> year_sums(x[:, None], axis=0)
    array([[ 78.],
           [222.]])
    """
    x = np.moveaxis(np.asarray(monthly, dtype=float), axis, -1)
    months = x.shape[-1] - 1
    if months < 0 or months % MONTHS_PER_YEAR:
        raise ValueError(
            f"year_sums needs months 0..M with M a multiple of {MONTHS_PER_YEAR}; "
            f"got {x.shape[-1]} months along axis {axis}"
        )
    years = x[..., 1:].reshape(*x.shape[:-1], months // MONTHS_PER_YEAR, MONTHS_PER_YEAR)
    contiguous = years.strides[-1] == years.itemsize  # numpy sums such months pairwise
    return np.moveaxis(_twelve(years) if contiguous else years.sum(axis=-1), -1, axis)


def _twelve(years: np.ndarray) -> np.ndarray:
    """``years.sum(axis=-1)`` of a last axis of 12 months, in numpy's order for twelve
    (``0 + ((m1 + m2) + (m3 + m4)) + ((m5 + m6) + (m7 + m8)) + m9 + m10 + m11 +
    m12``), with one operation per month across all years and variants: numpy's
    reduction runs one short loop per year and variant."""
    m = [years[..., j] for j in range(MONTHS_PER_YEAR)]
    out = ((m[0] + m[1]) + (m[2] + m[3])) + ((m[4] + m[5]) + (m[6] + m[7]))
    for j in range(8, MONTHS_PER_YEAR):
        out += m[j]
    return 0.0 + out  # the reduction starts from 0: a sum of -0.0s is 0.0
