"""Analyses over the time, growth and money inputs: growth options, and the
tornado and Monte Carlo over ranged construction, loan and residual-value inputs."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import costmodel as cm
from costmodel.analysis.growth import growth_options
from costmodel.analysis.sensitivity import tornado
from tests.paths import HAND, ROOT

SCENARIOS = ROOT / "assumptions" / "scenarios"
DEFAULT = ROOT / "assumptions" / "default"


def test_growth_at_once_is_the_unstaged_tier():
    staged = cm.load_assumptions(DEFAULT, SCENARIOS / "staged-growth.yaml")
    g = growth_options(staged)
    assert list(g.index.get_level_values("tier").unique()) == ["hundreds"]
    # staged-growth splits the default hundreds tier in two halves (GPUs and storage)
    # in a hall it builds (the default leases one): bought at once, it is the default
    # tier in a built hall, with the default's team (staff_scaling: the same servers)
    # and fabric (the design at the same GPUs)
    built = cm.build(cm.load_assumptions(DEFAULT, overrides={"facility.mode": "build"}))
    staged_model = cm.build(staged)
    base = built.summary().loc["hundreds"]
    assert base.capex_facility > 0
    at_once = g.loc[("hundreds", "at_once")]
    for col in ("gpus", "capex", "capex_facility", "npv", "cost_per_gpu_hour"):
        assert at_once[col] == pytest.approx(base[col], rel=1e-12)
    # the designed fabric (methodology §12.1; 80-tiers.yaml: radix 64, 230,000 a switch,
    # 6,000 an optic at each link end, 60,000 a server): 64 GPUs on one leaf (1 switch,
    # 64 links); 128 GPUs on two levels: 4 leaves of 32 down and 32 up ports and
    # 128 / 64 = 2 spines (6 switches, 128 + 128 links)
    fabric_64 = 1 * 230_000 + 64 * 2 * 6_000 + 8 * 60_000  # 1,478,000
    fabric_128 = 6 * 230_000 + 256 * 2 * 6_000 + 16 * 60_000  # 5,412,000
    assert base.capex_network == pytest.approx(fabric_128, rel=1e-12)
    # staged: the first half's fabric, then what the second half adds to it
    net = staged_model.capex("hundreds").network
    assert net[net > 0].tolist() == pytest.approx([fabric_64, fabric_128 - fabric_64], rel=1e-12)
    # staff_scaling (5.0 FTE + 0.05 a server, 360,000 CNY a year): 8 servers' team
    # first, the 16 servers' team once the stage is in
    staff = staged_model.opex("hundreds").staff
    assert staff.iloc[1] == pytest.approx((5.0 + 0.05 * 8) * 360_000 / 12, rel=1e-12)
    at_once_staff = built.opex("hundreds").staff
    assert at_once_staff.iloc[1] == pytest.approx((5.0 + 0.05 * 16) * 360_000 / 12, rel=1e-12)
    assert staff.iloc[-1] == pytest.approx(at_once_staff.iloc[-1], rel=1e-12)
    model = staged_model.summary().loc["hundreds"]
    assert g.loc[("hundreds", "staged_headroom"), "npv"] == pytest.approx(model.npv, rel=1e-12)
    rebuild = g.loc[("hundreds", "staged_rebuild")]
    headroom = g.loc[("hundreds", "staged_headroom")]
    # the rebuild pays its hall later: less at month 0, more in all (retrofit premium)
    assert rebuild.capex_facility >= headroom.capex_facility
    assert growth_options(cm.load_assumptions(DEFAULT)).empty


def _ranged(tmp_path, overlay: dict) -> cm.Assumptions:
    path = tmp_path / "ranged.yaml"
    path.write_text(yaml.safe_dump({"schema_version": 2, "horizon_years": 3, **overlay}))
    return cm.load_assumptions(HAND, path)


V2_RANGES = {
    "timeline": {"build_months": {"value": 3, "low": 1, "high": 6}, "ramp_months": 2},
    "financing": {
        "debt_share": 0.5,
        "interest_rate": {"value": 0.06, "low": 0.04, "high": 0.10},
        "term_years": 3,
    },
    "terminal_value": "market",
    "depreciation": {
        "servers": {"market_decline": {"value": 0.3, "low": 0.2, "high": 0.5}},
        "network": {"market_decline": 0.3},
        "storage": {"market_decline": 0.3},
        "facility": {"market_decline": 0.05},
    },
}


def test_tornado_varies_construction_loan_and_residual_inputs(tmp_path):
    a = _ranged(tmp_path, V2_RANGES)
    t = tornado(a, metric="equity_npv")
    paths = set(t["input"])
    for p in (
        "timeline.build_months",
        "financing.interest_rate",
        "depreciation.servers.market_decline",
    ):
        assert p in paths
    # each swing is the engine rebuilt at low and at high
    low = cm.build(cm.with_overrides(a, {"financing.interest_rate": 0.04})).summary()
    high = cm.build(cm.with_overrides(a, {"financing.interest_rate": 0.10})).summary()
    assert low.loc["small", "equity_npv"] > high.loc["small", "equity_npv"]
    # the project NPV does not depend on the loan
    assert low.loc["small", "npv"] == pytest.approx(high.loc["small", "npv"])


def test_monte_carlo_draws_whole_build_months_and_matches_single_builds(tmp_path):
    a = _ranged(tmp_path, V2_RANGES)
    mc = cm.monte_carlo(a, n=40, seed=3)
    drawn = mc.samples["timeline.build_months"].to_numpy()
    assert drawn.min() >= 1 and drawn.max() <= 6
    for i in (0, 17, 39):
        overrides = {p: float(mc.samples[p].iloc[i]) for p in mc.samples.columns}
        overrides["timeline.build_months"] = float(np.round(overrides["timeline.build_months"]))
        one = cm.build(cm.with_overrides(a, overrides)).summary().loc["small"]
        assert mc.draws["small"]["npv"].iloc[i] == pytest.approx(one.npv, rel=1e-9)
