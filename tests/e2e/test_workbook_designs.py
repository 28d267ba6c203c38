"""The workbook of a file with scale-class designs (methodology §28): LibreOffice
and Gnumeric recalculate every cell to the engine's cached value, the storage block
(nodes from GPUs and the per-GPU targets, bandwidth-bound and capacity-bound counts
side by side, the capacity tier) and the rent by cooling included; an edit of a
tier's GPUs recalculates to the engine rebuilt with those GPUs; a storage node that
writes nothing fails the workbook's check."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from tests.e2e.test_workbook_recalc import assert_comparison_equals
from tests.paths import DATA
from tests.support.workbooks import assert_recalculation_equals_cache, set_name

pytestmark = pytest.mark.slow

FIXED = datetime(2026, 1, 1)
DESIGNS = DATA / "designs.yaml"
#: 256 + 64 GPUs of the hundreds design: writes 80 / 12.5 -> 7 nodes (were 4)
EDIT = ("input.tiers.hundreds.gpus", 256, {"tiers.hundreds.gpus": 256})
FAULT = ("input.tiers.thousands.storage.node.write_gbps", 0)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("designs")
    model = cm.build(cm.load_assumptions(DESIGNS))
    return {"designs": (model, cm.write_workbook(model, d / "designs.xlsx", created=FIXED))}


def master(path: Path) -> object:
    cover = openpyxl.load_workbook(path, data_only=True)["Cover"]
    return next(r for r in cover.iter_rows() if r[0].value == "Master check")[1].value


def test_the_sheets_show_the_storage_block(workbooks):
    wb = openpyxl.load_workbook(workbooks["designs"][1])
    labels = [str(r[0].value) for r in wb["thousands"].iter_rows(max_col=1)]
    assert "deployment 0: storage: bandwidth-bound nodes = MAX(min nodes, writes, reads)" in labels
    assert "deployment 0: storage: capacity-bound nodes = TB needed / node TB, rounded up" in labels


@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, engine):
    recalculated = request.getfixturevalue(f"by_{engine}")["designs"]
    assert_recalculation_equals_cache(workbooks["designs"][1], recalculated, 20000, engine)


def test_comparison_and_master_check(by_libreoffice, workbooks):
    summary = workbooks["designs"][0].summary()
    assert list(summary["design"]) == ["tens", "hundreds", "thousands"]
    assert_comparison_equals(by_libreoffice["designs"], summary)
    assert master(by_libreoffice["designs"]) == "OK"


@pytest.fixture(scope="module")
def edited(workbooks, recalc, soffice, ssconvert, tmp_path_factory):
    d = tmp_path_factory.mktemp("designs-edits")
    name, value, override = EDIT
    wb = openpyxl.load_workbook(workbooks["designs"][1])
    set_name(wb, name, value)
    paths = [d / "gpus.xlsx"]
    wb.save(paths[0])
    wb = openpyxl.load_workbook(workbooks["designs"][1])
    set_name(wb, *FAULT)
    paths.append(d / "fault.xlsx")
    wb.save(paths[1])
    model = cm.build(cm.load_assumptions(DESIGNS, overrides=override))
    return model, recalc.libreoffice(paths), recalc.gnumeric(paths[:1])


def test_an_edit_of_gpus_recalculates_to_the_engine_rebuilt(edited):
    model, lo, gn = edited
    s = model.summary()
    assert (s.loc["hundreds", "storage_nodes"], s.loc["hundreds", "storage_write_gbps"]) == (
        7,
        87.5,
    )
    for path in (lo[0], gn[0]):
        assert_comparison_equals(path, s)
    assert master(lo[0]) == "OK"


def test_a_node_writing_nothing_fails_the_check(edited):
    _, lo, _ = edited
    assert master(lo[1]) != "OK"
