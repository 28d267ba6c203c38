"""The money rows (methodology §8.2-8.3: debt, levered tax, expiring losses, equity) are live.

Financed cases (and two staged, financed ones) are recalculated by LibreOffice and by Gnumeric: every formula
cell equals the engine's cached value (relative 1e-9) and no cell is an error. Then
the financing inputs and the loss carry-forward period are edited in the Inputs
sheet, LibreOffice recalculates, and the results equal the engine rebuilt with the
same change (an independent route: the Python engine, not the spreadsheet).
"""

from __future__ import annotations

import math
from datetime import datetime
from pathlib import Path

import numpy as np
import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.paths import HAND
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    live_edits,
    master_check,
    read,
    set_name,
    written,
)

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
BANK = scenarios_dir() / "bank-loan.yaml"
#: the default at a GPU-hour price at which the tiers pay tax
PROFITABLE = {"revenue.price_per_gpu_hour": 40.0}
#: the hand case over five years: a loss in year 1 (double-declining servers) that
#: expires after one year, profits after; a loan at 70% for three years
HAND_FINANCED = """\
schema_version: 2
horizon_years: 5
finance: {discount_rate: 0.08, loss_carryforward_years: 1}
revenue: {price_per_gpu_hour: 35, price_decline: 0.05}
depreciation:
  servers: {method: double_declining, life_years: 3, salvage: 0.1}
financing: {debt_share: 0.7, interest_rate: 0.09, term_years: 3, cost_of_equity: 0.14,
            min_dscr_covenant: 1.3}
"""


def hand_financed(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    f = tmp / "hand-financed.yaml"
    f.write_text(HAND_FINANCED, encoding="utf-8")
    return cm.load_assumptions(HAND, f, overrides=overrides or {})


def bank_loan(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    return cm.load_assumptions(default_assumptions_dir(), BANK, overrides=overrides or {})


#: the default's rate written as a number (the default derives it from the financing,
#: wacc, which needs a cost of equity): with a given rate a blank cost of equity is
#: that rate (methodology §8.2), the case the live edit below clears
DISCOUNT = cm.load_assumptions().financing.cost_of_equity.value

CASES = {
    "bank-loan": bank_loan,
    "bank-loan-profitable": lambda tmp, o=None: bank_loan(
        tmp, {**PROFITABLE, "finance.discount_rate": DISCOUNT, **(o or {})}
    ),
    "hand-financed": hand_financed,
}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("money")
    return written(d, {name: make(d) for name, make in CASES.items()})


def test_cases_use_debt_and_expiring_losses(workbooks):
    bank, _ = workbooks["bank-loan"]
    assert (bank.summary()["debt_peak"] > 0).all()
    hand, _ = workbooks["hand-financed"]
    annual = hand.annual("small")
    assert annual["loss_expired"].sum() > 0  # a loss older than one year expired
    assert annual["interest"].sum() > 0
    assert hand.summary().loc["small", "min_dscr"] > 0


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


def tier_total(path: Path, sheet: str, label: str) -> float:
    """The total column (D) of the row labelled ``label`` on a tier sheet."""
    ws = read(path, data_only=True)[sheet]
    row = next(r for r in ws.iter_rows() if r[0].value == label)
    return float(row[3].value)


#: (case, edits by defined name, the same change as assumption overrides)
LIVE_EDITS = {
    "debt share, rate and term (balloon at M)": (
        "bank-loan-profitable",
        {"financing_debt_share": 0.45, "financing_interest_rate": 0.07, "financing_term_years": 8},
        {"financing.debt_share": 0.45, "financing.interest_rate": 0.07, "financing.term_years": 8},
    ),
    "loss carry-forward 2 years, no cost of equity": (
        "bank-loan-profitable",
        {"finance_loss_carryforward_years": 2, "financing_cost_of_equity": None},
        # a blank cost of equity is the discount rate (methodology §8.2)
        {"finance.loss_carryforward_years": 2, "financing.cost_of_equity": DISCOUNT},
    ),
    "losses unlimited": (
        "hand-financed",
        {"finance_loss_carryforward_years": None},
        {"finance.loss_carryforward_years": None},
    ),
    "no carry-forward, debt share 0.4, term 2": (
        "hand-financed",
        {
            "finance_loss_carryforward_years": 0,
            "financing_debt_share": 0.4,
            "financing_term_years": 2,
        },
        {
            "finance.loss_carryforward_years": 0,
            "financing.debt_share": 0.4,
            "financing.term_years": 2,
        },
    ),
    "no debt": (
        "hand-financed",
        {"financing_debt_share": 0},
        {"financing.debt_share": 0},
    ),
}


@pytest.fixture(scope="module")
def edited(soffice, recalc, workbooks, tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("live")
    return live_edits(d, workbooks, LIVE_EDITS, lambda c, o: CASES[c](d, o), recalc.libreoffice)


@pytest.mark.parametrize("edit", list(LIVE_EDITS))
def test_live_edit_equals_engine_rebuilt(edited, edit):
    expected, out = edited[edit]
    summary = expected.summary()
    assert_comparison_equals(out, summary)
    for tier in expected.tiers:
        tax = float(expected.cash_flow(tier)["tax"].sum())
        levered = float(expected.cash_flow(tier)["tax_levered"].sum())
        assert tier_total(out, tier, "tax = tax rate x taxable profit") == pytest.approx(
            tax, rel=1e-9, abs=1e-6
        )
        assert tier_total(out, tier, "levered tax = tax rate x taxable profit") == pytest.approx(
            levered, rel=1e-9, abs=1e-6
        )
    assert master_check(out) == "OK"


def test_live_edits_change_the_results(workbooks, edited):
    """The edits are not no-ops: each moves equity NPV (or tax) away from the build."""
    for name, (case, _, _) in LIVE_EDITS.items():
        before = workbooks[case][0].summary()
        after = edited[name][0].summary()
        moved = ~np.isclose(before["equity_npv"], after["equity_npv"], rtol=1e-9)
        assert moved.any(), name
        assert not math.isnan(after["npv"].iloc[0])


# ----------------------------------------------------------------------------- staged and financed
STAGED = scenarios_dir() / "staged-growth.yaml"
#: time and money together: the default with the staged-growth and bank-loan overlays
#: (a loan per capex month of the stages), once as is and once at a price that pays tax
STAGED_FINANCED = {
    "staged-financed": {},
    "staged-financed-profitable": PROFITABLE,
}


def staged_financed(overrides: dict | None = None) -> cm.Assumptions:
    return cm.load_assumptions(default_assumptions_dir(), STAGED, BANK, overrides=overrides or {})


@pytest.fixture(scope="module")
def staged_books(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("staged-money")
    out = {}
    for name, overrides in STAGED_FINANCED.items():
        model = cm.build(staged_financed(overrides))
        out[name] = (model, cm.write_workbook(model, d / f"{name}.xlsx", created=FIXED))
    return out


@pytest.fixture(scope="module")
def staged_by_libreoffice(soffice, recalc, staged_books) -> dict[str, Path]:
    outs = recalc.libreoffice(p for _, p in staged_books.values())
    return dict(zip(staged_books, outs, strict=True))


@pytest.fixture(scope="module")
def staged_by_gnumeric(ssconvert, recalc, staged_books) -> dict[str, Path]:
    outs = recalc.gnumeric(p for _, p in staged_books.values())
    return dict(zip(staged_books, outs, strict=True))


def test_staged_financed_cases_borrow_per_stage(staged_books):
    """The cases are what they claim: a later stage's capex month draws a loan of its own."""
    for model, _ in staged_books.values():
        assert len(model.results["hundreds"].deployments) > 1
        draws = model.annual("hundreds")["debt_draw"]
        assert (draws > 0).sum() >= 2  # the first build and a later stage
        assert (model.summary()["debt_peak"] > 0).all()


@pytest.mark.parametrize("case", list(STAGED_FINANCED))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_staged_financed_recalculates_to_the_engine(request, staged_books, case, engine):
    recalculated = request.getfixturevalue(f"staged_by_{engine}")[case]
    assert_recalculation_equals_cache(
        staged_books[case][1], recalculated, 20000, f"{engine} {case}"
    )


@pytest.mark.parametrize("case", list(STAGED_FINANCED))
def test_staged_financed_comparison_and_master_check(staged_by_libreoffice, staged_books, case):
    model, _ = staged_books[case]
    assert_comparison_equals(staged_by_libreoffice[case], model.summary())
    assert master_check(staged_by_libreoffice[case]) == "OK"


def test_staged_financed_live_edit_equals_engine_rebuilt(soffice, recalc, staged_books, tmp_path):
    """Construction time and debt share edited together: the capex months, the loans
    drawn at them, interest, levered tax and equity follow (LibreOffice against the
    engine rebuilt with the same change)."""
    case = "staged-financed-profitable"
    wb = openpyxl.load_workbook(staged_books[case][1])
    set_name(wb, "timeline_build_months", 9)
    set_name(wb, "financing_debt_share", 0.35)
    wb.save(tmp_path / "edit.xlsx")
    (out,) = recalc.libreoffice([tmp_path / "edit.xlsx"])
    expected = cm.build(
        staged_financed({**PROFITABLE, "timeline.build_months": 9, "financing.debt_share": 0.35})
    )
    before = staged_books[case][0].summary()
    after = expected.summary()
    assert not np.allclose(before["equity_npv"], after["equity_npv"], rtol=1e-9)
    assert_comparison_equals(out, after)
    for tier in expected.tiers:
        levered = float(expected.cash_flow(tier)["tax_levered"].sum())
        assert tier_total(out, tier, "levered tax = tax rate x taxable profit") == pytest.approx(
            levered, rel=1e-9, abs=1e-6
        )
    assert master_check(out) == "OK"
