"""Descriptions of the summary columns: label, unit kind and which way is better,
and the policy for empty metrics.

Shared by the CLI table, the workbook and the memo so that every output names
and formats a metric the same way (formatting itself is in
:mod:`costmodel.report.format` and :mod:`costmodel.report.memo.numbers`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from costmodel.catalogue.items import CAPEX_ITEMS
from costmodel.core.nearest import closest

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
        Metric("facility_mw", "Facility power (MW)", "设施用电功率 (MW)", "ratio"),
        Metric("site", "Site", "站点", "text"),
        Metric("feasible", "Feasible", "可行", "text"),
        Metric("infeasible_reason", "Why infeasible", "不可行原因", "text"),
        Metric("capex", "Capex", "初始投资", "money", "lower"),
        Metric("capex_per_gpu", "Capex per GPU", "每卡初始投资", "money"),
        *(
            Metric(f"capex_{i.key}", f"Capex: {i.label.en.lower()}", f"投资：{i.label.zh}", "money")
            for i in CAPEX_ITEMS
        ),
        Metric("network_share", "Network share of hardware", "网络占硬件比例", "pct"),
        Metric("network_levels", "Network levels (designed fabric)", "网络层数（按设计）", "count"),
        Metric("storage_tb", "Storage capacity (TB)", "存储容量（TB）", "count"),
        Metric(
            "storage_write_gbps", "Storage write bandwidth (GB/s)", "存储写入带宽（GB/s）", "kw"
        ),
        Metric("storage_nodes", "Storage nodes", "存储节点数", "count"),
        Metric("cooling", "Cooling", "散热方式", "text"),
        Metric("rack_kw", "Power per rack (kW)", "单机柜功率（千瓦）", "kw"),
        Metric("design", "Design (scale class)", "设计方案（规模等级）", "text"),
        Metric("opex_year1", "Opex, year 1", "首年运营成本", "money", "lower"),
        Metric(
            "opex_full_year",
            "Opex, first full operating year",
            "首个完整运营年运营成本",
            "money",
            "lower",
        ),
        Metric(
            "opex_full_year_number",
            "First full operating year",
            "首个完整运营年",
            "count",
        ),
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
        Metric(
            "contract_at_risk",
            "Contract revenue at risk of default",
            "合同违约风险收入",
            "money",
        ),
        Metric(
            "realized_price",
            "Realized price per GPU-hour",
            "实际每 GPU 小时售价",
            "money_per_hour",
        ),
        Metric("npv", "NPV", "净现值 NPV", "money", "higher"),
        Metric("discount_rate", "Discount rate", "折现率", "pct"),
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
            "每有效卡时成本",
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
        # a column of ``recommend`` per (inference workload, tier), not of the summary
        # (so no "better" that would rank tiers): methodology §27
        Metric(
            "cost_per_million_tokens",
            "Cost per million tokens",
            "每百万 tokens 成本",
            "money_per_hour",
        ),
        Metric("availability", "Availability", "可用率", "pct", "higher"),
        Metric("peak_funding", "Peak funding need", "峰值资金需求", "money", "lower"),
        Metric("equity_npv", "Equity NPV", "股权净现值", "money", "higher"),
        Metric("equity_irr", "Equity IRR", "股权内部收益率", "pct", "higher"),
        Metric("min_dscr", "Minimum DSCR", "最低偿债备付率", "ratio", "higher"),
        Metric("debt_peak", "Peak debt", "峰值债务", "money"),
        Metric("vat_paid", "VAT paid", "缴纳增值税", "money"),
        Metric(
            "vat_credit_peak",
            "Peak VAT credit (cash tied up)",
            "增值税留抵税额峰值（占用资金）",
            "money",
            "lower",
        ),
        Metric("surtax", "VAT surtaxes", "增值税附加税费", "money", "lower"),
        Metric("subsidies", "Subsidies received", "补贴收入", "money"),
    )
}


#: the unit shown next to a metric of each kind (``{cur}`` is the model currency)
KIND_UNITS: dict[str, str] = {
    "money": "{cur}",
    "money_per_hour": "{cur}/GPU-h",
    "pct": "%",
    "years": "years",
    "hours": "h",
    "kw": "kW",
}

#: metrics whose unit is not the one of their kind
#: the summary columns that hold text (scale class, cooling, design), not numbers
TEXT_COLUMNS = frozenset(c for c, m in METRICS.items() if m.kind == "text")

OWN_UNITS: dict[str, str] = {
    "cost_per_pflop_hour": "{cur}/PFLOP-h",
    "cost_per_million_tokens": "{cur}/M tokens",
    "gpu_hours": "GPU-h",
    "gpus": "GPUs",
    "servers": "servers",
    "racks": "racks",
    "network_levels": "levels",
    "facility_mw": "MW",
    "min_dscr": "x (CFADS / debt service)",
    "opex_full_year_number": "model year",
    "storage_tb": "TB",
    "storage_write_gbps": "GB/s",
    "storage_nodes": "nodes",
    "rack_kw": "kW/rack",
}


#: the Chinese of the units of :func:`metric_unit` that are words (currencies and
#: symbols such as ``kW``, ``%`` and ``GPU-h`` read the same in both languages)
UNITS_ZH: dict[str, str] = {
    "GPUs": "卡",
    "servers": "台",
    "racks": "个",
    "levels": "层",
    "years": "年",
    "h": "小时",
    "model year": "模型年",
}


def kind_unit(kind: str, currency: str) -> str:
    """The unit of a figure of ``kind`` (money, a share, years ...), "" if it has none."""
    return KIND_UNITS.get(kind, "").format(cur=currency)


def metric_unit(column: str, currency: str) -> str:
    """The unit of the summary metric ``column``, the same in the command line's
    tables, the workbook and the memo: ``CNY``, ``CNY/GPU-h``, ``CNY/PFLOP-h``, ``%``.

    >>> metric_unit("cost_per_pflop_hour", "CNY"), metric_unit("irr", "USD")
    ('CNY/PFLOP-h', '%')
    """
    own = OWN_UNITS.get(column)
    return own.format(cur=currency) if own else kind_unit(METRICS[column].kind, currency)


def machine_unit(column: str, currency: str) -> str:
    """The unit of the summary metric ``column`` as JSON and CSV write its value:
    :func:`metric_unit`, except that shares, rates and IRRs, which those formats
    keep as fractions (``0.15``), are ``fraction`` rather than ``%``; ``""`` for text.

    >>> machine_unit("irr", "CNY"), machine_unit("npv", "USD"), machine_unit("scale_class", "CNY")
    ('fraction', 'USD', '')
    """
    if METRICS[column].kind == "pct":
        return "fraction"
    return metric_unit(column, currency)


def pick_metrics(text: str, allowed: list[str] | tuple[str, ...]) -> list[str]:
    """The metrics named in ``text`` (comma separated, in that order, each once):
    a column name (``npv``), or the start of exactly one column name at a word
    boundary (``payback`` for ``payback_years``). Raises ValueError naming the
    unknown name, the nearest column ("did you mean") and where the list is.

    >>> pick_metrics("npv, irr,payback", ["npv", "irr", "payback_years"])
    ['npv', 'irr', 'payback_years']
    """
    chosen: list[str] = []
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        key = word.lower().replace("-", "_").replace(" ", "_")
        if key in allowed:
            found = key
        else:
            starts = [c for c in allowed if c.startswith(key + "_")]
            if len(starts) != 1:
                near = starts[:3] or [c for c in [closest(key, allowed)] if c]
                hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
                raise ValueError(
                    f"unknown metric {word!r}{hint} (the names are the header of "
                    "`costmodel summary -f csv`, e.g. npv, irr, payback_years, capex)"
                )
            found = starts[0]
        if found not in chosen:
            chosen.append(found)
    if not chosen:
        raise ValueError("no metric named (give a comma-separated list, e.g. npv,irr)")
    return chosen


#: the metrics a short table shows (build output, scenario comparison)
HEADLINE = (
    "gpus",
    "capex",
    "opex_year1",
    "opex_full_year",
    "tco",
    "cost_per_gpu_hour",
    "npv",
    "irr",
    "payback_years",
    "peak_funding",
)

#: the financing metrics (methodology §8.2), shown where a model borrows
FINANCING = ("equity_npv", "equity_irr", "min_dscr", "debt_peak")

#: the VAT metrics (methodology §24), shown where a model has a ``vat`` section
VAT = ("vat_paid", "vat_credit_peak", "surtax")


def is_empty(x: object) -> bool:
    """The package's policy for a metric that does not exist (no IRR root, no
    payback, a zero denominator): it is NaN (or None once it leaves numpy), never
    an exception or infinity. True for None, NaN and infinities."""
    return x is None or (isinstance(x, float | int) and not math.isfinite(x))


#: statistics of a Monte Carlo summary column ``{metric}_{stat}``
STATISTICS = {"p10": "P10", "p50": "P50 (median)", "p90": "P90", "mean": "mean"}
#: analysis columns that are not ``{metric}_{stat}``: label and kind
ANALYSIS_COLUMNS: dict[str, tuple[str, Kind]] = {
    "p_npv_positive": ("Probability that NPV > 0", "pct"),
    "irr_missing": ("Share of draws without an IRR", "pct"),
    "utilization_base": ("Utilization, as assumed", "pct"),
    "npv_at_utilization": ("NPV at break-even utilization", "money"),
    "price_per_gpu_hour_base": ("Price per GPU-hour, as assumed", "money_per_hour"),
    "npv_at_price_per_gpu_hour": ("NPV at break-even price", "money"),
    "utilization_path": ("Input solved: utilization", "text"),
    "price_per_gpu_hour_path": ("Input solved: price", "text"),
    "utilization": ("Break-even utilization", "pct"),
    "price_per_gpu_hour": ("Break-even price per GPU-hour", "money_per_hour"),
    "tier": ("Tier", "text"),
}


def column_label(column: str) -> str:
    """The human label of a column of an analysis table, without its unit (the
    command line's tables give the unit in a column of their own).

    >>> column_label("npv_p10"), column_label("irr_mean"), column_label("irr_missing")
    ('NPV, P10', 'IRR, mean', 'Share of draws without an IRR')
    """
    if column in ANALYSIS_COLUMNS:
        return ANALYSIS_COLUMNS[column][0]
    base, _, stat = column.rpartition("_")
    if base in METRICS and stat in STATISTICS:
        return f"{METRICS[base].label}, {STATISTICS[stat]}"
    return column.replace("_", " ")


def column_header(column: str, currency: str) -> str:
    """A human header with its unit for a column of an analysis table (Monte Carlo
    summary ``npv_p10``, break-even ``price_per_gpu_hour_base``, ...), the same in the
    workbook and the command line: ``NPV, P10 (CNY)``, ``Probability that NPV > 0 (%)``.

    >>> column_header("npv_p10", "CNY"), column_header("p_npv_positive", "CNY")
    ('NPV, P10 (CNY)', 'Probability that NPV > 0 (%)')
    """
    if column in ANALYSIS_COLUMNS:
        kind = ANALYSIS_COLUMNS[column][1]
        unit = "" if kind == "text" else kind_unit(kind, currency)
    else:
        base, _, stat = column.rpartition("_")
        unit = metric_unit(base, currency) if base in METRICS and stat in STATISTICS else ""
    return f"{column_label(column)} ({unit})" if unit else column_label(column)
