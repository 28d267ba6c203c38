"""The residual value from income (methodology §30), one deployment written out by
hand on the hand case (tests/data/hand.yaml: 16 GPUs in two servers at
1,000,000, storage 100,000, network 525,000; 22 kW IT, PUE 1.5, power 1.0/kWh,
idle 0.5; utilization 0.5; maintenance 6%, insurance 0.4%, software 1,200 per
GPU-year; 100 per GPU-hour; tax 25%)."""

from __future__ import annotations

import pytest

import costmodel as cm
from tests.paths import DATA

HAND = DATA / "hand.yaml"
H = 730.0


def model(**overrides):
    base = {
        "terminal_value": "income",
        "horizon_years": 2,
        "revenue.price_decline": 0.1,
        "finance.discount_rate": 0.08,
        "depreciation.servers.life_years": 3,
        "depreciation.servers.economic_life_years": 4,
        "depreciation.facility.market_decline": 0.05,
    }
    return cm.build(cm.load_assumptions(HAND, overrides=base | overrides))


def terminal(m):
    return float(m.results["small"].metrics["terminal_value"][0])


def test_one_deployments_income_residual_written_out():
    m = model()
    M = 24
    # the month-24 lines of the one deployment (bought at month 0), model year 2
    price = 100 * 0.9  # year-2 price index
    revenue = 16 * 0.5 * H * price
    electricity = 22 * (0.5 + 0.5 * 0.5) * 1.5 * H * 1.0
    maintenance = 0.06 * 2_625_000 / 12
    insurance = 0.004 * 2_625_000 / 12  # on the hardware only
    software = 1_200 * 16 / 12
    margin = revenue - electricity - maintenance - insurance - software
    remaining = 0 + 12 * 4 - M  # 24 months of economic life left
    r = 1.08 ** (1 / 12) - 1
    annuity = sum(0.9 ** (k / 12) / (1 + r) ** k for k in range(1, remaining + 1))
    hardware = margin * annuity
    facility = 220_000 * 0.95 ** (M / 12)  # the facility at market
    table = m.residual("small")
    assert list(table["remaining_months"]) == [remaining]
    assert table.loc[0, "margin"] == pytest.approx(margin, rel=1e-12)
    assert table.loc[0, "annuity"] == pytest.approx(annuity, rel=1e-12)
    assert table.loc[0, "value"] == pytest.approx(hardware, rel=1e-12)
    assert terminal(m) == pytest.approx(hardware + facility, rel=1e-12)


def test_the_gain_is_taxed_in_the_last_year():
    declines = {f"depreciation.{c}.market_decline": 0.3 for c in ("servers", "network", "storage")}
    inc, mkt = model(), model(terminal_value="market", **declines)
    # the same tax book value at M, so the tax differs by 25% of the terminal values'
    # difference (every year's income is positive: no loss pool in the way)
    tax_a = float(inc.results["small"].flows["tax"][0].sum())
    tax_b = float(mkt.results["small"].flows["tax"][0].sum())
    assert tax_a - tax_b == pytest.approx(0.25 * (terminal(inc) - terminal(mkt)), rel=1e-9)


def test_a_life_ended_before_the_horizon_leaves_the_facility_only():
    m = model(**{"depreciation.servers.economic_life_years": 1})
    assert m.residual("small").loc[0, "value"] == 0.0
    assert terminal(m) == pytest.approx(220_000 * 0.95**2, rel=1e-12)


def test_income_in_build_mode_needs_the_facilitys_market_decline():
    with pytest.raises(cm.AssumptionError) as err:
        cm.load_assumptions(HAND, overrides={"terminal_value": "income"})
    assert "depreciation.facility.market_decline" in str(err.value)
