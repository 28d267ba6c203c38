"""The bundled scenario overlays (assumptions/scenarios): each loads on the default
and validates, documents itself, gives every number with its unit and source, and
does what its header says -- checked against the overlay's own inputs and identities
of the model, not against figures of the default (which moves independently)."""

from __future__ import annotations

import math

import pytest
import yaml

import costmodel as cm
from costmodel.inputs.params import contract_paths, resolve_tier
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from tests.support.yamltree import entries, is_number

SCENARIOS = sorted(scenarios_dir().glob("*.yaml"))
DEFAULT = cm.load_assumptions()
DEFAULT_SUMMARY = cm.build(DEFAULT).summary()


def _load(name: str):
    return cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / f"{name}.yaml")


def _raw(name: str) -> dict:
    return yaml.safe_load((scenarios_dir() / f"{name}.yaml").read_text(encoding="utf-8"))


def _resolved(a, tier: str, key: str) -> float:
    """The engine input ``key`` of ``tier`` (the tier's own value or the global one)."""
    return resolve_tier(a, tier).values()[key]


# ----------------------------------------------------------------------------- every overlay


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_bundled_scenario_loads_on_the_default_and_validates(path):
    a = cm.load_assumptions(default_assumptions_dir(), path)
    assert list(a.tiers) == list(DEFAULT.tiers)
    s = cm.build(a).summary()
    for col in ("capex", "tco", "revenue", "npv"):
        assert all(math.isfinite(x) for x in s[col]), (path.stem, col)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_opens_with_a_header_saying_what_and_why(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"# {path.name} -- "), lines[0]
    header = [ln for ln in lines if ln.startswith("#")]
    assert len(header) >= 3, "a header of a few lines: what the overlay changes and why"


def bare_numbers(tree):
    """Paths of numbers in a parsed YAML tree that are not the ``value`` of a mapping
    with a unit and a source (``low``/``high``/``sd`` sit beside such a value); a
    quantity without them is named once, by its own path. A subsidy's figures and a
    correlation's rho are plain numbers under their entry's own source (the schema's
    forms, methodology §11.13 and §9.1)."""
    for where, _, value, parents in entries(tree):
        quantity = isinstance(value, dict) and is_number(value.get("value"))
        inside = any(isinstance(p, dict) and is_number(p.get("value")) for p in parents)
        inside |= where.startswith(("subsidies[", "correlations[")) and any(
            isinstance(p, dict) and ("kind" in p or "rho" in p) and p.get("source") for p in parents
        )
        if inside or where.split(".")[0].split("[")[0] == "schema_version":
            continue
        if quantity and (not value.get("source") or not value.get("unit")) or is_number(value):
            yield where


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_number_of_a_scenario_has_a_unit_and_a_source(path):
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert list(bare_numbers(raw)) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_scenario_that_relabels_a_tier_says_it_in_chinese_too(path):
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    for name, tier in (raw.get("tiers") or {}).items():
        if "description" in (tier or {}):
            assert tier.get("description_zh"), name
        net = (tier or {}).get("network") or {}
        if "fabric" in net:
            assert net.get("fabric_zh"), name


# ----------------------------------------------------------------------------- tax incentives


def test_the_incentive_scenarios_set_income_tax_at_15_percent():
    # EIT Law Art. 28 (high-tech); MOF-STA-NDRC 2020 No. 23 at the hub site
    a = _load("high-tech")
    assert a.finance.tax_rate.value == 0.15 and "15%" in a.finance.tax_rate.source
    hub = _load("western-development").sites["hub"].finance.tax_rate
    assert hub.value == 0.15 and "15%" in hub.source


def test_high_tech_carries_losses_ten_years_so_none_expires():
    a = _load("high-tech")
    assert a.finance.loss_carryforward_years == 10  # Caishui [2018] No. 76
    m = cm.build(a)
    assert a.horizon_years <= 10
    for tier in a.tiers:
        assert m.annual(tier)["loss_expired"].sum() == 0, tier


def test_western_development_moves_every_tier_to_the_hub_site():
    a = _load("western-development")
    assert a.site == "hub" and DEFAULT.site == "east-t1"
    hub = a.sites["hub"]
    # the policy cuts the rate; the carry-forward stays the general one
    assert a.finance.loss_carryforward_years == DEFAULT.finance.loss_carryforward_years
    p_new, p_old = hub.power.price_per_kwh.value, DEFAULT.power.price_per_kwh.value
    # a hub's 0.40 CNY/kWh quote (VAT-inclusive, as Chinese tariffs are published) net
    # of 13% VAT
    assert p_new == pytest.approx(0.40 / 1.13, abs=0.005) and p_new < p_old
    m, m0 = cm.build(a), cm.build(DEFAULT)
    s, s0 = m.summary(), m0.summary()
    for tier in a.tiers:
        assert s.loc[tier, "site"] == "hub" and s0.loc[tier, "site"] == "east-t1"
        # rent by cooling: each tier's hall at the hub's rate for its cooling
        cooling = DEFAULT.tiers[tier].cooling
        r_new = hub.colocation_per_kw_month[cooling].value
        r_old = DEFAULT.facility.colocation_per_kw_month[cooling].value
        assert r_new == pytest.approx(0.6 * r_old, abs=1)  # ~40% below the east
        # same load, so electricity scales with the tariff and rent with the rent, month
        # by month
        new, old = m.opex(tier), m0.opex(tier)
        assert new["electricity"].to_numpy() == pytest.approx(
            old["electricity"].to_numpy() * p_new / p_old, rel=1e-12
        )
        assert new["colocation"].to_numpy() == pytest.approx(
            old["colocation"].to_numpy() * r_new / r_old, rel=1e-12
        )
        # the latency discount on GPU-hours sold from the west (a captive tier's
        # avoided cloud price too: the enterprise's users are in the east)
        assert s.loc[tier, "revenue"] < s0.loc[tier, "revenue"]


def test_equipment_deduction_expenses_the_hardware_but_not_the_hall():
    a = _load("equipment-deduction")
    for c in ("servers", "network", "storage"):
        assert getattr(a.depreciation, c).tax_method == "expensed", c
    assert a.depreciation.facility.tax_method == "book"  # buildings cannot be expensed
    m = cm.build(a)
    s = m.summary()
    for tier in a.tiers:
        tax_dep = m.tax_depreciation(tier)
        for c in ("servers", "network", "storage"):
            # the whole cost of each deployment, once, in its in-service month
            assert tax_dep[c].sum() == pytest.approx(s.loc[tier, f"capex_{c}"], rel=1e-12)
            assert (tax_dep[c] != 0).sum() == 1 + len(a.tiers[tier].stages)
        book = m.depreciation(tier)["facility"]
        assert tax_dep["facility"].to_numpy() == pytest.approx(book.to_numpy(), abs=1e-6)


def test_equipment_units_are_each_below_the_5_million_yuan_limit():
    a = _load("equipment-deduction")
    for tier, t in a.tiers.items():
        assert a.servers[t.server].price.value <= 5e6, tier  # per server, the unit


# ----------------------------------------------------------------------------- facility


def test_greenfield_builds_the_hall_at_the_build_cost_and_waits_for_it():
    a = _load("greenfield")
    assert a.facility.mode == "build"
    m = cm.build(a)
    s = m.summary()
    raw = _raw("greenfield")
    want_months = {
        t: (raw["tiers"].get(t, {}).get("timeline", {}).get("build_months")
            or raw["timeline"]["build_months"])["value"]
        for t in a.tiers
    }  # fmt: skip
    assert want_months == {"tens": 2, "hundreds": 6, "thousands": 12}
    for tier, t in a.tiers.items():
        cost = a.facility.build_cost_per_kw[t.cooling].value
        assert s.loc[tier, "capex_facility"] == pytest.approx(s.loc[tier, "it_kw"] * cost)
        hours = m.revenue(tier)["gpu_hours"].to_numpy()
        first = int((hours > 0).argmax())
        assert first == want_months[tier] + 1, tier  # in service the month after the build


# ----------------------------------------------------------------------------- revenue


def test_spot_only_sells_no_contracted_hour_and_the_same_utilization_everywhere():
    a = _load("spot-only")
    assert a.revenue.contract is None
    m = cm.build(a)
    for tier in a.tiers:
        assert contract_paths(a, tier) is None, tier
        # every tier that sells its hours; the captive tens tier keeps its own use
        selling = a.tiers[tier].revenue is None or a.tiers[tier].revenue.mode != "avoided_cloud"
        want = 0.60 if selling else DEFAULT.tiers[tier].operations.utilization.value
        assert _resolved(a, tier, "utilization") == want, tier
        rev = m.revenue(tier)
        assert rev["contract_hours"].sum() == 0 and rev["contract_revenue"].sum() == 0
        assert rev["revenue"].sum() == pytest.approx(rev["spot_revenue"].sum())


def test_upside_moves_every_tier_it_claims_to():
    a = _load("upside")
    raw = _raw("upside")
    for tier in a.tiers:
        assert _resolved(a, tier, "utilization") == raw["operations"]["utilization"]["value"]
        spot = _resolved(a, tier, "price_per_gpu_hour")
        if a.tiers[tier].revenue.mode == "avoided_cloud":
            # the captive tens tier values its hours at the cloud's on-demand quote (as
            # observed, rolled by the engine); the upside's spot applies if it is sold
            assert spot == a.servers[a.tiers[tier].server].cloud_on_demand_per_gpu_hour.value
        else:
            assert spot == raw["revenue"]["price_per_gpu_hour"]["value"]
        assert _resolved(a, tier, "price_decline") == raw["revenue"]["price_decline"]["value"]
    for tier in ("hundreds", "thousands"):
        want = raw["revenue"]["contract"]
        for key, engine in (("share", "contract_share"), ("months", "contract_months"),
                            ("price_per_gpu_hour", "contract_price_per_gpu_hour")):  # fmt: skip
            assert _resolved(a, tier, engine) == want[key]["value"], (tier, key)
    assert _resolved(a, "tens", "contract_share") == 0  # small lots: spot only


def test_upside_raises_the_revenue_of_every_tier_over_the_default():
    s = cm.build(_load("upside")).summary()
    for tier in DEFAULT_SUMMARY.index:
        assert s.loc[tier, "revenue"] > DEFAULT_SUMMARY.loc[tier, "revenue"], tier


# ----------------------------------------------------------------------------- domestic tier


def test_domestic_tier_moves_the_hundreds_tier_to_the_910c_with_its_own_terms():
    a = _load("domestic-tier")
    t = a.tiers["hundreds"]
    srv = a.servers[t.server]
    assert t.server == "ascend910c"
    s = cm.build(a).summary()
    # no price decline is given for the 910C: 16 servers at the catalogue price
    n = t.gpus / srv.gpus_per_server
    assert s.loc["hundreds", "capex_servers"] == pytest.approx(n * srv.price.value, rel=1e-12)
    spot = _resolved(a, "hundreds", "price_per_gpu_hour")
    assert spot <= srv.cloud_on_demand_per_gpu_hour.value  # not above its own cloud price
    assert spot < a.servers["h200"].cloud_reserved_per_gpu_hour.value  # below the H200's
    assert _resolved(a, "hundreds", "contract_price_per_gpu_hour") <= spot
    # the stated penalties: a lower MFU and a dearer software stack than the tier's own
    # inputs would give it without the overlay
    assert _resolved(a, "hundreds", "mfu") < _resolved(DEFAULT, "hundreds", "mfu")
    assert _resolved(a, "hundreds", "software_per_gpu_year") > _resolved(
        DEFAULT, "hundreds", "software_per_gpu_year"
    )
    for other in ("tens", "thousands"):
        assert a.tiers[other].server == DEFAULT.tiers[other].server


def test_the_state_park_rules_out_every_foreign_tier_and_builds_a_domestic_thousands_one():
    # issue 53: a state-funded park may use domestic chips only (Reuters, 5 Nov 2025);
    # its thousands option is a rack-scale domestic system (CloudMatrix 384 class)
    a = _load("state-park")
    assert a.policy.domestic_only
    s = cm.build(a).summary()
    for tier, t in a.tiers.items():
        sku = a.servers[t.server]
        assert bool(s.loc[tier, "feasible"]) == (sku.origin == "domestic"), tier
    t = a.tiers["thousands"]
    sku = a.servers[t.server]
    assert sku.origin == "domestic" and int(sku.racks_per_unit) > 1  # rack-scale
    assert bool(s.loc["thousands", "feasible"])
    assert s.loc["thousands", "scale_class"] == "thousands"
    # racks of whole supernodes: units x racks per unit (methodology §33)
    units = int(t.gpus) // int(sku.gpus_per_server)
    assert s.loc["thousands", "racks"] == units * int(sku.racks_per_unit) == 3 * 16
    assert [x for x in a.tiers if not s.loc[x, "feasible"]] == ["tens", "hundreds"]
