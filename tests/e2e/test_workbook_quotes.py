"""Quotes rolled to the start in the workbook (methodology §30): the default with two
sites, its global spot price quoted 2025-03, the tens tier's own price 2025-09 and
the H200's price 2026-01 (the thousands tier at the western site, whose price
factor multiplies the rolled price), recalculated by LibreOffice and Gnumeric to
the engine; then a quote's ``as_of`` is edited in the Inputs sheet (as text, and
as a date) and LibreOffice's Comparison equals the engine rebuilt with it."""

from __future__ import annotations

import warnings
from datetime import datetime

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.errors import AssumptionWarning
from tests.paths import DATA
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    named_cell,
    set_name,
    written,
)

pytestmark = pytest.mark.slow

QUOTES = {
    "revenue.price_per_gpu_hour.as_of": "2025-03",
    "tiers.tens.revenue.price_per_gpu_hour.as_of": "2025-09",
    "servers.h200.price.as_of": "2026-01",
    "tiers.thousands.site": "west",
}


def assumptions(**more) -> cm.Assumptions:
    with warnings.catch_warnings():  # the tens tier's own quote shadows the global one
        warnings.simplefilter("ignore", AssumptionWarning)
        return cm.load_assumptions("default", DATA / "two-sites.yaml", overrides=QUOTES | more)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory):
    return written(tmp_path_factory.mktemp("quotes"), {"quotes": assumptions()})


def test_the_inputs_sheet_shows_each_quote_its_month_and_the_months_to_start(workbooks):
    """The quote (a link to its input), its as_of and months to 2027-01, by hand."""
    _, path = workbooks["quotes"]
    wb = openpyxl.load_workbook(path)
    months = {"revenue.price_per_gpu_hour": 22, "tiers.tens.revenue.price_per_gpu_hour": 16}
    months["servers.h200.price"] = 12
    for quote, n in months.items():
        cell = named_cell(wb, f"input.{quote}.as_of")
        assert cell.value == QUOTES[f"{quote}.as_of"]
        right = cell.parent.cell(cell.row, cell.column + 1)
        assert right.value.startswith("=(YEAR(start)-")
        cached = openpyxl.load_workbook(path, data_only=True)
        assert cached[cell.parent.title].cell(cell.row, cell.column + 1).value == n


def test_the_engine_rolls_the_server_quote_by_hand(workbooks):
    """A year from the quote (2026-01) to the start (2027-01): the servers' capex is
    the unrolled case's times (1 - the H200's price decline)^(12/12)."""
    model, _ = workbooks["quotes"]
    unrolled = cm.build(assumptions(**{"servers.h200.price.as_of": "2027-01"})).summary()
    d = model.assumptions.servers["h200"].price_decline.value
    got = model.summary().loc["thousands", "capex_servers"]
    assert got == pytest.approx(unrolled.loc["thousands", "capex_servers"] * (1 - d), rel=1e-12)


@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_the_quotes_workbook_recalculates_to_the_engine(request, workbooks, engine):
    model, path = workbooks["quotes"]
    recalculated = request.getfixturevalue(f"by_{engine}")["quotes"]
    assert_recalculation_equals_cache(path, recalculated, 20000, f"{engine} quotes")
    assert_comparison_equals(recalculated, model.summary())


EDITS = {
    "the spot quote's month as text, 2025-03 -> 2024-06": (
        "revenue.price_per_gpu_hour.as_of",
        "2024-06",
    ),
    "the H200's price month as a date, 2026-01 -> 2025-07": (
        "servers.h200.price.as_of",
        datetime(2025, 7, 1),
    ),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edit_of_a_quotes_month_follows_the_engine(soffice, recalc, workbooks, tmp_path, name):
    key, typed = EDITS[name]
    _, path = workbooks["quotes"]
    wb = openpyxl.load_workbook(path)
    set_name(wb, f"input.{key}", typed)
    changed = tmp_path / "changed.xlsx"
    wb.save(changed)
    (out,) = recalc.libreoffice([changed])
    month = typed if isinstance(typed, str) else typed.strftime("%Y-%m")
    expected = cm.build(assumptions(**{key: month})).summary()
    before = workbooks["quotes"][0].summary()
    assert not all(expected["npv"] == before["npv"])  # the edit moves a number
    assert_comparison_equals(out, expected)
