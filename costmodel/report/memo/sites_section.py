"""The memo's first words when the place or the chip policy decides the answer
(methodology §15, §17): the sign of the best option's NPV differs between the
sites of the catalogue, or between the options the policy allows and all of them.

Each site's best option follows the memo's decision rule
(:func:`costmodel.analysis.decision.choose` on NPV, NPV per unit of capex and peak
funding, feasible options only) on the model with every tier moved to that site
(:func:`costmodel.analysis.sitecompare.compare_sites`), among the options the site
can hold (a leased hall's tier above its grid is not an option there); the sentence is written only
when the numbers show a change of sign, and states them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
from markupsafe import Markup

from costmodel.analysis.decision import choose
from costmodel.analysis.sitecompare import compare_sites, fitting_tiers
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import say
from costmodel.report.memo.labels import UserText, tier_label

if TYPE_CHECKING:
    from costmodel.inputs.model import Model
    from costmodel.report.memo.context import Facts

TEXT = {
    "en": {
        "sites": "<strong>Where it is built decides the answer.</strong> {items}.",
        "gain": "At {site} the best option, {label}, returns {irr} (NPV {npv})",
        "loss": "at {site} even the best option, {label}, loses {loss} (NPV {npv})",
        "policy": "<strong>The chip policy decides the answer.</strong> Without it {label} "
        "would be worth building (NPV {npv}, IRR {irr}); with domestic chips only the best "
        "option, {f_label}, loses {f_loss}.",
    },
    "zh": {
        "sites": "<strong>建在哪里决定结论。</strong>{items}。",
        "gain": "在{site}，最佳方案{label}的内部收益率为 {irr}（净现值 {npv}）",
        "loss": "在{site}，即使最佳方案{label}也亏损 {loss}（净现值 {npv}）",
        "policy": "<strong>芯片政策决定结论。</strong>若无此政策，{label}值得建设（净现值 "
        "{npv}，内部收益率 {irr}）；仅用国产芯片时，最佳方案{f_label}亏损 {f_loss}。",
    },
}


def _table(model: Model) -> pd.DataFrame:
    """What :func:`choose` reads, from the summary: npv, pi, peak_funding, feasible."""
    s = model.summary()
    df = pd.DataFrame(
        {
            "npv": s["npv"].astype(float),
            "pi": s["npv"].astype(float) / s["capex"].astype(float).where(s["capex"] > 0),
            "peak_funding": s["peak_funding"].astype(float),
            "feasible": s["feasible"].astype(bool),
        }
    )
    return df


def site_label(model: Model, name: str, lang: str) -> str:
    site = model.assumptions.sites[name]
    text = (site.label_zh or site.label) if lang == "zh" else site.label
    return UserText(text or name)


def _clause(x: Facts, model: Model, site: str, tier: str) -> Markup:
    T = TEXT[x.lang]
    s = model.summary().loc[tier]
    npv = float(s["npv"])
    fields = dict(
        site=site_label(model, site, x.lang),
        label=tier_label(model, tier, x.lang),
        npv=x.money(npv),
        irr=f.pct(float(s["irr"])) if s["irr"] == s["irr"] else f.EMPTY,
        loss=x.money(-npv),
    )
    return say(T["gain" if npv > 0 else "loss"], **fields)


def site_lead(x: Facts) -> list[Markup]:
    """The paragraph on sites when the best option's NPV changes sign across the
    sites of the catalogue (two or more); none otherwise."""
    names = list(x.model.assumptions.sites)
    if len(names) < 2:
        return []
    a = x.model.assumptions
    result = x.model.derived(  # the same in each language's memo
        "fitting_sites", tuple(names), lambda: compare_sites(x.model, names, fitting_only=True)
    )
    best = {}
    for s in names:
        held = fitting_tiers(a, s)  # an option above a site's grid is not one there
        if not held:
            continue
        m = result.models[s]
        t = str(choose(_table(m).loc[held])["tier"])
        best[s] = (m, t, float(m.summary().loc[t, "npv"]))
    names = list(best)
    signs = {npv > 0 for _, _, npv in best.values()}
    if len(signs) < 2:
        return []
    order = sorted(names, key=lambda s: -best[s][2])
    clauses = [_clause(x, best[s][0], s, best[s][1]) for s in order]
    items = Markup("；" if x.lang == "zh" else "; ").join(clauses)
    return [say(TEXT[x.lang]["sites"], items=items)]


def policy_lead(x: Facts) -> list[Markup]:
    """The paragraph on the chip policy when the best of all options is worth
    building and the best feasible one is not; none otherwise."""
    df = _table(x.model)
    if df["feasible"].all() or not df["feasible"].any():
        return []
    free = str(choose(df.assign(feasible=True))["tier"])
    held = str(choose(df)["tier"])
    if not (df.loc[free, "npv"] > 0 >= df.loc[held, "npv"]):
        return []
    s = x.summary
    return [
        say(
            TEXT[x.lang]["policy"],
            label=tier_label(x.model, free, x.lang),
            npv=x.metric(free, "npv"),
            irr=x.metric(free, "irr"),
            f_label=tier_label(x.model, held, x.lang),
            f_loss=x.money(-float(s.loc[held, "npv"])),
        )
    ]
