"""The v3 finance and tax together (methodology §11), live in the workbook.

Two cases, each on the bundled default (whose terminal value is market):

- ``tax``: PRC VAT with refunds, equipment expensed at once (the one-off
  deduction), the high-and-new-technology rate (15%, losses carried 10 years),
  selling costs, at a price that makes taxable profits;
- ``anchor``: an anchor tenant on a take-or-pay contract and the bank loan on a
  10-year term (a balloon at M on the 6-year horizon) charged in the nominal
  convention, its interest capitalized during construction.

LibreOffice and Gnumeric recalculate each workbook to its cached values with no
error cell and the master check OK; edits in Inputs of the VAT output rate, the
contract share and the loan rate recalculate to the engine rebuilt with them; and
for every tier an IRR is above its hurdle exactly when the NPV at the hurdle is
positive (methodology §11.2).
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.e2e.test_workbook_vat import VAT  # the VAT section of the VAT cases
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    set_name,
    written,
)
from tests.support.workbooks import master_check as master

pytestmark = pytest.mark.slow

TAX = {
    "finance.tax_rate": 0.15,
    "finance.loss_carryforward_years": 10,
    "operations.sga_share": 0.03,
    "revenue.price_per_gpu_hour": 40.0,
    **{f"depreciation.{c}.tax_method": "expensed" for c in ("servers", "network", "storage")},
}
ANCHOR = {
    "revenue.contract": {"share": 0.8, "price_per_gpu_hour": 16.0, "months": 36},
    "financing.term_years": 10,
    "financing.rate_convention": "nominal",
    # a built hall: its month-0 capex borrows through construction, so interest is
    # capitalized (the default leases; its hardware is bought at service start)
    "facility.mode": "build",
}


def tax_case(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    f = tmp / "vat.yaml"
    f.write_text(VAT, encoding="utf-8")
    return cm.load_assumptions(default_assumptions_dir(), f, overrides={**TAX, **(overrides or {})})


def anchor_case(tmp: Path, overrides: dict | None = None) -> cm.Assumptions:
    bank = scenarios_dir() / "bank-loan.yaml"
    over = {**ANCHOR, **(overrides or {})}
    return cm.load_assumptions(default_assumptions_dir(), bank, overrides=over)


CASES = {"tax": tax_case, "anchor": anchor_case}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("v3")
    return written(d, {name: make(d) for name, make in CASES.items()})


def test_the_cases_are_what_they_claim(workbooks):
    tax, _ = workbooks["tax"]
    s = tax.summary()
    assert (s["vat_paid"] > 0).all() and (s["surtax"] > 0).all()
    assert (tax.annual("thousands")["tax"] > 0).any()  # the expensing and the rate matter
    td = tax.tax_depreciation("thousands")
    assert td.servers.sum() == pytest.approx(tax.capex("thousands").servers.sum())
    anchor, _ = workbooks["anchor"]
    assert (anchor.summary()["realized_price"] > 0).all()
    assert anchor.revenue("thousands").contract_revenue.sum() > 0
    debt = anchor.debt("thousands")
    assert debt.capitalized_interest.sum() > 0 and debt.balloon.iloc[-1] > 0
    assert anchor.tax_depreciation("thousands").capitalized_interest.sum() > 0


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, case, engine):
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(workbooks[case][1], recalculated, 20000, f"{engine} {case}")


@pytest.mark.parametrize("case", list(CASES))
def test_comparison_and_master_check(by_libreoffice, workbooks, case):
    model, _ = workbooks[case]
    assert_comparison_equals(by_libreoffice[case], model.summary())
    assert master(by_libreoffice[case]) == "OK"


#: an edit typed into Inputs -> (case, defined name, value, the dotted path rebuilt)
EDITS = {
    "VAT output rate": ("tax", "vat_output_rate", 0.09, "vat.output_rate"),
    "contract share": ("anchor", "revenue_contract_share", 0.5, "revenue.contract.share"),
    "loan rate": ("anchor", "financing_interest_rate", 0.05, "financing.interest_rate"),
}


@pytest.fixture(scope="module")
def edited(workbooks, recalc, soffice, tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("v3-edits")
    out, paths = {}, []
    for name, (case, defined, value, path) in EDITS.items():
        wb = openpyxl.load_workbook(workbooks[case][1])
        set_name(wb, defined, value)
        target = d / f"{name.replace(' ', '-')}.xlsx"
        wb.save(target)
        paths.append(target)
        out[name] = cm.build(CASES[case](d, {path: value}))
    recalculated = recalc.libreoffice(paths)
    return {name: (out[name], p) for name, p in zip(EDITS, recalculated, strict=True)}


@pytest.mark.parametrize("edit", list(EDITS))
def test_an_edit_in_inputs_recalculates_to_the_engine_rebuilt(edited, workbooks, edit):
    model, path = edited[edit]
    before = workbooks[EDITS[edit][0]][0].summary()
    moved = model.summary()[["npv", "equity_npv"]] != before[["npv", "equity_npv"]]
    assert moved.to_numpy().any()  # the edit moves the project's or the owners' NPV
    assert_comparison_equals(path, model.summary())
    assert master(path) == "OK"


@pytest.mark.parametrize("case", list(CASES))
def test_an_irr_is_above_its_hurdle_exactly_when_its_npv_is_positive(workbooks, case):
    model, _ = workbooks[case]
    s = model.summary()
    a = model.assumptions
    coe = a.financing.cost_of_equity if a.financing is not None else None
    compared = 0
    for t in model.tiers:
        hurdle = model.discount_rate(t)  # finance.discount_rate, or the tier's WACC
        equity_hurdle = float(coe.value) if coe is not None else hurdle
        for irr, npv, rate in (("irr", "npv", hurdle), ("equity_irr", "equity_npv", equity_hurdle)):
            if s.loc[t, irr] == s.loc[t, irr]:  # where an IRR exists
                assert (s.loc[t, irr] > rate) == (s.loc[t, npv] > 0), (case, t, irr)
                compared += 1
    assert compared >= len(model.tiers)
