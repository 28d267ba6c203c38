"""The sweep rebuilds the design at each class boundary (methodology §28.5), on the
test file of three designs (tests/data/designs.yaml)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from tests.paths import DATA

DESIGNS = DATA / "designs.yaml"


@pytest.fixture(scope="module")
def swept():
    return cm.sweep(cm.load_assumptions(DESIGNS), "hundreds", "8:4096")


def row(df, gpus):
    return df.set_index("gpus").loc[gpus]


def test_designs_change_at_the_class_boundaries(swept):
    marked = swept[swept["change"].str.contains("design")]["gpus"].tolist()
    assert marked == [72, 512]
    assert (row(swept, 64)["design"], row(swept, 72)["design"]) == ("tens", "hundreds")
    assert (row(swept, 504)["design"], row(swept, 512)["design"]) == ("hundreds", "thousands")
    assert (row(swept, 504)["cooling"], row(swept, 512)["cooling"]) == ("air", "cold_plate")


def test_capex_and_cost_move_at_each_rebuild(swept):
    for lo, hi in ((64, 72), (504, 512)):
        assert row(swept, hi)["capex_per_gpu"] != pytest.approx(row(swept, lo)["capex_per_gpu"])
        assert row(swept, hi)["cost_per_gpu_hour"] > row(swept, lo)["cost_per_gpu_hour"]


def test_storage_write_never_falls_as_gpus_grow(swept):
    w = swept["storage_write_gbps"].to_numpy(float)
    assert np.all(np.diff(w) >= 0)
    # by hand: 504 GPUs of the hundreds design write 0.25 x 504 = 126 GB/s over
    # 12.5 GB/s nodes -> 11 nodes, 137.5 GB/s; 512 of the thousands design 128 / 20
    # -> 7 nodes, 140 GB/s
    assert (row(swept, 504)["storage_nodes"], row(swept, 504)["storage_write_gbps"]) == (11, 137.5)
    assert (row(swept, 512)["storage_nodes"], row(swept, 512)["storage_write_gbps"]) == (7, 140)


def test_staff_from_each_design(swept):
    # 1.5 + 0.125 x 8 servers; 4 + 0.1 x 9; 12 + 0.08 x 64
    assert row(swept, 64)["staff_fte"] == pytest.approx(2.5)
    assert row(swept, 72)["staff_fte"] == pytest.approx(4.9)
    assert row(swept, 512)["staff_fte"] == pytest.approx(17.12)


def test_a_row_equals_the_tier_built_at_that_size():
    a = cm.load_assumptions(DESIGNS, overrides={"tiers.hundreds.gpus": 512,
                                                "tiers.hundreds.stages": []})  # fmt: skip
    s = cm.build(a).summary().loc["hundreds"]
    r = row(cm.sweep(cm.load_assumptions(DESIGNS), "hundreds", [512]), 512)
    for col in ("cost_per_gpu_hour", "npv", "storage_write_gbps", "network_share"):
        assert r[col] == pytest.approx(s[col], rel=1e-9)
    assert r["capex_per_gpu"] == pytest.approx(s["capex"] / 512, rel=1e-9)


def test_a_named_design_beyond_its_limit_is_an_infeasible_row():
    a = cm.load_assumptions(DESIGNS, overrides={"tiers.tens.design": "tens"})
    df = cm.sweep(a, "tens", [32, 64, 72])
    assert df["feasible"].tolist() == [True, True, False]
    bad = row(df, 72)
    assert "beyond design 'tens'" in bad["infeasible_reason"]
    assert np.isnan(bad["npv"])


def test_the_table_says_what_is_rebuilt():
    result = CliRunner().invoke(
        get_app(),
        ["sweep", str(DESIGNS), "--tier", "hundreds", "--gpus", "64,72,504,512", "--format", "csv"],
    )
    assert result.exit_code == 0, result.output
    assert "design" in result.stdout.splitlines()[0]
    result = CliRunner().invoke(
        get_app(),
        ["sweep", str(DESIGNS), "--tier", "hundreds", "--gpus", "504,512"],
        env={"COLUMNS": "300"},
    )
    text = " ".join(result.stdout.split())
    assert "design hundreds -> thousands" in text and "air -> cold plate" in text
