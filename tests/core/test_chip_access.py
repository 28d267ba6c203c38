"""Chip access and rack-scale systems (methodology §33) on the hand case
(tests/data/hand.yaml: one tier ``small`` on the foreign-by-default ``box``)."""

from __future__ import annotations

import pytest

import costmodel as cm
from tests.paths import DATA

HAND = DATA / "hand.yaml"

#: a 384-chip supernode spanning 16 racks, with its own optical fabric of 48
#: endpoints a unit (figures illustrative)
SUPERNODE = {
    "label": "384-chip supernode",
    "origin": "domestic",
    "gpus_per_server": 384,
    "racks_per_unit": 16,
    "fabric_endpoints_per_unit": 48,
    "price": 60_000_000,
    "power_kw": 560,
    "idle_fraction": 0.4,
    "gpu_memory_gb": 128,
    "tflops_bf16": 800,
}


def supernode_tier(**more):
    return {
        "servers.node": SUPERNODE,
        "tiers.small.server": "node",
        "tiers.small.gpus": 768,
        **more,
    }


def test_domestic_only_makes_a_foreign_tier_infeasible_and_keeps_its_numbers():
    free = cm.build(cm.load_assumptions(HAND)).summary().loc["small"]
    held = cm.build(cm.load_assumptions(HAND, overrides={"policy.domestic_only": True}))
    s = held.summary().loc["small"]
    assert bool(free["feasible"]) and free["infeasible_reason"] == ""
    assert not bool(s["feasible"])
    assert "policy.domestic_only" in s["infeasible_reason"] and "box" in s["infeasible_reason"]
    assert s["npv"] == pytest.approx(free["npv"], rel=1e-12)


def test_a_domestic_sku_stays_feasible_under_domestic_only():
    a = cm.load_assumptions(HAND, overrides=supernode_tier(**{"policy.domestic_only": True}))
    assert bool(cm.build(a).summary().loc["small", "feasible"])


def test_racks_of_a_384_chip_supernode():
    # 768 GPUs = 2 units of 384; each spans 16 racks: 32 racks, whatever the rack kW
    # (12 kW in hand.yaml could not hold one 560 kW unit: the rack rule is skipped)
    s = cm.build(cm.load_assumptions(HAND, overrides=supernode_tier())).summary().loc["small"]
    assert s["servers"] == 2
    assert s["racks"] == 2 * 16
    assert s["it_kw"] == pytest.approx(2 * 560 * 1.1, rel=1e-12)


def test_the_fabric_counts_the_units_endpoints():
    design = {"switch_radix": 16, "switch_price": 10_000, "optic_price": 500}
    net = {"tiers.small.network": {"design": design}}
    s = cm.build(cm.load_assumptions(HAND, overrides=supernode_tier(**net))).summary()
    # 2 units x 48 endpoints = 96 <= 16^2 / 2 = 128: two levels (768 GPUs would need three)
    assert s.loc["small", "network_levels"] == 2
    # leaves ceil(96 / 8) = 12 with u = 8 uplinks each (96 in all); spines: the smallest
    # divisor of u = 8 that is at least ceil(96 / 16) = 6, i.e. 8 (methodology §28.4);
    # optics 2 (96 + 96) = 384
    assert s.loc["small", "capex_network"] == pytest.approx(
        (12 + 8) * 10_000 + 384 * 500, rel=1e-12
    )
