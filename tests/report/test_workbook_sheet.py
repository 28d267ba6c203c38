"""The fast worksheet class writes the same bytes as XlsxWriter's own code, and
leaves every formula that needs XlsxWriter's preparation to it."""

from __future__ import annotations

import io
import string
from datetime import datetime

import pytest
import xlsxwriter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xlsxwriter.worksheet import Worksheet

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report.workbook import book
from costmodel.report.workbook.sheet import (
    PLAIN_FUNCTIONS,
    VERIFIED_XLSXWRITER,
    FastWorksheet,
    RowWorksheet,
    needs_preparation,
)
from tests.paths import ROOT

#: 2026-01-01 00:00 UTC
EPOCH = "1767225600"

CASES = {
    "default": lambda: cm.load_assumptions(),
    "staged-growth + bank-loan": lambda: cm.load_assumptions(
        default_assumptions_dir(),
        scenarios_dir() / "staged-growth.yaml",
        scenarios_dir() / "bank-loan.yaml",
    ),
}


def written(model: cm.Model, path, worksheet_class, monkeypatch) -> bytes:
    monkeypatch.setattr(book, "WORKSHEET_CLASS", worksheet_class)
    return cm.write_workbook(model, path).read_bytes()


def test_the_installed_xlsxwriter_has_been_verified():
    """FastWorksheet overrides private methods of XlsxWriter's worksheet: a release
    whose byte comparisons (the tests below) have not been run is a failure that
    says what to do, not a silent switch to the slower stock class."""
    version = xlsxwriter.__version__
    assert version in VERIFIED_XLSXWRITER, (
        f"XlsxWriter {version} has not been verified against FastWorksheet: run "
        "tests/report/test_workbook_sheet.py with it and, if every byte comparison "
        "passes, add it to VERIFIED_XLSXWRITER in costmodel/report/workbook/sheet.py "
        "(until then workbooks are written by the stock, slower class)"
    )
    assert book.WORKSHEET_CLASS is FastWorksheet


def test_the_dependency_pin_admits_only_verified_minor_releases():
    """pyproject.toml admits XlsxWriter 3.3 and later 3.x, never 4 (a new major may
    change every internal FastWorksheet mirrors) nor 3.1/3.2 (which lack the cell
    tuples it writes or write other bytes)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"XlsxWriter>=3.3,<4"' in text
    assert all(v.startswith("3.3.") for v in VERIFIED_XLSXWRITER)


@pytest.mark.parametrize("case", CASES)
def test_fast_worksheet_writes_the_stock_bytes(case, tmp_path, monkeypatch):
    """Byte for byte the workbook that XlsxWriter's own code writes for every cell
    (:class:`RowWorksheet`), for the default and a v2 model (stages, debt)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    model = cm.build(CASES[case]())
    stock = written(model, tmp_path / "stock.xlsx", RowWorksheet, monkeypatch)
    fast = written(model, tmp_path / "fast.xlsx", FastWorksheet, monkeypatch)
    assert len(fast) > 100_000
    assert fast == stock


class CountingWorksheet(FastWorksheet):
    """Counts the formulas handed to XlsxWriter's preparation, apart from the array
    formulas (one per deployment of a designed fabric: its spine count), which only
    XlsxWriter's own path writes."""

    prepared = 0

    def _prepare_formula(self, formula, expand_future_functions=False):
        if needs_preparation(formula) and not formula.startswith("{"):
            CountingWorksheet.prepared += 1
        return super()._prepare_formula(formula, expand_future_functions)


@pytest.mark.parametrize("case", CASES)
def test_no_formula_of_ours_needs_preparation(case, tmp_path, monkeypatch):
    """Every formula the writer produces takes the fast path (the speed rests on it)."""
    CountingWorksheet.prepared = 0
    written(cm.build(CASES[case]()), tmp_path / "x.xlsx", CountingWorksheet, monkeypatch)
    assert CountingWorksheet.prepared == 0


#: rows of formulas (one formula copied along a row) that XlsxWriter changes, and
#: plain ones; each row is written with write_formula_row
ROWS = [
    ["=IFNA(A{r},0)"],  # a future function: prefixed when use_future_functions is set
    ["=STDEV.S(A{r}:B{r})"],
    ["=SORT(A{r}:A9)"],  # a dynamic-array function: a dynamic array formula
    ["=XLOOKUP(1,A{r}:A9,B{r}:B9)"],
    ["{=SUM(A{r}:A9*B{r}:B9)}"],  # an array formula
    ["=_xlfn.CONCAT(A{r},B{r})"],  # already prefixed
    ["=SUM(A{r}:B{r})+IF(A{r}>0,1,0)", '="a<b"&A{r}'],  # plain, with escaped characters
    ["=MAX(0,MIN(1,A{r}))"],
]


def sheet_bytes(worksheet_class: type[RowWorksheet], future: bool) -> bytes:
    """A sheet of the rows of :data:`ROWS`, each written in several ways: runs of
    numbers and empty results, mixed results, no format, three runs in one row
    written right to left with a cell of one overwritten afterwards, cells before
    and after a run, formulas without their ``=``, blank rows."""
    out = io.BytesIO()
    wb = xlsxwriter.Workbook(out, {"in_memory": True, "use_future_functions": future})
    wb.set_properties({"created": datetime(2026, 1, 1)})  # the same bytes a second later
    ws = wb.add_worksheet("s", worksheet_class=worksheet_class)
    fmt, fmt2 = wb.add_format({"num_format": "0.0"}), wb.add_format({"bold": True})
    r = 0
    for templates in ROWS:
        for template in templates:
            formulas = [template.replace("{r}", str(c + 1)) for c in range(5)]
            ws.write_formula(r, 0, formulas[0], fmt, 2.0)
            ws.write_formula_row(r, 2, formulas, fmt, [1.5, "", 2.0, -0.0, 1e-7])
            ws.write_string(r, 9, "after")
            ws.write_formula_row(r + 1, 2, formulas, fmt, ["text", True, 0, 1.5, ""])
            ws.write_formula_row(r + 2, 2, formulas, None, [0.25] * 5)
            ws.write_formula_row(r + 3, 14, formulas, fmt2, [5.0] * 5)
            ws.write_formula_row(r + 3, 8, formulas, fmt2, [3.0] * 5)
            ws.write_formula_row(r + 3, 2, formulas, fmt, [4.0] * 5)
            ws.write_number(r + 3, 10, 7)
            ws.write_formula_row(r + 4, 2, [f.removeprefix("=") for f in formulas], fmt, [1.0] * 5)
            ws.write_blank_row(r + 4, 8, 12, fmt2)
            ws.write_blank_row(r + 4, 20, 22, fmt)
            ws.write_blank_row(r + 4, 13, 15, None)  # no format: nothing written
            ws.write_blank(r + 4, 10, None, fmt)
            r += 5
    wb.close()
    return out.getvalue()


@pytest.mark.parametrize("future", [False, True])
def test_formulas_that_need_preparation_still_get_it(future):
    fast = sheet_bytes(FastWorksheet, future)
    assert fast == sheet_bytes(RowWorksheet, future)
    xml = xlsxwriter_sheet_xml(fast)
    assert ("_xlfn.IFNA(A1,0)" in xml) is future
    assert ("_xlfn.STDEV.S(A1:B1)" in xml) is future
    assert "_xlfn._xlws.SORT(A1:A9)" in xml and 't="array"' in xml
    assert "_xlfn.XLOOKUP(1,A1:A9,B1:B9)" in xml
    assert "<f>SUM(A1:B1)+IF(A1&gt;0,1,0)</f><v>1.5</v>" in xml
    assert "<f>MAX(0,MIN(1,A2))</f><v></v>" in xml and "<v>-0.0</v>" in xml


def xlsxwriter_sheet_xml(data: bytes) -> str:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read("xl/worksheets/sheet1.xml").decode()


@pytest.mark.parametrize("name", sorted(PLAIN_FUNCTIONS - {""}))
def test_plain_functions_are_never_prefixed(name):
    """XlsxWriter leaves every name of PLAIN_FUNCTIONS alone after any character,
    with the future functions on (the check rests on this)."""
    ws = Worksheet()
    for c in string.punctuation + " =":
        formula = f"={c}{name}(1)"
        assert ws._prepare_formula(formula, True) == formula[1:], formula


#: pieces of formulas: plain and prefixed names, references, strings, punctuation
PIECES = st.sampled_from(
    [
        *sorted(PLAIN_FUNCTIONS),
        "SORT",
        "IFNA",
        "STDEV.S",
        "T.TEST",
        "XLOOKUP",
        "SINGLE",
        "_xlfn.",
        "LET",
        "X.SUM",
        "SUM2",
        "(",
        ")",
        ",",
        "+",
        "&",
        "<",
        ".",
        " ",
        "A1",
        "$C$7",
        "'SORT('!",
        "'a b'!",
        '"x("',
        "{",
        "}",
        "=",
        "1",
        "@",
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=12), st.booleans(), st.booleans())
def test_fast_preparation_equals_xlsxwriters(pieces, equals, future):
    formula = ("=" if equals else "") + "".join(pieces)
    ws = FastWorksheet()
    expected = Worksheet._prepare_formula(ws, formula, future)
    assert ws._prepare_formula(formula, future) == expected


def test_calc_sheet_renders_each_token():
    """Row templates: same column, previous column, constant, whole timeline,
    operating months, month 0 and month M; literal text (braces and % included)
    kept; a row's formulas are the template rendered column by column."""
    from costmodel.report.workbook.grid import CalcSheet, Styles

    wb = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
    cs = CalcSheet(wb.add_worksheet("s", worksheet_class=FastWorksheet), "s", 3, Styles(wb))
    cs.rows.update({"a": 9, "b": 10})  # rows 10 and 11 of the sheet
    template = '={a}*{b<}+{$a}+SUM({b:})-SUM({a:1})+{a@0}/{b@M}&"{1,2}%"'
    assert (
        cs.render(template, 6)
        == '=G10*F11+$C$10+SUM($F$11:$I$11)-SUM($G$10:$I$10)+$F$10/$I$11&"{1,2}%"'
    )
    assert cs.formulas(template, 5, 8) == [cs.render(template, c)[1:] for c in range(5, 9)]
    assert cs.formulas("=1+{$b}", 5, 6) == ["1+$C$11", "1+$C$11"]
    with pytest.raises(KeyError, match="unknown row 'c'"):
        cs.render("={c}", 5)
