"""Subsidies (methodology §11.13) worked by hand on the hand case (16 GPUs, two
servers of 1,000,000 bought at month 0, electricity at 1.0 per kWh without
escalation, tax 25%, one or two years): each kind's cash and its tax year."""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm
from costmodel.inputs.errors import AssumptionError
from tests.paths import HAND


def _model(subsidies: list, **extra) -> cm.Model:
    return cm.build(cm.load_assumptions(HAND, overrides={"subsidies": subsidies, **extra}))


BASE = _model([])


def test_a_capex_grant_paid_after_its_lag_and_taxed_in_its_year():
    """15% of the servers' 2,000,000 paid 3 months after month 0: 300,000 at month 3,
    income of year 1: the year's taxable income rises by 300,000 and its tax by
    75,000; the FCF by 300,000 at month 3 and -75,000 at month 12."""
    m = _model([{"kind": "capex_grant", "share": 0.15, "classes": ["servers"], "lag_months": 3}])
    cash = m.cash_flow("small").subsidies
    want = np.zeros(13)
    want[3] = 300_000.0
    np.testing.assert_allclose(cash, want, rtol=1e-12)
    assert m.summary().loc["small", "subsidies"] == pytest.approx(300_000.0)
    d_taxable = m.annual("small").taxable_income - BASE.annual("small").taxable_income
    assert d_taxable.iloc[1] == pytest.approx(300_000.0)
    d_fcf = m.cash_flow("small").fcf - BASE.cash_flow("small").fcf
    want_fcf = want.copy()
    want_fcf[12] -= 0.25 * 300_000.0
    np.testing.assert_allclose(d_fcf, want_fcf, rtol=1e-9, atol=1e-6)


def test_a_grant_is_capped_and_a_payment_after_the_horizon_is_not_received():
    """Every class (no ``classes``) at 15%, capped at 100,000; a second grant paid 13
    months after month 0 falls after M = 12 and is not received."""
    capped = _model([{"kind": "capex_grant", "share": 0.15, "cap": 100_000}])
    assert capped.cash_flow("small").subsidies.iloc[0] == pytest.approx(100_000.0)
    assert capped.summary().loc["small", "subsidies"] == pytest.approx(100_000.0)
    late = _model([{"kind": "capex_grant", "share": 0.15, "lag_months": 13}])
    assert late.summary().loc["small", "subsidies"] == 0.0


def test_a_grant_at_month_0_is_income_of_year_1():
    m = _model([{"kind": "capex_grant", "share": 0.1, "classes": ["servers"]}])
    d_taxable = m.annual("small").taxable_income - BASE.annual("small").taxable_income
    assert d_taxable.iloc[1] == pytest.approx(200_000.0)


def test_a_power_rebate_per_metered_kwh_in_its_years():
    """0.10 per kWh; at 1.0 per kWh without escalation the kWh of a month are its
    electricity cost, so the rebate is a tenth of it in year 1 and nothing in year 2."""
    m = _model([{"kind": "power_rebate", "per_kwh": 0.1, "years": 1}], horizon_years=2)
    cash = m.cash_flow("small").subsidies.to_numpy()
    elec = m.opex("small").electricity.to_numpy()
    np.testing.assert_allclose(cash[1:13], 0.1 * elec[1:13], rtol=1e-12)
    assert cash[0] == 0.0 and np.all(cash[13:] == 0.0) and elec[13] > 0


def test_a_voucher_on_revenue_and_an_untaxed_subsidy():
    """10% of revenue in year 1, not taxable: the tax does not change and the FCF
    rises by exactly the voucher."""
    m = _model(
        [{"kind": "voucher", "share_of_revenue": 0.1, "years": 1, "taxable": False}],
        horizon_years=2,
    )
    cash = m.cash_flow("small").subsidies.to_numpy()
    rev = m.revenue("small").revenue.to_numpy()
    np.testing.assert_allclose(cash[1:13], 0.1 * rev[1:13], rtol=1e-12)
    assert np.all(cash[13:] == 0.0)
    base = _model([], horizon_years=2)
    np.testing.assert_allclose(m.cash_flow("small").tax, base.cash_flow("small").tax)
    np.testing.assert_allclose(
        m.cash_flow("small").fcf - base.cash_flow("small").fcf, cash, rtol=1e-9, atol=1e-6
    )
    # subsidy cash is not revenue: the realized price does not move
    assert (
        m.summary().loc["small", "realized_price"] == base.summary().loc["small", "realized_price"]
    )


def test_subsidies_are_in_the_equity_cash_flow_and_cfads():
    loan = {"debt_share": 0.5, "interest_rate": 0.05, "term_years": 1}
    grant = [{"kind": "capex_grant", "share": 0.15, "classes": ["servers"], "lag_months": 3}]
    m, base = _model(grant, financing=loan), _model([], financing=loan)
    d_ecf = m.cash_flow("small").equity_cash_flow - base.cash_flow("small").equity_cash_flow
    assert d_ecf.iloc[3] == pytest.approx(300_000.0)
    d_cfads = m.annual("small").cfads - base.annual("small").cfads
    assert d_cfads.iloc[1] == pytest.approx(300_000.0 - 75_000.0, rel=1e-9)


def test_a_tier_list_replaces_the_global_one():
    m = cm.build(
        cm.load_assumptions(
            HAND,
            overrides={
                "subsidies": [{"kind": "capex_grant", "share": 0.5}],
                "tiers.small.subsidies": [{"kind": "voucher", "share_of_revenue": 0.1, "years": 1}],
            },
        )
    )
    rev = m.summary().loc["small", "revenue"]
    assert m.summary().loc["small", "subsidies"] == pytest.approx(0.1 * rev)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"kind": "voucher", "years": 2}, "a voucher needs share_of_revenue"),
        ({"kind": "power_rebate", "per_kwh": 0.1, "years": 2, "share": 0.2}, "share: not a key"),
        ({"kind": "capex_grant", "share": 1.5}, "subsidies.0.share"),
        ({"kind": "grant", "share": 0.1}, "subsidies.0.kind"),
    ],
)
def test_a_bad_subsidy_is_a_clear_error(entry, message):
    with pytest.raises(AssumptionError) as e:
        cm.load_assumptions(HAND, overrides={"subsidies": [entry]})
    assert message in str(e.value)
