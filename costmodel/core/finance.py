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

from costmodel.core.units import MONTHS_PER_YEAR

FloatArray = NDArray[np.float64]


def monthly_rate(annual_rate: ArrayLike) -> FloatArray:
    """The monthly rate compounding to an annual rate: ``r_m = (1 + r)^(1/12) - 1``.

    Parameters
    ----------
    annual_rate : array_like
        Annual rates ``r`` (fractions).

    Returns
    -------
    ndarray
        Monthly rates, the shape of ``annual_rate``.

    Examples
    --------
    >>> round(float(monthly_rate(0.08)), 8)
    0.00643403
    >>> [round(float(x), 6) for x in monthly_rate([0.0, 0.12])]
    [0.0, 0.009489]
    """
    return np.power(1.0 + np.asarray(annual_rate, dtype=float), 1.0 / MONTHS_PER_YEAR) - 1.0


def loan_monthly_rate(annual_rate: ArrayLike, nominal: ArrayLike) -> FloatArray:
    """The monthly rate a loan is charged: ``interest_rate / 12`` where ``nominal``
    is 1 (the convention of PRC banks and LPR-based loans, 月利率 = 年利率 / 12),
    :func:`monthly_rate` where it is 0 (an effective annual rate).

    Parameters
    ----------
    annual_rate : array_like
        Annual loan rates (fractions).
    nominal : array_like
        1 for the nominal convention, 0 for the effective one.

    Returns
    -------
    ndarray
        Monthly rates, broadcast over both arguments.

    Examples
    --------
    >>> float(loan_monthly_rate(0.06, 1.0))
    0.005
    >>> round(float(loan_monthly_rate(0.06, 0.0)), 8)
    0.00486755
    """
    rate = np.asarray(annual_rate, dtype=float)
    return np.where(np.asarray(nominal) > 0, rate / MONTHS_PER_YEAR, monthly_rate(rate))


def annualize(monthly: ArrayLike) -> FloatArray:
    """The annual rate of a monthly rate: ``(1 + r_m)^12 - 1`` (the inverse of
    :func:`monthly_rate`).

    Parameters
    ----------
    monthly : array_like
        Monthly rates ``r_m``.

    Returns
    -------
    ndarray
        Annual rates, the shape of ``monthly``.

    Examples
    --------
    >>> round(float(annualize(0.01)), 6)
    0.126825
    >>> round(float(annualize(monthly_rate(0.08))), 12)
    0.08
    """
    return np.power(1.0 + np.asarray(monthly, dtype=float), MONTHS_PER_YEAR) - 1.0


def discount_factors(annual_rate: ArrayLike, months: int, months_first: bool = False) -> FloatArray:
    """Discount factors ``d_m = (1 + r_m)^(-m)`` for m = 0..months, with ``r_m`` the
    :func:`monthly_rate` of each annual rate.

    Computed as ``exp(-m ln(1 + r_m))``, within 2 units in the last place of the
    power (``d_0 = 1`` and rate 0 give exactly 1).

    Parameters
    ----------
    annual_rate : array_like
        Annual discount rates, a scalar or ``(S,)``.
    months : int
        The last month M.
    months_first : bool, optional
        Return ``(months + 1, S)`` instead of ``(S, months + 1)``.

    Returns
    -------
    ndarray
        ``(S, months + 1)`` factors (``(months + 1, S)`` with ``months_first``).

    Examples
    --------
    >>> d = discount_factors(0.08, 12)
    >>> d.shape
    (1, 13)
    >>> float(d[0, 0]), round(float(d[0, 12]), 10), round(1 / 1.08, 10)
    (1.0, 0.9259259259, 0.9259259259)
    """
    log_base = np.log(1.0 + np.atleast_1d(monthly_rate(annual_rate)))
    m = np.arange(months + 1, dtype=float)
    exponents = np.multiply.outer(-m, log_base) if months_first else np.multiply.outer(log_base, -m)
    # in place: no second table of the same size
    return np.exp(exponents, out=exponents)


def safe_divide(num: ArrayLike, den: ArrayLike) -> FloatArray:
    """``num / den``, NaN where ``den`` is 0 (or either is NaN), never infinity.

    Parameters
    ----------
    num, den : array_like
        Numerators and denominators (broadcast together).

    Returns
    -------
    ndarray
        The quotients.

    Examples
    --------
    >>> [float(x) for x in safe_divide([1.0, 2.0], [4.0, 0.0])]
    [0.25, nan]
    """
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)
    return out


# ----------------------------------------------------------------------------- depreciation


def depreciation_annual(
    cost: ArrayLike, salvage_fraction: ArrayLike, method: str, life_years: int
) -> FloatArray:
    """Annual depreciation for asset years k = 1..L; shape ``(S, L)`` (straight
    line: a read-only view, every column the same).

    With cost C, salvage S = salvage_fraction * C and life L:

    - ``straight_line`` (Excel ``SLN``): ``(C - S) / L``
    - ``sum_of_years`` (Excel ``SYD``): ``(C - S) * (L - k + 1) / (L (L + 1) / 2)``
    - ``double_declining`` (Excel ``VDB`` with factor 2, switching to straight line):
      with book value B at the start of year k,
      ``dep_k = min(max(B * 2 / L, (B - S) / (L - k + 1)), B - S)``

    Parameters
    ----------
    cost : array_like
        Cost C per scenario, a scalar or ``(S,)``.
    salvage_fraction : array_like
        Salvage as a fraction of cost.
    method : {"straight_line", "sum_of_years", "double_declining"}
        The depreciation method; any other raises ``ValueError``.
    life_years : int
        Useful life L in years.

    Returns
    -------
    ndarray
        ``(S, L)`` depreciation of asset years 1..L.

    Examples
    --------
    >>> depreciation_annual(100.0, 0.1, "straight_line", 3).tolist()
    [[30.0, 30.0, 30.0]]
    >>> [round(float(x), 4) for x in depreciation_annual(100.0, 0.0, "sum_of_years", 3)[0]]
    [50.0, 33.3333, 16.6667]
    >>> depreciation_annual(100.0, 0.0, "double_declining", 4).tolist()
    [[50.0, 25.0, 12.5, 12.5]]
    """
    c = np.atleast_1d(np.asarray(cost, dtype=float))
    s = np.broadcast_to(np.asarray(salvage_fraction, dtype=float), c.shape) * c
    L = int(life_years)
    k = np.arange(1, L + 1, dtype=float)[None, :]
    base = (c - s)[:, None]
    if method == "straight_line":
        return np.broadcast_to(base / L, (c.size, L))
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


# ----------------------------------------------------------------------------- cash-flow metrics


def present_value(values: ArrayLike, discount: ArrayLike) -> FloatArray:
    """``sum_m values_m d_m`` along the last axis: the one discounting sum of the
    package.

    Parameters
    ----------
    values : array_like
        Cash flows, ``(..., M + 1)``, month 0 first.
    discount : array_like
        Factors of :func:`discount_factors`, broadcast against ``values``.

    Returns
    -------
    ndarray
        Present values, ``values`` without its last axis.

    Examples
    --------
    >>> d = discount_factors(0.08, 12)
    >>> flows = [-100.0] + [0.0] * 11 + [108.0]
    >>> round(float(present_value(flows, d)[0]), 9)
    0.0
    """
    return np.sum(np.multiply(values, discount), axis=-1)


def npv_at_monthly_rates(values: ArrayLike, monthly_rates: ArrayLike) -> FloatArray:
    """NPV of the cash flows ``values`` at each monthly rate ``i_g``:
    ``sum_m v_m (1 + i_g)^(-m)`` (the IRR grid of :mod:`costmodel.core.irrsolve`).

    Parameters
    ----------
    values : array_like
        Cash flows, ``(..., M + 1)``, month 0 first.
    monthly_rates : array_like
        ``(G,)`` monthly rates.

    Returns
    -------
    ndarray
        ``(..., G)`` NPVs.

    Examples
    --------
    >>> [round(float(x), 9) for x in npv_at_monthly_rates([-100.0, 110.0], [0.0, 0.05])]
    [10.0, 4.761904762]
    """
    v = np.asarray(values, dtype=float)
    rates = np.asarray(monthly_rates, dtype=float)
    powers = np.power(1.0 + rates[None, :], -np.arange(v.shape[-1], dtype=float)[:, None])
    return v @ powers


def payback_years(cumulative: ArrayLike, axis: int = -1) -> FloatArray:
    """Payback (methodology §8.4, choice 8) from the cumulative cash ``c_m`` (m = 0..M along
    ``axis``, -1 or 0; the caller leaves the terminal value out): the smallest
    m >= 1 from which ``c`` stays >= 0 through M, in years (m / 12); NaN if
    ``c_M < 0``. The last negative month is found by one ``argmax`` over the
    reversed months.

    Parameters
    ----------
    cumulative : array_like
        Cumulative cash ``c_m``, ``(S, M + 1)`` with ``axis=-1`` or ``(M + 1, S)``
        with ``axis=0``.
    axis : {-1, 0}, optional
        The months axis.

    Returns
    -------
    ndarray
        ``(S,)`` payback in years.

    Examples
    --------
    >>> import numpy as np
    >>> cumulative = np.cumsum([-100.0] + [10.0] * 24)  # 10 a month on 100
    >>> round(float(payback_years(cumulative)[0]) * 12, 9)  # months
    10.0
    >>> float(payback_years([-100.0, -50.0, 20.0, -1.0])[0])  # below 0 at the end
    nan
    """
    c = np.asarray(cumulative, dtype=float)
    c = np.atleast_2d(c) if axis == -1 else c.reshape(c.shape[0], -1)
    width = c.shape[axis]
    negative = c < 0
    flipped = negative[:, ::-1] if axis == -1 else negative[::-1]
    last = width - 1 - np.argmax(flipped, axis=axis)  # last month below 0
    cols = np.arange(last.size)
    at_last = negative[cols, last] if axis == -1 else negative[last, cols]
    first = np.where(at_last, last + 1, 1)
    return np.where(first <= width - 1, first / MONTHS_PER_YEAR, np.nan)
