"""Build versus rent: cloud prices, PV of renting, break-even utilization and month.

References are rebuilt by hand from the hand-worked case (tests/data/hand.yaml:
16 GPUs at 50% utilization, 730 h a month), not read back from buildrent.py.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis.buildrent import COLUMNS, break_even_month
from costmodel.inputs.quotes import months_between
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.paths import HAND

HOURS_M = 16 * 0.5 * 730  # GPU-hours sold per month in the hand case


def hand(tmp_path: Path, cloud: float | None = None, **overrides) -> cm.Assumptions:
    """The hand case, plus a small overlay file giving the box server a cloud price."""
    paths = [HAND]
    if cloud is not None:
        overlay = tmp_path / "cloud.yaml"
        overlay.write_text(
            f"servers:\n  box:\n    cloud_on_demand_per_gpu_hour: {cloud}\n"
            f"    cloud_reserved_per_gpu_hour: {cloud / 2}\n",
            encoding="utf-8",
        )
        paths.append(overlay)
    return cm.load_assumptions(*paths, overrides=overrides)


def disc(rate: float, months: int) -> np.ndarray:
    """d_m = (1 + r)^(-m/12), m = 0..M (monthly compounding of an annual rate)."""
    return (1.0 + rate) ** (-np.arange(months + 1) / 12.0)


# ----------------------------------------------------------------------------- identity


def test_price_at_levelized_cost_gives_zero_npv():
    a = cm.load_assumptions(
        HAND,
        overrides={
            "finance.tax_rate": 0.0,
            "finance.discount_rate": 0.08,
            "terminal_value": "none",
            "revenue.price_decline": 0.0,
            "horizon_years": 3,
        },
    )
    s = cm.build(a).summary().loc["small"]
    c = s.cost_per_gpu_hour
    pv_hours = HOURS_M * disc(0.08, 36)[1:].sum()  # independent of the engine
    npv_at = {
        p: cm.build(cm.with_overrides(a, {"revenue.price_per_gpu_hour": p})).summary().npv["small"]
        for p in (c, c + 5.0, c - 5.0)
    }
    assert abs(npv_at[c]) < 1e-6 * s.capex
    # NPV = (price - levelized cost) x discounted GPU-hours
    assert npv_at[c + 5.0] == pytest.approx(5.0 * pv_hours, rel=1e-9)
    assert npv_at[c + 5.0] > 0 > npv_at[c - 5.0]


def test_cloud_price_at_levelized_cost_is_break_even(tmp_path):
    base = dict(
        {"finance.tax_rate": 0.0, "terminal_value": "none", "revenue.price_decline": 0.0},
        **{"finance.discount_rate": 0.08, "horizon_years": 2},
    )
    c = cm.build(hand(tmp_path, **base)).summary().cost_per_gpu_hour["small"]
    a = hand(tmp_path, cloud=c, **base, **{"revenue.mode": "avoided_cloud"})
    m = cm.build(a)
    row = cm.build_vs_rent(m).loc["small"]
    capex = m.summary().capex["small"]
    assert row.cloud_price_per_gpu_hour == pytest.approx(c, rel=1e-15)
    assert abs(row.saving) < 1e-6 * capex
    assert abs(row.npv_vs_cloud) < 1e-6 * capex
    assert abs(m.summary().npv["small"]) < 1e-6 * capex
    # at the cloud price equal to the levelized cost, current utilization is the break-even
    assert row.break_even_utilization == pytest.approx(0.5, abs=1e-7)


# ----------------------------------------------------------------------------- PVs


def test_pv_of_cloud_cost_by_hand(tmp_path):
    over = {"finance.discount_rate": 0.08, "horizon_years": 2, "revenue.price_decline": 0.1}
    m = cm.build(hand(tmp_path, cloud=30.0, **over))
    row = cm.build_vs_rent(m).loc["small"]
    d = disc(0.08, 24)
    months = np.arange(1, 25)
    decline = 0.9 ** (np.ceil(months / 12) - 1)
    pv_cloud = float((HOURS_M * 30.0 * decline * d[1:]).sum())
    opex = m.opex("small")["total"].to_numpy()
    capex = 2_845_000.0  # the hand-worked capex (tests/test_engine_hand.py)
    pv_build = capex + float((opex * d).sum())
    assert row.cloud_term == "on_demand"
    assert row.server == "box"
    assert row.pv_cloud_cost == pytest.approx(pv_cloud, rel=1e-12)
    assert row.pv_build_cost == pytest.approx(pv_build, rel=1e-12)
    assert row.saving == pytest.approx(pv_cloud - pv_build, rel=1e-12)
    assert row.gpu_hours == pytest.approx(HOURS_M * 24)
    assert row.pv_gpu_hours == pytest.approx(HOURS_M * d[1:].sum(), rel=1e-12)


def test_reserved_term_uses_the_reserved_price(tmp_path):
    m = cm.build(hand(tmp_path, cloud=30.0, **{"revenue.cloud_term": "reserved"}))
    row = cm.build_vs_rent(m).loc["small"]
    assert row.cloud_term == "reserved"
    assert row.cloud_price_per_gpu_hour == 15.0
    assert row.pv_cloud_cost == pytest.approx(HOURS_M * 12 * 15.0)  # discount rate 0


def test_avoided_cloud_revenue_is_the_cloud_cost(tmp_path):
    over = {"finance.discount_rate": 0.07, "horizon_years": 3, "revenue.price_decline": 0.2}
    m = cm.build(hand(tmp_path, cloud=90.0, **over, **{"revenue.mode": "avoided_cloud"}))
    row = cm.build_vs_rent(m).loc["small"]
    cf = m.cash_flow("small")
    assert row.pv_cloud_cost == pytest.approx((cf.revenue * cf.discount_factor).sum(), rel=1e-12)
    assert row.npv_vs_cloud == pytest.approx(m.summary().npv["small"], rel=1e-12)


def test_contracted_hours_are_valued_at_the_cloud_price_too():
    """Methodology §11.5: in the avoided_cloud mode every GPU-hour, contracted or
    spot, is worth the cloud price times the spot price index, so the revenue is
    the cloud cost of the hours month by month, and the NPV against the cloud
    does not depend on the contract's price or escalation."""
    contract = {"revenue.contract.share": 0.7, "revenue.contract.escalation": 0.05}
    a = cm.load_assumptions(overrides={"revenue.mode": "avoided_cloud", **contract})
    m = cm.build(a)
    under_contract = [t for t in m.tiers if np.sum(m.results[t].flows["contract_hours"][0]) > 0]
    assert under_contract == ["hundreds", "thousands"]  # tens sells spot (its own share 0)
    for t in m.tiers:
        f = m.results[t].flows
        # the cloud's quote rolled from its as_of to the start (methodology §30): the
        # H200's on-demand 2026-04 (9 months), reserved 2025-09 (16 months), at 10%/yr
        v = m.inputs[t].values()
        assert v["cloud_roll_months"] in (9, 16) and v["price_decline"] == 0.1
        cloud = v["cloud_price_per_gpu_hour"] * 0.9 ** (v["cloud_roll_months"] / 12)
        expected = np.asarray(f["gpu_hours"][0]) * cloud * np.asarray(f["price_index"][0])
        np.testing.assert_allclose(f["revenue"][0], expected, rtol=1e-12, atol=1e-6)
    dearer = cm.with_overrides(a, {"revenue.contract.price_per_gpu_hour": 99.0})
    np.testing.assert_allclose(cm.build(dearer).summary().npv, m.summary().npv, rtol=1e-12)
    rental = cm.build(cm.load_assumptions(overrides=contract))
    assert cm.build_vs_rent(rental).npv_vs_cloud.tolist() == pytest.approx(
        m.summary().npv.tolist(), rel=1e-12
    )


def test_tier_without_cloud_price_is_nan():
    df = cm.build_vs_rent(cm.build(cm.load_assumptions(HAND)))
    assert list(df.columns) == COLUMNS
    row = df.loc["small"]
    assert row.server == "box"
    numbers = [c for c in COLUMNS if c not in ("server", "cloud_term")]
    assert all(math.isnan(row[c]) for c in numbers)


# ----------------------------------------------------------------------------- break-even month


def test_break_even_month_by_hand(tmp_path):
    price, decline = 60.0, 0.05
    over = {"horizon_years": 2, "revenue.price_decline": decline}
    m = cm.build(hand(tmp_path, cloud=price, **over))
    got = cm.build_vs_rent(m).loc["small"].break_even_month
    opex = m.opex("small")["total"].to_list()
    build, rent, want = 2_845_000.0, 0.0, None
    for month in range(1, 25):
        year = (month - 1) // 12 + 1
        build += opex[month]
        rent += HOURS_M * price * (1 - decline) ** (year - 1)
        if want is None and build <= rent:
            want = month
    assert want is not None and 1 < want < 24  # the case is chosen to break even mid-horizon
    assert got == want


def test_break_even_month_never_is_nan(tmp_path):
    m = cm.build(hand(tmp_path, cloud=20.0))
    assert math.isnan(cm.build_vs_rent(m).loc["small"].break_even_month)


def test_break_even_month_function():
    opex = np.array([0.0, 10.0, 10.0, 10.0])
    cloud = np.array([0.0, 40.0, 40.0, 40.0])
    # build: 50, 60, 70 (capex 40); rent: 40, 80, 120 -> month 2
    assert break_even_month(40.0, opex, cloud) == 2.0
    assert break_even_month(0.0, opex, cloud) == 1.0
    assert math.isnan(break_even_month(1000.0, opex, cloud))


# ----------------------------------------------------------------------------- break-even utilization


def test_break_even_utilization_rebuilds_to_zero_npv(tmp_path):
    over = {"horizon_years": 3, "finance.discount_rate": 0.08, "revenue.price_decline": 0.1}
    a = hand(tmp_path, cloud=150.0, **over)  # rental mode: the solver must switch modes
    m = cm.build(a)
    u = cm.build_vs_rent(m).loc["small"].break_even_utilization
    assert 0.0 < u < 1.0
    capex = m.summary().capex["small"]

    def npv(util: float) -> float:
        ac = cm.with_overrides(a, {"revenue.mode": "avoided_cloud", "operations.utilization": util})
        return cm.build(ac).summary().npv["small"]

    assert abs(npv(u)) < 1e-7 * capex
    assert npv(u - 0.01) < 0 < npv(u + 0.01)


def test_break_even_utilization_respects_a_tier_override(tmp_path):
    # the tier's own utilization is the path that moves
    a = hand(tmp_path, cloud=150.0, **{"tiers.small.operations.utilization": 0.9})
    u = cm.build_vs_rent(cm.build(a)).loc["small"].break_even_utilization
    ac = cm.with_overrides(
        a, {"revenue.mode": "avoided_cloud", "tiers.small.operations.utilization": u}
    )
    assert abs(cm.build(ac).summary().npv["small"]) < 1e-6 * 2_845_000


def test_no_root_is_nan(tmp_path):
    a = hand(tmp_path, cloud=5.0)  # below the running cost: never pays off
    m = cm.build(a)
    assert math.isnan(cm.build_vs_rent(m).loc["small"].break_even_utilization)
    full = cm.with_overrides(a, {"revenue.mode": "avoided_cloud", "operations.utilization": 1.0})
    assert cm.build(full).summary().npv["small"] < 0


# ----------------------------------------------------------------------------- bundled data


def test_every_server_has_cloud_prices_with_sources():
    a = cm.load_assumptions()
    for sid, s in a.servers.items():
        od, rs = s.cloud_on_demand_per_gpu_hour, s.cloud_reserved_per_gpu_hour
        assert od is not None and rs is not None, sid
        for q in (od, rs):
            assert q.low <= q.value <= q.high
            assert q.source and q.unit and "CNY/GPU-hour" in q.unit
            if q.source == "estimate":
                assert q.note, f"{sid}: an estimate must say why"
        assert rs.value <= od.value, f"{sid}: reserved should not cost more than on-demand"


def test_build_vs_rent_overlay():
    a = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "build-vs-rent.yaml")
    m = cm.build(a)
    df = cm.build_vs_rent(m)
    for t in m.tiers:
        # the overlay's term, where a tier does not keep its own (the captive tens
        # tier of the default is valued at the on-demand price)
        own = a.tiers[t].revenue.cloud_term if a.tiers[t].revenue is not None else None
        term = own or "reserved"
        assert df.cloud_term[t] == term
        server = a.servers[a.tiers[t].server]
        cloud = getattr(server, f"cloud_{term}_per_gpu_hour")
        # the quote rolled from its as_of to the 2027-01 start at 10%/yr (§30)
        months = months_between(a.start, cloud.as_of)
        assert a.start == "2027-01" and months in (9, 16)
        assert df.cloud_price_per_gpu_hour[t] == pytest.approx(
            cloud.value * 0.9 ** (months / 12), rel=1e-12
        )
        # NPV now reads as the value of building instead of renting
        assert df.npv_vs_cloud[t] == pytest.approx(m.summary().npv[t], rel=1e-12)


def test_model_method_matches_function():
    from costmodel.analysis.buildrent import build_vs_rent

    m = cm.build(cm.load_assumptions())
    a, b = cm.build_vs_rent(m), build_vs_rent(m)
    assert a.equals(b)
