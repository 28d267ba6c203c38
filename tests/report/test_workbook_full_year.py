"""The workbook's opex of the first full operating year (methodology §4): the
Comparison rows are live formulas (the year from the first deployment's capex
month on the tier sheet, the opex a SUMIFS of that year) whose cached values
are the engine's; the opex chart's block is that year's lines; past the
horizon the cells are empty."""

from __future__ import annotations

import math

import pytest

import costmodel as cm
from costmodel.core.result import OPEX_LINES
from tests.paths import HAND

OPEX = "Opex, first full operating year"
YEAR = "First full operating year"


def rows_by_label(ws) -> dict[str, int]:
    return {ws.cell(r, 1).value: r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value}


def test_comparison_caches_the_engines_full_year(default_workbook, default_book, default_values):
    model, _ = default_workbook
    formulas, values = default_book["Comparison"], default_values["Comparison"]
    at = rows_by_label(formulas)
    s = model.summary()
    for j, tier in enumerate(model.tiers):
        col = 3 + j
        assert values.cell(3, col).value == tier
        year = values.cell(at[YEAR], col).value
        # the engine's year and its opex, read off the model's annual table
        assert year == s.loc[tier, "opex_full_year_number"]
        annual = model.annual(tier)["opex"]
        assert values.cell(at[OPEX], col).value == pytest.approx(annual.loc[year], rel=1e-12)
        assert values.cell(at[OPEX], col).value == pytest.approx(
            s.loc[tier, "opex_full_year"], rel=1e-12
        )
        # live: the year from the tier sheet's first capex month, the opex a SUMIFS of it
        y = formulas.cell(at[YEAR], col).value
        assert y.startswith("=IF(ROUNDUP(") and "/12,0)+1" in y and "!" in y
        assert ">model_months/12" in y  # empty past the horizon
        opex = formulas.cell(at[OPEX], col).value
        assert "SUMIFS(" in opex and formulas.cell(at[YEAR], col).coordinate in opex
        # the chart block: the year's lines add up to the year's opex
        lines = [values.cell(at[f"opex: {line}, first full operating year"], col).value
                 for line in OPEX_LINES]  # fmt: skip
        assert sum(lines) == pytest.approx(annual.loc[year], rel=1e-12)


def test_no_full_year_within_the_horizon_is_empty(written_workbook):
    """Built over 4 months of a one-year horizon: no full operating year, so both
    cells are empty (the engine's NaN): a year 2 is no year of a one-year model."""
    import openpyxl

    def make() -> cm.Assumptions:
        return cm.load_assumptions(
            HAND, overrides={"timeline.build_months": 4, "timeline.ramp_months": 0}
        )

    model, path = written_workbook("hand-build-4", make)
    assert math.isnan(model.summary().loc["small", "opex_full_year"])
    ws = openpyxl.load_workbook(path, data_only=True)["Comparison"]
    at = rows_by_label(ws)
    assert math.isnan(model.summary().loc["small", "opex_full_year_number"])
    assert ws.cell(at[YEAR], 3).value in (None, "")
    assert ws.cell(at[OPEX], 3).value in (None, "")
    assert ws.cell(at["opex: staff, first full operating year"], 3).value in (None, "")
