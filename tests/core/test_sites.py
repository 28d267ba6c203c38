"""Sites (methodology §29) against the hand case (tests/data/hand.yaml): which value
a tier reads, the colocation limit, the grid connection and the price factor.

The hand case: 16 GPUs in two 10 kW servers, aux 10% (22 kW IT), air PUE 1.5
(P = 22 * 1.5 / 1000 = 0.033 MW), build 10,000/kW, 1.0 CNY/kWh, tax 25%, one year.
"""

from __future__ import annotations

import pytest

import costmodel as cm
from costmodel.inputs.params import resolve_tier
from tests.paths import DATA

HAND, SITES = DATA / "hand.yaml", DATA / "sites.yaml"


def load(**overrides):
    return cm.load_assumptions(HAND, SITES, overrides=overrides)


def test_the_default_site_sets_power_rent_tax_and_carry_forward():
    ti = resolve_tier(load(), "small")
    v, p = ti.values(), ti.paths()
    assert v["price_per_kwh"] == 0.72 and p["price_per_kwh"] == "sites.east.power.price_per_kwh"
    # escalation is not set by the site: the global value
    assert p["power_escalation"] == "power.escalation"
    assert v["colocation_per_kw_month"] == 800
    assert v["tax_rate"] == 0.25 and p["tax_rate"] == "sites.east.finance.tax_rate"
    assert ti.config.loss_carryforward_years == 5
    assert ti.structure["loss_carryforward_years"] == "sites.east.finance.loss_carryforward_years"


def test_a_tiers_own_value_wins_over_its_site_and_the_site_over_the_global():
    a = load(**{"tiers.small.site": "west", "tiers.small.power.price_per_kwh": 0.5})
    ti = resolve_tier(a, "small")
    v, p = ti.values(), ti.paths()
    assert v["price_per_kwh"] == 0.5 and p["price_per_kwh"] == "tiers.small.power.price_per_kwh"
    assert v["power_escalation"] == 0.01  # the site's, the tier gives none
    assert v["tax_rate"] == 0.15
    # the west site has no air rent: the global rent (hand.yaml: 900)
    assert v["colocation_per_kw_month"] == 900
    assert p["colocation_per_kw_month"] == "facility.colocation_per_kw_month"
    # the west site gives no carry-forward: the global rule (none in hand.yaml)
    assert ti.config.loss_carryforward_years is None


def test_without_sites_every_number_is_the_same():
    plain = cm.build(cm.load_assumptions(HAND)).summary()
    east = cm.build(load(**{"sites.east.power.price_per_kwh": 1.0, "sites.east.finance": {}}))
    s = east.summary()
    assert plain.loc["small", "site"] == "" and s.loc["small", "site"] == "east"
    # 0.033 MW < 1 MW: no connection; rent unused in build mode; tax 25% as global
    for col in ("capex", "npv", "revenue", "opex_year1"):
        assert s.loc["small", col] == pytest.approx(plain.loc["small", col], rel=1e-12)
    assert plain.loc["small", "facility_mw"] == pytest.approx(22 * 1.5 / 1000, rel=1e-12)


def test_a_colocation_tier_over_its_sites_grid_is_refused_with_the_figures():
    with pytest.raises(cm.AssumptionError) as err:
        load(**{"facility.mode": "colocation", "sites.east.grid_mw": 0.03})
    text = str(err.value)
    assert "sites.east.grid_mw" in text
    assert "tier small needs 0.033 MW" in text and "has 0.03 MW" in text


def test_a_build_mode_tier_over_its_grid_pays_the_connection_and_waits_for_it():
    m = cm.build(load(**{"tiers.small.site": "west", "horizon_years": 2}))
    s = m.summary().loc["small"]
    # (0.033 - 0.013) MW x 2,500,000 = 50,000 on top of 22 kW x 10,000
    assert s["capex_facility"] == pytest.approx(22 * 10_000 + 0.020 * 2_500_000, rel=1e-12)
    # construction 0 (hand.yaml) + 3 months of grid lead: hardware bought at month 3
    cap = m.capex("small")
    assert cap.loc[3, "servers"] == pytest.approx(2_000_000, rel=1e-12)
    assert cap.loc[0, "servers"] == 0
    assert cap.loc[0, "facility"] == pytest.approx(270_000, rel=1e-12)
    # no GPU-hour is sold before month 4
    hours = m.results["small"].opex  # electricity runs only for capacity in service
    assert float(hours["electricity"][0, 1:4].sum()) == 0.0
    assert float(hours["electricity"][0, 4]) > 0


def test_the_price_factor_scales_spot_revenue():
    base = load(**{"sites.east.price_factor": 1.0})
    cheap = load(**{"sites.east.price_factor": 0.8})
    r1 = cm.build(base).summary().loc["small", "revenue"]
    r2 = cm.build(cheap).summary().loc["small", "revenue"]
    assert r2 == pytest.approx(0.8 * r1, rel=1e-12)
    # hand.yaml: 16 GPUs x 0.5 x 730 h x 12 months at 100 CNY
    assert r1 == pytest.approx(16 * 0.5 * 730 * 12 * 100, rel=1e-12)


def test_an_unknown_site_is_named_with_the_known_ones():
    with pytest.raises(cm.AssumptionError) as err:
        load(**{"tiers.small.site": "north"})
    assert "tiers.small.site" in str(err.value) and "east, west" in str(err.value)
