"""The opex of the first full operating year (methodology §4, ``opex_full_year``).

For the hand case (tests/data/hand.yaml) over three years, with escalating power
and staff so that every model year's opex differs, built in B months: the first
full operating year is found here by walking the calendar (the first model year
whose first month comes after the first deployment enters service, at B + 1),
and the metric is that row of the model's annual opex table and the sum of those
twelve months of the monthly opex schedule: independent of the engine's
``ceil(B/12) + 1``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import costmodel as cm
from costmodel.core.engine import run_tier
from costmodel.inputs.params import resolve_tier
from tests.paths import HAND

YEARS = 3
BUILDS = (0, 4, 11, 12, 13, 24, 30)


def built(build: int) -> cm.Model:
    return cm.build(
        cm.load_assumptions(
            HAND,
            overrides={
                "horizon_years": YEARS,
                "timeline.build_months": build,
                "operations.staff_escalation": 0.05,
                "power.escalation": 0.03,
            },
        )
    )


def first_full_year(build: int) -> int:
    """The first model year y (months 12(y-1)+1 .. 12y) all of whose months are in
    service: its first month is on or after B + 1."""
    y = 1
    while 12 * (y - 1) + 1 < build + 1:
        y += 1
    return y


@pytest.mark.parametrize("build", BUILDS)
def test_opex_full_year_is_the_annual_opex_of_the_first_full_year(build):
    model = built(build)
    s = model.summary().loc["small"]
    year = first_full_year(build)
    if year > YEARS:  # 30 months of construction: no full year within three
        assert math.isnan(s["opex_full_year"]) and math.isnan(s["opex_full_year_number"])
        return
    assert s["opex_full_year_number"] == year
    annual = model.annual("small")["opex"]
    assert s["opex_full_year"] == pytest.approx(annual.loc[year], rel=1e-12)
    monthly = model.opex("small")["total"]
    twelve = monthly.loc[12 * (year - 1) + 1 : 12 * year]
    assert len(twelve) == 12
    assert s["opex_full_year"] == pytest.approx(twelve.sum(), rel=1e-12)
    # year 1 is the first year only when nothing is built first
    assert (s["opex_full_year"] == s["opex_year1"]) == (build == 0)


def test_a_year_of_construction_shows_only_payroll_in_year_1():
    """The case the metric is for: built over the whole first year, year 1 is
    staff alone (2 FTE at 600,000, no escalation in year 1), while the first full
    operating year carries every line."""
    model = built(12)
    s = model.summary().loc["small"]
    assert s["opex_year1"] == pytest.approx(2 * 600_000)
    lines = model.opex("small").loc[13:24]
    assert (lines[["electricity", "maintenance", "software"]].sum() > 0).all()
    assert s["opex_full_year"] == pytest.approx(lines["total"].sum(), rel=1e-12)


def test_every_build_at_once_equals_each_alone():
    """Variants with different construction months (one run, grouped by timing)
    give each variant's own first full year and opex, as built alone."""
    ti = resolve_tier(built(0).assumptions, "small")
    values = ti.params().varied({"build_months": np.array(BUILDS, dtype=float)})
    together = run_tier(values, ti.config).metrics
    for i, build in enumerate(BUILDS):
        alone = built(build).summary().loc["small"]
        if math.isnan(alone["opex_full_year"]):
            assert math.isnan(together["opex_full_year"][i])
            assert math.isnan(together["opex_full_year_number"][i])
            assert math.isnan(alone["opex_full_year_number"])
        else:
            assert together["opex_full_year_number"][i] == alone["opex_full_year_number"]
            assert together["opex_full_year"][i] == pytest.approx(
                alone["opex_full_year"], rel=1e-12
            )
