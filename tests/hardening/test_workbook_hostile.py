"""Workbooks of hostile-but-valid inputs (issue 16): LibreOffice's recalculation
equals the cached values, nothing is an error, the master check reads OK; defined
names are unique and within Excel's limit; no tier name is a chart reference."""

from __future__ import annotations

import re
import zipfile
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from tests.support.workbooks import compare_cached_with_recalculated, read

CORPUS = Path(__file__).parent / "corpus"
FIXED = datetime(2026, 1, 1)

CASES = {
    "reference-like-tiers": ([CORPUS / "reference-like-tiers.yaml"], {}),
    "formula-tier-names": ([CORPUS / "formula-tier-names.yaml"], {}),
    "dotted-tier": ([CORPUS / "dotted-tier.yaml"], {}),
    "price-decline-one": ([], {"revenue.price_decline": 1}),
    # server prices fall 100% a year too, bought at month 0: (1 - 1)^(0/12) (issue 31)
    "extreme-declines-one": ([CORPUS / "extreme-declines-one.yaml"], {}),
    "apostrophe-tier": ([CORPUS / "apostrophe-tier.yaml"], {}),
    # no GPU-hours sold: cost per GPU-hour has no denominator (the Checks stamp
    # wrote it as a NaN number, which XlsxWriter refuses)
    "utilization-zero": ([], {"operations.utilization": 0}),
}


@pytest.fixture(scope="module")
def books(soffice, recalc, tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    d = tmp_path_factory.mktemp("hostile")
    written = {}
    for name, (files, overrides) in CASES.items():
        a = cm.load_assumptions(default_assumptions_dir(), *files, overrides=overrides)
        written[name] = cm.write_workbook(cm.build(a), d / f"{name}.xlsx", created=FIXED)
    outs = recalc.libreoffice(written.values())
    return {n: (written[n], o) for n, o in zip(written, outs, strict=True)}


def _master(path: Path) -> object:
    cover = read(path, data_only=True)["Cover"]
    for row in cover.iter_rows():
        if row[0].value == "Master check":
            return row[1].value
    return None


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_recalculation_equals_cache_and_checks_pass(books, name, soffice):
    original, recalculated = books[name]
    cmp = compare_cached_with_recalculated(original, recalculated)
    assert cmp.errors == []
    assert cmp.mismatches == []
    assert _master(recalculated) == "OK"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_names_and_chart_references(books, name):
    original, _ = books[name]
    with zipfile.ZipFile(original) as z:
        book = z.read("xl/workbook.xml").decode()
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    names = re.findall(r'<definedName name="([^"]*)"(?: localSheetId="(\d+)")?', book)
    keys = [(n.lower(), sheet) for n, sheet in names]
    assert len(keys) == len(set(keys)), "a defined name twice"
    assert all(len(n) <= 255 for n, _ in names)
    sheets = openpyxl.load_workbook(original, read_only=True).sheetnames
    for formula in (f for c in charts for f in re.findall(r"<c:f>([^<]*)</c:f>", c)):
        sheet = formula.rsplit("!", 1)[0]
        sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
        assert sheet in sheets, f"chart formula {formula!r} names no sheet"
