"""The Inputs sheet is laid out as data before it is written
(:func:`costmodel.report.workbook.inputs.plan_inputs`): the writer renders the
plan, and the importer learns where each input is from the plan without writing
anything."""

from __future__ import annotations

import io
from datetime import datetime, timezone

import openpyxl
import pytest
import xlsxwriter
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

import costmodel as cm
from costmodel.report import importer
from costmodel.report.workbook import inputs as inputs_module
from costmodel.report.workbook.inputsmap import input_keys
from costmodel.report.workbook.plan import PlanStyles, Style


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
