"""Selling costs and contracted capacity (methodology §11.4, §11.5) against
arithmetic worked out here, and the identities of their definitions.

The case: tests/data/hand.yaml cut to one 8-GPU server (11 kW with 10% auxiliary
power, idle 50%, PUE 1.5, 1 CNY/kWh), three years, a six-month ramp to 50%
utilization, 0.01 failures a server-day repaired in 2.4 h (availability
1 - 0.01 x 2.4 / 24 = 0.999), spot 100 CNY/GPU-h declining 20% a year, and a
contract for half the available hours at 120 CNY/GPU-h for 24 months, +10% a
contract year; a second 8-GPU deployment bought at month 18 has its own
contract from month 19.
"""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm
from costmodel.inputs.errors import AssumptionError
from tests.paths import HAND

H = 730
AVAIL = 1 - 0.01 * 2.4 / 24  # 0.999
AVAILABLE_HOURS = 8 * AVAIL * H  # 5,834.16 GPU-h a month for one server
SHARE, PRICE_C, ESC = 0.5, 120.0, 0.10
CONTRACT_HOURS = SHARE * AVAILABLE_HOURS  # 2,917.08 GPU-h, no ramp

BASE = {
    "horizon_years": 3,
    "timeline.ramp_months": 6,
    "tiers.small.gpus": 8,
    "reliability.repair_hours": 2.4,
    "revenue.price_decline": 0.2,
}
CONTRACT = {
    "revenue.contract": {
        "share": SHARE,
        "price_per_gpu_hour": PRICE_C,
        "months": 24,
        "escalation": ESC,
    }
}


def model(**extra) -> cm.Model:
    return cm.build(cm.load_assumptions(HAND, overrides={**BASE, **extra}))


@pytest.fixture(scope="module")
def contracted() -> cm.Model:
    return model(**CONTRACT)


def u(m: int) -> float:
    """Ramped utilization of the first deployment: 0.5 x min(1, m / 6)."""
    return 0.5 * min(1.0, m / 6)


def test_contract_and_spot_hours_and_prices_by_hand(contracted):
    rev = contracted.revenue("small")
    # month 3: contract year 1, ramp 3/6
    spot_3 = AVAILABLE_HOURS * u(3) * (1 - SHARE)  # 5,834.16 x 0.25 x 0.5 = 729.27
    assert rev.contract_hours[3] == pytest.approx(CONTRACT_HOURS, rel=1e-12)
    assert rev.spot_hours[3] == pytest.approx(spot_3, rel=1e-12)
    assert rev.contract_revenue[3] == pytest.approx(CONTRACT_HOURS * 120.0, rel=1e-12)
    assert rev.spot_revenue[3] == pytest.approx(spot_3 * 100.0, rel=1e-12)
    # month 14: contract year 2 (price 120 x 1.1 = 132), spot in model year 2 (100 x 0.8)
    assert rev.contract_revenue[14] == pytest.approx(CONTRACT_HOURS * 132.0, rel=1e-12)
    assert rev.spot_revenue[14] == pytest.approx(AVAILABLE_HOURS * 0.5 * 0.5 * 80.0, rel=1e-12)
    # month 30: the contract is over, everything is spot at 100 x 0.8^2 = 64
    assert rev.contract_hours[30] == 0.0
    assert rev.spot_hours[30] == pytest.approx(AVAILABLE_HOURS * 0.5, rel=1e-12)
    assert rev.spot_revenue[30] == pytest.approx(AVAILABLE_HOURS * 0.5 * 64.0, rel=1e-12)
    assert rev.gpu_hours[3] == pytest.approx(CONTRACT_HOURS + spot_3, rel=1e-12)


def test_electricity_on_the_load_factor_by_hand(contracted):
    """Load factor s + (1 - s) u: month 3 0.5 + 0.5 x 0.25 = 0.625, drawn
    11 x (0.5 + 0.5 x 0.625) = 8.9375 kW; month 30 (no contract) the ramped 0.5,
    11 x (0.5 + 0.5 x 0.5) = 8.25 kW; times PUE 1.5, 730 h and 1 CNY/kWh."""
    electricity = contracted.opex("small").electricity
    assert electricity[3] == pytest.approx(8.9375 * 1.5 * 730, rel=1e-12)  # 9,786.5625
    assert electricity[30] == pytest.approx(8.25 * 1.5 * 730, rel=1e-12)  # 9,033.75


def test_a_stage_contract_escalates_by_its_own_contract_year():
    """A deployment bought at month 18 is under contract in months 19..42: months
    19-30 are its contract year 1 (120), months 31-36 its year 2 (132), though
    months 25-30 are model year 3."""
    m = model(**CONTRACT, **{"tiers.small.stages": [{"month": 18, "gpus": 8}]})
    rev = m.revenue("small")
    first_only = CONTRACT_HOURS * 132.0  # the first deployment is in its year 2 at month 19
    assert rev.contract_revenue[19] == pytest.approx(first_only + CONTRACT_HOURS * 120, rel=1e-12)
    assert rev.contract_revenue[28] == pytest.approx(CONTRACT_HOURS * 120.0, rel=1e-12)
    assert rev.contract_revenue[31] == pytest.approx(CONTRACT_HOURS * 132.0, rel=1e-12)
    # the stage's spot hours in its first month: ramp 1/6, half of it contracted
    spot_19 = AVAILABLE_HOURS * 0.5 * (1 - SHARE) + AVAILABLE_HOURS * u(1) * (1 - SHARE)
    assert rev.spot_hours[19] == pytest.approx(spot_19, rel=1e-12)


def test_sga_is_its_share_of_revenue_and_part_of_opex():
    m = model(**CONTRACT, **{"operations.sga_share": 0.05})
    rev, opex = m.revenue("small"), m.opex("small")
    np.testing.assert_allclose(opex.sga, 0.05 * rev.revenue, rtol=1e-12)
    plain = model(**CONTRACT)
    np.testing.assert_allclose(opex.total, plain.opex("small").total + opex.sga, rtol=1e-12)
    s, p = m.summary().loc["small"], plain.summary().loc["small"]
    assert s.tco == pytest.approx(p.tco + 0.05 * p.revenue, rel=1e-12)
    assert s.opex_year1 == pytest.approx(p.opex_year1 + 0.05 * rev.revenue[1:13].sum(), rel=1e-12)


def test_realized_price_times_hours_is_revenue(contracted):
    s = contracted.summary().loc["small"]
    assert s.realized_price * s.gpu_hours == pytest.approx(s.revenue, rel=1e-12)
    rev = contracted.revenue("small")
    assert s.gpu_hours == pytest.approx(rev.gpu_hours.sum(), rel=1e-12)
    assert s.revenue == pytest.approx((rev.contract_revenue + rev.spot_revenue).sum(), rel=1e-12)


NO_CONTRACT = """\
correlations: []  # the default pairs the contract price, which this removes
operations: {sga_share: null}  # the default's operators carry SG&A, which this removes
revenue: {contract: null}
tiers:
  tens: {revenue: {contract: null}}
  hundreds: {revenue: {contract: null}}
"""


def test_no_contract_and_no_sga_change_nothing(tmp_path):
    """``share: 0`` and ``sga_share: 0`` give the numbers of no contract and no
    SG&A: the bundled default with its contracts (global and per tier) removed."""
    overlay = tmp_path / "no-contract.yaml"
    overlay.write_text(NO_CONTRACT, encoding="utf-8")
    plain = cm.layer(cm.load_assumptions(), overlay)
    assert plain.revenue.contract is None and plain.operations.sga_share.value == 0
    assert all(t.revenue is None or t.revenue.contract is None for t in plain.tiers.values())
    today = cm.build(plain).summary()
    zero = {
        "revenue.contract": {"share": 0.0, "price_per_gpu_hour": 500.0, "months": 30},
        "operations.sga_share": 0.0,
    }
    same = cm.build(cm.layer(plain, overrides=zero)).summary()
    for col in today.columns:
        if today[col].dtype.kind == "f":
            np.testing.assert_allclose(same[col], today[col], rtol=1e-12, err_msg=col)


def test_realized_price_without_a_contract_is_the_average_spot_price():
    s = model().summary().loc["small"]
    assert s.realized_price == pytest.approx(s.revenue / s.gpu_hours, rel=1e-15)
    assert 64.0 < s.realized_price < 100.0  # between the year-3 and the year-1 price


def test_a_tier_overrides_the_contract_key_by_key():
    m = model(**CONTRACT, **{"tiers.small.revenue.contract.share": 0.25})
    assert m.revenue("small").contract_hours[1] == pytest.approx(0.25 * AVAILABLE_HOURS)
    assert m.revenue("small").contract_revenue[13] == pytest.approx(
        0.25 * AVAILABLE_HOURS * 132.0, rel=1e-12
    )


def test_a_tier_contract_needs_share_price_and_months():
    with pytest.raises(AssumptionError, match="contract needs"):
        model(**{"tiers.small.revenue.contract": {"share": 0.5, "months": 12}})


def test_varied_contract_months_equal_separate_builds():
    """The variants of different contract lengths (timings) computed together
    equal each built alone."""
    a = cm.load_assumptions(HAND, overrides={**BASE, **CONTRACT})
    lengths = np.array([6.0, 24.0, 36.0])
    out = cm.run_variants(a, {"revenue.contract.months": lengths}, ["small"])["small"]
    for i, n in enumerate(lengths):
        one = model(**CONTRACT, **{"revenue.contract.months": int(n)}).summary().loc["small"]
        for col in ("revenue", "npv", "gpu_hours", "tco", "realized_price"):
            assert out.metrics[col][i] == pytest.approx(one[col], rel=1e-12), (col, n)


def test_an_override_mapping_is_not_changed_by_later_overrides():
    """A contract given as a mapping in ``overrides`` is copied: a later key
    override below it (``revenue.contract.share``) leaves the caller's mapping as
    it was, so the next model built from it has the share it says."""
    contract = {"share": 0.5, "price_per_gpu_hour": 120.0, "months": 24}
    cm.load_assumptions(
        HAND, overrides={"revenue.contract": contract, "revenue.contract.share": 0.1}
    )
    assert contract["share"] == 0.5


def test_ranged_contract_months_are_drawn_whole_and_equal_single_builds():
    """A contract length with a range (methodology §11.5) is drawn in whole months
    by the Monte Carlo, its draws equal single builds, and the tornado's ends are
    the builds at low and high."""
    ranged = {
        **CONTRACT,
        "revenue.contract.months": {"value": 24, "low": 7, "high": 40, "dist": "uniform"},
    }
    a = cm.load_assumptions(HAND, overrides={**BASE, **ranged})
    mc = cm.monte_carlo(a, n=60, seed=3, chunk_size=25)
    drawn = mc.samples["revenue.contract.months"].to_numpy()
    np.testing.assert_array_equal(drawn, np.round(drawn))
    for i in (0, 31, 59):
        over = {p: float(v.iloc[i]) for p, v in mc.samples.items()}
        one = cm.build(cm.with_overrides(a, over)).summary().loc["small"]
        assert mc.draws["small"]["npv"].iloc[i] == pytest.approx(one.npv, rel=1e-9, abs=1e-6)
    t = cm.tornado(a).set_index("input")
    at_high = cm.build(cm.with_overrides(a, {"revenue.contract.months": 40})).summary()
    assert t.loc["revenue.contract.months", "at_high"] == pytest.approx(
        at_high.loc["small", "npv"], rel=1e-9
    )
