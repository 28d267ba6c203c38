"""The time and growth rows (methodology §8.1, §8.3) are live formulas.

A staged model (the default with the staged-growth or staged-rebuild overlay, a
construction time, a fractional ramp-up, a server price decline, repair downtime
and a market terminal value) is recalculated by LibreOffice and Gnumeric: every
formula cell equals its cached (engine) value. Then inputs of time and growth are
edited in the Inputs sheet, LibreOffice recalculates, and the Comparison sheet
equals the engine rebuilt with the same change.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
import yaml

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.support.workbooks import (
    assert_comparison_equals,
    assert_recalculation_equals_cache,
    read,
    set_name,
    written,
)

pytestmark = pytest.mark.slow

TIME = {
    "timeline.build_months": 3,
    "timeline.ramp_months": 4.5,
    "terminal_value": "market",
    "depreciation.servers.market_decline": 0.3,
    "depreciation.network.market_decline": 0.25,
    "depreciation.storage.market_decline": 0.3,
    "depreciation.facility.market_decline": 0.05,
    "reliability.repair_hours": 24,
    "servers.h200.price_decline": 0.15,
    "facility.retrofit_premium": 0.3,
    "depreciation.servers.method": "double_declining",
    "depreciation.network.method": "sum_of_years",
}


def staged(overlay: str, extra: Path | None = None, **overrides) -> cm.Assumptions:
    files = [default_assumptions_dir(), scenarios_dir() / f"{overlay}.yaml"]
    return cm.load_assumptions(*files, *([extra] if extra else []), overrides=TIME | overrides)


CASES = {
    "staged-growth": lambda: staged("staged-growth"),
    "staged-rebuild": lambda: staged("staged-rebuild", **{"tiers.tens.timeline.ramp_months": 0}),
}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> dict[str, tuple[cm.Model, Path]]:
    d = tmp_path_factory.mktemp("time")
    return written(d, {name: make() for name, make in CASES.items()})


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_staged_workbook_recalculates_to_the_engine(request, workbooks, case, engine):
    model, path = workbooks[case]
    assert model.results["hundreds"].deployments[1]["month"][0] == 18
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(path, recalculated, 20000, f"{engine} {case}")


@pytest.mark.parametrize("case", list(CASES))
def test_staged_comparison_equals_summary(workbooks, by_libreoffice, case):
    model, _ = workbooks[case]
    assert_comparison_equals(by_libreoffice[case], model.summary())
    cover = read(by_libreoffice[case], data_only=True)["Cover"]
    assert "OK" in {c.value for row in cover.iter_rows() for c in row}


# ----------------------------------------------------------------------------- live edits


def set_tier_input(wb, tier: str, label: str, value) -> None:
    ws = wb["Inputs"]
    header = next(r for r in ws.iter_rows() if r[0].value == "tier")
    col = next(c.column for c in header if c.value == tier)
    row = next(r[0].row for r in ws.iter_rows(min_row=header[0].row) if r[0].value == label)
    ws.cell(row, col).value = value


def set_stage(wb, tier: str, stage: int, field: str, value) -> None:
    """A cell of the Stages table (columns: tier, stage, month, GPUs, TB, FTE)."""
    ws = wb["Inputs"]
    col = 3 + ("month", "gpus", "capacity_tb", "staff_fte").index(field)
    row = next(r[0].row for r in ws.iter_rows() if r[0].value == tier and r[1].value == stage)
    ws.cell(row, col).value = value


def stage_overlay(tmp: Path, month: int, gpus: int) -> Path:
    """The staged-growth overlay with the hundreds tier's stage moved/resized."""
    data = yaml.safe_load((scenarios_dir() / "staged-growth.yaml").read_text(encoding="utf-8"))
    data["tiers"]["hundreds"]["stages"][0] |= {"month": month, "gpus": gpus}
    p = tmp / f"stage-{month}-{gpus}.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return p


#: edit name -> (edit of the workbook, the same change as assumptions)
EDITS = {
    "build months 3 -> 9": (
        lambda wb: set_name(wb, "timeline_build_months", 9),
        lambda tmp: staged("staged-growth", **{"timeline.build_months": 9}),
    ),
    "stage month 18 -> 30": (
        lambda wb: set_stage(wb, "hundreds", 1, "month", 30),
        lambda tmp: staged("staged-growth", stage_overlay(tmp, 30, 64)),
    ),
    "stage GPUs 64 -> 128": (
        lambda wb: set_stage(wb, "hundreds", 1, "gpus", 128),
        lambda tmp: staged("staged-growth", stage_overlay(tmp, 18, 128)),
    ),
    "reserve headroom off": (
        lambda wb: set_tier_input(wb, "hundreds", "Hall built for the final size (1/0)", 0),
        lambda tmp: staged("staged-growth", **{"tiers.hundreds.reserve_headroom": False}),
    ),
    "servers' market decline 0.3 -> 0.5": (
        lambda wb: set_name(wb, "dep_servers_market_decline", 0.5),
        lambda tmp: staged("staged-growth", **{"depreciation.servers.market_decline": 0.5}),
    ),
}


@pytest.fixture(scope="module")
def edited(soffice, recalc, workbooks, tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("edits")
    _, base = workbooks["staged-growth"]
    paths = []
    for i, (edit, _) in enumerate(EDITS.values()):
        wb = openpyxl.load_workbook(base)
        edit(wb)
        paths.append(d / f"edit{i}.xlsx")
        wb.save(paths[-1])
    return dict(zip(EDITS, recalc.libreoffice(paths), strict=True))


@pytest.mark.parametrize("edit", list(EDITS))
def test_live_edit_equals_engine_rebuilt(edited, workbooks, edit, tmp_path):
    expected = cm.build(EDITS[edit][1](tmp_path)).summary()
    before = workbooks["staged-growth"][0].summary()
    assert expected.loc["hundreds", "npv"] != pytest.approx(before.loc["hundreds", "npv"])
    assert_comparison_equals(edited[edit], expected)
    cover = read(edited[edit], data_only=True)["Cover"]
    assert "OK" in {c.value for row in cover.iter_rows() for c in row}
