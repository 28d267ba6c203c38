"""Pure, vectorised finance functions (no I/O).

Arrays have a leading scenario axis ``S`` and a trailing period axis. Timing:
``values[..., 0]`` is at t=0 and is not discounted, as in ``numpy_financial.npv``
(Excel's ``NPV`` starts at period 1; the workbook adds the t=0 flow outside).

Failure policy: a metric that does not exist (no IRR root, no payback, a zero
denominator) is ``NaN``, never an exception or infinity.
"""

from __future__ import annotations

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
    hit = np.cumsum(v, axis=1)[:, 1:] >= 0
    first = np.argmax(hit, axis=1) + 1
    return np.where(hit.any(axis=1), first / MONTHS_PER_YEAR, np.nan)


def _rate_grid(low: float, high: float) -> FloatArray:
    """Monthly rates where NPV is sampled to find sign changes: dense near 0."""
    near = np.linspace(-0.06, 0.06, 61)
    neg = -np.geomspace(0.06, -low, 30)
    pos = np.geomspace(0.06, high, 40)
    return np.unique(np.concatenate([neg, near, pos]))


def _horner(values: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``p(x) = sum_m values_m x^m`` and ``p'(x)`` for each row."""
    p = np.zeros_like(x)
    dp = np.zeros_like(x)
    for m in range(values.shape[1] - 1, -1, -1):
        dp = dp * x + p
        p = p * x + values[:, m]
    return p, dp


def irr_monthly(values: ArrayLike, high: float = 10.0, max_iter: int = 200) -> FloatArray:
    """Monthly internal rate of return of each row of ``values`` (t = 0, 1, ...).

    Solves ``sum_m v_m (1 + i)^(-m) = 0`` for i in (-1, ``high``]. NPV is sampled
    on a grid of rates (dense near 0); every sign change brackets a root, and the
    bracket nearest 0 is refined by Newton's method on ``p(x) = sum v_m x^m``,
    ``x = 1 / (1 + i)``, safeguarded by bisection so that it cannot leave the
    bracket. Rows with no bracket (no sign change in the flows, or NPV never
    reaching 0) give NaN. Roots where NPV touches 0 without crossing are not
    reported. Rates below ``10^(-250/M) - 1`` (about -100% a year) are not searched,
    to keep ``(1 + i)^(-M)`` finite.

    Unlike ``numpy_financial.irr``, this never raises and never returns a
    polynomial root at which NPV is not zero.
    """
    v = np.atleast_2d(np.asarray(values, dtype=float))
    n_rows, n = v.shape
    out = np.full(n_rows, np.nan)
    if n < 2:
        return out
    low = max(-0.99, 10.0 ** (-250.0 / (n - 1)) - 1.0)
    grid = _rate_grid(low, high)
    powers = np.power(1.0 + grid[None, :], -np.arange(n, dtype=float)[:, None])  # (n, G)
    f = v @ powers  # NPV at each grid rate, (rows, G)
    sign = np.sign(f)
    bracket = (sign[:, :-1] * sign[:, 1:] <= 0) & ~((sign[:, :-1] == 0) & (sign[:, 1:] == 0))
    has = bracket.any(axis=1)
    if not has.any():
        return out
    lo_r, hi_r = grid[:-1], grid[1:]
    dist = np.where((lo_r <= 0) & (hi_r >= 0), 0.0, np.minimum(np.abs(lo_r), np.abs(hi_r)))
    g = np.argmin(np.where(bracket, dist[None, :], np.inf), axis=1)
    rows = np.flatnonzero(has)
    g = g[rows]
    vv = v[rows]
    # bracket in x = 1/(1+i): x decreases as i increases
    a = 1.0 / (1.0 + hi_r[g])
    b = 1.0 / (1.0 + lo_r[g])
    fa = f[rows, g + 1]
    x = 0.5 * (a + b)
    done = np.zeros(rows.size, dtype=bool)
    for _ in range(max_iter):
        fx, dfx = _horner(vv, x)
        done |= fx == 0  # x is a root: keep it
        same = np.sign(fx) == np.sign(fa)
        a = np.where(same, x, a)
        fa = np.where(same, fx, fa)
        b = np.where(same, b, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = x - fx / dfx
        lo_x, hi_x = np.minimum(a, b), np.maximum(a, b)
        ok = np.isfinite(newton) & (newton > lo_x) & (newton < hi_x)
        nxt = np.where(ok, newton, 0.5 * (a + b))
        small = (np.abs(nxt - x) <= 1e-15 * np.abs(x)) | (hi_x - lo_x <= 1e-15 * x)
        x = np.where(done, x, nxt)
        done |= small
        if done.all():
            break
    fx, _ = _horner(vv, x)
    magnitude, _ = _horner(np.abs(vv), x)  # size of the terms at the root: the rounding scale
    good = np.abs(fx) <= 1e-9 * np.maximum(magnitude, 1e-300)
    out[rows] = np.where(good, 1.0 / x - 1.0, np.nan)
    return out


def irr_annual(values: ArrayLike) -> FloatArray:
    """Annualized monthly IRR, ``(1 + i)^12 - 1``; NaN where no IRR exists."""
    return annualize(irr_monthly(values))
