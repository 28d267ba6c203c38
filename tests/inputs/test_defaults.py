"""The bundled default stays inside the seed's picture of the three scale tiers
(the domain source, compute-center-scale-tiers.zh.txt) and next to the
dated sources its notes cite (issue 14; docs/assumptions.md)."""

from __future__ import annotations

import pandas as pd
import pytest
from pydantic import BaseModel

import costmodel as cm
from costmodel.inputs.resources import scenarios_dir
from costmodel.inputs.schema import Quantity
from tests.support.yamltree import entries, is_number

A = cm.load_assumptions()
S = cm.build(A).summary()

# seed bands: build cost (CNY), rack power (kW), cooling; staff (FTE): the seed's
# Infra teams (2-3 / 5-10 / dozens) read as the default does (docs/assumptions.md):
# the tens tier is an enterprise's captive cluster whose team also supports the work
# it would do when renting (1-3 charged to the cluster); the hundreds and thousands
# tiers are operators, at the seed's 5-10 and dozens (20-40)
BANDS = {
    # 数百万到 1000 万元: several million to 10 million
    "tens": dict(capex=(2e6, 10e6), rack_kw=(8, 15), cooling="air", staff=(1, 3), gpus=(8, 64)),
    # 3000 万到 1 亿元: 30 to 100 million
    "hundreds": dict(capex=(30e6, 100e6), rack_kw=(15, 30), cooling="air", staff=(5, 10), gpus=(64, 511)),
    # 数亿到数十亿元: several hundred million to several billion
    "thousands": dict(capex=(2e8, 1e10), rack_kw=(40, 80), cooling="cold_plate", staff=(20, 40),
                      gpus=(512, 100_000)),
}  # fmt: skip


def test_three_tiers_one_per_scale_class():
    assert list(S.index) == ["tens", "hundreds", "thousands"]
    assert list(S.scale_class) == ["tens", "hundreds", "thousands"]


@pytest.mark.parametrize("tier", list(BANDS))
def test_tier_inside_seed_bands(tier):
    band = BANDS[tier]
    t = A.tiers[tier]
    lo, hi = band["capex"]
    # the seed's build costs are Chinese budgets, VAT-inclusive like the quotes they
    # come from; the model's capex is net of VAT (methodology §24)
    vat = A.vat.input_rates
    gross = sum(S.loc[tier, f"capex_{c}"] * (1 + getattr(vat, c).value) for c in CAPEX_CLASSES)
    assert lo <= gross <= hi
    lo, hi = band["rack_kw"]
    assert lo <= t.rack_kw.value <= hi
    assert t.cooling == band["cooling"]
    lo, hi = band["staff"]
    servers = t.gpus / A.servers[t.server].gpus_per_server
    fte = t.staff_scaling.fixed_fte.value + t.staff_scaling.fte_per_server.value * servers
    assert lo <= fte <= hi
    lo, hi = band["gpus"]
    assert lo <= t.gpus <= hi


def test_thousands_network_is_designed_and_12_to_30_percent_of_hardware():
    # the seed's 网络投资占硬件总成本的 20%–30% includes the NICs, which the server price
    # carries here: a 2-level NDR rail-optimised fabric plus front-end and storage
    # networks is 15-18% of hardware (docs/assumptions.md), inside 12-30%
    assert A.tiers["thousands"].network.design is not None
    assert A.tiers["thousands"].network.share is None
    assert 0.12 <= S.loc["thousands", "network_share"] <= 0.30
    assert S.loc["thousands", "network_levels"] == 2  # 1,024 <= 64^2 / 2 endpoints


def test_server_catalogue_has_the_seeds_cards():
    assert {"h200", "h800", "h100", "h20", "a800", "rtx4090", "ascend910b"} <= set(A.servers)
    # 8 accelerators a server, but for a rack-scale system (CloudMatrix 384: one unit
    # of 384 over 16 racks, methodology §33)
    assert all(s.gpus_per_server == 8 for s in A.servers.values() if s.racks_per_unit is None)


def _quantities(obj, path=""):
    if isinstance(obj, Quantity):
        yield path, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from _quantities(getattr(obj, name), f"{path}.{name}".lstrip("."))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _quantities(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _quantities(v, f"{path}[{i}]")


@pytest.mark.parametrize("name", ["default", "example:us-neocloud"])
def test_every_default_figure_has_a_source_and_unit(name):
    a = A if name == "default" else cm.load_assumptions(name)
    # the default's workloads are example tasks (sizes, deadlines), not cost figures;
    # the bundled example sources those too
    figures = [
        (p, q) for p, q in _quantities(a) if name != "default" or not p.startswith("workloads")
    ]
    assert len(figures) > 60
    missing = [p for p, q in figures if not q.source or not q.unit]
    assert missing == []


def _rate_input():
    """The ranged input the default's discount rate is: the cost of equity when the
    rate is the WACC of an all-equity financing (methodology §11.10)."""
    if A.finance.discount_rate == "wacc":
        assert A.financing.debt_share.value == 0
        return A.financing.cost_of_equity
    return A.finance.discount_rate


def test_key_drivers_have_ranges():
    drivers = [
        A.revenue.price_per_gpu_hour, A.revenue.price_decline, A.operations.utilization,
        A.power.price_per_kwh, A.operations.staff_cost_per_fte, _rate_input(),
        *[s.price for s in A.servers.values()], *A.power.pue.values(),
        *[t.network.share for t in A.tiers.values() if t.network.share is not None],
        *[q for t in A.tiers.values() if t.network.design is not None
          for q in (t.network.design.switch_price, t.network.design.optic_price)],
    ]  # fmt: skip
    assert all(q.low is not None and q.high is not None for q in drivers)


ALL = ("tens", "hundreds", "thousands")
CAPEX_CLASSES = ("servers", "network", "storage", "facility")


def _contracted(tier: str) -> bool:
    """Whether the default sells part of the tier's hours under contract."""
    own = A.tiers[tier].revenue.contract if A.tiers[tier].revenue else None
    share = own.share if own is not None and own.share is not None else None
    if share is None and A.revenue.contract is not None:
        share = A.revenue.contract.share
    return share is not None and share.value > 0


#: what each bundled overlay must do to the default: (the tiers it changes,
#: {metric: +1 up, -1 down, 0 unchanged, None changed}); tiers it does not name
#: keep every figure
OVERLAY_EFFECTS = {
    # the tens tier is captive already (valued at the on-demand cloud price); a captive
    # owner sells nothing, so the operators' selling costs go
    "build-vs-rent": (("hundreds", "thousands"), {"revenue": None, "capex": 0, "opex_year1": -1}),
    # the hall built instead of leased (the default leases: no facility capex)
    "greenfield": (ALL, {"capex_facility": +1, "tco": None}),
    # tax only: what is bought and sold stays the default's
    "high-tech": (ALL, {"capex": 0, "revenue": 0, "tco": 0}),
    "equipment-deduction": (ALL, {"capex": 0, "revenue": 0, "tco": 0}),
    # every tier at the hub site: its power, rents and tax, and its latency price factor
    "western-development": (ALL, {"tco": -1, "capex": 0, "revenue": -1, "site": None}),
    "spot-only": (tuple(t for t in ALL if _contracted(t)), {"revenue": None, "capex": 0}),
    "domestic-tier": (("hundreds",), {"capex_servers": None, "revenue": None}),
    # the chip policy: the default's H200 tiers infeasible, their numbers unchanged
    # (methodology §33); the thousands tier rebuilt on CloudMatrix 384 at the hub, feasible
    "state-park": {
        "tens": {"feasible": None, "npv": 0, "capex": 0, "revenue": 0},
        "hundreds": {"feasible": None, "npv": 0, "capex": 0, "revenue": 0},
        "thousands": {"feasible": 0, "capex_servers": None, "revenue": None},
    },
    "downside": (ALL, {"revenue": -1, "npv": -1, "capex": 0}),
    "upside": (ALL, {"revenue": +1, "npv": +1, "capex": 0}),
    "high-power-price": (ALL, {"tco": +1, "npv": -1, "revenue": 0, "capex": 0}),
    "h20-tens": (("tens",), {"capex_servers": None}),
    "rtx4090-tens": (("tens",), {"capex_servers": None}),
    # the default's rate is the WACC of its financing: a loan lowers it (9.2% against
    # the all-equity 12%), so the project NPV moves with it
    "bank-loan": (
        ALL,
        {"debt_peak": +1, "discount_rate": -1, "npv": None, "capex": 0, "revenue": 0},
    ),
    # contracts that end unpaid: their hours go back to spot at a lower price
    "tenant-default": (
        tuple(t for t in ALL if _contracted(t)),
        {"contract_at_risk": +1, "npv": -1, "capex": 0},
    ),
    # cash of its own line beside revenue: NPV up, capex as the default
    "hub-subsidies": (ALL, {"subsidies": +1, "npv": +1, "capex": 0}),
    # both build their hall (the headroom is a building's), every tier with it
    "staged-growth": (ALL, {"capex_facility": +1, "npv": None}),
    "staged-rebuild": (ALL, {"capex_facility": +1, "npv": None}),
    "fabric-design": (
        ("hundreds", "thousands"),
        {"capex_network": None, "network_share": None, "capex_servers": 0, "revenue": 0},
    ),
}


def test_staged_overlays_sell_fewer_hours_than_the_built_hall_at_once():
    # the same built hall (greenfield) with the hundreds tier in two halves, the second
    # 18 months on: fewer GPU-hours, the other tiers as greenfield
    from costmodel.inputs.resources import default_assumptions_dir

    def summary(*names):
        paths = [scenarios_dir() / f"{n}.yaml" for n in names]
        return cm.build(cm.load_assumptions(default_assumptions_dir(), *paths)).summary()

    built = summary("greenfield")
    for name in ("staged-growth", "staged-rebuild"):
        s = summary("greenfield", name)
        assert s.loc["hundreds", "gpu_hours"] < built.loc["hundreds", "gpu_hours"]
        pd.testing.assert_series_equal(s.loc["tens"], built.loc["tens"])


def test_every_overlay_has_its_expected_effect():
    assert {p.stem for p in scenarios_dir().glob("*.yaml")} == set(OVERLAY_EFFECTS)


@pytest.mark.parametrize("name", OVERLAY_EFFECTS)
def test_every_scenario_overlay_layers_on_the_default(name):
    from costmodel.inputs.resources import default_assumptions_dir

    a = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / f"{name}.yaml")
    s = cm.build(a).summary()
    assert list(s.index) == list(S.index)
    spec = OVERLAY_EFFECTS[name]
    # (tiers, effects) for effects common to the tiers it changes, or effects by tier
    per_tier = spec if isinstance(spec, dict) else dict.fromkeys(spec[0], spec[1])
    for tier in S.index:
        if tier not in per_tier:
            pd.testing.assert_series_equal(s.loc[tier], S.loc[tier])
            continue
        for metric, sign in per_tier[tier].items():
            new, old = s.loc[tier, metric], S.loc[tier, metric]
            if sign == 0:
                assert new == old, (tier, metric)
            elif sign is None:
                assert new != pytest.approx(old, rel=1e-9), (tier, metric)
            else:
                assert sign * (new - old) > 1e-9 * abs(old), (tier, metric, old, new)


# ----------------------------------------------------------------------------- sources
# Figures from the sources cited in assumptions/default (issue 14), written out here so
# that a default drifting away from its evidence fails a test.
USD_CNY = 7.2  # the rate the assumption notes use
LLAMA3_FAILURES_PER_SERVER_DAY = 419 / 54 / (16_384 / 8)  # Llama 3 paper: 0.0038
CHINA_INDUSTRIAL_POWER_USD = 0.088  # China Briefing 2024, USD/kWh
APAC_DC_POWER_USD = 0.115  # Cushman & Wakefield APAC cost guide 2025 (Nov 2024 average)
CW_CHINA_BUILD_CNY_PER_KW = 7.11e6 * USD_CNY / 1000  # C&W 2025: USD 7.11M per MW
H200_MODULE_CNY = 1_400_000  # Tencent Technology, 24 Dec 2025: channel price, 8-GPU module
VAT_ON_GOODS = 0.13  # 增值税法 Art. 10
LPR_5Y = 0.035  # PBOC, 20 May 2025
ALIBABA_LINGJUN_USD_PER_GPU_DAY = (0.625, 1.5625)  # Alibaba Cloud, Aug 2025: fee steps
EXPORT_CONTROLLED = {"a800", "h800", "h100"}  # US rules of 17 Oct 2023 (h100 since 2022)


def _tier_value(tier: str, section: str, key: str):
    over = getattr(A.tiers[tier], section)
    q = getattr(over, key) if over is not None else None
    return q if q is not None else getattr(getattr(A, section), key)


def test_default_tiers_buy_hardware_sold_new_in_china():
    for name, t in A.tiers.items():
        assert t.server not in EXPORT_CONTROLLED, name
        assert "legacy" not in A.servers[t.server].label.lower(), name
    for sku in EXPORT_CONTROLLED:  # kept in the catalogue, labelled as such
        assert "legacy" in A.servers[sku].label.lower()


def _money(q: Quantity) -> bool:
    return "CNY" in (q.unit or "")


def test_every_money_figure_has_a_source_and_estimates_explain_themselves():
    money = [(p, q) for p, q in _quantities(A) if _money(q)]
    assert len(money) > 30
    assert [p for p, q in money if not (q.source or "").strip()] == []
    # a bare "estimate" must say in its note what the judgement rests on
    bare = [p for p, q in _quantities(A) if (q.source or "").strip().lower() == "estimate"]
    assert [p for p in bare if not dict(_quantities(A))[p].note] == []


def test_key_money_drivers_cite_a_dated_publication_not_an_estimate():
    import re

    used = {t.server for t in A.tiers.values()}
    drivers = {
        "power.price_per_kwh": A.power.price_per_kwh,
        "revenue.price_per_gpu_hour": A.revenue.price_per_gpu_hour,
        "operations.staff_cost_per_fte": A.operations.staff_cost_per_fte,
        "operations.software_per_gpu_year": A.operations.software_per_gpu_year,
        **{f"colocation.{c}": A.facility.colocation_per_kw_month[c] for c in ("air", "cold_plate")},
        **{f"build_cost.{c}": A.facility.build_cost_per_kw[c] for c in ("air", "cold_plate")},
        **{f"servers.{s}.price": A.servers[s].price for s in used},
        **{f"servers.{s}.on_demand": A.servers[s].cloud_on_demand_per_gpu_hour for s in used},
        **{f"servers.{s}.reserved": A.servers[s].cloud_reserved_per_gpu_hour for s in used},
    }
    for path, q in drivers.items():
        assert q is not None, path
        assert not q.source.lower().startswith("estimate"), path
        assert re.search(r"20[12]\d", q.source), f"{path}: no year in its source"
        assert q.low is not None and q.high is not None, path


def _selling_prices(a):
    for name, t in a.tiers.items():
        over = t.revenue.price_per_gpu_hour if t.revenue else None
        yield name, t.server, (over or a.revenue.price_per_gpu_hour).value


@pytest.mark.parametrize("overlay", [None, *sorted(scenarios_dir().glob("*.yaml"))],
                         ids=lambda p: "default" if p is None else p.stem)  # fmt: skip
def test_no_tier_rents_above_the_cloud_on_demand_price_of_its_gpu(overlay):
    from costmodel.inputs.resources import default_assumptions_dir

    a = A if overlay is None else cm.load_assumptions(default_assumptions_dir(), overlay)
    for name, sku, price in _selling_prices(a):
        cloud = a.servers[sku].cloud_on_demand_per_gpu_hour
        assert cloud is not None, (name, sku)
        assert price <= cloud.value, f"{name} sells {sku} at {price} > on-demand {cloud.value}"


def test_reserved_cloud_price_is_below_on_demand():
    for sku, s in A.servers.items():
        if s.cloud_on_demand_per_gpu_hour and s.cloud_reserved_per_gpu_hour:
            assert s.cloud_reserved_per_gpu_hour.value < s.cloud_on_demand_per_gpu_hour.value, sku


def test_electricity_price_between_chinas_industrial_average_and_the_apac_dc_average():
    p = A.power.price_per_kwh
    assert CHINA_INDUSTRIAL_POWER_USD * USD_CNY * 0.95 <= p.value <= APAC_DC_POWER_USD * USD_CNY
    assert p.low < CHINA_INDUSTRIAL_POWER_USD * USD_CNY < p.high


def test_pue_meets_the_ndrc_limits_and_the_seed():
    pue = A.power.pue
    # NDRC et al. Jul 2024: national average below 1.5 -- a retrofitted air room's ceiling
    assert pue["air"].value < 1.5 and pue["air"].high <= 1.5
    # seed: thousands tier below 1.2; NDRC Dec 2021: hub nodes below 1.25
    assert pue["cold_plate"].value < 1.2 and pue["cold_plate"].high <= 1.25
    assert pue["immersion"].value <= pue["cold_plate"].value
    assert pue[A.tiers["thousands"].cooling].value < 1.2


def test_liquid_cooled_hall_costs_at_least_a_greenfield_build():
    # a cold-plate hall is built new; Cushman & Wakefield 2025 puts a mid-spec mainland
    # build at USD 7.11M/MW (51,192 CNY/kW)
    b = A.facility.build_cost_per_kw
    assert b["cold_plate"].value >= CW_CHINA_BUILD_CNY_PER_KW
    assert b["air"].value < CW_CHINA_BUILD_CNY_PER_KW <= b["air"].high  # retrofit < greenfield


def test_h200_server_costs_at_least_its_gpu_module():
    # the module's channel price is VAT-inclusive (13% on goods) and of Dec 2025; the
    # server price is net of VAT at the 2027-01 start, a year of the server's price
    # decline later (methodology §24; servers.h200.price_decline)
    decline = A.servers["h200"].price_decline.value
    module = H200_MODULE_CNY / (1 + VAT_ON_GOODS) * (1 - decline)
    price = A.servers["h200"].price
    assert module <= price.value <= 1.5 * module
    assert price.low >= module


def test_discount_rate_above_the_lpr_and_tax_at_the_statutory_rate():
    # the all-equity default is discounted at its cost of equity (the WACC without debt)
    assert A.finance.discount_rate == "wacc" and A.financing.debt_share.value == 0
    assert _rate_input().low > LPR_5Y
    assert S["discount_rate"].tolist() == [A.financing.cost_of_equity.value] * 3
    assert A.finance.tax_rate.value == 0.25  # EIT Law art. 4


def test_software_cost_inside_the_managed_cluster_fee_band():
    lo, hi = (x * 365 * USD_CNY for x in ALIBABA_LINGJUN_USD_PER_GPU_DAY)
    q = A.operations.software_per_gpu_year
    assert lo * 0.95 <= q.value <= hi * 1.05
    assert q.low <= lo * 1.05 and q.high >= hi * 0.95


def test_utilization_range_spans_the_idle_reports_and_a_captive_cluster():
    u = A.operations.utilization
    assert u.low <= 0.30  # 20-30% load (Reuters 2025)
    assert u.value <= 0.70  # not above a well-let commercial center
    assert u.high >= 0.80  # Meta RSC clusters run above 80%


def test_thousands_tier_has_more_than_one_node_failure_a_day():
    # seed: '千卡集群日故障率通常大于 1 台'; Llama 3 is the low end
    t = A.tiers["thousands"]
    rate = _tier_value("thousands", "reliability", "node_failures_per_day")
    assert rate.value * t.gpus / A.servers[t.server].gpus_per_server > 1
    assert rate.low <= LLAMA3_FAILURES_PER_SERVER_DAY * 1.01
    assert A.reliability.node_failures_per_day.low <= LLAMA3_FAILURES_PER_SERVER_DAY * 1.01


def test_workloads_placed_as_the_seed_places_them():
    rec = cm.recommend(cm.build(A)).attrs["recommended"]
    by_kind = {w.name: w for w in A.workloads}
    assert "thousands" in rec.values()  # the default has a task for every tier
    for name, tier in rec.items():
        w = by_kind[name]
        if w.kind == "pretrain" and w.params_b.value >= 100:
            # seed: 千亿至万亿参数基座模型预训练 (100B-1T pretraining) is the thousands tier's
            assert tier == "thousands", name
        elif w.kind == "pretrain" or (w.kind == "finetune" and w.params_b.value >= 70):
            # seed: 70B full fine-tune and 30-65B pretraining sit at the hundreds tier
            assert tier == "hundreds", name
        else:
            # seed: 7-13B SFT/LoRA and 70B INT4/INT8 inference fit the tens tier
            assert tier == "tens", name


def _sources(tree):
    """Every ``source`` string in a parsed YAML tree, with its dotted path."""
    for where, key, value, _ in entries(tree):
        if key == "source" and isinstance(value, str):
            yield where, value


def test_no_source_is_only_estimate():
    # issue 14: an estimate says what it rests on ("estimate: <basis>")
    import yaml

    from costmodel.inputs.resources import assumptions_dir

    files = sorted(assumptions_dir().rglob("*.yaml"))
    assert files
    bare = [
        f"{f.relative_to(assumptions_dir())}: {where}"
        for f in files
        for where, source in _sources(yaml.safe_load(f.read_text(encoding="utf-8")))
        if source.strip().rstrip(".:;").lower() == "estimate"
    ]
    message = "sources that are only 'estimate' (write 'estimate: <basis>'):\n"
    assert not bare, message + "\n".join(bare)


def _unsourced_numbers(tree):
    """``(dotted path, value)`` of every number of a parsed YAML tree whose own
    mapping (the nearest one holding it, through lists) carries no ``source`` text:
    ``value``/``low``/``high`` beside the quantity's source, a subsidy's or a
    correlation's figures beside the entry's source. A source of an enclosing
    section does not cover a number below it (strict: ``gpus: 32`` bare under a
    tier is unsourced however the tier is described)."""
    for where, _, value, parents in entries(tree):
        if not is_number(value) or where == "schema_version":
            continue
        own = next((p for p in reversed(parents) if isinstance(p, dict)), None)
        source = own.get("source") if own is not None else None
        if not (isinstance(source, str) and source.strip()):
            yield where, value


def unsourced_in(files):
    """``file: dotted.path = value`` of each unsourced number of the YAML ``files``."""
    import yaml

    return [
        f"{f}: {p} = {v!r}"
        for f in files
        for p, v in _unsourced_numbers(yaml.safe_load(f.read_text(encoding="utf-8")))
    ]


def test_every_number_of_every_bundled_file_carries_its_own_source():
    # issues 29 and 53: GPU counts, months, years, FTE and workload sizes included, in
    # the default, every scenario and the us-neocloud example; only schema_version is
    # not an input. (examples/by-hand is the documentation's worked example, round
    # figures said to be illustrative, not a planning base.)
    from costmodel.inputs.resources import assumptions_dir

    root = assumptions_dir()
    files = [
        f
        for where in ("default", "scenarios", "examples/us-neocloud")
        for f in sorted((root / where).glob("*.yaml"))
    ]
    assert len(files) > 30
    bare = unsourced_in(files)
    assert bare == [], "numbers without a source of their own:\n" + "\n".join(bare)


def test_the_source_rule_names_an_injected_unsourced_number(tmp_path):
    # proof the rule can fail: a bare integer, a quantity without source and a number
    # under a sourced section (an enclosing source does not cover it) are each named
    # with the file, the dotted path and the value; a sourced one passes
    f = tmp_path / "x.yaml"
    f.write_text(
        "schema_version: 4\n"
        "tiers:\n"
        "  t:\n"
        "    gpus: 32\n"
        "    utilization: {value: 0.5, unit: fraction}\n"
        "    price: {value: 2.0, low: 1, high: 3, source: 'vendor list, 2026'}\n"
        "subsidies:\n"
        "  - {kind: voucher, share_of_revenue: 0.1, years: 2, source: 'city notice, 2025'}\n"
        "  - {kind: voucher, share_of_revenue: 0.2, years: 1}\n"
        "finance:\n"
        "  source: 'a section note'\n"
        "  rate: {value: 0.1}\n",
        encoding="utf-8",
    )
    assert unsourced_in([f]) == [
        f"{f}: tiers.t.gpus = 32",
        f"{f}: tiers.t.utilization.value = 0.5",
        f"{f}: subsidies[1].share_of_revenue = 0.2",
        f"{f}: subsidies[1].years = 1",
        f"{f}: finance.rate.value = 0.1",
    ]
