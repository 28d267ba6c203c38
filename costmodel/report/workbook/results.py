"""Workbook sheets of engine results that are not live formulas: scenario
comparison, sensitivity (tornado, break-even) and Monte Carlo.

Each sheet says at its top that its numbers were computed by the engine (for the
scenarios listed, or at the stated seed) when the file was written, and do not
recalculate when inputs change. Text from assumption files and scenario names is
written as strings.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from xlsxwriter.workbook import Workbook

from costmodel.core.metrics import HEADLINE, METRICS, column_header, metric_unit
from costmodel.inputs.vocabulary import input_kind, input_label
from costmodel.report.workbook.grid import INPUT_KIND_FORMAT, KIND_FORMAT, Styles
from costmodel.report.workbook.inputsmap import split_path
from costmodel.report.workbook.names import chart_text

SCENARIO_METRICS = (*HEADLINE[1:], "goodput", "cost_per_effective_gpu_hour")
ENGINE = "#7F7F7F"  # grey: an engine result, not a formula


def _num(ws, r: int, c: int, v: Any, fmt) -> None:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        ws.write_blank(r, c, None, fmt)
    else:
        ws.write_number(r, c, float(v), fmt)


def readable(path: str) -> str:
    """A tornado input's readable label: ``tiers.tens.network.share`` ->
    "Network share of hardware capex (tens)"."""
    base, qualifier = split_path(path)
    return input_label(base) + (f" ({qualifier})" if qualifier else "")


def banner(ws, st: Styles, title: str, note: str, fingerprint: str = "") -> int:
    """Title, what the numbers are, and (with the build's ``fingerprint``) a stale
    mark: a formula reading "STALE" once a headline result no longer matches the
    one these engine values were computed with (see the Checks sheet's stamp)."""
    ws.write_string(0, 0, title, st.title)
    ws.write_string(1, 0, note, st.wrap_italic)
    if not fingerprint:
        return 3
    ws.write_string(2, 0, f"Computed for the inputs with fingerprint {fingerprint}", st.unit)
    ws.write_formula(3, 0, "=engine_results_status", st.ok, "current")
    ws.conditional_format(
        3, 0, 3, 0, {"type": "cell", "criteria": "==", "value": '"STALE"', "format": st.error}
    )
    return 5


def _frame(ws, st: Styles, r: int, df: pd.DataFrame, kind_of, currency: str) -> int:
    """Write ``df`` (header row, then one row per record) from row ``r``: headers in
    words with units (:func:`costmodel.core.metrics.column_header`), text as strings,
    numbers in grey with the format ``kind_of(column)``; returns the next row."""
    for j, c in enumerate(df.columns):
        ws.write_string(r, j, column_header(str(c), currency), st.header)
    r += 1
    for _, row in df.iterrows():
        for j, c in enumerate(df.columns):
            v = row[c]
            if isinstance(v, str):
                ws.write_string(r, j, v, st.text)
            else:
                _num(ws, r, j, v, st.cell(kind_of(str(c)), ENGINE))
        r += 1
    return r


def _mc_kind(column: str) -> str:
    """IRR percentiles and probabilities as percentages, costs per GPU-hour with
    two decimals, NPV as money."""
    if column.startswith(("irr", "p_")):
        return "pct"
    return "money2" if column.startswith("cost_per") else "money"


def write_scenarios_sheet(wb: Workbook, st: Styles, result, fingerprint: str = "") -> None:
    """Scenario x tier headline metrics, the change against the base, and each
    overlay's contents. ``result`` is a :class:`costmodel.analysis.scenarios.CompareResult`."""
    ws = wb.add_worksheet("Scenarios")
    ws.set_column(0, 0, 28)
    ws.set_column(1, 1, 16)
    ws.set_column(2, 2 + len(SCENARIO_METRICS) + 1, 17)
    names = ", ".join(result.scenarios)
    r = banner(
        ws,
        st,
        "Scenarios: engine results",
        f"Computed by the engine for the scenarios listed ({names}) when this file was "
        "written; these cells are values, not formulas, and do not follow the Inputs sheet "
        "(which holds the base).",
        fingerprint,
    )
    ws.write_string(r, 0, "scenario", st.header)
    ws.write_string(r, 1, "tier", st.header)
    for j, m in enumerate(SCENARIO_METRICS):
        ws.write_string(r, 2 + j, METRICS[m].label, st.header)
    ws.write_string(r, 2 + len(SCENARIO_METRICS), "NPV change vs base", st.header)
    r += 1
    base = result.scenarios[0]
    wide = result.wide
    for (scenario, tier), row in wide.iterrows():
        ws.write_string(r, 0, str(scenario), st.text)
        ws.write_string(r, 1, str(tier), st.text)
        for j, m in enumerate(SCENARIO_METRICS):
            _num(ws, r, 2 + j, row.get(m), st.cell(KIND_FORMAT[METRICS[m].kind], ENGINE))
        base_npv = wide.loc[(base, tier), "npv"] if (base, tier) in wide.index else float("nan")
        _num(ws, r, 2 + len(SCENARIO_METRICS), row["npv"] - base_npv, st.cell("money", ENGINE))
        r += 1
    ws.freeze_panes(4, 2)
    r += 1
    ws.write_string(r, 0, "Overlays applied on top of the base", st.h1)
    r += 1
    last_col = 2 + len(SCENARIO_METRICS)
    for name in result.scenarios:
        text = result.overlays.get(name, "") or "(nothing: the base itself)"
        ws.write_string(r, 0, str(name), st.label_bold)
        ws.merge_range(r, 1, r, last_col, "", st.wrap)
        ws.write_string(r, 1, text, st.wrap)
        ws.set_row(r, 15 * max(1, text.count("\n") + 1))
        r += 1
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)


def write_sensitivity_sheet(
    wb: Workbook,
    st: Styles,
    tornado: pd.DataFrame,
    break_even: pd.DataFrame,
    fingerprint: str = "",
    currency: str = "CNY",
) -> None:
    """Tornado table and chart per tier (the 12 largest swings), and the
    break-even table. A tier's rows leave out the inputs of another tier (they
    cannot move it: zero swing); the sheet says how many."""
    metric = tornado.attrs.get("metric", "npv")
    name = METRICS[metric].label if metric in METRICS else metric
    unit = metric_unit(metric, currency) if metric in METRICS else ""
    ws = wb.add_worksheet("Sensitivity")
    ws.set_column(0, 0, 14)
    ws.set_column(1, 1, 44)
    ws.set_column(2, 2, 30)
    ws.set_column(3, 12, 16)
    shown = _own_inputs(tornado)
    r = banner(
        ws,
        st,
        f"Sensitivity: {name} with one input at its low or high",
        "Computed by the engine when this file was written (one input at a time, every other "
        f"input at its value); values, not formulas. {len(tornado) - len(shown)} rows of "
        "another tier's inputs (no effect on the tier: zero swing) are left out.",
        fingerprint,
    )
    cols = [
        ("tier", "Tier"),
        ("label", "Input"),
        ("input", "Path"),
        ("unit", "Unit of input"),
        ("value", "Value"),
        ("low", "Low"),
        ("high", "High"),
        ("base", f"{name}, base ({unit})"),
        ("at_low", f"{name} at low ({unit})"),
        ("at_high", f"{name} at high ({unit})"),
        ("swing", f"Swing ({unit})"),
    ]
    for j, (_, header) in enumerate(cols):
        ws.write_string(r, j, header, st.header)
    ws.write_string(r, len(cols), f"Change at low ({unit})", st.header)
    ws.write_string(r, len(cols) + 1, f"Change at high ({unit})", st.header)
    ws.set_row(r, 30)
    ws.repeat_rows(r)
    r += 1
    ws.freeze_panes(r, 2)
    blocks: dict[str, list[int]] = {}  # tier -> positions in ``tornado``, largest swing first
    for pos, row in shown.iterrows():
        own = INPUT_KIND_FORMAT[input_kind(str(row["input"]))]  # value, low, high in their kind
        for j, (c, _) in enumerate(cols):
            v = readable(str(row["input"])) if c == "label" else row[c]
            if isinstance(v, str):
                ws.write_string(r, j, v, st.text)
            else:
                kind = "money" if c in ("base", "at_low", "at_high", "swing") else own
                _num(ws, r, j, v, st.cell(kind, ENGINE))
        _num(ws, r, len(cols), row["at_low"] - row["base"], st.cell("money", ENGINE))
        _num(ws, r, len(cols) + 1, row["at_high"] - row["base"], st.cell("money", ENGINE))
        blocks.setdefault(str(row["tier"]), []).append(pos)
        r += 1
    at = r + 2
    for tier, rows in blocks.items():
        at = _tornado_chart(wb, ws, st, tornado, tier, rows[:12], at, metric)
    r = at + 1
    ws.write_string(r, 0, "Break-even: the value at which NPV = 0 (empty: no root in range)", st.h1)
    r += 1
    be = break_even.reset_index()
    for c in ("npv_at_utilization", "npv_at_price_per_gpu_hour"):
        if c in be:  # a solver residue below half a unit shows as 0, not a red -0
            be[c] = be[c].where(be[c].abs() >= 0.5, 0.0)
    r = _frame(ws, st, r, be, lambda c: _be_kind(c), currency)
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)


def _own_inputs(tornado: pd.DataFrame) -> pd.DataFrame:
    """The tornado's rows without another tier's inputs (``tiers.OTHER.…``), indexed
    by their position in ``tornado``."""
    df = tornado.reset_index(drop=True)
    path = df["input"].astype(str)
    other = path.str.startswith("tiers.") & ~pd.Series(
        [p.startswith(f"tiers.{t}.") for p, t in zip(path, df["tier"].astype(str), strict=True)],
        index=df.index,
    )
    return df[~other]


def _be_kind(column: str) -> str:
    """Number format of a break-even column: NPV as money, utilization as a share,
    prices with two decimals."""
    if column.startswith("npv"):
        return "money"
    return "pct" if column.startswith("utilization") else "money2"


def bin_labels(centres: np.ndarray) -> list[str]:
    """Histogram bin centres in millions with the fewest decimals (0 to 3) that
    tell every two apart: ``-13.4``, ``-13.1``, … rather than ``-13 -13 -13``."""
    m = np.asarray(centres, dtype=float) / 1e6
    for d in range(4):
        labels = [f"{v:,.{d}f}" for v in m]
        if len(set(labels)) == len(labels):
            return labels
    return labels


def _tornado_chart(
    wb: Workbook,
    ws,
    st: Styles,
    tornado: pd.DataFrame,
    tier: str,
    top: list[int],
    at: int,
    metric: str,
) -> int:
    """The tier's largest swings (positions ``top`` in ``tornado``), copied to a block
    so the chart's ranges are contiguous, and its bar chart; returns the next row."""
    ws.write_string(at, 0, f"chart data: {tier}", st.label_bold)
    first = at + 1
    for k, pos in enumerate(top):
        row = tornado.iloc[pos]
        ws.write_string(first + k, 1, readable(str(row["input"])), st.text)
        for c, col in ((2, "at_low"), (3, "at_high")):
            ws.write_number(first + k, c, float(row[col] - row["base"]), st.cell("money", ENGINE))
    last = first + len(top) - 1
    ch = wb.add_chart({"type": "bar", "subtype": "stacked"})
    for c, name in ((2, "input at low"), (3, "input at high")):
        ch.add_series(
            {
                "name": chart_text(name),
                "categories": ["Sensitivity", first, 1, last, 1],
                "values": ["Sensitivity", first, c, last, c],
                "gap": 40,
            }
        )
    ch.set_title({"name": chart_text(f"Tornado: change of {metric}, {tier}")})
    # input names at the low end of the category axis, clear of the bars
    ch.set_y_axis({"reverse": True, "label_position": "low"})
    ch.set_x_axis({"num_format": '#,##0,,"M"', "name": chart_text(f"change of {metric}")})
    ch.set_size({"width": 760, "height": 400})
    ws.insert_chart(first, 5, ch)
    return max(last, first + 20) + 2


def write_montecarlo_sheet(
    wb: Workbook, st: Styles, mc, fingerprint: str = "", currency: str = "CNY"
) -> None:
    """Percentile table per tier and an NPV histogram per tier."""
    ws = wb.add_worksheet("Monte Carlo")
    ws.set_column(0, 0, 30)
    ws.set_column(1, 12, 16)
    r = banner(
        ws,
        st,
        f"Monte Carlo: {mc.n:,} draws, seed {mc.seed}",
        f"Computed by the engine when this file was written, with seed {mc.seed}: every "
        "input with low/high drawn from its distribution (triangular unless stated); "
        "values, not formulas. The same seed gives the same numbers.",
        fingerprint,
    )
    r = _frame(ws, st, r, mc.summary.reset_index(), _mc_kind, currency)
    r += 1
    ws.write_string(r, 0, "NPV histogram (draws per bin)", st.h1)
    r += 1
    at_chart = r
    col = 8
    for tier in mc.draws:
        npv = np.asarray(mc.draws[tier]["npv"], dtype=float)
        npv = npv[np.isfinite(npv)]
        if npv.size == 0:
            continue
        counts, edges = np.histogram(npv, bins=30)
        centres = (edges[:-1] + edges[1:]) / 2
        ws.write_string(r, 0, f"{tier}: bin centre ({currency})", st.header)
        ws.write_string(r, 1, "Draws", st.header)
        ws.write_string(r, 2, "Label (millions)", st.header)
        top = r + 1
        for k, (cnt, label) in enumerate(zip(counts, bin_labels(centres), strict=True)):
            ws.write_number(top + k, 0, float(centres[k]), st.cell("money", ENGINE))
            ws.write_number(top + k, 1, int(cnt), st.cell("count", ENGINE))
            ws.write_string(top + k, 2, label, st.text)
        ch = wb.add_chart({"type": "column"})
        ch.add_series(
            {
                "name": chart_text(f"{tier}"),
                "categories": ["Monte Carlo", top, 2, top + len(counts) - 1, 2],
                "values": ["Monte Carlo", top, 1, top + len(counts) - 1, 1],
                "gap": 5,
            }
        )
        ch.set_title({"name": chart_text(f"NPV distribution: {tier}")})
        ch.set_x_axis({"name": chart_text(f"NPV ({currency} millions)"), "label_position": "low"})
        ch.set_legend({"none": True})
        ch.set_size({"width": 620, "height": 300})
        ws.insert_chart(at_chart, col, ch)
        at_chart += 16
        r = top + len(counts) + 1
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
