"""What a spreadsheet user expects of the command line's outputs: chosen metrics,
units in CSV and JSON, counts as integers, differences between scenarios and
overrides per scenario, words instead of field names, no negative zero."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from costmodel.cli import get_app
from costmodel.core.metrics import pick_metrics
from costmodel.report.format import counted, delta_value, millions, number, unsigned_zero
from tests.paths import HAND

app = get_app()
runner = CliRunner()

#: the hand case (tests/data/hand.yaml): NPV and the tax its NPV bears, worked by hand
HAND_NPV = 2_867_332.5
HAND_TAX = 955_777.5


def run(*args: str, columns: int = 200) -> str:
    res = runner.invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, res.stderr
    return res.stdout


def test_metrics_picks_and_orders_the_columns():
    data = json.loads(run("summary", str(HAND), "--metrics", "irr,npv,payback", "-f", "json"))
    assert list(data["small"]) == ["irr", "npv", "payback_years"]  # a prefix names one column
    assert data["small"]["npv"] == pytest.approx(HAND_NPV)
    table = run("summary", str(HAND), "-m", "npv")
    assert "2,867,332" in table and "Capex" not in table


def test_an_unknown_metric_is_refused_with_did_you_mean():
    res = runner.invoke(app, ["summary", str(HAND), "--metrics", "npv,irrr"])
    assert res.exit_code == 2
    assert "unknown metric 'irrr'; did you mean 'irr'?" in " ".join(res.stderr.split())
    with pytest.raises(ValueError, match="did you mean 'capex'"):
        pick_metrics("capx", ["capex", "npv"])
    # "capex" names a column itself, so it is not taken for a prefix of capex_servers
    assert pick_metrics("capex,npv,capex", ["capex", "capex_servers", "npv"]) == ["capex", "npv"]


def test_csv_carries_a_units_row_under_the_header():
    rows = list(csv.reader(io.StringIO(run("summary", str(HAND), "-f", "csv"))))
    header, units = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert rows[1][0] == "unit" and header[0] == "tier"
    assert units["npv"] == "CNY" and units["cost_per_gpu_hour"] == "CNY/GPU-h"
    assert units["irr"] == "fraction" and units["network_share"] == "fraction"
    assert units["gpus"] == "GPUs" and units["payback_years"] == "years"
    bare = list(csv.reader(io.StringIO(run("summary", str(HAND), "-f", "csv", "--no-units"))))
    assert bare[0] == header and bare[1][0] == "small"


def test_json_units_beside_the_tiers_only_when_asked():
    bare = json.loads(run("summary", str(HAND), "-f", "json"))
    assert list(bare) == ["small"]  # the promised {tier: {metric: value}}
    with_units = json.loads(run("summary", str(HAND), "-f", "json", "--units"))
    assert list(with_units) == ["units", "small"]
    assert with_units["small"] == bare["small"]
    assert with_units["units"]["npv"] == "CNY" and with_units["units"]["irr"] == "fraction"
    assert set(with_units["units"]) == set(bare["small"])


def test_counts_are_integers_in_csv_and_json():
    data = json.loads(run("summary", "-m", "gpus,network_levels,servers", "-f", "json"))
    assert data["hundreds"]["network_levels"] == 2
    assert type(data["hundreds"]["network_levels"]) is int
    text = run("summary", "-m", "network_levels", "-f", "csv")
    assert "hundreds,2\n" in text and "2.0" not in text
    rows = list(csv.DictReader(io.StringIO(run("compare", str(HAND), "-s", "a=", "-f", "csv"))))
    gpus = [r["value"] for r in rows if r["metric"] == "gpus"]
    assert gpus == ["16", "16"]  # the hand case's 2 servers x 8 GPUs, whole
    npv = [float(r["value"]) for r in rows if r["metric"] == "npv"]
    assert npv == [pytest.approx(HAND_NPV)] * 2


def test_compare_delta_is_each_scenario_minus_the_first():
    args = ["compare", str(HAND), "-s", "notax=", "--set-for", "notax:finance.tax_rate=0"]
    doc = json.loads(run(*args, "--delta", "-f", "json"))
    assert doc["delta_against"] == "base"
    assert doc["results"]["notax"]["small"]["npv"] == pytest.approx(HAND_NPV + HAND_TAX)
    assert doc["delta"]["notax"]["small"]["npv"] == pytest.approx(HAND_TAX)  # tax added back
    assert "base" not in doc["delta"]
    table = run(*args, "--delta")
    assert "+955,778" in table and "differences against base" in table
    assert "notax: finance.tax_rate=0" in table
    rows = list(csv.DictReader(io.StringIO(run(*args, "--delta", "-f", "csv"))))
    npv = {r["scenario"]: r for r in rows if r["metric"] == "npv"}
    assert npv["base"]["delta"] == "" and float(npv["notax"]["delta"]) == pytest.approx(HAND_TAX)


def test_set_for_changes_only_its_scenario():
    args = ["compare", str(HAND), "-s", "a=", "-s", "b=", "--set-for", "b:finance.tax_rate=0"]
    doc = json.loads(run(*args, "-f", "json"))
    assert doc["results"]["a"]["small"]["npv"] == pytest.approx(HAND_NPV)
    assert doc["results"]["b"]["small"]["npv"] == pytest.approx(HAND_NPV + HAND_TAX)


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["-s", "hot=", "--set-for", "hto:power.price_per_kwh=0.8"], "no scenario named 'hto'"),
        (["-s", "hot=", "--set-for", "hot=power.price_per_kwh"], "expected NAME:dotted.path"),
    ],
)
def test_set_for_errors_name_the_rule(given, said):
    res = runner.invoke(app, ["compare", str(HAND), *given])
    assert res.exit_code == 2 and said in " ".join(res.stderr.split())


def test_delta_cells_are_signed_and_in_points():
    assert delta_value(0.0123, "pct") == "+1.2 pp"
    assert delta_value(-1234.4, "money") == "-1,234"
    assert delta_value(-0.0001, "money") == "0"  # no "-0"
    assert delta_value(0.0, "pct") == "0"


def test_no_negative_zero_and_plural_agreement():
    assert millions(-40_000.0) == "0.0"  # rounds to zero: no sign
    assert millions(-60_000.0) == "-0.1"
    assert number(-0.00001, 2) == "-1e-05"  # a small number is not a zero
    assert unsigned_zero("-0.00") == "0.00" and unsigned_zero("-0.01") == "-0.01"
    assert counted(1, "input") == "1 input" and counted(2, "input") == "2 inputs"
    assert counted(0, "tier") == "0 tiers"


def test_sweep_change_in_words():
    text = run("sweep", "--tier", "hundreds", "--gpus", "504,512,2048,2056", columns=300)
    assert "scale class hundreds -> thousands" in text
    assert "network 2 -> 3 levels" in text
    assert "scale_class" not in text.split("change:")[0]  # field names only in the note


def test_tornado_title_carries_the_base_npv_and_break_even_no_npv_column():
    data = json.loads(run("summary", "-m", "npv", "-f", "json"))
    text = run("sensitivity", "-q")
    for tier, row in data.items():
        base = f"{row['npv'] / 1e6:,.1f}"
        assert f"Tornado of NPV, tier {tier}, CNY millions: {base} as assumed" in text
    assert "NPV there" not in text and "gap" in text


def test_grid_prints_no_negative_zero():
    assert "-0.0" not in run("sensitivity", "--grid", "-q")


def test_build_in_chinese_prints_the_chinese_table(tmp_path):
    text = run("build", str(HAND), "-o", str(tmp_path / "out"), "--lang", "zh", "-n", "0", "-q")
    assert "净现值 NPV" in text and "初始投资" in text and "指标" in text
    assert "Capex" not in text and "metric" not in text
    assert (tmp_path / "out" / "memo.zh.html").is_file()
