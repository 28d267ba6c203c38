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
    return np.moveaxis(years.sum(axis=-1), -1, axis)
