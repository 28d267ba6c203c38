"""The round trip (issue 32): build, edit the workbook, import, build again.

The reference is the edited workbook itself, recalculated by LibreOffice (and by
Gnumeric): the overlay the import writes, layered on the base by
``costmodel summary default OVERLAY``, gives the NPV and TCO of every tier that
the recalculated Comparison sheet shows (relative 1e-9). A workbook opened and
saved by LibreOffice or by Gnumeric imports to the same overlay, with no cell
taken for a plug.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
import yaml
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.report.workbook.book import SUMMARY_COLUMNS
from costmodel.report.workbook.inputsmap import input_name
from tests.support import gnumeric
from tests.support.libreoffice import recalculate_many
from tests.support.workbooks import set_name

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
app = get_app()
runner = CliRunner()

#: the issue's edits: the spot price, the power price, the utilization
THREE = {
    "revenue.price_per_gpu_hour": 21.5,
    "power.price_per_kwh": 0.58,
    "operations.utilization": 0.72,
}
#: and edits of the tier table: a linked cell typed over, GPUs, a server price
TIERS = {
    **THREE,
    "tiers.tens.operations.utilization": 0.65,
    "tiers.hundreds.gpus": 256,
    "servers.h800.price": 2_000_000,
}


def edit(src: Path, dst: Path, edits: dict[str, object]) -> Path:
    wb = openpyxl.load_workbook(src)
    for path, value in edits.items():
        set_name(wb, input_name(tuple(path.split("."))), value)
    wb.save(dst)
    return dst


@pytest.fixture(scope="module")
def books(soffice, ssconvert, tmp_path_factory) -> dict[str, Path]:
    """The default's workbook edited (openpyxl), and the edited workbooks opened,
    recalculated and saved by LibreOffice and by Gnumeric."""
    d = tmp_path_factory.mktemp("roundtrip")
    src = cm.write_workbook(cm.build(cm.load_assumptions()), d / "model.xlsx", created=FIXED)
    out = {"plain": src}
    for name, edits in (("three", THREE), ("tiers", TIERS)):
        out[name] = edit(src, d / f"{name}.xlsx", edits)
    names = ["plain", "three", "tiers"]
    for name, p in zip(names, recalculate_many([out[n] for n in names], d / "lo"), strict=True):
        out[f"{name}-lo"] = p
    for name in names:
        out[f"{name}-gnumeric"] = gnumeric.recalculate(out[name], d / "gnumeric")
    return out


def comparison(path: Path, metric: str) -> dict[str, float]:
    """``metric`` of each tier on the recalculated Comparison sheet."""
    ws = openpyxl.load_workbook(path, data_only=True)["Comparison"]
    header = [c.value for c in ws[3]]
    row = 4 + SUMMARY_COLUMNS.index(metric)
    return {header[2 + j]: ws.cell(row, 3 + j).value for j in range(len(header) - 2)
            if header[2 + j] is not None and header[2 + j] != "unit"}  # fmt: skip


def imported_summary(book: Path, tmp: Path) -> tuple[dict, dict]:
    """``costmodel import BOOK -o overlay.yaml`` then ``costmodel summary default
    overlay.yaml``: the overlay and the summary as JSON."""
    overlay = tmp / f"{book.stem}.yaml"
    result = runner.invoke(app, ["import", str(book), "-o", str(overlay)])
    assert result.exit_code == 0, result.output
    summary = runner.invoke(app, ["summary", "default", str(overlay), "--format", "json"])
    assert summary.exit_code == 0, summary.output
    return yaml.safe_load(overlay.read_text(encoding="utf-8")), json.loads(summary.stdout)


def leaf_paths(node: object, prefix: str = "") -> set[str]:
    if isinstance(node, dict) and "value" not in node:
        out: set[str] = set()
        for k, v in node.items():
            out |= leaf_paths(v, f"{prefix}.{k}" if prefix else k)
        return out
    return {prefix}


@pytest.mark.parametrize("case", ["three", "tiers"])
def test_overlay_rebuilds_to_the_libreoffice_recalculation(books, tmp_path, case):
    overlay, summary = imported_summary(books[case], tmp_path)
    assert leaf_paths(overlay) == set(THREE if case == "three" else TIERS)
    for dotted in leaf_paths(overlay):
        node = overlay
        for k in dotted.split("."):
            node = node[k]
        # the input's own note is kept, the change appended after " | " (README)
        change = node["note"].rpartition(" | ")[2]
        assert change.startswith(f"changed in {case}.xlsx on ")
        if not dotted.startswith("tiers."):  # a tier's new own value has no source of its own
            assert node["source"]
    for metric in ("npv", "tco"):
        recalculated = comparison(books[f"{case}-lo"], metric)
        assert set(recalculated) == set(summary)
        for tier, value in recalculated.items():
            assert math.isclose(summary[tier][metric], value, rel_tol=1e-9), (tier, metric)
    # the edits moved the result: the comparison is not of the unedited model
    plain = comparison(books["plain-lo"], "npv")
    assert all(not math.isclose(plain[t], summary[t]["npv"], rel_tol=1e-6) for t in plain)


@pytest.mark.parametrize("engine", ["lo", "gnumeric"])
@pytest.mark.parametrize("case", ["plain", "three", "tiers"])
def test_a_workbook_saved_by_another_engine_imports_the_same(books, engine, case):
    direct, report = cm.import_workbook(books[case])
    again, report_again = cm.import_workbook(books[f"{case}-{engine}"])
    assert [c.path for c in report_again.changes] == [c.path for c in report.changes]
    for c, d in zip(report.changes, report_again.changes, strict=True):
        assert (c.value, c.was, c.cell) == (d.value, d.was, d.cell)
    assert report_again.plugs == [] and report_again.warnings == []
    assert leaf_paths(again) == leaf_paths(direct)
    assert report_again.fingerprint_matches


def test_gnumeric_recalculation_agrees_too(books, tmp_path):
    _, summary = imported_summary(books["tiers-gnumeric"], tmp_path)
    for metric in ("npv", "tco"):
        for tier, value in comparison(books["tiers-gnumeric"], metric).items():
            assert math.isclose(summary[tier][metric], value, rel_tol=1e-9), (tier, metric)


def test_a_plug_in_a_libreoffice_saved_workbook_is_named(books, soffice, tmp_path):
    wb = openpyxl.load_workbook(books["plain"])
    ws = wb["hundreds"]
    cell = next(c for row in ws.iter_rows(min_row=20) for c in row
                if isinstance(c.value, str) and c.value.startswith("="))  # fmt: skip
    cell.value = 1.0
    plugged = tmp_path / "plugged.xlsx"
    wb.save(plugged)
    (saved,) = recalculate_many([plugged], tmp_path / "lo")
    overlay, report = cm.import_workbook(saved)
    assert overlay == {}
    assert report.plugs == [f"hundreds!{cell.coordinate}"]
