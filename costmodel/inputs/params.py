"""Resolve validated assumptions into the engine's flat per-tier inputs.

Each engine input of a tier is found at one dotted path of the assumptions: a
tier's own value (``tiers.hundreds.operations.utilization``) where it overrides
the global one (``operations.utilization``), the tier's server in the catalogue
(``servers.h800.price``), or the entry for the tier's cooling
(``power.pue.cold_plate``). Sensitivity and Monte Carlo vary inputs by dotted path
and reuse this mapping, so a varied global value reaches exactly the tiers that
do not override it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core.config import (
    DepreciationMethod,
    RefundMode,
    Subsidy,
    TerminalValue,
    TierConfig,
)
from costmodel.core.tierparams import TierParams
from costmodel.inputs.designs import design_parts
from costmodel.inputs.forms import refund_mode
from costmodel.inputs.quotes import put_rolls
from costmodel.inputs.schema import VAT_INPUT_KEYS, Assumptions, Quantity
from costmodel.inputs.sites import colocation, grid_inputs, layered


@dataclass(frozen=True)
class TierInputs:
    """Numeric inputs of one tier: ``name -> (dotted path, value)``; ``structure``:
    the whole-number inputs that set the shape of the computation (its
    :class:`~costmodel.core.config.TierConfig`), ``config key -> dotted path``:
    ``months`` (12 x ``horizon_years``), ``life_years.<class>`` and
    ``loss_carryforward_years`` (see :func:`costmodel.core.config.configured`)."""

    tier: str
    config: TierConfig
    inputs: dict[str, tuple[str, float]] = field(default_factory=dict)
    structure: dict[str, str] = field(default_factory=dict)

    def values(self) -> dict[str, float]:
        return {k: v for k, (_, v) in self.inputs.items()}

    def paths(self) -> dict[str, str]:
        return {k: p for k, (p, _) in self.inputs.items()}

    def params(self) -> TierParams:
        """The engine's typed inputs of these values
        (:meth:`~costmodel.core.tierparams.TierParams.of`)."""
        return TierParams.of(self.values())


OVERRIDABLE = {
    "operations": (
        "utilization",
        "maintenance_rate",
        "insurance_rate",
        "staff_cost_per_fte",
        "staff_escalation",
        "software_per_gpu_year",
        "sga_share",
    ),
    "revenue": ("price_per_gpu_hour", "price_decline"),
    "reliability": (
        "node_failures_per_day",
        "restart_hours",
        "checkpoint_tb",
        "mfu",
        "repair_hours",
    ),
    "timeline": ("build_months", "ramp_months"),
}


def revenue_mode(a: Assumptions, tier_name: str) -> tuple[str, str]:
    """The tier's ``(revenue.mode, revenue.cloud_term)``, tier override first."""
    own = a.tiers[tier_name].revenue
    mode = (own.mode if own is not None and own.mode else None) or a.revenue.mode
    term = (own.cloud_term if own is not None and own.cloud_term else None) or a.revenue.cloud_term
    return mode, term


def resolve_tier(a: Assumptions, tier_name: str) -> TierInputs:
    """Flatten the inputs of tier ``tier_name`` (see module docstring)."""
    t = a.tiers[tier_name]
    out: dict[str, tuple[str, float]] = {}

    def put(name: str, path: str, q: Quantity | float | int) -> None:
        out[name] = (path, float(q.value if isinstance(q, Quantity) else q))

    _put_hardware(a, tier_name, put)
    _put_site(a, tier_name, put)
    _put_depreciation(a, put)
    _put_financing(a, put)
    _put_stages(a, tier_name, put, out)
    _put_overridable(a, tier_name, put)
    _put_revenue(a, tier_name, put, out)
    _put_contract(a, tier_name, put)
    _put_vat(a, put)
    put_rolls(a, {k: p for k, (p, _) in out.items()}, put)  # methodology §30
    if a.terminal_value == "income":  # the life the margin is valued over (methodology §30)
        dc = a.depreciation.servers
        key = "life_years" if dc.economic_life_years is None else "economic_life_years"
        put("economic_life_years", f"depreciation.servers.{key}", getattr(dc, key))
    lead = a.servers[t.server].lead_months
    if lead is not None:
        put("lead_months", f"servers.{t.server}.lead_months", lead)
    carry_path, carryforward = layered(a, tier_name, "finance", "loss_carryforward_years")
    config = TierConfig(
        months=12 * int(a.horizon_years),
        depreciation_method={
            c: DepreciationMethod(getattr(a.depreciation, c).method) for c in CAPEX_CLASSES
        },
        depreciation_life_years={
            c: int(getattr(a.depreciation, c).life_years) for c in CAPEX_CLASSES
        },
        stages=len(t.stages),
        loss_carryforward_years=_int_or_none(carryforward),
        terminal_value=TerminalValue(a.terminal_value),
        financed=a.financing is not None,
        tax_expensed=frozenset(
            c for c in CAPEX_CLASSES if getattr(a.depreciation, c).tax_method == "expensed"
        ),
        vat=a.vat is not None,
        refund=RefundMode(refund_mode(a.vat)) if a.vat is not None else RefundMode.NONE,
        subsidies=tuple(
            Subsidy.of(s) for s in (t.subsidies if t.subsidies is not None else a.subsidies)
        ),
    )
    structure = {"months": "horizon_years"}
    structure |= {f"life_years.{c}": f"depreciation.{c}.life_years" for c in CAPEX_CLASSES}
    if carryforward is not None:
        structure["loss_carryforward_years"] = carry_path
    return TierInputs(tier_name, config, out, structure)


def _int_or_none(x: int | None) -> int | None:
    return None if x is None else int(x)


_Put = Callable[[str, str, "Quantity | float | int"], None]


def _put_hardware(a: Assumptions, tier_name: str, put: _Put) -> None:
    """The tier's GPUs, its server's price, power and performance, network share,
    storage and rack and staff inputs."""
    t = a.tiers[tier_name]
    s = a.servers[t.server]
    tp = f"tiers.{tier_name}"
    sp = f"servers.{t.server}"
    put("gpus", f"{tp}.gpus", t.gpus)
    put("gpus_per_server", f"{sp}.gpus_per_server", s.gpus_per_server)
    put("server_price", f"{sp}.price", s.price)
    put("server_power_kw", f"{sp}.power_kw", s.power_kw)
    put("idle_fraction", f"{sp}.idle_fraction", s.idle_fraction)
    put("gpu_memory_gb", f"{sp}.gpu_memory_gb", s.gpu_memory_gb)
    put("tflops_bf16", f"{sp}.tflops_bf16", s.tflops_bf16)
    for key in ("racks_per_unit", "fabric_endpoints_per_unit"):  # methodology §33
        if getattr(s, key) is not None:
            put(key, f"{sp}.{key}", getattr(s, key))
    _put_network(t, part_path(a, tier_name, "network"), put)
    _put_storage(t, part_path(a, tier_name, "storage"), put)
    put("rack_kw", f"{part_path(a, tier_name, 'rack_kw')}.rack_kw", t.rack_kw)
    if t.staff_scaling is not None:  # methodology §12.2
        sp_ = part_path(a, tier_name, "staff")
        put("staff_fixed_fte", f"{sp_}.staff_scaling.fixed_fte", t.staff_scaling.fixed_fte)
        put(
            "staff_fte_per_server",
            f"{sp_}.staff_scaling.fte_per_server",
            t.staff_scaling.fte_per_server,
        )
    else:
        put("staff_fte", f"{tp}.staff_fte", t.staff_fte)


def part_path(a: Assumptions, tier_name: str, part: str) -> str:
    """Where a part of the tier is written: ``designs.<key>`` when the tier takes it
    from its design (methodology §28.1), else ``tiers.<tier>``."""
    data = a._source.data if a._source is not None else None
    if data is not None and part in design_parts(data, tier_name):
        return f"designs.{a.tiers[tier_name].design}"
    return f"tiers.{tier_name}"


def _put_storage(t: Any, tp: str, put: _Put) -> None:
    """Storage of capacity at a price per TB (methodology §3.1), or sized in nodes
    (``storage_*`` of methodology §28.2; ``storage_capacity_tier`` 1/0)."""
    st, sp = t.storage, f"{tp}.storage"
    if st.node is None:
        put("storage_capacity_tb", f"{sp}.capacity_tb", st.capacity_tb)
        put("storage_price_per_tb", f"{sp}.price_per_tb", st.price_per_tb)
        put("write_gbps", f"{sp}.write_gbps", st.write_gbps)
        return
    for key in ("capacity_tb", "write_gbps", "read_gbps", "price"):
        put(f"storage_node_{key}", f"{sp}.node.{key}", getattr(st.node, key))
    for key in (
        "min_nodes",
        "min_capacity_tb",
        "capacity_tb_per_gpu",
        "write_gbps_per_gpu",
        "read_gbps_per_gpu",
    ):
        put(f"storage_{key}", f"{sp}.{key}", getattr(st, key))
    tier = st.capacity_price_per_tb
    put("storage_capacity_tier", f"{sp}.capacity_price_per_tb", 0.0 if tier is None else 1.0)
    put("storage_capacity_price_per_tb", f"{sp}.capacity_price_per_tb", tier or 0.0)


def _put_network(t: Any, tp: str, put: _Put) -> None:
    """The network's share, or its design (``fabric_*``, methodology §12.1)."""
    d = t.network.design
    if d is None:
        put("network_share", f"{tp}.network.share", t.network.share)
        return
    dp = f"{tp}.network.design"
    put("fabric_radix", f"{dp}.switch_radix", d.switch_radix)
    put("fabric_switch_price", f"{dp}.switch_price", d.switch_price)
    put("fabric_optic_price", f"{dp}.optic_price", d.optic_price)
    put("fabric_oversubscription", f"{dp}.oversubscription", d.oversubscription)
    put("fabric_per_server", f"{dp}.per_server", d.per_server)
    if d.rail_optimized:  # methodology §28.4: leaves per rail (a 1/0 flag)
        put("fabric_rail_optimized", f"{dp}.rail_optimized", 1.0)


def _put_site(a: Assumptions, tier_name: str, put: _Put) -> None:
    """Power (PUE of the tier's cooling, price, escalation), facility (build cost
    per kW, colocation, mode as ``build_flag`` 1/0), discount and tax rates,
    terminal value (``terminal_flag`` 1 for book), server price decline, retrofit
    premium and reserve headroom (1/0)."""
    t = a.tiers[tier_name]
    s = a.servers[t.server]
    tp = f"tiers.{tier_name}"
    sp = f"servers.{t.server}"
    put("aux_power_fraction", "power.aux_power_fraction", a.power.aux_power_fraction)
    put("pue", f"power.pue.{t.cooling}", a.power.pue[t.cooling])
    put("price_per_kwh", *layered(a, tier_name, "power", "price_per_kwh"))
    put("power_escalation", *layered(a, tier_name, "power", "escalation"))
    put(
        "build_cost_per_kw",
        f"facility.build_cost_per_kw.{t.cooling}",
        a.facility.build_cost_per_kw[t.cooling],
    )
    put("colocation_per_kw_month", *colocation(a, tier_name))
    put("build_flag", "facility.mode", 1.0 if a.facility.mode == "build" else 0.0)
    _put_discount_rate(a, put)
    put("tax_rate", *layered(a, tier_name, "finance", "tax_rate"))
    put("terminal_flag", "terminal_value", 1.0 if a.terminal_value == "book" else 0.0)
    put("server_price_decline", f"{sp}.price_decline", s.price_decline)
    put("retrofit_premium", "facility.retrofit_premium", a.facility.retrofit_premium)
    put("reserve_headroom", f"{tp}.reserve_headroom", 1.0 if t.reserve_headroom else 0.0)
    for name, (path, q) in grid_inputs(a, tier_name).items():  # methodology §29
        put(name, path, q)


def _put_discount_rate(a: Assumptions, put: _Put) -> None:
    """The discount rate as given, or with ``finance.discount_rate: wacc`` the flag
    ``discount_wacc`` (1): the engine derives the rate from the financing inputs
    (:func:`costmodel.core.wacc.wacc`; methodology §11.10), so that a varied loan
    rate, debt share, cost of equity or tax rate moves it."""
    rate = a.finance.discount_rate
    if rate == "wacc":
        put("discount_wacc", "finance.discount_rate", 1.0)
    else:
        put("discount_rate", "finance.discount_rate", rate)


def _put_depreciation(a: Assumptions, put: _Put) -> None:
    """Per asset class its salvage share and, when given, its market decline."""
    for cls in CAPEX_CLASSES:
        dc = getattr(a.depreciation, cls)
        put(f"salvage_{cls}", f"depreciation.{cls}.salvage", dc.salvage)
        if dc.market_decline is not None:
            put(f"market_decline_{cls}", f"depreciation.{cls}.market_decline", dc.market_decline)


def _put_stages(
    a: Assumptions, tier_name: str, put: _Put, out: dict[str, tuple[str, float]]
) -> None:
    """Stage i's month, GPUs, storage and headcount (``stage{i}_*``); without its
    own headcount, that of the deployment before carries on."""
    tp = f"tiers.{tier_name}"
    for i, st in enumerate(a.tiers[tier_name].stages, start=1):
        put(f"stage{i}_month", f"{tp}.stages.{i - 1}.month", st.month)
        put(f"stage{i}_gpus", f"{tp}.stages.{i - 1}.gpus", st.gpus)
        if a.tiers[tier_name].storage.node is None:  # nodes follow the GPUs (§28.2)
            put(f"stage{i}_capacity_tb", f"{tp}.stages.{i - 1}.capacity_tb", st.capacity_tb)
        if a.tiers[tier_name].staff_scaling is not None:
            continue  # the headcount follows the servers (methodology §12.2)
        if st.staff_fte is not None:
            put(f"stage{i}_staff_fte", f"{tp}.stages.{i - 1}.staff_fte", st.staff_fte)
        else:  # the headcount of the deployment before carries on
            out[f"stage{i}_staff_fte"] = out[f"stage{i - 1}_staff_fte" if i > 1 else "staff_fte"]


def _put_overridable(a: Assumptions, tier_name: str, put: _Put) -> None:
    """The inputs a tier may override (``OVERRIDABLE``): the tier's own value,
    else the global one."""
    t = a.tiers[tier_name]
    tp = f"tiers.{tier_name}"
    for section, keys in OVERRIDABLE.items():
        glob = getattr(a, section)
        own = getattr(t, section)
        for key in keys:
            mine = getattr(own, key) if own is not None else None
            if key == "mfu" and mine is not None and part_path(a, tier_name, "mfu") != tp:
                put(key, f"{part_path(a, tier_name, 'mfu')}.mfu", mine)  # the design's
            elif mine is not None:
                put(key, f"{tp}.{section}.{key}", mine)
            else:
                put(key, f"{section}.{key}", getattr(glob, key))


def _put_revenue(
    a: Assumptions, tier_name: str, put: _Put, out: dict[str, tuple[str, float]]
) -> None:
    """The cloud price of the tier's server for the revenue term; in the
    ``avoided_cloud`` mode the GPU-hour is priced at it, contracted hours included
    (``contract_at_hour_value`` 1)."""
    sp = f"servers.{a.tiers[tier_name].server}"
    mode, term = revenue_mode(a, tier_name)
    cloud_key = f"cloud_{term}_per_gpu_hour"
    cloud = getattr(a.servers[a.tiers[tier_name].server], cloud_key)
    if cloud is not None:
        put("cloud_price_per_gpu_hour", f"{sp}.{cloud_key}", cloud)
    if mode == "avoided_cloud":  # the GPU-hour is worth what the cloud would charge
        out["price_per_gpu_hour"] = out["cloud_price_per_gpu_hour"]
    own = a.tiers[tier_name].revenue
    mode_path = (
        f"tiers.{tier_name}.revenue.mode" if own is not None and own.mode else "revenue.mode"
    )
    # contracted hours too: every GPU-hour at the cloud price (methodology §11.5)
    put("contract_at_hour_value", mode_path, float(mode == "avoided_cloud"))


#: the keys of a contract (methodology §11.5) and the engine inputs they become
CONTRACT_KEYS = {
    "share": "contract_share",
    "price_per_gpu_hour": "contract_price_per_gpu_hour",
    "months": "contract_months",
    "escalation": "contract_escalation",
    "default_rate": "contract_default_rate",
}


def contract_paths(a: Assumptions, tier_name: str) -> dict[str, str] | None:
    """The dotted path of each key of the tier's contract (methodology §11.5): the
    tier's own ``revenue.contract.<key>`` where given, else the global one; None
    without a contract (a key neither gives is absent)."""
    own = a.tiers[tier_name].revenue
    mine = own.contract if own is not None else None
    glob = a.revenue.contract
    if mine is None and glob is None:
        return None
    out = {}
    for key in CONTRACT_KEYS:
        if mine is not None and getattr(mine, key) is not None:
            out[key] = f"tiers.{tier_name}.revenue.contract.{key}"
        elif glob is not None and getattr(glob, key) is not None:
            out[key] = f"revenue.contract.{key}"
    return out


def _put_contract(a: Assumptions, tier_name: str, put: _Put) -> None:
    """The tier's contract (``contract_share``, ``contract_price_per_gpu_hour``,
    ``contract_months``, ``contract_escalation``; :func:`contract_paths`); nothing
    without one (the engine then sells every hour spot)."""
    paths = contract_paths(a, tier_name)
    if paths is None:
        return
    own = a.tiers[tier_name].revenue
    for key, path in paths.items():
        src = own.contract if path.startswith("tiers.") else a.revenue.contract  # type: ignore[union-attr]
        put(CONTRACT_KEYS[key], path, getattr(src, key))


def _put_financing(a: Assumptions, put: _Put) -> None:
    """Financing inputs (methodology §8.2); without a financing section the debt share is
    0 and equity is discounted at the discount rate."""
    f = a.financing
    if f is None:
        put("debt_share", "financing.debt_share", 0.0)
        put("interest_rate", "financing.interest_rate", 0.0)
        put("loan_rate_nominal", "financing.rate_convention", 1.0)
        put("term_years", "financing.term_years", 1)
        if a.finance.discount_rate != "wacc":  # else a rule asks for the financing
            put("cost_of_equity", "finance.discount_rate", a.finance.discount_rate)
        return
    put("debt_share", "financing.debt_share", f.debt_share)
    put("interest_rate", "financing.interest_rate", f.interest_rate)
    put("loan_rate_nominal", "financing.rate_convention", float(f.rate_convention == "nominal"))
    put("term_years", "financing.term_years", f.term_years)
    if f.cost_of_equity is not None:
        put("cost_of_equity", "financing.cost_of_equity", f.cost_of_equity)
    elif a.finance.discount_rate != "wacc":
        put("cost_of_equity", "finance.discount_rate", a.finance.discount_rate)


def _put_vat(a: Assumptions, put: _Put) -> None:
    """VAT rates (methodology §24), when there is a ``vat`` section: the output rate,
    the input rate of each capex class and opex line (``vat_input_<key>``) and the
    surtax rate."""
    v = a.vat
    if v is None:
        return
    put("vat_output_rate", "vat.output_rate", v.output_rate)
    for key in VAT_INPUT_KEYS:
        put(f"vat_input_{key}", f"vat.input_rates.{key}", getattr(v.input_rates, key))
    put("vat_surtax_rate", "vat.surtax_rate", v.surtax_rate)
    put("vat_refund_ratio", "vat.refund_ratio", v.refund_ratio)
