"""The IRR search of one cash flow as the workbook's IRR sheet does it (methodology
§4, IRR solver; §11.2): NPV on :func:`~costmodel.core.irrsolve.irr_rate_grid`, the
:func:`~costmodel.core.roots.falling` brackets, the one nearest 0 and its bisection.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.finance import FloatArray, npv_at_monthly_rates
from costmodel.core.irrsolve import irr_rate_grid
from costmodel.core.roots import falling, interval_distance, nearest_bracket


@dataclass(frozen=True)
class BisectionTrace:
    """The IRR search of one cash-flow row as the workbook's IRR sheet does it:
    NPV at every :func:`irr_rate_grid` rate, the :func:`falling` brackets of that
    grid, the chosen (:func:`nearest_bracket`) interval and ``steps`` bisection halvings
    of it, keeping the end whose NPV has the lower end's sign."""

    grid: FloatArray
    npv: FloatArray
    distance: FloatArray  # of each interval to rate 0 (:func:`interval_distance`)
    bracketed: np.ndarray
    chosen: int  # interval index; 0 when there is none
    found: bool
    lo: FloatArray  # (steps + 1,): the bracket's lower end after each halving
    hi: FloatArray
    sign_lo: float
    roots: int = 0  # intervals across which NPV changes sign, either way (no zero end)

    @property
    def start(self) -> float:
        """The bisection result, the start for spreadsheet IRR (NaN: no root)."""
        return float((self.lo[-1] + self.hi[-1]) / 2) if self.found else float("nan")


def bisect_trace(values: ArrayLike, steps: int) -> BisectionTrace:
    """The :class:`BisectionTrace` of one row of cash flows ``values`` (t = 0..M).

    Parameters
    ----------
    values : array_like
        ``(M + 1,)`` cash flows.
    steps : int
        Bisection halvings of the chosen bracket.

    Returns
    -------
    BisectionTrace

    Examples
    --------
    >>> trace = bisect_trace([-100.0, 110.0], steps=30)
    >>> trace.found, round(trace.start, 8)
    (True, 0.1)
    """
    v = np.asarray(values, dtype=float)
    grid = irr_rate_grid(v.size)
    f = npv_at_monthly_rates(v, grid)
    mask = falling(f)
    g, has = nearest_bracket(grid, f[None, :], mask=mask[None, :])
    found = bool(has[0])
    chosen = int(g[0]) if found else 0
    lo, hi = float(grid[chosen]), float(grid[chosen + 1])
    sign_lo = float(np.sign(npv_at_monthly_rates(v, np.array([lo]))[0]))
    los, his = [lo], [hi]
    for _ in range(steps):
        mid = (lo + hi) / 2
        if np.sign(npv_at_monthly_rates(v, np.array([mid]))[0]) == sign_lo:
            lo = mid
        else:
            hi = mid
        los.append(lo)
        his.append(hi)
    roots = int(np.count_nonzero(np.sign(f[:-1]) * np.sign(f[1:]) < 0))
    return BisectionTrace(
        grid,
        f,
        interval_distance(grid),
        mask,
        chosen,
        found,
        np.array(los),
        np.array(his),
        sign_lo,
        roots,
    )
