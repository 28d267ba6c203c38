"""Tax depreciation, capitalized interest in the levered tax and the terminal gain
inside the loss pool (methodology §11.7-§11.9), against the hand case
(tests/data/hand.yaml, see tests/core/test_engine_time_and_money.py): servers
2,000,000, network 525,000 (life 1), storage 100,000 (life 1), facility 220,000
(straight line over 4 years), all bought at month 0 and in service from month 1
unless a build time is set; tax 25%; horizon two years (M = 24)."""

from __future__ import annotations

import pytest

import costmodel as cm
from tests.core.test_engine_time_and_money import CAPEX_FACILITY, build

SERVERS, NETWORK, STORAGE = 2_000_000, 525_000, 100_000


def yearly_margin(m: cm.Model) -> list[float]:
    """Revenue - opex of model years 1 and 2."""
    a = m.annual("small")
    return [float(a.revenue[y] - a.opex[y]) for y in (1, 2)]


def pool_tax(taxable: list[float], rate: float = 0.25) -> list[float]:
    """Tax of two years with an unlimited loss carry-forward, by hand."""
    first = rate * max(0.0, taxable[0])
    second = rate * max(0.0, taxable[1] + min(taxable[0], 0.0))
    return [first, second]


def test_an_expensed_class_deducts_its_cost_when_in_service(tmp_path):
    m = build(tmp_path, {"depreciation": {"servers": {"tax_method": "expensed"}}})
    td = m.tax_depreciation("small")
    assert td.servers[1] == pytest.approx(SERVERS)  # in service from month 1
    assert td.servers.sum() == pytest.approx(SERVERS)  # salvage is ignored
    book = m.depreciation("small")
    for cls in ("network", "storage", "facility"):  # book classes: the book charge
        assert td[cls].tolist() == pytest.approx(book[cls].tolist())
    facility_y = CAPEX_FACILITY / 4
    deductions = [SERVERS + NETWORK + STORAGE + facility_y, facility_y]
    taxable = [g - d for g, d in zip(yearly_margin(m), deductions, strict=True)]
    a = m.annual("small")
    assert a.tax_depreciation[1:].tolist() == pytest.approx(deductions)
    assert a.taxable_income[1:].tolist() == pytest.approx(taxable)
    assert a.tax[1:].tolist() == pytest.approx(pool_tax(taxable))
    # book depreciation, EBIT and the book value are unchanged
    plain = build(tmp_path, {})
    assert a.ebit.tolist() == pytest.approx(plain.annual("small").ebit.tolist())


def test_the_facility_cannot_be_expensed(tmp_path):
    with pytest.raises(cm.AssumptionError) as err:
        build(tmp_path, {"depreciation": {"facility": {"tax_method": "expensed"}}})
    assert "depreciation.facility" in str(err.value)
    assert "buildings" in str(err.value)


def test_the_terminal_gain_is_taxed_inside_the_loss_pool(tmp_path):
    decline = {"servers": 0.3, "network": 0.4, "storage": 0.5, "facility": 0.1}
    overlay = {
        "terminal_value": "market",
        "depreciation": {c: {"market_decline": d} for c, d in decline.items()},
    }
    # at 40 CNY/GPU-hour year 1 is a loss; the gain at M meets it in the pool
    m = build(tmp_path, overlay, **{"revenue.price_per_gpu_hour": 40})
    value = SERVERS * 0.7**2 + NETWORK * 0.6**2 + STORAGE * 0.5**2 + CAPEX_FACILITY * 0.9**2
    servers_y = (SERVERS - 0.1 * SERVERS) / 2  # life 2, salvage 10%
    facility_y = CAPEX_FACILITY / 4
    nbv = SERVERS - 2 * servers_y + CAPEX_FACILITY - 2 * facility_y
    gain = value - nbv
    deductions = [servers_y + NETWORK + STORAGE + facility_y, servers_y + facility_y]
    margin = yearly_margin(m)
    taxable = [margin[0] - deductions[0], margin[1] - deductions[1] + gain]
    assert taxable[0] < 0  # the case is what it claims
    a = m.annual("small")
    assert a.taxable_income[1:].tolist() == pytest.approx(taxable)
    assert a.tax[1:].tolist() == pytest.approx(pool_tax(taxable))
    without_gain = pool_tax([taxable[0], taxable[1] - gain])[1]
    cf = m.cash_flow("small")
    assert cf.terminal_tax[24] == pytest.approx(pool_tax(taxable)[1] - without_gain)
    assert cf.terminal_tax[24] < 0.25 * gain  # losses absorbed part of the gain
    fcf = cf.revenue - cf.opex - cf.tax - cf.capex + cf.terminal_value  # no separate tax
    assert cf.fcf.tolist() == pytest.approx(fcf.tolist())


def test_at_tax_zero_expensing_changes_nothing(tmp_path):
    zero = {"finance": {"tax_rate": 0.0}}
    plain = build(tmp_path, zero).summary().loc["small"]
    expensed = {**zero, "depreciation": {"servers": {"tax_method": "expensed"}}}
    m = build(tmp_path, expensed).summary().loc["small"]
    for col in ("npv", "irr", "equity_npv", "payback_years", "peak_funding"):
        assert m[col] == pytest.approx(plain[col], rel=1e-12), col


def test_interest_capitalized_at_equal_rates_leaves_equity_npv_the_npv(tmp_path):
    """At tax 0 and a loan rate equal to the discount rate (both effective), the
    loan is worth nothing to the owners: equity NPV = NPV, with interest
    capitalized during a three-month build (methodology §8.2, §11.8)."""
    overlay = {
        "timeline": {"build_months": 3},
        "finance": {"tax_rate": 0.0, "discount_rate": 0.09},
        "financing": {
            "debt_share": 0.6,
            "interest_rate": 0.09,
            "term_years": 5,
            "cost_of_equity": 0.09,
            "rate_convention": "effective",
        },
    }
    m = build(tmp_path, overlay)
    assert m.debt("small").capitalized_interest.sum() > 0
    s = m.summary().loc["small"]
    assert s.equity_npv == pytest.approx(s.npv, rel=1e-9)


def test_capitalized_interest_lowers_the_levered_tax_only(tmp_path):
    loan = {"debt_share": 0.5, "interest_rate": 0.12, "term_years": 3}
    overlay = {"timeline": {"build_months": 3}, "financing": loan}
    m = build(tmp_path, overlay)
    td = m.tax_depreciation("small")
    capitalized = m.debt("small").capitalized_interest.sum()
    # the facility's loan: its capitalized interest depreciates with the facility
    # (straight line, 4 years, in service from month 4)
    assert td.capitalized_interest.sum() == pytest.approx(capitalized / 48 * 21)
    assert td.capitalized_interest[4] == pytest.approx(capitalized / 48)
    assert td.capitalized_interest[3] == 0
    a = m.annual("small")
    assert a.taxable_income[1:].tolist() == pytest.approx(
        [g - d for g, d in zip(yearly_margin(m), a.tax_depreciation[1:], strict=True)]
    )
