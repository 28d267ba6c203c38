"""The memo's scale curve (methodology §13): every tier rebuilt from an eighth to
eight times its own first deployment (``Analysis.sweeps``), the levelized cost
per GPU-hour and the capex per GPU against GPUs on a log axis, the steps of
scale class and network levels marked as dashed verticals, each option placed on
its curve at its own size; one sentence per tier says where its steps are and
what the cost is at the ends and at the option. Nothing is recomputed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from markupsafe import Markup

from costmodel.report.memo import numbers as f
from costmodel.report.memo.chartkit import PANEL_W, Key, figure, panel, x_title
from costmodel.report.memo.context import Facts, say
from costmodel.report.memo.labels import chart_label, tier_label
from costmodel.report.memo.sites_section import site_label
from costmodel.report.memo.svg import MUTED, Scale, esc, nice_domain, num, tick_width

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis
    from costmodel.inputs.model import Model

LINE_COLORS = ("#2f5d8a", "#e08e2b", "#5aa36b", "#9b6fb0", "#c4554d", "#6fb0b0")

SWEEP: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Cost against scale",
        "intro": "Each option rebuilt at other sizes, from an eighth to eight times its own "
        "GPUs (no stages, storage in proportion, the network from its share or design, the "
        "staff as assumed): cost per GPU-hour and capex per GPU on a log axis of GPUs. Dots "
        "are the options; dashed lines are steps of scale class, network levels or design.",
        "cost": "Levelized cost per GPU-hour",
        "capex": "Capex per GPU",
        "gpus": "GPUs (log scale)",
        "steps": "{label}: steps at {steps}; the cost per GPU-hour is {c_lo} at "
        "{g_lo} GPUs, {c0} at its own {g0} and {c_hi} at {g_hi}.",
        "no_steps": "{label}: no step between {g_lo} and {g_hi} GPUs; the cost per GPU-hour "
        "is {c_lo} at {g_lo} GPUs, {c0} at its own {g0} and {c_hi} at {g_hi}.",
        "sites": "{label} at each site of the catalogue, the same sizes (one line per site): "
        "at its own {g0} GPUs the cost per GPU-hour is {costs}.",
        "site_cost": "{cost} at {site}",
        "class": "scale class",
        "levels": "network levels",
        "design": "design rebuilt",
        "step": "{g} GPUs ({what}: cost per GPU-hour {c_was} -> {c_now})",
        "and": " and ",
    },
    "zh": {
        "heading": "成本与规模",
        "intro": "将每个方案按其自身卡数的八分之一至八倍重新测算（不分期，存储按比例，"
        "网络按比例或按设计，人员按假设）：按卡数对数坐标列示每卡时成本与每卡初始投资。"
        "圆点为各方案；虚线为规模等级、网络层数或设计方案的跃变。",
        "cost": "平准化每卡时成本",
        "capex": "每卡初始投资",
        "gpus": "卡数（对数坐标）",
        "steps": "{label}：跃变位于 {steps}；每卡时成本在 {g_lo} 卡时为 {c_lo}，"
        "在自身 {g0} 卡时为 {c0}，在 {g_hi} 卡时为 {c_hi}。",
        "no_steps": "{label}：{g_lo} 至 {g_hi} 卡之间无跃变；每卡时成本在 {g_lo} 卡时为 {c_lo}，"
        "在自身 {g0} 卡时为 {c0}，在 {g_hi} 卡时为 {c_hi}。",
        "sites": "{label}在目录中各站点按相同规模重新测算（每个站点一条线）：在自身 {g0} 卡时，"
        "每卡时成本为{costs}。",
        "site_cost": "{site} {cost}",
        "class": "规模等级",
        "levels": "网络层数",
        "design": "设计方案重构",
        "step": "{g} 卡（{what}：每卡时成本 {c_was} -> {c_now}）",
        "and": "、",
    },
}


#: the words of each mark of a sweep's ``change`` column
STEP_WORDS = {"scale_class": "class", "network_levels": "levels", "design": "design"}


def _log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of 2 from ``lo`` to ``hi``, every other one when there are many."""
    p = [2.0**k for k in range(math.ceil(math.log2(lo)), math.floor(math.log2(hi)) + 1)]
    return p[::2] if len(p) > 6 else p


def _panel(
    lang: str,
    currency: str,
    sweeps: dict[str, pd.DataFrame],
    col: str,
    key_id: str,
    colors: dict[str, str],
) -> Any:
    T = SWEEP[lang]
    cur = f.currency_unit(lang, currency)
    unit = cur if col == "capex" else (f"{cur}/卡时" if lang == "zh" else f"{cur}/GPU-h")
    c, top, bottom = panel(T[col], unit, key_id, T[col])
    key = "cost_per_gpu_hour" if col == "cost" else "capex_per_gpu"
    values = np.concatenate([df[key].to_numpy(float) for df in sweeps.values()])
    values = values[np.isfinite(values)]
    lo, hi, yt = nice_domain(0.0, float(values.max()) if values.size else 1.0, 4)
    ys = Scale(lo, hi, bottom, top)
    x0, x1 = tick_width(yt) + 8, PANEL_W - 10
    c.y_axis(ys, x0, x1, yt)
    g_all = np.concatenate([df["gpus"].to_numpy(float) for df in sweeps.values()])
    xs = Scale(math.log2(g_all.min()), math.log2(g_all.max()), x0, x1)
    for v in _log_ticks(g_all.min(), g_all.max()):
        c.line(xs(math.log2(v)), bottom, xs(math.log2(v)), bottom + 3, MUTED, 0.8, cls="mark")
        label = f"{v:,.0f}"
        # keep the label inside the drawing and clear of the y axis's labels
        half = len(label) * 3.2
        at = min(max(xs(math.log2(v)), x0 - 2 + half), PANEL_W - half)
        c.text(at, bottom + 12, label, anchor="middle", fill=MUTED, cls="tick")
    c.line(x0, bottom, x1, bottom, MUTED, 0.8)
    for t, df in sweeps.items():
        color = colors[t]
        g, v = df["gpus"].to_numpy(float), df[key].to_numpy(float)
        ok = np.isfinite(v)  # an empty metric (no GPU-hours sold) is not drawn
        pts = " L".join(
            f"{num(xs(math.log2(a)))},{num(ys(b))}" for a, b in zip(g[ok], v[ok], strict=True)
        )
        if pts:
            c.path(
                "M" + pts,
                stroke=color,
                extra=f' stroke-width="1.6" class="line" data-tier="{esc(t)}"',
            )
        for j in np.flatnonzero(df["change"].to_numpy() != ""):
            sx = xs((math.log2(g[j - 1]) + math.log2(g[j])) / 2)
            c.line(sx, top, sx, bottom, color, 0.9, dash="3 2", cls="step")
        own = df[df["gpus"] == df.attrs["first_gpus"]]
        if not own.empty and np.isfinite(own[key].iloc[0]):
            c.circle(
                xs(math.log2(own["gpus"].iloc[0])), ys(own[key].iloc[0]), 3.5, color, cls="option"
            )
    x_title(c, T["gpus"], x0, x1)
    return c


def _sentence(x: Facts, tier: str, df: pd.DataFrame) -> Markup:
    T = SWEEP[x.lang]
    steps = []
    cost = df["cost_per_gpu_hour"].to_numpy(float)
    for j in np.flatnonzero(df["change"].to_numpy() != ""):
        what = T["and"].join(T[STEP_WORDS[w]] for w in str(df["change"].iloc[j]).split(", "))
        steps.append(
            T["step"].format(
                g=f"{int(df['gpus'].iloc[j]):,}",
                what=what,
                c_was=x.price(cost[j - 1]),
                c_now=x.price(cost[j]),
            )
        )
    g0 = df.attrs["first_gpus"]
    own = df[df["gpus"] == g0]
    fields = dict(
        label=tier_label(x.model, tier, x.lang),
        g_lo=f"{int(df['gpus'].iloc[0]):,}",
        g_hi=f"{int(df['gpus'].iloc[-1]):,}",
        g0=f"{g0:,}",
        c_lo=x.price(df["cost_per_gpu_hour"].iloc[0]),
        c_hi=x.price(df["cost_per_gpu_hour"].iloc[-1]),
        c0=x.price(own["cost_per_gpu_hour"].iloc[0]) if not own.empty else f.EMPTY,
    )
    if not steps:
        return say(T["no_steps"], **fields)
    return say(T["steps"], steps=T["and"].join(steps), **fields)


def sweep_chart(
    model: Model, lang: str, sweeps: dict[str, pd.DataFrame], prefix: str = "sweep"
) -> str:
    """The scale curve of ``sweeps`` (tier -> rows of
    :func:`costmodel.analysis.sweep.sweep`, tiers of ``model``): two panels, cost
    per GPU-hour and capex per GPU, each tier in the colour of its place among the
    model's tiers; ``prefix`` names the panels' ids (``prefix-0``, ``prefix-1``)."""
    colors = {t: LINE_COLORS[i % len(LINE_COLORS)] for i, t in enumerate(model.tiers)}
    keys = [Key(chart_label(model, t, lang), colors[t], "line") for t in sweeps]
    cur = model.assumptions.currency
    panels = [
        _panel(lang, cur, sweeps, col, f"{prefix}-{k}", colors)
        for k, col in enumerate(("cost", "capex"))
    ]
    return figure(panels, keys, True)


def sweep(x: Facts, an: Analysis) -> dict[str, Any] | None:
    """Context of the part "Cost against scale" (None without sweeps)."""
    sweeps = {t: an.sweeps[t] for t in x.model.tiers if an.sweeps and t in an.sweeps}
    if not sweeps:
        return None
    T = SWEEP[x.lang]
    return dict(
        heading=T["heading"],
        intro=T["intro"],
        chart=Markup(sweep_chart(x.model, x.lang, sweeps)),
        sentences=[dict(tier=t, text=_sentence(x, t, df)) for t, df in sweeps.items()],
        **_by_site(x, sweeps),
    )


def _by_site(x: Facts, sweeps: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """With two or more sites (methodology §15): the chosen option's sweep at each
    site, one line per site (``site_chart``) and its sentence (``site_text``)."""
    from costmodel.analysis.sitecompare import fitting_tiers
    from costmodel.analysis.sweep import sweep as sweep_at

    tier = str(x.choice["tier"])
    # the sites that hold the option at its own size (a leased hall above its grid is
    # refused by validation, methodology §29)
    a = x.model.assumptions
    names = [s for s in a.sites if tier in fitting_tiers(a, s)]
    if len(names) < 2 or tier not in sweeps:
        return {"site_chart": None, "site_text": None}
    counts = [int(g) for g in sweeps[tier]["gpus"]]
    both = x.model.derived(  # the same in each language's memo
        "sweep_at_sites",
        (tier, tuple(counts), tuple(names)),
        lambda: sweep_at(x.model, tier, counts, sites=names),
    )
    per = {}
    for s in names:
        df = both[both["site"] == s].reset_index(drop=True)
        df.attrs.update(both.attrs)
        per[s] = df
    labels = {s: site_label(x.model, s, x.lang) for s in names}
    colors = {s: LINE_COLORS[i % len(LINE_COLORS)] for i, s in enumerate(names)}
    keys = [Key(labels[s], colors[s], "line") for s in names]
    cur = x.model.assumptions.currency
    panels = [
        _panel(x.lang, cur, per, col, f"sweep-site-{k}", colors)
        for k, col in enumerate(("cost", "capex"))
    ]
    g0 = both.attrs["first_gpus"]
    T = SWEEP[x.lang]
    costs = []
    for s in names:
        own = per[s][per[s]["gpus"] == g0]["cost_per_gpu_hour"]
        cost = x.price(float(own.iloc[0])) if len(own) else f.EMPTY
        costs.append(say(T["site_cost"], cost=cost, site=labels[s]))
    joined = Markup("、" if x.lang == "zh" else ", ").join(costs)
    text = say(T["sites"], label=tier_label(x.model, tier, x.lang), g0=f"{g0:,}", costs=joined)
    return dict(site_chart=Markup(figure(panels, keys, True)), site_text=text)
