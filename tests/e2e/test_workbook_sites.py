"""Sites in the workbook (methodology §29): the default with two sites, its
thousands tier at a western site whose grid it exceeds in build mode (a connection
at month 0 and its lead time) and whose price factor lowers the GPU-hour price, is
recalculated by LibreOffice and Gnumeric to the engine's numbers; then a site's
power price and a tier's site are edited in the Inputs sheet and LibreOffice's
Comparison equals the engine rebuilt with the same change."""

from __future__ import annotations

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

pytestmark = pytest.mark.slow

BUILD = {
    "facility.mode": "build",
    "sites.west.grid_mw": 1.0,
    "sites.west.grid_connection_per_mw": 2_500_000,
    "sites.west.grid_lead_months": 6,
    "tiers.thousands.site": "west",
}


def assumptions(**more) -> cm.Assumptions:
    return cm.load_assumptions("default", DATA / "two-sites.yaml", overrides=BUILD | more)


def colocated(**more) -> cm.Assumptions:
    """The two sites in colocation mode, the thousands tier at the west."""
    over = {"tiers.thousands.site": "west"} | more
    return cm.load_assumptions("default", DATA / "two-sites.yaml", overrides=over)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory):
    # "rent": colocation mode, the site's rent by cooling
    return written(tmp_path_factory.mktemp("sites"), {"sites": assumptions(), "rent": colocated()})


def test_the_case_uses_the_grid_and_the_price_factor(workbooks):
    model, _ = workbooks["sites"]
    s = model.summary().loc["thousands"]
    assert s["site"] == "west" and s["facility_mw"] > 1.0
    # the connection (P - 1 MW) x 2.5M sits in the facility capex at month 0
    assert model.capex("thousands").loc[0, "facility"] > (s["facility_mw"] - 1.0) * 2_500_000


@pytest.mark.parametrize("case", ["sites", "rent"])
@pytest.mark.parametrize("engine", ["libreoffice", "gnumeric"])
def test_the_sites_workbook_recalculates_to_the_engine(request, workbooks, engine, case):
    model, path = workbooks[case]
    recalculated = request.getfixturevalue(f"by_{engine}")[case]
    assert_recalculation_equals_cache(path, recalculated, 20000, f"{engine} {case}")
    assert_comparison_equals(recalculated, model.summary())


def set_tier_site(wb, tier: str, site: str) -> None:
    ws = wb["Inputs"]
    header = next(r for r in ws.iter_rows() if r[0].value == "tier")
    col = next(c.column for c in header if c.value == tier)
    path_col = next(c.column for c in header if c.value == "path")
    rows = ws.iter_rows(min_row=header[0].row)
    row = next(r[0].row for r in rows if r[path_col - 1].value == "tiers.<tier>.site")
    ws.cell(row, col).value = site


EDITS = {
    "the west site's power price 0.38 -> 0.30": (
        lambda wb: set_name(wb, "input.sites.west.power.price_per_kwh", 0.30),
        {"sites.west.power.price_per_kwh": 0.30},
    ),
    "the hundreds tier moved to the west": (
        lambda wb: set_tier_site(wb, "hundreds", "west"),
        {"tiers.hundreds.site": "west"},
    ),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edit_of_a_site_follows_the_engine(soffice, recalc, workbooks, tmp_path, name):
    edit, overrides = EDITS[name]
    _, path = workbooks["sites"]
    wb = openpyxl.load_workbook(path)
    edit(wb)
    changed = tmp_path / "changed.xlsx"
    wb.save(changed)
    (out,) = recalc.libreoffice([changed])
    expected = cm.build(assumptions(**overrides)).summary()
    before = workbooks["sites"][0].summary()
    assert not all(expected["npv"] == before["npv"])  # the edit moves a number
    assert_comparison_equals(out, expected)


def test_an_edit_of_a_sites_rent_follows_the_engine(soffice, recalc, workbooks, tmp_path):
    """Colocation mode: the west site's rent of the thousands tier's cooling, edited in
    the Sites block, reaches that tier's colocation line as in the engine."""
    model, path = workbooks["rent"]
    cooling = model.assumptions.tiers["thousands"].cooling
    key = f"sites.west.colocation_per_kw_month.{cooling}"
    wb = openpyxl.load_workbook(path)
    set_name(wb, f"input.{key}", 420.0)
    changed = tmp_path / "rent.xlsx"
    wb.save(changed)
    (out,) = recalc.libreoffice([changed])
    expected = cm.build(colocated(**{key: 420.0})).summary()
    before = model.summary()
    assert not all(expected["npv"] == before["npv"])  # the edit moves a number
    assert_comparison_equals(out, expected)
