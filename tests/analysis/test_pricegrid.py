"""Price x utilization NPV grid (methodology §9.2): the base cell is the summary,
NPV rises with price and utilization, the contour agrees with break-even."""

from __future__ import annotations

import math

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis.breakeven import break_even
from costmodel.analysis.pricegrid import grid_axis, price_utilization_grid

DEFAULT = cm.load_assumptions()


@pytest.fixture(scope="module")
def grid():
    return price_utilization_grid(DEFAULT)


@pytest.fixture(scope="module")
def summary():
    return cm.build(DEFAULT).summary()


def _table(grid, tier):
    g = grid[grid["tier"] == tier]
    return g.pivot(index="price_per_gpu_hour", columns="utilization", values="npv")


def test_grid_axis_holds_the_base_value():
    # linspace(0.3, 0.85, 7) = 0.3, 0.3917, 0.4833, 0.575, ...: 0.575 is nearest 0.6
    axis = grid_axis(0.6, 0.3, 0.85, 7)
    want = [0.3, 0.3 + 0.55 / 6, 0.3 + 1.1 / 6, 0.6, 0.3 + 2.2 / 6, 0.3 + 2.75 / 6, 0.85]
    assert axis == pytest.approx(want, rel=1e-12)


def test_base_cell_equals_summary_npv(grid, summary):
    for tier in DEFAULT.tiers:
        base = grid[(grid["tier"] == tier) & grid["base"]]
        assert len(base) == 1
        assert float(base["npv"].iloc[0]) == pytest.approx(summary.loc[tier, "npv"], rel=1e-9)


def _utilization(a, tier):
    """The tier's utilization quantity: its own where it gives one, else the global."""
    own = a.tiers[tier].operations
    if own is not None and own.utilization is not None:
        return own.utilization
    return a.operations.utilization


def test_grid_is_at_least_5x5_and_utilization_spans_its_range(grid):
    for tier in DEFAULT.tiers:
        t = _table(grid, tier)
        assert t.shape == (7, 7)
        # the tier's utilization (operations.utilization or its own): value, low, high
        u = _utilization(DEFAULT, tier)
        assert t.columns.min() == pytest.approx(u.low) and t.columns.max() == pytest.approx(u.high)
        assert u.value in set(t.columns)


def test_npv_rises_with_price_and_utilization(grid):
    for tier in DEFAULT.tiers:
        v = _table(grid, tier).to_numpy()
        assert (np.diff(v, axis=0) > 0).all(), tier
        assert (np.diff(v, axis=1) > 0).all(), tier


def test_contour_agrees_with_break_even_price(grid):
    be = break_even(DEFAULT)
    bracketed = 0
    for tier in DEFAULT.tiers:
        p_be = float(be.loc[tier, "price_per_gpu_hour"])
        g = grid[(grid["tier"] == tier) & (grid["utilization"] == 0.6)]
        for _, r in g.iterrows():
            assert r["positive"] == (r["price_per_gpu_hour"] > p_be), (tier, r)
        if g["price_per_gpu_hour"].min() < p_be < g["price_per_gpu_hour"].max():
            # linear interpolation between the two grid prices around the root
            bracketed += 1
            assert g["break_even_price"].iloc[0] == pytest.approx(p_be, rel=2e-3)
        else:  # NPV keeps one sign over the price axis at this utilization
            assert g["break_even_price"].isna().all()
    assert bracketed >= 1  # the thousands tier's break-even lies inside its price range


#: the tens tier sold by the hour (the default's is captive) at the utilization
#: 0.6 (0.3..0.85) of the other tiers' spot hours
RENTAL = {
    "tiers.tens.revenue.mode": "rental",
    "tiers.tens.operations.utilization": {"value": 0.6, "low": 0.3, "high": 0.85},
}
#: the tens tier at year-1 prices 8..14 (12 the value): no cell of its grid pays back
LOW_PRICES = {
    **RENTAL,
    "tiers.tens.revenue.price_per_gpu_hour": {"value": 12.0, "low": 8.0, "high": 14.0},
}
#: the tens tier at year-1 prices 60..80 (70 the value): every cell pays back
HIGH_PRICES = {
    **RENTAL,
    "tiers.tens.revenue.price_per_gpu_hour": {"value": 70.0, "low": 60.0, "high": 80.0},
}


def _first_pass(a, prices):
    """NPV of the tens tier at ``prices`` and the base utilization (0.6), and at the
    grid's corners: the precondition of the stretch, one sign in every cell."""
    npv = cm.run_variants(
        a,
        {"tiers.tens.revenue.price_per_gpu_hour": prices, "tiers.tens.operations.utilization": 0.6},
        ["tens"],
    )["tens"].metrics["npv"]
    corners = cm.run_variants(
        a,
        {
            "tiers.tens.revenue.price_per_gpu_hour": np.array([prices[0], prices[-1]]),
            "tiers.tens.operations.utilization": np.array([0.3, 0.85]),
        },
        ["tens"],
    )["tens"].metrics["npv"]
    return np.asarray(npv, dtype=float), np.asarray(corners, dtype=float)


def test_stretched_top_is_ceil_of_1_2_times_extrapolated_root():
    """NPV < 0 in every cell: the price axis's top becomes ceil(1.2 r), r the root
    extrapolated linearly from the two highest grid prices (methodology §9.2)."""
    a = cm.with_overrides(DEFAULT, LOW_PRICES)
    p = grid_axis(12.0, 8.0, 14.0, 7)  # first pass: 8, 9, .., 14 (12 on the axis)
    npv, corners = _first_pass(a, p)
    assert (npv < 0).all() and corners[1] < 0  # the highest price at the highest utilization
    root = p[-2] - npv[-2] * (p[-1] - p[-2]) / (npv[-1] - npv[-2])
    assert root > 14.0
    t = _table(price_utilization_grid(a, ["tens"]), "tens")
    assert t.index.max() == math.ceil(1.2 * root)
    assert t.index.min() == 8.0 and 12.0 in set(t.index)
    np.testing.assert_allclose(t.index, grid_axis(12.0, 8.0, math.ceil(1.2 * root), 7))


def test_stretched_bottom_is_the_extrapolated_root_over_1_2():
    """NPV > 0 in every cell: the bottom becomes max(0, r / 1.2), r extrapolated from
    the two lowest grid prices (methodology §9.2)."""
    a = cm.with_overrides(DEFAULT, HIGH_PRICES)
    p = grid_axis(70.0, 60.0, 80.0, 7)
    npv, corners = _first_pass(a, p)
    assert (npv > 0).all() and corners[0] > 0  # the lowest price at the lowest utilization
    root = p[0] - npv[0] * (p[1] - p[0]) / (npv[1] - npv[0])
    assert 0 < root < 60.0
    t = _table(price_utilization_grid(a, ["tens"]), "tens")
    assert t.index.min() == pytest.approx(root / 1.2, rel=1e-12)
    assert t.index.max() == 80.0 and 70.0 in set(t.index)


def test_edges_mark_sign_changes(grid):
    for tier in DEFAULT.tiers:
        g = grid[grid["tier"] == tier]
        pos = _table(grid, tier).to_numpy() > 0
        ep = g.pivot(index="price_per_gpu_hour", columns="utilization", values="edge_price")
        eu = g.pivot(index="price_per_gpu_hour", columns="utilization", values="edge_utilization")
        want_p = np.zeros_like(pos)
        want_p[:-1] = pos[:-1] != pos[1:]
        want_u = np.zeros_like(pos)
        want_u[:, :-1] = pos[:, :-1] != pos[:, 1:]
        assert (ep.to_numpy() == want_p).all() and (eu.to_numpy() == want_u).all()
        assert want_p.any()  # the contour crosses every tier's grid


def test_too_few_points_is_an_error():
    with pytest.raises(ValueError, match="at least 5"):
        price_utilization_grid(DEFAULT, points=4)
