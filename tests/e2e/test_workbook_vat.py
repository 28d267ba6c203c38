"""The VAT block (methodology §24) is live: LibreOffice and Gnumeric recalculate VAT
workbooks to the engine's cached values; an edit of the output VAT rate in Inputs
recalculates to the engine rebuilt with that rate; the VAT checks fail under
injected faults."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report.workbook.grid import FIRST_COL
from tests.paths import HAND
from tests.support.libreoffice import recalculate_many
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    live_edits,
    set_name,
    written,
)

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
VAT = """\
vat:
  output_rate: 0.06
  input_rates: {servers: 0.13, network: 0.13, storage: 0.13, facility: 0.09,
                electricity: 0.13, colocation: 0.06, maintenance: 0.13, software: 0.06,
                insurance: 0.06}
  surtax_rate: 0.12
  refund_credit: true
  refund: annual  # the yearly refund these cases check (the default refunds monthly)
"""
#: the hand case over three years, financed, at a price that pays tax, without refunds
HAND_VAT = """\
schema_version: 2
horizon_years: 3
revenue: {price_per_gpu_hour: 60}
financing: {debt_share: 0.5, interest_rate: 0.06, term_years: 2}
vat:
  output_rate: 0.13
  input_rates: {servers: 0.13, facility: 0.09, electricity: 0.13}
  surtax_rate: 0.12
  refund_credit: false
"""


def default_vat(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    f = tmp / "vat.yaml"
    f.write_text(VAT, encoding="utf-8")
    return cm.load_assumptions(default_assumptions_dir(), f, overrides=overrides or {})


def bank_vat(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    f = tmp / "vat.yaml"
    f.write_text(VAT, encoding="utf-8")
    bank = scenarios_dir() / "bank-loan.yaml"
    over = {"revenue.price_per_gpu_hour": 40.0, **(overrides or {})}
    return cm.load_assumptions(default_assumptions_dir(), bank, f, overrides=over)


def hand_vat(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    f = tmp / "hand-vat.yaml"
    f.write_text(HAND_VAT, encoding="utf-8")
    return cm.load_assumptions(HAND, f, overrides=overrides or {})


CASES = {"default-vat": default_vat, "bank-vat-profitable": bank_vat, "hand-vat": hand_vat}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("vat")
    return written(d, {name: make(d) for name, make in CASES.items()})


def test_cases_have_vat_paid_credit_and_surtax(workbooks):
    for name, (model, _) in workbooks.items():
        s = model.summary()
        assert (s["vat_credit_peak"] > 0).all(), name
        assert (s["surtax"] > 0).any(), name
    hand, _ = workbooks["hand-vat"]
    assert hand.vat("small").credit.iloc[-1] >= 0
    assert hand.summary().loc["small", "debt_peak"] > 0


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, case, engine):
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(workbooks[case][1], recalculated, 5000, f"{engine} {case}")


def master(path: Path) -> tuple[object, set[str]]:
    wb = openpyxl.load_workbook(path, data_only=True)
    cover = next(r for r in wb["Cover"].iter_rows() if r[0].value == "Master check")
    failing = {r[0].value for r in wb["Checks"].iter_rows() if r[6].value == "ERROR"}
    return cover[1].value, failing


@pytest.mark.parametrize("case", list(CASES))
def test_comparison_and_master_check(by_libreoffice, workbooks, case):
    model, _ = workbooks[case]
    assert_comparison_equals(by_libreoffice[case], model.summary())
    assert master(by_libreoffice[case]) == ("OK", set())


def row_of(ws, label: str) -> int:
    return next(r[0].row for r in ws.iter_rows(min_col=1, max_col=1) if r[0].value == label)


def zero_over(sheet: str, label: str, month: int):
    def fault(wb) -> None:
        wb[sheet].cell(row_of(wb[sheet], label), FIRST_COL + 1 + month).value = 0

    return fault


def drop_vat_from_fcf(wb) -> None:
    ws = wb["tens"]
    r = row_of(
        ws, "FCF = revenue - opex - tax - capex + terminal + VAT cash (the tax at M taxes its gain)"
    )
    for c in range(FIRST_COL + 1, ws.max_column + 1):
        cell = ws.cell(r, c)
        if isinstance(cell.value, str) and cell.value.startswith("="):
            cell.value = cell.value.rsplit("+", 1)[0]


def first_payable_month(model: cm.Model, tier: str) -> int:
    return int(model.vat(tier).payable.to_numpy().nonzero()[0][0])


#: fault -> (case, edit, a check label that must fail; None for input rules)
FAULTS = {
    "hard-coded 0 over the VAT payable": (
        "hand-vat",
        lambda wb, m: zero_over(
            "small",
            "VAT payable = max(0, output - input - (opening credit - claim))",
            first_payable_month(m, "small"),
        )(wb),
        "VAT credit: open + input - output + payable - refund = closing, every month",
    ),  # fmt: skip
    "hard-coded 0 over the month-12 refund": (
        "default-vat",
        lambda wb, m: zero_over(
            "thousands",
            "refund = claim + ratio x credit at a year end (annual) or at M (monthly)",
            12,
        )(wb),
        "with annual refunds of the whole credit, none is left at a year end",
    ),  # fmt: skip
    "hard-coded 0 over the VAT cash of month 13": (
        "hand-vat",
        lambda wb, m: zero_over(
            "small", "VAT cash = output - input - payable + refund - surtax", 13
        )(wb),
        "VAT cash over the horizon + surtax = -credit left at M",
    ),  # fmt: skip
    "input VAT of servers zeroed at its month": (
        "default-vat",
        lambda wb, m: zero_over(
            "hundreds",
            "input VAT: servers = rate x servers",
            int(m.capex("hundreds").servers.to_numpy().nonzero()[0][0]),
        )(wb),
        "input VAT = rate x base: servers, network, storage",
    ),  # fmt: skip
    "VAT cash left out of the FCF": (
        "default-vat",
        lambda wb, m: drop_vat_from_fcf(wb),
        "FCF - VAT cash = revenue - opex - tax - capex + terminal",
    ),
    "output VAT rate typed as 13": (
        "default-vat",
        lambda wb, m: set_name(wb, "vat_output_rate", 13),
        None,
    ),
    "refund switch 2": ("hand-vat", lambda wb, m: set_name(wb, "vat_refund_credit", 2), None),
}


@pytest.fixture(scope="module")
def faulted(soffice, workbooks, tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("vat-faults")
    paths = []
    for i, (case, edit, _) in enumerate(FAULTS.values()):
        model, path = workbooks[case]
        wb = openpyxl.load_workbook(path)
        edit(wb, model)
        paths.append(d / f"fault{i}.xlsx")
        wb.save(paths[-1])
    return dict(zip(FAULTS, recalculate_many(paths, d / "out"), strict=True))


@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_turns_master_check_to_error(faulted, fault):
    status, failing = master(faulted[fault])
    assert status == "ERROR", (fault, failing)
    expected = FAULTS[fault][2]
    if expected is not None:
        assert expected in failing, (fault, failing)


#: (case, edits by defined name, the same change as assumption overrides)
LIVE_EDITS = {
    "output rate 13% (bare-metal leasing)": (
        "default-vat",
        {"vat_output_rate": 0.13},
        {"vat.output_rate": 0.13},
    ),
    "output rate 9%, refunds on": (
        "hand-vat",
        {"vat_output_rate": 0.09, "vat_refund_credit": 1},
        {"vat.output_rate": 0.09, "vat.refund_credit": True},
    ),
    "financed, output rate 0": (
        "bank-vat-profitable",
        {"vat_output_rate": 0.0},
        {"vat.output_rate": 0.0},
    ),
}


@pytest.fixture(scope="module")
def edited(soffice, recalc, workbooks, tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("vat-live")
    return live_edits(d, workbooks, LIVE_EDITS, lambda c, o: CASES[c](d, o), recalc.libreoffice)


@pytest.mark.parametrize("edit", list(LIVE_EDITS))
def test_live_edit_of_the_vat_rate_equals_engine_rebuilt(edited, workbooks, edit):
    expected, out = edited[edit]
    assert_comparison_equals(out, expected.summary())
    before = workbooks[LIVE_EDITS[edit][0]][0].summary()
    assert (before["vat_paid"] != expected.summary()["vat_paid"]).any()  # not a no-op
    assert master(out) == ("OK", set())


def test_a_workbook_without_vat_takes_a_typed_rate(soffice, tmp_path):
    """A model with no vat section (the default with ``vat: null``): its Inputs carry 0
    rates, and a typed output rate recalculates to the engine with that ``vat`` section."""
    from costmodel.inputs.resources import default_assumptions_dir

    no_vat = tmp_path / "no-vat.yaml"
    no_vat.write_text("vat: null\n", encoding="utf-8")
    plain = cm.load_assumptions(default_assumptions_dir(), no_vat)
    assert plain.vat is None
    path = cm.write_workbook(cm.build(plain), tmp_path / "d.xlsx", created=FIXED)
    wb = openpyxl.load_workbook(path)
    set_name(wb, "vat_output_rate", 0.06)
    set_name(wb, "vat_surtax_rate", 0.12)
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    (out,) = recalculate_many([edited], tmp_path / "out")
    typed = tmp_path / "typed.yaml"
    typed.write_text("vat: {output_rate: 0.06, surtax_rate: 0.12}\n", encoding="utf-8")
    want = cm.build(cm.load_assumptions(default_assumptions_dir(), no_vat, typed))
    assert_comparison_equals(out, want.summary())
    assert master(out) == ("OK", set())
