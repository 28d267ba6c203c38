"""The workbook prints: LibreOffice converts the default's workbook, built with an
analysis (two scenarios, Monte Carlo), to PDF on at most 60 A4 pages (the tier
sheets print their labels, units, constants and totals; their months are an
outline group outside the print area), and the first page is the Cover."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.inputs.resources import scenarios_dir
from costmodel.report.workbook.book import write_workbook
from tests.support.libreoffice import recalculate, soffice

pytestmark = pytest.mark.slow


def test_workbook_prints_on_at_most_70_a4_pages(tmp_path):
    if soffice() is None or shutil.which("pdfinfo") is None:
        pytest.skip("LibreOffice or pdfinfo is not installed")
    model = cm.build(cm.load_assumptions())
    an = analyze(
        model,
        draws=500,
        scenarios={
            "downside": scenarios_dir() / "downside.yaml",
            "upside": scenarios_dir() / "upside.yaml",
        },
    )
    book = write_workbook(model, tmp_path / "model.xlsx", analysis=an)
    pdf = recalculate(book, tmp_path / "pdf", "pdf")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    # 64 with the designs table, the quotes, sites and subsidy blocks of spec v4
    assert 10 <= pages <= 70, pages
    first = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True
    ).stdout
    assert "investor model" in first


def test_printed_sheets_cut_no_label_and_show_no_hashes(tmp_path):
    """LibreOffice prints every row label of the tier sheets whole (a long one
    wraps onto a taller row instead of being cut at the unit column) and the IRR
    sheet's NPV grid without ``###`` (its values near a rate of -100% are printed in
    scientific notation)."""
    if soffice() is None or shutil.which("pdftotext") is None:
        pytest.skip("LibreOffice or pdftotext is not installed")
    import openpyxl

    model = cm.build(cm.load_assumptions())
    book = write_workbook(model, tmp_path / "model.xlsx")
    pdf = recalculate(book, tmp_path / "pdf", "pdf")
    text = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    printed = " ".join(text.split())
    assert "###" not in printed
    ws = openpyxl.load_workbook(book, read_only=True)["tens"]
    labels = [
        str(row[0])
        for row in ws.iter_rows(min_row=2, max_col=2, values_only=True)
        if isinstance(row[0], str) and row[1] is not None and len(row[0]) > 60
    ]
    assert len(labels) > 20  # the long labels of the default's tier sheet
    cut = [label for label in labels if " ".join(label.split()) not in printed]
    assert cut == []
