"""The memo's executive summary: the decision by the rule of
:func:`costmodel.analysis.decision.choose` (the highest positive NPV, else no option is
worth building and the closest is the highest NPV per unit of capex), what each tier
needs to break even, where the base case sits in the Monte Carlo distribution, flagged
inputs, build versus rent by the sign of each tier's saving, and the numbers that
decide it (words in :mod:`costmodel.report.memo.text_summary`).
"""

from __future__ import annotations

import math
from typing import Any

from markupsafe import Markup

from costmodel.analysis.breakeven import PRICE_RANGE_FACTOR
from costmodel.analysis.decision import OPTIMISTIC
from costmodel.catalogue.items import item_of_input
from costmodel.core.metrics import is_empty
from costmodel.inputs.model import Model
from costmodel.inputs.params import revenue_mode
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, say, signed_pct
from costmodel.report.memo.financing_section import year_text
from costmodel.report.memo.labels import input_label, tier_label
from costmodel.report.memo.sites_section import policy_lead, site_lead
from costmodel.report.memo.supply_section import supply_sentences
from costmodel.report.memo.text_analysis import RENT
from costmodel.report.memo.text_summary import SUMMARY


def decision(x: Facts) -> dict[str, Any]:
    """Executive summary, on one printed page: the decision by the rule of
    :func:`costmodel.analysis.decision.choose` with the realized price against the
    levelized cost (``paragraphs``), at most three risks that could change it
    (``risks``: the largest driver, the MFU risk framed by the revenue model, where
    the base case sits in the Monte Carlo distribution) and the key rows. What lies
    behind it (what would have to change, timing, flagged inputs, build versus rent)
    is in ``need`` and ``after``, printed after the summary."""
    m, lang = x.model, x.lang
    S = SUMMARY[lang]
    c = x.choice
    head = verdict(x)
    best = head["best"]
    found = (*_could_change(x, best), _mc_sentence(x, best), *supply_sentences(x))
    risks = [p for p in found if p is not None]
    after = _flags(x) + _rent_verdict(x)
    if not c["worth"]:
        after.append(Markup(S["advice"]))
    rows = [_key_row(x, t, best) for t in m.tiers]
    return dict(
        **head,
        risks_intro=S["risks_intro"],
        risks=risks[:4],
        after=after,
        key_rows=rows,
        price_unit=price_unit(x),
        key_note=say(S["key_note"], decline=_declines(m, lang))
        + (S["key_note_red"] if any(r["above_cloud"] for r in rows) else "")
        + (S["key_note_captive"] if any(r["captive"] for r in rows) else ""),
    )


def verdict(x: Facts) -> dict[str, Any]:
    """The decision itself, the memo's first paragraphs: ``best`` (the tier chosen
    by :func:`costmodel.analysis.decision.choose`), ``positive`` (an NPV > 0
    exists among the options ranked, or a captive option is cheaper to build than
    to rent), ``paragraphs`` and, when no option is worth building, ``need`` (each
    tier's break-even price and utilization) under ``need_intro``. It reads only
    the options and the break-even of the analysis."""
    c = x.choice
    best = str(c["tier"])
    lead = site_lead(x) + policy_lead(x)  # what decides the answer, when it changes sign
    paras = lead + excluded(x) + (_recommend(x) if c["worth"] else _no_option(x))
    paras.append(revenue_split(x, best))
    own = list(c.get("captive", []))
    paras.extend(captive_verdict(x, t) for t in own)
    ranked = [t for t in x.model.tiers if t not in own]
    need: list[Markup] = [] if c["worth"] else [_need_item(x, t) for t in ranked]
    good = [t for t in own if float(x.summary.loc[t, "npv"]) > 0]
    return dict(
        best=best,
        positive=bool(c["worth"] or good),
        paragraphs=paras,
        need_intro=SUMMARY[x.lang]["need"],
        need=need,
    )


def excluded(x: Facts) -> list[Markup]:
    """The options the chip policy rules out (methodology §17), each with its server,
    as the first paragraph; none when every option is feasible."""
    out = list(x.choice.get("excluded", []))
    if not out:
        return []
    S = SUMMARY[x.lang]
    items = [
        say(
            S["excluded_item"],
            label=tier_label(x.model, t, x.lang),
            sku=x.model.assumptions.tiers[t].server,
        )
        for t in out
    ]
    joined = Markup("；" if x.lang == "zh" else "; ").join(items)
    key = "excluded" if x.choice.get("feasible") else "excluded_all"
    are = "is" if len(out) == 1 else "are"  # English agreement; the zh text has no verb
    return [say(S[key], count=len(out), total=len(x.model.tiers), items=joined, are=are)]


def _considered(x: Facts) -> int:
    """The options the decision ranks: the feasible ones (less the captive ones set
    apart), or all when none is feasible."""
    ranked = x.choice.get("ranked")
    return int(ranked or x.choice.get("feasible") or len(x.model.tiers))


def _options_word(x: Facts) -> str:
    """What the ranked options are called: "options", or "options that sell
    GPU-hours" when captive options are judged apart."""
    key = "options_sold" if x.choice.get("captive") else "options_all"
    return SUMMARY[x.lang][key]


def captive_verdict(x: Facts, t: str) -> Markup:
    """The headline of a captive option (revenue mode ``avoided_cloud``): its NPV is
    what building saves (> 0) or costs (<= 0) against renting the same GPU-hours at
    the cloud price, after tax, with the utilization at which building breaks even;
    the verdict (build or rent) by the NPV's sign."""
    S = SUMMARY[x.lang]
    npv = float(x.summary.loc[t, "npv"])
    term = revenue_mode(x.model.assumptions, t)[1]
    be = x.analysis.break_even
    u = float(be.loc[t, "utilization"]) if t in be.index else math.nan
    ub = f.pct(x.model.inputs[t].values()["utilization"])
    good = npv > 0
    if is_empty(u):
        util = Markup(S["captive_util_always" if good else "captive_util_never"])
    else:
        util = say(S["captive_util_good" if good else "captive_util_bad"], u=f.pct(u), ub=ub)
    return say(
        S["captive_good" if good else "captive_bad"],
        label=tier_label(x.model, t, x.lang),
        amount=x.money(abs(npv)),
        hours=f.count(float(x.summary.loc[t, "gpu_hours"]), x.lang),
        term=RENT[x.lang].get(f"term_{term}", term),
        price=x.price(x.prices[t]),
        util=util,
    )


def revenue_split(x: Facts, t: str) -> Markup:
    """Tier ``t``'s revenue split into contracted and spot (methodology §11.5), with the
    realized price beside the levelized cost, and its SG&A share (§11.4) if any."""
    S = SUMMARY[x.lang]
    rev = x.model.revenue(t)
    ti = x.model.inputs[t].values()
    total = float(rev["revenue"].sum())
    contract, spot = float(rev["contract_revenue"].sum()), float(rev["spot_revenue"].sum())
    monthly = rev["realized_price"].dropna()
    common = dict(
        realized=x.metric(t, "realized_price"),
        cost=x.metric(t, "cost_per_gpu_hour"),
        low=x.price(float(monthly.min())) if len(monthly) else f.EMPTY,
        high=x.price(float(monthly.max())) if len(monthly) else f.EMPTY,
    )
    if contract > 0 and total > 0:
        text = say(
            S["revenue_split"],
            revenue=x.money(total),
            contract=x.money(contract),
            contract_pct=f.pct(contract / total),
            spot=x.money(spot),
            spot_pct=f.pct(spot / total),
            share=f.pct(ti["contract_share"]),
            months=int(round(ti["contract_months"])),
            contract_price=x.price(
                x.as_sold(
                    t,
                    x.model.inputs[t].inputs["contract_price_per_gpu_hour"][0],
                    ti["contract_price_per_gpu_hour"],
                )
            ),
            escalation=_escalation(S, ti.get("contract_escalation", 0.0)),
            **common,
        )
    else:
        text = say(S["revenue_spot"], **common)
    share = ti.get("sga_share", 0.0)
    noun = item_of_input("sga_share").noun[x.lang]
    noun = noun[:1].upper() + noun[1:]
    return text + say(S["sga_share"], noun=noun, share=f.pct(share)) if share > 0 else text


def _common(x: Facts) -> dict[str, Any]:
    a = x.model.assumptions
    n = _considered(x)
    return dict(
        n=n,
        all_n=("Both" if n == 2 else f"All {n}") if x.lang == "en" else n,
        rate=f.pct(x.model.discount_rate()),
        horizon=a.horizon_years,
        options=_options_word(x),
    )


def _tier_fields(x: Facts, t: str) -> dict[str, Any]:
    o = x.options.loc[t]
    return dict(
        label=tier_label(x.model, t, x.lang),
        npv=x.metric(t, "npv"),
        capex=x.metric(t, "capex"),
        price=x.price(x.prices[t]),
        decline=f.pct(x.model.inputs[t].values()["price_decline"]),
        be=x.price(x.breakeven.get(t, math.nan)),
        gap=signed_pct(x.gap(t)),
        cost=x.metric(t, "cost_per_gpu_hour"),
        pi=f.pct(o["pi"]),
        loss=f.pct(-o["pi"]),
        funding=x.money(o["peak_funding"]),
        currency=x.currency_word,
    )


def _recommend(x: Facts) -> list[Markup]:
    """A positive NPV exists: the highest NPV among the positive ones."""
    m, s, S, c = x.model, x.summary, SUMMARY[x.lang], x.choice
    best = str(c["tier"])
    b = _tier_fields(x, best)
    one = _considered(x) == 1
    only = "recommend_only" if len(m.tiers) > 1 else "recommend_one"
    out = [say(S[only if one else "recommend"], **b, **_common(x))]
    detail = "detail_nopay" if is_empty(s.loc[best, "payback_years"]) else "detail"
    out.append(
        say(
            S[detail],
            capex=b["capex"],
            opex=opex_phrase(x, best),
            irr=x.metric(best, "irr"),
            payback=x.metric(best, "payback_years"),
        )
    )
    out.append(
        say(S["margin_free" if is_empty(x.breakeven.get(best, math.nan)) else "margin"], **b)
    )
    if not one and not c.get("excluded"):
        rank = int(x.options.loc[best, "rank_pi"])
        out.append(say(S["recommend_pi"], **b, rank=rank, n=len(m.tiers)))
        alt = str(c["by_pi"])
        if alt != best and float(x.options.loc[alt, "npv"]) > 0:
            out.append(say(S["pi_alt"], **_tier_fields(x, alt)))
    return out


def _no_option(x: Facts) -> list[Markup]:
    """No NPV > 0: say so; the closest by NPV per unit of capex, and why not the
    smallest loss in absolute terms."""
    S, c = SUMMARY[x.lang], x.choice
    one = _considered(x) == 1
    sold = "_sold" if x.choice.get("captive") else ""
    out = [say(S[("none_one" if one else "none") + sold], **_common(x))]
    b = _tier_fields(x, str(c["tier"]))
    if one:
        out.append(say(S["least_bad_one"], **b))
    elif c["by_npv"] == c["tier"]:
        out.append(say(S["rank_same"], **b))
    else:
        small = _tier_fields(x, str(c["by_npv"]))
        out.append(
            say(
                S["rank_split"],
                **b,
                s_label=small["label"],
                s_npv=small["npv"],
                s_loss=small["loss"],
            )
        )
    out.append(say(S["cost"], **b, opex=opex_phrase(x, str(c["tier"]))))
    return out


def opex_phrase(x: Facts, t: str) -> Markup:
    """What tier ``t`` costs to run, in its first full operating year (methodology §4:
    model year ``opex_full_year_number``, named by its calendar months), or, when no
    full year falls within the horizon, in year 1 while it is still being built."""
    S, s = SUMMARY[x.lang], x.summary.loc[t]
    if is_empty(s["opex_full_year"]):
        horizon = x.model.assumptions.horizon_years
        return say(S["opex_building"], opex1=x.metric(t, "opex_year1"), horizon=horizon)
    year = int(s["opex_full_year_number"])
    when = year_text(x.model.periods, year, x.lang)
    return say(S["opex_full"], opex=x.metric(t, "opex_full_year"), when=when)


def _need_item(x: Facts, t: str) -> Markup:
    """What would make the tier worth building: its break-even price and utilization."""
    S = SUMMARY[x.lang]
    fields = _tier_fields(x, t)
    be = x.breakeven.get(t, math.nan)
    u = (
        x.analysis.break_even.loc[t, "utilization"]
        if t in x.analysis.break_even.index
        else math.nan
    )
    ub = x.model.inputs[t].values()["utilization"]
    util = (
        Markup(S["need_util_never"])
        if is_empty(u)
        else say(S["need_util"], u=f.pct(u), ub=f.pct(ub))
    )
    key = "need_none" if is_empty(be) else "need_item"
    return say(S[key], factor=f"{PRICE_RANGE_FACTOR:g}", util=util, **fields)


def _mc_sentence(x: Facts, tier: str) -> Markup | None:
    """Where the base case sits in the Monte Carlo distribution of ``tier``."""
    o = x.options.loc[tier]
    mc = x.analysis.monte_carlo
    if mc is None or is_empty(o["base_percentile"]):
        return None
    q = float(o["base_percentile"])
    key = "mc_high" if q >= OPTIMISTIC else "mc_low" if q <= 1 - OPTIMISTIC else "mc_mid"
    return say(
        SUMMARY[x.lang][key],
        label=tier_label(x.model, tier, x.lang),
        pct=f.pct(q, 0),
        n=f"{mc.n:,}",
        p50=x.money(o["npv_p50"]),
        npv=x.metric(tier, "npv"),
    )


def _could_change(x: Facts, tier: str) -> tuple[Markup | None, Markup | None]:
    """The tier's largest driver (the tornado's first row) and its MFU what-if, framed
    by the revenue model: a captive user (``avoided_cloud``) values each hour by the
    compute it delivers, so a lower MFU leaves part of the cost buying no effective
    compute; an operator (``rental``) is paid per GPU-hour whatever the MFU, so the
    NPV as modelled does not move, but its cost per PFLOP-hour rises by ``mfu / d``
    and with it the price a customer would still pay."""
    d = x.analysis.tornado
    d = d[(d["tier"] == tier) & (d["swing"] > 0)]
    n = x.analysis.risks.loc[tier]
    S = SUMMARY[x.lang]
    label = tier_label(x.model, tier, x.lang)
    driver = None
    if len(d):
        top = d.iloc[0]
        name = input_label(x.model, tier, str(top["input"]), x.lang)[0]
        driver = say(
            S["could_change"],
            input=name[:1].lower() + name[1:] if x.lang == "en" else name,
            label=label,
            at_low=x.money(top["at_low"]),
            at_high=x.money(top["at_high"]),
        )
    if not float(n["mfu_loss_share"]) > 0:
        return driver, None
    captive = revenue_mode(x.model.assumptions, tier)[0] == "avoided_cloud"
    mfu = say(
        S["mfu_captive" if captive else "mfu_operator"],
        label=label,
        mfu=f.pct(n["mfu"], 0),
        degraded=f.pct(n["degraded_mfu"], 0),
        at_stake=x.money(n["mfu_at_stake"]),
        pflop=f.price(n["cost_per_pflop_hour"], x.lang, x.currency, "pflop"),
        pflop_degraded=f.price(n["cost_per_pflop_hour_degraded"], x.lang, x.currency, "pflop"),
    )
    return driver, mfu


def _flags(x: Facts) -> list[Markup]:
    """Selling prices above the cloud price of the same GPU (one sentence); a
    utilization above the high end of its source's range."""
    S, lang, out = SUMMARY[x.lang], x.lang, []
    items = []
    for t in x.model.tiers:
        o = x.options.loc[t]
        if not is_empty(o["price_over_cloud"]) and o["price_over_cloud"] > 0:
            term = revenue_mode(x.model.assumptions, t)[1]
            items.append(
                say(
                    S["price_item"],
                    label=tier_label(x.model, t, lang),
                    price=x.price(o["price"]),
                    cloud=x.price(o["cloud_price"]),
                    pct=signed_pct(o["price_over_cloud"]),
                    term=RENT[lang].get(f"term_{term}", term),
                )
            )
    if items:
        key = "price_above_one" if len(items) == 1 else "price_above"
        out.append(say(S[key], items=Markup(_list_sep(lang)).join(items)))
    for t in x.model.tiers:
        o = x.options.loc[t]
        if not is_empty(o["utilization_high"]) and o["utilization"] > o["utilization_high"]:
            out.append(
                say(
                    S["util_above"],
                    label=tier_label(x.model, t, lang),
                    u=f.pct(o["utilization"]),
                    hi=f.pct(o["utilization_high"]),
                )
            )
    return out


def _rent_verdict(x: Facts) -> list[Markup]:
    """Build versus rent in a sentence chosen by the sign of each tier's saving."""
    S, o = SUMMARY[x.lang], x.options
    saving = o["saving"].dropna()
    if not len(saving):
        return []
    lab = {t: tier_label(x.model, t, x.lang) for t in saving.index}
    out = []
    cheaper = saving[saving > 0]
    dearer = saving[saving <= 0]
    if len(cheaper):
        items = [say(S["rent_item"], label=lab[t], amount=x.money(v)) for t, v in cheaper.items()]
        out.append(say(S["build_cheaper"], items=Markup(_list_sep(x.lang)).join(items)))
    if len(dearer):
        key = "rent_cheaper_all" if not len(cheaper) else "rent_cheaper"
        items = [say(S["rent_item"], label=lab[t], amount=x.money(-v)) for t, v in dearer.items()]
        out.append(say(S[key], items=Markup(_list_sep(x.lang)).join(items)))
    return out


def _list_sep(lang: str) -> str:
    return "；" if lang == "zh" else "; "


def _key_row(x: Facts, t: str, best: str) -> dict[str, Any]:
    """One row of "the numbers that decide it"; prices as numbers, their unit in
    the column heading (:func:`price_unit`)."""
    o = x.options.loc[t]

    def num(v: float) -> str:
        return f.EMPTY if is_empty(v) else f"{v:,.2f}"

    return dict(
        tier=t,
        label=tier_label(x.model, t, x.lang),
        captive=bool(o.get("captive", False)),
        chosen=t == best,
        npv=x.metric(t, "npv"),
        npv_negative=bool(o["npv"] < 0),
        pi=signed_pct(o["pi"]),
        pi_negative=bool(o["pi"] < 0),
        funding=x.money(o["peak_funding"]),
        capex=x.metric(t, "capex"),
        price=num(x.prices[t]),
        cloud=num(o["cloud_price"]),
        above_cloud=bool(not is_empty(o["price_over_cloud"]) and o["price_over_cloud"] > 0),
        breakeven=num(x.breakeven.get(t, math.nan)),
        gap=signed_pct(x.gap(t)),
        cost=num(float(x.summary.loc[t, "cost_per_gpu_hour"])),
    )


def price_unit(x: Facts) -> str:
    """``CNY/GPU‑h`` / ``元/卡时``, the unit of the key table's price columns."""
    return f"{x.currency_word}/卡时" if x.lang == "zh" else f"{x.currency_word}/GPU\u2011h"


def _declines(m: Model, lang: str) -> str:
    """The price decline for the key-figures note, if all tiers share one."""
    rates = {m.inputs[t].values()["price_decline"] for t in m.tiers}
    if len(rates) != 1:
        return ""
    rate = f.pct(rates.pop())
    return f" {rate}" if lang == "zh" else f", {rate} a year"


def _escalation(S: dict[str, str], escalation: float) -> Markup:
    """The contract price's escalation in words: rising by its rate, or flat."""
    return say(S["rising"], pct=f.pct(escalation)) if escalation else say(S["flat"])
