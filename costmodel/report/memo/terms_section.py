"""The memo's paragraph on the discount rate, contract default and subsidies
(methodology §11.10, §11.12, §11.13): the rate the NPV is discounted at and why,
the contract revenue a counterparty default puts at risk, and what the subsidies
bring, each sentence filled by the model's numbers, in English and Chinese."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import say
from costmodel.report.memo.labels import tier_label

if TYPE_CHECKING:
    from costmodel.report.memo.context import Facts

TERMS: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Discount rate, counterparty risk and subsidies",
        "rate_given": "NPV is discounted at {rate} a year, the rate the assumptions give "
        "(finance.discount_rate): a required return on the whole project, however it is "
        "financed. The owners' cash flow is discounted at the cost of equity, {coe}.",
        "rate_wacc": "NPV is discounted at {rate} a year, the weighted average cost of "
        "capital the financing implies: {debt} debt at {interest} ({after} after {tax} "
        "income tax) and {equity} equity at {coe}. The owners' cash flow is discounted "
        "at the cost of equity, {coe}, so the two NPVs answer different questions: the "
        "project's value to all its financiers, and to its owners.",
        "at_risk": "<strong>{label}</strong>: at a counterparty default rate of {rate} a "
        "year, {at_risk} of contract revenue ({share} of it) is at risk over the horizon; "
        "the hours of a defaulted contract are resold at the spot price, and the NPV of "
        "{npv} already counts both.",
        "subsidies": "<strong>{label}</strong>: subsidies bring {cash} over the horizon, "
        "{pv} in present value before income tax on them, {part}.",
        "part_of": "{share} of the NPV of {npv}",
        "beyond": "more than the whole NPV of {npv}: the project's value rests on them",
        "against": "against an NPV of {npv}",
    },
    "zh": {
        "heading": "折现率、合同违约风险与补贴",
        "rate_given": "净现值按年折现率 {rate} 折现，即假设中给定的折现率："
        "不论融资方式，对整个项目要求的回报率。股东现金流按股权成本 "
        "{coe} 折现。",
        "rate_wacc": "净现值按年折现率 {rate} 折现，即融资结构对应的加权平均资本成本：债务占 "
        "{debt}、利率 {interest}（扣除 {tax} 所得税后为 {after}），股权占 {equity}、股权成本 "
        "{coe}。股东现金流按股权成本 {coe} 折现，因此两个净现值回答不同的问题：项目对全部出资方"
        "的价值，以及对股东的价值。",
        "at_risk": "<strong>{label}</strong>：按每年 {rate} 的合同违约率，测算期内有 {at_risk}"
        "合同收入（占合同收入的 {share}）面临违约风险；违约合同的卡时按现货价格转售，"
        "净现值 {npv}已计入这两项。",
        "subsidies": "<strong>{label}</strong>：测算期内补贴收入 {cash}，"
        "按折现率计算的现值（未扣所得税）为 {pv}，{part}。",
        "part_of": "占净现值 {npv} 的 {share}",
        "beyond": "超过全部净现值 {npv}：项目的价值取决于补贴",
        "against": "净现值为 {npv}",
    },
}


def _rate(x: Facts) -> Markup:
    """The sentence on the rate used and why: ``wacc`` or the given rate."""
    T, a = TERMS[x.lang], x.model.assumptions
    rate = x.model.discount_rate()
    fin = a.financing
    coe = fin.cost_of_equity.value if fin and fin.cost_of_equity else rate
    if a.finance.discount_rate != "wacc" or fin is None:
        return say(T["rate_given"], rate=f.pct(rate), coe=f.pct(coe))
    debt, interest, tax = fin.debt_share.value, fin.interest_rate.value, a.finance.tax_rate.value
    return say(
        T["rate_wacc"],
        rate=f.pct(rate),
        debt=f.pct(debt, 0),
        interest=f.pct(interest),
        after=f.pct(interest * (1 - tax)),
        tax=f.pct(tax, 0),
        equity=f.pct(1 - debt, 0),
        coe=f.pct(coe),
    )


def _tier_rows(x: Facts) -> list[dict[str, Any]]:
    """Per tier, a sentence on its contract revenue at risk and one on its subsidies,
    where it has them."""
    T, rows = TERMS[x.lang], []
    for t in x.model.tiers:
        s, label = x.summary.loc[t], tier_label(x.model, t, x.lang)
        if s["contract_at_risk"] > 0:
            contract = float(x.model.revenue(t).contract_revenue.sum()) + s["contract_at_risk"]
            rate = x.model.inputs[t].values()["contract_default_rate"]
            text = say(
                T["at_risk"],
                label=label,
                rate=f.pct(rate),
                at_risk=x.money(s["contract_at_risk"]),
                share=f.pct(s["contract_at_risk"] / contract),
                npv=x.money(s["npv"]),
            )
            rows.append(dict(tier=t, kind="contract_at_risk", text=text))
        if s["subsidies"] > 0:
            cf = x.model.cash_flow(t)
            pv = float((cf.subsidies * cf.discount_factor).sum())
            npv = float(s["npv"])
            if npv <= 0:
                part = say(T["against"], npv=x.money(npv))
            elif pv > npv:
                part = say(T["beyond"], npv=x.money(npv))
            else:
                part = say(T["part_of"], share=f.pct(pv / npv), npv=x.money(npv))
            text = say(
                T["subsidies"],
                label=label,
                cash=x.money(s["subsidies"]),
                pv=x.money(pv),
                part=part,
            )
            rows.append(dict(tier=t, kind="subsidies", text=text))
    return rows


def terms(x: Facts) -> dict[str, Any]:
    """The section's context: its heading, the rate sentence and the tier rows."""
    return dict(heading=TERMS[x.lang]["heading"], rate=_rate(x), rows=_tier_rows(x))
