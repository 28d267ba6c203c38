"""Contracted capacity and selling costs (methodology §11.4, §11.5) are live in the workbook.

Two cases with a take-or-pay contract and an SG&A share: the bundled default
(three tiers, a tier overriding the contract share) and the default with the
staged-growth overlay (a stage with its own contract years, a ramp). LibreOffice
and Gnumeric recalculate each: every formula cell equals the engine's cached
value (relative 1e-9), no cell is an error and the master check reads OK. Then
the contract share, its price and months and the SG&A share are edited on the
Inputs sheet, LibreOffice recalculates, and the Comparison sheet equals the
engine rebuilt with the same change. Last, faults: a contract share above 1
makes the check "contract GPU-hours <= available GPU-hours" fail, and a
hard-coded month of revenue makes "revenue = contract + spot" fail.
"""

from __future__ import annotations

import functools
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report.workbook.grid import FIRST_COL
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

CONTRACT = {
    "revenue.contract": {
        "share": 0.6,
        "price_per_gpu_hour": 14.0,
        "months": 30,
        "escalation": 0.03,
    },
    "operations.sga_share": 0.04,
    "timeline.ramp_months": 6,
    "tiers.tens.revenue.contract.share": 0.9,
    "tiers.tens.operations.sga_share": 0.04,  # the default's captive tens sells nothing
}


def default(overrides: dict | None = None) -> cm.Assumptions:
    return cm.load_assumptions(overrides={**CONTRACT, **(overrides or {})})


def staged(overrides: dict | None = None) -> cm.Assumptions:
    overlay = scenarios_dir() / "staged-growth.yaml"
    return cm.load_assumptions(
        default_assumptions_dir(), overlay, overrides={**CONTRACT, **(overrides or {})}
    )


CASES = {"default-contract": default, "staged-contract": staged}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("contracts")
    return written(d, {name: make() for name, make in CASES.items()})


def test_cases_sell_under_contract_and_pay_sga(workbooks):
    for model, _ in workbooks.values():
        for t in model.tiers:
            rev = model.revenue(t)
            assert rev.contract_revenue.sum() > 0 and rev.spot_revenue.sum() > 0
            assert model.opex(t).sga.sum() > 0
    staged_model = workbooks["staged-contract"][0]
    assert any(len(staged_model.results[t].deployments) > 1 for t in staged_model.tiers)


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


#: (case, edits by defined name or (tier, Inputs path), the same change as overrides)
LIVE_EDITS = {
    "global contract share 0.3": (
        "default-contract",
        {"revenue_contract_share": 0.3},
        {"revenue.contract.share": 0.3},
    ),
    "tier contract share 0.5, price 20, 18 months, SG&A 7%": (
        "staged-contract",
        {
            ("tens", "revenue.contract.share"): 0.5,
            "revenue_contract_price_per_gpu_hour": 20.0,
            "revenue_contract_months": 18,
            "operations_sga_share": 0.07,
        },
        {
            "tiers.tens.revenue.contract.share": 0.5,
            "revenue.contract.price_per_gpu_hour": 20.0,
            "revenue.contract.months": 18,
            "operations.sga_share": 0.07,
        },
    ),
}


def edit(wb, edits: dict) -> None:
    for where, value in edits.items():
        if isinstance(where, tuple):
            set_tier_input(wb, *where, value)
        else:
            set_name(wb, where, value)


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
    assert (before["revenue"] != expected.summary()["revenue"]).any()  # the edit is no no-op


def revenue_hard_coded(wb) -> None:
    ws = wb["hundreds"]
    row = next(r for r in ws.iter_rows() if r[0].value == "revenue = contract + spot revenue")
    row[FIRST_COL + 13].value = 0  # month 13's revenue overwritten by 0


FAULTS = {
    "contract share above 1": (
        lambda wb: set_tier_input(wb, "hundreds", "revenue.contract.share", 1.5),
        "contract GPU-hours <= available GPU-hours (hours over)",
    ),
    "revenue hard-coded": (
        revenue_hard_coded,
        "revenue = contract revenue + spot revenue",
    ),
}


@pytest.fixture(scope="module")
def faulted(soffice, workbooks, tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("faults")
    paths = []
    for i, (fault, _) in enumerate(FAULTS.values()):
        wb = openpyxl.load_workbook(workbooks["default-contract"][1])
        fault(wb)
        paths.append(d / f"fault{i}.xlsx")
        wb.save(paths[-1])
    return dict(zip(FAULTS, recalculate_many(paths, d / "out"), strict=True))


@pytest.mark.parametrize("name", list(FAULTS))
def test_fault_fails_its_check(faulted, name):
    out = faulted[name]
    assert master_check(out) == "ERROR"
    assert FAULTS[name][1] in failing_checks(out)
