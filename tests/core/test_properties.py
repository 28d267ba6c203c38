"""Accounting identities that must hold for any valid inputs (Hypothesis)."""

from __future__ import annotations

import numpy as np
import numpy_financial as npf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import costmodel as cm
from costmodel.core import finance as fin
from costmodel.core import irrsolve
from costmodel.inputs.schema import DEPRECIATION_METHODS
from tests.paths import HAND

BASE = cm.load_assumptions(HAND)

methods = st.sampled_from(DEPRECIATION_METHODS)
fractions = st.floats(0, 1, allow_nan=False)


@given(
    cost=st.floats(0, 1e10),
    salvage=st.floats(0, 0.5),
    method=methods,
    life=st.integers(1, 40),
)
def test_depreciation_over_life_sums_to_cost_minus_salvage(cost, salvage, method, life):
    dep = fin.depreciation_annual(cost, salvage, method, life)[0]
    assert dep.sum() == pytest.approx(cost * (1 - salvage), rel=1e-9, abs=1e-6)
    book = cost - np.cumsum(dep)
    assert (book >= cost * salvage - 1e-6 * max(cost, 1)).all()  # never below salvage
    assert (dep >= -1e-9).all()


model_inputs = st.fixed_dictionaries(
    {
        "horizon_years": st.integers(1, 8),
        "operations.utilization": fractions,
        "revenue.price_per_gpu_hour": st.floats(0, 200),
        "revenue.price_decline": st.floats(0, 0.5),
        "power.escalation": st.floats(0, 0.2),
        "finance.tax_rate": st.floats(0, 0.5),
        "finance.discount_rate": st.floats(0, 0.3),
        "depreciation.servers.method": methods,
        "depreciation.servers.life_years": st.integers(1, 10),
        "depreciation.facility.method": methods,
        "depreciation.network.life_years": st.integers(1, 10),
        "terminal_value": st.sampled_from(["book", "none"]),
        "facility.mode": st.sampled_from(["build", "colocation"]),
        "tiers.small.gpus": st.sampled_from([8, 16, 64, 512]),
    }
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(over=model_inputs)
def test_cash_flow_identities(over):
    m = cm.build(cm.with_overrides(BASE, over))
    s = m.summary().loc["small"]
    cf = m.cash_flow("small")
    M = m.months
    # FCF_0 = -capex; FCF_m = revenue - opex - tax (+ terminal value at M)
    assert cf.loc[0, "fcf"] == pytest.approx(-s.capex)
    expected = cf.revenue - cf.opex - cf.tax + cf.terminal_value
    np.testing.assert_allclose(cf.fcf.iloc[1:], expected.iloc[1:], rtol=1e-9, atol=1e-6)
    assert (cf.terminal_value.iloc[:M] == 0).all()
    # net book value never negative; depreciation + closing NBV = cost
    d = m.depreciation("small")
    capex = m.capex("small")
    for cls in ("servers", "network", "storage", "facility"):
        assert (d[f"nbv_{cls}"] >= -1e-6).all()
        assert d[cls].sum() + d[f"nbv_{cls}"].iloc[-1] == pytest.approx(capex[cls].sum(), abs=1e-4)
    # summary equals the sums of the schedules
    assert capex.total.sum() == pytest.approx(s.capex)
    assert m.opex("small").total.sum() + s.capex == pytest.approx(s.tco)
    assert m.opex("small").total.loc[1:12].sum() == pytest.approx(s.opex_year1)
    assert cf.discounted_fcf.sum() == pytest.approx(s.npv, abs=1e-6 * max(1, s.capex))
    assert cf.revenue.sum() == pytest.approx(s.revenue)
    assert cf.gpu_hours.sum() == pytest.approx(s.gpu_hours)
    # annual roll-up: tax paid equals the loss-pool arithmetic
    ann = m.annual("small")
    assert ann.tax.sum() == pytest.approx(cf.tax.sum())
    assert (ann.loss_pool_close >= -1e-6).all()
    # NPV at the monthly IRR is ~0 (relative to the size of the discounted terms),
    # and the summary reports it annualized
    flows = cf.fcf.to_numpy()
    i_m = irrsolve.irr_monthly(flows)[0]
    assert np.isnan(i_m) == np.isnan(s.irr)
    if not np.isnan(i_m):
        assert abs(npf.npv(i_m, flows)) <= 1e-8 * npf.npv(i_m, np.abs(flows))
        assert s.irr == pytest.approx((1 + i_m) ** 12 - 1, rel=1e-12, abs=1e-15)


@SETTINGS
@given(over=model_inputs)
def test_vectorised_variants_equal_single_builds(over):
    """Two variants through the scenario axis give the same numbers as two builds."""
    base = cm.with_overrides(BASE, over)
    prices = np.array([5.0, 150.0])
    res = cm.run_variants(base, {"revenue.price_per_gpu_hour": prices})["small"]
    for i, price in enumerate(prices):
        single = cm.build(cm.with_overrides(base, {"revenue.price_per_gpu_hour": price}))
        s = single.summary().loc["small"]
        for col in ("npv", "capex", "tco", "cost_per_gpu_hour", "roi"):
            assert res.metrics[col][i] == pytest.approx(s[col], rel=1e-12, abs=1e-9, nan_ok=True)
        assert np.isnan(res.metrics["irr"][i]) == np.isnan(s.irr)
