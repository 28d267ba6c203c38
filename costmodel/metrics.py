"""Descriptions of the summary columns: label, unit kind and which way is better.

Shared by the CLI table, the workbook and the memo so that every output names
and formats a metric the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Kind = Literal["text", "count", "kw", "money", "money_per_hour", "pct", "years", "hours", "ratio"]


@dataclass(frozen=True)
class Metric:
    column: str
    label: str
    label_zh: str
    kind: Kind
    better: Literal["higher", "lower"] | None = None


METRICS: dict[str, Metric] = {
    m.column: m
    for m in (
        Metric("scale_class", "Scale class", "规模等级", "text"),
        Metric("gpus", "GPUs", "GPU 数量", "count"),
        Metric("servers", "Servers", "服务器台数", "count"),
        Metric("racks", "Racks", "机柜数", "count"),
        Metric("it_kw", "IT load (kW)", "IT 负载 (kW)", "kw"),
        Metric("capex", "Capex", "初始投资", "money", "lower"),
        Metric("capex_servers", "Capex: servers", "投资：服务器", "money"),
        Metric("capex_network", "Capex: network", "投资：网络", "money"),
        Metric("capex_storage", "Capex: storage", "投资：存储", "money"),
        Metric("capex_facility", "Capex: facility", "投资：机房", "money"),
        Metric("network_share", "Network share of hardware", "网络占硬件比例", "pct"),
        Metric("opex_year1", "Opex, year 1", "首年运营成本", "money", "lower"),
        Metric("tco", "TCO (nominal)", "总拥有成本（名义）", "money"),
        Metric("gpu_hours", "GPU-hours sold", "售出 GPU 小时", "count"),
        Metric(
            "tco_per_gpu_hour", "TCO per GPU-hour", "每 GPU 小时 TCO", "money_per_hour", "lower"
        ),
        Metric(
            "cost_per_gpu_hour",
            "Levelized cost per GPU-hour",
            "平准化每 GPU 小时成本",
            "money_per_hour",
            "lower",
        ),
        Metric("revenue", "Revenue (nominal)", "收入（名义）", "money", "higher"),
        Metric("npv", "NPV", "净现值 NPV", "money", "higher"),
        Metric("irr", "IRR", "内部收益率 IRR", "pct", "higher"),
        Metric("payback_years", "Payback (years)", "回收期（年）", "years", "lower"),
        Metric("roi", "ROI", "投资回报率 ROI", "pct", "higher"),
        Metric("mtbf_hours", "Cluster MTBF (hours)", "集群平均故障间隔（小时）", "hours", "higher"),
        Metric(
            "checkpoint_interval_hours",
            "Optimal checkpoint interval (hours)",
            "最优检查点间隔（小时）",
            "hours",
        ),
        Metric("goodput", "Goodput", "有效产出率", "pct", "higher"),
        Metric(
            "cost_per_effective_gpu_hour",
            "Cost per effective GPU-hour",
            "每有效 GPU 小时成本",
            "money_per_hour",
            "lower",
        ),
        Metric(
            "cost_per_pflop_hour",
            "Cost per PFLOP-hour",
            "每 PFLOP 小时成本",
            "money_per_hour",
            "lower",
        ),
    )
}


#: the metrics a short table shows (build output, scenario comparison)
HEADLINE = (
    "gpus",
    "capex",
    "opex_year1",
    "tco",
    "cost_per_gpu_hour",
    "npv",
    "irr",
    "payback_years",
)


def unit_label(kind: Kind, currency: str) -> str:
    """The unit shown next to a metric of ``kind``."""
    units = {"money": currency, "money_per_hour": f"{currency}/h", "pct": "%", "years": "years",
             "hours": "h", "kw": "kW"}  # fmt: skip
    return units.get(kind, "")


def is_empty(x: object) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def format_value(x: object, kind: Kind, currency: str = "CNY") -> str:
    """Plain-text rendering for tables: thousands separators, % and years."""
    if is_empty(x):
        return "-"
    if kind == "text":
        return str(x)
    v = float(x)  # type: ignore[arg-type]
    if kind == "count":
        return f"{v:,.0f}"
    if kind == "kw":
        return f"{v:,.1f}"
    if kind == "money":
        return f"{v:,.0f}"
    if kind == "money_per_hour":
        return f"{v:,.2f}"
    if kind == "pct":
        return f"{v * 100:.1f}%"
    if kind in ("years", "hours"):
        return f"{v:,.2f}"
    return f"{v:,.3f}"
