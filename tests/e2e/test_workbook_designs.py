"""The workbook of a file with scale-class designs (methodology §28): LibreOffice
and Gnumeric recalculate every cell to the engine's cached value, the storage block
(nodes from GPUs and the per-GPU targets, bandwidth-bound and capacity-bound counts
side by side, the capacity tier) and the rent by cooling included; an edit of a
tier's GPUs recalculates to the engine rebuilt with those GPUs, across a class
boundary too (the design switches: storage nodes, cooling and so PUE and rent, rack
power, staff, MFU and the rail-optimised leaves follow); a storage node that writes
nothing, a design whose network has another form, and GPUs beyond the design's
limit fail the workbook's check."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

import costmodel as cm
from tests.paths import DATA
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    set_name,
    written,
)
from tests.support.workbooks import master_check as master

pytestmark = pytest.mark.slow

DESIGNS = DATA / "designs.yaml"
#: the held-out cases (tests/reference): a stage across the tens/hundreds boundary, a
#: rail-optimised staged hall with a capacity tier, a named design with its own cooling
HELDOUT = DATA / "heldout-designs.yaml"
#: 256 + 64 GPUs of the hundreds design: writes 80 / 12.5 -> 7 nodes (were 4)
EDIT = ("input.tiers.hundreds.gpus", 256, {"tiers.hundreds.gpus": 256})
FAULT = ("input.designs.thousands.storage.node.write_gbps", 0)
#: 480 + 64 GPUs: the hundreds tier is rebuilt on the thousands design
CROSS = ("input.tiers.hundreds.gpus", 480, {"tiers.hundreds.gpus": 480})
#: 72 GPUs take the hundreds design, whose network is a fabric (the sheet has a share)
OTHER_FORM = ("input.tiers.tens.gpus", 72)
#: a thousands design that holds 512 GPUs, under a tier of 1,024
TOO_SMALL = ("input.designs.thousands.max_gpus", 512)


CASES = {"designs": DESIGNS, "heldout": HELDOUT}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("designs")
    return written(d, {name: cm.load_assumptions(path) for name, path in CASES.items()})


def test_the_sheets_show_the_storage_block(workbooks):
    wb = openpyxl.load_workbook(workbooks["designs"][1])
    labels = [str(r[0].value) for r in wb["thousands"].iter_rows(max_col=1)]
    assert "deployment 0: storage: bandwidth-bound nodes = MAX(min nodes, writes, reads)" in labels
    assert "deployment 0: storage: capacity-bound nodes = TB needed / node TB, rounded up" in labels


@pytest.mark.parametrize("name", ["designs", "heldout"])
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_engine_reproduces_every_cached_value(request, workbooks, engine, name):
    recalculated = request.getfixturevalue(f"by_{engine}")[name]
    assert_recalculation_equals_cache(workbooks[name][1], recalculated, 20000, engine)


@pytest.mark.parametrize(
    ("name", "designs"),
    [("designs", ["tens", "hundreds", "thousands"]),
     ("heldout", ["tens", "hundreds", "thousands", "hundreds"])],
)  # fmt: skip
def test_comparison_and_master_check(by_libreoffice, workbooks, name, designs):
    summary = workbooks[name][0].summary()
    assert list(summary["design"]) == designs
    assert_comparison_equals(by_libreoffice[name], summary)
    assert master(by_libreoffice[name]) == "OK"


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
    for n, (cell, v, *_) in enumerate((CROSS, OTHER_FORM, TOO_SMALL)):
        wb = openpyxl.load_workbook(workbooks["designs"][1])
        set_name(wb, cell, v)
        paths.append(d / f"edit{n}.xlsx")
        wb.save(paths[-1])
    model = cm.build(cm.load_assumptions(DESIGNS, overrides=override))
    return model, recalc.libreoffice(paths), recalc.gnumeric([paths[0], paths[2]])


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


def test_an_edit_across_a_class_boundary_switches_the_design(edited):
    """The engine built with 480 + 64 GPUs takes the thousands design; both
    spreadsheets' recalculations of the edited workbook equal it in every column."""
    _, lo, gn = edited
    s = cm.build(cm.load_assumptions(DESIGNS, overrides=CROSS[2])).summary()
    before = cm.build(cm.load_assumptions(DESIGNS)).summary()
    assert before.loc["hundreds", "design"] == "hundreds"
    row = s.loc["hundreds"]
    assert (row["design"], row["cooling"], row["rack_kw"]) == ("thousands", "cold_plate", 60)
    # thousands storage at 544 GPUs: writes 136 / 20 -> 7 nodes, reads 272 / 40 -> 7
    assert row["storage_nodes"] == 7 and row["storage_write_gbps"] == 140
    for path in (lo[2], gn[1]):
        assert_comparison_equals(path, s)
    assert master(lo[2]) == "OK"
    inputs = openpyxl.load_workbook(lo[2], data_only=True)["Inputs"]
    taken = next(r for r in inputs.iter_rows() if str(r[0].value).startswith("Design taken"))
    assert [c.value for c in taken[2:5]] == ["tens", "thousands", "thousands"]


def test_a_node_writing_nothing_fails_the_check(edited):
    _, lo, _ = edited
    assert master(lo[1]) != "OK"


def failing_checks(path: Path) -> list[str]:
    ws = openpyxl.load_workbook(path, data_only=True)["Checks"]
    return [str(r[0].value) for r in ws.iter_rows(max_col=7) if r[6].value == "ERROR"]


def test_a_design_of_another_network_form_fails_the_check(edited):
    _, lo, _ = edited
    assert master(lo[3]) != "OK"
    assert any("design taken gives" in c for c in failing_checks(lo[3]))


def test_gpus_beyond_the_designs_limit_fail_the_check(edited):
    _, lo, _ = edited
    assert master(lo[4]) != "OK"
    assert any("largest cluster of the design" in c for c in failing_checks(lo[4]))
