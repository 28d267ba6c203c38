"""``costmodel sweep``: JSON and CSV equal the API, the table prints, bad input
exits 2."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.analysis.sweep import sweep
from costmodel.cli import get_app

app = get_app()
runner = CliRunner()


def test_sweep_cli_formats_equal_the_api():
    df = sweep(cm.load_assumptions(), "tens", "8:256")
    args = ["sweep", "--tier", "tens", "--gpus", "8:256", "-q"]
    doc = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout)
    assert doc["tier"] == "tens" and doc["first_gpus"] == 32 and len(doc["rows"]) == len(df)
    for rec, (_, row) in zip(doc["rows"], df.iterrows(), strict=True):
        assert rec["gpus"] == row.gpus and rec["npv"] == pytest.approx(row.npv, rel=1e-11)
        assert rec["change"] == row.change
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, [*args, "--format", "csv"]).stdout)))
    assert [int(r["gpus"]) for r in rows] == list(df["gpus"])
    res = runner.invoke(app, args, env={"COLUMNS": "220"})
    # the headers wrap in their columns beside the words of a design's rebuild
    header = res.stdout[: res.stdout.index("┡")]
    assert res.exit_code == 0 and all(w in header for w in ("Levelized", "cost per", "GPU-hour"))
    assert "scale_class" in res.stdout


@pytest.mark.parametrize(
    "args", [["--tier", "nope"], ["--tier", "tens", "--gpus", "12"], ["--gpus", "1:7"]]
)
def test_sweep_cli_bad_input_exits_2(args):
    assert runner.invoke(app, ["sweep", *args]).exit_code == 2
