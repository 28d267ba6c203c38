"""Tornado and break-even (methodology §9), checked against independent rebuilds."""

from __future__ import annotations

import math

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis.breakeven import break_even
from costmodel.analysis.sensitivity import ranged_inputs, tornado
from tests.paths import HAND

#: the bundled default with its tens tier sold by the hour (the default's is captive,
#: valued at the cloud's price): its own GPU-hour price is then a tier override that
#: moves its NPV while the global price does not
DEFAULT = cm.load_assumptions(overrides={"tiers.tens.revenue.mode": "rental"})


def _npv(a: cm.Assumptions, tier: str, overrides: dict) -> float:
    return float(cm.build(cm.with_overrides(a, overrides)).summary().loc[tier, "npv"])


@pytest.fixture(scope="module")
def flat() -> cm.Assumptions:
    """The bundled default with every range collapsed to its value."""
    inputs, _ = ranged_inputs(DEFAULT)
    return cm.with_overrides(
        DEFAULT, {x.path: {"value": x.value, "low": x.value, "high": x.value} for x in inputs}
    )


def test_discovers_the_issue_drivers_with_ranges():
    inputs, skipped = ranged_inputs(DEFAULT)
    paths = {x.path for x in inputs}
    for p in (
        "revenue.price_per_gpu_hour",
        "tiers.tens.revenue.price_per_gpu_hour",
        "revenue.price_decline",
        "operations.utilization",
        *{f"servers.{t.server}.price" for t in DEFAULT.tiers.values()},
        "power.price_per_kwh",
        "power.pue.air",
        "power.pue.cold_plate",
        "operations.staff_cost_per_fte",
        # the discount rate is the WACC of an all-equity financing: its cost of equity
        "financing.cost_of_equity",
        # the tens design's network is a share of its hardware; the hundreds and
        # thousands designs' fabrics are designed with ranged prices (75-designs.yaml:
        # switch, optic and per-server prices)
        "designs.tens.network.share",
        *{
            f"designs.{t}.network.design.{k}"
            for t in ("hundreds", "thousands")
            for k in ("switch_price", "optic_price", "per_server")
        },
    ):
        assert p in paths, p
    assert not any(p.startswith("workloads") for p in paths | set(skipped))
    # catalogue servers no tier uses are skipped, not varied
    assert "servers.h100.price" in skipped and "servers.h100.price" not in paths
    rate = next(x for x in inputs if x.path == "operations.utilization")
    assert (rate.lower, rate.upper) == (0.0, 1.0)


def test_zero_width_ranges_give_zero_swing(flat):
    df = tornado(flat)
    assert len(df) > 0
    assert (df.swing == 0).all()
    base = cm.build(flat).summary().npv
    for t, g in df.groupby("tier"):
        assert np.allclose(g.at_low, base[t], rtol=1e-12, atol=1e-6)


def test_swing_equals_two_rebuilds():
    df = tornado(DEFAULT)
    q = DEFAULT.power.price_per_kwh
    for tier in DEFAULT.tiers:
        row = df[(df.input == "power.price_per_kwh") & (df.tier == tier)].iloc[0]
        lo = _npv(DEFAULT, tier, {"power.price_per_kwh": q.low})
        hi = _npv(DEFAULT, tier, {"power.price_per_kwh": q.high})
        assert row.at_low == pytest.approx(lo, rel=1e-9)
        assert row.at_high == pytest.approx(hi, rel=1e-9)
        assert row.swing == pytest.approx(abs(hi - lo), rel=1e-9)
        assert row.base == pytest.approx(cm.build(DEFAULT).summary().loc[tier, "npv"], rel=1e-9)


def test_tornado_sorted_and_tier_overrides_respected():
    df = tornado(DEFAULT)
    assert list(df.swing) == sorted(df.swing, reverse=True)
    # tens overrides the GPU-hour price: the global price cannot move its NPV
    glob = df[(df.input == "revenue.price_per_gpu_hour") & (df.tier == "tens")].iloc[0]
    assert glob.swing == 0
    own = df[(df.input == "tiers.tens.revenue.price_per_gpu_hour") & (df.tier == "tens")].iloc[0]
    assert own.swing > 0
    assert "servers.h100.price" in df.attrs["skipped"]


def test_model_methods_and_other_metric():
    m = cm.build(DEFAULT)
    assert cm.tornado(m, "cost_per_gpu_hour").attrs["metric"] == "cost_per_gpu_hour"
    with pytest.raises(ValueError, match="unknown metric"):
        cm.tornado(m, "nope")
    assert list(cm.break_even(m).index) == list(DEFAULT.tiers)


@pytest.mark.parametrize("source", ["hand", "default"])
def test_break_even_rebuilds_to_zero_npv(source):
    a = cm.load_assumptions(HAND) if source == "hand" else DEFAULT
    be = break_even(a)
    solved = 0
    for tier, row in be.iterrows():
        capex = cm.build(a).summary().loc[tier, "capex"]
        for key in ("utilization", "price_per_gpu_hour"):
            x = row[key]
            if math.isnan(x):
                continue
            solved += 1
            npv = _npv(a, tier, {row[f"{key}_path"]: float(x)})
            assert abs(npv) <= 1e-6 * capex, (tier, key, x, npv)
            assert abs(row[f"npv_at_{key}"]) <= 1e-6 * capex
    assert solved >= 2


def test_break_even_searches_each_tier_on_its_own_points(request):
    # one engine call per tier and round, on that tier's live searches only (33
    # points each), none once both have stopped (NPV linear across the bracket:
    # fewer rounds than the most), and without the check the same roots with the
    # check left empty
    from costmodel.core.roots import SOLVE_POINTS, SOLVE_ROUNDS

    with_check = break_even(DEFAULT)
    calls = request.getfixturevalue("engine_calls")  # counting from here on
    quick = break_even(DEFAULT, check=False)
    tiers = len(DEFAULT.tiers)
    assert tiers <= len(calls) < SOLVE_ROUNDS * tiers
    assert (
        set(calls) <= {SOLVE_POINTS, 2 * SOLVE_POINTS}
        and calls[:tiers] == [2 * SOLVE_POINTS] * tiers
    )
    for key in ("utilization", "price_per_gpu_hour"):
        # the same roots, NaN where there is none
        np.testing.assert_array_equal(quick[key].to_numpy(), with_check[key].to_numpy())
        assert quick[f"npv_at_{key}"].isna().all()


def test_break_even_uses_the_tier_override_path():
    be = break_even(DEFAULT)
    assert be.loc["tens", "price_per_gpu_hour_path"] == "tiers.tens.revenue.price_per_gpu_hour"
    assert be.loc["hundreds", "price_per_gpu_hour_path"] == "revenue.price_per_gpu_hour"


def test_break_even_empty_where_no_root():
    # nothing sold at a price of 0: more utilization only adds power cost, NPV never reaches 0
    a = cm.load_assumptions(HAND, overrides={"revenue.price_per_gpu_hour": 0.0})
    be = break_even(a)
    assert math.isnan(be.loc["small", "utilization"])
    assert math.isnan(be.loc["small", "npv_at_utilization"])
    # and with a very profitable case the utilization break-even is low but exists
    assert 0 < break_even(cm.load_assumptions(HAND)).loc["small", "utilization"] < 0.5
