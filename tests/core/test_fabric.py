"""The fabric sized from the cluster (methodology §12.1), counts written out by hand
at radix 64 (k/2 = 32 leaf downlinks)."""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm
from costmodel.core.fabric import design_network, fabric_cost, fabric_counts
from tests.paths import HAND


def _counts(e, o=1.0, k=64):
    c = fabric_counts(np.array([float(e)]), k, o)
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
    q = {
        "fabric_radix": np.array([64.0]),
        "fabric_oversubscription": np.array([1.0]),
        "fabric_switch_price": np.array([250_000.0]),
        "fabric_optic_price": np.array([6_000.0]),
        "fabric_per_server": np.array([30_000.0]),
        "gpus_per_server": np.array([8.0]),
    }
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
