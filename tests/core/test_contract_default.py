"""Counterparty default (methodology §11.12) worked by hand on one deployment of the
hand case: the survival factor, the defaulted hours sold spot with their
electricity load, and ``contract_at_risk``; the evaluations agree."""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm
from costmodel.core.engine import run_monthly, tier_inputs
from costmodel.core.timing import deployments
from tests.paths import HAND

CONTRACT = {"share": 0.5, "price_per_gpu_hour": 150, "months": 12, "default_rate": 0.2}


def _model(**extra) -> cm.Model:
    return cm.build(cm.load_assumptions(HAND, overrides={"revenue.contract": CONTRACT, **extra}))


def test_one_deployment_by_hand():
    """16 GPUs in service from month 1 (no build, no ramp), availability 1, H = 730:
    the contract survives to month m with S(m) = 0.8^((m-1)/12); contract hours
    0.5 x 16 x 730 x S = 5840 S at 150, spot hours 16 x 730 x 0.5 x (1 - 0.5 S) at
    100 (the defaulted share of the contract's hours sold spot with the utilization
    0.5); electricity 1.5 x 730 x 1.0 x 22 kW x (0.5 + 0.5 x load), load = 0.5 S +
    (1 - 0.5 S) x 0.5."""
    m = _model()
    months = np.arange(1, 13)
    s = 0.8 ** ((months - 1) / 12)
    rev = m.revenue("small").iloc[1:]
    np.testing.assert_allclose(rev.contract_hours, 5840 * s, rtol=1e-12)
    np.testing.assert_allclose(rev.contract_revenue, 5840 * s * 150, rtol=1e-12)
    np.testing.assert_allclose(rev.spot_hours, 5840 * (1 - 0.5 * s), rtol=1e-12)
    np.testing.assert_allclose(rev.spot_revenue, 5840 * (1 - 0.5 * s) * 100, rtol=1e-12)
    load = 0.5 * s + (1 - 0.5 * s) * 0.5
    elec = m.opex("small").electricity.iloc[1:]
    np.testing.assert_allclose(elec, 1.5 * 730 * 22 * (0.5 + 0.5 * load), rtol=1e-12)
    at_risk = float(np.sum(5840 * 150 * (1 - s)))
    assert m.summary().loc["small", "contract_at_risk"] == pytest.approx(at_risk, rel=1e-12)
    assert s[1] == pytest.approx(0.981576, abs=1e-6)  # month 2: 0.8^(1/12)


def test_no_default_rate_changes_nothing():
    with_zero = _model(**{"revenue.contract.default_rate": 0.0}).summary()
    without = cm.build(
        cm.load_assumptions(
            HAND,
            overrides={
                "revenue.contract": {k: v for k, v in CONTRACT.items() if k != "default_rate"}
            },
        )
    ).summary()
    assert with_zero.loc["small", "contract_at_risk"] == 0.0
    for col in ("npv", "revenue", "gpu_hours", "irr"):
        assert with_zero.loc["small", col] == without.loc["small", col]


def test_the_fast_evaluation_equals_the_monthly_one():
    """A model with a default rate is evaluated by draw (each variant's own shapes);
    its columns equal those of the month-by-month run."""
    m = _model(**{"horizon_years": 3, "timeline.build_months": 2, "timeline.ramp_months": 4})
    q = tier_inputs(m.inputs["small"].params())
    config = m.inputs["small"].config
    monthly = run_monthly(q, config, deployments(q, config.stages, config.months)).metrics
    fast = m.results["small"].metrics
    for col in ("npv", "revenue", "gpu_hours", "contract_at_risk", "opex_year1", "irr"):
        assert float(fast[col][0]) == pytest.approx(float(monthly[col][0]), rel=1e-12), col
