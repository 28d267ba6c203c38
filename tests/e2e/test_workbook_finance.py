"""The finance blocks of methodology §11.10-§11.13 are live in the workbook.

A case on the bundled default with a loan and ``finance.discount_rate: wacc``:
LibreOffice and Gnumeric recalculate it to the engine's cached values and the
master check reads OK; edits of the WACC inputs on the Inputs sheet, recalculated
by LibreOffice, give the Comparison sheet of the engine rebuilt with the same
change.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from tests.e2e.test_workbook_contracts import master_check
from tests.e2e.test_workbook_recalc import assert_comparison_equals
from tests.support.libreoffice import recalculate_many
from tests.support.workbooks import assert_recalculation_equals_cache, set_name

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
WACC = {
    "finance.discount_rate": "wacc",
    "financing": {
        "debt_share": 0.5,
        "interest_rate": 0.045,
        "term_years": 6,
        "cost_of_equity": 0.13,
    },
}


def wacc(overrides: dict | None = None) -> cm.Assumptions:
    return cm.load_assumptions(overrides={**WACC, **(overrides or {})})


VAT = {
    "output_rate": 0.06,
    "input_rates": {"servers": 0.13, "network": 0.13, "storage": 0.13, "facility": 0.09,
                    "electricity": 0.13, "maintenance": 0.13, "software": 0.06},
    "surtax_rate": 0.12,
}  # fmt: skip


def monthly_vat(overrides: dict | None = None) -> cm.Assumptions:
    """The default with VAT refunded each month, 95% of the credit qualifying."""
    vat = {"vat": {**VAT, "refund": "monthly", "refund_ratio": 0.95}}
    return cm.load_assumptions(overrides={**vat, **(overrides or {})})


CASES = {"default-wacc": wacc, "default-monthly-vat": monthly_vat}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("finance")
    out = {}
    for name, make in CASES.items():
        model = cm.build(make())
        out[name] = (model, cm.write_workbook(model, d / f"{name}.xlsx", created=FIXED))
    return out


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, case, engine):
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(workbooks[case][1], recalculated, 5000, f"{engine} {case}")


@pytest.mark.parametrize("case", list(CASES))
def test_comparison_and_master_check(by_libreoffice, workbooks, case):
    model, _ = workbooks[case]
    assert_comparison_equals(by_libreoffice[case], model.summary())
    assert master_check(by_libreoffice[case]) == "OK"


#: (case, edits by defined name, the same change as overrides)
LIVE_EDITS = {
    "loan rate 7%, cost of equity 10%": (
        "default-wacc",
        {"financing_interest_rate": 0.07, "financing_cost_of_equity": 0.10},
        {"financing.interest_rate": 0.07, "financing.cost_of_equity": 0.10},
    ),
    "refund ratio 0.8": (
        "default-monthly-vat",
        {"vat_refund_ratio": 0.8},
        {"vat.refund_ratio": 0.8},
    ),
    "refunds annual": (
        "default-monthly-vat",
        {"vat_refund": "annual"},
        {"vat.refund": "annual"},
    ),
}


@pytest.fixture(scope="module")
def edited(soffice, workbooks, tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("live")
    paths, expected = [], {}
    for i, (name, (case, edits, overrides)) in enumerate(LIVE_EDITS.items()):
        wb = openpyxl.load_workbook(workbooks[case][1])
        for where, value in edits.items():
            set_name(wb, where, value)
        paths.append(d / f"edit{i}.xlsx")
        wb.save(paths[-1])
        expected[name] = cm.build(CASES[case](overrides))
    outs = recalculate_many(paths, d / "out")
    return {name: (expected[name], out) for name, out in zip(LIVE_EDITS, outs, strict=True)}


@pytest.mark.parametrize("name", list(LIVE_EDITS))
def test_live_edit_equals_engine_rebuilt(edited, workbooks, name):
    expected, out = edited[name]
    assert_comparison_equals(out, expected.summary())
    assert master_check(out) == "OK"
    before = workbooks[LIVE_EDITS[name][0]][0].summary()
    assert (before["npv"] != expected.summary()["npv"]).all()  # the edit is no no-op
