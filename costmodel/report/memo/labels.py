"""Names the reader sees, in English and Chinese: tiers, GPUs, inputs.

- :func:`tier_label`: the tier's own label in English (``tiers.<t>.label``, its
  "(N x GPU)" restated from the numbers); in
  Chinese its ``label_zh`` when the assumptions carry one, else a label derived
  from the numbers: scale class, GPU count and GPU name (``数十卡方案（32 张 A800）``).
- :func:`chart_label`: the short name of a tier on a chart axis: ``32× A800`` /
  ``32 张 A800`` (the tier key when two tiers would share it).
- :func:`gpu_name`: the accelerator's model name taken from the server label
  (``H800``, ``RTX 4090``, ``Ascend 910B``), else the server key in capitals.
- :func:`input_label`: a readable name and unit for an input, by the engine's
  input name (:meth:`costmodel.inputs.params.TierInputs.values`) or a dotted path.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from costmodel.report.memo.cache import summary

if TYPE_CHECKING:
    from costmodel.core.model import Model

CLASS_ZH = {"tens": "数十卡", "hundreds": "数百卡", "thousands": "数千卡"}
_GPU = re.compile(r"RTX \d{4}|Ascend \d{3}[A-Z]?|\b[A-Z]\d{2,3}[A-Z]?\b")


def gpu_name(model: Model, tier: str) -> str:
    key = model.assumptions.tiers[tier].server
    label = model.assumptions.servers[key].label or ""
    m = _GPU.search(label)
    return m.group(0) if m else key.upper()


def _zh_label(model: Model, tier: str) -> str:
    t = model.assumptions.tiers[tier]
    own = getattr(t, "label_zh", None)
    if own:
        return str(own)
    s = summary(model).loc[tier]
    cls = CLASS_ZH.get(str(s["scale_class"]), "")
    return f"{cls}方案（{int(s['gpus']):,} 张 {gpu_name(model, tier)}）"


#: "(1024x H200)" in an English tier label: the GPU count and name it states
_COUNT = re.compile(r"\((\d[\d,]*)\s*[x×]\s*([^()]+)\)")


def _en_label(model: Model, tier: str) -> str:
    """The tier's label; a "(N x GPU)" in it is rewritten from the numbers (the GPU
    count and model of the tier as built), so that an override of ``gpus`` or
    ``server`` cannot leave the label stating the file's count."""
    own = model.assumptions.tiers[tier].label or tier
    gpus = int(summary(model).loc[tier, "gpus"])
    gpu = gpu_name(model, tier)

    def restate(m: re.Match[str]) -> str:
        stated, name = m.group(1), m.group(2).strip()
        if int(stated.replace(",", "")) == gpus and name == gpu:
            return m.group(0)  # right as written
        return f"({gpus:,}x {gpu})" if "," in stated else f"({gpus}x {gpu})"

    return _COUNT.sub(restate, own, count=1)


def tier_label(model: Model, tier: str, lang: str = "en") -> str:
    if lang == "zh":
        return _zh_label(model, tier)
    return _en_label(model, tier)


def chart_label(model: Model, tier: str, lang: str = "en") -> str:
    """Short, derived from numbers; the tier key where two tiers would collide."""

    def short(t: str) -> str:
        n = int(model.inputs[t].values()["gpus"])
        return f"{n:,} 张 {gpu_name(model, t)}" if lang == "zh" else f"{n:,}× {gpu_name(model, t)}"

    mine = short(tier)
    if sum(short(t) == mine for t in model.tiers) > 1:
        return tier
    return mine


# engine input name -> (English, Chinese, kind); kind: pct (a fraction shown as a
# percentage), money, price (money per GPU-hour), decimal (two decimals), number.
INPUTS: dict[str, tuple[str, str, str]] = {
    "gpus": ("GPUs", "GPU 数量", "number"),
    "gpus_per_server": ("GPUs per server", "每台服务器 GPU 数", "number"),
    "server_price": ("Server price", "服务器单价", "money"),
    "server_power_kw": ("Server power (kW)", "单台服务器功率（千瓦）", "number"),
    "idle_fraction": ("Idle power share", "空闲功耗占比", "pct"),
    "gpu_memory_gb": ("GPU memory (GB)", "单卡显存（GB）", "number"),
    "tflops_bf16": ("Peak BF16 TFLOPS per GPU", "单卡 BF16 峰值算力（TFLOPS）", "number"),
    "network_share": ("Network share of hardware capex", "网络占硬件投资比例", "pct"),
    "storage_capacity_tb": ("Storage capacity (TB)", "存储容量（TB）", "number"),
    "storage_price_per_tb": ("Storage price per TB", "每 TB 存储价格", "money"),
    "write_gbps": ("Storage write bandwidth (GB/s)", "存储写入带宽（GB/s）", "number"),
    "rack_kw": ("Power per rack (kW)", "单机柜功率（千瓦）", "number"),
    "staff_fte": ("Staff (FTE)", "运维人员（人）", "number"),
    "aux_power_fraction": ("Auxiliary power share", "辅助功耗占比", "pct"),
    "pue": ("PUE", "PUE", "number"),
    "price_per_kwh": ("Electricity price per kWh", "电价（元/千瓦时）", "decimal"),
    "power_escalation": ("Electricity price growth a year", "电价年涨幅", "pct"),
    "build_cost_per_kw": ("Facility build cost per kW", "每千瓦机房建设成本", "money"),
    "colocation_per_kw_month": ("Colocation per kW-month", "托管费（每千瓦每月）", "money"),
    "discount_rate": ("Discount rate", "折现率", "pct"),
    "tax_rate": ("Income tax rate", "所得税率", "pct"),
    "salvage_servers": ("Server salvage value", "服务器残值率", "pct"),
    "salvage_network": ("Network salvage value", "网络残值率", "pct"),
    "salvage_storage": ("Storage salvage value", "存储残值率", "pct"),
    "salvage_facility": ("Facility salvage value", "机房残值率", "pct"),
    "utilization": ("Utilization", "利用率", "pct"),
    "maintenance_rate": ("Maintenance, share of hardware a year", "年维保费率", "pct"),
    "insurance_rate": ("Insurance, share of capex a year", "年保险费率", "pct"),
    "staff_cost_per_fte": ("Staff cost per FTE-year", "人均年成本", "money"),
    "staff_escalation": ("Staff cost growth a year", "人员成本年涨幅", "pct"),
    "software_per_gpu_year": ("Software per GPU-year", "每卡每年软件费", "money"),
    "price_per_gpu_hour": ("Year-1 price per GPU-hour", "首年每卡时价格", "price"),
    "price_decline": ("Price decline a year", "价格年降幅", "pct"),
    "node_failures_per_day": (
        "Node failures per server-day",
        "每台服务器日故障次数",
        "number",
    ),
    "restart_hours": ("Hours lost per restart", "每次重启损失（小时）", "number"),
    "checkpoint_tb": ("Checkpoint size (TB)", "检查点大小（TB）", "number"),
    "mfu": ("MFU", "MFU（模型算力利用率）", "pct"),
    "cloud_price_per_gpu_hour": ("Cloud price per GPU-hour", "云上每卡时价格", "price"),
    # spec v2: time and growth
    "build_months": ("Construction (months)", "建设期（月）", "number"),
    "ramp_months": ("Ramp-up to full utilization (months)", "爬坡期（月）", "number"),
    "server_price_decline": ("Server price decline a year", "服务器价格年降幅", "pct"),
    "retrofit_premium": ("Retrofit premium on the build cost", "扩建改造溢价", "pct"),
    "reserve_headroom": (
        "Hall built for the final size (1/0)",
        "机房按最终规模建设（1/0）",
        "number",
    ),
    "repair_hours": ("Repair hours per failure", "每次故障维修时长（小时）", "number"),
    "market_decline_servers": ("Server resale value decline a year", "服务器市场价值年降幅", "pct"),
    "market_decline_network": (
        "Network resale value decline a year",
        "网络设备市场价值年降幅",
        "pct",
    ),
    "market_decline_storage": ("Storage resale value decline a year", "存储市场价值年降幅", "pct"),
    "market_decline_facility": ("Facility value decline a year", "机房市场价值年降幅", "pct"),
    # spec v2: money
    "debt_share": ("Debt share of capex", "债务融资比例", "pct"),
    "interest_rate": ("Loan interest rate", "贷款利率", "pct"),
    "term_years": ("Loan term (years)", "贷款期限（年）", "number"),
    "cost_of_equity": ("Cost of equity", "股权资本成本", "pct"),
    "min_dscr_covenant": ("Minimum DSCR covenant", "最低偿债覆盖率要求", "decimal"),
    "loss_carryforward_years": ("Tax loss carry-forward (years)", "亏损结转年限（年）", "number"),
}
_BY_LAST = {
    "price": "server_price",
    "power_kw": "server_power_kw",
    "share": "network_share",
    "capacity_tb": "storage_capacity_tb",
    "price_per_tb": "storage_price_per_tb",
    "escalation": "power_escalation",
    "cloud_on_demand_per_gpu_hour": "cloud_price_per_gpu_hour",
    "cloud_reserved_per_gpu_hour": "cloud_price_per_gpu_hour",
}


def input_key(model: Model, tier: str, path: str) -> str | None:
    """The engine input name of a dotted ``path`` as the tier reads it, or None."""
    inverse = {p: k for k, p in model.inputs[tier].paths().items()}
    if inverse.get(path) in INPUTS:
        return inverse[path]
    parts = path.split(".")
    if parts[-1] in ("salvage", "market_decline") and len(parts) > 1:
        key = f"{parts[-1]}_{parts[-2]}"
        return key if key in INPUTS else None
    if parts[0] == "servers" and parts[-1] == "price_decline":
        return "server_price_decline"
    for part in reversed(parts):
        if part in INPUTS:
            return part
        if part in _BY_LAST:
            return _BY_LAST[part]
    return None


def input_label(model: Model, tier: str, path: str, lang: str = "en") -> tuple[str, str]:
    """``(name, kind)`` of the input at ``path``; unknown paths keep their last
    part, underscores as spaces."""
    key = input_key(model, tier, path)
    if key is None:
        return path.rsplit(".", 1)[-1].replace("_", " "), "number"
    en, zh, kind = INPUTS[key]
    return (zh if lang == "zh" else en), kind


_KIND_ZH = {
    "pretrain": "预训练",
    "finetune": "全参数微调",
    "lora": "LoRA 微调",
    "inference": "推理服务",
}


def workload_label(model: Model, name: str, lang: str = "en") -> str:
    """A task's name: its own in English; in Chinese its ``name_zh`` if the
    assumptions carry one, else derived from its size and kind (``65B 模型预训练``)."""
    if lang != "zh":
        return name
    w = next((w for w in model.assumptions.workloads if w.name == name), None)
    if w is None:
        return name
    own = getattr(w, "name_zh", None)
    if own:
        return str(own)
    size = getattr(w.params_b, "value", w.params_b)
    kind = _KIND_ZH.get(w.kind, w.kind)
    return f"{float(size):g}B 模型{' ' if kind[:1].isascii() else ''}{kind}"


_TERMS_ZH = (
    ("每 GPU 小时", "每卡时"),
    ("售出 GPU 小时", "售出卡时"),
    ("GPU 小时", "卡时"),
    ("Checkpoint", "检查点"),
)


def metric_label(meta: object, lang: str) -> str:
    """A summary metric's label; Chinese in the memo's terms (卡时, 检查点)."""
    if lang != "zh":
        return str(meta.label)  # type: ignore[attr-defined]
    text = str(meta.label_zh)  # type: ignore[attr-defined]
    for old, new in _TERMS_ZH:
        text = text.replace(old, new)
    return text
