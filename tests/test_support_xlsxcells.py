"""The comparisons' xlsx reader (tests/support/xlsxcells.py) reads what openpyxl,
an independent reader, reads: formulas, cached numbers, text, booleans, errors,
rich-text shared strings and array formulas."""

from __future__ import annotations

import datetime

import openpyxl
import pytest
import xlsxwriter

from tests.support.workbooks import compare_cached_with_recalculated, set_name
from tests.support.xlsxcells import ARRAY, cells, ref, rows_of, value
from tests.support.xlsxedit import patched_copy


def workbook(path, total=3):
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Sheet A")
    ws.write_number("A1", 1.5)
    ws.write_number("A2", 2)
    ws.write_formula("A3", "=A1+A2", None, total)
    ws.write_string("B1", "text")
    ws.write_rich_string("B2", "rich ", wb.add_format({"bold": True}), "text")
    ws.write_formula("B3", '="a"&"b"', None, "ab")
    ws.write_boolean("C1", True)
    ws.write_formula("C2", "=1/0", None, "#DIV/0!")
    ws.write_datetime("C3", datetime.datetime(2027, 1, 1), wb.add_format({"num_format": "yyyy-mm"}))
    ws.write_array_formula("D1:D1", "{=SUM(A1:A2*2)}", None, 7)
    wb.add_worksheet("B")
    wb.worksheets()[1].write_string("AA10", "far")
    wb.close()
    return path


def test_cells_read_what_openpyxl_reads(tmp_path):
    p = workbook(tmp_path / "w.xlsx")
    got = cells(p)
    assert list(got) == ["Sheet A", "B"]
    forms = openpyxl.load_workbook(p)["Sheet A"]
    vals = openpyxl.load_workbook(p, data_only=True)["Sheet A"]
    for coord in ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"):
        formula, v = got["Sheet A"][coord]
        f = forms[coord].value
        assert formula == (f if isinstance(f, str) and f.startswith("=") else None), coord
        assert v == vals[coord].value, coord
    # a date stays the serial number the file stores (openpyxl makes it a datetime)
    assert got["Sheet A"]["C3"] == (
        None,
        (datetime.date(2027, 1, 1) - datetime.date(1899, 12, 30)).days,
    )
    assert got["Sheet A"]["D1"] == (ARRAY, 7)
    assert value(p, "B", 10, 27) == "far" and ref(10, 27) == "AA10"
    assert rows_of(p, "Sheet A", 1) == {1: 1.5, 2: 2, 3: 3}


def test_the_comparison_finds_a_wrong_cached_value_and_an_error(tmp_path):
    good = workbook(tmp_path / "good.xlsx")
    same = compare_cached_with_recalculated(good, workbook(tmp_path / "same.xlsx"))
    assert (same.formulas, same.mismatches) == (3, [])  # A3, B3, C2 (the array one is not)
    assert same.errors == ["Sheet A!C2 = #DIV/0!"]
    wrong = compare_cached_with_recalculated(good, workbook(tmp_path / "wrong.xlsx", total=4))
    assert len(wrong.mismatches) == 1 and wrong.mismatches[0].startswith("Sheet A!A3 =A1+A2")


def named_workbook(path):
    """:func:`workbook` with two defined names (one on a sheet whose title is quoted)."""
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Sheet A")
    ws.write_number("A1", 1.5, wb.add_format({"num_format": "0.00"}))
    ws.write_number("A2", 2)
    ws.write_formula("A3", "=A1+A2", None, 3.5)
    ws.write_string("B1", "text")
    ws.write_boolean("C1", True)
    ws.write_blank("C2", None, wb.add_format({"bold": True}))
    wb.define_name("first", "='Sheet A'!$A$1")
    wb.define_name("words", "='Sheet A'!$B$1")
    wb.close()
    return path


#: an edit of every kind: a name or a coordinate; a number, a text, a formula, a
#: boolean, a blank, a value into a formatted blank cell
EDITS = {
    "first": 7.25,
    "words": "straight-line & <more>",
    ("Sheet A", "A2"): "=A1*2",
    ("Sheet A", "A3"): 0,
    ("Sheet A", "C1"): False,
    ("Sheet A", "C2"): "2024-06",
}


def test_an_xml_edit_reads_as_the_same_edit_by_openpyxl(tmp_path):
    src = named_workbook(tmp_path / "src.xlsx")
    ours = patched_copy(src, tmp_path / "ours.xlsx", EDITS)
    wb = openpyxl.load_workbook(src)
    for where, v in EDITS.items():
        if isinstance(where, str):
            set_name(wb, where, v)
        else:
            wb[where[0]][where[1]].value = v
    wb.save(tmp_path / "theirs.xlsx")
    got, want = cells(ours)["Sheet A"], cells(tmp_path / "theirs.xlsx")["Sheet A"]
    assert got == want
    assert got["A1"] == (None, 7.25) and got["A2"] == ("=A1*2", None)
    # openpyxl reads the edited copy too, the format of A1 and C2 kept
    again = openpyxl.load_workbook(ours)["Sheet A"]
    assert again["A1"].number_format == "0.00" and again["C2"].font.b
    assert again["B1"].value == "straight-line & <more>"
    with pytest.raises(KeyError):
        patched_copy(src, tmp_path / "no.xlsx", {("Sheet A", "Z99"): 1})
