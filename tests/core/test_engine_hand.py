"""The engine against a case worked out by hand (tests/data/hand.yaml).

Inputs: 16 GPUs in 8-GPU servers at 1,000,000 CNY, 10 kW each, idle 50%;
storage 100 TB at 1,000/TB; network share 0.2; aux power 10%; 12 kW air racks;
build 10,000/kW; PUE 1.5; 1.0 CNY/kWh; utilization 0.5; 2 FTE at 600,000;
maintenance 6%, insurance 0.4%, software 1,200 per GPU-year; 100 CNY per GPU-hour;
one-year horizon, tax 25%, discount rate 0, terminal value = book.
"""

from __future__ import annotations

import math

import numpy as np
import numpy_financial as npf
import pytest

import costmodel as cm
from tests.paths import DATA

# ---- capex, by hand
SERVERS = 16 / 8  # 2 servers
CAPEX_SERVERS = 2 * 1_000_000  # 2,000,000
CAPEX_STORAGE = 100 * 1_000  # 100,000
CAPEX_NETWORK = 0.2 / 0.8 * (2_000_000 + 100_000)  # 525,000
CAPEX_HARDWARE = 2_000_000 + 525_000 + 100_000  # 2,625,000
IT_KW = 2 * 10 * 1.1  # 22 kW
RACKS = 2  # ceil(22 / 12) = ceil(1.83)
CAPEX_FACILITY = 22 * 10_000  # 220,000
CAPEX = 2_625_000 + 220_000  # 2,845,000

# ---- monthly opex, by hand
AVG_IT_KW = 22 * (0.5 + 0.5 * 0.5)  # 16.5 kW
ELECTRICITY_M = 16.5 * 1.5 * 730 * 1.0  # 18,067.5
STAFF_M = 2 * 600_000 / 12  # 100,000
MAINTENANCE_M = 0.06 * 2_625_000 / 12  # 13,125
INSURANCE_M = 0.004 * 2_845_000 / 12  # 948.333...
SOFTWARE_M = 1_200 * 16 / 12  # 1,600
OPEX_M = 18_067.5 + 100_000 + 13_125 + 0.004 * 2_845_000 / 12 + 1_600  # 133,740.8333

# ---- revenue, depreciation, tax, cash flow, by hand
GPU_HOURS_M = 16 * 0.5 * 730  # 5,840
REVENUE_M = 5_840 * 100  # 584,000
DEP_SERVERS_M = (2_000_000 - 0.1 * 2_000_000) / 2 / 12  # 75,000 (life 2, salvage 10%)
DEP_NETWORK_M = 525_000 / 1 / 12  # 43,750
DEP_STORAGE_M = 100_000 / 1 / 12  # 8,333.33
DEP_FACILITY_M = 220_000 / 4 / 12  # 4,583.33 (life 4)
DEP_M = DEP_SERVERS_M + DEP_NETWORK_M + DEP_STORAGE_M + DEP_FACILITY_M  # 131,666.67
EBIT_Y1 = 12 * (REVENUE_M - OPEX_M - DEP_M)  # 3,823,110
TAX_Y1 = 0.25 * EBIT_Y1  # 955,777.50, paid in month 12
NBV = (2_000_000 - 12 * 75_000) + 0 + 0 + (220_000 - 12 * DEP_FACILITY_M)  # 1,100,000 + 165,000
FCF_1_11 = REVENUE_M - OPEX_M  # 450,259.17
FCF_12 = REVENUE_M - OPEX_M - TAX_Y1 + NBV  # 759,481.67
FLOWS = [-CAPEX] + [FCF_1_11] * 11 + [FCF_12]
NPV_AT_0 = -2_845_000 + 11 * FCF_1_11 + FCF_12  # 2,867,332.50


@pytest.fixture(scope="module")
def model() -> cm.Model:
    return cm.build(cm.load_assumptions(DATA / "hand.yaml"))


def test_summary_rows_are_plain_python_values(model):
    """``summary_rows`` (what the CLI prints, without pandas): the hand case's
    figures as Python numbers, counts whole, columns in summary order."""
    row = model.summary_rows()["small"]
    assert list(row) == list(cm.build(cm.load_assumptions(DATA / "hand.yaml")).summary().columns)
    assert (row["gpus"], row["servers"], row["racks"]) == (16, SERVERS, RACKS)
    assert all(type(row[c]) is int for c in ("gpus", "servers", "racks"))
    assert row["scale_class"] == "tens"
    assert type(row["capex"]) is float and row["capex"] == pytest.approx(CAPEX)
    assert row["npv"] == pytest.approx(NPV_AT_0)


def test_capex(model):
    s = model.summary().loc["small"]
    assert s.servers == SERVERS
    assert s.capex_servers == pytest.approx(CAPEX_SERVERS)
    assert s.capex_storage == pytest.approx(CAPEX_STORAGE)
    assert s.capex_network == pytest.approx(CAPEX_NETWORK)
    assert s.capex_facility == pytest.approx(CAPEX_FACILITY)
    assert s.capex == pytest.approx(CAPEX)
    assert s.it_kw == pytest.approx(IT_KW)
    assert s.racks == RACKS
    assert s.network_share == pytest.approx(0.2)
    assert s.scale_class == "tens"


def test_opex_lines(model):
    o = model.opex("small")
    assert (o.loc[0, ["electricity", "staff", "total"]] == 0).all()
    month = o.loc[5]
    assert month.electricity == pytest.approx(ELECTRICITY_M)
    assert month.colocation == 0
    assert month.staff == pytest.approx(STAFF_M)
    assert month.maintenance == pytest.approx(MAINTENANCE_M)
    assert month.insurance == pytest.approx(INSURANCE_M)
    assert month.software == pytest.approx(SOFTWARE_M)
    assert month.total == pytest.approx(OPEX_M)


def test_depreciation_and_tax(model):
    d = model.depreciation("small")
    assert d.loc[1, "servers"] == pytest.approx(DEP_SERVERS_M)
    assert d.loc[12, "facility"] == pytest.approx(DEP_FACILITY_M)
    assert d.loc[12, "total"] == pytest.approx(DEP_M)
    assert d.loc[12, "nbv_servers"] == pytest.approx(1_100_000)
    assert d.loc[12, "nbv_network"] == pytest.approx(0, abs=1e-6)
    cf = model.cash_flow("small")
    assert cf.loc[12, "tax"] == pytest.approx(TAX_Y1)
    assert cf.loc[1:11, "tax"].abs().sum() == 0
    assert cf.loc[12, "terminal_value"] == pytest.approx(NBV)


def test_cash_flow_and_metrics(model):
    cf = model.cash_flow("small")
    np.testing.assert_allclose(cf["fcf"].to_numpy(), FLOWS, rtol=1e-12)
    s = model.summary().loc["small"]
    assert s.npv == pytest.approx(NPV_AT_0)
    assert s.opex_year1 == pytest.approx(12 * OPEX_M)
    assert s.tco == pytest.approx(CAPEX + 12 * OPEX_M)
    assert s.gpu_hours == pytest.approx(12 * GPU_HOURS_M)
    assert s.revenue == pytest.approx(12 * REVENUE_M)
    # discount rate 0: levelized cost = TCO / GPU-hours
    assert s.cost_per_gpu_hour == pytest.approx((CAPEX + 12 * OPEX_M) / (12 * GPU_HOURS_M))
    # cumulative: -2,845,000 + 6 * 450,259.17 = -143,445 < 0; + 7th month > 0
    assert s.payback_years == pytest.approx(7 / 12)
    assert s.roi == pytest.approx((11 * FCF_1_11 + FCF_12 - CAPEX) / CAPEX)
    # IRR: independent reference numpy_financial.irr on the hand flows
    assert s.irr == pytest.approx((1 + npf.irr(FLOWS)) ** 12 - 1, rel=1e-9)


def test_goodput_by_hand(model):
    s = model.summary().loc["small"]
    mtbf = 24 / (0.01 * 2)  # 1,200 h
    delta = 1.0 * 1000 / 2 / 3600  # 1 TB at 2 GB/s = 0.13889 h
    tau = math.sqrt(2 * delta * mtbf)  # 18.257 h
    waste = delta / tau + (tau / 2 + 0.5) / mtbf
    assert s.mtbf_hours == pytest.approx(1200)
    assert s.checkpoint_interval_hours == pytest.approx(tau)
    assert s.goodput == pytest.approx(1 - waste)
    assert s.cost_per_effective_gpu_hour == pytest.approx(s.cost_per_gpu_hour / (1 - waste))
    pflop_hours = 12 * GPU_HOURS_M * (1 - waste) * 0.4 * 1000 / 1000
    assert s.cost_per_pflop_hour == pytest.approx((CAPEX + 12 * OPEX_M) / pflop_hours)


def test_discounting_matches_numpy_financial():
    a = cm.load_assumptions(DATA / "hand.yaml", overrides={"finance.discount_rate": 0.10})
    s = cm.build(a).summary().loc["small"]
    r_m = 1.10 ** (1 / 12) - 1
    assert s.npv == pytest.approx(npf.npv(r_m, FLOWS), rel=1e-12)


def test_colocation_mode_by_hand():
    a = cm.load_assumptions(DATA / "hand.yaml", overrides={"facility.mode": "colocation"})
    m = cm.build(a)
    s = m.summary().loc["small"]
    assert s.capex_facility == 0
    assert s.capex == pytest.approx(CAPEX_HARDWARE)
    o = m.opex("small").loc[3]
    assert o.colocation == pytest.approx(22 * 900)  # it_kw * 900 per kW-month
    assert o.electricity == pytest.approx(ELECTRICITY_M)  # metered power still paid
    assert o.insurance == pytest.approx(0.004 * CAPEX_HARDWARE / 12)


def test_escalation_and_price_decline_step_yearly():
    a = cm.load_assumptions(
        DATA / "hand.yaml",
        overrides={
            "horizon_years": 2,
            "power.escalation": 0.10,
            "operations.staff_escalation": 0.05,
            "revenue.price_decline": 0.20,
        },
    )
    m = cm.build(a)
    o = m.opex("small")
    assert o.loc[12, "electricity"] == pytest.approx(ELECTRICITY_M)
    assert o.loc[13, "electricity"] == pytest.approx(ELECTRICITY_M * 1.10)
    assert o.loc[24, "staff"] == pytest.approx(STAFF_M * 1.05)
    cf = m.cash_flow("small")
    assert cf.loc[13, "revenue"] == pytest.approx(REVENUE_M * 0.80)
    assert cf.loc[24, "tax"] > 0 and cf.loc[13:23, "tax"].abs().sum() == 0


def test_loss_carry_forward_by_hand():
    """Year 1 loses money, year 2 earns: tax in year 2 only on EBIT above the loss."""
    a = cm.load_assumptions(
        DATA / "hand.yaml",
        overrides={"horizon_years": 2, "revenue.price_per_gpu_hour": 20},
    )
    m = cm.build(a)
    ann = m.annual("small")
    # year 1: revenue 12*5,840*20 = 1,401,600; opex 1,604,890; depreciation 1,580,000
    ebit1 = 1_401_600 - 12 * OPEX_M - 12 * DEP_M
    assert ann.loc[1, "ebit"] == pytest.approx(ebit1)
    assert ebit1 < 0 and ann.loc[1, "tax"] == 0
    assert ann.loc[1, "loss_pool_close"] == pytest.approx(-ebit1)
    # year 2: network and storage are fully depreciated after year 1
    dep2 = 12 * (DEP_SERVERS_M + DEP_FACILITY_M)
    ebit2 = 1_401_600 - 12 * OPEX_M - dep2
    assert ann.loc[2, "ebit"] == pytest.approx(ebit2)
    used = min(-ebit1, max(ebit2, 0))
    assert ann.loc[2, "tax"] == pytest.approx(0.25 * max(ebit2 - used, 0))
    assert ann.loc[2, "loss_pool_close"] == pytest.approx(
        -ebit1 - used if ebit2 > 0 else -ebit1 - ebit2
    )
