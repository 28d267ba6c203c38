"""``costmodel sensitivity`` and ``costmodel montecarlo``: JSON equals the API,
table and CSV print, bad input exits 2."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.analysis.breakeven import break_even
from costmodel.analysis.sensitivity import tornado
from costmodel.cli import get_app
from tests.paths import HAND

app = get_app()
runner = CliRunner()

DEFAULT = cm.load_assumptions()


def test_cli_sensitivity_json_equals_api():
    res = runner.invoke(app, ["sensitivity", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    df = tornado(DEFAULT)
    assert doc["metric"] == "npv" and len(doc["tornado"]) == len(df)
    for rec, (_, row) in zip(doc["tornado"], df.iterrows(), strict=True):
        assert rec["input"] == row.input and rec["tier"] == row.tier
        assert rec["swing"] == pytest.approx(row.swing, rel=1e-11)
    be = break_even(DEFAULT)
    for tier in be.index:
        for key in ("utilization", "price_per_gpu_hour"):
            want, got = be.loc[tier, key], doc["break_even"][tier][key]
            assert got is None if math.isnan(want) else got == pytest.approx(want, rel=1e-11)
    assert "servers.h100.price" in doc["skipped"]


def test_cli_sensitivity_table_csv_and_errors(tmp_path):
    res = runner.invoke(app, ["sensitivity", str(HAND)], env={"COLUMNS": "150"})
    assert res.exit_code == 0 and "Break-even" in res.stdout
    res = runner.invoke(app, ["sensitivity", "--format", "csv", "--metric", "irr"])
    assert res.exit_code == 0 and res.stdout.startswith("input,tier,")
    assert runner.invoke(app, ["sensitivity", "--metric", "bogus"]).exit_code == 2
    bad = runner.invoke(app, ["sensitivity", "--set", "operations.utilization=2"])
    assert bad.exit_code == 2 and "utilization" in bad.stderr


def test_cli_montecarlo_json_equals_api():
    res = runner.invoke(app, ["montecarlo", "-n", "1500", "--seed", "4", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    mc = cm.monte_carlo(DEFAULT, n=1500, seed=4)
    api = mc.summary
    assert (doc["n"], doc["seed"]) == (1500, 4)
    for tier in api.index:
        for col in api.columns:
            assert doc["summary"][tier][col] == pytest.approx(api.loc[tier, col], rel=1e-11)
    shifts = cm.median_shifts(DEFAULT, mc)
    for tier in api.index:
        want = shifts[shifts["tier"] == tier]
        got = doc["median_shifts"][tier]
        assert [r["input"] for r in got] == want["input"].tolist()
        for r, (_, w) in zip(got, want.iterrows(), strict=True):
            assert r["shift"] == pytest.approx(w["shift"], rel=1e-11)
            assert (r["value"], r["median"]) == pytest.approx((w["value"], w["median"]))


def test_cli_montecarlo_table_csv_and_errors():
    res = runner.invoke(app, ["montecarlo", str(HAND), "-n", "200"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "NPV, P50 (median)" in res.stdout
    # the table names its rows as the workbook does (the machine formats keep the keys)
    assert "npv_p50" not in res.stdout and "Probability that NPV > 0" in res.stdout
    assert "What moves the median draw" not in res.stdout
    res = runner.invoke(app, ["montecarlo", "-n", "200", "-v"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "What moves the median draw, tier thousands" in res.stdout
    res = runner.invoke(app, ["montecarlo", "-n", "200", "--format", "csv"])
    assert res.exit_code == 0 and res.stdout.startswith("tier,npv_p10")
    assert runner.invoke(app, ["montecarlo", "-n", "0"]).exit_code == 2
    bad = runner.invoke(app, ["montecarlo", "--set", "finance.tax_rate=7"])
    assert bad.exit_code == 2


def test_cli_montecarlo_csv_computes_no_median_shifts(monkeypatch):
    """CSV is the summary alone: with --verbose too, the median shifts (one engine run
    per drawn input) are not computed; the table and JSON compute them."""
    from costmodel.analysis import montecarlo

    calls = []
    real = montecarlo.median_shifts
    monkeypatch.setattr(
        montecarlo, "median_shifts", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    res = runner.invoke(app, ["montecarlo", "-n", "100", "-v", "--format", "csv"])
    assert res.exit_code == 0 and res.stdout.startswith("tier,npv_p10") and calls == []
    res = runner.invoke(app, ["montecarlo", "-n", "100", "--format", "json"])
    assert res.exit_code == 0 and "median_shifts" in json.loads(res.stdout) and calls == [1]
