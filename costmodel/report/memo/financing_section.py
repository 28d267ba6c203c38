"""The memo's financing section and the decision's sentences on time.

- :func:`financing`: when the model borrows (``financing.debt_share > 0``), the
  loan's terms from the inputs, per tier the owners' NPV and IRR against the
  project's, the minimum DSCR and its year against ``financing.min_dscr_covenant``
  (breached or cleared, by how much), peak debt and peak funding
  (:func:`costmodel.analysis.financing.financing_table`). None without debt.
- :func:`timing`: per group of tiers with the same construction and ramp months,
  when revenue starts and when the assumed utilization is reached (calendar months
  of ``Model.periods``), and each tier's peak funding need; with ``terminal_value:
  market`` the hardware's market value at the end against its book value and the
  tax on the difference; with ``finance.loss_carryforward_years``, the tax losses
  that expire unused (:func:`costmodel.analysis.timeline.timeline_table`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
from markupsafe import Markup

from costmodel.analysis.financing import financing_table
from costmodel.analysis.timeline import timeline_table
from costmodel.catalogue.items import CAPEX_CLASSES, noun
from costmodel.core.metrics import is_empty
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import say
from costmodel.report.memo.labels import tier_label

if TYPE_CHECKING:
    from costmodel.report.memo.context import Facts

# The words of the financing section (FINANCING) and of the decision's sentences
# on time (TIMING), in English and Chinese: trusted HTML patterns with ``{named}``
# fields, filled by :func:`costmodel.report.memo.context.say`.
FINANCING: dict[str, dict[str, str]] = {
    "en": {
        "heading": "What the bank loan does",
        "intro": "{share} of every capex payment is borrowed at {rate} a year, {charged}, and "
        "repaid in "
        "level monthly payments over {term} years from the start of operations; interest "
        "during construction is added to the loan, and whatever is still owed at the end of "
        "the horizon is repaid then. The project's NPV and IRR are before financing; the "
        "owners' cash flow (after the loan's draws, interest and repayments, and the tax "
        "saved on interest) is discounted at the cost of equity, {coe}.",
        "nominal": "charged at {rate} ÷ 12 = {monthly} a month, as PRC banks charge it",
        "effective": "compounded to {monthly} a month (an effective annual rate)",
        "col_npv": "Project NPV",
        "col_irr": "Project IRR",
        "col_equity_npv": "Equity NPV",
        "col_equity_irr": "Equity IRR",
        "col_dscr": "Minimum DSCR (year)",
        "col_debt_peak": "Peak debt",
        "dscr_year": " (year {y})",
        "col_funding": "Peak funding need",
        "returns": "<strong>{label}</strong>: the owners' NPV is {equity_npv} at {coe} "
        "against the project's {npv} at {rate}; their IRR is {equity_irr} against {irr}. "
        "Debt peaks at {debt_peak}; the project's peak funding need is {funding}.",
        "roots": "The owners' cash flow has {n} IRR roots: its NPV is 0 at {n} rates in the "
        "range searched, turned back by the repayment at the end; {equity_irr} is the one "
        "nearest 0 at which NPV falls through 0, and so agrees with the equity NPV.",
        "project_roots": "The project's cash flow has {n} IRR roots; {irr} is the one nearest "
        "0 at which NPV falls through 0.",
        "breach": "Its minimum DSCR, {dscr} in year {year}, is below the {covenant} "
        "covenant: breached in {k} of the {n} years with debt service.",
        "breach_all": "Its minimum DSCR, {dscr} in year {year}, is below the {covenant} "
        "covenant, and so is the DSCR of every one of the {n} years with debt service.",
        "headroom": "Its minimum DSCR, {dscr} in year {year}, clears the {covenant} covenant "
        "by {room}: the covenant holds in every year with debt service.",
        "no_covenant": "Its minimum DSCR is {dscr} in year {year}; the inputs set no covenant "
        "to hold it against.",
        "no_service": "No debt service falls within the horizon, so there is no DSCR.",
        "note": "DSCR: cash flow available for debt service (revenue − opex − tax after "
        "interest) ÷ interest and principal paid, by model year; the final repayment at the "
        "horizon is left out. Peak debt: the largest balance owed.",
    },
    "zh": {
        "heading": "银行贷款的影响",
        "intro": "每笔投资的 {share} 以年利率 {rate} 借入（{charged}），"
        "自投产起分 {term} 年按月等额还款；"
        "建设期利息计入本金，测算期末仍未还清的部分一次还清。项目净现值与内部收益率不考虑"
        "融资；股东现金流（计入贷款提款、利息与还本，以及利息抵税）按股权成本 {coe} 折现。",
        "nominal": "按月利率 = 年利率 ÷ 12 = {monthly} 计息",
        "effective": "按实际年利率折算为月利率 {monthly}",
        "col_npv": "项目净现值",
        "col_irr": "项目内部收益率",
        "col_equity_npv": "股权净现值",
        "col_equity_irr": "股权内部收益率",
        "col_dscr": "最低偿债备付率（年份）",
        "col_debt_peak": "贷款余额峰值",
        "dscr_year": "（第 {y} 年）",
        "col_funding": "峰值资金需求",
        "returns": "<strong>{label}</strong>：按 {coe} 折现，股东净现值为 {equity_npv}，"
        "项目按 {rate} 折现为 {npv}；股权内部收益率 {equity_irr}，项目为 {irr}。贷款余额"
        "最高 {debt_peak}；项目峰值资金需求 {funding}。",
        "roots": "股东现金流有 {n} 个内部收益率根（期末的一次性还款使净现值在搜索范围内"
        "有 {n} 个零点）；"
        "{equity_irr} 是其中最接近零、净现值由正转负的那个，与股权净现值的结论一致。",
        "project_roots": "项目现金流有 {n} 个内部收益率根；{irr} 是其中最接近零、"
        "净现值由正转负的那个。",
        "breach": "最低偿债备付率为 {dscr}（第 {year} 年），低于 {covenant} 的约定下限："
        "在有还本付息的 {n} 年中有 {k} 年违约。",
        "breach_all": "最低偿债备付率为 {dscr}（第 {year} 年），低于 {covenant} 的约定下限；"
        "有还本付息的 {n} 年全部低于下限。",
        "headroom": "最低偿债备付率为 {dscr}（第 {year} 年），高出 {covenant} 的约定下限 "
        "{room}：有还本付息的每一年都满足约定。",
        "no_covenant": "最低偿债备付率为 {dscr}（第 {year} 年）；假设中未设约定下限可供比较。",
        "no_service": "测算期内没有还本付息，因此没有偿债备付率。",
        "note": "偿债备付率：按模型年度，可用于偿债的现金流（收入 − 运营成本 − 扣除利息后"
        "的税）÷ 当年支付的利息与本金；期末一次还清的部分不计。贷款余额峰值：最大的未偿"
        "余额。",
    },
}

TIMING: dict[str, dict[str, str]] = {
    "en": {
        "all": "Every option",
        "build_ramp": "{who}: construction takes {build} months and the ramp {ramp} more; "
        "revenue starts in {start} (month {m}) and the assumed utilization is reached in "
        "{full}.",
        "build_only": "{who}: construction takes {build} months; revenue starts in {start} "
        "(month {m}) at the assumed utilization.",
        "ramp_only": "{who}: no construction period is assumed; revenue starts in {start} "
        "and ramps to the assumed utilization over {ramp} months, reached in {full}.",
        "none": "{who}: no construction or ramp is assumed; revenue starts in {start}, the "
        "first month, at the assumed utilization.",
        "funding": "The cash to raise before each option funds itself peaks at {items}.",
        "item": "{amount} for {label}",
        "market": "At the end of the horizon the hardware is valued at its market price: {items}.",
        "market_item": "{label} {value} against a book value of {book} ({tax})",
        "income": "At the end of the horizon the hardware is valued at what it still earns "
        "(methodology §30): each deployment's margin in the last month, falling with the "
        "GPU-hour price over the economic life it has left, discounted: {items}.",
        "income_item": "{label} {value} against a book value of {book} ({tax})",
        "tax_gain": "tax on the gain after tax losses {tax}",
        "tax_absorbed": "the gain is offset by tax losses: no tax",
        "tax_loss": "the loss saves {tax} of tax",
        "tax_none": "no tax",
        "expired": "Tax losses can be carried forward only {years} years, so some expire "
        "unused: {items}.",
        "expired_item": "{label} {amount} of the {added} it loses",
        "regime": "Profits are taxed at {rate}, {carry}{expensed}.",
        "carry_years": "with losses carried forward {years} years",
        "carry_none": "with no loss carry-forward",
        "carry_all": "with losses carried forward without limit",
        "expensed": "; {classes} are deducted in full for tax in the year they enter service "
        "(expensing) rather than depreciated",
    },
    "zh": {
        "all": "各方案",
        "build_ramp": "{who}：建设期 {build} 个月，之后再用 {ramp} 个月爬坡；{start}（第 {m} "
        "月）开始有收入，{full}达到假设利用率。",
        "build_only": "{who}：建设期 {build} 个月；{start}（第 {m} 月）开始有收入，"
        "即达到假设利用率。",
        "ramp_only": "{who}：不设建设期；{start}开始有收入，用 {ramp} 个月爬坡，{full}达到"
        "假设利用率。",
        "none": "{who}：不设建设期与爬坡期；自首月（{start}）起即有收入，并达到假设利用率。",
        "funding": "各方案在经营现金流转正之前需要筹集的资金峰值：{items}。",
        "item": "{label}{amount}",
        "market": "测算期末硬件按市场价值计：{items}。",
        "market_item": "{label}市场价值 {value}，账面价值 {book}（{tax}）",
        "income": "测算期末硬件按其仍能创造的收益估值（收益法残值）：各批次最后一个月的毛利，"
        "在剩余经济寿命内随卡时价格下降并折现：{items}。",
        "income_item": "{label}收益法残值 {value}，账面价值 {book}（{tax}）",
        "tax_gain": "资产处置收益抵减亏损后应纳所得税 {tax}",
        "tax_absorbed": "资产处置收益由税务亏损抵减，无需缴税",
        "tax_loss": "资产处置损失减少所得税 {tax}",
        "tax_none": "无需缴税",
        "expired": "税务亏损只能结转 {years} 年，部分亏损到期作废：{items}。",
        "regime": "企业所得税税率 {rate}，{carry}{expensed}。",
        "carry_years": "亏损可结转 {years} 年",
        "carry_none": "亏损不得结转",
        "carry_all": "亏损结转不设年限",
        "expensed": "；{classes}在投入使用当年一次性税前扣除，不再分年折旧",
        "expired_item": "{label}作废 {amount}（亏损合计 {added}）",
    },
}


def ratio(v: float, digits: int = 2) -> str:
    """A coverage ratio: ``1.20×``, ``−0.89×`` (``1e300×`` past 1e12)."""
    return f.EMPTY if is_empty(v) else f.with_sign(v, f.magnitude(abs(v), f",.{digits}f")) + "×"


def ratio_digits(a: float, b: float) -> int:
    """Decimals (2 or more) with which two ratios that differ read differently:
    a minimum DSCR of 1.4499 against a covenant of 1.45 is ``1.4499×`` and
    ``1.4500×``, never "1.45× is below the 1.45× covenant"."""
    for digits in range(2, 18):
        if a == b or ratio(a, digits) != ratio(b, digits):
            return digits
    return 17


def month_text(period: str, lang: str) -> str:
    """``2027-07`` as ``July 2027`` / ``2027 年 7 月``."""
    p = pd.Period(period, freq="M")
    return f"{p.year} 年 {p.month} 月" if lang == "zh" else f"{p:%B %Y}".replace(" ", f.NBSP)


def year_text(periods: pd.PeriodIndex, year: int, lang: str) -> str:
    """Model year ``year`` (months 12(y-1)+1 .. 12y of ``periods``, the model's
    calendar) in words: the calendar year when it is one (``2028`` / ``2028 年``),
    else its first and last months (``July 2027 – June 2028``)."""
    first, last = periods[12 * (year - 1) + 1], periods[12 * year]
    if first.month == 1:
        return f"{first.year} 年" if lang == "zh" else str(first.year)
    a, b = month_text(str(first), lang), month_text(str(last), lang)
    return f"{a} 至 {b}" if lang == "zh" else f"{a}{f.NBSP}\u2013 {b}"


def _fin_table(x: Facts) -> pd.DataFrame:
    d = x.analysis.financing
    return financing_table(x.model) if d is None else d


def _timeline(x: Facts) -> pd.DataFrame:
    d = x.analysis.timeline
    return timeline_table(x.model) if d is None else d


def _dscr_sentence(x: Facts, r: pd.Series) -> Markup:
    F = FINANCING[x.lang]
    if is_empty(r["min_dscr"]) or not r["dscr_years"] > 0:
        return Markup(F["no_service"])
    fields = dict(dscr=ratio(r["min_dscr"]), year=int(r["min_dscr_year"]))
    if is_empty(r["covenant"]):
        return say(F["no_covenant"], **fields)
    # breach and headroom come from the unrounded values; the text shows the digits
    # that tell them apart
    n = ratio_digits(float(r["min_dscr"]), float(r["covenant"]))
    fields |= dict(
        dscr=ratio(r["min_dscr"], n), covenant=ratio(r["covenant"], n), room=ratio(r["headroom"], n)
    )
    if r["breach_years"] > 0:
        key = "breach_all" if r["breach_years"] == r["dscr_years"] else "breach"
        return say(F[key], k=int(r["breach_years"]), n=int(r["dscr_years"]), **fields)
    return say(F["headroom"], **fields)


def _returns(x: Facts, tier: str, r: pd.Series) -> Markup:
    sep = Markup("" if x.lang == "zh" else " ")
    head = say(
        FINANCING[x.lang]["returns"],
        label=tier_label(x.model, tier, x.lang),
        equity_npv=x.money(r["equity_npv"]),
        npv=x.money(r["npv"]),
        coe=f.pct(r["cost_of_equity"]),
        rate=f.pct(x.model.discount_rate(tier)),
        equity_irr=f.pct(r["equity_irr"]),
        irr=f.pct(r["irr"]),
        debt_peak=x.money(r["debt_peak"]),
        funding=x.money(r["peak_funding"]),
    )
    return sep.join([head, *_roots_sentences(x, tier, r), _dscr_sentence(x, r)])


def _roots_sentences(x: Facts, tier: str, r: pd.Series) -> list[Markup]:
    """Where the project's or the owners' cash flow has several roots (methodology
    §11.2), which one the IRR is."""
    F = FINANCING[x.lang]
    roots = x.model.irr_roots()[tier]
    out = []
    if roots["irr"] > 1 and not is_empty(r["irr"]):
        out.append(say(F["project_roots"], n=roots["irr"], irr=f.pct(r["irr"])))
    if roots["equity_irr"] > 1 and not is_empty(r["equity_irr"]):
        out.append(say(F["roots"], n=roots["equity_irr"], equity_irr=f.pct(r["equity_irr"])))
    return out


def financing(x: Facts) -> dict[str, Any] | None:
    """The financing section's context, or None without debt."""
    d = _fin_table(x)
    if d is None or not len(d):
        return None
    F = FINANCING[x.lang]
    first = d.iloc[0]
    intro = say(
        F["intro"],
        share=f.pct(first["debt_share"], 0),
        rate=f.pct(first["interest_rate"], 2),
        charged=say(
            F[first["rate_convention"]],
            rate=f.pct(first["interest_rate"], 2),
            monthly=f.pct(first["monthly_rate"], 3),
        ),
        term=int(first["term_years"]),
        coe=f.pct(first["cost_of_equity"]),
    )
    rows = []
    for t in x.model.tiers:
        r = d.loc[t]
        year = (
            "" if is_empty(r["min_dscr_year"]) else F["dscr_year"].format(y=int(r["min_dscr_year"]))
        )
        rows.append(
            dict(
                tier=t,
                label=tier_label(x.model, t, x.lang),
                breach=bool(r["breach_years"] > 0),
                cells=[
                    ("npv", x.money(r["npv"])),
                    ("irr", f.pct(r["irr"])),
                    ("equity_npv", x.money(r["equity_npv"])),
                    ("equity_irr", f.pct(r["equity_irr"])),
                    ("dscr", ratio(r["min_dscr"]) + year),
                    ("debt_peak", x.money(r["debt_peak"])),
                    ("funding", x.money(r["peak_funding"])),
                ],
                text=_returns(x, t, r),
            )
        )
    keys = ("npv", "irr", "equity_npv", "equity_irr", "dscr", "debt_peak", "funding")
    return dict(
        heading=F["heading"],
        intro=intro,
        columns=[F[f"col_{k}"] for k in keys],
        rows=rows,
        note=F["note"],
    )


def _when(x: Facts, who: str, r: pd.Series) -> Markup:
    """Construction, ramp and the start of revenue of a group of tiers."""
    T = TIMING[x.lang]
    b, ramp = int(r["build_months"]), float(r["ramp_months"])
    key = (
        ("build_ramp" if ramp > 0 else "build_only")
        if b > 0
        else ("ramp_only" if ramp > 0 else "none")
    )
    return say(
        T[key],
        who=who,
        build=b,
        ramp=f.number(ramp),
        m=int(r["revenue_month"]),
        start=month_text(r["revenue_period"], x.lang),
        full=month_text(r["full_period"], x.lang),
    )


def _market(x: Facts, d: pd.DataFrame) -> Markup | None:
    T = TIMING[x.lang]
    kind_of_value = x.model.assumptions.terminal_value
    if kind_of_value not in ("market", "income"):
        return None
    items = []
    for t, r in d.iterrows():
        tax = float(r["terminal_tax"])
        kind = "tax_gain" if tax > 0 else "tax_loss" if tax < 0 else "tax_none"
        if kind == "tax_none" and float(r["terminal_gain"]) > 0:
            kind = "tax_absorbed"
        items.append(
            say(
                T[f"{kind_of_value}_item"],
                label=tier_label(x.model, str(t), x.lang),
                value=x.money(r["terminal_value"]),
                book=x.money(r["book_value"]),
                tax=say(T[kind], tax=x.money(abs(tax))),
            )
        )
    return say(T[kind_of_value], items=Markup("；" if x.lang == "zh" else "; ").join(items))


def _expired(x: Facts, d: pd.DataFrame) -> Markup | None:
    T = TIMING[x.lang]
    years = x.model.assumptions.finance.loss_carryforward_years
    lost = d[d["loss_expired"] > 0]
    if years is None or not len(lost):
        return None
    items = [
        say(
            T["expired_item"],
            label=tier_label(x.model, str(t), x.lang),
            amount=x.money(r["loss_expired"]),
            added=x.money(r["loss_added"]),
        )
        for t, r in lost.iterrows()
    ]
    sep = Markup("；" if x.lang == "zh" else "; ")
    return say(T["expired"], years=int(getattr(years, "value", years)), items=sep.join(items))


def timing(x: Facts) -> list[Markup]:
    """The decision's sentences on time and on the end of the horizon."""
    T = TIMING[x.lang]
    d = _timeline(x)
    groups: dict[tuple[float, float], list[str]] = {}
    for t in x.model.tiers:
        groups.setdefault((d.loc[t, "build_months"], d.loc[t, "ramp_months"]), []).append(t)
    sep = Markup("、" if x.lang == "zh" else ", ")  # joins the labels each escaped, isolated
    out = []
    for tiers in groups.values():
        names = [tier_label(x.model, t, x.lang) for t in tiers]
        who = T["all"] if len(groups) == 1 and len(tiers) > 1 else sep.join(names)
        out.append(_when(x, who, d.loc[tiers[0]]))
    items = [
        say(
            T["item"],
            amount=x.money(d.loc[t, "peak_funding"]),
            label=tier_label(x.model, t, x.lang),
        )
        for t in x.model.tiers
    ]
    out.append(say(T["funding"], items=Markup("；" if x.lang == "zh" else "; ").join(items)))
    out += [s for s in (_market(x, d), _expired(x, d)) if s is not None]
    out.append(_regime(x))
    return out


def _regime(x: Facts) -> Markup:
    """The tax regime in force (methodology §8.3, §11.7): the rate, the loss
    carry-forward and the classes expensed at once."""
    T = TIMING[x.lang]
    a = x.model.assumptions
    years = a.finance.loss_carryforward_years
    years = getattr(years, "value", years)
    if years is None:
        carry = say(T["carry_all"])
    elif int(years) == 0:
        carry = say(T["carry_none"])
    else:
        carry = say(T["carry_years"], years=int(years))
    expensed = [c for c in CAPEX_CLASSES if getattr(a.depreciation, c).tax_method == "expensed"]
    sep = "、" if x.lang == "zh" else ", "
    classes = sep.join(noun(c, x.lang) for c in expensed)
    return say(
        T["regime"],
        rate=f.pct(float(a.finance.tax_rate.value), 0),
        carry=carry,
        expensed=say(T["expensed"], classes=classes) if expensed else "",
    )
