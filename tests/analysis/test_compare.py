"""Named scenarios: overlays on a base, tidy and wide views, the CLI."""

from __future__ import annotations

import io
import json
import math
import os

import pandas as pd
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.analysis.scenarios import METRIC_COLUMNS, CompareResult
from costmodel.cli import get_app
from costmodel.inputs.resources import scenarios_dir
from costmodel.report.format import table_value as format_value
from tests.paths import HAND

app = get_app()

COLOCATION = scenarios_dir() / "colocation.yaml"
runner = CliRunner()


@pytest.fixture(scope="module")
def base() -> cm.Assumptions:
    return cm.load_assumptions()


# ----------------------------------------------------------------------------- API


def test_base_comes_first_and_empty_overlays_equal_it(base):
    r = cm.compare(base, {"none": None, "no files": [], "no overrides": {}})
    assert r.scenarios == ["base", "none", "no files", "no overrides"]
    ref = r.models["base"]
    for name in r.scenarios[1:]:
        pd.testing.assert_frame_equal(r.wide.loc[name], r.wide.loc["base"], check_exact=True)
        m = r.models[name]
        for t in m.tiers:
            pd.testing.assert_frame_equal(m.cash_flow(t), ref.cash_flow(t), check_exact=True)
            pd.testing.assert_frame_equal(m.opex(t), ref.opex(t), check_exact=True)
        assert r.overlays[name] == ""
    assert (r.delta().loc["none"].fillna(0) == 0).all().all()


def test_electricity_price_changes_only_electricity_driven_lines(base, tmp_path):
    overlay = tmp_path / "power.yaml"
    overlay.write_text("power:\n  price_per_kwh: 0.9\n", encoding="utf-8")
    r = cm.compare(base, {"file": overlay, "set": {"power.price_per_kwh": 0.9}})
    ratio = 0.9 / base.power.price_per_kwh.value
    b = r.models["base"]
    for name in ("file", "set"):
        m = r.models[name]
        for t in b.tiers:
            ob, om = b.opex(t), m.opex(t)
            for line in ("colocation", "staff", "maintenance", "insurance", "software"):
                pd.testing.assert_series_equal(ob[line], om[line], check_exact=True)
            # electricity is proportional to the price per kWh (spec 5)
            pd.testing.assert_series_equal(
                om.electricity, ob.electricity * ratio, check_exact=False, rtol=1e-12
            )
            pd.testing.assert_series_equal(
                om.total - ob.total,
                om.electricity - ob.electricity,
                rtol=1e-9,
                atol=1e-6,
                check_names=False,
            )
            cb, cf = b.cash_flow(t), m.cash_flow(t)
            for col in ("gpu_hours", "revenue", "depreciation", "capex", "terminal_value"):
                pd.testing.assert_series_equal(cb[col], cf[col], check_exact=True)
            pd.testing.assert_frame_equal(b.capex(t), m.capex(t), check_exact=True)
            assert (om.electricity.iloc[1:] > ob.electricity.iloc[1:]).all()
            assert not cf.fcf.equals(cb.fcf)
        w, wb = r.wide.loc[name], r.wide.loc["base"]
        unchanged = ["capex", "gpus", "it_kw", "revenue", "gpu_hours", "goodput"]
        pd.testing.assert_frame_equal(w[unchanged], wb[unchanged], check_exact=True)
        assert (w.npv < wb.npv).all()
        assert (w.opex_year1 > wb.opex_year1).all()
        assert (w.cost_per_gpu_hour > wb.cost_per_gpu_hour).all()
    pd.testing.assert_frame_equal(r.wide.loc["file"], r.wide.loc["set"], check_exact=True)


def test_paths_and_overrides_together(base):
    r = cm.compare(
        base,
        {
            "coloc": COLOCATION,
            "coloc list": [str(COLOCATION)],
            "both": {"paths": [COLOCATION], "overrides": {"power.price_per_kwh": 0.45}},
        },
    )
    pd.testing.assert_frame_equal(r.wide.loc["coloc"], r.wide.loc["coloc list"])
    direct = cm.build(cm.layer(base, COLOCATION, overrides={"power.price_per_kwh": 0.45}))
    pd.testing.assert_frame_equal(
        r.wide.loc["both"], direct.summary()[METRIC_COLUMNS].astype(float), check_names=False
    )
    assert (r.wide.loc["coloc"].capex_facility == 0).all()
    text = r.overlays["both"]
    assert str(COLOCATION) in text and COLOCATION.read_text(encoding="utf-8").strip() in text
    assert "power.price_per_kwh: 0.45" in text
    assert "base" in r.overlays["base"] and "10-servers.yaml" in r.overlays["base"]


def test_base_may_be_paths_or_default():
    r1 = cm.compare(HAND, {"x": {"finance.tax_rate": 0}})
    r2 = cm.compare([HAND], {})
    assert r1.wide.loc["base"].equals(r2.wide.loc["base"])
    assert r1.wide.loc[("base", "small"), "npv"] == pytest.approx(2_867_332.5)
    assert r1.wide.loc[("x", "small"), "npv"] == pytest.approx(2_867_332.5 + 955_777.5)
    assert cm.compare(None, {}).scenarios == ["base"]


def test_tidy_and_wide_agree(base):
    r = cm.compare(base, {"coloc": COLOCATION})
    assert isinstance(r, CompareResult)
    assert list(r.tidy.columns) == ["scenario", "tier", "metric", "value"]
    assert list(r.wide.index.names) == ["scenario", "tier"]
    assert list(r.wide.columns) == METRIC_COLUMNS
    assert len(r.tidy) == r.wide.size
    for row in r.tidy.sample(40, random_state=1).itertuples():
        want = r.wide.at[(row.scenario, row.tier), row.metric]
        assert (math.isnan(want) and math.isnan(row.value)) or row.value == want
    pivot = r.tidy.pivot_table(
        index=["scenario", "tier"], columns="metric", values="value", dropna=False, sort=False
    )
    assert pivot.loc[("coloc", "hundreds"), "npv"] == r.wide.loc[("coloc", "hundreds"), "npv"]


def test_hostile_names_are_kept_verbatim():
    names = ["<script>alert(1)</script>", "=1+1", "a, b", "名字"]
    r = cm.compare(HAND, {n: {"finance.tax_rate": 0.1} for n in names})
    assert r.scenarios == ["base", *names]
    assert list(r.overlays) == ["base", *names]
    assert list(r.tidy.scenario.unique()) == ["base", *names]
    assert list(r.wide.index.get_level_values("scenario").unique()) == ["base", *names]


def test_the_name_base_is_reserved():
    with pytest.raises(cm.AssumptionError, match="reserved"):
        cm.compare(HAND, {"base": {"finance.tax_rate": 0}})


def test_bad_overlay_is_an_assumption_error(tmp_path):
    with pytest.raises(cm.AssumptionError, match="no such file"):
        cm.compare(HAND, {"x": tmp_path / "missing.yaml"})
    bad = tmp_path / "bad.yaml"
    bad.write_text("power:\n  price_per_kwh: -1\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError, match="power.price_per_kwh"):
        cm.compare(HAND, {"x": bad})


# ----------------------------------------------------------------------------- CLI


def test_cli_json_csv_table_agree_with_api(tmp_path):
    args = ["compare", str(HAND), "-s", f"coloc={COLOCATION}", "-s", "=1+1="]
    args += ["-s", "<script>=" + str(tmp_path / "p.yaml")]
    (tmp_path / "p.yaml").write_text("power: {price_per_kwh: 2.0}\n", encoding="utf-8")
    api = cm.compare(HAND, {"coloc": COLOCATION, "=1+1": None, "<script>": tmp_path / "p.yaml"})

    res = runner.invoke(app, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["scenarios"] == ["base", "coloc", "=1+1", "<script>"]
    assert data["overlays"] == api.overlays
    for (s, t), row in api.wide.iterrows():
        for metric, want in row.items():
            got = data["results"][s][t][metric]
            assert got is None if math.isnan(want) else got == pytest.approx(want, rel=1e-12)

    res = runner.invoke(app, [*args, "--format", "csv"])
    assert res.exit_code == 0
    got = pd.read_csv(io.StringIO(res.stdout), keep_default_na=False, na_values=[""])
    assert list(got.scenario.unique()) == ["base", "coloc", "=1+1", "<script>"]
    pd.testing.assert_series_equal(got.value, api.tidy.value, rtol=1e-12)

    res = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0
    for s in api.scenarios:
        assert s in res.stdout
        npv = api.wide.loc[(s, "small"), "npv"]
        assert format_value(npv, "money") in res.stdout


def test_cli_paths_may_repeat_or_be_comma_separated(tmp_path):
    p = tmp_path / "p.yaml"
    p.write_text("power: {price_per_kwh: 2.0}\n", encoding="utf-8")
    one = runner.invoke(app, ["compare", str(HAND), "-s", f"x={COLOCATION},{p}", "-f", "json"])
    two = runner.invoke(
        app, ["compare", str(HAND), "-s", f"x={COLOCATION}", "-s", f"x={p}", "-f", "json"]
    )
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)
    direct = cm.build(cm.load_assumptions(HAND, COLOCATION, p)).summary()
    assert json.loads(one.stdout)["results"]["x"]["small"]["npv"] == pytest.approx(
        direct.npv["small"], rel=1e-12
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
            assert got == pytest.approx(want, rel=1e-12)
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
