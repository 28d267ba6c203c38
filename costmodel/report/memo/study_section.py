"""The memo's study (methodology §34): where and how big, with what odds. A heat
map of P(NPV > 0) by site (rows) and GPU count (columns) from ``Analysis.study``,
the best cells framed, and sentences filled by the cells' numbers: the best cell
by the odds and by the median NPV (one sentence when they are the same cell), the
range of the odds over sizes at each site, and the cells left out as infeasible.
Nothing is recomputed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from markupsafe import Markup

from costmodel.analysis.study import OWN_SITE
from costmodel.report.memo import numbers as f
from costmodel.report.memo.chartkit import Key, figure
from costmodel.report.memo.context import Facts, say
from costmodel.report.memo.labels import tier_label
from costmodel.report.memo.svg import MUTED, SIZE, Canvas, fit, text_width

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis
    from costmodel.analysis.study import StudyResult

STUDY: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Where and how big: the odds by site and size",
        "intro": "{label} rebuilt at {k} sizes from {g_lo} to {g_hi} GPUs at {sites}, "
        "each cell run on the same {n} draws of every ranged input (seed {seed}), so the "
        "cells differ only by their build. The map gives the probability that NPV is "
        "above zero in each cell; framed cells are the best.",
        "title": "Probability of NPV > 0 by site and GPUs",
        "caption": "{label}; {n} draws per cell, seed {seed}. Cached results of the simulation.",
        "gpus": "GPUs",
        "own": "the assumed site",
        "one_site": "one site",
        "sites": "{s} sites",
        "best_both": "{site} at {g} GPUs has both the best odds, P(NPV > 0) {p}, and the "
        "best median NPV, {m}.",
        "best_p": "The best odds: {site} at {g} GPUs, P(NPV > 0) {p} (median NPV {m}).",
        "best_m": "The best median NPV: {site} at {g} GPUs, {m} (P(NPV > 0) {p}).",
        "none_positive": "No draw of any cell has NPV above zero: at every site and size the "
        "simulated NPV stays negative. The least negative median is {m}, {site} at {g} GPUs.",
        "spread": "At {site}, P(NPV > 0) runs from {p_lo} at {g_lo} GPUs to {p_hi} at {g_hi} GPUs.",
        "flat": "At {site}, P(NPV > 0) is {p} at every size.",
        "infeasible": "{k} cell(s) are infeasible and left out: {cells}.",
        "cell": "{site} at {g} GPUs ({why})",
        "key_best": "best cell",
        "key_out": "infeasible",
        "sep": "; ",
    },
    "zh": {
        "heading": "选址与规模：各站点、各规模的盈利概率",
        "intro": "将{label}按 {g_lo} 至 {g_hi} 卡的 {k} 种规模、在{sites}重新测算，"
        "每个单元格使用所有区间输入相同的 {n} 次抽样（随机种子 {seed}），"
        "因此单元格之间的差别只来自建设方案。热力图给出各单元格净现值为正的概率；加框单元格为最优。",
        "title": "净现值为正的概率：按站点与卡数",
        "caption": "{label}；每个单元格 {n} 次抽样，随机种子 {seed}。为模拟结果的缓存值。",
        "gpus": "卡数",
        "own": "假设站点",
        "one_site": "一个站点",
        "sites": " {s} 个站点",
        "best_both": "{site}、{g} 卡的净现值为正的概率最高（{p}），净现值中位数也最高（{m}）。",
        "best_p": "净现值为正的概率最高：{site}、{g} 卡，为 {p}（净现值中位数 {m}）。",
        "best_m": "净现值中位数最高：{site}、{g} 卡，为 {m}（净现值为正的概率 {p}）。",
        "none_positive": "所有单元格的抽样中净现值均未大于零：各站点、各规模的模拟净现值均为负。"
        "亏损最小的中位数为 {m}（{site}、{g} 卡）。",
        "spread": "{site}：净现值为正的概率在 {g_lo} 卡时为 {p_lo}，在 {g_hi} 卡时为 {p_hi}。",
        "flat": "{site}：各规模下净现值为正的概率均为 {p}。",
        "infeasible": "{k} 个单元格不可行，未纳入比较：{cells}。",
        "cell": "{site}、{g} 卡（{why}）",
        "key_best": "最优单元格",
        "key_out": "不可行",
        "sep": "；",
    },
}

LOW, MID, HIGH = (196, 85, 77), (247, 247, 247), (90, 163, 107)  # 0, 0.5, 1
OUT = "#d9d9d9"
CELL_W, CELL_H = 58.0, 26.0
MIN_CELL_W = 6.0
MAP_W = 640.0  # the map's width when its columns would not fit at CELL_W


def colour(p: float) -> str:
    """The fill of a cell of probability ``p``: red at 0, near white at 0.5, green at 1."""
    lo, hi, t = (LOW, MID, 2 * p) if p <= 0.5 else (MID, HIGH, 2 * p - 1)
    rgb = [round(a + (b - a) * t) for a, b in zip(lo, hi, strict=True)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def site_label(a: Any, site: str, lang: str) -> str:
    """A site's readable name: its ``label`` (``label_zh`` in Chinese) from the
    ``sites`` catalogue, else its key; the implicit site in words."""
    if site == OWN_SITE:
        return STUDY[lang]["own"]
    entry = (getattr(a, "sites", None) or {}).get(site)
    text = getattr(entry, "label_zh" if lang == "zh" else "label", None) if entry else None
    return str(text or site)


def heat_map(res: StudyResult, labels: dict[str, str], lang: str, ident: str) -> str:
    """The SVG heat map of P(NPV > 0): sites down, GPU counts across, the share in
    each cell, the best cells framed, infeasible cells grey."""
    T = STUDY[lang]
    cells = res.cells.set_index(["site", "gpus"])
    left = min(max(text_width(v) for v in labels.values()) + 12, 180.0)
    top = 22.0
    k = len(res.gpus)
    cw = min(CELL_W, max(MIN_CELL_W, (MAP_W - left - 8) / k))
    shown = cw >= text_width("100%") + 8  # the share written in the cell
    every = max(1, math.ceil((text_width(f"{max(res.gpus):,}") + 6) / cw))
    width = left + cw * k + 8
    height = top + CELL_H * len(res.sites) + 30
    c = Canvas(width, height, T["title"], ident)
    best = {res.best_probability, res.best_median} - {None}
    for j, g in enumerate(res.gpus):
        if j % every == 0:
            c.text(left + (j + 0.5) * cw, top - 10, f"{g:,}", anchor="middle", fill=MUTED)
    for i, site in enumerate(res.sites):
        y = top + i * CELL_H
        c.text(left - 6, y + CELL_H / 2, fit(labels[site], left - 10), anchor="end")
        for j, g in enumerate(res.gpus):
            x = left + j * cw
            row = cells.loc[(site, g)]
            p = float(row["p_npv_positive"])
            ok = bool(row["feasible"]) and np.isfinite(p)
            c.rect(x + 0.5, y + 1, cw - 1, CELL_H - 2, colour(p) if ok else OUT, cls="cell")
            if shown:
                text = f.pct(p, 0) if ok else "\u2014"
                c.text(x + cw / 2, y + CELL_H / 2, text, anchor="middle", cls="share")
        for j, g in enumerate(res.gpus):
            if (site, g) in best:
                c.rect(
                    left + j * cw + 1,
                    y + 1.5,
                    cw - 2,
                    CELL_H - 3,
                    "none",
                    cls="best",
                    extra=' stroke="#1c2630" stroke-width="2.5"',
                )
    bottom = top + CELL_H * len(res.sites)
    c.text(left + cw * k / 2, bottom + 16, T["gpus"], anchor="middle", size=SIZE)
    keys = [Key(T["key_best"], "#1c2630", "line")]
    if not bool(res.cells["feasible"].all()):
        keys.append(Key(T["key_out"], OUT))
    return figure([c], keys)


def sentences(
    res: StudyResult, labels: dict[str, str], lang: str, money: Callable[[float], str]
) -> list[Markup]:
    """The study's sentences in ``lang`` (module docstring), money written by ``money``."""
    T = STUDY[lang]
    df = res.cells.set_index(["site", "gpus"])
    out: list[Markup] = []

    def at(key: tuple[str, int]) -> dict[str, str]:
        r = df.loc[key]
        return dict(
            site=labels[key[0]],
            g=f"{key[1]:,}",
            p=f.pct(float(r["p_npv_positive"])),
            m=money(float(r["npv_p50"])),
        )

    ok = res.cells[res.cells["feasible"]]
    if res.best_probability is not None and res.best_median is not None:
        if float(ok["p_npv_positive"].max()) == 0.0:
            out.append(say(T["none_positive"], **at(res.best_median)))
        elif res.best_probability == res.best_median:
            out.append(say(T["best_both"], **at(res.best_probability)))
        else:
            out.append(say(T["best_p"], **at(res.best_probability)))
            out.append(say(T["best_m"], **at(res.best_median)))
    if len(res.gpus) > 1:
        for site in res.sites:
            rows = ok[ok["site"] == site]
            if rows.empty:
                continue
            p = rows["p_npv_positive"].to_numpy(float)
            lo, hi = rows.iloc[int(np.argmin(p))], rows.iloc[int(np.argmax(p))]
            if p.min() == p.max():
                out.append(say(T["flat"], site=labels[site], p=f.pct(float(p[0]))))
                continue
            fields = dict(
                site=labels[site],
                p_lo=f.pct(float(lo["p_npv_positive"])),
                g_lo=f"{int(lo['gpus']):,}",
                p_hi=f.pct(float(hi["p_npv_positive"])),
                g_hi=f"{int(hi['gpus']):,}",
            )
            out.append(say(T["spread"], **fields))
    out_cells = res.cells[~res.cells["feasible"]]
    if not out_cells.empty:
        listed = T["sep"].join(
            T["cell"].format(
                site=labels[str(r["site"])], g=f"{int(r['gpus']):,}", why=r["infeasible_reason"]
            )
            for _, r in out_cells.iterrows()
        )
        out.append(say(T["infeasible"], k=len(out_cells), cells=listed))
    return out


def study(x: Facts, an: Analysis) -> dict[str, Any] | None:
    """Context of the study part of "What has to be true" (None without a study)."""
    res = an.study
    if res is None:
        return None
    T = STUDY[x.lang]
    a = x.model.assumptions
    labels = {s: site_label(a, s, x.lang) for s in res.sites}
    label = tier_label(x.model, res.tier, x.lang)
    n = f"{res.n:,}"
    fields = dict(
        label=label,
        k=len(res.gpus),
        g_lo=f"{min(res.gpus):,}",
        g_hi=f"{max(res.gpus):,}",
        sites=T["one_site"] if len(res.sites) == 1 else T["sites"].format(s=len(res.sites)),
        n=n,
        seed=res.seed,
    )
    return dict(
        heading=T["heading"],
        intro=say(T["intro"], **fields),
        title=T["title"],
        caption=say(T["caption"], label=label, n=n, seed=res.seed),
        chart=Markup(heat_map(res, labels, x.lang, f"study-{x.lang}")),
        sentences=sentences(res, labels, x.lang, x.money),
        grid=_grid_rows(res, labels),
    )


def _grid_rows(res: StudyResult, labels: dict[str, str]) -> list[dict[str, Any]]:
    """The map's numbers as table rows (for readers and tests): per site, the share
    in each cell, ``""`` where infeasible."""
    g = res.grid()
    feasible = res.grid("feasible")
    rows = []
    for site in res.sites:
        cells = [
            f.pct(float(g.at[site, n]), 0) if bool(feasible.at[site, n]) else "\u2014"
            for n in res.gpus
        ]
        rows.append(dict(site=site, label=labels[site], cells=cells))
    return rows
