"""The memo's charts of the analysis and of failures, drawn from numbers handed in by
their sections (:mod:`~costmodel.report.memo.reliability`,
:mod:`~costmodel.report.memo.analysis`), each returning the figure's HTML as
:mod:`~costmodel.report.memo.charts` describes:

- :func:`failures_chart`: GPU time lost and its cost a year, as assumed and faster.
- :func:`tornado_chart`: one-at-a-time swings of NPV, largest on top.
- :func:`npv_distribution_chart`: the Monte Carlo distribution of NPV per tier.
- :func:`scenario_chart`: NPV per scenario and tier.
"""

from __future__ import annotations

import math

import numpy as np

from costmodel.report.memo import numbers as f
from costmodel.report.memo.chartkit import (
    DARK,
    HIGH_C,
    LIGHT,
    LOW_C,
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
from costmodel.report.memo.svg import (
    Scale,
    nice_domain,
    shorten,
    tick_width,
)
from costmodel.report.memo.text_analysis import TRUE
from costmodel.report.memo.text_reliability import FAILURES


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
    t = FAILURES[lang]
    keys = [Key(t["as_assumed"], DARK), Key(t["faster"].format(factor=factor), LIGHT)]
    money_arr = finite(np.asarray(money, float))
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
                [Bar(0.0, float(finite(np.array([a]))[0]) * mult, DARK, text(a), cls="bar now")],
                [Bar(0.0, float(finite(np.array([b]))[0]) * mult, LIGHT, text(b), cls="bar fast")],
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
    t = TRUE[lang]
    panels = []
    for k, (name, d, q) in enumerate(zip(names, draws, quantiles, strict=True)):
        name = shorten(name, 22)
        v = np.asarray(d, float)
        v = v[np.isfinite(v)]
        div, unit = f.money_scale(np.abs(v).max(initial=0), lang, currency)
        counts, edges = np.histogram(v / div, bins=36)
        share = counts / max(len(v), 1) * 100
        c, top, bottom = panel(name, f"{t['share_axis']} (%)", f"{prefix}-{k}", f"{title}: {name}")
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
        x_title(c, unit, x0, x1)
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
        v = finite(vals) / div
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
