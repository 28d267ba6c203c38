"""Bundled scenarios by name from anywhere (``scenario:NAME``, ``costmodel
scenarios``), the model's title composed from its inputs, and one meaning of
``schema_version`` (methodology §2.7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.inputs.errors import AssumptionWarning
from costmodel.inputs.resources import assumptions_dir, scenario_names, scenarios_dir
from costmodel.inputs.schema import SCHEMA_VERSION
from costmodel.inputs.title import model_title
from tests.paths import ROOT

runner = CliRunner()


def costmodel_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m costmodel ARGS`` run in ``folder`` (no checkout there)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "costmodel", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


# ----------------------------------------------------------------------------- scenario:NAME


def test_scenario_greenfield_from_an_empty_folder_is_the_bundled_overlay(tmp_path):
    r = costmodel_in(tmp_path, "compare", "-f", "json", "-s", "greenfield=scenario:greenfield")
    assert r.returncode == 0, r.stderr
    by_file = cm.compare(cm.load_assumptions(), {"g": scenarios_dir() / "greenfield.yaml"})
    npv = {t: m["npv"] for t, m in json.loads(r.stdout)["results"]["greenfield"].items()}
    assert set(npv) == {"tens", "hundreds", "thousands"}
    for t, v in npv.items():
        assert v == pytest.approx(by_file.wide.loc[("g", t), "npv"], rel=1e-11)


def test_scenario_name_loads_like_its_file_in_python():
    a = cm.load_assumptions("default", "scenario:bank-loan")
    b = cm.load_assumptions("default", scenarios_dir() / "bank-loan.yaml")
    assert cm.fingerprint(a) == cm.fingerprint(b)
    assert a.financing.debt_share.value == 0.6


def test_a_misspelt_scenario_name_says_did_you_mean():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions("default", "scenario:greenfeld")
    assert "no bundled scenario 'greenfeld'; did you mean 'greenfield'?" in str(e.value)


def test_costmodel_scenarios_lists_every_bundled_overlay_one_line_each_from_its_header():
    r = runner.invoke(get_app(), ["scenarios"])
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert [ln.split()[0] for ln in lines] == [f"scenario:{n}" for n in scenario_names()]
    assert sorted(scenario_names()) == sorted(p.stem for p in scenarios_dir().glob("*.yaml"))
    green = next(ln for ln in lines if ln.startswith("scenario:greenfield "))
    head = (scenarios_dir() / "greenfield.yaml").read_text(encoding="utf-8").splitlines()[0]
    # the first line of the file's header, after "greenfield.yaml --"
    assert head.split(" -- ", 1)[1].split(":")[0] in green
    assert all(len(ln.split(None, 1)[1]) <= 110 for ln in lines)


def test_the_readme_names_bundled_overlays_by_scenario_name_truly():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (
        "assumptions/scenarios/greenfield.yaml"
        not in text.split("```python")[0].split("## Quick start: command line")[1]
    )
    assert "colo=" not in text  # the greenfield overlay is not called colo
    assert "compare -s greenfield=scenario:greenfield" in text


# ----------------------------------------------------------------------------- title


def test_the_title_follows_start_and_the_name_carries_no_year():
    a = cm.load_assumptions(overrides={"start": "2028-01"})
    assert "2027" not in a.name and "2028" not in a.name
    # the default names its site between the name and the start (methodology §29)
    assert model_title(a) == f"{a.name}, {a.sites['east-t1'].label}, from 2028-01"


def test_summary_with_a_later_start_prints_no_2027(tmp_path):
    r = costmodel_in(tmp_path, "summary", "--set", "start=2028-01")
    assert r.returncode == 0, r.stderr
    assert "2027" not in r.stdout
    assert "2028-01" in r.stdout.splitlines()[0]


def test_a_name_naming_another_year_than_start_draws_advice():
    with pytest.warns(AssumptionWarning, match="names the year 2027 but start is 2028-01"):
        cm.load_assumptions(overrides={"name": "Scale options (2027 start)", "start": "2028-01"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", AssumptionWarning)
        cm.load_assumptions(overrides={"name": "Scale options (2028 start)", "start": "2028-01"})


def test_the_memo_and_the_cover_show_the_composed_title(tmp_path):
    from costmodel.report.memo.render import model_name

    model = cm.build(cm.load_assumptions(overrides={"start": "2029-07"}))
    assert model_name(model, "en").endswith(", from 2029-07")
    assert "2029" in model_name(model, "zh")


# ----------------------------------------------------------------------------- schema_version


def test_every_bundled_file_that_states_a_schema_version_states_the_current_one():
    stated = {}
    for f in sorted(assumptions_dir().rglob("*.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
        if "schema_version" in doc:
            stated[f.relative_to(assumptions_dir()).as_posix()] = doc["schema_version"]
    assert "default/00-model.yaml" in stated
    assert set(stated.values()) == {SCHEMA_VERSION}, stated


def test_a_file_written_for_a_newer_specification_is_refused_and_an_older_one_read(tmp_path):
    newer = tmp_path / "v9.yaml"
    newer.write_text("schema_version: 9\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError, match="schema_version = 9"):
        cm.load_assumptions("default", newer)
    older = tmp_path / "v1.yaml"
    older.write_text("schema_version: 1\n", encoding="utf-8")
    a, b = cm.load_assumptions("default", older), cm.load_assumptions()
    # a statement about the file, not a switch: the numbers are the same
    assert cm.build(a).summary().equals(cm.build(b).summary())
