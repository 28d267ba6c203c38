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
page). Charts only read a built :class:`~costmodel.inputs.model.Model` (and, for the
price chart, the break-even prices) or numbers handed in by the memo's sections;
they compute nothing financial:

- :func:`npv_chart`: NPV per tier (horizontal bars, the value at the bar's end).
- :func:`capex_chart`: capex per GPU stacked by asset class, total capex at the end.
- :func:`opex_chart`: opex per operating year stacked by line item, one panel per tier,
  the first full operating year marked.
- :func:`cash_chart`: cumulative FCF per month, one panel per tier, payback marked.
- :func:`cost_chart`: levelized and effective cost per GPU-hour vs price and break-even.

The charts of failures and of the analysis (one-at-a-time swings, Monte Carlo,
scenarios) are in :mod:`~costmodel.report.memo.analysis_charts`; the pieces all are
drawn with (palette, legend, horizontal bars, panels) in
:mod:`~costmodel.report.memo.chartkit`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from costmodel.core.result import CAPEX_LINES, OPEX_LINES
from costmodel.inputs.model import Model
from costmodel.report.memo import numbers as f
from costmodel.report.memo.chartkit import (
    COLORS,
    EFF_C,
    LEV_C,
    NEG,
    PANEL_W,
    POS,
    RULE,
    SINGLE_W,
    Bar,
    Key,
    Mark,
    Rows,
    figure,
    finite,
    hbars,
    panel,
    x_title,
)
from costmodel.report.memo.labels import chart_label
from costmodel.report.memo.svg import (
    AXIS,
    INK,
    MUTED,
    SIZE,
    Canvas,
    Scale,
    nice_domain,
    num,
    shorten,
    text_width,
    tick_width,
)
from costmodel.report.memo.text_charts import CHART, LINE_LABELS


def _names(model: Model, lang: str) -> list[str]:
    """The tiers' short names (:func:`~costmodel.report.memo.labels.chart_label`)."""
    return [shorten(chart_label(model, t, lang), 22) for t in model.tiers]


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
        for i, v in enumerate(finite(values)):
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
    npv = model.summary()["npv"].to_numpy(dtype=float)
    div, unit = f.money_scale(np.nanmax(np.abs(npv)) if len(npv) else 0, lang, cur)
    vals = finite(npv) / div
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
    s = model.summary()
    gpus = s["gpus"].to_numpy(float)
    per_gpu = {c: finite(s[f"capex_{c}"].to_numpy(float) / gpus) for c in CAPEX_LINES}
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
    """Opex per operating year stacked by line item; one panel (own scale) per tier,
    each tier's first full operating year (summary ``opex_full_year_number``) marked."""
    cur = model.assumptions.currency
    t, lines = CHART[lang], LINE_LABELS[lang]
    years = model.months // 12
    data = {}
    for tier in model.tiers:
        by_year = model.opex_by_year(tier)
        data[tier] = {c: by_year[c].to_numpy() for c in OPEX_LINES}
    s = model.summary()
    used = [c for c in OPEX_LINES if any(np.any(d[c]) for d in data.values())]
    panels = []
    for k, (tier, name) in enumerate(zip(model.tiers, _names(model, lang), strict=True)):
        cols = [data[tier][c] for c in used]
        up = sum((np.clip(finite(v), 0, None) for v in cols), np.zeros(years))
        down = sum((np.clip(finite(v), None, 0) for v in cols), np.zeros(years))
        div, unit = f.money_scale(max(up.max(initial=0), -down.min(initial=0)), lang, cur)
        c, top, bottom = panel(
            name, t["opex_axis"].format(unit=unit), f"{prefix}-{k}", f"{t['opex_title']}: {name}"
        )
        number = s.loc[tier, "opex_full_year_number"]
        full = years + 1 if f.is_empty(number) else int(number)  # none: no mark
        room = up[full - 1] * 1.3 if full <= years else 0.0  # for the mark of that year
        lo, hi, yt = nice_domain(down.min(initial=0) / div, max(up.max(initial=0), room) / div, 4)
        ys = Scale(lo, hi, bottom, top)
        x0, x1 = tick_width(yt) + 8, PANEL_W - 4
        c.y_axis(ys, x0, x1, yt)
        band = _stacked_columns(
            c, [(line, COLORS[line], data[tier][line] / div) for line in used], ys, x0, x1
        )
        c.line(x0, ys(0), x1, ys(0), AXIS, 0.8)
        if full <= years:  # methodology §4: the year the summary's opex is of
            _mark_full_year(c, x0 + (full - 0.5) * band, ys(up[full - 1] / div), (top, x0, x1), t)
        _year_ticks(c, years, x0, band, bottom)
        x_title(c, t["year"], x0, x1)
        panels.append(c)
    return figure(panels, [Key(lines[c], COLORS[c]) for c in used], panels=True)


def _mark_full_year(
    c: Canvas, x: float, column_top: float, frame: tuple[float, float, float], t: dict
) -> None:
    """A dot above the column of the first full operating year at ``x`` and its name
    (``frame``: the plot's top and its left and right ends), kept inside the plot."""
    top, x0, x1 = frame
    y = max(column_top - 6, top + 4)
    c.circle(x, y, 3, INK, cls="full-year")
    text = t["full_year"]
    half = text_width(text) / 2
    ty = y - 11 if y - 11 > top + 6 else y + 12
    c.text(min(max(x, x0 + half), x1 - half), ty, text, anchor="middle", cls="note", halo=True)


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


def _clear_spot(
    curve: tuple[np.ndarray, np.ndarray],
    text: str,
    spots: list[tuple[float, float, str]],
) -> tuple[float, float, str]:
    """The first of ``spots`` (x, y of the text's middle, anchor) where ``text``
    does not touch the polyline ``curve`` (pixels: a segment whose x range meets the
    text's and whose y range meets its height, 1.3 x the font size), else the first
    spot."""
    w = text_width(text)
    px, py = curve
    for x, y, anchor in spots:
        left = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
        a, b, top, low = left - 2, left + w + 2, y - 0.65 * SIZE, y + 0.65 * SIZE
        lo_x, hi_x = np.minimum(px[:-1], px[1:]), np.maximum(px[:-1], px[1:])
        lo_y, hi_y = np.minimum(py[:-1], py[1:]), np.maximum(py[:-1], py[1:])
        hit = (hi_x >= a) & (lo_x <= b) & (hi_y >= top) & (lo_y <= low)
        if not hit.any():
            return x, y, anchor
    return spots[0]


def cash_chart(model: Model, lang: str, prefix: str = "cash") -> str:
    """Cumulative FCF per tier (own scale); payback marked or 'no payback' noted."""
    cur = model.assumptions.currency
    t = CHART[lang]
    s = model.summary()
    years = model.months / 12
    panels = []
    for k, (tier, name) in enumerate(zip(model.tiers, _names(model, lang), strict=True)):
        cum = finite(model.cumulative_fcf(tier))
        div, unit = f.money_scale(np.abs(cum).max(initial=0), lang, cur)
        c, top, bottom = panel(
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
        curve = (x0 + months * xs.k, ys.r0 + (cum / div - ys.d0) * ys.k)
        if f.is_empty(pb):
            # payback counts no terminal value: a line that ends above 0 only through it
            text = t["no_payback_tv"] if cum[-1] > 0 else t["no_payback"]
            spots = [(x1, top + 15, "end"), ((x0 + x1) / 2, top + 15, "middle")]
            spots += [(x1, bottom - 8, "end"), ((x0 + x1) / 2, bottom - 8, "middle")]
            tx, ty, anchor = _clear_spot(curve, text, spots)
            c.text(tx, ty, text, anchor=anchor, fill=NEG, cls="note", halo=True)
        else:
            m = min(int(round(float(pb) * 12)), len(cum) - 1)
            mx, my = xs(float(pb)), ys(cum[m] / div)
            c.circle(mx, my, 3.5, POS, cls="payback")
            text = t["payback"].format(years=f.years(pb, lang))
            half = text_width(text) / 2
            cx = min(max(mx, x0 + half), x1 - half)
            up, down = max(my - 11, top + 8), min(my + 15, bottom - 4)
            spots = [(cx, up, "middle"), (mx - 6, up, "end"), (mx - 6, down, "end")]
            spots += [(cx, down, "middle")]
            tx, ty, anchor = _clear_spot(curve, text, spots)
            c.text(tx, ty, text, anchor=anchor, fill="#1d5c33", cls="note", halo=True)
        x_title(c, t["year"], x0, x1)
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
    s = model.summary()
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
