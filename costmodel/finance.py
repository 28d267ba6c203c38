"""Pure, vectorised finance functions (no I/O).

Arrays have a leading scenario axis ``S`` and a trailing period axis. Timing:
``values[..., 0]`` is at t=0 and is not discounted, as in ``numpy_financial.npv``
(Excel's ``NPV`` starts at period 1; the workbook adds the t=0 flow outside).

Failure policy: a metric that does not exist (no IRR root, no payback, a zero
denominator) is ``NaN``, never an exception or infinity.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

HOURS_PER_MONTH = 730.0  # 8760 / 12, spec 1
MONTHS_PER_YEAR = 12

FloatArray = NDArray[np.float64]


def monthly_rate(annual_rate: ArrayLike) -> FloatArray:
    """``r_m = (1 + r)^(1/12) - 1``."""
    return np.power(1.0 + np.asarray(annual_rate, dtype=float), 1.0 / MONTHS_PER_YEAR) - 1.0


def annualize(monthly: ArrayLike) -> FloatArray:
    """``(1 + r_m)^12 - 1``."""
    return np.power(1.0 + np.asarray(monthly, dtype=float), MONTHS_PER_YEAR) - 1.0


def discount_factors(annual_rate: ArrayLike, months: int) -> FloatArray:
    """``d_m = (1 + r_m)^(-m)`` for m = 0..months; shape ``(S, months + 1)``."""
    r_m = np.atleast_1d(monthly_rate(annual_rate))[:, None]
    return np.power(1.0 + r_m, -np.arange(months + 1, dtype=float)[None, :])


def safe_divide(num: ArrayLike, den: ArrayLike) -> FloatArray:
    """``num / den``, NaN where ``den`` is 0 (or either is NaN)."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)
    return out


# ----------------------------------------------------------------------------- depreciation


def depreciation_annual(
    cost: ArrayLike, salvage_fraction: ArrayLike, method: str, life_years: int
) -> FloatArray:
    """Annual depreciation for asset years k = 1..L; shape ``(S, L)``.

    With cost C, salvage S = salvage_fraction * C and life L:

    - ``straight_line`` (Excel ``SLN``): ``(C - S) / L``
    - ``sum_of_years`` (Excel ``SYD``): ``(C - S) * (L - k + 1) / (L (L + 1) / 2)``
    - ``double_declining`` (Excel ``VDB`` with factor 2, switching to straight line):
      with book value B at the start of year k,
      ``dep_k = min(max(B * 2 / L, (B - S) / (L - k + 1)), B - S)``
    """
    c = np.atleast_1d(np.asarray(cost, dtype=float))
    s = np.broadcast_to(np.asarray(salvage_fraction, dtype=float), c.shape) * c
    L = int(life_years)
    k = np.arange(1, L + 1, dtype=float)[None, :]
    base = (c - s)[:, None]
    if method == "straight_line":
        return np.broadcast_to(base / L, (c.size, L)).copy()
    if method == "sum_of_years":
        return base * (L - k + 1) / (L * (L + 1) / 2)
    if method == "double_declining":
        out = np.empty((c.size, L))
        book = c.copy()
        for j in range(L):
            remaining = L - j
            dep = np.minimum(np.maximum(book * 2.0 / L, (book - s) / remaining), book - s)
            dep = np.maximum(dep, 0.0)  # book may sit a rounding error below salvage
            out[:, j] = dep
            book = book - dep
        return out
    raise ValueError(f"unknown depreciation method {method!r}")


def spread_annual_to_months(annual: FloatArray, months: int) -> FloatArray:
    """Monthly amounts for m = 0..months: asset year k's amount spread evenly over
    months 12(k-1)+1 .. 12k; zero at m = 0 and after the last asset year."""
    s, life = annual.shape
    m = np.arange(months + 1)
    year = -(-m // MONTHS_PER_YEAR)  # ceil(m / 12), 0 at m = 0
    padded = np.zeros((s, max(life, int(year.max())) + 1))
    padded[:, 1 : life + 1] = annual / MONTHS_PER_YEAR
    return padded[:, year]


# ----------------------------------------------------------------------------- cash-flow metrics


def npv(annual_rate: ArrayLike, values: ArrayLike) -> FloatArray:
    """``sum_m values_m (1 + r_m)^(-m)`` with monthly periods and ``values[..., 0]``
    undiscounted (same as ``numpy_financial.npv(r_m, values)``)."""
    v = np.atleast_2d(np.asarray(values, dtype=float))
    return np.sum(v * discount_factors(annual_rate, v.shape[1] - 1), axis=1)


def payback_years(values: ArrayLike) -> FloatArray:
    """Smallest m >= 1 with ``sum_{0..m} values >= 0``, in years (m / 12); NaN if never."""
    v = np.atleast_2d(np.asarray(values, dtype=float))
    # running sum month by month (the same additions as np.cumsum along a row)
    total = v[:, 0].copy()
    first = np.zeros(v.shape[0], dtype=np.intp)
    for m in range(1, v.shape[1]):
        total += v[:, m]
        first[(first == 0) & (total >= 0)] = m
    return np.where(first > 0, first / MONTHS_PER_YEAR, np.nan)


def _rate_grid(low: float, high: float) -> FloatArray:
    """Monthly rates where NPV is sampled to find sign changes: dense near 0."""
    near = np.linspace(-0.06, 0.06, 61)
    neg = -np.geomspace(0.06, -low, 30)
    pos = np.geomspace(0.06, high, 40)
    return np.unique(np.concatenate([neg, near, pos]))


def _horner(values: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``p(x) = sum_m values_m x^m`` and ``p'(x)`` for each row."""
    return _horner_t(np.ascontiguousarray(values.T), x)


def _horner_t(values_t: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """:func:`_horner` on the transposed coefficients ``values_t`` (periods x rows),
    so that each step reads one contiguous row; updates in place."""
    p = values_t[-1].copy()
    dp = np.zeros_like(x)
    for m in range(values_t.shape[0] - 2, -1, -1):
        dp *= x
        dp += p
        p *= x
        p += values_t[m]
    return p, dp


NEAR = 0.06  # monthly rates in [-NEAR, NEAR] are searched first (see irr_monthly)


@lru_cache(maxsize=8)
def _grid_powers(n: int, high: float) -> tuple[FloatArray, FloatArray, slice]:
    """The search grid of monthly rates for ``n`` periods, ``(1 + i_g)^(-m)`` of
    shape ``(n, G)``, and the slice of grid points within ``[-NEAR, NEAR]``."""
    low = max(-0.99, 10.0 ** (-250.0 / (n - 1)) - 1.0)
    grid = _rate_grid(low, high)
    powers = np.power(1.0 + grid[None, :], -np.arange(n, dtype=float)[:, None])
    near = np.flatnonzero(np.abs(grid) <= NEAR)
    for arr in (grid, powers):
        arr.flags.writeable = False
    return grid, powers, slice(int(near[0]), int(near[-1]) + 1)


def _nearest_brackets(f: FloatArray, grid: FloatArray) -> tuple[FloatArray, FloatArray]:
    """For each row of ``f`` (NPV at the rates ``grid``) the index g of the interval
    ``[grid[g], grid[g+1]]`` that brackets a root (sign change, or one end exactly
    0 but not both) nearest to rate 0 (distance 0 if it contains 0, else that of
    its nearer end; ties: the lower interval), and whether any exists. NaN ends
    never bracket."""
    sign = (f > 0).view(np.int8) - (f < 0).view(np.int8)
    bracket = sign[:, :-1] != sign[:, 1:]
    if np.isnan(f.sum()):  # NaN (or inf - inf) somewhere: exclude NaN ends
        nan = np.isnan(f)
        bracket &= ~(nan[:, :-1] | nan[:, 1:])
    lo_r, hi_r = grid[:-1], grid[1:]
    dist = np.where((lo_r <= 0) & (hi_r >= 0), 0.0, np.minimum(np.abs(lo_r), np.abs(hi_r)))
    order = np.argsort(dist, kind="stable")
    g = order[np.argmax(bracket[:, order], axis=1)]
    return g, bracket[np.arange(f.shape[0]), g]


def _bracket_rows(v: FloatArray, high: float) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Rows of ``v`` that have a root bracket, with the bracket's NPV at both ends:
    ``(rows, lo_rate, hi_rate, f_lo, f_hi)`` packed as (rows, g-interval data).

    NPV is first sampled at the grid rates in ``[-NEAR, NEAR]`` only; an interval
    there is always nearer 0 than any interval outside it (distance < NEAR <= any
    outside distance), so only rows without a near bracket need the full grid.
    The result is the bracket the full grid would select."""
    grid, powers, near = _grid_powers(v.shape[1], high)
    n_rows = v.shape[0]
    g = np.zeros(n_rows, dtype=np.intp)
    has = np.zeros(n_rows, dtype=bool)
    f_lo = np.zeros(n_rows)
    f_hi = np.zeros(n_rows)
    f = v @ powers[:, near]
    g_near, has_near = _nearest_brackets(f, grid[near])
    at = np.flatnonzero(has_near)
    g[at] = g_near[at] + near.start
    has[at] = True
    f_lo[at] = f[at, g_near[at]]
    f_hi[at] = f[at, g_near[at] + 1]
    rest = np.flatnonzero(~has_near)
    if rest.size:
        f = v[rest] @ powers
        g_all, has_all = _nearest_brackets(f, grid)
        g[rest], has[rest] = g_all, has_all
        f_lo[rest] = f[np.arange(rest.size), g_all]
        f_hi[rest] = f[np.arange(rest.size), g_all + 1]
    rows = np.flatnonzero(has)
    g = g[rows]
    return rows, np.stack([grid[g], grid[g + 1], f_lo[rows], f_hi[rows]])


def _horner_abs_t(values_t: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``p(x)`` and ``sum_m |values_m| x^m`` (the size of the terms) per row."""
    p = values_t[-1].copy()
    mag = np.abs(values_t[-1])
    term = np.empty_like(x)
    for m in range(values_t.shape[0] - 2, -1, -1):
        p *= x
        p += values_t[m]
        mag *= x
        mag += np.abs(values_t[m], out=term)
    return p, mag


def irr_monthly(values: ArrayLike, high: float = 10.0, max_iter: int = 200) -> FloatArray:
    """Monthly internal rate of return of each row of ``values`` (t = 0, 1, ...).

    Solves ``sum_m v_m (1 + i)^(-m) = 0`` for i in (-1, ``high``]. NPV is sampled
    on a grid of rates (dense near 0); every sign change brackets a root, and the
    bracket nearest 0 is refined by Newton's method on ``p(x) = sum v_m x^m``,
    ``x = 1 / (1 + i)``, started at the secant point of the bracket and safeguarded
    by bisection so that it cannot leave the bracket; a row stops when the Newton
    step is below ``1e-15 x`` (or the bracket is that narrow, or ``p(x) = 0``).
    Rows with no bracket (no sign change in the flows, or NPV never reaching 0)
    give NaN, and so does a root where ``|p(x)| > 1e-9 sum |v_m| x^m`` (not a
    root, within rounding). Roots where NPV touches 0 without crossing are not
    reported. Rates below ``10^(-250/M) - 1`` (about -100% a year) are not
    searched, to keep ``(1 + i)^(-M)`` finite.

    Unlike ``numpy_financial.irr``, this never raises and never returns a
    polynomial root at which NPV is not zero. Rows are refined only while they
    are unconverged, so the cost is a few polynomial evaluations per row.
    """
    v = np.atleast_2d(np.asarray(values, dtype=float))
    n_rows, n = v.shape
    out = np.full(n_rows, np.nan)
    if n < 2:
        return out
    rows, (lo_r, hi_r, fb, fa) = _bracket_rows(v, float(high))
    if rows.size == 0:
        return out
    # bracket in x = 1/(1+i): x decreases as i increases, so a < b; fa = p(a), fb = p(b)
    a = 1.0 / (1.0 + hi_r)
    b = 1.0 / (1.0 + lo_r)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = a - fa * (b - a) / (fb - fa)  # secant point
    inside = np.isfinite(x) & (x > a) & (x < b)
    x = np.where(inside, x, 0.5 * (a + b))
    x = np.where(fa == 0, a, np.where(fb == 0, b, x))  # a grid rate is an exact root
    vt = np.ascontiguousarray(v[rows].T) if rows.size < n_rows else np.ascontiguousarray(v.T)
    active = np.flatnonzero((fa != 0) & (fb != 0))  # positions (in rows) still iterating
    vt_act = np.take(vt, active, axis=1)  # C order: each period is a contiguous row
    xa, aa, ba, faa = x[active], a[active], b[active], fa[active]
    stopped = np.zeros(active.size, dtype=bool)
    for _ in range(max_iter):
        if 4 * stopped.sum() >= max(stopped.size, 1):  # drop finished rows (from time to time)
            keep = ~stopped
            active, xa, aa, ba, faa = active[keep], xa[keep], aa[keep], ba[keep], faa[keep]
            vt_act = np.compress(keep, vt_act, axis=1)
            stopped = stopped[keep]
        if active.size == 0:
            break
        fx, dfx = _horner_t(vt_act, xa)
        same = np.sign(fx) == np.sign(faa)
        aa = np.where(same, xa, aa)
        faa = np.where(same, fx, faa)
        ba = np.where(same, ba, xa)
        lo_x, hi_x = np.minimum(aa, ba), np.maximum(aa, ba)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = xa - fx / dfx
        step_ok = np.isfinite(newton) & (newton >= lo_x) & (newton <= hi_x)
        converged = step_ok & (np.abs(newton - xa) <= 1e-15 * np.abs(xa))
        ok = step_ok & (newton > lo_x) & (newton < hi_x)
        root = fx == 0
        nxt = np.where(root, xa, np.where(converged | ok, newton, 0.5 * (aa + ba)))
        xa = np.where(stopped, xa, nxt)
        stopped |= root | converged | (hi_x - lo_x <= 1e-15 * xa)
        x[active] = xa
    p, magnitude = _horner_abs_t(vt, x)  # magnitude: the rounding scale of p at the root
    good = np.abs(p) <= 1e-9 * np.maximum(magnitude, 1e-300)
    out[rows] = np.where(good, 1.0 / x - 1.0, np.nan)
    return out


def irr_annual(values: ArrayLike) -> FloatArray:
    """Annualized monthly IRR, ``(1 + i)^12 - 1``; NaN where no IRR exists."""
    return annualize(irr_monthly(values))
