"""The contract's default rate is a ranged input like any other (methodology
§11.12): the tornado varies it, the Monte Carlo draws it (correlated with the spot
price where the file says so) and each draw's NPV is the engine's at that rate."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr

import costmodel as cm
from costmodel.analysis.sensitivity import tornado

RANGED = {
    "revenue.contract.default_rate": {"value": 0.05, "low": 0.0, "high": 0.15},
    "correlations": [
        {"a": "revenue.contract.default_rate", "b": "revenue.price_per_gpu_hour", "rho": -0.6}
    ],
}


@pytest.fixture(scope="module")
def assumptions() -> cm.Assumptions:
    return cm.load_assumptions(overrides=RANGED)


def test_the_tornado_varies_the_default_rate(assumptions):
    t = tornado(cm.build(assumptions))
    row = t[(t.input == "revenue.contract.default_rate") & (t.tier == "thousands")].iloc[0]
    at_high = (
        cm.build(cm.load_assumptions(overrides={**RANGED, "revenue.contract.default_rate": 0.15}))
        .summary()
        .loc["thousands", "npv"]
    )
    assert row.at_high == pytest.approx(at_high, rel=1e-9)
    assert row.at_low > row.at_high  # more default, less value


def test_the_monte_carlo_draws_it_with_its_correlation(assumptions):
    mc = cm.monte_carlo(assumptions, n=300, seed=5, tiers=["thousands"])
    drawn = mc.samples["revenue.contract.default_rate"]
    assert drawn.min() >= 0.0 and drawn.max() <= 0.15 and drawn.std() > 0.01
    rho = spearmanr(drawn, mc.samples["revenue.price_per_gpu_hour"]).statistic
    assert rho < -0.4
    # a draw's NPV is the engine's at its drawn inputs
    i = int(np.argmax(drawn.to_numpy()))
    values = {p: float(mc.samples[p].iloc[i]) for p in mc.samples.columns}
    overrides = {p: int(v) if v.is_integer() else v for p, v in values.items()}
    one = cm.build(cm.load_assumptions(overrides={**RANGED, **overrides}))
    assert mc.draws["thousands"].npv.iloc[i] == pytest.approx(
        one.summary().loc["thousands", "npv"], rel=1e-9
    )
