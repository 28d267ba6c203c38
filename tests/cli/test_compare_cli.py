"""``costmodel compare`` and ``costmodel build-vs-rent``: every output format
agrees with the API; bad scenarios exit 2 and write nothing."""

from __future__ import annotations

import io
import json
import math
import os

import pandas as pd
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.report.format import table_value as format_value
from tests.paths import HAND

app = get_app()
runner = CliRunner()


def coloc_overlay(tmp_path):
    """An overlay that leases the hand case's hall (hand.yaml builds it): a scenario
    that moves the numbers of the one-tier hand case (the bundled scenarios name the
    default's tiers, which the hand case does not have)."""
    path = tmp_path / "coloc.yaml"
    path.write_text("facility: {mode: colocation}\n", encoding="utf-8")
    return path


def test_cli_json_csv_table_agree_with_api(tmp_path):
    coloc = coloc_overlay(tmp_path)
    args = ["compare", str(HAND), "-s", f"coloc={coloc}", "-s", "=1+1="]
    args += ["-s", "<script>=" + str(tmp_path / "p.yaml")]
    (tmp_path / "p.yaml").write_text("power: {price_per_kwh: 2.0}\n", encoding="utf-8")
    api = cm.compare(HAND, {"coloc": coloc, "=1+1": None, "<script>": tmp_path / "p.yaml"})

    res = runner.invoke(app, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["scenarios"] == ["base", "coloc", "=1+1", "<script>"]
    assert data["overlays"] == api.overlays
    for (s, t), row in api.wide.iterrows():
        for metric, want in row.items():
            got = data["results"][s][t][metric]
            assert got is None if math.isnan(want) else got == pytest.approx(want, rel=1e-11)

    res = runner.invoke(app, [*args, "--format", "csv"])
    assert res.exit_code == 0
    got = pd.read_csv(io.StringIO(res.stdout), keep_default_na=False, na_values=[""])
    # a name that would start a spreadsheet formula is written as text (leading ')
    assert list(got.scenario.unique()) == ["base", "coloc", "'=1+1", "<script>"]
    pd.testing.assert_series_equal(got.value, api.tidy.value, rtol=1e-12)

    res = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0
    for s in api.scenarios:
        assert s in res.stdout
        npv = api.wide.loc[(s, "small"), "npv"]
        assert format_value(npv, "money") in res.stdout


def test_cli_paths_may_repeat_or_be_comma_separated(tmp_path):
    coloc = coloc_overlay(tmp_path)
    p = tmp_path / "p.yaml"
    p.write_text("power: {price_per_kwh: 2.0}\n", encoding="utf-8")
    one = runner.invoke(app, ["compare", str(HAND), "-s", f"x={coloc},{p}", "-f", "json"])
    two = runner.invoke(
        app, ["compare", str(HAND), "-s", f"x={coloc}", "-s", f"x={p}", "-f", "json"]
    )
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)
    direct = cm.build(cm.load_assumptions(HAND, coloc, p)).summary()
    assert json.loads(one.stdout)["results"]["x"]["small"]["npv"] == pytest.approx(
        direct.npv["small"], rel=1e-11
    )


def test_cli_set_applies_to_the_base_and_every_scenario():
    res = runner.invoke(
        app,
        ["compare", str(HAND), "-s", "same=", "--set", "finance.tax_rate=0", "-f", "json"],
    )
    data = json.loads(res.stdout)["results"]
    assert data["base"]["small"]["npv"] == pytest.approx(2_867_332.5 + 955_777.5)
    assert data["same"]["small"]["npv"] == data["base"]["small"]["npv"]


@pytest.mark.parametrize(
    "scenario", ["x=does-not-exist.yaml", "no-equals-sign", "=path.yaml", "base="]
)
def test_cli_bad_scenario_exits_2_and_writes_nothing(tmp_path, scenario):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = runner.invoke(app, ["compare", str(HAND), "-s", scenario, "-f", "json"])
    finally:
        os.chdir(cwd)
    assert res.exit_code == 2, res.output
    assert res.stdout == ""
    assert "error" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_build_vs_rent_agrees_with_api(tmp_path):
    overlay = tmp_path / "cloud.yaml"
    overlay.write_text("servers: {box: {cloud_on_demand_per_gpu_hour: 150}}\n", encoding="utf-8")
    api = cm.build_vs_rent(cm.build(cm.load_assumptions(HAND, overlay)))
    res = runner.invoke(app, ["build-vs-rent", str(HAND), str(overlay), "-f", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    for col, want in api.loc["small"].items():
        got = data["small"][col]
        if isinstance(want, str):
            assert got == want
        elif math.isnan(want):
            assert got is None
        else:
            assert got == pytest.approx(want, rel=1e-11)
    res = runner.invoke(app, ["build-vs-rent", str(HAND), str(overlay)], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert format_value(api.loc["small", "saving"], "money") in res.stdout
    assert format_value(api.loc["small", "break_even_utilization"], "pct") in res.stdout
    res = runner.invoke(app, ["build-vs-rent", str(HAND), str(overlay), "-f", "csv"])
    got = pd.read_csv(io.StringIO(res.stdout), index_col="tier")
    assert got.loc["small", "pv_cloud_cost"] == pytest.approx(api.loc["small", "pv_cloud_cost"])


def test_cli_build_vs_rent_bad_input_exits_2():
    res = runner.invoke(app, ["build-vs-rent", str(HAND), "--set", "revenue.mode=avoided_cloud"])
    assert res.exit_code == 2  # avoided_cloud needs a cloud price for the tier's server
    assert "cloud_on_demand_per_gpu_hour" in res.stderr
