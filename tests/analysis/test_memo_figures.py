"""The figures the memo's growth, financing and timing sentences quote, computed
in analysis/: growth options (capex before revenue, the hall early and later), the loan's table and the
timeline. Expected values are read from the model's schedules, independently of
the code under test."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import costmodel as cm
from costmodel.analysis.financing import financing_table
from costmodel.analysis.growth import growth_options
from costmodel.analysis.timeline import timeline_table
from tests.paths import ROOT

DEFAULT = ROOT / "assumptions" / "default"
SCENARIOS = ROOT / "assumptions" / "scenarios"


def test_capex_before_revenue_and_the_hall_in_time():
    over = {"timeline.build_months": 4, "facility.retrofit_premium": 0.35}
    a = cm.load_assumptions(DEFAULT, SCENARIOS / "staged-rebuild.yaml", overrides=over)
    g = growth_options(a).loc["hundreds"]
    m = cm.build(a)  # staged-rebuild: the model is the staged_rebuild option
    capex = m.capex("hundreds")
    r = g.loc["staged_rebuild"]
    assert r["initial_month"] == 4
    assert r["capex_initial"] == pytest.approx(capex["total"].iloc[:5].sum())
    assert r["capex_month0"] == pytest.approx(capex["total"].iloc[0])
    assert r["facility_month0"] == pytest.approx(capex["facility"].iloc[0])
    assert r["facility_later"] == pytest.approx(capex["facility"].iloc[1:].sum())
    # the extension is the stage's kW at the build cost plus the premium
    h = g.loc["staged_headroom"]
    early = h["facility_month0"] - r["facility_month0"]
    assert r["facility_later"] == pytest.approx(early * 1.35)
    assert h["facility_later"] == 0
    # at the break-even premium the two stagings have the same NPV
    be = r["breakeven_premium"]
    at_be = cm.with_overrides(a, {"facility.retrofit_premium": float(be)})
    assert cm.build(at_be).summary().loc["hundreds", "npv"] == pytest.approx(h["npv"], abs=1.0)


def test_financing_table_reads_the_model():
    a = cm.load_assumptions(DEFAULT, SCENARIOS / "bank-loan.yaml")
    m = cm.build(a)
    d = financing_table(m)
    s = m.summary()
    for t in m.tiers:
        y = m.annual(t)
        y = y[y["debt_service"] > 0]
        dscr = y["cfads"] / y["debt_service"]
        r = d.loc[t]
        assert r["min_dscr"] == pytest.approx(dscr.min())
        assert r["min_dscr_year"] == dscr.idxmin()
        assert r["breach_years"] == (dscr < 1.2).sum()
        assert r["headroom"] == pytest.approx(dscr.min() - 1.2)
        for c in ("equity_npv", "equity_irr", "debt_peak", "peak_funding", "npv"):
            assert r[c] == pytest.approx(s.loc[t, c], nan_ok=True)
        assert (r["debt_share"], r["interest_rate"], r["term_years"]) == (0.6, 0.045, 5)
        assert r["debt_drawn"] == pytest.approx(0.6 * m.capex(t)["total"].sum())
    assert financing_table(cm.load_assumptions(DEFAULT)).empty


def test_timeline_table():
    over = {
        "timeline.build_months": 5,
        "timeline.ramp_months": 2.5,
        "finance.loss_carryforward_years": 3,
        "terminal_value": "book",
        # the default's tiers with their own construction time build in 5 months here
        "tiers.tens.timeline.build_months": 5,
        "tiers.thousands.timeline.build_months": 5,
    }
    m = cm.build(cm.load_assumptions(DEFAULT, overrides=over))
    d = timeline_table(m)
    month0 = pd.Period(m.assumptions.start, freq="M") - 1
    for t in m.tiers:
        r = d.loc[t]
        revenue = m.cash_flow(t)["revenue"]
        assert r["revenue_month"] == 6 == revenue[revenue > 0].index[0]
        assert r["full_month"] == 5 + math.ceil(2.5)
        assert r["revenue_period"] == str(month0 + 6)
        assert r["loss_expired"] == pytest.approx(m.annual(t)["loss_expired"].sum())
        assert r["terminal_value"] == pytest.approx(r["book_value"])  # book: the NBV
        assert r["peak_funding"] == pytest.approx(m.summary().loc[t, "peak_funding"])
