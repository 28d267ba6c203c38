"""The memo's charts as inline HTML: SVG drawings (:mod:`~costmodel.report.memo.svg`)
and an HTML legend, each chart drawn once.

One drawing serves every width. A chart with one panel per tier (opex, cash,
Monte Carlo, scenarios, failures) is one SVG per panel in a CSS grid: three
columns on a wide screen, one on a phone, so its text keeps its size. A chart
with one panel (NPV, capex, cost, tornado) has its categories in rows
(horizontal bars), so it needs no more width on a phone than on paper; CSS scales
it with its ``viewBox``. Legends are HTML lists that wrap.

Each function returns the figure's HTML (well-formed XML: a ``div`` holding the
SVG elements and the legend). Text stays text and is escaped; every SVG has
``role="img"``, an ``aria-label`` and an id made from ``prefix`` (unique in the
page). Charts only read a built :class:`~costmodel.core.model.Model` (and, for the
price chart, the break-even prices) or numbers handed in by the memo's sections;
they compute nothing financial:

- :func:`npv_chart`: NPV per tier (horizontal bars, the value at the bar's end).
- :func:`capex_chart`: capex per GPU stacked by asset class, total capex at the end.
- :func:`opex_chart`: opex per operating year stacked by line item, one panel per tier.
- :func:`cash_chart`: cumulative FCF per month, one panel per tier, payback marked.
- :func:`cost_chart`: levelized and effective cost per GPU-hour vs price and break-even.
- :func:`failures_chart`: GPU time lost and its cost a year, as assumed and faster.
- :func:`tornado_chart`, :func:`npv_distribution_chart`, :func:`scenario_chart`:
  the analysis (one-at-a-time swings, Monte Carlo, scenarios).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from costmodel.core.model import Model
from costmodel.core.result import CAPEX_LINES, OPEX_LINES
from costmodel.report.memo import cache
from costmodel.report.memo import numbers as f
from costmodel.report.memo.labels import chart_label
from costmodel.report.memo.svg import (
    AXIS,
    INK,
    MUTED,
    SIZE,
    TITLE,
    Canvas,
    Scale,
    esc,
    fit,
    fit_labels,
    nice_domain,
    num,
    shorten,
    text_width,
    tick_width,
    wrap,
)
from costmodel.report.memo.text_charts import CHART, LINE_LABELS

COLORS = {
    "servers": "#2f5d8a",
    "network": "#e08e2b",
    "storage": "#5aa36b",
    "facility": "#9b6fb0",
    "electricity": "#e0b12b",
    "colocation": "#8c8c8c",
    "staff": "#2f5d8a",
    "maintenance": "#c4554d",
    "insurance": "#6fb0b0",
    "software": "#9b6fb0",
}
POS, NEG = "#3f8f5a", "#c4554d"
LOW_C, HIGH_C = "#7fa7cc", "#2f5d8a"
LEV_C, EFF_C = "#2f5d8a", "#7fa7cc"
DARK, LIGHT = "#c4554d", "#e8b4ae"
RULE = "#222222"

SINGLE_W = 360.0  # a one-panel chart's natural width: about a phone's (390 px) text column
ZOOM = 1.35  # a one-panel chart is shown at most this much larger than its natural width
PANEL_W = 270.0  # a panel's natural width (a grid cell: a third of the page, all of a phone)
PANEL_H = 200.0
VALUE = 10.5  # px: values written at bars
NAME_SHARE = 0.42  # at most this share of the width for the names left of the bars
LINE = 13.5  # px between the lines of a name on two lines


# ----------------------------------------------------------------------------- legend, figure


@dataclass(frozen=True)
class Key:
    """One legend entry: a filled box (``bar``), a line or a dashed line."""

    label: str
    color: str
    kind: str = "bar"


def legend(keys: Sequence[Key]) -> str:
    """The legend as an HTML list (it wraps on a narrow screen)."""
    items = []
    for k in keys:
        if k.kind == "bar":
            shape = f'<rect x="1" y="1" width="14" height="8" fill="{k.color}"/>'
        else:
            dash = ' stroke-dasharray="4 2"' if k.kind == "dash" else ""
            shape = (
                f'<line x1="0" y1="5" x2="16" y2="5" stroke="{k.color}" stroke-width="2"{dash}/>'
            )
        items.append(
            '<li><svg xmlns="http://www.w3.org/2000/svg" class="key" viewBox="0 0 16 10" '
            f'aria-hidden="true">{shape}</svg>{esc(k.label)}</li>'
        )
    return '<ul class="legend">' + "".join(items) + "</ul>" if items else ""


def figure(drawings: Sequence[Canvas], keys: Sequence[Key] = (), panels: bool = False) -> str:
    """The HTML of a chart: one drawing (``single``) or a grid of panels, and its legend."""
    body = "".join(d.svg() for d in drawings)
    if panels:
        return f'<div class="drawing panels"><div class="grid">{body}</div>{legend(keys)}</div>'
    most = drawings[0].width * ZOOM / 16
    return f'<div class="drawing single" style="max-width:{most:.2f}rem">{body}{legend(keys)}</div>'


# ----------------------------------------------------------------------------- horizontal bars


@dataclass(frozen=True)
class Bar:
    """A horizontal bar from ``start`` to ``end`` (data units). ``label`` is written
    beyond ``at`` (default ``end``) on side ``side`` (+1 right, -1 left, 0 away from
    ``start``); ``inside`` writes it in white inside the bar's end when it fits."""

    start: float
    end: float
    color: str
    label: str = ""
    at: float | None = None
    side: int = 0
    inside: bool = False
    opacity: float = 1.0
    cls: str = "bar"

    @property
    def where(self) -> float:
        return self.end if self.at is None else self.at

    @property
    def right(self) -> bool:
        return self.side > 0 if self.side else self.end >= self.start


@dataclass(frozen=True)
class Mark:
    """A vertical line at ``value``: across the whole plot (a rule) or one group."""

    value: float
    color: str
    width: float = 1.2
    dash: str = ""
    cls: str = "rule"


@dataclass
class Rows:
    """Groups of rows of bars (a group per category, named at the left), with
    vertical marks per group and rules across the plot."""

    names: list[str]
    groups: list[list[list[Bar]]]
    marks: list[list[Mark]] = field(default_factory=list)
    rules: list[Mark] = field(default_factory=list)
    bar_h: float = 16.0
    bar_gap: float = 3.0
    group_gap: float = 10.0
    name_lines: int = 1
    label_size: float = VALUE
    label_fill: str = INK


def _values(rows: Rows) -> list[float]:
    vals = [0.0]
    for g in rows.groups:
        for row in g:
            for b in row:
                vals += [b.start, b.end]
    vals += [m.value for ms in rows.marks for m in ms] + [m.value for m in rows.rules]
    return [v for v in vals if math.isfinite(v)]


def hbars(
    rows: Rows,
    width: float,
    ident: str,
    label: str,
    axis: str = "",
    title: str = "",
) -> Canvas:
    """Draw ``rows``: names left, bars on a value axis (ticks and ``axis`` title
    under it), an optional ``title`` above; height from the number of rows."""
    top = 24.0 if title else 4.0
    names = [wrap(n, width * NAME_SHARE - 8, SIZE, rows.name_lines) for n in rows.names]
    name_w = max((text_width(x) for lines in names for x in lines), default=0.0) + 8
    bars = [len(g) * rows.bar_h + (len(g) - 1) * rows.bar_gap for g in rows.groups]
    heights = [max(b, len(lines) * LINE + 2) for b, lines in zip(bars, names, strict=True)]
    plot_h = sum(heights) + rows.group_gap * (len(heights) + 1)
    bottom = top + plot_h
    height = bottom + (34 if axis else 22)
    c = Canvas(width, height, label, ident)
    if title:
        c.text(0, 9, fit(title, width, TITLE), size=TITLE, bold=True, cls="title")
    x0, x1 = name_w, width - 4
    xs = _scale(rows, x0, x1)
    c.x_axis(xs, top, bottom, n=max(2, min(6, int((x1 - x0) / 62))))
    if axis:
        c.text(
            (x0 + x1) / 2, bottom + 27, fit(axis, width), anchor="middle", fill=MUTED, cls="axis"
        )
    # bars, then marks and rules over them, then the values over everything
    y = top + rows.group_gap
    labelled: list[tuple[Bar, float]] = []
    for k, (g, lines, h) in enumerate(zip(rows.groups, names, heights, strict=True)):
        mid = y + h / 2
        for i, line in enumerate(lines):
            c.text(x0 - 6, mid + (i - (len(lines) - 1) / 2) * LINE, line, anchor="end", cls="name")
        for i, row in enumerate(g):
            by = mid - bars[k] / 2 + i * (rows.bar_h + rows.bar_gap)
            for b in row:
                _bar(c, xs, b, by, rows)
                labelled.append((b, by))
        for m in rows.marks[k] if k < len(rows.marks) else []:
            if math.isfinite(m.value):
                x = xs(m.value)
                c.line(x, y - 3, x, y + h + 3, m.color, m.width, m.dash, cls=m.cls)
        y += h + rows.group_gap
    if xs.d0 < 0 < xs.d1:
        c.line(xs(0), top, xs(0), bottom, "#333333", 0.8, cls="zero")
    for m in rows.rules:
        if math.isfinite(m.value):
            c.line(xs(m.value), top, xs(m.value), bottom, m.color, m.width, m.dash, cls=m.cls)
    for b, by in labelled:
        _label(c, xs, b, by, rows)
    return c


def _scale(rows: Rows, x0: float, x1: float) -> Scale:
    """The value axis on ``[x0, x1]``: every bar, mark and rule, and room for the
    values written beyond the bars."""
    values = _values(rows)
    left, right = [], []
    for g in rows.groups:
        for row in g:
            for b in row:
                if b.label and not b.inside and math.isfinite(b.where):
                    w = text_width(b.label, rows.label_size) + 4
                    (right if b.right else left).append((b.where, w))
    return fit_labels(min(values), max(values), x0, x1, right=right, left=left)


def _bar(c: Canvas, xs: Scale, b: Bar, y: float, rows: Rows) -> None:
    if not (math.isfinite(b.start) and math.isfinite(b.end)):
        return
    a, e = xs(b.start), xs(b.end)
    if e != a:
        extra = f' fill-opacity="{b.opacity:g}"' if b.opacity != 1 else ""
        c.rect(a, y, e - a, rows.bar_h, b.color, b.cls, extra)


def _label(c: Canvas, xs: Scale, b: Bar, y: float, rows: Rows) -> None:
    """A bar's value: inside it from its start (white, clear of marks near its
    end) when ``inside`` and it fits, else beyond ``at`` with a white halo."""
    if not b.label or not (math.isfinite(b.where) and math.isfinite(b.start)):
        return
    mid = y + rows.bar_h / 2
    a, e = xs(b.start), xs(b.end) if math.isfinite(b.end) else xs(b.start)
    if b.inside and abs(e - a) >= text_width(b.label, rows.label_size) + 8:
        x, anchor = (a + 4, "start") if b.right else (a - 4, "end")
        c.text(x, mid, b.label, rows.label_size, anchor, "#ffffff", cls="value")
        return
    at = xs(b.where)
    x, anchor = (at + 4, "start") if b.right else (at - 4, "end")
    c.text(x, mid, b.label, rows.label_size, anchor, rows.label_fill, cls="value", halo=True)


# ----------------------------------------------------------------------------- panels


def _panel(title: str, unit: str, ident: str, label: str) -> tuple[Canvas, float, float]:
    """A panel with a vertical value axis: bold ``title``, ``unit`` under it; returns
    the canvas and the plot's top and bottom."""
    c = Canvas(PANEL_W, PANEL_H, label, ident)
    c.text(0, 9, fit(title, PANEL_W, TITLE), size=TITLE, bold=True, cls="title")
    c.text(0, 26, fit(unit, PANEL_W), fill=MUTED, cls="unit")
    return c, 42.0, PANEL_H - 34


def _x_title(c: Canvas, text: str, x0: float, x1: float) -> None:
    c.text((x0 + x1) / 2, PANEL_H - 7, fit(text, PANEL_W), anchor="middle", fill=MUTED, cls="axis")


def _names(model: Model, lang: str) -> list[str]:
    """The tiers' short names (:func:`~costmodel.report.memo.labels.chart_label`)."""
    return [shorten(chart_label(model, t, lang), 22) for t in model.tiers]


def _finite(a: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(a), a, 0.0)


def _stacked_columns(
    c: Canvas,
    series: Sequence[tuple[str, str, np.ndarray]],
    ys: Scale,
    x0: float,
    x1: float,
) -> float:
    """Columns stacked from zero (positive parts up, negative down), one per index
    of the arrays in ``series`` (class, colour, values); returns the width of a band."""
    n = len(series[0][2]) if series else 0
    band = (x1 - x0) / max(n, 1)
    w = band * 0.7
    up, down = np.zeros(n), np.zeros(n)
    for cls, color, values in series:
        for i, v in enumerate(_finite(values)):
            if v == 0:
                continue
            base = up if v > 0 else down
            top, bot = ys(base[i] + v), ys(base[i])
            c.rect(x0 + i * band + (band - w) / 2, top, w, bot - top, color, f"bar {cls}")
            base[i] += v
    return band


def _year_ticks(c: Canvas, years: int, x0: float, band: float, y: float) -> None:
    """Year numbers under the columns: every year, or every 2nd, 5th, 10th ... as
    room allows."""
    widest = text_width(str(years))
    step = next((s for s in (1, 2, 5, 10, 20, 50) if band * s >= widest + 6), 100)
    for yr in range(1, years + 1):
        if yr % step == 0 or step == 1:
            c.text(x0 + (yr - 0.5) * band, y + 12, str(yr), anchor="middle", fill=MUTED, cls="year")


# ----------------------------------------------------------------------------- the charts


def npv_chart(model: Model, lang: str, prefix: str = "npv") -> str:
    """Horizontal bar of NPV per tier, labelled with the formatted value."""
    cur = model.assumptions.currency
    t = CHART[lang]
    npv = cache.summary(model)["npv"].to_numpy(dtype=float)
    div, unit = f.money_scale(np.nanmax(np.abs(npv)) if len(npv) else 0, lang, cur)
    vals = _finite(npv) / div
    groups = [
        [[Bar(0.0, float(v), POS if v >= 0 else NEG, f.money(raw, lang, cur))]]
        for v, raw in zip(vals, npv, strict=True)
    ]
    rows = Rows(_names(model, lang), groups, bar_h=18, group_gap=9)
    return figure([hbars(rows, SINGLE_W, prefix, t["npv_title"], unit)])


def capex_chart(model: Model, lang: str, prefix: str = "capex") -> str:
    """Capex per GPU stacked by asset class; total capex at the end of each bar."""
    cur = model.assumptions.currency
    t, lines = CHART[lang], LINE_LABELS[lang]
    s = cache.summary(model)
    gpus = s["gpus"].to_numpy(float)
    per_gpu = {c: _finite(s[f"capex_{c}"].to_numpy(float) / gpus) for c in CAPEX_LINES}
    used = [c for c in CAPEX_LINES if np.any(per_gpu[c])]
    total = sum((per_gpu[c] for c in used), np.zeros(len(s)))
    div, unit = f.money_scale(max(float(np.max(np.abs(total), initial=0)), 0), lang, cur)
    groups = []
    for i, capex in enumerate(s["capex"].to_numpy(float)):
        row, at = [], 0.0
        for c in used:
            v = per_gpu[c][i] / div
            row.append(Bar(at, at + v, COLORS[c], cls=f"bar {c}"))
            at += v
        text = f"{t['total']} {f.money(capex, lang, cur)}"
        row.append(Bar(at, at, INK, text, side=1, cls="end"))
        groups.append([row])
    rows = Rows(_names(model, lang), groups, bar_h=18, group_gap=9)
    drawing = hbars(rows, SINGLE_W, prefix, t["capex_title"], t["capex_axis"].format(unit=unit))
    return figure([drawing], [Key(lines[c], COLORS[c]) for c in used])


def opex_chart(model: Model, lang: str, prefix: str = "opex") -> str:
    """Opex per operating year stacked by line item; one panel (own scale) per tier."""
    cur = model.assumptions.currency
    t, lines = CHART[lang], LINE_LABELS[lang]
    years = model.months // 12
    data = {t: {c: cache.annual(model, t, "opex", c) for c in OPEX_LINES} for t in model.tiers}
    used = [c for c in OPEX_LINES if any(np.any(d[c]) for d in data.values())]
    panels = []
    for k, (tier, name) in enumerate(zip(model.tiers, _names(model, lang), strict=True)):
        cols = [data[tier][c] for c in used]
        up = sum((np.clip(_finite(v), 0, None) for v in cols), np.zeros(years))
        down = sum((np.clip(_finite(v), None, 0) for v in cols), np.zeros(years))
        div, unit = f.money_scale(max(up.max(initial=0), -down.min(initial=0)), lang, cur)
        c, top, bottom = _panel(
            name, t["opex_axis"].format(unit=unit), f"{prefix}-{k}", f"{t['opex_title']}: {name}"
        )
        lo, hi, yt = nice_domain(down.min(initial=0) / div, up.max(initial=0) / div, 4)
        ys = Scale(lo, hi, bottom, top)
        x0, x1 = tick_width(yt) + 8, PANEL_W - 4
        c.y_axis(ys, x0, x1, yt)
        band = _stacked_columns(
            c, [(line, COLORS[line], data[tier][line] / div) for line in used], ys, x0, x1
        )
        c.line(x0, ys(0), x1, ys(0), AXIS, 0.8)
        _year_ticks(c, years, x0, band, bottom)
        _x_title(c, t["year"], x0, x1)
        panels.append(c)
    return figure(panels, [Key(lines[c], COLORS[c]) for c in used], panels=True)


def _crossings(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of a line plus the points where it crosses zero (so an area
    split at zero follows the line exactly)."""
    s = np.sign(y)
    i = np.nonzero(s[:-1] * s[1:] < 0)[0]
    xc = x[i] + (x[i + 1] - x[i]) * y[i] / (y[i] - y[i + 1])
    xx = np.insert(x, i + 1, xc)
    yy = np.insert(y, i + 1, 0.0)
    return xx, yy


def _points(px: np.ndarray, py: np.ndarray) -> str:
    return " ".join(f"{num(a)},{num(b)}" for a, b in zip(px.tolist(), py.tolist(), strict=True))


def _area(c: Canvas, px: np.ndarray, py: np.ndarray, zero: float, color: str, alpha: float) -> None:
    """The area between a line (pixels) and the zero line."""
    if not np.any(py != zero):
        return
    d = f"M{num(px[0])},{num(zero)} L{_points(px, py)} L{num(px[-1])},{num(zero)} Z"
    c.path(d, fill=color, extra=f' fill-opacity="{alpha:g}" class="area"')


def cash_chart(model: Model, lang: str, prefix: str = "cash") -> str:
    """Cumulative FCF per tier (own scale); payback marked or 'no payback' noted."""
    cur = model.assumptions.currency
    t = CHART[lang]
    s = cache.summary(model)
    years = model.months / 12
    panels = []
    for k, (tier, name) in enumerate(zip(model.tiers, _names(model, lang), strict=True)):
        cum = _finite(cache.monthly(model, tier, "cash_flow", "cumulative_fcf"))
        div, unit = f.money_scale(np.abs(cum).max(initial=0), lang, cur)
        c, top, bottom = _panel(
            name, t["cash_axis"].format(unit=unit), f"{prefix}-{k}", f"{t['cash_title']}: {name}"
        )
        lo, hi, yt = nice_domain(
            min(cum.min(initial=0), 0) / div, max(cum.max(initial=0), 0) / div, 4
        )
        ys = Scale(lo, hi, bottom, top)
        x0, x1 = tick_width(yt) + 8, PANEL_W - 10
        c.y_axis(ys, x0, x1, yt)
        xs = Scale(0.0, years, x0, x1)
        c.x_axis(xs, top, bottom, n=min(6, int(years) or 1), grid=False)
        months = np.arange(len(cum)) / 12
        x, y = _crossings(months, cum / div)  # the areas split exactly where the line crosses 0
        px, py = x0 + x * xs.k, ys.r0 + (y - ys.d0) * ys.k
        zero = ys(0)  # the y axis points up: a loss is below zero, at a larger pixel
        _area(c, px, np.maximum(py, zero), zero, NEG, 0.12)
        _area(c, px, np.minimum(py, zero), zero, POS, 0.15)
        c.line(x0, zero, x1, zero, "#333333", 0.8, cls="zero")
        line = _points(x0 + months * xs.k, ys.r0 + (cum / div - ys.d0) * ys.k)
        c.path(
            "M" + line.replace(" ", " L"),
            stroke="#2f5d8a",
            extra=' stroke-width="1.6" stroke-linejoin="round" class="line"',
        )
        pb = s.loc[tier, "payback_years"]
        if f.is_empty(pb):
            c.text(x1, top + 15, t["no_payback"], anchor="end", fill=NEG, cls="note", halo=True)
        else:
            m = min(int(round(float(pb) * 12)), len(cum) - 1)
            mx, my = xs(float(pb)), ys(cum[m] / div)
            c.circle(mx, my, 3.5, POS, cls="payback")
            text = t["payback"].format(years=f.years(pb, lang))
            half = text_width(text) / 2
            tx = min(max(mx, x0 + half), x1 - half)
            ty = my - 11 if my - 11 > top + 6 else my + 12
            c.text(tx, ty, text, anchor="middle", fill="#1d5c33", cls="note", halo=True)
        _x_title(c, t["year"], x0, x1)
        panels.append(c)
    return figure(panels, panels=True)


def cost_chart(
    model: Model,
    lang: str,
    prices: Mapping[str, float],
    breakeven: Mapping[str, float],
    prefix: str = "cost",
) -> str:
    """Levelized and effective cost per GPU-hour per tier as bars; the assumed
    year-1 price (solid) and the break-even price (dashed) as marks."""
    cur = model.assumptions.currency
    t = CHART[lang]
    s = cache.summary(model)
    lev = s["cost_per_gpu_hour"].to_numpy(float)
    eff = s["cost_per_effective_gpu_hour"].to_numpy(float)
    groups, marks = [], []
    for i, tier in enumerate(model.tiers):
        group = []
        for v, color, cls in ((lev[i], LEV_C, "bar levelized"), (eff[i], EFF_C, "bar effective")):
            label = "" if f.is_empty(float(v)) else f"{v:,.2f}"
            end = float(v) if math.isfinite(v) else math.nan
            group.append([Bar(0.0, end, color, label, inside=True, cls=cls)])
        groups.append(group)
        be = float(breakeven.get(tier, math.nan))
        marks.append(
            [
                Mark(float(prices[tier]), RULE, 2.2, cls="price"),
                Mark(be, NEG, 1.8, "4 2", cls="breakeven"),
            ]
        )
    rows = Rows(_names(model, lang), groups, marks, bar_h=14, bar_gap=2, group_gap=12)
    axis = t["cost_axis"].format(currency=f.currency_unit(lang, cur))
    keys = [
        Key(t["levelized"], LEV_C),
        Key(t["effective"], EFF_C),
        Key(t["price"], RULE, "line"),
        Key(t["breakeven"], NEG, "dash"),
    ]
    return figure([hbars(rows, SINGLE_W, prefix, t["cost_title"], axis)], keys)


def failures_chart(
    names: list[str],
    lost: list[float],
    lost_fast: list[float],
    money: list[float],
    money_fast: list[float],
    lang: str,
    currency: str = "CNY",
    factor: float = 10,
    prefix: str = "failures",
) -> str:
    """Two panels, a pair of bars per tier in each: share of GPU time lost
    (1 - goodput) and its cost a year, as assumed (dark) and with faster checkpoint
    storage (light), each value at its bar. The numbers come from
    :func:`costmodel.report.memo.reliability.failures`."""
    from costmodel.report.memo.text_reliability import FAILURES

    t = FAILURES[lang]
    keys = [Key(t["as_assumed"], DARK), Key(t["faster"].format(factor=factor), LIGHT)]
    money_arr = _finite(np.asarray(money, float))
    div, unit = f.money_scale(money_arr.max(initial=0), lang, currency)
    short = [shorten(s, 14) for s in names]
    panels = []
    specs = (
        (lost, lost_fast, 100.0, lambda v: f.pct(v, 2), f"{t['lost_axis']} (%)"),
        (money, money_fast, 1 / div, lambda v: f.money(v, lang, currency), None),
    )
    for k, (now, fast, mult, text, title) in enumerate(specs):
        title = title or t["money_axis"].format(unit=unit)
        groups = [
            [
                [Bar(0.0, float(_finite(np.array([a]))[0]) * mult, DARK, text(a), cls="bar now")],
                [Bar(0.0, float(_finite(np.array([b]))[0]) * mult, LIGHT, text(b), cls="bar fast")],
            ]
            for a, b in zip(now, fast, strict=True)
        ]
        rows = Rows(short, groups, bar_h=12, bar_gap=2, group_gap=10)
        label = f"{t['chart_title']}: {title}"
        panels.append(hbars(rows, PANEL_W, f"{prefix}-{k}", label, title=title))
    return figure(panels, keys, panels=True)


# ----------------------------------------------------------------------------- analysis charts
# Drawn from the numbers of a finished costmodel.analysis.bundle.Analysis, passed in by
# costmodel.report.memo.analysis; words in costmodel.report.memo.text_analysis.


def tornado_chart(
    inputs: list[str],
    low: list[float] | list[str],
    high: list[float] | list[str],
    at_low: list[float],
    at_high: list[float],
    base: float,
    lang: str,
    currency: str,
    title: str,
    prefix: str = "tornado",
) -> str:
    """Tornado of one tier: per input (largest swing on top) a bar from the base
    NPV to the NPV with the input at its low value and one to its high value; the
    input values written at the bar ends; base NPV solid, NPV = 0 dashed."""
    from costmodel.report.memo.text_analysis import TRUE

    t = TRUE[lang]
    lo_v, hi_v = np.asarray(at_low, float), np.asarray(at_high, float)
    allv = np.concatenate([lo_v, hi_v, [base, 0.0]])
    div, unit = f.money_scale(np.nanmax(np.abs(allv)), lang, currency)
    b = base / div
    groups = []
    for lv, hv, a, c in zip(low, high, lo_v / div, hi_v / div, strict=True):
        texts = [v if isinstance(v, str) else f.short(v) for v in (lv, hv)]
        groups.append(
            [
                [
                    Bar(b, float(a), LOW_C, texts[0], side=1 if a >= c else -1, cls="bar low"),
                    Bar(b, float(c), HIGH_C, texts[1], side=1 if c >= a else -1, cls="bar high"),
                ]
            ]
        )
    rows = Rows(
        list(inputs),
        groups,
        rules=[Mark(b, RULE, 1.2, cls="base"), Mark(0.0, NEG, 1.2, "4 2", cls="zero-npv")],
        bar_h=16,
        group_gap=8,
        name_lines=2,
        label_size=10,
        label_fill="#444444",
    )
    keys = [
        Key(t["low_legend"], LOW_C),
        Key(t["high_legend"], HIGH_C),
        Key(t["base_legend"], RULE, "line"),
        Key(t["zero_legend"], NEG, "dash"),
    ]
    axis = t["npv_axis"].format(unit=unit)
    return figure([hbars(rows, SINGLE_W, prefix, title, axis)], keys)


def npv_distribution_chart(
    names: list[str],
    draws: list[np.ndarray],
    quantiles: list[tuple[float, float, float]],
    lang: str,
    currency: str,
    title: str,
    prefix: str = "mc",
) -> str:
    """Histogram of the NPV draws per tier (own scale), bins left of 0 red and
    right of it green, P10/P50/P90 dotted."""
    from costmodel.report.memo.text_analysis import TRUE

    t = TRUE[lang]
    panels = []
    for k, (name, d, q) in enumerate(zip(names, draws, quantiles, strict=True)):
        name = shorten(name, 22)
        v = np.asarray(d, float)
        v = v[np.isfinite(v)]
        div, unit = f.money_scale(np.abs(v).max(initial=0), lang, currency)
        counts, edges = np.histogram(v / div, bins=36)
        share = counts / max(len(v), 1) * 100
        c, top, bottom = _panel(name, f"{t['share_axis']} (%)", f"{prefix}-{k}", f"{title}: {name}")
        lo, hi, yt = nice_domain(0.0, float(share.max(initial=0)), 4)
        ys = Scale(lo, hi, bottom, top)
        x0, x1 = tick_width(yt) + 8, PANEL_W - 14
        c.y_axis(ys, x0, x1, yt)
        xs = Scale(float(edges[0]), float(edges[-1]), x0, x1)
        for e0, e1, sh in zip(edges[:-1].tolist(), edges[1:].tolist(), share.tolist(), strict=True):
            if sh > 0:
                color = POS if (e0 + e1) / 2 > 0 else NEG
                c.rect(
                    xs(e0),
                    ys(sh),
                    xs(e1) - xs(e0),
                    ys(0) - ys(sh),
                    color,
                    "bar",
                    ' fill-opacity="0.8"',
                )
        for x in q:
            if math.isfinite(x) and edges[0] <= x / div <= edges[-1]:
                c.line(xs(x / div), top, xs(x / div), bottom, RULE, 0.9, "1 1.5", cls="quantile")
        if edges[0] < 0 < edges[-1]:
            c.line(xs(0), top, xs(0), bottom, RULE, 1.0, cls="zero")
        c.x_axis(xs, top, bottom, n=4, grid=False)
        _x_title(c, unit, x0, x1)
        panels.append(c)
    return figure(panels, panels=True)


def scenario_chart(
    tiers: list[str],
    scenarios: list[str],
    npv: np.ndarray,
    lang: str,
    currency: str,
    title: str,
    prefix: str = "scenarios",
) -> str:
    """NPV per scenario (rows of ``npv``) and tier (columns): one panel per tier,
    own scale, a horizontal bar per scenario labelled with its value (right of the
    bar's outer end, or right of zero for a loss, so no label runs into a name)."""
    labels = [shorten(s, 18) for s in scenarios]
    panels = []
    for k, tier in enumerate(tiers):
        vals = np.asarray(npv[:, k], float)
        div, unit = f.money_scale(np.nanmax(np.abs(vals)) if len(vals) else 0, lang, currency)
        v = _finite(vals) / div
        groups = [
            [
                [
                    Bar(
                        0.0,
                        float(x),
                        POS if x >= 0 else NEG,
                        f.money(raw, lang, currency),
                        at=max(float(x), 0.0),
                        side=1,
                    )
                ]
            ]
            for x, raw in zip(v, vals, strict=True)
        ]
        rows = Rows(labels, groups, bar_h=14, group_gap=8)
        name = shorten(tier, 22)
        panels.append(hbars(rows, PANEL_W, f"{prefix}-{k}", f"{title}: {name}", unit, name))
    return figure(panels, panels=True)
