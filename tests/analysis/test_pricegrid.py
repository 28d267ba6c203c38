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


def test_grid_is_at_least_5x5_and_utilization_spans_its_range(grid):
    for tier in DEFAULT.tiers:
        t = _table(grid, tier)
        assert t.shape == (7, 7)
        # operations.utilization: value 0.6, low 0.3, high 0.85 in the default
        assert t.columns.min() == pytest.approx(0.3) and t.columns.max() == pytest.approx(0.85)
        assert 0.6 in set(t.columns)


def test_npv_rises_with_price_and_utilization(grid):
    for tier in DEFAULT.tiers:
        v = _table(grid, tier).to_numpy()
        assert (np.diff(v, axis=0) > 0).all(), tier
        assert (np.diff(v, axis=1) > 0).all(), tier


def test_contour_agrees_with_break_even_price(grid):
    be = break_even(DEFAULT)
    for tier in DEFAULT.tiers:
        p_be = float(be.loc[tier, "price_per_gpu_hour"])
        g = grid[(grid["tier"] == tier) & (grid["utilization"] == 0.6)]
        # the default's price range has no break-even: the axis is stretched past it
        assert g["price_per_gpu_hour"].max() > p_be
        for _, r in g.iterrows():
            assert r["positive"] == (r["price_per_gpu_hour"] > p_be), (tier, r)
        # linear interpolation between the two grid prices around the root
        assert g["break_even_price"].iloc[0] == pytest.approx(p_be, rel=2e-3)


def test_stretched_top_is_ceil_of_1_2_times_extrapolated_root(grid):
    for tier in ("tens",):
        t = _table(grid, tier)
        # first pass: prices linspace(10, 18, 7) with 15 in place of 14.67
        p = grid_axis(15.0, 10.0, 18.0, 7)
        npv = cm.run_variants(
            DEFAULT,
            {"tiers.tens.revenue.price_per_gpu_hour": p[-2:], "operations.utilization": 0.6},
            ["tens"],
        )["tens"].metrics["npv"]
        root = p[-2] - npv[0] * (p[-1] - p[-2]) / (npv[1] - npv[0])
        assert t.index.max() == math.ceil(1.2 * root)
        assert t.index.min() == 10.0 and 15.0 in set(t.index)


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
