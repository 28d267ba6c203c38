"""The workbook's layout as data (:mod:`costmodel.report.workbook.plan`): the
Inputs sheet is planned before it is written
(:func:`costmodel.report.workbook.inputs.plan_inputs`) and the writer renders the
plan; every sheet's formula cells are read from the workbook's plan
(:func:`costmodel.report.workbook.book.plan_workbook`). The importer learns where
each input and each formula is from the plans, without writing anything."""

from __future__ import annotations

import io
from datetime import datetime, timezone

import openpyxl
import pytest
import xlsxwriter
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

import costmodel as cm
from costmodel.report import importer
from costmodel.report.workbook import book as book_module
from costmodel.report.workbook import inputs as inputs_module
from costmodel.report.workbook.inputsmap import input_keys
from costmodel.report.workbook.plan import Op, PlanStyles, SheetPlan, Style, formula_cells


@pytest.fixture(scope="module")
def model():
    return cm.build(cm.load_assumptions(cm.example_dir("by-hand")))


@pytest.fixture
def no_writing(monkeypatch):
    """Any workbook opened from here on raises."""

    def refuse(*args, **kwargs):
        raise AssertionError("a workbook was written")

    monkeypatch.setattr(xlsxwriter, "Workbook", refuse)
    monkeypatch.setattr(xlsxwriter.workbook.Workbook, "__init__", refuse)


def test_the_plan_is_where_the_written_inputs_are(model, tmp_path):
    """Each input the plan places is the cell its defined name points to in the
    written workbook, as openpyxl reads it back."""
    path = cm.write_workbook(model, tmp_path / "m.xlsx", datetime(2025, 1, 1, tzinfo=timezone.utc))
    wb = openpyxl.load_workbook(path)
    written = {}
    for name, dn in wb.defined_names.items():
        keys = input_keys(name)
        if keys is not None:
            sheet, ref = next(iter(dn.destinations))
            col, row = coordinate_from_string(ref.replace("$", ""))
            written[keys] = (sheet, row - 1, column_index_from_string(col) - 1)
    planned = importer.inputs_layout(model.assumptions)
    assert len(planned) > 50
    assert {k: ("Inputs", c.row, c.col) for k, c in planned.items()} == written
    value = wb["Inputs"].cell(planned[("power", "price_per_kwh")].row + 1, 2).value
    assert value == model.assumptions.power.price_per_kwh.value


def test_the_importer_reads_the_layout_without_writing(model, no_writing):
    cells = importer.inputs_layout(model.assumptions)
    assert ("power", "price_per_kwh") in cells


def test_a_layout_learned_by_writing_is_caught(model, no_writing, monkeypatch):
    """The guard above fails an importer that writes the Inputs sheet (as it once
    did, in memory) to learn where the inputs are."""
    from costmodel.report.workbook.grid import Styles

    def written(a, tiers, prices, rate):
        wb = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
        return inputs_module.write_inputs(wb, Styles(wb), a, tiers, prices, rate)

    monkeypatch.setattr(inputs_module, "plan_inputs", written)
    with pytest.raises(AssertionError, match="a workbook was written"):
        importer.inputs_layout(model.assumptions)


def test_plan_styles_name_the_formats():
    st = PlanStyles()
    assert st.label == Style("label")
    assert st.input("pct2") == Style("input", ("pct2",), True)

    class Real:
        label = "L"

        def input(self, kind):
            return f"in-{kind}"

    assert st.label.resolve(Real()) == "L" and st.input("pct2").resolve(Real()) == "in-pct2"


def test_the_planned_formulas_are_the_written_ones(tmp_path):
    """Each sheet's formula cells in the plan are those of the written file (its
    XML, read by the importer's reader), in the same order, for a model with two
    stages, a loan and VAT."""
    for source in ("example:by-hand", ["default", "scenario:staged-growth"]):
        m = cm.build(source)
        path = cm.write_workbook(m, tmp_path / "m.xlsx", datetime(2025, 1, 1))
        written = importer.formula_cells(path)
        planned = {t: formula_cells(p) for t, p in book_module.plan_workbook(m).sheets.items()}
        assert list(planned) == list(written)
        assert planned == written
        assert sum(map(len, planned.values())) > 1000


def test_formula_cells_follow_the_last_write():
    plan = SheetPlan("S")
    ops = [
        ("write_formula", (0, 0, "=1", None, 1)),
        ("write_number", (0, 0, 2.0, None)),  # overwritten: a value
        ("write_formula_row", (1, 2, ["=A1", "=B1"], None, [0, 0])),
        ("write_array_formula", (2, 0, 2, 0, "{=1}", None, 1)),
        ("write_formula", (3, 27, "=1", None, 1)),
        ("write_blank", (3, 27, None, None)),  # no format: writes nothing
        ("write_formula", (4, 0, "=1", None, 1)),
        ("write_blank_row", (4, 0, 1, "fmt")),
    ]
    plan.ops.extend(Op(m, a, {}) for m, a in ops)
    assert formula_cells(plan) == ["C2", "D2", "A3", "AB4"]


def test_an_import_writes_no_workbook(model, tmp_path, monkeypatch):
    """A whole import (the inputs compared, the overlay validated, the plugs
    found) opens no workbook to write: the layout comes from the plans."""
    path = cm.write_workbook(model, tmp_path / "m.xlsx", datetime(2025, 1, 1))

    def refuse(*args, **kwargs):
        raise AssertionError("a workbook was written")

    monkeypatch.setattr(xlsxwriter, "Workbook", refuse)
    monkeypatch.setattr(xlsxwriter.workbook.Workbook, "__init__", refuse)
    overlay, report = importer.import_workbook(path)
    assert overlay == {} and report.plugs == [] and report.changes == []


def test_plugs_found_by_writing_are_caught(model, tmp_path, monkeypatch):
    """The guard of the test above fails an importer that writes the rebuilt
    model's workbook to learn which cells are formulas (as it once did)."""
    path = cm.write_workbook(model, tmp_path / "m.xlsx", datetime(2025, 1, 1))

    def written(m):
        cm.write_workbook(m, tmp_path / "rebuilt.xlsx", datetime(2000, 1, 1))
        return book_module.PlanWorkbook()

    monkeypatch.setattr(book_module, "plan_workbook", written)
    monkeypatch.setattr(xlsxwriter.workbook.Workbook, "__init__", _refuse)
    with pytest.raises(AssertionError, match="a workbook was written"):
        importer.import_workbook(path)


def _refuse(*args, **kwargs):
    raise AssertionError("a workbook was written")
