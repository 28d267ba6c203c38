"""The sweep on a designed fabric (issue 28's held-out check): 8 to 4,096 GPUs at
radix 64 has network_levels 1 up to 64 endpoints, 2 up to 2,048 and 3 above, the
steps marked, the row at the tier's own size equal to its summary."""

from __future__ import annotations

import pytest

import costmodel as cm
from costmodel.analysis.sweep import MAX_POINTS, sweep
from tests.support.v3 import v3_paths

DESIGN = "assumptions/scenarios/fabric-design.yaml"  # hundreds and thousands at radix 64


@pytest.fixture(scope="module")
def designed():
    # the tiers sized in the tier (no design by scale class), so that the fabric is
    # the one thing the sweep rebuilds; the designs' rebuilds: test_sweep_designs.py
    return cm.load_assumptions(*v3_paths(), DESIGN)


@pytest.fixture(scope="module")
def rows(designed):
    return sweep(designed, "thousands", "8:4096")


def test_levels_by_endpoints_at_radix_64(rows):
    assert len(rows) <= MAX_POINTS and all(g % 8 == 0 for g in rows["gpus"])
    assert rows["gpus"].iloc[0] == 8 and rows["gpus"].iloc[-1] == 4096
    for g, levels in zip(rows["gpus"], rows["network_levels"], strict=True):
        want = 1 if g <= 64 else 2 if g <= 64 * 64 / 2 else 3
        assert levels == want, g
    # both sides of each step are swept: 64 | 72 and 2,048 | 2,056
    assert {64, 72, 2048, 2056} <= set(rows["gpus"])
    marked = dict(zip(rows["gpus"], rows["change"], strict=True))
    assert marked[72] == "scale_class, network_levels"
    assert marked[512] == "scale_class"
    assert marked[2056] == "network_levels"
    assert sum(1 for v in marked.values() if v) == 3


def test_row_at_first_deployment_equals_summary(designed, rows):
    want = cm.build(designed).summary().loc["thousands"]  # no stages in this file
    row = rows[rows["gpus"] == 1024].iloc[0]
    for col in ("cost_per_gpu_hour", "npv", "network_share", "network_levels"):
        assert row[col] == pytest.approx(want[col], rel=1e-9), col


def test_designed_network_share_is_an_output(rows):
    # the fabric's cost follows the switch and optic counts, not a share: it moves
    share = rows["network_share"]
    assert share.max() > share.min() * 1.05


def test_each_row_equals_a_build_of_the_tier_at_that_size(designed, rows):
    # one row per GPU count on the variant axis = a separate build with the GPUs and
    # the storage (in proportion) overridden; the staff follows the servers
    # (staff_scaling) and the fabric its design in both
    tb = float(designed.tiers["thousands"].storage.capacity_tb.value)
    for g in (64, 512, 4096):
        a = cm.with_overrides(
            designed,
            {"tiers.thousands.gpus": g, "tiers.thousands.storage.capacity_tb": tb * g / 1024},
        )
        want = cm.build(a).summary().loc["thousands"]
        row = rows[rows["gpus"] == g].iloc[0]
        for col in ("cost_per_gpu_hour", "npv", "network_levels"):
            assert row[col] == pytest.approx(want[col], rel=1e-9), (g, col)
        assert row["capex_per_gpu"] == pytest.approx(want["capex"] / g, rel=1e-9)
