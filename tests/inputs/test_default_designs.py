"""The bundled default builds each tier from the design of its scale class (issue 53;
methodology §28): every tier is written ``design: auto``, the three class designs
carry the seed's storage bandwidth, cooling and rent, and the sweep rebuilds them."""

from __future__ import annotations

import math

import pytest
import yaml

import costmodel as cm
from costmodel.inputs.resources import assumptions_dir

A = cm.load_assumptions()
RAW_TIERS = yaml.safe_load((assumptions_dir() / "default" / "80-tiers.yaml").read_text("utf-8"))


def storage_write_gbps(design: str, gpus: int) -> float:
    """Methodology §28.2 written out: the nodes the bandwidth per GPU and the floor
    need (capacity beyond them goes to the object tier where it has a price), times
    each node's write rate."""
    s = A.designs[design].storage
    n = s.node
    nodes = max(
        s.min_nodes,
        math.ceil(s.write_gbps_per_gpu.value * gpus / n.write_gbps.value - 1e-9),
        math.ceil(s.read_gbps_per_gpu.value * gpus / n.read_gbps.value - 1e-9),
    )
    if s.capacity_price_per_tb is None:
        need = max(s.min_capacity_tb.value, s.capacity_tb_per_gpu.value * gpus)
        nodes = max(nodes, math.ceil(need / n.capacity_tb.value - 1e-9))
    return nodes * n.write_gbps.value


def test_every_default_tier_is_written_design_auto_and_takes_its_class():
    assert set(A.designs) == {"tens", "hundreds", "thousands"}
    written = {name: t.get("design") for name, t in RAW_TIERS["tiers"].items()}
    assert written == dict.fromkeys(A.tiers, "auto")
    s = cm.build(A).summary()
    assert list(s["design"]) == list(s["scale_class"]) == ["tens", "hundreds", "thousands"]


def test_no_default_tier_sizes_a_part_its_design_sizes():
    # a tier's own network, storage, cooling, rack power or team would replace the
    # design's (methodology §33.1): the default leaves every one to the design
    own = {"network", "storage", "cooling", "rack_kw", "staff_fte", "staff_scaling"}
    for name, t in RAW_TIERS["tiers"].items():
        assert not own & set(t), name
        assert "mfu" not in (t.get("reliability") or {}), name


@pytest.mark.parametrize("gpus", [128, 256])
def test_hundreds_design_writes_the_seeds_50_to_100_gb_per_s(gpus):
    # seed: 百卡级 '聚合带宽需达到 50–100 GB/s' at 64-256 cards
    write = storage_write_gbps("hundreds", gpus)
    assert 50 <= write <= 100
    row = cm.sweep(A, "hundreds", [gpus]).iloc[0]
    assert row["storage_write_gbps"] == pytest.approx(write)


def test_thousands_design_writes_a_terabyte_per_second_at_4096_gpus():
    # seed: 千卡级 '并行文件系统提供 TB/s 级聚合读写带宽' (512-4096+ cards)
    write = storage_write_gbps("thousands", 4096)
    assert write >= 1000
    row = cm.sweep(A, "thousands", [4096]).iloc[0]
    assert row["design"] == "thousands"
    assert row["storage_write_gbps"] == pytest.approx(write)
    # an object tier takes the capacity the flash nodes do not hold
    assert A.designs["thousands"].storage.capacity_price_per_tb is not None


def test_cooling_and_rack_power_by_class_and_rent_by_cooling():
    d = A.designs
    assert (d["tens"].cooling, d["hundreds"].cooling, d["thousands"].cooling) == (
        "air",
        "air",
        "cold_plate",
    )
    # seed: 8-15 kW air; 20-30 kW air with in-row cooling; 40-80 kW cold plate
    assert 8 <= d["tens"].rack_kw.value <= 15
    assert 20 <= d["hundreds"].rack_kw.value <= 30
    assert 40 <= d["thousands"].rack_kw.value <= 80
    rent = A.facility.colocation_per_kw_month
    assert isinstance(rent, dict)
    assert rent["cold_plate"].value > rent["air"].value
    # a dearer liquid-ready hall costs the thousands tier only: its rent is the
    # cold-plate hall's, the air-cooled tiers' the air hall's
    base = cm.build(A).summary()
    dear = cm.build(A, overrides={"facility.colocation_per_kw_month.cold_plate": 1200}).summary()
    assert dear.loc["thousands", "npv"] < base.loc["thousands", "npv"]
    assert (
        dear.loc[["tens", "hundreds"], "npv"].tolist()
        == base.loc[["tens", "hundreds"], "npv"].tolist()
    )


def test_the_sweep_rebuilds_the_thousands_tier_at_each_class_boundary():
    sw = cm.sweep(A, "thousands", [64, 128, 512])
    assert sw["design"].tolist() == ["tens", "hundreds", "thousands"]
    assert sw["cooling"].tolist() == ["air", "air", "cold_plate"]
    # the team grows at each rebuild (the seed's 2-3, 5-10, dozens)
    assert sw["staff_fte"].is_monotonic_increasing


# ----------------------------------------------------------------------------- chips
# (issue 53; methodology §33)


def test_every_sku_says_where_it_is_made_and_how_long_it_takes_to_arrive():
    for name, sku in A.servers.items():
        assert sku.origin in ("domestic", "foreign"), name
        assert sku.lead_months is not None and sku.lead_months.source, name
        domestic = name.startswith(("ascend", "cloudmatrix"))
        assert (sku.origin == "domestic") == domestic, name
    # a domestic rack-scale system for the thousands class (CloudMatrix 384 class)
    rack_scale = [n for n, s in A.servers.items() if s.racks_per_unit is not None]
    assert rack_scale == ["cloudmatrix384"]
    assert A.servers["cloudmatrix384"].origin == "domestic"
