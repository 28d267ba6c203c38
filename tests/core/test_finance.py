"""Finance functions against spreadsheet functions and textbook values.

Depreciation reference values are the results of LibreOffice Calc's SLN, SYD
and VDB functions (same definitions as Excel's); they were computed by
``python tests/reference/spreadsheet_refs.py``, which writes the formulas into a
workbook and has LibreOffice recalculate it, and are copied here.
"""

from __future__ import annotations

import numpy as np
import numpy_financial as npf
import pytest

from costmodel.core import finance as fin

# LibreOffice Calc: SYD(2400,300,10,k) and VDB(2400,300,10,k-1,k) for k = 1..10
SYD_2400_300_10 = [
    381.818181818182, 343.636363636364, 305.454545454545, 267.272727272727,
    229.090909090909, 190.909090909091, 152.727272727273, 114.545454545455,
    76.3636363636364, 38.1818181818182,
]  # fmt: skip
VDB_2400_300_10 = [
    480, 384, 307.2, 245.76, 196.608, 157.2864, 125.82912, 100.663296,
    80.5306368, 22.1225472000001,
]  # fmt: skip
# VDB(1000000,50000,5,k-1,k): the switch to straight line happens in year 4
VDB_1M_50K_5 = [400000, 240000, 144000, 86400, 79600]
# VDB(1000000,0,5,k-1,k): with no salvage the switch comes a year earlier
VDB_1M_0_5 = [400000, 240000, 144000, 108000, 108000]
SYD_1M_50K_5 = [316666.666666667, 253333.333333333, 190000, 126666.666666667, 63333.3333333333]


def test_straight_line_matches_sln():
    dep = fin.depreciation_annual(2400, 300 / 2400, "straight_line", 10)
    np.testing.assert_allclose(dep[0], [210.0] * 10)  # SLN(2400,300,10) = 210


@pytest.mark.parametrize(
    ("cost", "salvage", "life", "expected"),
    [(2400, 300, 10, SYD_2400_300_10), (1_000_000, 50_000, 5, SYD_1M_50K_5)],
)
def test_sum_of_years_matches_syd(cost, salvage, life, expected):
    dep = fin.depreciation_annual(cost, salvage / cost, "sum_of_years", life)
    np.testing.assert_allclose(dep[0], expected, rtol=1e-12)


def test_syd_published_example():
    # Excel's documentation: SYD(30000, 7500, 10, 1) = 4,090.91
    dep = fin.depreciation_annual(30_000, 0.25, "sum_of_years", 10)
    assert dep[0, 0] == pytest.approx(4090.90909090909)


@pytest.mark.parametrize(
    ("cost", "salvage", "life", "expected"),
    [
        (2400, 300, 10, VDB_2400_300_10),
        (1_000_000, 50_000, 5, VDB_1M_50K_5),
        (1_000_000, 0, 5, VDB_1M_0_5),
    ],
)
def test_double_declining_matches_vdb(cost, salvage, life, expected):
    dep = fin.depreciation_annual(cost, salvage / cost, "double_declining", life)
    np.testing.assert_allclose(dep[0], expected, rtol=1e-12)


def test_depreciation_is_vectorised_over_scenarios():
    dep = fin.depreciation_annual([2400, 1_000_000], [0.125, 0.05], "double_declining", 5)
    assert dep.shape == (2, 5)
    np.testing.assert_allclose(dep[1], VDB_1M_50K_5)


def test_monthly_rate_and_discount_factors():
    assert fin.monthly_rate(0.1268250301319698) == pytest.approx(0.01)  # 1.01^12 - 1
    d = fin.discount_factors(0.1268250301319698, 3)
    np.testing.assert_allclose(d[0], [1, 1 / 1.01, 1 / 1.01**2, 1 / 1.01**3])


def test_present_value_matches_numpy_financial():
    flows = [-1000, 300, 400, 500, 200]
    r = 0.08
    pv = fin.present_value(flows, fin.discount_factors(r, 4))[0]
    assert pv == pytest.approx(npf.npv((1 + r) ** (1 / 12) - 1, flows), rel=1e-14)


def test_npv_at_monthly_rates_matches_numpy_financial():
    flows = [-1000, 300, 400, 500, 200]
    got = fin.npv_at_monthly_rates(flows, np.array([-0.05, 0.0, 0.01, 0.3]))
    want = [npf.npv(r, flows) for r in (-0.05, 0.0, 0.01, 0.3)]
    np.testing.assert_allclose(got, want, rtol=1e-13)


def test_payback_is_when_cumulative_cash_stays_non_negative():
    flows = np.array(
        [
            [-100, 30, 30, 30, 30, 30],  # cumulative -70 -40 -10 +20 +50: month 4
            [-100, 10, 10, 10, 10, 10],  # never
            [-100, 60, 60, -50, 30, 30],  # +20 at month 2, -30 at 3, +0 at 4: month 4
            [0, 5, 5, 5, 5, 5],  # never negative: month 1
        ]
    )
    out = fin.payback_years(np.cumsum(flows, axis=1))
    assert out[0] == pytest.approx(4 / 12)
    assert np.isnan(out[1])
    assert out[2] == pytest.approx(4 / 12)  # v2: the month-2 crossing does not count
    assert out[3] == pytest.approx(1 / 12)


def test_safe_divide_gives_nan_not_inf():
    out = fin.safe_divide([1.0, 0.0, 2.0], [0.0, 0.0, 4.0])
    assert np.isnan(out[0]) and np.isnan(out[1]) and out[2] == 0.5


def test_discount_sums_over_runs_of_months_in_closed_form():
    """The engine's discount sums over runs of months (first month a, k months):
    the factors (1 + r_m)^-m written out and added, to rounding; a run of one month
    is the month's factor itself, exactly; a zero rate gives k."""
    from costmodel.core.discount import Discount as _Discount

    annual = np.array([0.0, 0.1268250301319698, 0.5])  # r_m = 0, 1%, 3.4366...%
    starts, lengths = np.array([0, 1, 13, 25, 60]), [1, 12, 11, 1, 13]
    got = _Discount(annual).sums(starts, lengths)
    r_m = (1 + annual) ** (1 / 12) - 1
    for s, r in enumerate(r_m):
        runs = zip(starts, lengths, strict=True)
        want = [sum((1 + r) ** -m for m in range(a, a + k)) for a, k in runs]
        np.testing.assert_allclose(got[:, s], want, rtol=1e-14)
    np.testing.assert_array_equal(got[:, 0], lengths)
    table = fin.discount_factors(annual, 72, months_first=True)
    np.testing.assert_array_equal(got[[0, 3]], table[[0, 25]])
