"""The schedules the writers read (core.schedules): each capex event, loan, loss
vintage and deployment adds up to the tier's totals, and one of each equals its
definition worked out independently (arithmetic written out, numpy-financial's
ipmt/ppmt for a level-payment loan)."""

from __future__ import annotations

import numpy as np
import numpy_financial as npf
import pytest
import yaml

import costmodel as cm
from costmodel.core.units import MONTHS_PER_YEAR
from costmodel.inputs.schema import ASSET_CLASSES
from tests.paths import HAND

OVERLAY = {
    "schema_version": 2,
    "horizon_years": 4,
    "terminal_value": "market",
    "timeline": {"build_months": 0, "ramp_months": 3},
    "finance": {"loss_carryforward_years": 2},
    "revenue": {"price_per_gpu_hour": 30},
    "financing": {"debt_share": 0.5, "interest_rate": 0.06, "term_years": 3},
    "depreciation": {
        c: {"market_decline": 0.3} for c in ("servers", "network", "storage", "facility")
    },
    "tiers": {"small": {"reserve_headroom": False, "stages": [{"month": 14, "gpus": 8}]}},
}


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    path = tmp_path_factory.mktemp("sched") / "v2.yaml"
    path.write_text(yaml.safe_dump(OVERLAY))
    return cm.build(cm.load_assumptions(HAND, path)).results["small"]


def test_events_add_up_to_capex_depreciation_and_book_value(result):
    s = result.schedules
    for cls in ASSET_CLASSES:
        mine = [e for e in s.events if e.cls == cls]
        assert mine
        np.testing.assert_allclose(sum(e.cost for e in mine), result.capex[cls], rtol=1e-14)
        np.testing.assert_allclose(
            sum(e.depreciation for e in mine), result.depreciation[cls], rtol=1e-14, atol=1e-9
        )
        np.testing.assert_allclose(
            sum(e.net_book_value for e in mine), result.nbv[cls], rtol=1e-12, atol=1e-6
        )
    assert {e.deployment for e in s.events} == {0, 1}


def test_a_straight_line_event_by_hand(result):
    """Deployment 0's servers: 16 GPUs / 8 per server x 1,000,000 at month 0, in
    service from month 1, 10% salvage over 2 years: 900,000 a year, 75,000 a month
    in months 1..24, nothing after."""
    (servers,) = [e for e in result.schedules.events if e.cls == "servers" and e.deployment == 0]
    assert servers.cost[0] == 2 * 1_000_000 and servers.month[0] == 0
    assert servers.in_service[0] == 1
    want = np.zeros(49)
    want[1:25] = 2_000_000 * (1 - 0.1) / 2 / 12
    np.testing.assert_allclose(servers.depreciation[0], want, rtol=1e-14)
    assert servers.net_book_value[0] == pytest.approx(200_000, rel=1e-12)


def test_loans_add_up_to_the_debt_lines(result):
    s = result.schedules
    assert [loan.month for loan in s.loans] == [0, 14]
    for k, total in result.debt.items():
        np.testing.assert_allclose(
            sum(loan.lines[k][0] for loan in s.loans), total[0], rtol=1e-13, atol=1e-7, err_msg=k
        )


def test_a_level_payment_loan_against_numpy_financial(result):
    """The loan drawn at month 0 (no construction: first payment at month 1, no
    capitalized interest) pays interest and principal as npf.ipmt / npf.ppmt of
    its balance over 36 months at the monthly rate."""
    loan = result.schedules.loans[0]
    r = float(loan.monthly_rate[0])
    assert r == pytest.approx(0.06 / 12, rel=1e-15)  # the nominal convention, the default
    assert r == pytest.approx(float(result.schedules.rates["interest"][0]), rel=0)
    b = float(loan.capitalized_balance[0])
    assert b == pytest.approx(float(loan.draw[0]), rel=1e-15)  # nothing capitalized
    k = np.arange(1, 37)
    np.testing.assert_allclose(loan.lines["interest"][0, 1:37], -npf.ipmt(r, k, 36, b), rtol=1e-11)
    np.testing.assert_allclose(loan.lines["principal"][0, 1:37], -npf.ppmt(r, k, 36, b), rtol=1e-11)
    assert loan.payment[0] == pytest.approx(-npf.pmt(r, 36, b), rel=1e-13)
    assert loan.lines["balance_close"][0, 36] == pytest.approx(0.0, abs=1e-6)


def test_vintages_add_up_to_the_loss_corkscrew(result):
    s = result.schedules
    ends = np.arange(MONTHS_PER_YEAR, 49, MONTHS_PER_YEAR)
    for v, p in ((s.vintages, "loss"), (s.levered_vintages, "levered_loss")):
        close = "loss_pool_close" if p == "loss" else "levered_loss_close"
        np.testing.assert_allclose(
            v.used[0].sum(axis=0)[ends], result.annual[f"{p}_used"][0], rtol=1e-13, atol=1e-7
        )
        np.testing.assert_allclose(
            v.expired[0].sum(axis=0)[ends], result.annual[f"{p}_expired"][0], atol=1e-7
        )
        np.testing.assert_allclose(
            v.balance[0].sum(axis=0)[ends], result.annual[close][0], rtol=1e-13, atol=1e-7
        )
        # a balance holds between year ends
        assert np.all(v.balance[0][:, 13:24] == v.balance[0][:, 12:13])
    assert s.vintages.balance[0][:, 12].sum() > 0  # the case has losses


def test_deployments_add_up_to_hours_and_revenue(result):
    s = result.schedules
    assert len(s.deployments) == 2
    hours = sum(d.gpu_hours for d in s.deployments)
    revenue = sum(d.revenue for d in s.deployments)
    np.testing.assert_allclose(hours, result.flows["gpu_hours"], rtol=1e-13)
    np.testing.assert_allclose(revenue, result.flows["revenue"], rtol=1e-13)
    stage = s.deployments[1]
    assert np.all(stage.in_service[0][:15] == 0) and np.all(stage.in_service[0][15:] == 1)
    # 8 GPUs, ramp 3 months from month 14: month 15 sells 1/3 of utilization
    sold = stage.gpu_hours[0][15] / (8 * 730)
    assert sold == pytest.approx(0.5 / 3 * float(result.metrics["availability"][0]), rel=1e-12)
