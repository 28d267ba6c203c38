"""The workbook's "Sweep" sheet (methodology §13): each tier rebuilt from an
eighth to eight times its own GPUs (``Analysis.sweeps``), one table per tier and
a native scatter chart of the levelized cost per GPU-hour against GPUs on a log
axis, one series per tier.

The rows are **cached engine values, not formulas** (each is the whole tier
rebuilt at that size), stated at the top of the sheet with the stale mark of the
other engine-result sheets. The ``change`` column names what steps at that row
(scale class, network levels).
"""

from __future__ import annotations

import pandas as pd
from xlsxwriter.workbook import Workbook

from costmodel.core.metrics import METRICS
from costmodel.report.workbook.grid import Styles
from costmodel.report.workbook.names import chart_text
from costmodel.report.workbook.results import ENGINE, banner

#: (column, header, number format kind of :class:`Styles`)
SWEEP_COLUMNS = [
    ("gpus", "GPUs", "count"),
    ("servers", "Servers", "count"),
    ("scale_class", "Scale class", "text"),
    ("network_levels", "Network levels", "count"),
    ("capex_per_gpu", f"{METRICS['capex_per_gpu'].label} ({{cur}})", "money"),
    ("network_share", METRICS["network_share"].label, "pct"),
    ("cost_per_gpu_hour", f"{METRICS['cost_per_gpu_hour'].label} ({{cur}}/GPU-h)", "money2"),
    ("npv", "NPV ({cur})", "money"),
    ("irr", "IRR", "pct"),
    ("change", "Step at this row", "text"),
    ("infeasible_reason", "Refused: why (no numbers)", "text"),
]


def _table(ws, st: Styles, df: pd.DataFrame, r: int, head: str, cur: str) -> tuple[int, int]:
    """One tier's rows from ``r``; returns (first data row, last data row)."""
    ws.write_string(r, 0, head, st.h1)
    r += 1
    ws.set_row(r, 45)  # headers wrap onto three lines
    for j, (_, header, _) in enumerate(SWEEP_COLUMNS):
        ws.write_string(r, j, header.format(cur=cur), st.header)
    first = r + 1
    for _, row in df.iterrows():
        r += 1
        for j, (c, _, kind) in enumerate(SWEEP_COLUMNS):
            v = row.get(c, "")
            if kind == "text":
                ws.write_string(r, j, str(v), st.text)
            elif v == v:  # not NaN
                ws.write_number(r, j, float(v), st.cell(kind, ENGINE))
            else:
                ws.write_blank(r, j, None, st.cell(kind, ENGINE))
    return first, r


def write_sweep_sheet(
    wb: Workbook,
    st: Styles,
    sweeps: dict[str, pd.DataFrame],
    labels: dict[str, str],
    currency: str,
    fingerprint: str = "",
) -> None:
    """The "Sweep" sheet (``labels``: tier -> readable label)."""
    ws = wb.add_worksheet("Sweep")
    ws.set_column(0, 1, 10)
    ws.set_column(2, 9, 16)
    r = banner(
        ws,
        st,
        "Sweep: each option rebuilt at other sizes",
        "Cached engine values, not formulas: each row is the tier rebuilt by the engine when "
        "this file was written at that GPU count (no stages, storage in proportion to GPUs, "
        "the network from its share or design, the headcount as assumed). The chart plots the "
        "levelized cost per GPU-hour against GPUs on a log axis.",
        fingerprint,
    )
    chart = wb.add_chart({"type": "scatter", "subtype": "straight_with_markers"})
    at = r
    r += 22  # room for the chart
    for t, df in sweeps.items():
        first, last = _table(ws, st, df, r, labels.get(t, t), currency)
        chart.add_series(
            {
                "name": chart_text(labels.get(t, t)),
                "categories": ["Sweep", first, 0, last, 0],
                "values": ["Sweep", first, 6, last, 6],
                "marker": {"type": "circle", "size": 4},
            }
        )
        r = last + 3
    # every chart text through chart_text: never read as a cell reference
    chart.set_title({"name": chart_text("Levelized cost per GPU-hour against GPUs")})
    chart.set_x_axis(
        {"name": chart_text("GPUs (log scale)"), "log_base": 2, "label_position": "low"}
    )
    chart.set_y_axis({"name": chart_text(f"{currency} per GPU-hour"), "min": 0})
    chart.set_legend({"position": "bottom"})
    chart.set_size({"width": 820, "height": 400})
    ws.insert_chart(at, 0, chart)
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
