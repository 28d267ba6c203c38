"""What a model auditor checks without recalculating: readable, validated inputs;
no machine paths; short, portable formulas; units in the model currency."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import column_index_from_string, range_boundaries

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from tests.paths import HAND, ROOT
from tests.support.workbooks import overlays

FIXED = datetime(2026, 1, 1)
MAX_FORMULA = 200
CASES = {
    "default": lambda: cm.load_assumptions(),
    "hand": lambda: cm.load_assumptions(HAND),
    **{
        f"overlay-{p.stem}": (lambda p=p: cm.load_assumptions(default_assumptions_dir(), p))
        for p in overlays()
    },
}


@pytest.fixture(scope="module", params=list(CASES))
def book(request, written_workbook, read_workbook) -> tuple[cm.Model, openpyxl.Workbook, Path]:
    model, path = written_workbook(request.param, CASES[request.param])
    return model, read_workbook(path), path


def formulas(wb):
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    yield ws, c


def test_calculation_sheets_are_formulas(book):
    """At least 95% of the numeric cells of each tier sheet are formulas."""
    model, wb, _ = book
    assert formula_share(wb, model.tiers) >= 0.95


def formula_share(wb: openpyxl.Workbook, sheets: list[str]) -> float:
    """Share of numeric cells on calculation sheets that are formulas."""
    numeric = formulas = 0
    for name in sheets:
        for row in wb[name].iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    formulas += 1
                    numeric += 1
                elif isinstance(c.value, int | float) and not isinstance(c.value, bool):
                    numeric += 1
    return formulas / numeric


def test_no_machine_paths(book, tmp_path):
    """No string names a directory of the machine that wrote the file."""
    _, wb, path = book
    roots = {str(ROOT), str(default_assumptions_dir()), str(Path.home()), str(path.parent)}
    absolute = re.compile(r"(^|[\s(])(/[\w.-]+){2,}|[A-Za-z]:\\")
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str):
                    assert not any(r in c.value for r in roots), (ws.title, c.coordinate)
                    assert not absolute.search(c.value), (ws.title, c.coordinate, c.value)


def test_formulas_are_short_and_portable(book):
    """At most 200 characters; no OFFSET/INDIRECT; no cell refers to itself."""
    _, wb, _ = book
    ref = re.compile(r"(?<![A-Za-z_!'])\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?")
    for ws, c in formulas(wb):
        f = c.value
        assert len(f) <= MAX_FORMULA, (ws.title, c.coordinate, len(f))
        assert "OFFSET(" not in f and "INDIRECT(" not in f
        for m in ref.finditer(re.sub(r"'[^']*'![$A-Z0-9:]+|\w+![$A-Z0-9:]+|\"[^\"]*\"", "", f)):
            lo_c, lo_r = column_index_from_string(m.group(1)), int(m.group(2))
            hi_c, hi_r = (
                (column_index_from_string(m.group(3)), int(m.group(4)))
                if m.group(3)
                else (lo_c, lo_r)
            )
            assert not (lo_c <= c.column <= hi_c and lo_r <= c.row <= hi_r), (
                f"{ws.title}!{c.coordinate} refers to itself: {f}"
            )


def test_index_never_over_a_single_cell(book):
    """Gnumeric rejects INDEX over a one-cell range (a one-SKU catalogue)."""
    _, wb, _ = book
    for name in re.findall(r"INDEX\((\w+),", " ".join(c.value for _, c in formulas(wb))):
        ((_, ref),) = wb.defined_names[name].destinations
        lo_c, lo_r, hi_c, hi_r = range_boundaries(ref.replace("$", ""))
        assert (hi_c - lo_c + 1) * (hi_r - lo_r + 1) >= 2, name


def test_inputs_have_label_unit_and_validation(book):
    """Every blue input cell has data validation; every row holding one has a
    readable label (not a dotted path) and a unit."""
    _, wb, _ = book
    ws = wb["Inputs"]
    validated = set()
    for dv in ws.data_validations.dataValidation:
        for rng in dv.sqref.ranges:
            lo_c, lo_r, hi_c, hi_r = rng.bounds
            validated |= {(r, c) for r in range(lo_r, hi_r + 1) for c in range(lo_c, hi_c + 1)}
    blue = [
        c
        for row in ws.iter_rows()
        for c in row
        if c.value is not None
        and c.font.color is not None
        and str(c.font.color.rgb).endswith("0000FF")
        and not (isinstance(c.value, str) and c.value.startswith("="))
    ]
    assert len(blue) > 50
    # table keys (cooling and server ids) are blue text in column A: they name rows
    missing = [c.coordinate for c in blue if (c.row, c.column) not in validated and c.column > 1]
    assert missing == []
    tier_head = next(r[0].row for r in ws.iter_rows() if r[0].value == "tier")
    # the Sites block is a table (methodology §29): a site per row, its unit in each
    # column's header, "(unit)"
    site_head = next((r[0].row for r in ws.iter_rows() if r[0].value == "site"), None)
    site_rows = set()
    if site_head is not None:
        row = site_head + 1
        while ws.cell(row, 1).value is not None:
            site_rows.add(row)
            row += 1
    for c in blue:
        if c.column == 1:
            continue
        if c.row in site_rows:
            head = ws.cell(site_head, c.column).value
            assert re.search(r"\(.+\)$", head or ""), (c.coordinate, head)
            continue
        label = ws.cell(c.row, 1).value
        assert label and "." not in label.split(" (")[0], (c.coordinate, label)
        if label == "model name":  # a text with no unit, run on over the cells beside it
            assert ws.cell(c.row, 3).value is None
            continue
        if c.row > tier_head or c.column == 2:
            unit = ws.cell(c.row, 2 if c.row > tier_head else 3).value
            assert unit, (c.coordinate, label)


def test_horizon_is_structure_not_an_input(book):
    model, wb, _ = book
    sheet, ref = next(iter(wb.defined_names["horizon_years"].destinations))
    c = wb[sheet][ref.replace("$", "")]
    assert c.value == model.assumptions.horizon_years
    assert not str(c.font.color.rgb if c.font.color else "").endswith("0000FF")
    assert c.protection.locked


def test_tier_labels_follow_the_gpu_count(book):
    model, wb, _ = book
    ws = wb["Inputs"]
    row = next(
        r for r in ws.iter_rows() if r[0].value == "Label from the live GPU count and server"
    )
    cells = [c for c in row[2 : 2 + len(model.tiers)]]
    assert all(c.value.startswith("=") and "LOOKUP(" in c.value for c in cells)


def test_units_name_the_currency(book):
    model, wb, _ = book
    cur = model.assumptions.currency
    for t in model.tiers:
        units = {r[1].value for r in wb[t].iter_rows(max_col=2)}
        assert "money" not in units and cur in units
    comp = wb["Comparison"]
    units = {r[0].value: r[1].value for r in comp.iter_rows(min_row=4, max_col=2)}
    assert units["Levelized cost per GPU-hour"] == f"{cur}/GPU-h"
    pflop = [u for label, u in units.items() if label and "PFLOP" in label]
    assert pflop == [f"{cur}/PFLOP-h"]


def test_master_check_is_never_an_error_value(book):
    """Every fail flag on the Checks sheet is wrapped in IFERROR; the master check too."""
    _, wb, _ = book
    ws = wb["Checks"]
    flags = [r[5].value for r in ws.iter_rows(min_row=6) if isinstance(r[5].value, str)]
    per_check = [f for f in flags if not f.startswith(("=SUM(", "=$"))]
    assert len(per_check) > 40
    assert all(f.startswith("=IFERROR(") for f in per_check)
    sheet, ref = next(iter(wb.defined_names["master_check"].destinations))
    assert wb[sheet][ref.replace("$", "")].value.startswith("=IFERROR(")


def test_tornado_labels_sit_at_the_low_end(analysed_workbook):
    path = analysed_workbook[1]
    import zipfile

    with zipfile.ZipFile(path) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    bars = [c for c in charts if '<c:barDir val="bar"/>' in c]
    assert bars and all('<c:tickLblPos val="low"/>' in c for c in bars)


def test_calculation_sheets_protected_inputs_unlocked(book):
    """Calculation sheets are protected without a password; input cells are unlocked."""
    model, wb, _ = book
    for name in (*model.tiers, "IRR", "Annual", "Comparison", "Checks"):
        assert wb[name].protection.sheet, name
        assert not wb[name].protection.password, name
    ws = wb["Inputs"]
    blue = [
        c
        for row in ws.iter_rows()
        for c in row
        if c.font.color is not None and str(c.font.color.rgb).endswith("0000FF")
    ]
    assert blue and not any(c.protection.locked for c in blue)
