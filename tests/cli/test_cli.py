"""The command line: output formats agree with the API; exit codes; init; schema."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from tests.paths import HAND

app = get_app()

runner = CliRunner()


def test_summary_json_equals_api():
    result = runner.invoke(app, ["summary", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    s = cm.build(cm.load_assumptions()).summary()
    assert list(data) == list(s.index)
    for tier in s.index:
        for col in s.columns:
            want, got = s.loc[tier, col], data[tier][col]
            if want is None or (isinstance(want, float) and math.isnan(want)):
                assert got is None
            elif isinstance(want, str):
                assert got == want
            else:
                assert got == pytest.approx(float(want), rel=1e-11)


def test_summary_csv_round_trips(tmp_path):
    result = runner.invoke(app, ["summary", str(HAND), "--format", "csv"])
    assert result.exit_code == 0
    f = tmp_path / "s.csv"
    f.write_text(result.stdout)
    units = pd.read_csv(f, index_col="tier", nrows=1)  # the row under the header
    assert units.loc["unit", "npv"] == "CNY" and units.loc["unit", "irr"] == "fraction"
    got = pd.read_csv(f, index_col="tier", skiprows=[1])
    assert got.loc["small", "npv"] == pytest.approx(2_867_332.5)  # the hand-worked case
    assert got.loc["small", "capex"] == pytest.approx(2_845_000)


def test_summary_table_is_readable():
    result = runner.invoke(app, ["summary", str(HAND)], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "2,867,332" in result.stdout  # NPV with thousands separators
    assert "NPV" in result.stdout and "Capex" in result.stdout


def test_set_overrides_a_value():
    result = runner.invoke(
        app, ["summary", str(HAND), "--set", "finance.tax_rate=0", "--format", "json"]
    )
    npv = json.loads(result.stdout)["small"]["npv"]
    assert npv == pytest.approx(2_867_332.5 + 955_777.5)  # the hand case's tax, added back


def test_validate_ok_and_bad(tmp_path):
    ok = runner.invoke(app, ["validate", str(HAND)])
    assert ok.exit_code == 0 and "ok:" in ok.stdout
    bad = runner.invoke(app, ["validate", str(HAND), "--set", "tiers.small.gpus=12"])
    assert bad.exit_code == 2
    assert "tiers.small.gpus = 12: must be a positive multiple of 8" in " ".join(bad.stderr.split())


def test_missing_file_exits_2():
    result = runner.invoke(app, ["summary", "no/such/file.yaml"])
    assert result.exit_code == 2
    assert "no such file or directory" in result.stderr


def test_init_copies_an_editable_model(tmp_path):
    target = tmp_path / "mine"
    result = runner.invoke(app, ["init", str(target)])
    assert result.exit_code == 0, result.stderr
    assert (target / "80-tiers.yaml").exists() and (
        target / "scenarios" / "greenfield.yaml"
    ).exists()
    same = cm.build(cm.load_assumptions(target)).summary()
    pd.testing.assert_frame_equal(same, cm.build(cm.load_assumptions()).summary())
    again = runner.invoke(app, ["init", str(target)])
    assert again.exit_code == 2 and "already exist" in again.stderr


def test_schema_is_json_schema_of_the_sections(tmp_path):
    out = tmp_path / "schema.json"
    result = runner.invoke(app, ["schema", "-o", str(out)])
    assert result.exit_code == 0
    schema = json.loads(out.read_text())
    assert {"finance", "power", "tiers", "servers"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False
    assert "required" not in schema  # a single file may hold any subset of sections


def test_recommend_cli_json():
    result = runner.invoke(app, ["recommend", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["recommended"] == cm.recommend(cm.build(cm.load_assumptions())).attrs["recommended"]


def _table_rows(stdout: str) -> list[list[str]]:
    """The cells of each row of a table printed with box characters."""
    return [
        [c.strip() for c in line.strip("│ ").split("│")]
        for line in stdout.splitlines()
        if "│" in line
    ]


def test_summary_table_states_cost_per_pflop_hour_per_pflop_hour():
    """The unit of cost per PFLOP-hour is currency per PFLOP-hour (it was printed
    as "CNY/h", the unit of a GPU-hour price), as on the workbook's Comparison sheet."""
    result = runner.invoke(app, ["summary", "--format", "table"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    units = {row[0]: row[1] for row in _table_rows(result.stdout)}
    assert units["Cost per PFLOP-hour"] == "CNY/PFLOP-h"
    assert units["Levelized cost per GPU-hour"] == "CNY/GPU-h"
    assert units["IRR"] == "%"


def test_sensitivity_table_shows_ramp_months_as_months():
    """The tornado prints an input's low and high in the input's own kind: the ramp
    of 3 to 12 months is "3" and "12" (it was "300.0%" and "1200.0%", its unit text
    "months from first service to full utilization" read as a share), a share as a
    percentage."""
    result = runner.invoke(app, ["sensitivity", "-q", "--format", "table"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    rows = {row[0]: row[1:3] for row in _table_rows(result.stdout) if len(row) == 6}
    a = cm.load_assumptions()
    ramp = a.timeline.ramp_months
    assert rows["timeline.ramp_months"] == [f"{ramp.low:g}", f"{ramp.high:g}"] == ["3", "12"]
    u = a.operations.utilization
    assert rows["operations.utilization"] == [f"{u.low:.1%}", f"{u.high:.1%}"]


def test_each_command_takes_the_width_of_its_own_environment():
    """Two commands in one process, the first narrow: the second is as wide as its own
    ``COLUMNS`` says (a console made once would keep the first width)."""
    narrow = runner.invoke(app, ["summary", "--format", "table"], env={"COLUMNS": "60"})
    wide = runner.invoke(app, ["summary", "--format", "table"], env={"COLUMNS": "200"})
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60
    assert max(len(line) for line in wide.stdout.splitlines()) > 60


def test_summary_table_shows_the_first_full_operating_year():
    """Built over the hand case's first year (2 FTE at 600,000 only), the table shows
    year 2, whose opex is twelve of the hand case's operating months (133,740.83:
    tests/core/test_engine_hand.py), beside year 1's payroll; a tier with no full
    year within the horizon shows "-"."""
    opex_m = 18_067.5 + 100_000 + 13_125 + 0.004 * 2_845_000 / 12 + 1_600
    args = ["summary", str(HAND), "--set", "horizon_years=2", "--set", "timeline.build_months=12"]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    rows = {row[0]: row[1:] for row in _table_rows(result.stdout)}
    assert rows["Opex, year 1"] == ["CNY", "1,200,000"]
    assert rows["Opex, first full operating year"] == ["CNY", f"{12 * opex_m:,.0f}"]
    assert rows["First full operating year"] == ["model year", "2"]
    args = ["summary", str(HAND), "--set", "horizon_years=1", "--set", "timeline.build_months=4"]
    short = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert short.exit_code == 0, short.stderr
    rows = {row[0]: row[1:] for row in _table_rows(short.stdout)}
    assert rows["Opex, first full operating year"] == ["CNY", "-"]
