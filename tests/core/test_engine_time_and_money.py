"""Time, growth and money (methodology §8) against cases worked out by hand.

The base is tests/data/hand.yaml (16 GPUs in two 8-GPU servers at 1,000,000,
10 kW each, aux 10% -> 22 kW, idle 50%, utilization 0.5, PUE 1.5, 1 CNY/kWh,
storage 100 TB at 1,000, network share 0.2, build 10,000/kW, 2 FTE at 600,000,
maintenance 6%, insurance 0.4%, software 1,200/GPU-year, 100 CNY/GPU-hour), with
a two-year horizon (M = 24) and the v2 keys each test sets in an overlay.
"""

from __future__ import annotations

import numpy as np
import numpy_financial as npf
import pytest
import yaml

import costmodel as cm
from costmodel.core.tax import tax_with_losses
from tests.paths import HAND

H = 730
CAPEX_HARDWARE = 2_000_000 + 525_000 + 100_000  # servers + network + storage
CAPEX_FACILITY = 22 * 10_000


def build(tmp_path, overlay: dict, **overrides) -> cm.Model:
    path = tmp_path / "v2.yaml"
    path.write_text(yaml.safe_dump({"schema_version": 2, "horizon_years": 2, **overlay}))
    return cm.build(cm.load_assumptions(HAND, path, overrides=overrides or None))


# ----------------------------------------------------------------------------- 14


def test_construction_and_ramp_by_hand(tmp_path):
    m = build(tmp_path, {"timeline": {"build_months": 3, "ramp_months": 2}})
    capex = m.capex("small")
    assert capex.at[0, "facility"] == pytest.approx(CAPEX_FACILITY)  # facility at month 0
    assert capex.at[0, "servers"] == 0
    assert capex.at[3, "servers"] == pytest.approx(2_000_000)  # hardware at B = 3
    assert capex.at[3, "total"] == pytest.approx(CAPEX_HARDWARE)
    assert capex.total.sum() == pytest.approx(CAPEX_HARDWARE + CAPEX_FACILITY)

    cf, opex = m.cash_flow("small"), m.opex("small")
    # months 1..3: construction, no revenue, only staff
    assert (cf.revenue[1:4] == 0).all()
    assert opex.total[1:4].tolist() == pytest.approx([2 * 600_000 / 12] * 3)
    # month 4: u = 0.5 * min(1, (4 - 3) / 2) = 0.25; month 5 on: 0.5
    assert cf.gpu_hours[4] == pytest.approx(16 * 0.25 * H)  # 2,920
    assert cf.gpu_hours[5] == pytest.approx(16 * 0.5 * H)
    assert cf.revenue[4] == pytest.approx(2_920 * 100)
    assert opex.electricity[4] == pytest.approx(22 * (0.5 + 0.5 * 0.25) * 1.5 * H)  # 15,056.25
    assert opex.maintenance[4] == pytest.approx(0.06 * CAPEX_HARDWARE / 12)  # 13,125
    assert opex.insurance[4] == pytest.approx(0.004 * (CAPEX_HARDWARE + CAPEX_FACILITY) / 12)
    assert opex.software[4] == pytest.approx(1_200 * 16 / 12)
    # depreciation starts in service (month 4): servers (2.0M - 10%) / 2 years / 12
    dep = m.depreciation("small")
    assert dep.servers[3] == 0
    assert dep.servers[4] == pytest.approx(75_000)
    assert dep.network[15] == pytest.approx(525_000 / 12)  # life 1: months 4..15
    assert dep.network[16] == 0
    assert dep.facility[4] == pytest.approx(220_000 / 4 / 12)
    # FCF_m = -capex_m + revenue - opex - tax; NPV at rate 0 is the plain sum
    s = m.summary().loc["small"]
    assert s.npv == pytest.approx(cf.fcf.sum())
    assert cf.fcf[3] == pytest.approx(-CAPEX_HARDWARE - 100_000)
    # peak funding: the lowest cumulative cash before the terminal value
    cum = np.cumsum(cf.fcf - cf.terminal_value + cf.terminal_tax)
    assert s.peak_funding == pytest.approx(-cum.min())
    assert s.peak_funding == pytest.approx(CAPEX_FACILITY + 3 * 100_000 + CAPEX_HARDWARE)


#: the discount rate (effective annual) at which a loan at 9% costs what it is
#: discounted at: 9% itself when the loan rate is effective, (1 + 0.09/12)^12 - 1 =
#: 9.3807% when the bank charges 9% / 12 a month (the nominal convention)
SAME_RATE = {"effective": 0.09, "nominal": (1 + 0.09 / 12) ** 12 - 1}


@pytest.mark.parametrize("convention", list(SAME_RATE))
def test_equity_npv_equals_npv_at_zero_tax_and_one_rate(tmp_path, convention):
    loan = {"debt_share": 0.6, "interest_rate": 0.09, "term_years": 3}
    for build_months in (0, 4):
        m = build(
            tmp_path,
            {
                "timeline": {"build_months": build_months, "ramp_months": 3},
                "financing": {**loan, "rate_convention": convention},
            },
            **{"finance.tax_rate": 0, "finance.discount_rate": SAME_RATE[convention]},
        )
        s = m.summary().loc["small"]
        assert s.equity_npv == pytest.approx(s.npv, rel=1e-9)
        assert s.debt_peak > 0


def test_the_nominal_convention_charges_the_rate_over_twelve(tmp_path):
    """With no construction the first loan pays from month 1: its first month's
    interest is the draw x 9% / 12 (nominal) or x (1.09^(1/12) - 1) (effective)."""
    loan = {"debt_share": 0.6, "interest_rate": 0.09, "term_years": 3}
    first = {}
    for convention in ("nominal", "effective"):
        m = build(tmp_path, {"financing": {**loan, "rate_convention": convention}})
        d = m.debt("small")
        first[convention] = (float(d["interest"].iloc[1]), float(d["draw"].iloc[0]))
    interest, draw = first["nominal"]
    assert interest == pytest.approx(draw * 0.09 / 12, rel=1e-12)
    interest, draw = first["effective"]
    assert interest == pytest.approx(draw * (1.09 ** (1 / 12) - 1), rel=1e-12)


# ----------------------------------------------------------------------------- 15


STAGE = {"month": 12, "gpus": 8, "capacity_tb": 50, "staff_fte": 3}


def test_stage_adds_nothing_before_it_is_in_service(tmp_path):
    # without reserved headroom (which builds the final hall at month 0)
    base = build(tmp_path, {"tiers": {"small": {"reserve_headroom": False}}})
    staged = build(tmp_path, {"tiers": {"small": {"stages": [STAGE], "reserve_headroom": False}}})
    a, b = base.cash_flow("small"), staged.cash_flow("small")
    for col in ("gpu_hours", "revenue", "opex"):
        assert b[col][:13].tolist() == pytest.approx(a[col][:13].tolist())  # months 0..12
        assert b[col][13] > a[col][13]
    assert b.capex[:12].tolist() == pytest.approx(a.capex[:12].tolist())
    # the stage: 1 server at 1.0M, 50 TB at 1,000, network 0.2 / 0.8 of both
    stage_hw = 1_000_000 + 50_000 + 0.25 * 1_050_000
    assert b.capex[12] == pytest.approx(stage_hw + 11 * 10_000)  # + its 11 kW of hall
    assert staged.opex("small").staff[13] == pytest.approx(3 * 600_000 / 12)
    assert b.gpu_hours[13] == pytest.approx(24 * 0.5 * H)
    assert staged.summary().loc["small", "gpus"] == 24


def test_reserved_headroom_and_retrofit_by_hand(tmp_path):
    tier = {"stages": [STAGE]}
    reserve = build(tmp_path, {"tiers": {"small": tier}})
    capex = reserve.capex("small")
    assert capex.facility[0] == pytest.approx(33 * 10_000)  # final 33 kW built at month 0
    assert (capex.facility[1:] == 0).all()
    rebuild = build(
        tmp_path,
        {
            "facility": {"retrofit_premium": 0.5},
            "tiers": {"small": {**tier, "reserve_headroom": False}},
        },
    )
    capex = rebuild.capex("small")
    assert capex.facility[0] == pytest.approx(22 * 10_000)
    assert capex.facility[12] == pytest.approx(11 * 10_000 * 1.5)  # 165,000


def test_server_price_decline_by_deployment_month(tmp_path):
    m = build(
        tmp_path,
        {
            "timeline": {"build_months": 3},
            "servers": {"box": {"price_decline": 0.2}},
            "tiers": {"small": {"stages": [STAGE]}},
        },
    )
    d = m.deployments("small")
    assert d.servers_capex.tolist() == pytest.approx(
        [2 * 1_000_000 * 0.8 ** (3 / 12), 1 * 1_000_000 * 0.8 ** (12 / 12)]
    )
    assert d.network_capex.iloc[1] == pytest.approx(0.25 * (800_000 + 50_000))


def test_stage_rules_name_path_value_and_rule(tmp_path):
    cases = [
        ({"stages": [{"month": 12, "gpus": 12}]}, "tiers.small.stages.0.gpus", "multiple of 8"),
        ({"stages": [{"month": 24, "gpus": 8}]}, "tiers.small.stages.0.month", "horizon end"),
        (
            {"stages": [{"month": 12, "gpus": 8}, {"month": 12, "gpus": 8}]},
            "tiers.small.stages.1.month",
            "after the stage before",
        ),
    ]
    for tier, path, rule in cases:
        with pytest.raises(cm.AssumptionError) as err:
            build(tmp_path, {"tiers": {"small": tier}})
        assert path in str(err.value) and rule in str(err.value)
    with pytest.raises(cm.AssumptionError, match="after build_months"):
        build(
            tmp_path,
            {
                "timeline": {"build_months": 6},
                "tiers": {"small": {"stages": [{"month": 6, "gpus": 8}]}},
            },
        )


# ----------------------------------------------------------------------------- 16


def test_racks_hold_whole_servers(tmp_path):
    # 24 GPUs = 3 servers of 11 kW in 20 kW racks: 1 per rack -> 3 racks
    # (v1 divided kW: ceil(33 / 20) = 2)
    m = build(tmp_path, {}, **{"tiers.small.gpus": 24, "tiers.small.rack_kw": 20})
    assert m.summary().loc["small", "racks"] == 3
    with pytest.raises(cm.AssumptionError) as err:
        build(tmp_path, {}, **{"tiers.small.rack_kw": 10.5})
    assert "10.5 kW rack cannot hold one box server" in str(err.value)
    assert "11 kW" in str(err.value)


# ----------------------------------------------------------------------------- 17


#: the monthly rate of a 12% loan in each convention
MONTHLY_AT_12 = {"nominal": 0.12 / 12, "effective": 1.12 ** (1 / 12) - 1}


@pytest.mark.parametrize("convention", list(MONTHLY_AT_12))
def test_debt_by_hand(tmp_path, convention):
    loan = {"debt_share": 0.5, "interest_rate": 0.12, "term_years": 3}
    m = build(
        tmp_path,
        {
            "timeline": {"build_months": 3},
            "financing": {**loan, "rate_convention": convention},
        },
    )
    r = MONTHLY_AT_12[convention]
    debt = m.debt("small")
    # the facility loan: 110,000 drawn at month 0, interest capitalized in months 1..3
    assert debt.draw[0] == pytest.approx(0.5 * CAPEX_FACILITY)
    assert debt.capitalized_interest[1] == pytest.approx(110_000 * r)
    b_facility = 110_000 * (1 + r) ** 3
    b_hardware = 0.5 * CAPEX_HARDWARE  # drawn at 3, first payment at 4: nothing capitalized
    assert debt.balance_close[3] == pytest.approx(b_facility + b_hardware)
    n = 36
    payment = (b_facility + b_hardware) * r / (1 - (1 + r) ** -n)
    assert (debt.interest + debt.principal)[4:24].tolist() == pytest.approx([payment] * 20)
    assert debt.interest[4] == pytest.approx(r * (b_facility + b_hardware))
    # balloon at M = 24: 21 of 36 payments made
    owed = (b_facility + b_hardware) * ((1 + r) ** n - (1 + r) ** 21) / ((1 + r) ** n - 1)
    assert debt.balloon[24] == pytest.approx(owed)
    assert debt.principal.sum() + debt.balloon.sum() == pytest.approx(
        debt.draw.sum() + debt.capitalized_interest.sum()
    )
    # corkscrew: close = open + draw + capitalized - principal - balloon, every month
    move = debt.draw + debt.capitalized_interest - debt.principal - debt.balloon
    np.testing.assert_allclose(debt.balance_close, debt.balance_open + move, atol=1e-6)
    s = m.summary().loc["small"]
    assert s.debt_peak == pytest.approx(b_facility + b_hardware)
    # levered tax deducts interest paid; equity cash flow and its IRR
    cf, annual = m.cash_flow("small"), m.annual("small")
    ecf = cf.fcf + cf.debt_draw - cf.interest - cf.principal - cf.balloon + cf.tax - cf.tax_levered
    np.testing.assert_allclose(cf.equity_cash_flow, ecf, atol=1e-6)
    assert s.equity_irr == pytest.approx((1 + npf.irr(cf.equity_cash_flow)) ** 12 - 1, rel=1e-6)
    cfads = (cf.revenue - cf.opex - cf.tax_levered)[1:].to_numpy().reshape(2, 12).sum(axis=1)
    service = (cf.interest + cf.principal)[1:].to_numpy().reshape(2, 12).sum(axis=1)
    assert s.min_dscr == pytest.approx(min(cfads / service))
    # ... and the tax depreciation of the interest capitalized on the facility's loan
    # (methodology §11.8): in service from month 4, straight line over 4 years, so
    # 9 months of it in year 1 and 12 in year 2
    capitalized = 110_000 * ((1 + r) ** 3 - 1)
    assert debt.capitalized_interest.sum() == pytest.approx(capitalized)
    cap_dep = [capitalized / 48 * 9, capitalized / 48 * 12]
    levered_base = (annual.ebit - annual.interest)[1:] - cap_dep
    assert annual.taxable_income_levered[1:].tolist() == pytest.approx(levered_base.tolist())
    assert annual.tax_levered[1:].tolist() == pytest.approx(
        [0.25 * max(0.0, e) for e in levered_base]
    )


def test_without_financing_equity_is_the_project(tmp_path):
    m = build(tmp_path, {"timeline": {"build_months": 2}})
    s = m.summary().loc["small"]
    assert s.equity_npv == pytest.approx(s.npv)
    assert np.isnan(s.min_dscr)
    assert s.debt_peak == 0


# ----------------------------------------------------------------------------- 18


def test_losses_expire_first_in_first_out():
    taxable = np.array([[-100.0, -50.0, 10.0, 10.0, 200.0]])
    # N = 2: year-1 loss usable in years 2..3, year-2 loss in 3..4
    t = tax_with_losses(taxable, 0.25, 2)
    assert t["used"][0].tolist() == [0, 0, 10, 10, 0]  # year 3 from v1, year 4 from v2
    assert t["expired"][0].tolist() == [0, 0, 90, 40, 0]
    assert t["tax"][0].tolist() == pytest.approx([0, 0, 0, 0, 0.25 * 200])
    # unlimited: year 5 uses the 90 + 40 left
    t = tax_with_losses(taxable, 0.25, None)
    assert t["tax"][0].tolist() == pytest.approx([0, 0, 0, 0, 0.25 * (200 - 130)])
    # none: every profit is taxed
    t = tax_with_losses(taxable, 0.25, 0)
    assert t["tax"][0].tolist() == pytest.approx([0, 0, 2.5, 2.5, 50])
    # corkscrew: close = open + added - used - expired
    t = tax_with_losses(taxable, 0.25, 2)
    move = t["open"] + t["added"] - t["used"] - t["expired"]
    np.testing.assert_allclose(t["close"], move)


def test_loss_expiry_in_the_model(tmp_path):
    # the price is cut so that year 1 loses money and year 2 earns
    unlimited = build(tmp_path, {}, **{"revenue.price_per_gpu_hour": 40})
    limited = build(
        tmp_path, {"finance": {"loss_carryforward_years": 0}}, **{"revenue.price_per_gpu_hour": 40}
    )
    a, b = unlimited.annual("small"), limited.annual("small")
    assert a.ebit.tolist() == pytest.approx(b.ebit.tolist())
    assert a.ebit[1] < 0 < a.ebit[2]
    assert b.tax[2] == pytest.approx(0.25 * b.ebit[2])
    assert a.tax[2] == pytest.approx(0.25 * max(0.0, a.ebit[2] + a.ebit[1]))


# ----------------------------------------------------------------------------- 19


def test_market_residual_value_by_hand(tmp_path):
    decline = {"servers": 0.3, "network": 0.4, "storage": 0.5, "facility": 0.1}
    m = build(
        tmp_path,
        {
            "terminal_value": "market",
            "depreciation": {c: {"market_decline": d} for c, d in decline.items()},
        },
    )
    value = (
        2_000_000 * 0.7**2 + 525_000 * 0.6**2 + 100_000 * 0.5**2 + CAPEX_FACILITY * 0.9**2
    )  # bought at month 0, valued at M = 24: two years of decline
    nbv = (2_000_000 - 24 * 75_000) + 0 + 0 + (CAPEX_FACILITY - 24 * CAPEX_FACILITY / 48)
    cf = m.cash_flow("small")
    assert cf.terminal_value[24] == pytest.approx(value)
    assert cf.terminal_tax[24] == pytest.approx(0.25 * (value - nbv))
    with pytest.raises(cm.AssumptionError, match="market_decline"):
        build(tmp_path, {"terminal_value": "market"})


def test_payback_excludes_the_terminal_value(tmp_path):
    # a price at which the cash only turns positive through the book value at M
    m = build(tmp_path, {}, **{"revenue.price_per_gpu_hour": 42})
    cf = m.cash_flow("small")
    assert cf.cumulative_fcf.iloc[-1] > 0
    assert (cf.cumulative_fcf - cf.terminal_value).iloc[-1] < 0
    assert np.isnan(m.summary().loc["small", "payback_years"])


# ----------------------------------------------------------------------------- 20


def test_repair_downtime_by_hand(tmp_path):
    m = build(tmp_path, {"reliability": {"repair_hours": 48}})
    availability = 1 - 0.01 * 48 / 24  # 0.98
    s = m.summary().loc["small"]
    assert s.availability == pytest.approx(availability)
    cf = m.cash_flow("small")
    assert cf.gpu_hours[1] == pytest.approx(16 * 0.5 * availability * H)
    assert m.opex("small").electricity[1] == pytest.approx(22 * 0.75 * 1.5 * H)  # unchanged


def test_neutral_v2_keys_change_nothing(tmp_path):
    v1 = build(tmp_path, {})
    neutral = build(
        tmp_path,
        {
            "timeline": {"build_months": 0, "ramp_months": 0},
            "financing": {"debt_share": 0, "interest_rate": 0.05, "term_years": 5},
            "reliability": {"repair_hours": 0},
            "tiers": {"small": {"stages": []}},
        },
    )
    a, b = v1.summary(), neutral.summary()
    for col in a.columns:
        assert a[col].tolist() == pytest.approx(b[col].tolist(), nan_ok=True), col


def test_annual_years_sum_to_the_monthly_schedule(tmp_path):
    m = build(
        tmp_path,
        {
            "timeline": {"build_months": 3, "ramp_months": 2},
            "financing": {"debt_share": 0.5, "interest_rate": 0.08, "term_years": 1},
            "tiers": {"small": {"stages": [STAGE]}},
        },
    )
    annual, cf = m.annual("small"), m.cash_flow("small")
    assert list(annual.index) == [0, 1, 2]
    assert annual.capex[0] == pytest.approx(cf.capex[0])  # the month-0 facility
    pairs = {"fcf": "fcf", "capex": "capex", "revenue": "revenue", "tax": "tax",
             "interest": "interest", "equity_cash_flow": "equity_cash_flow"}  # fmt: skip
    for year_col, month_col in pairs.items():
        assert annual[year_col].sum() == pytest.approx(cf[month_col].sum()), year_col
    long = m.table()
    assert set(long.schedule) == {"capex", "opex", "depreciation", "cash_flow", "debt"}
    fcf = long[(long.schedule == "cash_flow") & (long.line == "fcf")]
    assert fcf.value.sum() == pytest.approx(cf.fcf.sum())
    assert "<table" in m._repr_html_()


def test_fcf_and_opex_by_year_equal_the_monthly_schedules(tmp_path):
    """``Model.fcf`` and ``Model.opex_by_year`` (read without the monthly run) are
    ``cash_flow().fcf`` and each ``opex()`` line summed over months 12(y-1)+1..12y."""
    m = build(tmp_path, {"timeline": {"build_months": 3, "ramp_months": 2},
                         "tiers": {"small": {"stages": [STAGE]}}})  # fmt: skip
    fcf = m.fcf("small")
    years, opex = m.opex_by_year("small"), m.opex("small")
    np.testing.assert_allclose(fcf, m.cash_flow("small").fcf, rtol=1e-12, atol=1e-6)
    assert list(years.index) == [1, 2]
    for line in years.columns:
        for y in (1, 2):
            want = opex[line].iloc[12 * (y - 1) + 1 : 12 * y + 1].sum()
            assert years.loc[y, line] == pytest.approx(want, rel=1e-12, abs=1e-6), (line, y)
    assert years.electricity.sum() > 0 and list(years.columns) == list(opex.columns[1:-1])
