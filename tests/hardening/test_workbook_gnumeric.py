"""Workbooks of extreme-but-valid inputs recalculated in Gnumeric (issue 31): no
error cell, the recalculated values equal the engine's cached ones, the master
check reads OK.

Gnumeric (like Excel) returns ``#NUM!`` for ``0^0``, which LibreOffice reads as 1: a
price decline of 1 gave 17,502 error cells before its factor was written with a base
of 1 in the first year. A sheet name with an apostrophe (``'it''s'!A1``) is a
reference Gnumeric does not read."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from tests.support.gnumeric import recalculate
from tests.support.workbooks import compare_cached_with_recalculated

CORPUS = Path(__file__).parent / "corpus"
FIXED = datetime(2026, 1, 1)

CASES = {
    # revenue and server prices fall 100% a year, construction 0 months
    "extreme-declines-one": ([CORPUS / "extreme-declines-one.yaml"], {}),
    # nothing sold, every price 0, one-server tiers
    "extreme-zeros": ([CORPUS / "extreme-zeros.yaml"], {}),
    "price-decline-one": ([], {"revenue.price_decline": 1}),
    "apostrophe-tier": ([CORPUS / "apostrophe-tier.yaml"], {}),
    "history-tier": ([CORPUS / "history-tier.yaml"], {}),
}


def _master(path: Path) -> object:
    cover = openpyxl.load_workbook(path, data_only=True)["Cover"]
    for row in cover.iter_rows():
        if row[0].value == "Master check":
            return row[1].value
    return None


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_gnumeric_recalculation_has_no_error_cell(name, tmp_path, ssconvert):
    files, overrides = CASES[name]
    a = cm.load_assumptions(default_assumptions_dir(), *files, overrides=overrides)
    book = cm.write_workbook(cm.build(a), tmp_path / f"{name}.xlsx", created=FIXED)
    out = recalculate(book, tmp_path / "gnumeric")
    cmp = compare_cached_with_recalculated(book, out)
    assert cmp.errors == []
    assert cmp.mismatches == []
    assert _master(out) == "OK"


@pytest.mark.slow
def test_the_history_tier_sheet_is_renamed(tmp_path):
    files, _ = CASES["history-tier"]
    a = cm.load_assumptions(default_assumptions_dir(), *files)
    book = cm.write_workbook(cm.build(a), tmp_path / "h.xlsx", created=FIXED)
    names = openpyxl.load_workbook(book, read_only=True).sheetnames
    assert "History" not in names and any(n.startswith("History") for n in names)
