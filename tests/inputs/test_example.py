"""The bundled USD example model (issue 14, item 5): assumptions/examples/us-neocloud,
a US neocloud colocating NVIDIA HGX B200 servers from 2027. The figures its sources
give are written out here, so that an input drifting from its evidence fails."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.core.units import HOURS_PER_MONTH
from costmodel.inputs.resources import example_dir, example_names
from tests.support.yamltree import entries, is_number

NAME = "us-neocloud"
runner = CliRunner()

FEDERAL_RATE = 0.21  # 26 U.S.C. 11(b), Tax Cuts and Jobs Act
VIRGINIA_RATE = 0.06  # Tax Foundation, 2025 State Tax Competitiveness Index
CBRE_H2_2024_USD_PER_KW_MONTH = 184.06  # CBRE North America Data Center Trends H2 2024
EIA_VIRGINIA_INDUSTRIAL_2023 = 0.0892  # EIA Electric Power Annual 2023, USD/kWh
DGX_B200_KW = 14.3  # NVIDIA DGX B200 User Guide, max system power
DGX_B200_GPU_MEMORY_GB = 1440  # the same guide, 8 GPUs
HGX_B200_BF16_SPARSE_TFLOPS = 4500  # NVIDIA HGX B200 specification, per GPU
BLS_MAY_2022_WAGES = (76_060, 90_520, 132_930)  # support specialists, administrators, developers
ECEC_WAGE_SHARE = 0.702  # BLS ECEC June 2025: wages / total compensation, private industry
HARDWARE = ("servers", "network", "storage")


@pytest.fixture(scope="module")
def example():
    return cm.load_assumptions(f"example:{NAME}")


@pytest.fixture(scope="module")
def model(example):
    return cm.build(example)


def _build_months(a, tier: str) -> int:
    over = a.tiers[tier].timeline
    q = over.build_months if over is not None and over.build_months is not None else None
    return int((q or a.timeline.build_months).value)


def test_example_is_bundled_and_found_by_name():
    assert NAME in example_names()
    assert cm.example_dir(NAME) == example_dir(NAME)
    assert sorted(p.name for p in example_dir(NAME).glob("*.yaml"))


def test_example_loads_in_usd_on_us_figures(example):
    assert example.currency == "USD"
    # state income tax is deductible for federal tax: 21% + 6% x (1 - 21%)
    combined = FEDERAL_RATE + VIRGINIA_RATE * (1 - FEDERAL_RATE)
    assert example.finance.tax_rate.value == pytest.approx(combined)
    assert example.finance.tax_rate.low == pytest.approx(FEDERAL_RATE)
    # Virginia's 2023 industrial rate, at most four years of 2% growth to 2027
    price = example.power.price_per_kwh
    assert EIA_VIRGINIA_INDUSTRIAL_2023 <= price.value <= EIA_VIRGINIA_INDUSTRIAL_2023 * 1.02**4
    assert example.facility.mode == "colocation"
    colo = example.facility.colocation_per_kw_month
    assert colo.value == round(CBRE_H2_2024_USD_PER_KW_MONTH * 1.04**2)
    assert colo.low < CBRE_H2_2024_USD_PER_KW_MONTH < colo.high
    assert set(example.servers) == {"b200", "h100", "h200"}


def test_every_tier_colocates_blackwell_not_hopper(example):
    assert {t.server for t in example.tiers.values()} == {"b200"}
    b200 = example.servers["b200"]
    assert b200.gpus_per_server == 8
    assert b200.power_kw.value == DGX_B200_KW
    assert b200.gpu_memory_gb.value == DGX_B200_GPU_MEMORY_GB / 8
    assert b200.tflops_bf16.value == HGX_B200_BF16_SPARSE_TFLOPS / 2  # dense = sparse / 2
    assert b200.nvlink
    od, res = b200.cloud_on_demand_per_gpu_hour, b200.cloud_reserved_per_gpu_hour
    assert res.value < od.value


def test_us_staff_cost_follows_bls_wages(example):
    ops = example.operations
    blend = sum(BLS_MAY_2022_WAGES) / len(BLS_MAY_2022_WAGES)
    # May 2022 -> January 2027 (4.67 years) at the staff escalation, then benefits
    loaded = blend * (1 + ops.staff_escalation.value) ** 4.67 / ECEC_WAGE_SHARE
    assert ops.staff_cost_per_fte.value == pytest.approx(loaded, rel=0.02)
    assert ops.staff_cost_per_fte.low < loaded < ops.staff_cost_per_fte.high


@pytest.mark.parametrize("tier", ["tens", "hundreds", "thousands"])
def test_staff_and_colocation_lines_follow_the_servers(example, model, tier):
    t = example.tiers[tier]
    assert t.staff_fte is None and t.staff_scaling is not None
    servers = t.gpus / example.servers[t.server].gpus_per_server
    fte = t.staff_scaling.fixed_fte.value + t.staff_scaling.fte_per_server.value * servers
    first = _build_months(example, tier) + 1  # first month in service, model year 1
    opex = model.opex(tier).loc[first]
    assert opex["staff"] == pytest.approx(fte * example.operations.staff_cost_per_fte.value / 12)
    it_kw = servers * example.servers[t.server].power_kw.value
    it_kw *= 1 + example.power.aux_power_fraction.value
    rent = it_kw * example.facility.colocation_per_kw_month.value
    assert opex["colocation"] == pytest.approx(rent)
    assert model.capex(tier)["facility"].sum() == 0


def test_hardware_is_expensed_for_tax_and_losses_outlive_the_horizon(example, model):
    dep = example.depreciation
    assert [getattr(dep, c).tax_method for c in HARDWARE] == ["expensed"] * 3
    assert dep.facility.tax_method == "book"
    assert all(getattr(dep, c).method == "straight_line" for c in (*HARDWARE, "facility"))
    assert example.finance.loss_carryforward_years >= example.horizon_years
    for tier in example.tiers:
        capex = model.capex(tier)
        tax_dep = model.tax_depreciation(tier)
        for cls in HARDWARE:
            # the whole cost is deducted in the month after it is paid (in service)
            assert tax_dep[cls].sum() == pytest.approx(capex[cls].sum())
            paid = capex.index[capex[cls] > 0]
            assert list(tax_dep.index[tax_dep[cls] > 0]) == [m + 1 for m in paid]


def test_colocated_blackwell_cost_is_in_the_public_tco_range(example, model):
    # Public breakdowns put colocated Hopper at ~1.5-2.0 USD per GPU-hour of
    # ownership; a B200 server costs ~1.6x an H100 one (400k / 250k in the
    # catalogue), so a B200 lands near 2.4-3.2 per available GPU-hour; +-10%.
    s = model.summary()
    tier = "thousands"
    cf = model.cash_flow(tier)
    months = cf.index.to_numpy()
    available = (months > _build_months(example, tier)) * s.loc[tier, "gpus"] * HOURS_PER_MONTH
    pv_available = (available * cf["discount_factor"]).sum()
    pv_sold = (cf["gpu_hours"] * cf["discount_factor"]).sum()
    per_available = s.loc[tier, "cost_per_gpu_hour"] * pv_sold / pv_available
    assert 2.4 * 0.9 <= per_available <= 3.2 * 1.1


def _numbers(tree):
    """``(path, number, the mapping holding it)`` for every number of a mapping in a
    parsed YAML tree; a bare number has no mapping of its own (``None``)."""
    for where, key, value, parents in entries(tree):
        if isinstance(parents[-1], dict) and is_number(value):
            yield where, value, parents[-1] if key in ("value", "low", "high", "sd") else None


def test_every_number_of_the_example_carries_a_source():
    # integers too (GPUs, years, months, FTE); schema_version is the file format
    missing = [
        f"{f.name}: {where}"
        for f in sorted(example_dir(NAME).glob("*.yaml"))
        for where, _, holder in _numbers(yaml.safe_load(f.read_text(encoding="utf-8")))
        if where != "schema_version" and not (holder and str(holder.get("source", "")).strip())
    ]
    assert missing == []


CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def _texts(tree):
    """Every ``source`` and ``note`` string of a parsed YAML tree, with its path."""
    for where, key, value, _ in entries(tree):
        if key in ("source", "note") and isinstance(value, str):
            yield where, value


def test_no_source_or_note_rests_on_chinese_or_converted_figures():
    # the Chinese text of the example is only the memo's *_zh translations
    flagged = [
        f"{f.name}: {where}"
        for f in sorted(example_dir(NAME).glob("*.yaml"))
        for where, text in _texts(yaml.safe_load(f.read_text(encoding="utf-8")))
        if CJK.search(text) or re.search(r"\bCNY\b|\bseed\b|China|Chinese", text)
    ]
    assert flagged == []


def test_example_equals_loading_its_folder(example):
    assert cm.fingerprint(example) == cm.fingerprint(cm.load_assumptions(example_dir(NAME)))


def test_example_builds_and_keeps_the_cloud_price_rule(example, model):
    summary = model.summary()
    assert list(summary.index) == ["tens", "hundreds", "thousands"]
    assert (summary["capex"] > 0).all()
    for tier in example.tiers.values():
        price = (tier.revenue.price_per_gpu_hour if tier.revenue else None) or (
            example.revenue.price_per_gpu_hour
        )
        server = example.servers[tier.server]
        assert price.value <= server.cloud_on_demand_per_gpu_hour.value
        assert price.value <= server.cloud_reserved_per_gpu_hour.value


def test_unknown_example_names_the_bundled_ones():
    with pytest.raises(cm.AssumptionError, match=NAME):
        cm.load_assumptions("example:nope")


def test_summary_with_example_equals_the_folder():
    app = get_app()
    via_option = runner.invoke(app, ["summary", "--example", NAME, "--format", "json"])
    via_folder = runner.invoke(app, ["summary", str(example_dir(NAME)), "--format", "json"])
    assert via_option.exit_code == 0, via_option.stderr
    assert json.loads(via_option.stdout) == json.loads(via_folder.stdout)
    table = runner.invoke(app, ["summary", "--example", NAME])
    assert "USD" in table.stdout


def test_init_with_example_copies_it(tmp_path):
    target = tmp_path / "mine"
    result = runner.invoke(get_app(), ["init", "--example", NAME, str(target)])
    assert result.exit_code == 0, result.stderr
    copied = sorted(p.name for p in target.glob("*.yaml"))
    assert copied == sorted(p.name for p in example_dir(NAME).glob("*.yaml"))
    a = cm.load_assumptions(target)
    assert a.currency == "USD"
    pd.testing.assert_frame_equal(
        cm.build(a).summary(), cm.build(cm.load_assumptions(f"example:{NAME}")).summary()
    )
    bad = runner.invoke(get_app(), ["init", "--example", "nope", str(tmp_path / "x")])
    assert bad.exit_code == 2
