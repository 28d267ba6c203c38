"""The residual value from income and the servers' supply lead time in the workbook
(methodology §30.2, §30.3): the default with ``terminal_value: income`` (economic
life 8 years), the H200 delivered 9 months after its order and the hundreds tier
staged, recalculated by LibreOffice and Gnumeric to the engine; then the H200's lead
time is edited in the server catalogue and LibreOffice follows the engine."""

from __future__ import annotations

from datetime import datetime

import openpyxl
import pytest

import costmodel as cm
from tests.e2e.test_workbook_recalc import assert_comparison_equals
from tests.support.workbooks import assert_recalculation_equals_cache, set_name, written

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
CASE = {
    "terminal_value": "income",
    "depreciation.servers.economic_life_years": 8,
    "servers.h200.lead_months": 9,
    "tiers.hundreds.stages": [{"month": 30, "gpus": 64}],
}


def assumptions(**more) -> cm.Assumptions:
    return cm.load_assumptions("default", overrides=CASE | more)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory):
    return written(tmp_path_factory.mktemp("income"), {"income": assumptions()})


def test_each_deployments_residual_is_on_its_sheet_beside_its_formula(workbooks):
    """The schedule of Model.residual, row by row, as the cached values of its
    formulas: R, margin, annuity, value of each deployment of the staged tier."""
    model, path = workbooks["income"]
    table = model.residual("hundreds")
    assert len(table) == 2 and (table["value"] > 0).all()
    wb = openpyxl.load_workbook(path)
    cached = openpyxl.load_workbook(path, data_only=True)
    labels = {r[0].value: r[0].row for r in wb["hundreds"].iter_rows() if r[0].value}
    for i, row in table.iterrows():
        for what, col in (("months of life left", "remaining_months"), ("annuity", "annuity")):
            label = next(k for k in labels if k.startswith(f"deployment {i}: {what}"))
            formula = wb["hundreds"].cell(labels[label], 3).value
            assert formula.startswith("=")
            got = cached["hundreds"].cell(labels[label], 3).value
            assert got == pytest.approx(row[col], rel=1e-12)


@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_the_income_workbook_recalculates_to_the_engine(request, workbooks, engine):
    model, path = workbooks["income"]
    recalculated = request.getfixturevalue(f"by_{engine}")["income"]
    assert_recalculation_equals_cache(path, recalculated, 20000, f"{engine} income")
    assert_comparison_equals(recalculated, model.summary())


@pytest.mark.parametrize("lead", [3, 15])
def test_an_edit_of_the_servers_lead_time_follows_the_engine(soffice, recalc, tmp_path, lead):
    """Shorter than the construction (3) and longer (15), on the case without the
    stage: a staged tier's margins in month M are the engine's figures (contract
    windows start at each deployment's month), which an edit does not move."""
    unstaged = {"tiers.hundreds.stages": []}
    path = cm.write_workbook(cm.build(assumptions(**unstaged)), tmp_path / "u.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    set_name(wb, "input.servers.h200.lead_months", lead)
    changed = tmp_path / "changed.xlsx"
    wb.save(changed)
    (out,) = recalc.libreoffice([changed])
    expected = cm.build(assumptions(**unstaged, **{"servers.h200.lead_months": lead})).summary()
    assert_comparison_equals(out, expected)
