"""Rich tables of the command line (imported only by a command that prints one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from costmodel.core.metrics import HEADLINE, METRICS
from costmodel.report.format import millions, number, table_value, unit_label

if TYPE_CHECKING:
    import pandas as pd

    from costmodel.analysis.scenarios import CompareResult

#: build_vs_rent columns shown in the table: (column, header, format kind)
BVR_TABLE = [
    ("server", "server", "text"),
    ("cloud_term", "term", "text"),
    ("cloud_price_per_gpu_hour", "cloud price per GPU-hour", "money_per_hour"),
    ("pv_cloud_cost", "PV of renting the same GPU-hours", "money"),
    ("pv_build_cost", "PV of building (capex + opex)", "money"),
    ("saving", "saving (PV rent - PV build)", "money"),
    ("npv_vs_cloud", "NPV vs cloud (after tax)", "money"),
    ("break_even_utilization", "break-even utilization", "pct"),
    ("break_even_month", "break-even month", "count"),
]


def summary_table(df: pd.DataFrame, title: str, currency: str) -> Table:
    """Metrics down, tiers across, formatted for reading."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("metric")
    table.add_column("unit", style="dim")
    for tier in df.index:
        table.add_column(str(tier), justify="right")
    for col in df.columns:
        meta = METRICS[col]
        cells = [table_value(df.at[t, col], meta.kind) for t in df.index]
        table.add_row(meta.label, unit_label(meta.kind, currency), *cells)
    return table


def recommend_table(df: pd.DataFrame, title: str) -> Table:
    """One row per (workload, tier) of :func:`costmodel.analysis.workloads.recommend`."""
    table = Table(title=title, title_justify="left")
    table.add_column("workload", min_width=16)
    table.add_column("tier", no_wrap=True)
    for col in ("GPUs", "floor", "days", "due", "fits", "use", "best"):
        table.add_column(col, justify="right", no_wrap=True)
    for (w, t), r in df.iterrows():
        table.add_row(
            str(w), str(t), f"{r.gpus:,}", f"{r.memory_floor_gpus:,}",
            table_value(r.days_needed, "years"), table_value(r.deadline_days, "years"),
            "yes" if r.feasible else "no", f"{r.share_of_horizon:.2%}",
            "*" if r.recommended else "",
        )  # fmt: skip
    return table


def frame_table(df: pd.DataFrame, title: str, index: str | None = None) -> Table:
    """Any frame, numbers as :func:`~costmodel.report.format.number`."""
    table = Table(title=title, title_justify="left", header_style="bold")
    if index:
        table.add_column(index)
    for c in df.columns:
        table.add_column(str(c), justify="left" if df[c].dtype == object else "right")
    for i, row in df.iterrows():
        cells = [number(v) for v in row.tolist()]
        table.add_row(*([str(i)] if index else []), *cells)
    return table


def tornado_table(df: pd.DataFrame, tier: str, metric: str, currency: str, top: int = 12) -> Table:
    """The ``top`` largest swings of one tier, money in millions."""
    money = METRICS[metric].kind == "money"
    unit = f", {currency} millions" if money else ""
    title = f"Tornado: {metric}{unit}, tier {tier} (largest {top} swings)"
    table = Table(title=title, title_justify="left")
    table.add_column("input", overflow="fold", min_width=28)
    for col in ("low", "high", "at low", "at high", "swing"):
        table.add_column(col, justify="right", no_wrap=True)
    show = millions if money else number
    for _, r in df.head(top).iterrows():
        table.add_row(
            str(r["input"]), number(r["low"]), number(r["high"]),
            show(r["at_low"]), show(r["at_high"]), show(r["swing"]),
        )  # fmt: skip
    return table


def compare_table(result: CompareResult, title: str) -> Table:
    """Scenarios x tiers down, headline metrics across."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("scenario")
    table.add_column("tier", no_wrap=True)
    for m in HEADLINE:
        table.add_column(METRICS[m].label, justify="right")
    previous = None
    for (s, t), row in result.wide.iterrows():
        shown = Text(str(s)) if s != previous else Text("")
        previous = s
        cells = [table_value(row[m], METRICS[m].kind) for m in HEADLINE]
        table.add_row(shown, Text(str(t)), *cells)
    return table


def bvr_table(df: pd.DataFrame, title: str) -> Table:
    """Build-versus-rent figures down, tiers across."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("")
    for tier in df.index:
        table.add_column(Text(str(tier)), justify="right")
    for col, header, kind in BVR_TABLE:
        cells = [table_value(df.at[t, col], kind) for t in df.index]  # type: ignore[arg-type]
        table.add_row(header, *[Text(c) for c in cells])
    return table
