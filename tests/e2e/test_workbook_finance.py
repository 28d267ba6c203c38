"""The finance blocks of methodology §11.10-§11.13 are live in the workbook.

Cases: the bundled default with a loan and ``finance.discount_rate: wacc``; with
VAT refunded each month; with a counterparty default rate and the three kinds of
subsidy (a tier with a list of its own); and the held-out case
``tests/data/finance.yaml`` (all of them at once, one tier). LibreOffice and
Gnumeric recalculate each to the engine's cached values and the master check
reads OK; edits on the Inputs sheet (the WACC inputs, the refund mode and ratio,
a default rate, a grant's share, a voucher's share), recalculated by LibreOffice,
give the Comparison sheet of the engine rebuilt with the same change. Faults
typed into a contract-revenue cell, the share sold under contract and each
subsidy's row turn the master check to ERROR with the check that catches them.
"""

from __future__ import annotations

import functools
from pathlib import Path

import openpyxl
import pytest
import yaml

import costmodel as cm
from costmodel.report.workbook.grid import FIRST_COL
from tests.paths import FINANCE
from tests.support.libreoffice import recalculate_many
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    failing_checks,
    live_edits,
    master_check,
    set_name,
    set_tier_input,
    written,
)

pytestmark = pytest.mark.slow

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


#: the three kinds of subsidy on the default, the tens tier with a list of its own
SUBSIDIES = [
    {"kind": "capex_grant", "share": 0.15, "classes": ["servers"], "lag_months": 12,
     "cap": 50_000_000},
    {"kind": "power_rebate", "per_kwh": 0.1, "years": 3},
    {"kind": "voucher", "share_of_revenue": 0.1, "years": 2, "taxable": False},
]  # fmt: skip
TENS_SUBSIDIES = [{"kind": "voucher", "share_of_revenue": 0.2, "years": 1}]


def default_subsidies(overrides: dict | None = None) -> cm.Assumptions:
    """The default with a counterparty default rate and subsidies."""
    base = {
        "revenue.contract.default_rate": 0.15,
        "subsidies": SUBSIDIES,
        "tiers.tens.subsidies": TENS_SUBSIDIES,
    }
    return cm.load_assumptions(overrides={**base, **(overrides or {})})


def held_out(overrides: dict | None = None) -> cm.Assumptions:
    return cm.load_assumptions(FINANCE, overrides=overrides)


def with_subsidy(subsidies: list[dict], j: int, **change) -> list[dict]:
    """``subsidies`` with subsidy ``j`` changed."""
    out = [dict(s) for s in subsidies]
    out[j].update(change)
    return out


HELD_OUT_SUBSIDIES = yaml.safe_load(FINANCE.read_text(encoding="utf-8"))["subsidies"]

CASES = {
    "default-wacc": wacc,
    "default-monthly-vat": monthly_vat,
    "default-subsidies": default_subsidies,
    "held-out": held_out,
}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("finance")
    return written(d, {name: make() for name, make in CASES.items()})


def test_cases_default_and_subsidise(workbooks):
    for name in ("default-subsidies", "held-out"):
        s = workbooks[name][0].summary()
        assert (s["subsidies"] > 0).all()
        assert s["contract_at_risk"].max() > 0


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
    "held-out: default rate 0.35, refund ratio 0.8": (
        "held-out",
        {"revenue_contract_default_rate": 0.35, "vat_refund_ratio": 0.8},
        {"revenue.contract.default_rate": 0.35, "vat.refund_ratio": 0.8},
    ),
    "held-out: grant share 0.08 (under its cap), lag 2": (
        "held-out",
        {("subsidy", "capex_grant 1"): (0.08, 2)},
        {"subsidies": with_subsidy(HELD_OUT_SUBSIDIES, 0, share=0.08, lag_months=2)},
    ),
    "held-out: rebate 0.3 per kWh for 3 years, voucher taxable": (
        "held-out",
        {("subsidy", "power_rebate 2"): (0.3, 3), ("taxable", "voucher 3"): True},
        {
            "subsidies": with_subsidy(
                with_subsidy(HELD_OUT_SUBSIDIES, 1, per_kwh=0.3, years=3), 2, taxable=True
            )
        },
    ),
    "default: hundreds' default rate 0.05, grant share 0.25, tens' voucher 0.3": (
        "default-subsidies",
        {
            ("hundreds", "revenue.contract.default_rate"): 0.05,
            ("subsidy", "capex_grant 1"): (0.25, None),
            ("subsidy", "voucher 1 (tier tens)"): (0.3, None),
        },
        {
            "tiers.hundreds.revenue.contract.default_rate": 0.05,
            "subsidies": with_subsidy(SUBSIDIES, 0, share=0.25),
            "tiers.tens.subsidies": with_subsidy(TENS_SUBSIDIES, 0, share_of_revenue=0.3),
        },
    ),
}


def set_subsidy(wb, label: str, rate: float | None, term: int | None) -> None:
    """Type a subsidy's rate and its lag or years into the Inputs sheet's subsidy
    table, on the row whose label starts with ``label``."""
    ws = wb["Inputs"]
    row = next(r for r in ws.iter_rows() if str(r[0].value or "").startswith(label))
    if rate is not None:
        row[1].value = rate
    if term is not None:
        row[3].value = term


def set_taxable(wb, label: str, value: bool) -> None:
    ws = wb["Inputs"]
    row = next(r for r in ws.iter_rows() if str(r[0].value or "").startswith(label))
    row[7].value = value


def edit(wb, edits: dict) -> None:
    for where, value in edits.items():
        if isinstance(where, str):
            set_name(wb, where, value)
        elif where[0] == "subsidy":
            set_subsidy(wb, where[1], *value)
        elif where[0] == "taxable":
            set_taxable(wb, where[1], value)
        else:
            set_tier_input(wb, *where, value)


@pytest.fixture(scope="module")
def edited(soffice, recalc, workbooks, tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    changes = {n: (c, functools.partial(edit, edits=e), o) for n, (c, e, o) in LIVE_EDITS.items()}
    d = tmp_path_factory.mktemp("live")
    return live_edits(d, workbooks, changes, lambda c, o: CASES[c](o), recalc.libreoffice)


@pytest.mark.parametrize("name", list(LIVE_EDITS))
def test_live_edit_equals_engine_rebuilt(edited, workbooks, name):
    expected, out = edited[name]
    assert_comparison_equals(out, expected.summary())
    assert master_check(out) == "OK"
    before = workbooks[LIVE_EDITS[name][0]][0].summary()
    assert (before["npv"] != expected.summary()["npv"]).all()  # the edit is no no-op


MONTH_13 = FIRST_COL + 1 + 13  # openpyxl column (1-based) of month 13
CONTRACT_CHECK = (
    "contract revenue = its inputs rebuilt (share, months, price and escalation, "
    "or cloud price and index; survival)"
)
#: (case, sheet, the label the faulted row starts with, the value typed into month
#: 13, the check that fails)
FAULTS = {
    "contract revenue typed": (
        "held-out",
        "small",
        "contract revenue = GPUs",
        1000.0,
        CONTRACT_CHECK,
    ),
    "contract revenue typed (default)": (
        "default-subsidies",
        "thousands",
        "contract revenue = GPUs",
        0.0,
        CONTRACT_CHECK,
    ),
    "contract share without its survival": (
        "held-out",
        "small",
        "deployment 0: share sold under contract",
        0.5,
        CONTRACT_CHECK,
    ),
    "grant paid typed": (
        "held-out",
        "small",
        "subsidy 1 (capex_grant): paid",
        1000.0,
        "subsidy 1 (capex_grant) = min(cap, share x capex of its classes paid by M - lag)",
    ),
    "rebate typed": (
        "held-out",
        "small",
        "subsidy 2 (power_rebate): per kWh",
        0.0,
        "subsidy 2 (power_rebate) = per kWh x PUE x hours x kW drawn of its years",
    ),
    "voucher typed": (
        "default-subsidies",
        "hundreds",
        "subsidy 3 (voucher): share x revenue",
        0.0,
        "subsidy 3 (voucher) = share x revenue of its years",
    ),
    "subsidies total typed": (
        "held-out",
        "small",
        "subsidies received: total",
        0.0,
        "subsidies received = sum of the subsidies' lines",
    ),
}


@pytest.fixture(scope="module")
def faulted(soffice, workbooks, tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("faults")
    paths = []
    for i, (case, sheet, label, value, _) in enumerate(FAULTS.values()):
        wb = openpyxl.load_workbook(workbooks[case][1])
        ws = wb[sheet]
        row = next(r for r in ws.iter_rows(max_col=1) if str(r[0].value).startswith(label))
        ws.cell(row[0].row, MONTH_13).value = value
        paths.append(d / f"fault{i}.xlsx")
        wb.save(paths[-1])
    return dict(zip(FAULTS, recalculate_many(paths, d / "out"), strict=True))


@pytest.mark.parametrize("name", list(FAULTS))
def test_fault_fails_its_check(faulted, workbooks, name):
    out = faulted[name]
    assert master_check(out) == "ERROR"
    assert FAULTS[name][4] in failing_checks(out)
