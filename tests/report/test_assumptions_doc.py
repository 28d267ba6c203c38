"""``docs/assumptions.md`` is generated from the assumptions and the model, and current."""

from __future__ import annotations

import pytest
import yaml

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report import assumptions_doc as doc
from tests.paths import ROOT

PAGE = ROOT / "docs" / "assumptions.md"


@pytest.fixture(scope="module")
def default():
    return cm.load_assumptions()


@pytest.fixture(scope="module")
def page(default):
    return doc.render(default)


def test_committed_page_is_the_generated_one(page):
    committed = PAGE.read_text(encoding="utf-8")
    assert committed == page, f"docs/assumptions.md is stale: run `{doc.COMMAND}` and commit it"


def test_every_number_of_the_default_files_has_a_row(page):
    for file in sorted(default_assumptions_dir().glob("*.yaml")):
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
        for row in doc.leaves(raw):
            if row["path"] != "schema_version":
                assert f"| {row['path']} | {doc.number(row['value'])} |" in page, row["path"]


def test_the_results_are_the_models(default, page):
    rows = cm.build(default).summary_rows()
    for tier, row in rows.items():
        assert f"{row['npv']:,.0f}" in page, tier
        assert f"{row['capex']:,.0f}" in page, tier
    # the figure the hand-written page had stale (tens NPV -5.01M)
    assert "| NPV | " + " | ".join(f"{rows[t]['npv']:,.0f}" for t in rows) + " |" in page


def test_the_scenario_npvs_are_those_of_each_overlay_loaded_alone(page):
    for file in sorted(scenarios_dir().glob("*.yaml")):
        rows = cm.build(cm.load_assumptions("default", file)).summary_rows()
        line = next(x for x in page.splitlines() if x.startswith(f"| `{file.name}` |"))
        assert line.endswith(" | ".join(f"{rows[t]['npv'] / 1e6:,.2f}M" for t in rows) + " |")


def test_an_input_change_changes_the_page(default, page):
    cheap = cm.with_overrides(default, {"power.price_per_kwh": 0.5})
    changed = doc.render(cheap)
    assert changed != page
    npv = cm.build(cheap).summary_rows()["tens"]["npv"]
    assert f"{npv:,.0f}" in changed and f"{npv:,.0f}" not in page
    assert "| power.price_per_kwh | 0.5 | " in changed
    assert "| power.price_per_kwh | 0.71 | " in page


def test_the_command_prints_the_page(capsys, page):
    assert doc.main([]) == 0
    assert capsys.readouterr().out == page
    assert doc.main(["extra"]) == 2
