"""Tables of the command line (imported only by a command that prints one).

Every table is first a :class:`Grid` of formatted cells, then laid out for the
console's width so that no number ever loses a digit, on a terminal or piped
(a pipe is ``COLUMNS`` wide, 80 if unset):

1. the whole table, if it fits as it is;
2. else the same table with headers and text cells (labels) wrapped at spaces,
   numbers kept whole on one line;
3. else the value columns split into groups that fit, each printed as its own
   table with the key columns (metric, tier, ...) repeated;
4. else (very narrow) one block per row: ``header: value`` lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from costmodel.core.metrics import (
    HEADLINE,
    METRICS,
    UNITS_ZH,
    column_label,
    is_empty,
    kind_unit,
    metric_unit,
)
from costmodel.inputs.vocabulary import input_kind, input_label
from costmodel.report.format import EMPTY_CELL, cell, delta_value

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console

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

#: per cell of a column: border and padding of a boxed rich table
COLUMN_EDGE = 3
#: a text (label) column is never squeezed below this width unless its words are
TEXT_MIN = 12


@dataclass
class Col:
    """One column: ``key`` columns are repeated when the table is split; ``wrap``
    columns hold text that may wrap at spaces; other cells (numbers) never wrap."""

    header: str
    key: bool = False
    wrap: bool = False
    justify: str = "right"
    style: str | None = None
    dotted: bool = False  # text may also break after a "." (dotted input paths)


@dataclass
class Grid:
    """A table of formatted cells, laid out by :func:`show`."""

    title: str
    cols: list[Col]
    rows: list[list[str]] = field(default_factory=list)


def _pieces(text: str, dotted: bool = False) -> list[str]:
    """Unbreakable pieces of ``text``: words, and with ``dotted`` the parts of a
    dotted path (each keeping its trailing dot)."""
    words = text.split()
    if not dotted:
        return words
    return [p for w in words for p in re.findall(r"[^.]+\.?|\.", w)]


def _words(text: str, dotted: bool = False) -> int:
    return max((cell_len(w) for w in _pieces(text, dotted)), default=0)


def _dotted_lines(text: str, width: int) -> str:
    """``text`` broken after dots into lines of at most ``width`` (where it can)."""
    lines: list[str] = []
    line = ""
    for piece in _pieces(text, dotted=True):
        if line and cell_len(line + piece) > width:
            lines.append(line)
            line = ""
        line += piece
    return "\n".join([*lines, line])


def _limits(grid: Grid, j: int) -> tuple[int, int]:
    """(narrowest, natural) content width of column ``j``."""
    col = grid.cols[j]
    cells = [r[j] for r in grid.rows]
    natural = max([cell_len(col.header), *(cell_len(c) for c in cells)])
    if col.wrap:
        words = max([_words(col.header), *(_words(c, col.dotted) for c in cells)])
        return min(natural, max(words, TEXT_MIN)), natural
    return max([_words(col.header), *(cell_len(c) for c in cells)]), natural


def _total(widths: list[int]) -> int:
    return sum(widths) + COLUMN_EDGE * len(widths) + 1


def _widths(grid: Grid, cols: list[int], width: int) -> list[int] | None:
    """Content widths of ``cols`` that fit in ``width``, or None if they cannot."""
    low, high = zip(*(_limits(grid, j) for j in cols), strict=True)
    if _total(list(high)) <= width:
        return list(high)
    if _total(list(low)) > width:
        return None
    widths = list(low)
    spare = width - _total(widths)
    while spare > 0:  # give a column at a time one more character, narrowest-need first
        short = [i for i in range(len(cols)) if widths[i] < high[i]]
        if not short:
            break
        i = max(short, key=lambda k: (high[k] - widths[k], -k))
        widths[i] += 1
        spare -= 1
    return widths


def _table(grid: Grid, cols: list[int], widths: list[int]) -> Table:
    table = Table(header_style="bold")
    for j, w in zip(cols, widths, strict=True):
        c = grid.cols[j]
        table.add_column(
            Text(c.header),
            justify=c.justify,
            style=c.style,
            width=w,
            overflow="fold",  # type: ignore[arg-type]
        )
    for row in grid.rows:
        cells = [row[j] for j in cols]
        for i, (j, w) in enumerate(zip(cols, widths, strict=True)):
            if grid.cols[j].dotted and " " not in cells[i]:
                cells[i] = _dotted_lines(cells[i], w)
        table.add_row(*(Text(c) for c in cells))
    return table


def _groups(grid: Grid, width: int) -> list[list[int]] | None:
    """Key columns plus as many value columns as fit, group after group."""
    keys = [j for j, c in enumerate(grid.cols) if c.key]
    groups: list[list[int]] = []
    current: list[int] = []
    for j in (j for j, c in enumerate(grid.cols) if not c.key):
        if _widths(grid, keys + current + [j], width) is not None:
            current.append(j)
            continue
        if not current:
            return None
        groups.append(current)
        current = [j]
        if _widths(grid, keys + current, width) is None:
            return None
    if current:
        groups.append(current)
    return [keys + g for g in _balanced(grid, keys, groups, width)]


def _balanced(grid: Grid, keys: list[int], groups: list[list[int]], width: int) -> list[list[int]]:
    """The same columns in as many groups, of near-equal counts if those fit."""
    values = [j for g in groups for j in g]
    k = len(groups)
    size, extra = divmod(len(values), k)
    even, start = [], 0
    for n in range(k):
        stop = start + size + (1 if n < extra else 0)
        even.append(values[start:stop])
        start = stop
    fits = all(_widths(grid, keys + g, width) is not None for g in even)
    return even if fits else groups


def _records(grid: Grid, console: Console) -> None:
    """One block per row, ``header: value`` lines (every cell whole)."""
    console.print(Text(grid.title, style="bold"))
    keys = [j for j, c in enumerate(grid.cols) if c.key]
    for row in grid.rows:
        head = " / ".join(row[j] for j in keys if row[j]) or "-"
        console.print(Text(head, style="bold"))  # labels wrap at spaces
        for j, c in enumerate(grid.cols):
            if not c.key:
                console.print(Text(f"  {c.header}: {row[j]}"), soft_wrap=True)


def show(grid: Grid, console: Console) -> None:
    """Print ``grid`` in the first layout of the module's list that fits."""
    width = console.width
    every = list(range(len(grid.cols)))
    widths = _widths(grid, every, width)
    if widths is not None:
        console.print(Text(grid.title, style="italic"))  # a title line without trailing blanks
        console.print(_table(grid, every, widths))
        return
    groups = _groups(grid, width)
    if groups is None:
        _records(grid, console)
        return
    console.print(Text(grid.title, style="italic"))
    for n, cols in enumerate(groups, 1):
        title = f"columns {n} of {len(groups)}"
        console.print(Text(title, style="italic"))
        console.print(_table(grid, cols, _widths(grid, cols, width) or []))


# ----------------------------------------------------------------------------- grids


def summary_grid(
    rows: Mapping[str, Mapping[str, object]],
    title: str,
    currency: str,
    columns: Sequence[str] | None = None,
    lang: str = "en",
) -> Grid:
    """Metrics down, tiers across, formatted for reading: ``rows`` is tier ->
    column -> value (:meth:`costmodel.Model.summary_rows`, no pandas needed);
    ``columns`` (default: every column of the first tier) in their order;
    ``lang="zh"``: the metrics' Chinese labels (``label_zh``). An infeasible tier
    (methodology §33) is marked in its header, and the reason is a row; ``site`` is
    shown where a tier has one, feasibility where a tier is out."""
    tiers = list(rows)
    zh = lang == "zh"
    out = [t for t in tiers if rows[t].get("feasible") is False]
    cols = [
        Col("指标" if zh else "metric", key=True, wrap=True, justify="left"),
        Col("单位" if zh else "unit", key=True, justify="left", style="dim"),
    ]
    mark = " [不可行]" if zh else " [infeasible]"
    cols += [Col(f"{t}{mark}" if t in out else str(t), wrap=t in out) for t in tiers]
    grid = Grid(title, cols)
    if columns is None:
        columns = list(rows[tiers[0]]) if tiers else []
    hidden = set() if out else {"feasible", "infeasible_reason"}
    if not any(rows[t].get("site") for t in tiers):
        hidden.add("site")
    for col in columns:
        if col in hidden:
            continue
        if col == "feasible":
            yes, no = ("是", "否") if zh else ("yes", "no")
            label = METRICS[col].label_zh if zh else METRICS[col].label
            grid.rows.append([label, "", *(yes if rows[t][col] else no for t in tiers)])
            continue
        meta = METRICS[col]
        cells = [cell(rows[t][col], meta.kind) for t in tiers]
        label, unit = meta.label, metric_unit(col, currency)
        if zh:
            label, unit = meta.label_zh, UNITS_ZH.get(unit, unit)
        grid.rows.append([label, unit, *cells])
    return grid


#: the column of :func:`recommend_grid` beside the cost per GPU-hour (methodology §27)
PER_MTOK = "cost_per_million_tokens"


def recommend_grid(df: pd.DataFrame, title: str, currency: str = "CNY") -> Grid:
    """One row per (workload, tier) of :func:`costmodel.analysis.workloads.recommend`;
    the tier's cost per GPU-hour and, for inference, the cost per million tokens
    beside it (methodology §27)."""
    cols = [
        Col("workload", key=True, wrap=True, justify="left"),
        Col("tier", key=True, justify="left"),
    ]
    cols += [Col(h) for h in ("GPUs", "floor", "days", "due", "use", "fits")]
    cols += [Col(metric_unit(c, currency)) for c in ("cost_per_gpu_hour", PER_MTOK)]
    grid = Grid(title, cols)
    for (w, t), r in df.iterrows():
        grid.rows.append(
            [
                str(w),
                str(t),
                cell(r.gpus, "count"),
                cell(r.memory_floor_gpus, "count"),
                cell(r.days_needed, "years"),
                cell(r.deadline_days, "years"),
                f"{r.share_of_horizon:.2%}",
                "best" if r.recommended else "yes" if r.feasible else "no",
                cell(r.cost_per_gpu_hour, "money_per_hour"),
                cell(r.cost_per_million_tokens, "money_per_hour"),
            ]
        )
    return grid


def frame_grid(df: pd.DataFrame, title: str, index: str, kinds: dict[str, str]) -> Grid:
    """Any frame; cells formatted by ``kinds[column]`` (default ``number``)."""
    cols = [Col(index, key=True, justify="left")]
    cols += [
        Col(str(c), justify="left" if kinds.get(str(c)) == "text" else "right") for c in df.columns
    ]
    grid = Grid(title, cols)
    for i, row in df.iterrows():
        grid.rows.append([str(i), *(cell(v, kinds.get(str(c), "number")) for c, v in row.items())])
    return grid


def montecarlo_grid(summary: pd.DataFrame, title: str, currency: str) -> Grid:
    """Statistics down (``npv_p10`` ... by their labels, :func:`column_label`),
    tiers across; IRR and shares as %."""

    def kind(stat: str) -> str:
        if stat.startswith("npv"):
            return "money"
        if stat.startswith("cost_per"):
            return "money_per_hour"
        return "pct"  # irr_*, p_npv_positive, irr_missing

    cols = [
        Col("statistic", key=True, wrap=True, justify="left"),
        Col("unit", key=True, justify="left", style="dim"),
    ]
    cols += [Col(str(t)) for t in summary.index]
    grid = Grid(title, cols)
    for stat in summary.columns:
        k = kind(str(stat))
        cells = [cell(summary.at[t, stat], k) for t in summary.index]
        row = [column_label(str(stat)), kind_unit(k, currency), *cells]
        grid.rows.append(row)  # type: ignore[arg-type]
    return grid


def tornado_grid(df: pd.DataFrame, tier: str, metric: str, currency: str, top: int = 12) -> Grid:
    """The ``top`` largest swings of one tier, the title giving the metric as
    assumed (the ``base`` column); money in millions, shares and rates as
    percentages."""
    kind = METRICS[metric].kind
    show = "millions" if kind == "money" else kind
    unit = f", {currency} millions" if kind == "money" else ""
    base = cell(df["base"].iloc[0], show) if len(df) else EMPTY_CELL
    title = (
        f"Tornado of {METRICS[metric].label}, tier {tier}{unit}: {base} as assumed; "
        f"the {min(top, len(df))} largest swings"
    )
    cols = [Col("input", key=True, wrap=True, justify="left", dotted=True)]
    cols += [Col(h) for h in ("low", "high", "at low", "at high", "swing")]
    grid = Grid(title, cols)
    for _, r in df.head(top).iterrows():
        k = "pct" if input_kind(str(r["input"])) == "pct" else "number"
        grid.rows.append(
            [
                str(r["input"]),
                cell(r["low"], k),
                cell(r["high"], k),
                cell(r["at_low"], show),
                cell(r["at_high"], show),
                cell(r["swing"], show),
            ]
        )
    return grid


def shifts_grid(shifts: pd.DataFrame, tier: str, p50: float, top: int = 8) -> Grid:
    """The ``top`` largest shifts of one tier's NPV with one drawn input at the
    median of its draws (:func:`costmodel.analysis.montecarlo.median_shifts`),
    money in millions; the title gives the median draw against the NPV as assumed."""
    rows = shifts[shifts["tier"] == tier]
    base = float(rows["base"].iloc[0]) if len(rows) else float("nan")
    title = (
        f"What moves the median draw, tier {tier}: NPV P50 {p50 / 1e6:,.1f} against "
        f"{base / 1e6:,.1f} as assumed (millions); each input alone at its median draw, "
        f"all {len(rows)} shifts add up to {rows['shift'].sum() / 1e6:,.1f}"
    )
    cols = [Col("input", key=True, wrap=True, justify="left", dotted=True)]
    cols += [Col(h) for h in ("assumed", "median draw", "NPV there", "shift")]
    grid = Grid(title, cols)
    for _, r in rows.head(top).iterrows():
        k = "pct" if input_kind(str(r["input"])) == "pct" else "number"
        grid.rows.append(
            [
                str(r["input"]),
                cell(r["value"], k),
                cell(r["median"], k),
                cell(r["at_median"], "millions"),
                cell(r["shift"], "millions"),
            ]
        )
    return grid


def break_even_grid(be: pd.DataFrame, title: str) -> Grid:
    """Break-even utilization and price per tier beside the values assumed, and
    how far each is from them: utilization in percentage points, the price as a
    percentage change of the assumed price (the NPV at a break-even is 0 by
    definition, so it is not a column; JSON and CSV keep it as a check)."""
    cols = [
        Col("tier", key=True, justify="left"),
        Col("break-even utilization"),
        Col("assumed"),
        Col("gap"),
        Col("break-even price per GPU-hour"),
        Col("assumed price"),
        Col("change"),
    ]
    grid = Grid(title, cols)
    for t, r in be.iterrows():
        util, util0 = r["utilization"], r["utilization_base"]
        price, price0 = r["price_per_gpu_hour"], r["price_per_gpu_hour_base"]
        change = (
            EMPTY_CELL
            if is_empty(price) or is_empty(price0) or price0 == 0
            else f"{(float(price) / float(price0) - 1) * 100:+.1f}%"
        )
        gap = EMPTY_CELL if is_empty(util) or is_empty(util0) else float(util) - float(util0)
        grid.rows.append(
            [
                str(t),
                cell(util, "pct"),
                cell(util0, "pct"),
                gap if isinstance(gap, str) else delta_value(gap, "pct"),
                cell(price, "money_per_hour"),
                cell(price0, "money_per_hour"),
                change,
            ]
        )
    return grid


def compare_grid(result: CompareResult, title: str, delta: bool = False) -> Grid:
    """Scenarios x tiers down, headline metrics across; with ``delta``, every
    scenario after the first as its difference against the first
    (:func:`costmodel.report.format.delta_value`)."""
    cols = [Col("scenario", key=True, justify="left"), Col("tier", key=True, justify="left")]
    cols += [Col(METRICS[m].label) for m in HEADLINE]
    grid = Grid(title, cols)
    first = result.scenarios[0]
    diff = result.delta(first) if delta else None
    previous = None
    for (s, t), row in result.wide.iterrows():
        shown = str(s) if s != previous else ""
        previous = s
        if diff is not None and s != first:
            d = diff.loc[(s, t)]
            cells = [delta_value(d[m], METRICS[m].kind) for m in HEADLINE]
        else:
            cells = [cell(row[m], METRICS[m].kind) for m in HEADLINE]
        grid.rows.append([shown, str(t), *cells])
    return grid


def bvr_grid(df: pd.DataFrame, title: str) -> Grid:
    """Build-versus-rent figures down, tiers across."""
    cols = [Col("", key=True, wrap=True, justify="left")] + [Col(str(t)) for t in df.index]
    grid = Grid(title, cols)
    for col, header, kind in BVR_TABLE:
        grid.rows.append([header, *(cell(df.at[t, col], kind) for t in df.index)])
    return grid


def price_grid(df: pd.DataFrame, tier: str, currency: str) -> Grid:
    """One tier's price x utilization NPV grid: prices down (highest first),
    utilizations across, NPV in millions; ``*`` marks a cell whose neighbour up the
    price axis or the utilization axis has the other sign (the break-even contour
    runs beside it); the last row: the break-even price at each utilization."""
    g = df[df["tier"] == tier]
    utils = sorted(g["utilization"].unique())
    cols = [Col(f"price ({currency}/GPU-h)", key=True)]
    cols += [Col(f"util {cell(u, 'pct')}") for u in utils]
    title = f"{tier}: NPV (M {currency}) by year-1 price and utilization; * = beside NPV 0"
    grid = Grid(title, cols)
    for p, row in g.sort_values("utilization").groupby("price_per_gpu_hour", sort=False):
        cells = []
        for _, r in row.iterrows():
            mark = "*" if r["edge_price"] or r["edge_utilization"] else ""
            base = " (base)" if r["base"] else ""
            cells.append(cell(r["npv"], "millions") + mark + base)
        grid.rows.append([cell(p, "money_per_hour"), *cells])
    grid.rows.reverse()
    be = g.groupby("utilization")["break_even_price"].first()
    grid.rows.append(["break-even price", *(cell(be[u], "money_per_hour") for u in utils)])
    return grid


#: sweep columns shown in the table: (column, metric registry key or None, kind)
SWEEP_TABLE = [
    ("gpus", "gpus"),
    ("servers", "servers"),
    ("scale_class", "scale_class"),
    ("network_levels", "network_levels"),
    ("capex_per_gpu", "capex_per_gpu"),
    ("network_share", "network_share"),
    ("cost_per_gpu_hour", "cost_per_gpu_hour"),
    ("npv", "npv"),
    ("irr", "irr"),
    ("design", "design"),
    ("cooling", "cooling"),
    ("storage_nodes", "storage_nodes"),
    ("storage_write_gbps", "storage_write_gbps"),
    ("staff_fte", "staff_fte"),
]


#: the columns of a sweep of designs (methodology §28.5), shown when the tier has one
DESIGN_SWEEP_COLUMNS = ("design", "cooling", "storage_nodes", "storage_write_gbps", "staff_fte")


def sweep_changes(df: pd.DataFrame) -> list[str]:
    """Per row of a sweep, in words, what its ``change`` column marks against the
    row above: ``scale class tens -> hundreds``, ``network 1 -> 2 levels``."""
    words = []
    prev = None
    for _, r in df.iterrows():
        marked = str(r["change"]).split(", ") if r["change"] else []
        what = []
        if prev is not None and "scale_class" in marked:
            what.append(f"scale class {prev['scale_class']} -> {r['scale_class']}")
        if prev is not None and "network_levels" in marked:
            was = prev["network_levels"]
            was = "share" if was != was else f"{cell(was, 'count')}"
            what.append(f"network {was} -> {cell(r['network_levels'], 'count')} levels")
        if prev is not None and "design" in marked:
            what += design_changes(prev, r)
        if "feasible" in r and r["feasible"] is False:
            what.append(f"infeasible: {r['infeasible_reason']}")
        words.append("; ".join(what))
        prev = r
    return words


def _short(text: object) -> str:
    """A design's kind of network or storage up to its first qualifier (``RoCE v2
    100G (or ...), single ToR pair`` -> ``RoCE v2 100G``): the table names the
    change, the memo and the workbook carry the whole text."""
    return re.split(r" \(|, |; ", str(text), maxsplit=1)[0]


def design_changes(prev: pd.Series, r: pd.Series) -> list[str]:
    """What a change of design rebuilds (methodology §28.5), in words: ``design tens ->
    hundreds``, the network's, the storage's and the cooling's kind and the team."""
    out = [f"design {prev['design']} -> {r['design']}"]
    if prev.get("network") != r.get("network") and r.get("network") == r.get("network"):
        out.append(f"network {_short(prev['network'])} -> {_short(r['network'])}")
    nodes = (prev.get("storage_nodes"), r.get("storage_nodes"))
    if all(n == n and n is not None for n in nodes) and prev.get("storage") != r.get("storage"):
        gbps = (prev["storage_write_gbps"], r["storage_write_gbps"])
        out.append(
            f"storage {cell(nodes[0], 'count')} -> {cell(nodes[1], 'count')} nodes "
            f"({cell(gbps[0], 'number')} -> {cell(gbps[1], 'number')} GB/s)"
        )
    elif prev.get("storage") != r.get("storage") and r.get("storage") == r.get("storage"):
        out.append(f"storage {_short(prev['storage'])} -> {_short(r['storage'])}")
    if prev.get("cooling") != r.get("cooling") and r.get("cooling") == r.get("cooling"):
        out.append(
            f"{str(prev['cooling']).replace('_', ' ')} -> {str(r['cooling']).replace('_', ' ')}"
        )
    if prev.get("rack_kw") != r.get("rack_kw") and r.get("rack_kw") == r.get("rack_kw"):
        out.append(f"racks {cell(prev['rack_kw'], 'count')} -> {cell(r['rack_kw'], 'count')} kW")
    return out


def sweep_grid(df: pd.DataFrame, title: str) -> Grid:
    """One row per GPU count of :func:`costmodel.analysis.sweep.sweep`, headers and
    formats from the metric registry; the ``change`` column last, in words
    (:func:`sweep_changes`)."""
    from costmodel.core.metrics import Metric

    def metric(key: str) -> Metric:
        if key == "staff_fte":
            return Metric(key, input_label("staff_fte"), input_label("staff_fte", "zh"), "ratio")
        return METRICS.get(key, Metric(key, key.replace("_", " "), key, "count"))

    designed = "design" in df and df["design"].notna().any()
    shown = [(c, k) for c, k in SWEEP_TABLE if designed or c not in DESIGN_SWEEP_COLUMNS]
    shown = ([("site", "site")] if "site" in df.columns else []) + shown
    cols = [
        Col(
            metric(k).label,
            key=c in ("gpus", "site"),
            justify="left" if metric(k).kind == "text" else "right",
        )
        for c, k in shown
    ]
    cols.append(Col("change", wrap=True, justify="left"))
    grid = Grid(title, cols)
    for (_, r), change in zip(df.iterrows(), sweep_changes(df), strict=True):
        grid.rows.append([*(cell(r[c], metric(k).kind) for c, k in shown), change])
    return grid
