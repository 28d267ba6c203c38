"""The internal rate of return of cash flows, vectorised over rows (methodology
§11.2): :func:`irr_monthly` / :func:`irr_annual`, bracketed on
:func:`irr_rate_grid` by :mod:`costmodel.core.roots` and refined by safeguarded
Newton steps; :func:`irr_root_count` counts the roots in the range. The
workbook's IRR sheet uses the same grid (:func:`irr_rate_grid`) and its
bisection (:func:`costmodel.core.irrtrace.bisect_trace`).

:func:`irr_monthly` solves ``sum_m v_m (1 + i)^(-m) = 0`` for i in (-1,
``high``]. NPV is sampled on :func:`irr_rate_grid`; every change of sign *from
positive (lower rate) to negative or 0 (higher rate)* brackets an IRR
(:func:`~costmodel.core.roots.falling`; a root where NPV rises through 0, which a
balloon at M can give an equity flow, is not an IRR: methodology §11.2), and the
bracket nearest 0 is refined by Newton's method on ``p(x) = sum v_m x^m``, ``x = 1
/ (1 + i)``, started at the inverse cubic interpolation through the bracket's grid
points and their outer neighbours (or the secant point of the bracket) and
safeguarded by bisection so that it cannot leave the bracket; a row stops when
the Newton step is below ``IRR_STEP_TOLERANCE x``, or the step predicted after it
(``s_k^3 / s_(k-1)^2``, quadratic convergence) is, or the bracket is that narrow,
or ``p(x) = 0``; a bracket at rates below ``-NEAR`` is refined on the reversed
polynomial in ``y = 1 + i`` instead (there ``x`` is large and steps in ``x`` slow).
Rows whose flows do not change sign are not searched (Descartes' rule of signs:
``p`` has no positive root), nor are rows whose cumulative sums from either end
never exceed 0 (NPV <= 0 at every rate); they give NaN, as do rows with no falling
bracket (NPV never reaching 0, or NPV only rising through 0), and so does a root where
``|p(x)| > IRR_ROOT_TOLERANCE sum |v_m| x^m`` (not a root, within rounding). Roots
where NPV touches 0 without crossing are not reported.

Unlike ``numpy_financial.irr``, it never raises and never returns a polynomial
root at which NPV is not zero: a root that does not exist is ``NaN``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.finance import FloatArray, annualize
from costmodel.core.roots import falling, interval_distance, nearest_bracket
from costmodel.core.units import IRR_ROOT_TOLERANCE, IRR_STEP_TOLERANCE

NEAR = 0.06  # monthly rates in [-NEAR, NEAR] are searched first (see irr_monthly)
IRR_HIGH = 10.0  # highest monthly rate searched (1,000% a month)


def irr_rate_grid(periods: int, high: float = IRR_HIGH) -> FloatArray:
    """The monthly rates at which NPV is sampled to bracket the IRR of ``periods``
    cash flows (t = 0..periods-1): dense near 0 (61 points in [-6%, 6%]), then
    geometric out to ``high`` and down to ``10^(-250/(periods-1)) - 1`` (about -100% a
    year; lower rates make ``(1 + i)^-M`` overflow).

    Parameters
    ----------
    periods : int
        Number of cash flows (M + 1).
    high : float, optional
        The highest monthly rate.

    Returns
    -------
    ndarray
        The increasing rates.

    Examples
    --------
    >>> g = irr_rate_grid(73)
    >>> g.size, float(g[0]), float(g[-1])
    (129, -0.99, 10.0)
    """
    low = max(-0.99, 10.0 ** (-250.0 / max(periods - 1, 1)) - 1.0)
    near = np.linspace(-NEAR, NEAR, 61)
    neg = -np.geomspace(NEAR, -low, 30)
    pos = np.geomspace(NEAR, high, 40)
    return np.unique(np.concatenate([neg, near, pos]))


#: lengths of runs of months (see :func:`irr_monthly`); None: one month each
Runs = tuple[int, ...] | None


@lru_cache(maxsize=16)
def _month_powers(n: int, high: float) -> tuple[FloatArray, FloatArray, slice]:
    """:func:`irr_rate_grid` for ``n`` periods, ``(1 + i_g)^(-m)`` of shape ``(n, G)``
    and the slice of grid points within ``[-NEAR, NEAR]``."""
    grid = irr_rate_grid(n, high)
    powers = np.power(1.0 + grid[None, :], -np.arange(n, dtype=float)[:, None])
    near = np.flatnonzero(np.abs(grid) <= NEAR)
    for arr in (grid, powers):
        arr.flags.writeable = False
    return grid, powers, slice(int(near[0]), int(near[-1]) + 1)


@lru_cache(maxsize=64)
def _grid_powers(n: int, high: float, runs: Runs = None) -> tuple[FloatArray, FloatArray, slice]:
    """:func:`_month_powers`; with ``runs``, the powers summed over each run of
    months, month after month, ``(R, G)``."""
    grid, powers, near = _month_powers(n, high)
    if runs is None:
        return grid, powers, near
    starts = np.cumsum((0, *runs[:-1]))
    sums = np.stack([powers[a : a + k].sum(axis=0) for a, k in zip(starts, runs, strict=True)])
    sums.flags.writeable = False
    return grid, sums, near


@lru_cache(maxsize=64)
def _tails(n: int, high: float, runs: Runs = None) -> tuple[np.ndarray, FloatArray, np.ndarray]:
    """The grid without the rates strictly inside ``(-NEAR, NEAR)``: its grid
    indices, their powers (contiguous), and the order in which
    :func:`nearest_bracket` visits its intervals (nearest 0 first, ties: the lower),
    without the one interval that spans the near rates (not a grid interval)."""
    grid, powers, near = _grid_powers(n, high, runs)
    cols = np.r_[np.arange(near.start + 1), np.arange(near.stop - 1, grid.size)]
    order = np.argsort(interval_distance(grid[cols]), kind="stable")
    order = order[order != near.start]  # the gap [-NEAR, NEAR]
    tail_powers = np.ascontiguousarray(powers[:, cols])
    for arr in (cols, tail_powers, order):
        arr.flags.writeable = False
    return cols, tail_powers, order


def _bracket_rows(v: FloatArray, high: float, runs: Runs = None) -> tuple[np.ndarray, FloatArray]:
    """Rows of ``v`` that have an IRR bracket, with ``(lo_rate, hi_rate, f_lo, f_hi)``
    of the :func:`nearest_bracket` to rate 0 among the :func:`falling` ones.

    NPV is first sampled at the grid rates in ``[-NEAR, NEAR]`` only; an interval
    there is always nearer 0 than any interval outside it, so only rows without a
    near bracket need the full grid. The result is the bracket the full grid
    would select; of the others, only those whose NPV may be positive somewhere
    (:func:`_may_rise_above_zero`). With ``runs``, ``v`` holds one value per run of
    months."""
    n = v.shape[1] if runs is None else sum(runs)
    grid, powers, near = _grid_powers(n, high, runs)
    n_rows = v.shape[0]
    g = np.zeros(n_rows, dtype=np.intp)
    has = np.zeros(n_rows, dtype=bool)
    f_lo = np.zeros(n_rows)
    f_hi = np.zeros(n_rows)
    f_out = np.full(n_rows, np.nan)  # f at the grid points just outside the bracket
    f_far = np.full(n_rows, np.nan)
    f = v @ powers[:, near]
    g_near, has_near = nearest_bracket(grid[near], f, mask=falling(f))
    at = np.flatnonzero(has_near)
    g[at] = g_near[at] + near.start
    has[at] = True
    f_lo[at] = f[at, g_near[at]]
    f_hi[at] = f[at, g_near[at] + 1]
    last = f.shape[1] - 1
    f_out[at] = np.where(g_near[at] > 0, f[at, np.maximum(g_near[at] - 1, 0)], np.nan)
    f_far[at] = np.where(g_near[at] + 2 <= last, f[at, np.minimum(g_near[at] + 2, last)], np.nan)
    rest = np.flatnonzero(~has_near)
    rest = rest[_may_rise_above_zero(v[rest], runs)] if rest.size else rest
    if rest.size:  # outside the near rates: only the tails (and the near ends) are new
        cols, tail_powers, order = _tails(n, high, runs)
        f = v[rest] @ tail_powers
        mask = falling(f)
        k = order[np.argmax(mask[:, order], axis=1)]  # nearest_bracket without the gap
        found = mask[np.arange(rest.size), k]
        g[rest], has[rest] = cols[k], found
        f_lo[rest] = f[np.arange(rest.size), k]
        f_hi[rest] = f[np.arange(rest.size), k + 1]
    rows = np.flatnonzero(has)
    g = g[rows]
    outer = np.stack(
        [
            grid[np.maximum(g - 1, 0)],
            grid[np.minimum(g + 2, grid.size - 1)],
            f_out[rows],
            f_far[rows],
        ]
    )
    return rows, np.stack([grid[g], grid[g + 1], f_lo[rows], f_hi[rows]]), outer


def _newton_start(
    bracket: FloatArray, outer: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The bracket in x = 1/(1+i), ``a < b`` (x falls as i rises), ``p(a)`` and the
    start of Newton's method: the inverse cubic interpolation through the bracket's
    ends and their outer neighbours when strictly inside (``outer``: their rates
    and NPVs, NaN where the grid has none), else the secant point, else the
    middle; an end where p is exactly 0 is the root."""
    lo_r, hi_r, fb, fa = bracket
    out_r, far_r, f_out, f_far = outer
    a = 1.0 / (1.0 + hi_r)
    b = 1.0 / (1.0 + lo_r)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = a - fa * (b - a) / (fb - fa)  # secant point
        xs = (a, b, 1.0 / (1.0 + out_r), 1.0 / (1.0 + far_r))
        cubic = _inverse_interpolation(xs, (fa, fb, f_out, f_far))
    x = np.where(np.isfinite(cubic) & (cubic > a) & (cubic < b), cubic, x)
    inside = np.isfinite(x) & (x > a) & (x < b)
    x = np.where(inside, x, 0.5 * (a + b))
    return a, b, fa, np.where(fa == 0, a, np.where(fb == 0, b, x))


def _inverse_interpolation(xs: tuple[FloatArray, ...], fs: tuple[FloatArray, ...]) -> FloatArray:
    """x where the polynomial through the points (f_j, x_j) (x as a function of f,
    Lagrange form) is at f = 0: ``sum_j x_j prod_{k != j} f_k / (f_k - f_j)``."""
    out = np.zeros_like(xs[0])
    for j, (xj, fj) in enumerate(zip(xs, fs, strict=True)):
        term = xj
        for k, fk in enumerate(fs):
            if k != j:
                term = term * (fk / (fk - fj))
        out = out + term
    return out


def _horner_t(values_t: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``p(x) = sum_m v_m x^m`` and ``p'(x)`` per column of ``values_t`` (periods x
    rows, so that each step reads one contiguous row)."""
    p = values_t[-1].copy()
    dp = np.zeros_like(x)
    for m in range(values_t.shape[0] - 2, -1, -1):
        dp *= x
        dp += p
        p *= x
        p += values_t[m]
    return p, dp


def _run_tables(x: FloatArray, runs: tuple[int, ...]) -> dict[int, tuple[FloatArray, ...]]:
    """For each run length L > 1 among ``runs``: ``x^L``, ``S_L = sum_{j<L} x^j``,
    ``S_L' = sum_{j<L} j x^(j-1)`` and ``L x^(L-1)`` (the terms of a run of L
    equal values in Horner's scheme)."""
    top = max(runs)
    power, s, ds = x, 1.0 + x, np.ones_like(x)  # x^1, S_2, S_2'
    out = {}
    for j in range(2, top + 1):  # power = x^(j-1), s = S_j, ds = S_j'
        if j in runs:
            out[j] = (power * x, s, ds, j * power)
        ds = ds + j * power
        power = power * x
        s = s + power
    return out


def _horner_runs_t(
    values_t: FloatArray, x: FloatArray, runs: tuple[int, ...], absolute: bool = False
) -> tuple[FloatArray, FloatArray]:
    """:func:`_horner_t` (with ``absolute``: :func:`_horner_abs_t`) of flows given
    per run of months (``values_t`` (R, rows), each of the ``runs[r]`` months of
    run r carrying ``values_t[r]``): from the last run, ``A_r = v_r S_L + x^L
    A_(r+1)``, ``A_r' = v_r S_L' + L x^(L-1) A_(r+1) + x^L A_(r+1)'`` and the size
    of the terms ``|v_r| S_L + x^L B_(r+1)`` (:func:`_run_tables`); a run of one
    month takes the steps of :func:`_horner_t` and :func:`_horner_abs_t`."""
    tables = _run_tables(x, runs)
    last, k = values_t[-1], runs[-1]
    p = last.copy() if k == 1 else last * tables[k][1]
    if absolute:
        second = np.abs(last) if k == 1 else np.abs(last) * tables[k][1]
    else:
        second = np.zeros_like(x) if k == 1 else last * tables[k][2]
    for r in range(values_t.shape[0] - 2, -1, -1):
        v, k = values_t[r], runs[r]
        power, s, ds, slope = tables[k] if k > 1 else (x, None, None, None)
        if absolute:  # second: the size of the terms
            second *= power
            second += np.abs(v) if k == 1 else np.abs(v) * s
        elif k == 1:  # second: the derivative
            second *= x
            second += p
        else:
            second *= power
            second += p * slope
            second += v * ds
        p *= power
        p += v if k == 1 else v * s
    return p, second


def _horner_abs_t(values_t: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``p(x)`` and ``sum_m |v_m| x^m`` (the size of the terms) per column."""
    p = values_t[-1].copy()
    mag = np.abs(values_t[-1])
    term = np.empty_like(x)
    for m in range(values_t.shape[0] - 2, -1, -1):
        p *= x
        p += values_t[m]
        mag *= x
        mag += np.abs(values_t[m], out=term)
    return p, mag


def _checked_runs(runs: Runs, n: int) -> Runs:
    """``runs`` for ``n`` values (None where every run is one month); a
    ``ValueError`` unless it gives n lengths of at least 1."""
    if runs is None:
        return None
    if len(runs) != n or min(runs, default=1) < 1:
        raise ValueError(f"runs must give {n} lengths of at least 1 month, not {runs!r}")
    return None if all(k == 1 for k in runs) else tuple(runs)


def irr_monthly(
    values: ArrayLike, high: float = IRR_HIGH, max_iter: int = 200, runs: Runs = None
) -> FloatArray:
    """Monthly IRR of each row of ``values``, by the method of the module docstring.

    Parameters
    ----------
    values : array_like
        ``(R, n)`` or ``(n,)`` cash flows, month 0 first.
    high, max_iter : float, int, optional
        The highest monthly rate searched; Newton iterations at most.
    runs : tuple of int, optional
        ``runs[r]`` months each carry ``values[:, r]`` (the flows' IRR written out).

    Returns
    -------
    ndarray
        ``(R,)`` monthly IRRs.

    Examples
    --------
    >>> [round(float(i), 12) for i in irr_monthly([[-100.0, 110.0], [-100.0, 50.0]])]
    [0.1, -0.5]
    >>> round(float(irr_monthly([[-100.0, 5.0, 105.0]], runs=(1, 2, 1))[0]), 12)
    0.05
    """
    v = np.atleast_2d(np.asarray(values, dtype=float))
    n_rows, n = v.shape
    out = np.full(n_rows, np.nan)
    runs = _checked_runs(runs, n)
    if (n if runs is None else sum(runs)) < 2:
        return out
    # Descartes' rule of signs: flows without both a positive and a negative value
    # have no root at a positive discount factor, so only the others are searched
    signed = np.flatnonzero((v > 0).any(axis=1) & (v < 0).any(axis=1))
    if signed.size == 0:
        return out
    out[signed] = _solve(v if signed.size == n_rows else v[signed], high, max_iter, runs)
    return out


def _solve(v: FloatArray, high: float, max_iter: int, runs: Runs) -> FloatArray:
    """:func:`irr_monthly` of the rows ``v`` (R, n), each with a change of sign.

    A row whose bracket lies below ``-NEAR`` (a rate near -100% a month, ``x`` far
    above 1) is refined in ``y = 1 / x = 1 + i`` on the reversed polynomial ``q(y)
    = y^(n-1) p(1/y)`` (same sign as ``p``; :func:`_far_rows`): there ``p`` is
    dominated by its last terms, and Newton's method in ``x`` would shrink ``x`` by
    about ``1/n`` a step, ``n`` steps; in ``y`` those terms are the first."""
    n_rows = v.shape[0]
    out = np.full(n_rows, np.nan)
    rows, bracket, outer = _bracket_rows(v, float(high), runs)
    if rows.size == 0:
        return out
    vt = np.ascontiguousarray(v[rows].T) if rows.size < n_rows else np.ascontiguousarray(v.T)
    far = bracket[0] < -NEAR
    if far.any():
        near, out_of = np.flatnonzero(~far), np.flatnonzero(far)
        x = np.empty(rows.size)
        x[near] = _refine(
            np.take(vt, near, axis=1), bracket[:, near], outer[:, near], runs, max_iter
        )
        x[far] = _far_rows(np.take(vt, out_of, axis=1), bracket[:, far], runs, max_iter)
    else:
        x = _refine(vt, bracket, outer, runs, max_iter)
    # magnitude: sum |v_m| x^m, the rounding scale of p at the root
    p, magnitude = _horner_abs_t(vt, x) if runs is None else _horner_runs_t(vt, x, runs, True)
    good = np.abs(p) <= IRR_ROOT_TOLERANCE * np.maximum(magnitude, 1e-300)
    out[rows] = np.where(good, 1.0 / x - 1.0, np.nan)
    return out


def _may_rise_above_zero(v: FloatArray, runs: Runs) -> np.ndarray:
    """Rows whose NPV may be positive at some rate: not so when every cumulative sum
    of the flows, from month 0 on (``C_m``) and from the last month back (``R_m``),
    is at most 0. By Abel summation ``p(x) = sum_m C_m (x^m - x^(m+1)) + C_(n-1)
    x^(n-1)`` for ``0 < x <= 1`` and likewise in ``R`` and ``1 / x`` for ``x >= 1``:
    then ``p <= 0`` at every rate, no interval falls from positive to 0 or below,
    and the row has no IRR. Within a run of equal months the sums are monotone,
    so the runs' ends are enough."""
    w = v if runs is None else v * np.asarray(runs, dtype=float)
    front = np.cumsum(w, axis=1).max(axis=1)
    back = np.cumsum(w[:, ::-1], axis=1).max(axis=1)
    return (front > 0) | (back > 0) | np.isnan(front) | np.isnan(back)


def _refine(
    vt: FloatArray, bracket: FloatArray, outer: FloatArray, runs: Runs, max_iter: int
) -> FloatArray:
    """The roots ``x`` of the columns of ``vt`` (periods x rows) in their brackets
    (:func:`_bracket_rows`), from :func:`_newton_start`."""
    a, b, fa, x = _newton_start(bracket, outer)
    active = np.flatnonzero((fa != 0) & (bracket[2] != 0))  # positions (in rows) iterating
    return _newton(vt, x, (a, b, fa), active, runs, max_iter)


def _far_rows(vt: FloatArray, bracket: FloatArray, runs: Runs, max_iter: int) -> FloatArray:
    """The roots ``x`` of the columns of ``vt`` whose brackets lie at rates below
    ``-NEAR``, found as ``1 / y`` for the root ``y`` of ``q(y) = sum_m v_m
    y^(n-1-m)`` in ``[1 + lo, 1 + hi]``, from the secant point of ``q`` at the
    bracket's ends (the middle where that is not inside)."""
    back = runs[::-1] if runs is not None else None
    qt = np.ascontiguousarray(vt[::-1])
    a, b = 1.0 + bracket[0], 1.0 + bracket[1]
    fa = _value(qt, a, back)
    fb = _value(qt, b, back)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = a - fa * (b - a) / (fb - fa)
    inside = np.isfinite(x) & (x > a) & (x < b)
    x = np.where(inside, x, 0.5 * (a + b))
    x = np.where(fa == 0, a, np.where(fb == 0, b, x))
    active = np.flatnonzero((fa != 0) & (fb != 0))
    y = _newton(qt, x, (a, b, fa), active, back, max_iter)
    return 1.0 / y


def _value(vt: FloatArray, x: FloatArray, runs: Runs) -> FloatArray:
    """``p(x)`` per column of ``vt``."""
    return (_horner_abs_t(vt, x) if runs is None else _horner_runs_t(vt, x, runs, True))[0]


def _newton(
    vt: FloatArray,
    x: FloatArray,
    bracket: tuple[FloatArray, FloatArray, FloatArray],
    active: np.ndarray,
    runs: Runs,
    max_iter: int,
) -> FloatArray:
    """Safeguarded Newton steps (module docstring) on the columns ``active`` of
    ``vt`` from ``x`` in their brackets ``(a, b, p(a))``; ``x`` with their roots."""
    a, b, fa = bracket
    x = x.copy()
    vt_act = vt if active.size == vt.shape[1] else np.take(vt, active, axis=1)
    xa, aa, ba, faa = x[active], a[active], b[active], fa[active]
    last_step = np.full(active.size, np.inf)  # the previous Newton step (inf: none yet)
    stopped = np.zeros(active.size, dtype=bool)
    for _ in range(max_iter):
        if 4 * stopped.sum() >= max(stopped.size, 1):  # drop finished rows (from time to time)
            keep = ~stopped
            active, xa, aa, ba, faa = active[keep], xa[keep], aa[keep], ba[keep], faa[keep]
            last_step = last_step[keep]
            vt_act = np.compress(keep, vt_act, axis=1)
            stopped = stopped[keep]
        if active.size == 0:
            break
        fx, dfx = _horner_t(vt_act, xa) if runs is None else _horner_runs_t(vt_act, xa, runs)
        same = np.sign(fx) == np.sign(faa)
        aa = np.where(same, xa, aa)
        faa = np.where(same, fx, faa)
        ba = np.where(same, ba, xa)
        lo_x, hi_x = np.minimum(aa, ba), np.maximum(aa, ba)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = xa - fx / dfx
        step_ok = np.isfinite(newton) & (newton >= lo_x) & (newton <= hi_x)
        step = np.abs(newton - xa)
        # converged: this step is below the tolerance, or (quadratic convergence,
        # step_k ~ C step_(k-1)^2) the next one would be: step^3 / last^2 below it
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            next_step = step * (step / last_step) ** 2
        tol = IRR_STEP_TOLERANCE * np.abs(xa)
        predicted = (step < last_step) & np.isfinite(last_step) & (next_step <= tol)
        converged = step_ok & ((step <= tol) | predicted)
        last_step = np.where(step_ok, step, np.inf)
        ok = step_ok & (newton > lo_x) & (newton < hi_x)
        root = fx == 0
        nxt = np.where(root, xa, np.where(converged | ok, newton, 0.5 * (aa + ba)))
        xa = np.where(stopped, xa, nxt)
        stopped |= root | converged | (hi_x - lo_x <= IRR_STEP_TOLERANCE * xa)
        x[active] = xa
    return x


def sign_changes(f: ArrayLike) -> np.ndarray:
    """``(...,)``: how many times the sampled values ``f`` (``(..., G)``) change sign,
    either way; a 0 (or NaN) takes the sign before it, so NPV touching 0 without
    crossing is no change.

    Parameters
    ----------
    f : array_like
        ``(..., G)`` sampled values.

    Returns
    -------
    ndarray of int
        ``(...,)``.

    Examples
    --------
    >>> sign_changes([[1.0, -1.0, 0.0, 2.0], [1.0, 0.0, 3.0, -1.0]]).tolist()
    [2, 1]
    """
    s = np.sign(np.nan_to_num(np.atleast_1d(np.asarray(f, dtype=float)), nan=0.0))
    idx = np.where(s != 0, np.arange(s.shape[-1]), 0)
    np.maximum.accumulate(idx, axis=-1, out=idx)
    filled = np.take_along_axis(s, idx, axis=-1)  # the last nonzero sign so far
    return np.count_nonzero((filled[..., 1:] != filled[..., :-1]) & (filled[..., :-1] != 0), -1)


def irr_root_count(values: ArrayLike, runs: Runs = None, high: float = IRR_HIGH) -> FloatArray:
    """How many roots the NPV of each row of ``values`` has among the monthly rates
    of :func:`irr_rate_grid` (in (-1, ``high``]): its :func:`sign_changes` on that
    grid, either way (two roots inside one grid interval are not seen). More than
    one: the IRR (the falling root nearest 0) is one of several (methodology §11.2).

    Parameters
    ----------
    values : array_like
        ``(R, n)`` or ``(n,)`` monthly cash flows, month 0 first.
    runs : tuple of int, optional
        Lengths of runs of months (:func:`irr_monthly`).
    high : float, optional
        The highest monthly rate.

    Returns
    -------
    ndarray
        ``(R,)`` counts, as floats.

    Examples
    --------
    >>> irr_root_count([[-100.0, 110.0, 0.0], [-100.0, 230.0, -132.0], [1.0, 1.0, 1.0]]).tolist()
    [1.0, 2.0, 0.0]
    """
    v = np.atleast_2d(np.asarray(values, dtype=float))
    runs = _checked_runs(runs, v.shape[1])
    n = v.shape[1] if runs is None else sum(runs)
    if n < 2:
        return np.zeros(v.shape[0])
    _, powers, _ = _grid_powers(n, float(high), runs)
    return sign_changes(v @ powers).astype(float)


def irr_annual(values: ArrayLike, runs: Runs = None) -> FloatArray:
    """Annualized monthly IRR, ``(1 + i)^12 - 1``; NaN where no IRR exists (``runs``:
    see :func:`irr_monthly`).

    Parameters
    ----------
    values : array_like
        ``(R, n)`` or ``(n,)`` monthly cash flows, month 0 first.
    runs : tuple of int, optional
        Lengths of runs of months (:func:`irr_monthly`).

    Returns
    -------
    ndarray
        ``(R,)`` annual IRRs.

    Examples
    --------
    >>> flows = [-100.0] + [0.0] * 11 + [108.0]  # 8% after a year
    >>> round(float(irr_annual(flows)[0]), 12)
    0.08
    """
    return annualize(irr_monthly(values, runs=runs))
