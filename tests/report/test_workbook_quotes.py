"""Quotes rolled to the start in the workbook, without a spreadsheet engine
(methodology §30; the recalculations are in tests/e2e/test_workbook_quotes.py): the
tier sheet's rolled price is a live formula of the quote, its decline and the months
the Inputs sheet computes from the quote's as_of; the import reads an edited as_of
back, typed as text or as a date."""

from __future__ import annotations

from datetime import datetime

import openpyxl
import pytest

import costmodel as cm
from costmodel.report.importer import import_workbook
from tests.paths import HAND
from tests.support.workbooks import named_cell, set_name

QUOTES = {"revenue.price_per_gpu_hour.as_of": "2025-03", "servers.h200.price.as_of": "2026-01"}


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    a = cm.load_assumptions("default", overrides=QUOTES)
    path = tmp_path_factory.mktemp("quotes") / "quotes.xlsx"
    cm.write_workbook(cm.build(a), path, created=datetime(2026, 1, 1))
    return a, path


def _row(ws, key_label: str):
    return next(r for r in ws.iter_rows() if str(r[0].value or "").startswith(key_label))


def test_the_rolled_price_is_a_formula_of_the_quote_its_decline_and_months(book):
    a, path = book
    wb = openpyxl.load_workbook(path)
    cached = openpyxl.load_workbook(path, data_only=True)
    ws = wb["hundreds"]
    row = _row(ws, "price per gpu hour rolled")
    formula = row[2].value
    assert "^(" in formula and "/12)" in formula
    value = cached["hundreds"].cell(row[2].row, 3).value
    quote, decline = a.revenue.price_per_gpu_hour.value, a.revenue.price_decline.value
    assert decline == 0.1
    assert value == pytest.approx(quote * 0.9 ** (22 / 12), rel=1e-12)  # 2025-03 -> 2027-01


def test_the_inputs_block_shows_each_quote_its_decline_and_its_value_at_the_start(book):
    """Per quote: its as_of, the months to 2027-01, the decline it rolls at (a link
    to the server's for its price, to the GPU-hour price decline otherwise) and the
    quote at the start, a formula of the row."""
    a, path = book
    wb = openpyxl.load_workbook(path)
    cached = openpyxl.load_workbook(path, data_only=True)["Inputs"]
    cases = {  # path: (label, months, decline cell's name, decline, value at the start)
        "servers.h200.price": ("h200: Server price", 12, "servers.h200.price_decline", 0.15,
                               a.servers["h200"].price.value * 0.85),
        "revenue.price_per_gpu_hour": ("Year-1 price per GPU-hour", 22,
                                       "revenue.price_decline", 0.1,
                                       a.revenue.price_per_gpu_hour.value * 0.9 ** (22 / 12)),
    }  # fmt: skip
    for quote, (label, months, decline_name, decline, at_start) in cases.items():
        cell = named_cell(wb, f"input.{quote}.as_of")
        r, c = cell.row, cell.column
        ws = cell.parent
        assert ws.cell(r, 1).value == label
        assert cached.cell(r, c + 1).value == months
        d = named_cell(wb, f"input.{decline_name}")
        assert ws.cell(r, c + 2).value == f"=Inputs!${d.column_letter}${d.row}"
        assert cached.cell(r, c + 2).value == decline
        assert ws.cell(r, c + 3).value == f"=$B${r}*IF($D${r}=0,1,(1-$E${r})^($D${r}/12))"
        assert cached.cell(r, c + 3).value == pytest.approx(at_start, rel=1e-12)


def test_an_edited_as_of_is_imported_as_a_month(book, tmp_path):
    a, path = book
    wb = openpyxl.load_workbook(path)
    set_name(wb, "input.revenue.price_per_gpu_hour.as_of", "2024-06")
    set_name(wb, "input.servers.h200.price.as_of", datetime(2025, 7, 1))
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    overlay, _ = import_workbook(edited, a)
    assert overlay["revenue"]["price_per_gpu_hour"]["as_of"] == "2024-06"
    assert overlay["servers"]["h200"]["price"]["as_of"] == "2025-07"


def test_without_as_of_the_workbook_has_no_quotes(tmp_path):
    path = tmp_path / "plain.xlsx"
    # the hand case quotes no price with as_of (the default's prices are quotes)
    cm.write_workbook(cm.build(cm.load_assumptions(HAND)), path, created=datetime(2026, 1, 1))
    wb = openpyxl.load_workbook(path)
    assert not any(n.endswith(".as_of") for n in wb.defined_names)
    with pytest.raises(StopIteration):
        _row(wb["small"], "price per gpu hour rolled")
    assert named_cell(wb, "start").value is not None
