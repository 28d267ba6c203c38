"""costmodel.core.calendar: months summed into model years, against hand sums,
and its doctests."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import costmodel as cm
from costmodel.core import calendar
from costmodel.core.calendar import year_sums


def test_doctests_pass():
    result = doctest.testmod(calendar)
    assert result.attempted >= 3 and result.failed == 0


def test_month_zero_is_left_out_and_each_year_is_its_twelve_months():
    x = np.zeros(37)
    x[0] = 1e9  # the investment month belongs to no model year
    x[1] = 1.0  # first month of year 1
    x[12] = 2.0  # last month of year 1
    x[13] = 4.0  # first month of year 2
    x[36] = 8.0  # last month of year 3
    assert year_sums(x).tolist() == [3.0, 4.0, 8.0]


def test_other_axes_are_kept():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(3, 25, 2))
    out = year_sums(x, axis=1)
    assert out.shape == (3, 2, 2)
    for s in range(3):
        for k in range(2):
            assert out[s, 0, k] == pytest.approx(sum(x[s, 1:13, k]))
            assert out[s, 1, k] == pytest.approx(sum(x[s, 13:25, k]))


def test_the_model_annual_table_and_the_monthly_flows_agree():
    model = cm.build(cm.load_assumptions())
    tier = model.tiers[0]
    flows, annual = model.cash_flow(tier), model.annual(tier)
    assert year_sums(flows["fcf"].to_numpy()) == pytest.approx(annual["fcf"].to_numpy()[1:])


@pytest.mark.parametrize("length", [0, 12, 14, 26])
def test_a_partial_year_is_refused(length):
    with pytest.raises(ValueError, match="multiple of 12"):
        year_sums(np.ones(length))


def test_year_sums_are_numpys_sums_of_each_year_to_the_last_bit():
    """The twelve months are added in the order numpy's own sum adds them (so every
    figure is as before), for any sizes, signs and axes, a sum of -0.0s is 0.0."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 73)) * rng.lognormal(0.0, 8.0, size=(400, 73))
    x[0] = -0.0
    x[1, 5] = np.inf
    x[2, 30] = np.nan
    for data, axis in ((x, -1), (x[7], -1), (x.T, 0), (np.broadcast_to(x[3], (9, 73)), -1)):
        moved = np.moveaxis(data, axis, -1)
        want = moved[..., 1:].reshape(*moved.shape[:-1], 6, 12).sum(axis=-1)
        got = np.moveaxis(year_sums(data, axis=axis), axis, -1)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
