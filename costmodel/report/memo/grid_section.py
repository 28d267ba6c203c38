"""The memo's price x utilization grid (methodology §9.2), in "What has to be
true": per tier a table of NPV by year-1 price (rows, highest first) and
utilization (columns) from ``Analysis.grid``, cells shaded by sign, the
break-even contour drawn as a border between cells of different sign, the
interpolated break-even price per utilization in the last row, and one sentence
per tier: the price needed at the lowest utilization that can break even on the
grid, at the assumed utilization and at the highest. Nothing is recomputed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from markupsafe import Markup

from costmodel.core.metrics import is_empty
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, say
from costmodel.report.memo.labels import tier_label

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis

GRID: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Price and utilization together",
        "intro": "Break-even moves one input at a time; a CFO decides on price and "
        "utilization at once. Each table gives a tier's NPV at a year-1 price "
        "per GPU-hour (rows) and a utilization (columns), every other input at its value. "
        "Green cells have NPV above 0, red ones at or below 0; the heavy line is the "
        "break-even contour; the framed cell is the base case. The last row gives the "
        "break-even price at each utilization, interpolated between the grid prices.",
        "corner": "price \\ utilization",
        "caption": "{label}: NPV ({unit})",
        "be_row": "break-even price",
        "none": "none",
        "at": "{p} at {u}",
        "need": "{label} needs a year-1 price of {pairs} utilization (it assumes {pb} at {ub}).",
        "below": " Below {u} utilization no price up to {top} breaks even.",
        "never": "{label} does not break even anywhere on the grid (prices up to {top}, "
        "utilization up to {u}).",
        "always": "{label} breaks even everywhere on the grid (prices from {bottom}, "
        "utilization from {u}).",
        "sep": ", ",
        "last": " and ",
    },
    "zh": {
        "heading": "价格与利用率的联合影响",
        "intro": "盈亏平衡分析每次只变动一个输入，而财务决策需要同时考虑价格和利用率。"
        "下表列出各档次在不同首年每卡时价格（行）与利用率（列）下的净现值，"
        "其余输入保持取值。绿色单元格净现值大于零，红色不大于零；粗线为盈亏平衡线；"
        "加框单元格为基准情形。最后一行为各利用率下的盈亏平衡价格，按相邻网格价格线性插值。",
        "corner": "价格 \\ 利用率",
        "caption": "{label}：净现值（{unit}）",
        "be_row": "盈亏平衡价格",
        "none": "无",
        "at": "利用率 {u} 时为 {p}",
        "need": "{label}所需的首年价格：{pairs}（假设利用率 {ub}、价格 {pb}）。",
        "below": "利用率低于 {u} 时，价格达到 {top}仍无法实现盈亏平衡。",
        "never": "{label}在整个网格内均未达到盈亏平衡（价格最高 {top}，利用率最高 {u}）。",
        "always": "{label}在整个网格内均已盈亏平衡（价格最低 {bottom}，利用率最低 {u}）。",
        "sep": "；",
        "last": "；",
    },
}


def _cells(x: Facts, g: pd.DataFrame, div: float, k: float) -> list[dict[str, Any]]:
    """Rows of one tier's table, highest price first; each row's price as sold in
    year 1 (the input's times ``k``, :attr:`Facts.sold_factor`)."""
    rows = []
    for p, row in g.sort_values("utilization").groupby("price_per_gpu_hour", sort=False):
        cells = []
        for _, r in row.iterrows():
            v = float(r["npv"]) / div
            classes = ["pos" if r["positive"] else "neg"]
            classes += ["edge-top"] if r["edge_price"] else []
            classes += ["edge-right"] if r["edge_utilization"] else []
            classes += ["base"] if r["base"] else []
            text = f.with_sign(v, f.magnitude(abs(v), ",.1f"))
            cells.append(dict(text=text, cls=" ".join(classes), npv=float(r["npv"])))
        rows.append(dict(price=x.price(float(p) * k), cells=cells))
    return rows[::-1]


def _sentence(x: Facts, tier: str, g: pd.DataFrame) -> Markup:
    """What price the tier needs at which utilization, from the grid (prices as sold
    in year 1, :attr:`Facts.sold_factor`)."""
    T = GRID[x.lang]
    k = x.sold_factor.get(tier, 1.0)
    label = tier_label(x.model, tier, x.lang)
    be = g.groupby("utilization")["break_even_price"].first()
    base = g[g["base"]].iloc[0]
    ub, pb = float(base["utilization"]), float(base["price_per_gpu_hour"]) * k
    top, bottom = float(g["price_per_gpu_hour"].max()) * k, float(g["price_per_gpu_hour"].min()) * k
    found = [(float(u), float(p) * k) for u, p in be.items() if not is_empty(p)]
    if not found:
        key = "always" if bool(g["positive"].all()) else "never"
        u = float(g["utilization"].min() if key == "always" else g["utilization"].max())
        return say(T[key], label=label, top=x.price(top), bottom=x.price(bottom), u=f.pct(u))
    picks = list(dict.fromkeys([found[0], *[c for c in found if c[0] == ub], found[-1]]))
    parts = [T["at"].format(p=x.price(p), u=f.pct(u)) for u, p in picks]
    pairs = T["sep"].join(parts[:-1]) + T["last"] + parts[-1] if len(parts) > 1 else parts[0]
    text = say(T["need"], label=label, pairs=pairs, pb=x.price(pb), ub=f.pct(ub))
    lower = g[g["utilization"] < found[0][0]]
    if not lower.empty and not bool(lower["positive"].any()):
        text += say(T["below"], u=f.pct(found[0][0]), top=x.price(top))
    return text


def grid(x: Facts, an: Analysis) -> dict[str, Any] | None:
    """Context of the grid part of "What has to be true" (None without a grid)."""
    df = an.grid
    if df is None or df.empty:
        return None
    T = GRID[x.lang]
    tables = []
    for t in x.model.tiers:
        g = df[df["tier"] == t]
        if g.empty:
            continue
        utils = sorted(g["utilization"].unique())
        div, unit = f.money_scale(float(np.nanmax(np.abs(g["npv"]))), x.lang, x.currency)
        label = tier_label(x.model, t, x.lang)
        be = g.groupby("utilization")["break_even_price"].first()
        k = x.sold_factor.get(t, 1.0)  # the grid's prices as sold in year 1
        tables.append(
            dict(
                tier=t,
                label=label,
                caption=say(T["caption"], label=label, unit=unit),
                utils=[f.pct(u) for u in utils],
                rows=_cells(x, g, div, k),
                be=[T["none"] if is_empty(be[u]) else x.price(be[u] * k) for u in utils],
                sentence=_sentence(x, t, g),
            )
        )
    return dict(t=T, intro=T["intro"], tables=tables)
