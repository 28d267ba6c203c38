"""The fabric sized from the cluster (methodology §12.1), counts written out by hand
at radix 64 (k/2 = 32 leaf downlinks)."""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm
from costmodel.core.fabric import design_network, fabric_cost, fabric_counts
from tests.paths import HAND
from tests.support.params import some_params


def _counts(e, o=1.0, k=64, rails=0.0):
    c = fabric_counts(np.array([float(e)]), k, o, rails)
    return {key: float(v[0]) for key, v in c.items()}


def test_32_endpoints_one_switch():
    # 32 <= 64: one level, ceil(32/64) = 1 switch, no uplinks, 2 * 32 optics
    c = _counts(32)
    assert (c["levels"], c["switches"], c["uplinks"], c["optics"]) == (1, 1, 0, 64)


def test_1024_endpoints_non_blocking():
    # L = 1024/32 = 32 leaves, U1 = 32*32 = 1024, S = 1024/64 = 16; 48 switches;
    # optics 2 * (1024 + 1024) = 4096
    c = _counts(1024)
    assert (c["levels"], c["leaves"], c["uplinks"], c["spines"]) == (2, 32, 1024, 16)
    assert (c["switches"], c["optics"]) == (48, 4096)


def test_1024_endpoints_two_to_one():
    # U1 = 1024 / 2 = 512, S = 512/64 = 8; 40 switches; optics 2 * (1024 + 512) = 3072
    c = _counts(1024, o=2.0)
    assert (c["leaves"], c["uplinks"], c["spines"], c["switches"], c["optics"]) == (
        32, 512, 8, 40, 3072,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("gpus", "leaves", "spines"), [(512, 16, 8), (1024, 32, 16), (2048, 64, 32)]
)
def test_nvidia_two_level_rows(gpus, leaves, spines):
    # DGX SuperPOD reference rows at radix 64: L = gpus / 32; each leaf's 32 uplinks
    # split evenly over S spines, S the smallest divisor of 32 >= ceil(32 L / 64) = L/2
    c = _counts(gpus)
    assert (c["levels"], c["leaves"], c["spines"]) == (2, leaves, spines)


def test_24_leaves_take_16_spines():
    # 768 endpoints: L = 24, U1 = 24 * 32 = 768, ceil(768 / 64) = 12 does not divide 32;
    # the next divisor of 32 is 16 (the rule of section 26 gave 12, uneven uplinks)
    c = _counts(768)
    assert (c["leaves"], c["leaf_uplinks"], c["spines"], c["switches"]) == (24, 768, 16, 40)
    assert c["optics"] == 2 * (768 + 768)


def test_spines_at_uneven_oversubscription():
    # radix 64, o = 3: u = ceil(32 / 3) = 11 uplinks a leaf; 1,024 endpoints: L = 32,
    # U1 = 352, ceil(352 / 64) = 6; 11 is prime, so 11 spines
    c = _counts(1024, o=3.0)
    assert (c["leaf_uplinks"], c["spines"]) == (352, 11)


@pytest.mark.parametrize("servers", [16, 32])
def test_rail_optimised_leaves(servers):
    # 8 rails, k/2 = 32 servers a leaf: L = 8 * ceil(servers / 32) = 8; 128 or 256 GPUs
    # are 2 levels; U1 = 8 * 32 = 256, ceil(256 / 64) = 4 divides 32: 4 spines
    c = _counts(8 * servers, rails=8.0)
    assert (c["levels"], c["leaves"], c["spines"], c["switches"]) == (2, 8, 4, 12)
    assert c["optics"] == 2 * (8 * servers + 256)


def test_rail_optimised_three_levels():
    # 4,096 GPUs = 512 servers: L = 8 * ceil(512 / 32) = 128 (as without rails here),
    # 3 levels by the endpoint count; 520 servers: L = 8 * 17 = 136
    assert _counts(4096, rails=8.0)["leaves"] == 128
    c = _counts(4160, rails=8.0)
    assert (c["levels"], c["leaves"]) == (3, 136)


def test_rail_flag_is_ignored_at_one_level():
    assert _counts(64, rails=8.0)["leaves"] == 1


def test_4096_endpoints_three_levels():
    # 4096 > 64^2/2 = 2048: L = 128, U1 = 4096, A = 4096/32 = 128, U2 = 128*32 = 4096,
    # C = 4096/64 = 64; switches 128 + 128 + 64 = 320; uplinks 8192; optics 2*(4096+8192)
    c = _counts(4096)
    assert (c["levels"], c["leaves"], c["aggregation"], c["cores"]) == (3, 128, 128, 64)
    assert (c["switches"], c["uplinks"], c["optics"]) == (320, 8192, 24576)


@pytest.mark.parametrize(("e", "levels"), [(8, 1), (64, 1), (72, 2), (2048, 2), (2056, 3)])
def test_level_thresholds_at_radix_64(e, levels):
    assert _counts(e)["levels"] == levels


def test_vectorised_over_variants():
    c = fabric_counts(np.array([32.0, 1024.0, 4096.0]), np.array([64.0, 64.0, 64.0]), 1.0)
    assert c["switches"].tolist() == [1, 48, 320]


def test_increments_sum_to_the_final_fabric():
    q = some_params(
        {
            "fabric_radix": np.array([64.0]),
            "fabric_oversubscription": np.array([1.0]),
            "fabric_switch_price": np.array([250_000.0]),
            "fabric_optic_price": np.array([6_000.0]),
            "fabric_per_server": np.array([30_000.0]),
            "gpus_per_server": np.array([8.0]),
        }
    )
    gpus = [np.array([512.0]), np.array([1024.0]), np.array([2048.0])]
    parts = [d["network"] for d in design_network(q, gpus)]
    final = fabric_cost(3584.0, 64, 1.0, 250_000.0, 6_000.0) + 30_000.0 * 3584 / 8
    assert float(sum(parts)[0]) == pytest.approx(final, rel=1e-12)
    # the first deployment alone: 2 levels, L = 16, U1 = 512, S = 8; 24 switches, 2048 optics
    assert float(parts[0][0]) == pytest.approx(24 * 250_000 + 2048 * 6_000 + 64 * 30_000)


def test_engine_pays_the_fabric_and_scales_staff():
    # hand.yaml's small tier: 16 GPUs of 8-GPU boxes; one switch, 32 optics
    a = cm.load_assumptions(
        HAND,
        overrides={
            "tiers.small.network": {
                "fabric": "RoCE 100G",
                "design": {"switch_radix": 64, "switch_price": 1000, "optic_price": 10,
                           "per_server": 50},
            },
        },
    )  # fmt: skip
    row = cm.build(a).summary().loc["small"]
    assert row["capex_network"] == pytest.approx(1000 + 32 * 10 + 2 * 50)
    assert row["network_levels"] == 1
    hw = row["capex_servers"] + row["capex_network"] + row["capex_storage"]
    assert row["network_share"] == pytest.approx(row["capex_network"] / hw)
