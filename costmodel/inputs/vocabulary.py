"""The names of the model's inputs, once, for every output: English, Chinese,
unit and the kind that says how a value is shown.

The command line's tables, the workbook's Inputs and tier sheets and the memo all
read :data:`INPUTS` through :func:`input_key` / :func:`input_term`, so an input is
called the same and shown the same way everywhere (the names of the summary
metrics are :data:`costmodel.core.metrics.METRICS`).

Keys are the engine's input names (:meth:`costmodel.inputs.params.TierInputs.values`)
or, for inputs the engine does not read as numbers, the last part(s) of their
dotted path. ``{cur}`` in a unit is the model currency. Kinds:

- ``pct``: a share or a yearly rate, stored as a fraction and shown as a percentage;
- ``money``: an amount of the currency; ``price``: money per GPU-hour (two decimals);
- ``decimal``: a number shown with two decimals; ``number``: any other number
  (months, hours, counts, kW);
- ``text``: a name, an id or a choice from a list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from costmodel.catalogue.items import FACILITY_MODES, input_specs

InputKind = Literal["pct", "money", "price", "decimal", "number", "text"]


@dataclass(frozen=True)
class Term:
    """How an input is named and shown."""

    en: str
    zh: str
    unit: str  # ``{cur}`` is the model currency
    kind: InputKind

    def unit_in(self, currency: str, lang: str = "en") -> str:
        """The unit with the model currency in it (``currency`` as the reader's
        language writes it: ``CNY`` or ``元``); in Chinese from :data:`UNITS_ZH`."""
        unit = UNITS_ZH.get(self.unit, self.unit) if lang == "zh" else self.unit
        return unit.format(cur=currency)


INPUTS: dict[str, Term] = {
    "gpus": Term("GPUs", "GPU 数量", "GPUs", "number"),
    "gpus_per_server": Term("GPUs per server", "每台服务器 GPU 数", "GPUs", "number"),
    "server_price": Term("Server price", "服务器单价", "{cur}/server", "money"),
    "server_power_kw": Term("Server power (kW)", "单台服务器功率（千瓦）", "kW", "number"),
    "idle_fraction": Term("Idle power share", "空闲功耗占比", "fraction of max draw", "pct"),
    "gpu_memory_gb": Term("GPU memory (GB)", "单卡显存（GB）", "GB per GPU", "number"),
    "tflops_bf16": Term(
        "Peak BF16 TFLOPS per GPU", "单卡 BF16 峰值算力（TFLOPS）", "TFLOPS per GPU", "number"
    ),
    "network_share": Term(
        "Network share of hardware capex", "网络占硬件投资比例", "fraction", "pct"
    ),
    "storage_capacity_tb": Term("Storage capacity (TB)", "存储容量（TB）", "TB", "number"),
    "storage_price_per_tb": Term("Storage price per TB", "每 TB 存储价格", "{cur}/TB", "money"),
    "write_gbps": Term("Storage write bandwidth (GB/s)", "存储写入带宽（GB/s）", "GB/s", "number"),
    "storage_node_capacity_tb": Term(
        "Storage node: capacity (TB)", "存储节点：容量（TB）", "TB", "number"
    ),
    "storage_node_write_gbps": Term(
        "Storage node: write bandwidth (GB/s)", "存储节点：写入带宽（GB/s）", "GB/s", "number"
    ),
    "storage_node_read_gbps": Term(
        "Storage node: read bandwidth (GB/s)", "存储节点：读取带宽（GB/s）", "GB/s", "number"
    ),
    "storage_node_price": Term("Storage node: price", "存储节点：单价", "{cur}/node", "money"),
    "storage_min_nodes": Term("Storage: minimum nodes", "存储：最少节点数", "nodes", "number"),
    "storage_min_capacity_tb": Term(
        "Storage: minimum capacity (TB)", "存储：最低容量（TB）", "TB", "number"
    ),
    "storage_capacity_tb_per_gpu": Term(
        "Storage: capacity per GPU (TB)", "存储：每卡容量（TB）", "TB/GPU", "number"
    ),
    "storage_write_gbps_per_gpu": Term(
        "Storage: write bandwidth per GPU (GB/s)",
        "存储：每卡写入带宽（GB/s）",
        "GB/s per GPU",
        "number",
    ),
    "storage_read_gbps_per_gpu": Term(
        "Storage: read bandwidth per GPU (GB/s)",
        "存储：每卡读取带宽（GB/s）",
        "GB/s per GPU",
        "number",
    ),
    "storage_capacity_price_per_tb": Term(
        "Storage: capacity tier price per TB", "存储：容量层每 TB 价格", "{cur}/TB", "money"
    ),
    "rack_kw": Term("Power per rack (kW)", "单机柜功率（千瓦）", "kW/rack", "number"),
    "staff_fte": Term("Staff (FTE)", "运维人员（人）", "FTE", "number"),
    "fabric_radix": Term("Fabric: switch ports (radix)", "网络：交换机端口数", "ports", "number"),
    "fabric_switch_price": Term(
        "Fabric: price per switch", "网络：交换机单价", "{cur}/switch", "money"
    ),
    "fabric_optic_price": Term(
        "Fabric: price per transceiver", "网络：光模块单价", "{cur}/transceiver", "money"
    ),
    "fabric_oversubscription": Term(
        "Fabric: oversubscription (leaf down/up)", "网络：收敛比", "ratio", "number"
    ),
    "fabric_per_server": Term(
        "Front-end, management and storage network per server",
        "每台服务器的前端、管理与存储网络",
        "{cur}/server",
        "money",
    ),
    "fabric_rail_optimized": Term(
        "Fabric: rail-optimised leaves (1/0)", "网络：多轨叶交换机（1/0）", "0/1", "number"
    ),
    "staff_fixed_fte": Term("Staff: fixed team", "运维人员：固定团队", "FTE", "number"),
    "staff_fte_per_server": Term(
        "Staff per server in service", "每台在役服务器的运维人员", "FTE/server", "decimal"
    ),
    "aux_power_fraction": Term(
        "Auxiliary power share", "辅助功耗占比", "fraction of server power", "pct"
    ),
    "pue": Term("PUE", "PUE", "ratio", "number"),
    # sites, supply and rack-scale units (methodology §29, §30, §33)
    "lead_months": Term(
        "Server supply lead time (months)", "服务器供货周期（月）", "months", "number"
    ),
    "grid_mw": Term(
        "Site grid power without a new connection (MW)",
        "站点无需新接入的电网容量（兆瓦）",
        "MW",
        "number",
    ),
    "grid_connection_per_mw": Term(
        "Grid connection cost per MW", "每兆瓦电网接入费用", "{cur}/MW", "money"
    ),
    "grid_lead_months": Term(
        "Grid connection lead time (months)", "电网接入周期（月）", "months", "number"
    ),
    "price_factor": Term("Site price factor", "站点价格系数", "factor", "number"),
    "economic_life_years": Term(
        "Economic life of the servers (years)", "服务器经济寿命（年）", "years", "number"
    ),
    "racks_per_unit": Term(
        "Racks per rack-scale unit", "每套整机柜系统占用机柜数", "racks", "number"
    ),
    "fabric_endpoints_per_unit": Term(
        "Fabric endpoints per unit", "每台系统的网络端点数", "endpoints", "number"
    ),
    "build_cost_per_kw": Term(
        "Facility build cost per kW", "每千瓦机房建设成本", "{cur}/kW IT", "money"
    ),
    "discount_rate": Term("Discount rate", "折现率", "1/yr", "pct"),
    "tax_rate": Term("Income tax rate", "所得税率", "fraction of taxable profit", "pct"),
    "utilization": Term("Utilization", "利用率", "fraction", "pct"),
    "price_per_gpu_hour": Term(
        "Year-1 price per GPU-hour", "首年每卡时价格", "{cur}/GPU-h", "price"
    ),
    "price_decline": Term("Price decline a year", "价格年降幅", "1/yr", "pct"),
    "contract_share": Term(
        "Contracted share of available GPU-hours",
        "合同（照付不议）占可用卡时比例",
        "fraction",
        "pct",
    ),
    "contract_price_per_gpu_hour": Term(
        "Contract price per GPU-hour (contract year 1)",
        "合同首年每卡时价格",
        "{cur}/GPU-h",
        "price",
    ),
    "contract_months": Term(
        "Contract length from each deployment's service start (months)",
        "合同期限（自各批次投运起，月）",
        "months",
        "number",
    ),
    "contract_escalation": Term(
        "Contract price escalation a contract year", "合同价格年涨幅", "1/yr", "pct"
    ),
    "contract_default_rate": Term(
        "Counterparty default rate of a contract, per year", "合同年违约率", "1/yr", "pct"
    ),
    "node_failures_per_day": Term(
        "Node failures per server-day", "每台服务器日故障次数", "per server-day", "number"
    ),
    "restart_hours": Term("Hours lost per restart", "每次重启损失（小时）", "h", "number"),
    "checkpoint_tb": Term("Checkpoint size (TB)", "检查点大小（TB）", "TB", "number"),
    "mfu": Term("MFU", "MFU（模型算力利用率）", "fraction", "pct"),
    "cloud_price_per_gpu_hour": Term(
        "Cloud price per GPU-hour", "云上每卡时价格", "{cur}/GPU-h", "price"
    ),
    "build_months": Term("Construction (months)", "建设期（月）", "months", "number"),
    "ramp_months": Term("Ramp-up to full utilization (months)", "爬坡期（月）", "months", "number"),
    "server_price_decline": Term("Server price decline a year", "服务器价格年降幅", "1/yr", "pct"),
    "retrofit_premium": Term(
        "Retrofit premium on the build cost", "扩建改造溢价", "fraction of build cost/kW", "pct"
    ),
    "reserve_headroom": Term(
        "Hall built for the final size (1/0)", "机房按最终规模建设（1/0）", "0/1", "number"
    ),
    "repair_hours": Term("Repair hours per failure", "每次故障维修时长（小时）", "h", "number"),
    "market_decline_servers": Term(
        "Server resale value decline a year", "服务器市场价值年降幅", "1/yr", "pct"
    ),
    "market_decline_network": Term(
        "Network resale value decline a year", "网络设备市场价值年降幅", "1/yr", "pct"
    ),
    "market_decline_storage": Term(
        "Storage resale value decline a year", "存储市场价值年降幅", "1/yr", "pct"
    ),
    "market_decline_facility": Term(
        "Facility value decline a year", "机房市场价值年降幅", "1/yr", "pct"
    ),
    "debt_share": Term("Debt share of capex", "债务融资比例", "fraction", "pct"),
    "interest_rate": Term("Loan interest rate", "贷款利率", "1/yr", "pct"),
    "term_years": Term("Loan term (years)", "贷款期限（年）", "years", "number"),
    "cost_of_equity": Term("Cost of equity", "股权资本成本", "1/yr", "pct"),
    "min_dscr_covenant": Term("Minimum DSCR covenant", "最低偿债备付率要求", "x", "decimal"),
    "loss_carryforward_years": Term(
        "Tax loss carry-forward (years)", "亏损结转年限（年）", "years", "number"
    ),
    "vat_output_rate": Term(
        "Output VAT rate (on revenue)", "销项税率（按收入）", "fraction of revenue (net)", "pct"
    ),
    "vat_surtax_rate": Term(
        "VAT surtax rate (city, education)", "增值税附加税率", "fraction of VAT paid", "pct"
    ),
    "refund_ratio": Term(
        "Share of the excess input VAT that qualifies for refund (进项构成比例)",
        "进项构成比例",
        "fraction",
        "pct",
    ),
    "refund_credit": Term(
        "Excess input VAT refunded at year end, 1/0 (留抵退税)",
        "年末留抵退税（1/0）",
        "0/1 (true/false in a file)",
        "number",
    ),
    # inputs not read as numbers by the engine, and path endings shared by several
    "market_decline": Term(
        "Market value decline (terminal value = market)", "市场价值年降幅", "1/yr", "pct"
    ),
    "stages.month": Term(
        "Stage: capex month (in service the month after)", "阶段：投资月份", "month", "number"
    ),
    "stages.gpus": Term("Stage: GPUs added", "阶段：新增 GPU", "GPUs", "number"),
    "stages.capacity_tb": Term("Stage: storage added", "阶段：新增存储", "TB", "number"),
    "stages.staff_fte": Term(
        "Stage: staff from its in-service month", "阶段：新增人员", "FTE", "number"
    ),
    "server": Term("Server model (catalogue id)", "服务器型号", "id", "text"),
    "cooling": Term("Cooling type", "冷却方式", "id", "text"),
    "site": Term(
        "Site (a name of the Sites block; blank: the global inputs)", "站点", "id", "text"
    ),
    "label": Term("Label (as written in the assumption file)", "名称", "text", "text"),
    "live_label": Term(
        "Label from the live GPU count and server", "按 GPU 数量与服务器生成的名称", "text", "text"
    ),
    "gpu_hour_value": Term(
        "Value of a GPU-hour used (rental, or cloud price avoided)",
        "每卡时价值",
        "{cur}/GPU-h",
        "price",
    ),
    "cloud_on_demand_per_gpu_hour": Term(
        "Cloud on-demand price", "云上按需价格", "{cur}/GPU-h", "price"
    ),
    "cloud_reserved_per_gpu_hour": Term(
        "Cloud reserved price", "云上预留价格", "{cur}/GPU-h", "price"
    ),
    "max_rack_kw": Term("Max rack power", "最大单机柜功率", "kW/rack", "number"),
    "salvage": Term("Salvage value", "残值率", "fraction of cost", "pct"),
    "life_years": Term("Useful life", "使用年限", "years", "number"),
    "method": Term("Depreciation method", "折旧方法", "list", "text"),
    "mode": Term("Mode", "模式", "list", "text"),
    "facility.mode": Term(
        f"Facility mode ({' or '.join(FACILITY_MODES)})", "机房模式（自建或托管）", "list", "text"
    ),
    "revenue.mode": Term("Revenue mode (rental or avoided cloud)", "收入模式", "list", "text"),
    "cloud_term": Term("Cloud price term", "云价格期限", "list", "text"),
    "network.fabric": Term("Network fabric", "网络架构", "text", "text"),
    "storage.kind": Term("Storage system", "存储系统", "text", "text"),
    "scheduler": Term("Scheduler", "调度系统", "text", "text"),
    "description": Term("Description", "说明", "text", "text"),
}
#: the inputs each line item declares (:mod:`costmodel.catalogue`)
INPUTS |= {s.key: Term(s.label.en, s.label.zh, s.unit, s.kind) for s in input_specs()}

#: the units of :data:`INPUTS` in Chinese (``{cur}``: the currency, 元 or 美元)
UNITS_ZH: dict[str, str] = {
    "0/1": "0/1",
    "0/1 (true/false in a file)": "0/1",
    "1/yr": "每年",
    "FTE": "人",
    "FTE/server": "人/台",
    "GB per GPU": "GB/卡",
    "GB/s": "GB/秒",
    "GPUs": "张",
    "TB": "TB",
    "TFLOPS per GPU": "TFLOPS/卡",
    "fraction": "比例",
    "fraction of VAT paid": "占已缴增值税",
    "fraction of build cost/kW": "占每千瓦建设成本",
    "fraction of capex/yr": "占投资，每年",
    "fraction of cost": "占成本",
    "fraction of hardware capex/yr": "占硬件投资，每年",
    "fraction of its cost (net)": "占不含税成本",
    "fraction of max draw": "占最大功耗",
    "fraction of revenue": "占收入",
    "fraction of revenue (net)": "占不含税收入",
    "fraction of server power": "占服务器功率",
    "fraction of taxable profit": "占应纳税所得额",
    "h": "小时",
    "id": "编号",
    "kW": "千瓦",
    "kW/rack": "千瓦/机柜",
    "list": "列表",
    "month": "月",
    "months": "月",
    "per server-day": "次/台·日",
    "ports": "端口",
    "ratio": "倍",
    "text": "文本",
    "x": "倍",
    "years": "年",
    "{cur}/FTE-year": "{cur}/人·年",
    "{cur}/GPU-h": "{cur}/卡时",
    "{cur}/GPU-year": "{cur}/卡·年",
    "{cur}/TB": "{cur}/TB",
    "{cur}/kW IT": "{cur}/千瓦 IT 负载",
    "{cur}/kW-month": "{cur}/千瓦·月",
    "{cur}/kWh": "{cur}/千瓦时",
    "{cur}/server": "{cur}/台",
    "{cur}/node": "{cur}/节点",
    "nodes": "个节点",
    "TB/GPU": "TB/卡",
    "GB/s per GPU": "GB/秒/卡",
    "{cur}/switch": "{cur}/台交换机",
    "{cur}/transceiver": "{cur}/个光模块",
    "{cur}/MW": "{cur}/兆瓦",
    "MW": "兆瓦",
    "factor": "系数",
    "racks": "个机柜",
    "endpoints": "个端点",
}

#: dotted-path endings that name an input under another key
ALIASES: dict[str, str] = {
    "price": "server_price",  # servers.<id>.price
    "power_kw": "server_power_kw",
    "share": "network_share",
    "design.switch_radix": "fabric_radix",
    "design.switch_price": "fabric_switch_price",
    "design.optic_price": "fabric_optic_price",
    "design.oversubscription": "fabric_oversubscription",
    "design.per_server": "fabric_per_server",
    "design.rail_optimized": "fabric_rail_optimized",
    "staff_scaling.fixed_fte": "staff_fixed_fte",
    "staff_scaling.fte_per_server": "staff_fte_per_server",
    "node.capacity_tb": "storage_node_capacity_tb",
    "node.write_gbps": "storage_node_write_gbps",
    "node.read_gbps": "storage_node_read_gbps",
    "node.price": "storage_node_price",
    "min_nodes": "storage_min_nodes",
    "min_capacity_tb": "storage_min_capacity_tb",
    "capacity_tb_per_gpu": "storage_capacity_tb_per_gpu",
    "write_gbps_per_gpu": "storage_write_gbps_per_gpu",
    "read_gbps_per_gpu": "storage_read_gbps_per_gpu",
    "capacity_price_per_tb": "storage_capacity_price_per_tb",
    "capacity_tb": "storage_capacity_tb",
    "price_per_tb": "storage_price_per_tb",
    "escalation": "power_escalation",  # power.escalation
    "contract.share": "contract_share",  # revenue.contract.<key>
    "contract.price_per_gpu_hour": "contract_price_per_gpu_hour",
    "contract.months": "contract_months",
    "contract.escalation": "contract_escalation",
    "contract.default_rate": "contract_default_rate",
    "vat.output_rate": "vat_output_rate",
    "vat.surtax_rate": "vat_surtax_rate",
}
#: the dotted paths of the line items' inputs whose last part is not their key
#: (``vat.input_rates.<item>``, ``depreciation.<class>.salvage``)
ALIASES |= {
    ".".join(s.path.split(".")[-2:]): s.key for s in input_specs() if s.path.split(".")[-1] != s.key
}


def input_key(path: str) -> str | None:
    """The key in :data:`INPUTS` of the input at dotted ``path``, or None.

    A class's salvage value or market decline (``depreciation.servers.salvage``)
    is its own input; a server's price decline (``servers.<id>.price_decline``)
    is not the GPU-hour price decline; a stage's field is the stage's; else the
    longest known ending of the path (two parts, then one), else its last known part.

    >>> input_key("timeline.ramp_months"), input_key("depreciation.network.salvage")
    ('ramp_months', 'salvage_network')
    >>> input_key("servers.h200.price"), input_key("servers.h200.price_decline")
    ('server_price', 'server_price_decline')
    >>> input_key("facility.build_cost_per_kw.air"), input_key("tiers.t.stages.0.gpus")
    ('build_cost_per_kw', 'stages.gpus')
    >>> input_key("no.such") is None
    True
    """
    parts = path.split(".")
    last = parts[-1]
    if last in ("salvage", "market_decline") and len(parts) > 1:
        own = f"{last}_{parts[-2]}"
        if own in INPUTS:
            return own
    if parts[0] == "servers" and last == "price_decline":
        return "server_price_decline"
    if len(parts) > 2 and parts[-3] == "stages" and f"stages.{last}" in INPUTS:
        return f"stages.{last}"  # tiers.<t>.stages.<i>.<field>
    for n in (2, 1):
        end = ".".join(parts[-n:])
        if end in INPUTS:
            return end
        if end in ALIASES:
            return ALIASES[end]
    for part in reversed(parts[:-1]):
        if part in INPUTS:
            return part
        if part in ALIASES:
            return ALIASES[part]
    return None


def input_term(path: str) -> Term | None:
    """The :class:`Term` of the input at dotted ``path`` (see :func:`input_key`)."""
    key = input_key(path)
    return None if key is None else INPUTS[key]


def input_label(path: str, lang: str = "en") -> str:
    """The name of the input at ``path`` in ``lang`` (``en`` or ``zh``); an
    unknown path keeps its last part, underscores as spaces."""
    term = input_term(path)
    if term is None:
        return path.rsplit(".", 1)[-1].replace("_", " ")
    return term.zh if lang == "zh" else term.en


def input_unit(path: str, currency: str, written: str | None = None) -> str:
    """The unit of ``path``: the one written in the assumption file, else the
    registry's, else "number" (never blank)."""
    if written:
        return written
    term = input_term(path)
    return term.unit_in(currency) if term else "number"


def input_kind(path: str) -> InputKind:
    """How the input at ``path`` is shown (``number`` for an unknown path)."""
    term = input_term(path)
    return term.kind if term else "number"


#: The documented typical range of an input of :data:`INPUTS`, wide enough for the
#: currencies of the bundled models (CNY and USD, about 7 apart) and for every bundled
#: file: a value more than 10x outside it (``advice.FAR``) is questioned as a unit or
#: order-of-magnitude slip (a price per MWh typed for a price per kWh; watts for kW;
#: a price in ten-thousands of yuan), a warning or, with ``--strict``, an error
#: (methodology §2.6). Money is in the model's currency.
TYPICAL: dict[str, tuple[float, float]] = {
    "server_price": (5_000, 30_000_000),
    "server_power_kw": (0.3, 150),
    "gpu_memory_gb": (8, 300),
    "tflops_bf16": (20, 5_000),
    "storage_capacity_tb": (1, 200_000),
    "storage_price_per_tb": (20, 20_000),
    "write_gbps": (0.5, 5_000),
    "rack_kw": (2, 200),
    "max_rack_kw": (2, 250),
    "staff_fte": (0.2, 500),
    "fabric_switch_price": (1_000, 3_000_000),
    "fabric_optic_price": (20, 50_000),
    "fabric_per_server": (100, 500_000),
    "pue": (1, 3),
    "build_cost_per_kw": (1_000, 200_000),
    "price_per_gpu_hour": (0.2, 100),
    "contract_price_per_gpu_hour": (0.2, 100),
    "cloud_on_demand_per_gpu_hour": (0.2, 100),
    "cloud_reserved_per_gpu_hour": (0.2, 100),
    "node_failures_per_day": (1e-4, 0.1),
    "restart_hours": (0.05, 48),
    "repair_hours": (0.5, 720),
    "checkpoint_tb": (0.01, 50),
}
TYPICAL |= {s.key: s.typical for s in input_specs() if s.typical is not None}
