"""``costmodel sensitivity --grid``: JSON equals the API, CSV and table print."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.analysis.pricegrid import price_utilization_grid
from costmodel.cli import get_app

app = get_app()
runner = CliRunner()


def test_grid_json_csv_and_table():
    df = price_utilization_grid(cm.load_assumptions(), points=5)
    res = runner.invoke(app, ["sensitivity", "--grid", "--points", "5", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["points"] == 5 and len(doc["grid"]) == 3 * 25 == len(df)
    for rec, (_, row) in zip(doc["grid"], df.iterrows(), strict=True):
        assert rec["tier"] == row.tier and rec["npv"] == pytest.approx(row.npv, rel=1e-11)
    res = runner.invoke(app, ["sensitivity", "--grid", "--points", "5", "--format", "csv", "-q"])
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert len(rows) == 75 and float(rows[0]["npv"]) == pytest.approx(df["npv"].iloc[0])
    res = runner.invoke(
        app, ["sensitivity", "--grid", "--points", "5", "-q"], env={"COLUMNS": "200"}
    )
    assert res.exit_code == 0 and res.stdout.count("break-even price") >= 3
    assert "(base)" in res.stdout and "*" in res.stdout
    assert runner.invoke(app, ["sensitivity", "--grid", "--points", "4"]).exit_code == 2
