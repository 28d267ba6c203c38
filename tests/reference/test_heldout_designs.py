"""Held-out checks of the scale-class designs (methodology §28): every summary column
of the independent implementation (tests/reference/designmodel.py, which reads the
YAML itself and resolves the designs on its own) equals the engine's through the API
and through ``costmodel summary --format json``, and every row of a sweep 8..4,096
equals the implementation's tier rebuilt at that count, to 1e-7 relative.

The cases (tests/data/heldout-designs.yaml): a stage that carries a tier across the
tens/hundreds boundary, a rail-optimised fabric, a capacity tier, a named design with
the tier's own cooling, in a leased hall with rent by cooling and in a built one with
and without reserved headroom."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from tests.paths import DATA
from tests.reference.designmodel import fabric, load, storage_of, sweep_row, tier_row

FILES = [DATA / "heldout-designs.yaml"]

CASES = {
    "leased hall, rent by cooling": {},
    "built hall, headroom reserved": {"facility.mode": "build"},
    "built hall, retrofitted stages": {
        "facility.mode": "build",
        "tiers.crossing.reserve_headroom": False,
        "tiers.hall.reserve_headroom": False,
    },
    "no construction, no ramp": {"timeline.build_months": 0, "timeline.ramp_months": 0},
    "a tier's own timing, no terminal value": {
        "tiers.crossing.timeline": {"build_months": 9},
        "terminal_value": "none",
        "finance.discount_rate": 0.05,
    },
}

#: the columns of methodology sections 1-28 the implementation must give
SECTIONS_1_28 = {
    "scale_class", "gpus", "servers", "racks", "it_kw", "capex", "capex_servers",
    "capex_network", "capex_storage", "capex_facility", "network_share", "opex_year1",
    "tco", "gpu_hours", "tco_per_gpu_hour", "cost_per_gpu_hour", "revenue", "npv", "irr",
    "payback_years", "roi", "mtbf_hours", "checkpoint_interval_hours", "goodput",
    "cost_per_effective_gpu_hour", "cost_per_pflop_hour", "peak_funding", "availability",
    "equity_npv", "equity_irr", "min_dscr", "debt_peak", "vat_paid", "vat_credit_peak",
    "surtax", "realized_price", "contract_at_risk", "network_levels", "storage_tb",
    "storage_write_gbps", "storage_nodes", "cooling", "rack_kw", "design",
    "opex_full_year", "opex_full_year_number",
}  # fmt: skip


def close(got, want) -> bool:
    if isinstance(want, bool | str):
        return got == want
    if isinstance(want, float) and math.isnan(want):
        return got is None or (isinstance(got, float) and math.isnan(got))
    return got == pytest.approx(want, rel=1e-7, abs=1e-6)


def differences(got: dict, want: dict) -> dict:
    return {k: (got[k], v) for k, v in want.items() if not close(got[k], v)}


def test_the_implementation_gives_every_column_of_sections_1_to_28():
    want = tier_row(load(FILES), "hall")
    assert set(want) >= SECTIONS_1_28
    engine = set(cm.build(cm.load_assumptions(*FILES)).summary_rows()["hall"])
    assert engine >= SECTIONS_1_28


@pytest.mark.parametrize("overrides", CASES.values(), ids=list(CASES))
def test_every_column_equals_the_independent_implementation(overrides):
    a = cm.load_assumptions(*FILES, overrides=overrides)
    rows = cm.build(a).summary_rows()
    doc = load(FILES, overrides)
    assert list(rows) == list(doc["tiers"])
    for tier in rows:
        bad = differences(rows[tier], tier_row(doc, tier))
        assert not bad, f"{tier}: {bad}"


@pytest.mark.parametrize("name", list(CASES)[:3])
def test_the_command_lines_json_carries_the_same_columns(name):
    sets = [f"--set={k}={json.dumps(v)}" for k, v in CASES[name].items()]
    res = CliRunner().invoke(get_app(), ["summary", *map(str, FILES), *sets, "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    doc = load(FILES, CASES[name])
    assert set(rows) == set(doc["tiers"])
    for tier in rows:
        bad = differences(rows[tier], tier_row(doc, tier))
        assert not bad, f"{tier}: {bad}"


def test_the_cases_use_what_they_check():
    """The stage crosses a boundary, the hall's fabric is rail-optimised with the
    spine correction, its capacity tier buys TB, and the named tier keeps its own
    cooling: each worked out here by hand."""
    doc = load(FILES)
    crossing = tier_row(doc, "crossing")
    # 40 GPUs alone are tens; with the stage's 40 the cluster is designed for hundreds
    assert crossing["design"] == "hundreds" and crossing["gpus"] == 80
    # hundreds storage at 80 GPUs: write 16/10 -> 2, read 40/18 -> 3, capacity 160/400 -> 1
    assert crossing["storage_nodes"] == 3 and crossing["storage_write_gbps"] == 30
    hall = tier_row(doc, "hall")
    # 13 nodes (write 307.2/25 -> 13; read 512/45 -> 12) hold 3,900 TB of 6,144
    assert hall["storage_nodes"] == 13 and hall["storage_tb"] == 6144
    nodes = doc["designs"]["thousands"]["storage"]
    assert storage_of(nodes, 1024)["cost"] == 13 * 1_500_000 + (6144 - 3900) * 500
    # rail-optimised at 768 GPUs: 8 rails x ceil(96/32) = 24 leaves, 16 spines (not 12)
    assert fabric(768, 64, 1.0, 8) == {"levels": 2, "switches": 40, "optics": 2 * (768 + 768)}
    # 128 servers: 32 leaves of 32 uplinks, 1,024 uplinks over 16 spines
    assert fabric(1024, 64, 1.0, 8)["switches"] == 48
    named = tier_row(doc, "named")
    assert (named["design"], named["cooling"], named["rack_kw"]) == ("hundreds", "cold_plate", 45)
    engine = cm.build(cm.load_assumptions(*FILES)).summary()
    assert engine.loc["hall", "network_levels"] == 2 and engine.loc["hall", "design"] == "thousands"


def test_a_held_out_sweep_rebuilds_at_every_class_boundary():
    """8..4,096 GPUs with ``design: auto``: the design changes between 64/72 and
    504/512, capex per GPU and cost per GPU-hour move at each, the storage's write
    bandwidth never falls, and every row equals the implementation's tier rebuilt
    at that count."""
    a = cm.load_assumptions(*FILES)
    rows = cm.sweep(a, "crossing", "8:4096").to_dict("records")
    by_gpus = {int(r["gpus"]): r for r in rows}
    doc = load(FILES)
    for lo, hi in ((64, 72), (504, 512)):
        before, after = by_gpus[lo], by_gpus[hi]
        assert before["design"] != after["design"]
        assert "design" in after["change"]
        assert after["capex_per_gpu"] != pytest.approx(before["capex_per_gpu"], rel=1e-3)
        assert after["cost_per_gpu_hour"] != pytest.approx(before["cost_per_gpu_hour"], rel=1e-3)
    assert [r["design"] for r in rows].count("hundreds") > 1
    writes = [r["storage_write_gbps"] for r in rows]
    assert all(b >= a_ for a_, b in zip(writes, writes[1:], strict=False))
    assert rows[0]["gpus"] == 8 and rows[-1]["gpus"] == 4096
    for r in rows:
        bad = differences(r, sweep_row(doc, "crossing", int(r["gpus"])))
        assert not bad, f"{r['gpus']} GPUs: {bad}"


def test_the_command_lines_sweep_json_equals_the_implementation():
    """``costmodel sweep --format json`` of the held-out file: every row equals the
    implementation's tier rebuilt at that count."""
    args = ["sweep", str(FILES[0]), "--tier", "crossing", "--gpus", "8:4096", "--format", "json"]
    res = CliRunner().invoke(get_app(), args)
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["rows"]
    doc = load(FILES)
    assert [r["gpus"] for r in rows][:2] == [8, 16] and rows[-1]["gpus"] == 4096
    for r in rows:
        bad = differences(r, sweep_row(doc, "crossing", int(r["gpus"])))
        assert not bad, f"{r['gpus']} GPUs: {bad}"
