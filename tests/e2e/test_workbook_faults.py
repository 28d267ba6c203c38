"""Fault injection: the workbook's checks catch what an analyst could break.

Each fault is typed into a copy of the default workbook with openpyxl (overwriting
a formula or an input, as a person editing the file would), LibreOffice
recalculates every copy headless, and the master check on the Cover must read
ERROR (not OK, not an error value); where the fault is a broken calculation, the
check that is meant to catch it must be among the failing ones. The untouched
workbook's master check reads OK after the same recalculation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import numpy as np
import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report.workbook.grid import FIRST_COL
from tests.support.workbooks import master_check as workbook_master_check
from tests.support.workbooks import tier_input_cell
from tests.support.xlsxcells import ref, rows_of
from tests.support.xlsxcells import value as stored
from tests.support.xlsxedit import Where, patched_copy

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
#: the default at a GPU-hour price at which every tier pays tax (the tax fault's base)
PROFITABLE = {"revenue.price_per_gpu_hour": 60.0}
MONTH_13 = FIRST_COL + 1 + 13  # openpyxl column (1-based) of month 13
STAGED_OVERLAY = scenarios_dir() / "staged-growth.yaml"
#: the cells a fault types, and their values
Changes = dict[Where, object]


def row_of(ws, label: str) -> int:
    """Row (1-based) whose column A is ``label`` (the first such row)."""
    for row in ws.iter_rows(min_col=1, max_col=1):
        if row[0].value == label:
            return row[0].row
    raise KeyError(label)


def month_cells(ws, label: str):
    r = row_of(ws, label)
    return [ws.cell(r, c) for c in range(FIRST_COL + 1, ws.max_column + 1) if ws.cell(r, c).value]


def set_tier_input(tier: str, key: str, value) -> Callable:
    def fault(wb) -> Changes:
        return {("Inputs", tier_input_cell(wb, tier, key).coordinate): value}

    return fault


def typed_name(name: str, value) -> Callable:
    """The value typed into the cell of a defined name."""
    return lambda wb: {name: value}


def drop_electricity(wb) -> Changes:
    return {  # the first term is electricity
        ("hundreds", c.coordinate): re.sub(r"^=[A-Z]+\d+\+", "=", c.value)
        for c in month_cells(wb["hundreds"], "opex: total")
    }


def depreciation_over_10(wb) -> Changes:
    label = "servers: depreciation = sum of its events' annual / 12"
    return {
        ("thousands", c.coordinate): c.value + "/10" for c in month_cells(wb["thousands"], label)
    }


def zero_over(sheet: str, label: str, column: int = MONTH_13) -> Callable:
    def fault(wb) -> Changes:
        return {(sheet, ref(row_of(wb[sheet], label), column)): 0}

    return fault


def zero_over_tax(wb) -> Changes:
    """A hard-coded 0 over the first tax payment of the tier that pays the most tax
    (in the profitable base: the default at a higher GPU-hour price)."""
    model = cm.build(cm.load_assumptions(overrides=PROFITABLE))
    taxes = {t: model.results[t].flows["tax"][0] for t in model.tiers}
    tier = max(taxes, key=lambda t: taxes[t].sum())
    month = int(taxes[tier].nonzero()[0][0])
    return zero_over(tier, "tax = tax rate x taxable profit", FIRST_COL + 1 + month)(wb)


def zero_over_interest(wb) -> Changes:
    """A hard-coded 0 over the interest paid in month 13 (financed base)."""
    return zero_over("hundreds", "debt: interest paid")(wb)


def comparison_value(metric_label: str, value: float) -> Callable:
    def fault(wb) -> Changes:
        return {("Comparison", ref(row_of(wb["Comparison"], metric_label), 3)): value}

    return fault


#: a 10-year loan on the 6-year default at a GPU-hour price of 30: the equity flow
#: of hundreds repays a balloon at M and has two roots (methodology §11.2)
TWO_ROOTS = {"financing.term_years": 10, "revenue.price_per_gpu_hour": 30.0}


def rising_equity_root(wb) -> Changes:
    """The hundreds tier's equity IRR on Comparison typed as the other root of its
    equity flow, where NPV rises through 0 (v2's choice): a root, but not the IRR.
    The root is found here by bisection of the grid interval where NPV rises."""
    a = cm.load_assumptions(
        default_assumptions_dir(), scenarios_dir() / "bank-loan.yaml", overrides=TWO_ROOTS
    )
    ecf = cm.build(a).results["hundreds"].flows["ecf"][0]
    npv = lambda i: float(np.sum(ecf * (1.0 + i) ** -np.arange(ecf.size)))  # noqa: E731
    grid = np.linspace(-0.5, 0.0, 501)
    k = next(j for j in range(500) if npv(grid[j]) < 0 <= npv(grid[j + 1]))
    lo, hi = grid[k], grid[k + 1]
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if npv(mid) < 0 else (lo, mid)
    return {("Comparison", ref(row_of(wb["Comparison"], "Equity IRR"), 4)): (1 + lo) ** 12 - 1}


def set_stage(tier: str, stage: int, column: int, value) -> Callable:
    """A cell of the Inputs sheet's Stages table (tier, stage, month, GPUs, ...)."""

    def fault(wb) -> Changes:
        ws = wb["Inputs"]
        row = next(r[0].row for r in ws.iter_rows() if r[0].value == tier and r[1].value == stage)
        return {("Inputs", ref(row, column)): value}

    return fault


def stage_before_build(wb) -> Changes:
    """Construction of 6 months, the hundreds tier's stage typed as month 3."""
    return {"timeline_build_months": 6} | set_stage("hundreds", 1, 3, 3)(wb)


#: faults typed into the staged workbook (the default with staged-growth.yaml)
STAGED = {"a stage before the build ends", "stage GPUs not whole servers"}

#: fault -> (edit, a check label that must fail; None for input rules)
FAULTS: dict[str, tuple[Callable, str | None]] = {
    "opex total drops electricity": (drop_electricity, "opex total = sum of its lines"),
    "depreciation divided by 10": (
        depreciation_over_10,
        "servers: depreciation = closed form per capex event",
    ),
    "hard-coded 0 over revenue": (
        zero_over("tens", "spot revenue (or cloud cost avoided) = spot hours x price x index"),
        "spot revenue = spot GPU-hours x price x price index",
    ),
    "hard-coded 0 over electricity": (
        zero_over("tens", "electricity = kW drawn x PUE x hours x price x index"),
        "electricity = kW drawn x PUE x hours x price x indices",
    ),
    "hard-coded 0 over tax": (
        zero_over_tax,
        "tax = rate x (positive taxable income - losses used)",
    ),
    "hard-coded 0 over a year's taxable income": (
        zero_over(
            "tens",
            "taxable income of the year (at its last month; the terminal gain at M)",
            FIRST_COL + 1 + 24,
        ),
        "annual taxable income rows = monthly result for tax + terminal gain",
    ),
    "hard-coded 0 over servers' tax depreciation": (
        zero_over(
            "thousands",
            "servers: tax depreciation (book; expensed: the cost the month after capex)",
        ),
        "servers: tax depreciation = capex in service by M (expensed) or book",
    ),
    "tax method typo": (typed_name("dep_servers_tax_method", "expense"), None),
    "facility expensed": (typed_name("dep_facility_tax_method", "expensed"), None),
    "hard-coded NPV on Comparison": (
        comparison_value("NPV", 1e6),
        "NPV (Comparison) = sum of FCF x (1+r)^(-t)",
    ),
    "hard-coded IRR on Comparison": (
        comparison_value("IRR", 0.12),
        "IRR is a root where NPV falls: positive just below, not above",
    ),
    "equity IRR typed as the root where NPV rises": (
        rising_equity_root,
        "equity IRR is a root where NPV falls: positive just below, not above",
    ),
    "utilization 1.5": (set_tier_input("hundreds", "utilization", 1.5), None),
    "30 GPUs on 8-GPU servers": (set_tier_input("tens", "gpus", 30), None),
    "negative GPU-hour price": (typed_name("revenue_price_per_gpu_hour", -1), None),
    "negative electricity price": (typed_name("power_price_per_kwh", -0.1), None),
    "discount rate typed as 8": (typed_name("finance_discount_rate", 8), None),
    "60 kW air racks": (set_tier_input("tens", "rack_kw", 60), None),
    "method typo": (typed_name("dep_servers_method", "straight-line"), None),
    "unknown facility mode": (typed_name("facility_mode", "colo"), None),
    "horizon edited to 4 years": (typed_name("horizon_years", 4), None),
    "debt share 1.5": (typed_name("financing_debt_share", 1.5), None),
    "loan term 2.5 years": (typed_name("financing_term_years", 2.5), None),
    "negative loss carry-forward": (
        typed_name("finance_loss_carryforward_years", -1),
        None,
    ),
    "hard-coded 0 over interest paid": (
        zero_over_interest,
        "debt: interest + principal paid = level payments x payments made",
    ),
    "a stage before the build ends": (
        stage_before_build,
        "stage 1: month after the construction and before the horizon's end",
    ),
    # nothing is clipped (issue 31): the hundreds tier builds for the global 100 months
    "construction past the horizon": (
        typed_name("timeline_build_months", 100),
        "construction ends before the horizon's end (an operating month left)",
    ),
    "stage GPUs not whole servers": (
        set_stage("hundreds", 1, 4, 12),
        "stage 1: GPUs a positive multiple of GPUs per server",
    ),
}
#: faults typed into another base than the default
BASES = {
    zero_over_tax: "untouched profitable",
    zero_over_interest: "untouched financed",
    rising_equity_root: "untouched two roots",
}


@pytest.fixture(scope="module")
def recalculated(soffice, recalc, tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("faults")
    base = cm.write_workbook(cm.build(cm.load_assumptions()), d / "base.xlsx", created=FIXED)
    profitable = cm.build(cm.load_assumptions(overrides=PROFITABLE))
    rich = cm.write_workbook(profitable, d / "profitable.xlsx", created=FIXED)
    bank = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "bank-loan.yaml")
    financed = cm.write_workbook(cm.build(bank), d / "financed.xlsx", created=FIXED)
    two = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "bank-loan.yaml",
                              overrides=TWO_ROOTS)  # fmt: skip
    two_roots = cm.write_workbook(cm.build(two), d / "two-roots.xlsx", created=FIXED)
    staged = cm.build(cm.load_assumptions(default_assumptions_dir(), STAGED_OVERLAY))
    grown = cm.write_workbook(staged, d / "staged.xlsx", created=FIXED)
    paths = {
        "untouched": base,
        "untouched profitable": rich,
        "untouched financed": financed,
        "untouched staged": grown,
        "untouched two roots": two_roots,
    }
    books = {}  # each base read once; a fault's cells are typed into a copy's XML
    for i, (name, (edit, _)) in enumerate(FAULTS.items()):
        src = "untouched staged" if name in STAGED else BASES.get(edit, "untouched")
        if src not in books:
            books[src] = openpyxl.load_workbook(paths[src])
        paths[name] = patched_copy(paths[src], d / f"fault{i:02d}.xlsx", edit(books[src]))
    return dict(zip(paths, recalc.libreoffice(paths.values()), strict=True))


def master_check(path: Path) -> tuple[object, set[str]]:
    """The Cover's master check and the labels of the failing checks."""
    labels, status = rows_of(path, "Checks", 1), rows_of(path, "Checks", 7)
    failing = {labels.get(r) for r, v in status.items() if v == "ERROR"}
    return workbook_master_check(path), failing


@pytest.mark.parametrize(
    "base",
    ["untouched", "untouched profitable", "untouched financed", "untouched staged",
     "untouched two roots"],
)  # fmt: skip
def test_untouched_workbook_is_ok(recalculated, base):
    master, failing = master_check(recalculated[base])
    assert master == "OK"
    assert failing == set()


@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_turns_master_check_to_error(recalculated, fault):
    master, failing = master_check(recalculated[fault])
    assert master == "ERROR", (fault, failing)
    expected = FAULTS[fault][1]
    if expected is not None:
        assert expected in failing, (fault, failing)


@pytest.mark.parametrize(
    ("overrides", "name", "value"),
    [
        ({}, "power_price_per_kwh", 0.9),
        # no GPU-hours sold: cost per GPU-hour is empty at the build, and appears
        ({"operations.utilization": 0}, "operations_utilization", 0.5),
    ],
)
def test_engine_result_sheets_turn_stale_when_an_input_changes(
    soffice, recalc, tmp_path, overrides, name, value
):
    """The stamp of the Sensitivity, Grid and Sweep sheets reads "current" as built and "STALE" once an
    input that moves a headline result is edited (the master check stays OK: a
    changed input is not an error)."""
    model = cm.build(cm.load_assumptions(overrides=overrides))
    analysis = cm.analyze(model, draws=0)
    base = cm.write_workbook(model, tmp_path / "built.xlsx", created=FIXED, analysis=analysis)
    edited = patched_copy(base, tmp_path / "edited.xlsx", {name: value})
    built_out, edited_out = recalc.libreoffice([base, edited])
    for path, status in ((built_out, "current"), (edited_out, "STALE")):
        for sheet in ("Sensitivity", "Grid", "Sweep"):  # every sheet of engine values
            assert stored(path, sheet, 4, 1) == status, sheet
        assert master_check(path)[0] == "OK"
