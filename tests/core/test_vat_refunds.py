"""VAT refunds by month and the refund ratio (methodology §11.11): the credit pool
worked by hand on a flow over months 10-12, monthly against annual refunds, and
the identities through the engine."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import costmodel as cm
from costmodel.core.vat import credit_pool
from tests.core.test_vat import FULL_VAT
from tests.paths import HAND


def _flow() -> np.ndarray:
    """Months 0..12: 100 of input VAT at month 10 (a purchase), 7 of net output at
    month 11, 20 of net input at month 12."""
    net = np.zeros((1, 13))
    net[0, 10], net[0, 11], net[0, 12] = -100.0, 7.0, -20.0
    return net


def test_annual_refund_of_95_percent_by_hand():
    """Month 10: pool 100. Month 11: 7 of output uses it, 93 left. Month 12: 20 more
    input, 113 before the year-end refund; 0.95 x 113 = 107.35 refunded, 5.65 stays."""
    pool = credit_pool(_flow(), refund=True, ratio=np.array([0.95]))
    np.testing.assert_allclose(pool["credit"][0, 10:], [100.0, 93.0, 5.65], rtol=1e-12)
    np.testing.assert_allclose(pool["refund"][0, 10:], [0.0, 0.0, 107.35], rtol=1e-12)
    np.testing.assert_array_equal(pool["payable"][0], np.zeros(13))


def test_monthly_refund_of_95_percent_by_hand():
    """Month 10: pool 100. Month 11: the claim 0.95 x 100 = 95 is paid and leaves the
    pool at the start of the month, 5 stay; the month's 7 of net output uses them:
    2 payable, pool 0. Month 12 (= M): 20 of input, pool 20; its claim, due after M,
    is paid at M: 0.95 x 20 = 19, 1 stays (and is lost)."""
    pool = credit_pool(_flow(), refund=True, ratio=np.array([0.95]), monthly=True)
    np.testing.assert_allclose(pool["refund"][0, 10:], [0.0, 95.0, 19.0], rtol=1e-12)
    np.testing.assert_allclose(pool["payable"][0, 10:], [0.0, 2.0, 0.0], rtol=1e-12)
    np.testing.assert_allclose(pool["credit"][0, 10:], [100.0, 0.0, 1.0], rtol=1e-12)
    np.testing.assert_allclose(pool["credit_open"][0, 10:], [0.0, 100.0, 0.0], rtol=1e-12)
    # monthly refunds bring 95 + 19 - 2 = 112 back by month 12; annual ones 107.35
    monthly = (pool["refund"] - pool["payable"]).sum()
    annual = credit_pool(_flow(), refund=True, ratio=np.array([0.95]))
    assert monthly == pytest.approx(112.0) and (annual["refund"] - annual["payable"]).sum() == (
        pytest.approx(107.35)
    )


def test_a_ratio_of_one_annually_is_the_v3_pool():
    rng = np.random.default_rng(3)
    net = rng.normal(0.0, 50.0, (4, 37))
    got = credit_pool(net, refund=True, ratio=np.ones(4))
    closed = credit_pool(net, refund=True)
    forced = credit_pool(net, refund=True, ratio=np.array([1.0, 1.0, 1.0, 1.0 - 1e-16]))
    for k in closed:
        np.testing.assert_allclose(got[k], closed[k], rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(forced[k], closed[k], rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("mode", ["annual", "monthly"])
@pytest.mark.parametrize("ratio", [1.0, 0.95])
def test_the_corkscrew_and_the_cash_identity_through_the_engine(tmp_path, mode, ratio):
    """Every month ``credit = credit_open + input - output + payable - refund``; over
    the horizon ``sum VAT cash + sum surtax = -credit left at M``."""
    vat = {k: v for k, v in FULL_VAT.items() if k != "refund_credit"}
    overlay = {"vat": {**vat, "refund": mode, "refund_ratio": ratio}, "horizon_years": 2}
    path = tmp_path / "o.yaml"
    path.write_text(yaml.safe_dump(overlay))
    m = cm.build(cm.load_assumptions(HAND, path))
    v = m.vat("small")
    lhs = v.credit_open + v.input - v.output + v.payable - v.refund
    np.testing.assert_allclose(v.credit, lhs, rtol=1e-12, atol=1e-6)
    left = float(v.credit.iloc[-1])
    assert (v.vat_cash.sum() + v.surtax.sum()) == pytest.approx(-left, abs=1e-6)
    if mode == "monthly":  # the capex credit of month 0 is claimed and paid in month 1
        assert v.refund.iloc[1] == pytest.approx(ratio * v.credit.iloc[0], rel=1e-12)
        if ratio == 1.0:  # the claim on the pool at M is paid at M: nothing is left
            assert left == pytest.approx(0.0, abs=1e-9)


def test_monthly_refunds_are_worth_more_than_annual_ones(tmp_path):
    """Without a surtax the same credit comes back sooner: the NPV with monthly
    refunds is higher. (With a surtax, a refunded credit no longer offsets output
    VAT, so more VAT is paid and surtaxed: methodology §11.11.)"""
    npv = {}
    for mode in ("annual", "monthly"):
        path = tmp_path / f"{mode}.yaml"
        vat = {k: v for k, v in FULL_VAT.items() if k != "refund_credit"}
        overlay = {
            "vat": {**vat, "refund": mode, "surtax_rate": 0.0},
            "finance": {"discount_rate": 0.1, "tax_rate": 0.25},
        }
        path.write_text(yaml.safe_dump(overlay | {"horizon_years": 2}))
        npv[mode] = cm.build(cm.load_assumptions(HAND, path)).summary().loc["small", "npv"]
    assert npv["monthly"] > npv["annual"]
