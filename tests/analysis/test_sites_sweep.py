"""The sweep per site and the options compared across sites (methodology §29),
through the API and the command line, on the hand case with two sites."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.analysis.sitecompare import compare_sites
from costmodel.cli import get_app
from tests.paths import DATA

app = get_app()
FILES = [DATA / "hand.yaml", DATA / "sites.yaml"]


@pytest.fixture(scope="module")
def a():
    return cm.load_assumptions(*FILES)


def test_the_sweep_per_site_is_the_sweep_of_the_tier_moved_there(a):
    both = cm.sweep(a, "small", [8, 16], sites=["east", "west"])
    assert list(both["site"]) == ["east", "east", "west", "west"]
    for s in ("east", "west"):
        alone = cm.sweep(
            cm.load_assumptions(*FILES, overrides={"tiers.small.site": s}), "small", [8, 16]
        )
        got = both[both["site"] == s].reset_index(drop=True)
        for col in ("npv", "cost_per_gpu_hour", "capex_per_gpu"):
            assert list(got[col]) == pytest.approx(list(alone[col]), rel=1e-12)


def test_compare_sites_moves_every_option(a):
    c = compare_sites(a, "east,west")
    assert c.scenarios == ["base", "east", "west"]
    west = cm.build(cm.load_assumptions(*FILES, overrides={"tiers.small.site": "west"}))
    assert c.wide.loc[("west", "small"), "npv"] == pytest.approx(
        west.summary().loc["small", "npv"], rel=1e-12
    )
    # the west site's connection: (0.033 - 0.013) MW x 2,500,000 on 22 kW x 10,000
    assert c.wide.loc[("west", "small"), "capex_facility"] == pytest.approx(270_000, rel=1e-12)


def test_the_cli_sweeps_per_site_and_compares_sites():
    runner = CliRunner()
    args = [str(p) for p in FILES]
    res = runner.invoke(
        app,
        [
            "sweep",
            *args,
            "--tier",
            "small",
            "--gpus",
            "8,16",
            "--site",
            "east,west",
            "--format",
            "json",
            "-q",
        ],
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["sites"] == ["east", "west"]
    assert [r["site"] for r in doc["rows"]] == ["east", "east", "west", "west"]
    res = runner.invoke(app, ["compare", *args, "--sites", "east,west", "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["scenarios"] == ["base", "east", "west"]
    assert doc["results"]["west"]["small"]["capex_facility"] == pytest.approx(270_000)


def test_an_unknown_site_is_refused_with_the_known_ones():
    res = CliRunner().invoke(
        app, ["sweep", *map(str, FILES), "--tier", "small", "--site", "north", "-q"]
    )
    assert res.exit_code != 0
    assert "unknown site; sites has: east, west" in res.output


def test_a_swept_count_above_the_sites_grid_is_refused_not_priced():
    # the default's leased hall (sites.east-t1) draws 8 MW; 8,192 H200 on cold plate
    # need 1,024 servers x 10.2 kW x 1.1 (auxiliary) x 1.15 (PUE) = 13.21 MW, 4,096
    # need 6.61 MW; the hub's 20 MW holds both
    a = cm.load_assumptions()
    assert a.sites["east-t1"].grid_mw.value == 8 and a.sites["hub"].grid_mw.value == 20
    df = cm.sweep(a, "thousands", [4096, 8192], sites=["east-t1", "hub"]).set_index(
        ["site", "gpus"]
    )
    assert bool(df.loc[("east-t1", 4096), "feasible"])
    row = df.loc[("east-t1", 8192)]
    mw = 1024 * 10.2 * 1.1 * 1.15 / 1000
    assert not row["feasible"] and f"{mw:.2f} MW" in row["infeasible_reason"]
    assert "sites.east-t1.grid_mw" in row["infeasible_reason"]
    assert math.isnan(row["npv"]) and math.isnan(row["cost_per_gpu_hour"])
    assert bool(df.loc[("hub", 8192), "feasible"]) and math.isfinite(df.loc[("hub", 8192), "npv"])
