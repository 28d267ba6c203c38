"""The pieces the memo's charts are drawn with, on the SVG writer of
:mod:`~costmodel.report.memo.svg`: the palette and sizes, the HTML legend and figure
(:class:`Key`, :func:`legend`, :func:`figure`), horizontal bars in rows (:class:`Bar`,
:class:`Mark`, :class:`Rows`, :func:`hbars`) and the panel with a vertical value axis
(:func:`panel`, :func:`x_title`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from costmodel.catalogue.items import colours
from costmodel.report.memo.svg import (
    INK,
    MUTED,
    SIZE,
    TITLE,
    Canvas,
    Scale,
    esc,
    fit,
    fit_labels,
    text_width,
    wrap,
)

#: each line item's colour (:mod:`costmodel.catalogue`)
COLORS = colours()
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


def panel(title: str, unit: str, ident: str, label: str) -> tuple[Canvas, float, float]:
    """A panel with a vertical value axis: bold ``title``, ``unit`` under it; returns
    the canvas and the plot's top and bottom."""
    c = Canvas(PANEL_W, PANEL_H, label, ident)
    c.text(0, 9, fit(title, PANEL_W, TITLE), size=TITLE, bold=True, cls="title")
    c.text(0, 26, fit(unit, PANEL_W), fill=MUTED, cls="unit")
    return c, 42.0, PANEL_H - 34


def x_title(c: Canvas, text: str, x0: float, x1: float) -> None:
    c.text((x0 + x1) / 2, PANEL_H - 7, fit(text, PANEL_W), anchor="middle", fill=MUTED, cls="axis")


def finite(a: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(a), a, 0.0)
