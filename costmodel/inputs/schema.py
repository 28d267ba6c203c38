"""Pydantic models of the assumption files (methodology §2), one per section.

Every numeric input is a :class:`Quantity`; in a file it may be written as a bare
number or as a mapping ``{value, low, high, unit, source, note, dist, sd}``.
Field-level rules (ranges) live here; rules that relate several sections
(a tier's server must exist, rack power within the cooling's limit, ...) live in
:mod:`costmodel.inputs.rules` so that their errors can name the exact dotted path.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PrivateAttr,
    StrictBool,
    field_validator,
    model_validator,
)

from costmodel.catalogue.items import CAPEX_CLASSES, VAT_INPUT_KEYS, VAT_OPEX_LINES  # noqa: F401
from costmodel.inputs.forms import WholeVersion, rate_or_wacc
from costmodel.inputs.fxrates import FxTable
from costmodel.inputs.grants import Subsidy
from costmodel.inputs.quantity import (  # noqa: F401 (re-exported for the sections' users)
    F,
    Months,
    NonNegative,
    Number,
    Plain,
    Positive,
    Pue,
    Q,
    Quantity,
    Rate,
    Section,
    Share,
    Text,
    WholeMonths,
    bounded,
    given,
    given_months,
    whole_months,
)
from costmodel.inputs.siteschema import FinanceOverride, Origin, Policy, PowerOverride, Site
from costmodel.inputs.whole import (
    CarryforwardYears,
    Count,
    LifeYears,
    MonthNumber,
    WholeNumber,  # noqa: F401 (re-exported: a whole-number input with its range)
    WholeYears,
)

#: the schema's own short names of the number types of :mod:`costmodel.inputs.quantity`
_Q, _F, _bounded, _given = Q, F, bounded, given

#: the specification's version this package implements: the newest ``schema_version``
#: a file may state (methodology §2.7)
SCHEMA_VERSION = 4
#: the capex (asset) classes, from the catalogue of line items
ASSET_CLASSES = CAPEX_CLASSES
DEPRECIATION_METHODS = ("straight_line", "sum_of_years", "double_declining")


def _iso_4217(code: str) -> str:
    """Methodology section 30: a currency is an ISO 4217 code, three capital letters."""
    if len(code) != 3 or not all("A" <= ch <= "Z" for ch in code):
        raise ValueError("must be an ISO 4217 currency code: three capital letters (CNY, USD, EUR)")
    return code


#: an ISO 4217 currency code (``CNY``, ``USD``); the text reaches units, tables and
#: chart titles, so nothing else is accepted
CurrencyCode = Annotated[Text, AfterValidator(_iso_4217)]


#: the schema's own short names of the month inputs of :mod:`costmodel.inputs.quantity`
_given_months, _whole = given_months, whole_months


# ----------------------------------------------------------------------------- sections


class Finance(Section):
    """``discount_rate`` (annual; ``wacc``: of the financing, methodology §11.10),
    ``tax_rate`` and the years a tax loss may be carried forward (methodology §8.3)."""

    discount_rate: Annotated[Literal["wacc"] | Rate, BeforeValidator(rate_or_wacc)]
    tax_rate: Rate
    loss_carryforward_years: CarryforwardYears | None = None


class Timeline(Section):
    """Construction and ramp-up (methodology §8.1): hardware is paid at ``build_months``
    and revenue starts the month after; each deployment ramps linearly to the
    utilization over ``ramp_months``."""

    build_months: WholeMonths = _given_months(0)
    ramp_months: Months = _given_months(0)


class TimelineOverride(Section):
    build_months: WholeMonths | None = None
    ramp_months: Months | None = None


class Financing(Section):
    """Debt financing of every capex event (methodology §8.2): ``debt_share`` of it is
    borrowed at ``interest_rate`` (annual) and repaid in level monthly payments
    over ``term_years`` from operations start; equity cash flow is discounted at
    ``cost_of_equity`` (the discount rate if absent). ``rate_convention``: how the
    annual rate becomes the monthly one (methodology §8.2): ``nominal`` (PRC banks and
    LPR-based loans, 月利率 = 年利率 / 12) charges ``interest_rate / 12`` a month,
    ``effective`` ``(1 + interest_rate)^(1/12) - 1``."""

    debt_share: Rate
    interest_rate: Rate
    rate_convention: Annotated[Literal["nominal", "effective"], Plain] = "nominal"
    term_years: WholeYears
    cost_of_equity: Rate | None = None
    min_dscr_covenant: Annotated[_Q, _bounded(0, None, rule="must be >= 0")] | None = None


VatRate = Annotated[
    _F, _bounded(0, 1, hi_open=True, rule="must be a VAT rate at least 0 and below 1")
]


def _no_vat(source: str = "methodology §24: absent key = no input VAT") -> Any:
    return _given(0, source, "fraction")


class VatInputRates(Section):
    """Input VAT rate per capex class and opex line (methodology §24); an absent key
    is 0; staff and selling costs carry none (no key for them)."""

    servers: VatRate = _no_vat()
    network: VatRate = _no_vat()
    storage: VatRate = _no_vat()
    facility: VatRate = _no_vat()
    electricity: VatRate = _no_vat()
    colocation: VatRate = _no_vat()
    maintenance: VatRate = _no_vat()
    insurance: VatRate = _no_vat()
    software: VatRate = _no_vat()


class Vat(Section):
    """PRC VAT (methodology §24, §11.11) on VAT-exclusive prices: output, input, the
    credit pool refunded (``refund``, ``refund_ratio``; 留抵退税) or lost, surtax."""

    output_rate: VatRate
    input_rates: VatInputRates = Field(default_factory=VatInputRates)
    surtax_rate: VatRate = _given(0, "methodology §24: no surtax unless an input says so")
    refund_credit: Annotated[StrictBool, Plain] = False
    refund: Annotated[Literal["annual", "monthly"], Plain] | None = None
    refund_ratio: Rate = _given(1, "methodology §11.11: the whole credit qualifies", "fraction")


class Power(Section):
    """Electricity price (per kWh), its annual escalation, auxiliary IT power
    (network, storage, management as a fraction of server power) and PUE per
    cooling type."""

    price_per_kwh: NonNegative
    escalation: Rate
    aux_power_fraction: Rate
    pue: dict[str, Pue] = Field(min_length=1)


class Facility(Section):
    """Build a hall (capex per kW of IT load) or rent colocation (per kW-month).
    ``retrofit_premium``: extra cost, as a fraction, of adding facility capacity
    after the first build (methodology §8.1)."""

    mode: Annotated[Literal["build", "colocation"], Plain]
    build_cost_per_kw: dict[str, NonNegative] = Field(min_length=1)
    #: one rent per kW-month, or a rent by cooling (methodology §28.3)
    colocation_per_kw_month: NonNegative | dict[str, NonNegative]
    max_rack_kw: dict[str, Positive] = Field(min_length=1)
    retrofit_premium: NonNegative = _given(
        0, "methodology §8.1: no premium unless an input says so", "fraction of build cost"
    )


class Operations(Section):
    """Utilization and the operating cost drivers."""

    utilization: Rate
    maintenance_rate: Rate
    insurance_rate: Rate
    staff_cost_per_fte: NonNegative
    staff_escalation: Rate
    software_per_gpu_year: NonNegative
    sga_share: Rate = _given(
        0,
        "methodology §11.4: no selling, general and administrative costs unless an input says so",
        "fraction of revenue",
    )


WholeContractMonths = Annotated[
    Annotated[_Q, _bounded(1, 360, rule="must be a number of months between 1 and 360")],
    AfterValidator(_whole),
]


class Contract(Section):
    """Contracted capacity (methodology §11.5): ``share`` of each deployment's
    available GPU-hours sold take-or-pay for its first ``months`` in service at
    ``price_per_gpu_hour``, escalating by ``escalation`` each contract year; the
    rest is sold at the spot price with the ramp."""

    share: Rate
    price_per_gpu_hour: NonNegative
    months: WholeContractMonths
    escalation: Rate = _given(
        0, "methodology §11.5: a flat contract price unless an input says so", "1/yr"
    )
    default_rate: Rate = _given(0, "methodology §11.12: no counterparty default", "1/yr")


class ContractOverride(Section):
    """A tier's contract: each key given replaces the global contract's."""

    share: Rate | None = None
    price_per_gpu_hour: NonNegative | None = None
    months: WholeContractMonths | None = None
    escalation: Rate | None = None
    default_rate: Rate | None = None


class Revenue(Section):
    """What a GPU-hour is worth in operating year 1, and its annual decline.

    ``mode: rental`` (default): the tier sells GPU-hours at ``price_per_gpu_hour``.
    ``mode: avoided_cloud``: each GPU-hour is valued at what the same hour would
    cost from a cloud provider, the tier's server's ``cloud_on_demand_per_gpu_hour``
    or ``cloud_reserved_per_gpu_hour`` (``cloud_term``), so NPV reads as the value
    of building instead of renting.
    """

    mode: Annotated[Literal["rental", "avoided_cloud"], Plain] = "rental"
    cloud_term: Annotated[Literal["on_demand", "reserved"], Plain] = "on_demand"
    price_per_gpu_hour: NonNegative
    price_decline: Rate
    contract: Contract | None = None


class DepreciationClass(Section):
    """Depreciation of one asset class: method, life in whole years, salvage
    as a fraction of cost; for tax (methodology §11.7) the same (``book``) or the
    whole cost deducted in the in-service month's year (``expensed``: the PRC
    one-off deduction of equipment up to 5 million CNY a unit, Caishui [2018] No.
    54)."""

    method: Annotated[Literal["straight_line", "sum_of_years", "double_declining"], Plain]
    life_years: LifeYears
    salvage: Rate
    market_decline: (
        Annotated[_F, _bounded(0, 1, hi_open=True, rule="must be at least 0 and below 1")] | None
    ) = None
    tax_method: Annotated[Literal["book", "expensed"], Plain] = "book"
    #: the life over which ``terminal_value: income`` values the margin (methodology §30)
    economic_life_years: LifeYears | None = None


class Depreciation(Section):
    servers: DepreciationClass
    network: DepreciationClass
    storage: DepreciationClass
    facility: DepreciationClass
    # an expensed facility is refused by costmodel.inputs.rules, at its own line


class Server(Section):
    """One server SKU of the catalogue (price and power for the whole server)."""

    label: Text = ""
    label_zh: Text = ""
    gpus_per_server: Count
    price: NonNegative
    power_kw: NonNegative
    idle_fraction: Rate
    gpu_memory_gb: Positive
    tflops_bf16: NonNegative
    nvlink: StrictBool = False
    price_decline: Rate = _given(
        0, "methodology §8.1: constant price unless an input says so", "fraction per year"
    )
    cloud_on_demand_per_gpu_hour: NonNegative | None = None
    cloud_reserved_per_gpu_hour: NonNegative | None = None
    # chip access, rack-scale units and supply lead time (methodology §30, §33)
    origin: Origin = "foreign"
    racks_per_unit: Count | None = None
    fabric_endpoints_per_unit: Count | None = None
    lead_months: WholeMonths | None = None


class Reliability(Section):
    """Failure, restart and checkpoint inputs of the goodput model (methodology §5)."""

    node_failures_per_day: NonNegative
    restart_hours: NonNegative
    checkpoint_tb: NonNegative
    mfu: Rate
    repair_hours: NonNegative = _given(
        0, "methodology §8.3: no repair downtime unless an input says so", "hours per failure"
    )


class OperationsOverride(Section):
    utilization: Rate | None = None
    maintenance_rate: Rate | None = None
    insurance_rate: Rate | None = None
    staff_cost_per_fte: NonNegative | None = None
    staff_escalation: Rate | None = None
    software_per_gpu_year: NonNegative | None = None
    sga_share: Rate | None = None


class RevenueOverride(Section):
    mode: Annotated[Literal["rental", "avoided_cloud"], Plain] | None = None
    cloud_term: Annotated[Literal["on_demand", "reserved"], Plain] | None = None
    price_per_gpu_hour: NonNegative | None = None
    price_decline: Rate | None = None
    contract: ContractOverride | None = None


class ReliabilityOverride(Section):
    node_failures_per_day: NonNegative | None = None
    restart_hours: NonNegative | None = None
    checkpoint_tb: NonNegative | None = None
    mfu: Rate | None = None
    repair_hours: NonNegative | None = None


AtLeastOne = Annotated[_Q, _bounded(1, None, rule="must be >= 1")]


class NetworkDesign(Section):
    """A fabric sized from the endpoint count (methodology §12.1): switches of
    ``switch_radix`` ports (even) at ``switch_price``, a transceiver at each end of
    every link at ``optic_price``, leaf uplinks ``oversubscription`` (>= 1) times
    fewer than leaf downlinks, and ``per_server`` of front-end, management and
    storage networking per server."""

    switch_radix: Count
    switch_price: NonNegative
    optic_price: NonNegative
    oversubscription: AtLeastOne = _given(1, "methodology §12.1: non-blocking unless given")
    per_server: NonNegative = _given(0, "methodology §12.1: no front-end network unless given")
    rail_optimized: bool = False  # methodology §28.4: one leaf per rail per k/2 servers

    @field_validator("switch_radix")
    @classmethod
    def _even_radix(cls, k: Any) -> Any:
        for end in ("value", "low", "high"):
            v = k if end == "value" else getattr(k, end, None)
            if v is not None and (int(v) < 2 or int(v) % 2):
                label = "" if end == "value" else f"{end} {int(v)}: "
                raise ValueError(f"{label}must be an even number of ports >= 2")
        return k


class Network(Section):
    """``share``: the network's fraction of total hardware capex, in [0, 1); or
    ``design``: a fabric sized from the cluster (methodology §12.1). Exactly one
    (checked with the cross-section rules, which name the file and line)."""

    fabric: Text = ""
    fabric_zh: Text = ""
    share: Share | None = None
    design: NetworkDesign | None = None


class StaffScaling(Section):
    """Headcount that follows the servers in service (methodology §12.2):
    ``fixed_fte + fte_per_server * servers``."""

    fixed_fte: NonNegative
    fte_per_server: NonNegative


class StorageNode(Section):
    """One storage node (methodology §28.2): its capacity, aggregate write and read
    bandwidth and price."""

    capacity_tb: Positive
    write_gbps: Positive
    read_gbps: Positive
    price: NonNegative


class Storage(Section):
    """A tier's storage: ``capacity_tb`` at ``price_per_tb`` writing at
    ``write_gbps`` (methodology §3.1), or sized in ``node``s by capacity and by
    bandwidth per GPU, with an optional capacity tier at ``capacity_price_per_tb``
    (methodology §28.2). Exactly one of the two forms."""

    kind: Text = ""
    kind_zh: Text = ""
    capacity_tb: NonNegative | None = None
    price_per_tb: NonNegative | None = None
    write_gbps: Positive | None = None
    node: StorageNode | None = None
    min_nodes: Count = 1
    min_capacity_tb: NonNegative = _given(0, "methodology §28.2: no floor unless given", "TB")
    capacity_tb_per_gpu: NonNegative = _given(0, "methodology §28.2: none unless given", "TB")
    write_gbps_per_gpu: NonNegative = _given(0, "methodology §28.2: none unless given", "GB/s")
    read_gbps_per_gpu: NonNegative = _given(0, "methodology §28.2: none unless given", "GB/s")
    capacity_price_per_tb: NonNegative | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Storage:
        v3 = ("capacity_tb", "price_per_tb", "write_gbps")
        given = [k for k in v3 if getattr(self, k) is not None]
        if self.node is not None and given:
            raise ValueError(
                f"give either node (sized by bandwidth, methodology §28.2) or "
                f"capacity_tb, price_per_tb and write_gbps, not both ({', '.join(given)} given)"
            )
        missing = [k for k in v3 if getattr(self, k) is None]
        if self.node is None and missing:
            raise ValueError(f"required: {', '.join(missing)} (or a storage node, §28.2)")
        return self


class Stage(Section):
    """A later deployment of a tier (methodology §8.1): ``gpus`` more GPUs and
    ``capacity_tb`` more storage bought at capex month ``month``, in service
    from ``month + 1``; ``staff_fte`` (if given) is the tier's headcount from then."""

    month: MonthNumber
    gpus: Count
    capacity_tb: NonNegative = Field(default_factory=lambda: Quantity(value=0))
    staff_fte: NonNegative | None = None


class Design(Section):
    """The build of one scale class (methodology §28.1): network, storage, cooling,
    rack power, team and MFU, for clusters of at most ``max_gpus`` GPUs."""

    max_gpus: Count
    network: Network
    storage: Storage
    cooling: Text
    rack_kw: Positive
    staff_scaling: StaffScaling
    mfu: Rate | None = None
    scheduler: Text = ""
    scheduler_zh: Text = ""
    label: Text = ""
    label_zh: Text = ""


class Tier(Section):
    """One scale option to compare. ``gpus`` and ``storage.capacity_tb`` are the
    first deployment; ``stages`` add later ones (methodology §8.1)."""

    label: Text | None = None
    description: Text = ""
    description_zh: Text = ""
    server: Text
    gpus: Count
    #: the design taken (methodology §28.1); ``auto`` is resolved to its scale class
    design: Text | None = None
    network: Network
    storage: Storage
    rack_kw: Positive
    cooling: Text
    staff_fte: NonNegative | None = None
    staff_scaling: StaffScaling | None = None
    scheduler: Text = ""
    scheduler_zh: Text = ""
    operations: OperationsOverride | None = None
    revenue: RevenueOverride | None = None
    reliability: ReliabilityOverride | None = None
    timeline: TimelineOverride | None = None
    stages: list[Stage] = Field(default_factory=list)
    reserve_headroom: StrictBool = True
    subsidies: list[Subsidy] | None = None  # replaces the global list (methodology §11.13)
    # the tier's site and its own power and finance keys (methodology §29)
    site: Text | None = None
    power: PowerOverride | None = None
    finance: FinanceOverride | None = None

    @model_validator(mode="after")
    def _one_headcount(self) -> Tier:
        if (self.staff_fte is None) == (self.staff_scaling is None):
            raise ValueError("give exactly one of staff_fte and staff_scaling (methodology §12.2)")
        if self.staff_scaling is not None and any(s.staff_fte is not None for s in self.stages):
            raise ValueError(
                "with staff_scaling the stages' headcount follows their servers: "
                "remove stages.staff_fte"
            )
        return self


class Workload(Section):
    """A task to size against the tiers (methodology §5b)."""

    name: Text
    kind: Annotated[Literal["pretrain", "finetune", "lora", "inference"], Plain]
    params_b: Positive
    tokens_b: NonNegative | None = None
    deadline_days: Positive | None = None
    lora_flops_factor: Rate | None = None
    bytes_per_param: Positive | None = None
    tokens_per_s: Positive | None = None
    tokens_per_s_per_gpu: Positive | None = None
    note: Text = ""

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Workload:
        if self.kind == "inference":
            need = ("bytes_per_param", "tokens_per_s", "tokens_per_s_per_gpu")
        else:
            need = ("tokens_b", "deadline_days")
        missing = [k for k in need if getattr(self, k) is None]
        if missing:
            article = "an" if self.kind[0] in "aeiou" else "a"
            raise ValueError(f"{article} {self.kind} workload needs {', '.join(missing)}")
        return self


class Sizing(Section):
    """Constants of workload sizing (methodology §5b). The defaults are those of
    methodology §5b; the bundled default carries them with sources."""

    training_bytes_per_param: Positive = _given(
        16, "methodology §5b: BF16 weights and gradients + FP32 master weights and Adam moments"
    )
    lora_bytes_per_param: Positive = _given(
        16,
        "methodology §5b: without this input a LoRA's floor is the full fine-tune's "
        "(16 bytes per parameter, as for training)",
    )
    usable_memory_fraction: Rate = _given(
        0.8, "methodology §5b: share of GPU memory for model state"
    )
    inference_overhead: AtLeastOne = _given(
        1.2, "methodology §5b: KV cache and activations on top of the weights"
    )
    lora_flops_factor: Rate = _given(2 / 3, "methodology §5b: LoRA skips most weight gradients")


class Risks(Section):
    """The what-ifs the memo prices (each from an input with a source)."""

    reference_mfu: Rate = _given(0.50, "seed: '理想的 50%' MFU of a well-planned network")
    degraded_mfu: Rate = _given(0.20, "seed: MFU '直接掉到 20%' with a badly planned network")
    storage_speedup: AtLeastOne = _given(10, "what-if: storage this many times faster")
    checkpoint_frequency_factor: AtLeastOne = _given(
        10, "what-if: checkpoints this many times as often as the optimum (IO storm)"
    )


class CostBand(Section):
    """A build-cost band of the domain source: ``low`` to ``high`` (``None``: open),
    with the words of the source it is read from."""

    low: Annotated[Number, Field(ge=0)]
    high: Annotated[Number, Field(ge=0)] | None = None
    source: Text = ""


class Reference(Section):
    """The domain source's build-cost band per scale class (in ``currency``); the
    memo sets each tier's capex against the band of its class when the model's
    currency is the same."""

    currency: CurrencyCode
    source: Text = ""
    build_cost: dict[Literal["tens", "hundreds", "thousands"], CostBand] = Field(min_length=1)


class Correlation(Section):
    """Two ranged inputs drawn together by the Monte Carlo (methodology §9.1):
    their standard normals have correlation ``rho`` in the Gaussian copula."""

    a: Text
    b: Text
    rho: Annotated[Number, Field(gt=-1, lt=1)]
    source: Text = ""


class Assumptions(Section):
    """The whole, merged set of assumptions of one model."""

    schema_version: Annotated[Literal[1, 2, 3, 4], WholeVersion, Plain]
    name: Text
    currency: CurrencyCode
    start: Annotated[
        Text,
        BeforeValidator(lambda v: v.strftime("%Y-%m") if isinstance(v, date) else v),
        Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$"),
    ]
    horizon_years: WholeYears
    terminal_value: Annotated[Literal["book", "none", "market", "income"], Plain]
    timeline: Timeline = Field(default_factory=lambda: Timeline())
    finance: Finance
    power: Power
    facility: Facility
    operations: Operations
    revenue: Revenue
    depreciation: Depreciation
    servers: dict[str, Server] = Field(min_length=1)
    tiers: dict[str, Tier] = Field(min_length=1)
    designs: dict[Literal["tens", "hundreds", "thousands"], Design] = Field(default_factory=dict)
    reliability: Reliability
    workloads: list[Workload] = Field(default_factory=list)
    sizing: Sizing = Field(default_factory=Sizing)
    risks: Risks = Field(default_factory=Risks)
    reference: Reference | None = None
    financing: Financing | None = None
    vat: Vat | None = None
    correlations: list[Correlation] = Field(default_factory=list)
    sites: dict[str, Site] = Field(default_factory=dict)
    site: Text | None = None
    policy: Policy = Field(default_factory=Policy)
    fx: FxTable = Field(default_factory=dict)
    subsidies: list[Subsidy] = Field(default_factory=list)

    # the merged source (files, raw data, line origins) when loaded from files
    _source: Any = PrivateAttr(default=None)

    def __repr__(self) -> str:
        files = len(self._source.files) if self._source is not None else 0
        return (
            f"<Assumptions {self.name!r}: tiers {', '.join(self.tiers)}; {self.currency}, "
            f"{self.horizon_years} years from {self.start}; {files} files>"
        )
