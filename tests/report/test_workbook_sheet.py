"""The workbook's worksheet class: XlsxWriter's own, with row writers on its public
API and no XlsxWriter method overridden."""

from __future__ import annotations

import io
import zipfile

import pytest
import xlsxwriter
from xlsxwriter.worksheet import Worksheet

from costmodel.report.workbook import book
from costmodel.report.workbook.sheet import RowWorksheet


def test_no_method_of_xlsxwriter_is_overridden():
    """The class adds its row writers and overrides nothing of XlsxWriter's
    worksheet (public or private), so it depends on XlsxWriter's public API only."""
    own = {name for name in vars(RowWorksheet) if not name.startswith("__")}
    assert own == {"write_formula_row", "write_blank_row"}
    assert not own & set(dir(Worksheet))
    assert issubclass(book.WORKSHEET_CLASS, RowWorksheet)
    assert not {n for n in vars(book.WORKSHEET_CLASS) if not n.startswith("__")} - own


def sheet_xml(write) -> str:
    """The XML of a one-sheet workbook that ``write(worksheet, format)`` fills."""
    out = io.BytesIO()
    wb = xlsxwriter.Workbook(out, {"in_memory": True})
    ws = wb.add_worksheet("s", worksheet_class=RowWorksheet)
    write(ws, wb.add_format({"num_format": "0.0"}))
    wb.close()
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as z:
        return z.read("xl/worksheets/sheet1.xml").decode()


def test_a_formula_row_is_the_cells_written_one_by_one():
    formulas = ["=SUM(A1:B1)", "=IF(B1>0,1,0)", "=SORT(A1:A9)", "C1*2"]
    values = [1.5, "", 2.0, -0.0]

    def by_row(ws, fmt):
        ws.write_formula_row(0, 2, formulas, fmt, values)

    def by_cell(ws, fmt):
        for i, (f, v) in enumerate(zip(formulas, values, strict=True)):
            ws.write_formula(0, 2 + i, f, fmt, v)

    xml = sheet_xml(by_row)
    assert xml == sheet_xml(by_cell)
    assert '<c r="C1" s="1"><f>SUM(A1:B1)</f><v>1.5</v></c>' in xml
    assert "<f>IF(B1&gt;0,1,0)</f><v></v>" in xml  # escaped, an empty result
    assert "_xlfn._xlws.SORT(A1:A9)" in xml  # XlsxWriter's own preparation
    assert '<c r="F1" s="1"><f>C1*2</f><v>-0.0</v></c>' in xml
    with pytest.raises(ValueError):
        sheet_xml(lambda ws, fmt: ws.write_formula_row(0, 0, formulas, fmt, values[:2]))


def test_a_blank_row_is_formatted_blanks_and_nothing_without_a_format():
    xml = sheet_xml(lambda ws, fmt: ws.write_blank_row(2, 1, 3, fmt))
    assert '<c r="B3" s="1"/><c r="C3" s="1"/><c r="D3" s="1"/>' in xml
    empty = sheet_xml(lambda ws, fmt: ws.write_blank_row(2, 1, 3, None))
    assert "<c " not in empty


def test_calc_sheet_renders_each_token():
    """Row templates: same column, previous column, constant, whole timeline,
    operating months, month 0 and month M; literal text (braces and % included)
    kept; a row's formulas are the template rendered column by column."""
    from costmodel.report.workbook.grid import CalcSheet, Styles

    wb = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
    cs = CalcSheet(wb.add_worksheet("s", worksheet_class=RowWorksheet), "s", 3, Styles(wb))
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
