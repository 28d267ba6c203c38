"""PRC value-added tax (methodology §24): the credit pool worked by hand, and the
identities of its definitions through the engine (VAT cash over the horizon =
-surtax with refunds, = -surtax - credit left without; zero rates change
nothing; surtax lowers the taxable income; loans finance net capex only)."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import costmodel as cm
from costmodel.core.vat import credit_pool
from costmodel.inputs.resources import default_assumptions_dir
from tests.paths import HAND

FULL_VAT = {
    "output_rate": 0.06,
    "input_rates": {
        "servers": 0.13,
        "network": 0.13,
        "storage": 0.13,
        "facility": 0.09,
        "electricity": 0.13,
        "colocation": 0.06,
        "maintenance": 0.13,
        "software": 0.06,
        "insurance": 0.06,
    },  # fmt: skip
    "surtax_rate": 0.12,
    "refund_credit": True,
}


def _build(tmp_path, overlay: dict, base=HAND) -> cm.Model:
    path = tmp_path / f"case{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(yaml.safe_dump(overlay))
    return cm.build(cm.load_assumptions(base, path))


def test_two_months_of_the_pool_by_hand():
    """Month 0: 100 of input VAT, no output: nothing payable, credit 100. Month 1:
    output 10 and input 3 use the credit, 100 - (10 - 3) = 93 left; month 2:
    output 200, input 7: 200 - 7 - 93 = 100 payable, credit 0."""
    out = np.array([[0.0, 10.0, 200.0]])
    inp = np.array([[100.0, 3.0, 7.0]])
    pool = credit_pool(out - inp, refund=True)
    np.testing.assert_array_equal(pool["payable"], [[0.0, 0.0, 100.0]])
    np.testing.assert_array_equal(pool["credit"], [[100.0, 93.0, 0.0]])
    np.testing.assert_array_equal(pool["credit_open"], [[0.0, 100.0, 93.0]])
    np.testing.assert_array_equal(pool["refund"], [[0.0, 0.0, 0.0]])


def test_the_pool_is_refunded_at_month_12_and_at_month_24():
    """1200 of input at month 0, output 50 a month: by month 12 the pool is 1200 -
    12 * 50 = 600, refunded; then 50 a month is payable until month 20 when
    input 1000 leaves 1000 - 50 = 950 of credit, 950 - 4 * 50 = 750 refunded at 24."""
    out = np.full((1, 25), 50.0)
    out[0, 0] = 0.0
    inp = np.zeros((1, 25))
    inp[0, 0], inp[0, 20] = 1200.0, 1000.0
    pool = credit_pool(out - inp, refund=True)
    assert pool["refund"][0, 12] == 600.0 and pool["credit"][0, 12] == 0.0
    assert pool["credit_before_refund"][0, 12] == 600.0
    assert pool["refund"][0, 24] == 750.0 and pool["credit"][0, 24] == 0.0
    np.testing.assert_array_equal(pool["payable"][0, 13:20], 50.0)
    assert pool["payable"][0, 20] == 0.0 and pool["credit"][0, 20] == 950.0
    assert pool["refund"].sum() == 1350.0
    without = credit_pool(out - inp, refund=False)
    assert without["refund"].sum() == 0.0
    # without refunds the 600 carries on: payable resumes only when it is used up
    assert without["credit"][0, 12] == 600.0 and without["payable"][0, 13:20].sum() == 0.0
    assert without["credit"][0, 24] == 1200 - 24 * 50 + 1000  # left at M, lost


def _pool_by_recursion(net, refund):
    """The pool of methodology §24 month by month, as written there."""
    rows = {k: np.zeros_like(net) for k in ("credit_open", "payable", "refund", "credit")}
    for s in range(net.shape[0]):
        pool = 0.0
        for m in range(net.shape[1]):
            rows["credit_open"][s, m] = pool
            rows["payable"][s, m] = max(0.0, net[s, m] - pool)
            pool = max(0.0, pool - net[s, m])
            if refund and m > 0 and m % 12 == 0:
                rows["refund"][s, m], pool = pool, 0.0
            rows["credit"][s, m] = pool
    return rows


@pytest.mark.parametrize("months", [1, 12, 13, 36, 121, 130])
@pytest.mark.parametrize("refund", [True, False])
def test_the_closed_form_pool_equals_the_recursion(months, refund):
    """Random months of output and input VAT (some with no output, one with a large
    input): the pool solved between refunds equals the recursion month by month."""
    rng = np.random.default_rng(months)
    out = rng.gamma(1.0, 100.0, (7, months)) * rng.integers(0, 2, (7, months))
    inp = rng.gamma(0.5, 200.0, (7, months))
    inp[:, months // 2] += 5000.0
    got, want = credit_pool(out - inp, refund), _pool_by_recursion(out - inp, refund)
    for k, v in want.items():
        np.testing.assert_allclose(got[k], v, rtol=0, atol=1e-9, err_msg=k)
    assert (got["credit_before_refund"] >= got["credit"]).all()


def test_corkscrew_holds_every_month(tmp_path):
    model = _build(tmp_path, {"horizon_years": 3, "vat": FULL_VAT})
    v = model.vat("small")
    residual = v.credit_open + v.input - v.output + v.payable - v.refund - v.credit
    assert np.abs(residual).max() < 1e-6
    inputs = sum(v[c] for c in v.columns if c.startswith("input_"))
    np.testing.assert_allclose(inputs, v.input, rtol=1e-12, atol=1e-9)


def test_output_input_and_cash_of_the_hand_case(tmp_path):
    """The hand case's revenue, opex and capex lines at the VAT rates: output is
    6% of revenue; input 13% of server, network and storage capex and of
    electricity and maintenance, 9% of the facility, 6% of insurance and
    software; VAT cash = output - input - payable + refund - surtax."""
    model = _build(tmp_path, {"vat": FULL_VAT})
    v, cf, opex, capex = (
        model.vat("small"),
        model.cash_flow("small"),
        model.opex("small"),
        model.capex("small"),
    )
    np.testing.assert_allclose(v.output, 0.06 * cf.revenue, rtol=1e-15)
    want = (0.13 * (capex.servers + capex.network + capex.storage) + 0.09 * capex.facility
            + 0.13 * (opex.electricity + opex.maintenance) + 0.06 * opex.colocation
            + 0.06 * (opex.insurance + opex.software))  # fmt: skip
    np.testing.assert_allclose(v.input, want, rtol=1e-12)
    np.testing.assert_allclose(v.surtax, 0.12 * v.payable, rtol=1e-15)
    cash = v.output - v.input - v.payable + v.refund - v.surtax
    np.testing.assert_allclose(v.vat_cash, cash, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(cf.vat_cash, v.vat_cash, rtol=0)
    s = model.summary().loc["small"]
    assert s.vat_paid == pytest.approx(v.payable.sum(), rel=1e-12)
    assert s.surtax == pytest.approx(0.12 * v.payable.sum(), rel=1e-12)
    assert s.vat_credit_peak == pytest.approx(v.credit_before_refund.max(), rel=1e-12)
    assert s.vat_credit_peak >= v.credit.max()


@pytest.mark.parametrize("years", [1, 3])
def test_with_refunds_vat_cash_over_the_horizon_is_minus_the_surtax(tmp_path, years):
    low_price = {"price_per_gpu_hour": 20}  # the capex VAT outlasts the first year
    model = _build(tmp_path, {"horizon_years": years, "revenue": low_price, "vat": FULL_VAT})
    v = model.vat("small")
    assert v.credit.iloc[-1] == 0.0  # refunded at M = 12 y
    assert v.vat_cash.sum() == pytest.approx(-v.surtax.sum(), rel=1e-9, abs=1e-6)
    assert v.refund.sum() > 0
    assert (v.surtax.sum() > 0) == (years > 1)  # payable once the refunded pool is gone


def test_without_refunds_vat_cash_plus_surtax_is_minus_the_credit_left(tmp_path):
    no_refund = {**FULL_VAT, "refund_credit": False}
    low_price = {"price_per_gpu_hour": 5}
    model = _build(tmp_path, {"horizon_years": 2, "revenue": low_price, "vat": no_refund})
    v = model.vat("small")
    left = v.credit.iloc[-1]
    assert left > 0  # the hand case's capex VAT is not used up in two years
    assert v.vat_cash.sum() + v.surtax.sum() == pytest.approx(-left, rel=1e-9)


def test_default_with_vat_keeps_the_identity(tmp_path):
    model = _build(tmp_path, {"vat": FULL_VAT}, base=default_assumptions_dir())
    for tier in model.tiers:
        v = model.vat(tier)
        assert v.vat_cash.sum() == pytest.approx(-v.surtax.sum(), rel=1e-9, abs=1e-3)
        assert v.credit_before_refund.max() > 0.13 * model.capex(tier).servers.sum() / 2


def test_zero_rates_change_nothing(tmp_path):
    base = {"horizon_years": 3, "financing": {"debt_share": 0.5, "interest_rate": 0.05,
            "term_years": 2}}  # fmt: skip
    plain = _build(tmp_path, base).summary().loc["small"]
    zero = {"output_rate": 0.0, "surtax_rate": 0.12, "refund_credit": True}
    with_vat = _build(tmp_path, {**base, "vat": zero}).summary().loc["small"]
    for col in plain.index:
        a, b = plain[col], with_vat[col]
        if a is None or isinstance(a, str):
            assert a == b
        elif np.isnan(a):
            assert np.isnan(b), col
        else:
            assert b == pytest.approx(a, rel=1e-12, abs=1e-9), col


def test_surtax_lowers_the_taxable_income_and_vat_cash_enters_fcf(tmp_path):
    """One year, no losses: tax with VAT = 25% (EBIT - surtax); FCF with VAT =
    FCF without + VAT cash + the tax saved (25% of the surtax)."""
    plain = _build(tmp_path, {"revenue": {"price_per_gpu_hour": 400}})
    vat = _build(tmp_path, {"revenue": {"price_per_gpu_hour": 400}, "vat": FULL_VAT})
    ebit = plain.annual("small").ebit[1]
    surtax = vat.vat("small").surtax.sum()
    assert ebit - surtax > 0 and surtax > 0
    assert vat.annual("small").tax[1] == pytest.approx(0.25 * (ebit - surtax), rel=1e-12)
    fcf_plain, fcf_vat = plain.cash_flow("small").fcf, vat.cash_flow("small").fcf
    diff = fcf_vat - fcf_plain
    cash = vat.vat("small").vat_cash
    np.testing.assert_allclose(diff[:-1], cash[:-1], rtol=1e-12, atol=1e-6)
    assert diff.iloc[-1] == pytest.approx(cash.iloc[-1] + 0.25 * surtax, rel=1e-9)
    s_plain, s_vat = plain.summary().loc["small"], vat.summary().loc["small"]
    assert s_vat.npv - s_plain.npv == pytest.approx(cash.sum() + 0.25 * surtax, rel=1e-9)
    for col in ("tco", "opex_year1", "cost_per_gpu_hour", "capex"):  # net of VAT
        assert s_vat[col] == s_plain[col]


def test_levered_tax_and_loans_with_vat(tmp_path):
    """Loans finance net capex only; the levered tax base loses the surtax too;
    ECF = FCF + draws - service - balloon + tax - levered tax with the VAT cash in
    both; CFADS includes it."""
    base = {"revenue": {"price_per_gpu_hour": 400}, "horizon_years": 2,
            "financing": {"debt_share": 0.6, "interest_rate": 0.06, "term_years": 1}}  # fmt: skip
    model = _build(tmp_path, {**base, "vat": FULL_VAT})
    cf, capex = model.cash_flow("small"), model.capex("small")
    assert cf.debt_draw.sum() == pytest.approx(0.6 * capex.total.sum(), rel=1e-12)
    ecf = cf.fcf + cf.debt_draw - cf.interest - cf.principal - cf.balloon + cf.tax - cf.tax_levered
    np.testing.assert_allclose(cf.equity_cash_flow, ecf, rtol=1e-9, atol=1e-6)
    annual = model.annual("small")
    y = annual.loc[1:]
    cfads = y.revenue - y.opex - y.tax_levered + y.vat_cash
    np.testing.assert_allclose(y.cfads, cfads, rtol=1e-9)
    surtax_1 = model.vat("small").surtax.iloc[1:13].sum()
    base_1 = y.ebit[1] - y.interest[1] - surtax_1
    assert base_1 > 0
    assert y.tax_levered[1] == pytest.approx(0.25 * base_1, rel=1e-12)
