"""Storage sized by capacity and bandwidth, and the designs a tier takes by scale
class (methodology §28.1-28.3), counts written out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import yaml

import costmodel as cm
from costmodel.core.storage import storage_sizing
from tests.paths import ROOT
from tests.support.params import some_params

DESIGNS = ROOT / "tests" / "data" / "designs.yaml"


def _q(**kw):
    base = {
        "storage_node_capacity_tb": 500.0,
        "storage_node_write_gbps": 12.5,
        "storage_node_read_gbps": 25.0,
        "storage_node_price": 1_200_000.0,
        "storage_min_nodes": 2.0,
        "storage_min_capacity_tb": 0.0,
        "storage_capacity_tb_per_gpu": 4.0,
        "storage_write_gbps_per_gpu": 0.25,
        "storage_read_gbps_per_gpu": 0.5,
        "storage_capacity_tier": 0.0,
        "storage_capacity_price_per_tb": 0.0,
    }
    base.update(kw)
    return some_params({k: np.array([v]) for k, v in base.items()})


def _sized(q, gpus):
    return {k: float(v[0]) for k, v in storage_sizing(q, np.array([float(gpus)])).items()}


def test_bandwidth_bound():
    # 256 GPUs: writes 0.25 x 256 = 64 GB/s over 12.5 per node = 5.12 -> 6 nodes;
    # reads 128 / 25 = 5.12 -> 6; capacity 1,024 TB / 500 = 2.05 -> 3: 6 nodes bind
    s = _sized(_q(), 256)
    assert (s["nodes_write"], s["nodes_read"], s["nodes_cap"], s["nodes"]) == (6, 6, 3, 6)
    assert s["write_gbps"] == 6 * 12.5 and s["tb"] == 3000
    assert s["cost"] == 6 * 1_200_000


def test_capacity_bound():
    # 20 TB per GPU: 128 GPUs need 2,560 TB = 5.12 nodes -> 6; bandwidth 32 / 12.5 -> 3
    s = _sized(_q(storage_capacity_tb_per_gpu=20.0), 128)
    assert (s["nodes_bw"], s["nodes_cap"], s["nodes"]) == (3, 6, 6)
    assert s["tb"] == 3000 and s["extra_tb"] == 0


def test_capacity_tier_buys_the_rest_per_tb():
    # the same 2,560 TB with an object store at 600 per TB: 3 nodes (bandwidth) hold
    # 1,500 TB, the other 1,060 TB at 600; 3 x 1.2M + 1,060 x 600
    s = _sized(_q(storage_capacity_tb_per_gpu=20.0, storage_capacity_tier=1.0,
                  storage_capacity_price_per_tb=600.0), 128)  # fmt: skip
    assert (s["nodes"], s["extra_tb"], s["tb"]) == (3, 1060, 2560)
    assert s["cost"] == pytest.approx(3 * 1_200_000 + 1060 * 600, rel=1e-15)
    assert s["write_gbps"] == 3 * 12.5


def test_minimum_nodes_and_whole_counts():
    # 8 GPUs: 2 GB/s of writes is 0.16 of a node, the minimum of 2 binds; 100 GPUs
    # write exactly 25 GB/s = 2 nodes (no rounding up of a whole count)
    assert _sized(_q(), 8)["nodes"] == 2
    s = _sized(_q(storage_read_gbps_per_gpu=0.0, storage_capacity_tb_per_gpu=0.0), 100)
    assert s["nodes_write"] == 2


@pytest.fixture(scope="module")
def designed():
    return cm.build(cm.load_assumptions(DESIGNS))


def test_auto_takes_the_design_of_the_final_class(designed):
    s = designed.summary()
    assert list(s["design"]) == ["tens", "hundreds", "thousands"]
    assert list(s["cooling"]) == ["air", "air", "cold_plate"]
    assert list(s["rack_kw"]) == [12, 25, 60]


def test_staged_tier_pays_each_storage_increment(designed):
    # hundreds: 128 GPUs then 64 more. 128: writes 32 / 12.5 -> 3, reads 64 / 25 -> 3,
    # 512 TB / 500 -> 2: 3 nodes. 192: 48 / 12.5 -> 4, 96 / 25 -> 4, 768 / 500 -> 2: 4
    deps = designed.results["hundreds"].deployments
    assert [float(d["storage_nodes"][0]) for d in deps] == [3, 4]
    assert [float(d["storage"][0]) for d in deps] == [3 * 1_200_000, 1_200_000]
    row = designed.summary().loc["hundreds"]
    assert (row["storage_nodes"], row["storage_tb"], row["storage_write_gbps"]) == (4, 2000, 50)
    assert row["capex_storage"] == 4 * 1_200_000


def test_capacity_tier_and_checkpoint_write_time(designed):
    # thousands: 1,024 GPUs, 0.25 GB/s each over 20 GB/s nodes: 12.8 -> 13 nodes
    # (reads 512 / 40 -> 13); 8 TB per GPU = 8,192 TB, 13 x 400 = 5,200 on the nodes,
    # 2,992 TB in the object store at 600
    row = designed.summary().loc["thousands"]
    assert (row["storage_nodes"], row["storage_write_gbps"], row["storage_tb"]) == (13, 260, 8192)
    assert row["capex_storage"] == pytest.approx(13 * 1_800_000 + 2992 * 600, rel=1e-15)
    # section 9 with write_gbps = 260: a 2 TB checkpoint blocks 2000 / 260 / 3600 h
    servers, rate = 128, 0.008
    mtbf = 24 / (rate * servers)
    delta = 2.0 * 1000 / 260 / 3600
    tau = math.sqrt(2 * delta * mtbf)
    waste = delta / tau + (tau / 2 + 0.25) / mtbf
    assert row["mtbf_hours"] == pytest.approx(mtbf, rel=1e-12)
    # the design's availability (repair downtime) is separate; goodput is 1 - waste
    assert row["goodput"] == pytest.approx(1 - waste, rel=1e-12)


def test_rent_by_cooling_and_staff_from_the_design(designed):
    # colocation: cold-plate hall at 900 per kW-month; 128 servers x 10.2 kW x 1.1
    opex = designed.opex("thousands")
    kw = 128 * 10.2 * 1.1
    in_service = opex["colocation"][opex["colocation"] > 0]
    assert float(in_service.iloc[-1]) == pytest.approx(kw * 900, rel=1e-12)
    tens = designed.opex("tens")
    assert float(tens["colocation"].iloc[-1]) == pytest.approx(4 * 10.2 * 1.1 * 750, rel=1e-12)
    # staff: 12 + 0.08 x 128 = 22.24 FTE at 500,000 a year, month 1
    assert float(opex.loc[1, "staff"]) == pytest.approx(22.24 * 500_000 / 12, rel=1e-12)


def test_design_mfu_replaces_the_global(designed):
    # the design's mfu 0.38 (thousands) prices the PFLOP-hours: cost per PFLOP-hour
    # x mfu is the same for any mfu
    row = designed.summary().loc["thousands"]
    a = cm.load_assumptions(DESIGNS, overrides={"designs.thousands.mfu": 0.19})
    other = cm.build(a).summary().loc["thousands"]
    assert other["cost_per_pflop_hour"] == pytest.approx(2 * row["cost_per_pflop_hour"], rel=1e-12)


def test_a_tier_value_beats_the_design():
    # a tier's own cooling and rack power win; its own storage replaces the whole part
    a = cm.load_assumptions(
        DESIGNS,
        overrides={
            "tiers.hundreds.cooling": "cold_plate",
            "tiers.hundreds.rack_kw": 40,
            "tiers.hundreds.storage": {"kind": "NAS", "capacity_tb": 300,
                                       "price_per_tb": 1000, "write_gbps": 10},
        },
    )  # fmt: skip
    row = cm.build(a).summary().loc["hundreds"]
    assert (row["cooling"], row["rack_kw"]) == ("cold_plate", 40)
    assert row["capex_storage"] == 300 * 1000
    assert np.isnan(row["storage_nodes"]) and row["storage_write_gbps"] == 10
    assert a.tiers["hundreds"].storage.kind == "NAS"


def test_label_keys_merge_over_the_design():
    a = cm.load_assumptions(DESIGNS, overrides={"tiers.thousands.network": {"fabric": "NDR x8"}})
    net = a.tiers["thousands"].network
    assert net.fabric == "NDR x8" and net.design is not None and net.design.rail_optimized


def test_named_design_and_inputs_known_by_their_design_path():
    a = cm.load_assumptions(DESIGNS, overrides={"tiers.tens.design": "hundreds"})
    assert a.tiers["tens"].design == "hundreds" and a.tiers["tens"].rack_kw.value == 25
    model = cm.build(a)
    assert (
        model.inputs["tens"].paths()["storage_node_price"] == "designs.hundreds.storage.node.price"
    )


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"tiers.hundreds.design": "hundreds", "tiers.hundreds.gpus": 512},
         "beyond its design 'hundreds'"),
        ({"tiers.thousands.gpus": 4160}, "designs.thousands.max_gpus 4096"),
        ({"tiers.hundreds.design": "huge"}, "unknown design"),
        ({"tiers.hundreds.stages": [{"month": 18, "gpus": 64, "capacity_tb": 100}]},
         "remove stages.capacity_tb"),
        ({"tiers.hundreds.stages": [{"month": 18, "gpus": 64, "staff_fte": 9}]},
         "remove stages.staff_fte"),
        ({"facility.colocation_per_kw_month": {"air": 750, "immersion": 1000}},
         "facility.colocation_per_kw_month"),
    ],
)  # fmt: skip
def test_validation_errors(overrides, words):
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(DESIGNS, overrides=overrides)
    assert words in str(e.value)


def test_a_designs_cooling_and_racks_are_checked_at_the_design(tmp_path):
    """Methodology §28.1: a design's cooling must be priced (PUE, build cost, rack
    limit, rent by cooling) and its racks within the limit, reported once at the
    design's path, even when no tier takes the design yet (a sweep or an edit of GPUs
    may take it)."""
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(DESIGNS, overrides={"designs.tens.rack_kw": 40})
    assert len(e.value.problems) == 1
    assert "designs.tens.rack_kw" in str(e.value) and "max_rack_kw.air is 30 kW" in str(e.value)
    data = yaml.safe_load(DESIGNS.read_text(encoding="utf-8"))
    for section, table in (
        ("power", "pue"),
        ("facility", "build_cost_per_kw"),
        ("facility", "max_rack_kw"),
        ("facility", "colocation_per_kw_month"),
    ):
        del data[section][table]["immersion"]
    data["designs"]["thousands"]["cooling"] = "immersion"
    del data["tiers"]["thousands"]  # no tier takes the thousands design
    path = tmp_path / "no-immersion.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(path)
    (problem,) = e.value.problems
    assert problem.path == "designs.thousands.cooling" and "power.pue" in problem.rule
    assert problem.where.startswith(str(path))


def test_auto_moves_a_growing_tier_to_the_next_design():
    # 512 + 64 GPUs are of the thousands class: auto takes that design, no error
    a = cm.load_assumptions(DESIGNS, overrides={"tiers.hundreds.gpus": 512})
    assert a.tiers["hundreds"].design == "thousands"


def test_named_design_beyond_its_limit_names_tier_and_design():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(DESIGNS, overrides={"tiers.thousands.design": "tens"})
    text = str(e.value)
    assert "tiers.thousands.gpus" in text and "1024 GPUs" in text and "max_gpus 64" in text
