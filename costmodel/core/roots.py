"""Root finding by bracketing, vectorised over rows (one implementation for the
whole package).

- :func:`brackets` marks the grid intervals where a sampled function changes sign
  (one end exactly 0 counts; NaN ends never do). Every root search uses it;
  :func:`falling` marks those where it falls through 0 (an IRR's).
- :func:`first_bracket` / :func:`nearest_bracket` pick one bracket per row.
- :func:`solve` refines brackets of many independent problems at once by rounds
  of finer grids, each round one call of the caller's vectorised function (the
  break-even searches of :mod:`costmodel.analysis`).

The internal rate of return is solved on these brackets in
:mod:`costmodel.core.irrsolve`.

Failure policy: a root that does not exist is ``NaN``, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.finance import FloatArray

# ----------------------------------------------------------------------------- brackets


def brackets(f: ArrayLike) -> np.ndarray:
    """Boolean ``(..., G - 1)``: interval ``[g, g + 1]`` brackets a root of the
    sampled values ``f`` (``(..., G)``): the signs of its ends differ (so one end
    exactly 0 and the other not counts; both 0 does not). NaN ends never bracket.

    Parameters
    ----------
    f : array_like
        ``(..., G)`` values of a function at G increasing grid points.

    Returns
    -------
    ndarray of bool
        ``(..., G - 1)``, True where the interval brackets a root.

    Examples
    --------
    >>> brackets([-1.0, 2.0, 3.0, 0.0, 1.0]).tolist()
    [True, False, True, True]
    >>> brackets([1.0, float("nan"), -1.0]).tolist()
    [False, False]
    """
    f = np.asarray(f, dtype=float)
    sign = (f > 0).view(np.int8) - (f < 0).view(np.int8)
    out = sign[..., :-1] != sign[..., 1:]
    if np.isnan(f.sum()):  # NaN (or inf - inf) somewhere: exclude NaN ends
        nan = np.isnan(f)
        out &= ~(nan[..., :-1] | nan[..., 1:])
    return out


def falling(f: ArrayLike) -> np.ndarray:
    """Boolean ``(..., G - 1)``: interval ``[g, g + 1]`` of the sampled NPVs ``f``
    (``(..., G)``, at increasing rates) brackets an IRR: NPV is positive at its
    lower end and negative or exactly 0 at its upper end (methodology §11.2). NaN
    ends never bracket.

    Parameters
    ----------
    f : array_like
        ``(..., G)`` NPVs at increasing rates.

    Returns
    -------
    ndarray of bool
        ``(..., G - 1)``.

    Examples
    --------
    >>> falling([2.0, -1.0, 3.0, 0.0, -1.0]).tolist()
    [True, False, True, False]
    """
    f = np.asarray(f, dtype=float)
    return (f[..., :-1] > 0) & (f[..., 1:] <= 0)


def first_bracket(grid: ArrayLike, f: ArrayLike) -> tuple[FloatArray, ...]:
    """Per row of ``f`` (values at ``grid``, both ``(R, G)`` or ``grid`` ``(G,)``): the
    first root, as ``(lo, hi, f_lo, f_hi)``: the first point where ``f`` is exactly
    0 (then ``lo = hi``) or the first interval of :func:`brackets`, whichever comes
    first; NaNs where there is none.

    Parameters
    ----------
    grid : array_like
        ``(G,)`` or ``(R, G)`` increasing points.
    f : array_like
        ``(R, G)`` values at ``grid``.

    Returns
    -------
    tuple of ndarray
        ``(lo, hi, f_lo, f_hi)``, each ``(R,)``.

    Examples
    --------
    >>> lo, hi, f_lo, f_hi = first_bracket([0.0, 1.0, 2.0, 3.0], [[2.0, 1.0, -1.0, 1.0]])
    >>> float(lo[0]), float(hi[0]), float(f_lo[0]), float(f_hi[0])
    (1.0, 2.0, 1.0, -1.0)
    """
    f = np.atleast_2d(np.asarray(f, dtype=float))
    g = np.broadcast_to(np.asarray(grid, dtype=float), f.shape)
    zero = f[:, :-1] == 0
    hit = zero | brackets(f)
    last_zero = f[:, -1] == 0  # a root at the last point has no interval of its own
    rows = np.arange(f.shape[0])
    k = np.argmax(hit, axis=1)
    found = hit[rows, k]
    lo, hi = g[rows, k], np.where(zero[rows, k], g[rows, k], g[rows, k + 1])
    f_lo, f_hi = f[rows, k], np.where(zero[rows, k], f[rows, k], f[rows, k + 1])
    end = ~found & last_zero
    nan = np.full(f.shape[0], np.nan)
    return (
        np.where(found, lo, np.where(end, g[:, -1], nan)),
        np.where(found, hi, np.where(end, g[:, -1], nan)),
        np.where(found, f_lo, np.where(end, 0.0, nan)),
        np.where(found, f_hi, np.where(end, 0.0, nan)),
    )


def interval_distance(grid: FloatArray, target: float = 0.0) -> FloatArray:
    """Distance of each interval ``[grid[g], grid[g+1]]`` to ``target``: 0 if it
    contains the target, else that of its nearer end.

    Parameters
    ----------
    grid : ndarray
        ``(G,)`` increasing points.
    target : float, optional

    Returns
    -------
    ndarray
        ``(G - 1,)`` distances.

    Examples
    --------
    >>> interval_distance(np.array([-1.0, 0.0, 1.0, 2.0]), 1.5).tolist()
    [1.5, 0.5, 0.0]
    """
    lo_r, hi_r = grid[:-1] - target, grid[1:] - target
    return np.where((lo_r <= 0) & (hi_r >= 0), 0.0, np.minimum(np.abs(lo_r), np.abs(hi_r)))


def nearest_bracket(
    grid: FloatArray, f: FloatArray, target: float = 0.0, mask: np.ndarray | None = None
) -> tuple[np.ndarray, ...]:
    """Per row of ``f`` (``(R, G)`` values at the increasing ``grid``): the index g of
    the interval ``[grid[g], grid[g+1]]`` of :func:`brackets` (or of ``mask``, e.g.
    :func:`falling`) nearest to ``target`` (distance 0 if it contains the target,
    else that of its nearer end; ties: the lower interval), and whether any exists.

    Parameters
    ----------
    grid : ndarray
        ``(G,)`` increasing points.
    f : ndarray
        ``(R, G)`` values at ``grid``.
    target : float, optional
    mask : ndarray of bool, optional
        ``(R, G - 1)`` the intervals to choose from (default :func:`brackets` of ``f``).

    Returns
    -------
    tuple of ndarray
        ``(g, found)``, each ``(R,)`` (``g`` is the nearest interval to ``target`` where
        none is found).

    Examples
    --------
    >>> g, found = nearest_bracket(np.array([-1.0, 0.0, 1.0, 2.0]),
    ...                            np.array([[1.0, -1.0, 1.0, -1.0], [1.0, 1.0, 1.0, 1.0]]), 1.5)
    >>> g.tolist(), found.tolist()
    ([2, 2], [True, False])
    """
    mask = brackets(f) if mask is None else mask
    order = np.argsort(interval_distance(grid, target), kind="stable")
    # a row with one bracket has it first; only rows with several visit the order
    count = np.count_nonzero(mask, axis=1)
    g = np.argmax(mask, axis=1)
    g[count == 0] = order[0]
    many = np.flatnonzero(count > 1)
    if many.size:
        g[many] = order[np.argmax(mask[many][:, order], axis=1)]
    return g, count > 0


def secant_root(lo: ArrayLike, hi: ArrayLike, f_lo: ArrayLike, f_hi: ArrayLike) -> FloatArray:
    """The root of the chord through ``(lo, f_lo)`` and ``(hi, f_hi)``, kept inside
    ``[lo, hi]``; an end where f is exactly 0 is itself the root.

    Parameters
    ----------
    lo, hi : array_like
        The bracket's ends.
    f_lo, f_hi : array_like
        f at them.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> secant_root([0.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [3.0, 5.0]).tolist()
    [0.5, 0.0]
    """
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    f_lo, f_hi = np.asarray(f_lo, dtype=float), np.asarray(f_hi, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = lo - f_lo * (hi - lo) / (f_hi - f_lo)
    x = np.minimum(np.maximum(x, lo), hi)
    return np.where(f_lo == 0, lo, np.where(f_hi == 0, hi, x))


# ----------------------------------------------------------------------------- solve


@dataclass(frozen=True)
class Solution:
    """Roots of :func:`solve`, one per problem: ``root`` (NaN: no sign change in the
    range) and the final bracket."""

    root: FloatArray
    lo: FloatArray
    hi: FloatArray


Evaluate = Callable[[Sequence[FloatArray]], Sequence[FloatArray]]

SOLVE_POINTS = 33  # candidates per round and problem
SOLVE_ROUNDS = 9  # each round narrows a bracket 32x: 32**-9 ~ 3e-14 of the range
LINEAR_TOL = 1e-12  # a grid's values on one line to this share of their largest: linear


def solve(
    evaluate: Evaluate,
    lo: ArrayLike,
    hi: ArrayLike,
    *,
    points: int = SOLVE_POINTS,
    rounds: int = SOLVE_ROUNDS,
) -> Solution:
    """The first root in ``[lo_j, hi_j]`` of each of J problems f_j.

    ``evaluate(xs)`` gets one array of candidate points per problem and returns f
    at them (one vectorised call for all problems: the engine's scenario axis).
    Each round samples ``points`` points across every live bracket and keeps the
    :func:`first_bracket`; a problem stops early when a sample is exactly 0, or
    when the samples around its bracket (from the one before it to the one after
    it) lie on one line (to :data:`LINEAR_TOL` of the largest): f is then linear
    across the bracket (one kink in it or beside it would put one of them off the
    line), so the secant of the bracket is the root and further rounds would only
    narrow it. The root is the :func:`secant_root` of the final bracket; NaN where f
    has no sign change (and no zero) on the first grid.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(xs) -> fs``: for a list of J arrays of points, the J arrays of f_j
        (an empty array for a problem already solved).
    lo, hi : array_like
        ``(J,)`` ends of the search ranges.
    points : int, optional
        Candidates per round and problem.
    rounds : int, optional
        Rounds of refinement; each narrows a bracket ``points - 1`` times.

    Returns
    -------
    Solution
        ``root``, ``lo`` and ``hi`` per problem.

    Examples
    --------
    >>> s = solve(lambda xs: [x**2 - 2.0 for x in xs], [0.0], [2.0])
    >>> round(float(s.root[0]), 12), round(2**0.5, 12)
    (1.414213562373, 1.414213562373)
    >>> float(solve(lambda xs: [x + 5.0 for x in xs], [0.0], [1.0]).root[0])  # no root
    nan
    """
    lo = np.array(lo, dtype=float, ndmin=1)
    hi = np.array(hi, dtype=float, ndmin=1)
    f_lo = np.full(lo.shape, np.nan)
    f_hi = np.full(lo.shape, np.nan)
    live = np.ones(lo.shape, dtype=bool)
    for _ in range(rounds):
        if not live.any():
            break
        grids = [
            np.linspace(a, b, points) if ok else np.empty(0)
            for a, b, ok in zip(lo, hi, live, strict=True)
        ]
        values = evaluate(grids)
        for j in np.flatnonzero(live):
            b = first_bracket(grids[j], values[j])
            lo[j], hi[j], f_lo[j], f_hi[j] = (float(x[0]) for x in b)
            exact = np.isnan(lo[j]) or f_lo[j] == 0 or lo[j] == hi[j]
            if exact or _linear_around(grids[j], values[j], lo[j]):
                live[j] = False
    root = np.where(np.isnan(lo), np.nan, secant_root(lo, hi, f_lo, f_hi))
    return Solution(root, lo, hi)


def _linear_around(x: FloatArray, f: FloatArray, lo: float) -> bool:
    """:func:`linear` on the samples from one before the bracket ``[x_g, x_{g+1}]``
    (``x_g = lo``) to one after it: one kink in the bracket, or beside it, puts one
    of them off the line through the others."""
    g = int(np.searchsorted(x, lo))
    near = slice(max(g - 1, 0), g + 3)
    return linear(x[near], f[near])


def linear(x: FloatArray, f: FloatArray, tol: float = LINEAR_TOL) -> bool:
    """Whether the samples ``f`` at the increasing ``x`` lie on the line through
    the first and the last: ``max |f - line| <= tol * max |f|`` (finite values).

    Parameters
    ----------
    x, f : ndarray
        Points and the values at them.
    tol : float, optional
        Share of ``max |f|`` the values may stray from the chord of the ends.

    Returns
    -------
    bool

    Examples
    --------
    >>> linear(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0]))
    True
    >>> linear(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 6.0]))
    False

    Examples
    --------
    >>> x = np.linspace(0.0, 1.0, 5)
    >>> linear(x, 3.0 * x - 1.0), linear(x, x**2 - 0.5)
    (True, False)
    """
    f = np.asarray(f, dtype=float)
    if x.size < 3 or not np.all(np.isfinite(f)):
        return False
    line = f[0] + (f[-1] - f[0]) * (x - x[0]) / (x[-1] - x[0])
    return bool(np.max(np.abs(f - line)) <= tol * np.max(np.abs(f)))
