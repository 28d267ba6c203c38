"""The memo's growth section: for each tier with ``stages``, building the final
size at once against staging with the headroom reserved and staging with the
hall extended later (:func:`costmodel.analysis.growth.growth_options`, read as
computed). Absent when no tier has stages.

Per measure (NPV, peak funding, levelized cost, capex at month 0 and in total)
the best option and how far behind the others are; then the hall reserved early
against the retrofit premium paid later, whether reserving pays for itself (its
NPV against the later extension's, and the break-even premium), and the source's
maxim quoted as borne out or not by the NPVs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
from markupsafe import Markup

from costmodel.analysis.growth import OPTIONS, PREMIUM_RANGE, growth_options
from costmodel.core.metrics import is_empty
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import say
from costmodel.report.memo.labels import tier_label

if TYPE_CHECKING:
    from costmodel.report.memo.context import Facts

# The section's words, in English and Chinese: trusted HTML patterns with
# ``{named}`` fields, filled by :func:`costmodel.report.memo.context.say`.
MAXIM_HEADROOM = {
    "en": "reserve the physical interfaces (rack power, high-speed network ports, cooling "
    "pipework) rather than build everything at once, and so avoid tearing down and "
    "rebuilding later",
    "zh": "预留“物理接口”比一步到位更明智：为机柜电力、高速网络端口和散热管路预留冗余，"
    "避免后期推倒重来",
}

GROWTH: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Grow in stages or build at once?",
        "opt_at_once": "Final size at once",
        "opt_staged_headroom": "In stages, headroom reserved",
        "opt_staged_rebuild": "In stages, hall extended later",
        "name_at_once": "building the final size at once",
        "name_staged_headroom": "staging with the headroom reserved",
        "name_staged_rebuild": "staging and extending the hall later",
        "intro": "<strong>{label}</strong> reaches {gpus} GPUs in steps: {first} GPUs bought "
        "in month {month0}, then {steps}. Three ways to get there, from the same assumptions: "
        "buy the final size with the first deployment; stage it with the hall built for the "
        "final load at month 0 (headroom reserved); or stage it with a hall for the first "
        "step only, extended at each stage at a retrofit premium of {premium} on the build "
        "cost.",
        "step": "{gpus} GPUs in month {month}",
        "col_option": "Option",
        "col_npv": "NPV",
        "col_funding": "Peak funding need",
        "col_cost": "Levelized cost per GPU-hour",
        "col_initial": "Capex before revenue",
        "col_capex": "Capex in total",
        "m_npv": "NPV",
        "m_peak_funding": "Peak funding need",
        "m_cost_per_gpu_hour": "Levelized cost per GPU-hour",
        "m_capex_initial": "Capex before revenue (months 0–{month})",
        "m_capex": "Capex in total",
        "measure": "<strong>{measure}</strong>: {best} is best at {value}; {others}.",
        "measure_tie": "<strong>{measure}</strong>: {best} tie at {value}; {others}.",
        "measure_all": "<strong>{measure}</strong>: the three options are equal at {value}.",
        "other": "{name} is {diff} worse ({value})",
        "and": " and ",
        "also": "; ",
        "hall": "Reserving the headroom pays {early} at month 0 for hall capacity the first "
        "{first} GPUs do not use; extending the hall later pays {later} instead, at the stage "
        "months, the {premium} retrofit premium included.",
        "pays": "At these inputs reserving pays for itself: its NPV is {diff} higher than the "
        "later extension's, and stays higher while the retrofit premium is above {be}.",
        "pays_nobe": "At these inputs reserving pays for itself: its NPV is {diff} higher than "
        "the later extension's.",
        "not_pays": "At these inputs reserving does not pay for itself: its NPV is {diff} "
        "lower than the later extension's; it would take a retrofit premium above {be} "
        "(assumed: {premium}).",
        "not_pays_nobe": "At these inputs reserving does not pay for itself: its NPV is {diff} "
        "lower than the later extension's, at any retrofit premium up to {max}.",
        "no_hall": "There is no hall to build (the facility is rented), so reserving the "
        "headroom and extending later cost the same.",
        "maxim_yes": "By NPV, the numbers bear out the source's advice to {maxim}.",
        "maxim_half": "The source's advice is to {maxim}. By NPV, at these inputs, the numbers "
        "bear it out against the later extension but not against building at once, which "
        "has the higher NPV.",
        "maxim_no": "The source's advice is to {maxim}. By NPV, at these inputs, the numbers "
        "do not bear it out: {winner} has the highest NPV.",
        "note": "Peak funding need: the most cash the option needs at any month (cumulative "
        "cash flow without the value at the end). Levelized cost: present value of capex and "
        "opex ÷ present value of GPU-hours sold.",
    },
    "zh": {
        "heading": "分期建设还是一步到位？",
        "opt_at_once": "一步到位建成最终规模",
        "opt_staged_headroom": "分期建设，预留物理接口",
        "opt_staged_rebuild": "分期建设，后期扩建机房",
        "name_at_once": "一步到位",
        "name_staged_headroom": "分期建设并预留接口",
        "name_staged_rebuild": "分期建设、后期扩建机房",
        "intro": "<strong>{label}</strong>分步达到 {gpus} 卡：第 {month0} 月购入 {first} 卡，"
        "此后{steps}。在同一套假设下比较三种做法：首期即购入最终规模；分期购入，但第 0 月"
        "即按最终负载建好机房（预留物理接口）；或分期购入，机房只按首期建设，每期扩建时"
        "在建设成本之上多付 {premium} 的改造溢价。",
        "step": "第 {month} 月增加 {gpus} 卡",
        "col_option": "方案",
        "col_npv": "净现值",
        "col_funding": "峰值资金需求",
        "col_cost": "每卡时平准化成本",
        "col_initial": "投产前投资",
        "col_capex": "投资合计",
        "m_npv": "净现值",
        "m_peak_funding": "峰值资金需求",
        "m_cost_per_gpu_hour": "每卡时平准化成本",
        "m_capex_initial": "投产前投资（第 0–{month} 月）",
        "m_capex": "投资合计",
        "measure": "<strong>{measure}</strong>：{best}最优，为 {value}；{others}。",
        "measure_tie": "<strong>{measure}</strong>：{best}并列最优，为 {value}；{others}。",
        "measure_all": "<strong>{measure}</strong>：三种做法相同，均为 {value}。",
        "other": "{name}为 {value}，差 {diff}",
        "and": "、",
        "also": "；",
        "hall": "预留接口意味着第 0 月就为首期 {first} 卡用不到的机房容量支付 {early}；"
        "后期扩建则在各期月份支付 {later}（含 {premium} 的改造溢价）。",
        "pays": "在当前假设下，预留接口物有所值：其净现值比后期扩建高 {diff}；只要改造溢价"
        "高于 {be}，这一结论不变。",
        "pays_nobe": "在当前假设下，预留接口物有所值：其净现值比后期扩建高 {diff}。",
        "not_pays": "在当前假设下，预留接口并不划算：其净现值比后期扩建低 {diff}；改造溢价"
        "需高于 {be}（假设为 {premium}）才划算。",
        "not_pays_nobe": "在当前假设下，预留接口并不划算：改造溢价即使高达 {max}，其净现值"
        "仍比后期扩建低 {diff}。",
        "no_hall": "机房为租用（托管），无需自建，预留接口与后期扩建的成本相同。",
        "maxim_yes": "按净现值衡量，数字印证了资料的建议：“{maxim}”。",
        "maxim_half": "资料建议：“{maxim}”。按净现值衡量，在当前假设下，数字只在与后期扩建"
        "相比时印证这一建议；一步到位的净现值更高。",
        "maxim_no": "资料建议：“{maxim}”。按净现值衡量，在当前假设下，数字并不支持这一建议："
        "{winner}的净现值最高。",
        "note": "峰值资金需求：任一月份所需的最大累计资金（累计现金流，不计期末残值）。"
        "平准化成本：初始投资与运营成本的现值 ÷ 售出卡时的现值。",
    },
}

MEASURES = {  # column -> the better direction
    "npv": "higher",
    "peak_funding": "lower",
    "cost_per_gpu_hour": "lower",
    "capex_initial": "lower",
    "capex": "lower",
}
TIE = 1e-6
"""Two options whose figures differ by less than this share are equal."""


def _table(x: Facts) -> pd.DataFrame:
    g = x.analysis.growth
    return growth_options(x.model) if g is None else g


def _value(x: Facts, col: str, v: float) -> str:
    return x.price(v) if col == "cost_per_gpu_hour" else x.money(v)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= TIE * max(abs(a), abs(b), 1.0)


def _measure(x: Facts, rows: pd.DataFrame, col: str) -> Markup:
    """Which option is best on ``col`` and how far behind the others are."""
    G = GROWTH[x.lang]
    v = rows[col].astype(float)
    best = v.max() if MEASURES[col] == "higher" else v.min()
    top = [o for o in OPTIONS if _same(v[o], best)]
    name = {o: G[f"name_{o}"] for o in OPTIONS}
    measure = G[f"m_{col}"].format(month=int(rows["initial_month"].iloc[0]))
    if len(top) == len(OPTIONS):
        return say(G["measure_all"], measure=measure, value=_value(x, col, best))
    others = [
        say(
            G["other"],
            name=name[o],
            diff=_value(x, col, abs(v[o] - best)),
            value=_value(x, col, v[o]),
        )
        for o in OPTIONS
        if o not in top
    ]
    return say(
        G["measure" if len(top) == 1 else "measure_tie"],
        measure=measure,
        best=Markup(G["and"]).join(name[o] for o in top),
        value=_value(x, col, best),
        others=Markup(G["also"]).join(others),
    )


def _hall(x: Facts, rows: pd.DataFrame, first: int) -> list[Markup]:
    """The hall built early against the extension paid later, and whether
    reserving pays for itself."""
    G = GROWTH[x.lang]
    h, r = rows.loc["staged_headroom"], rows.loc["staged_rebuild"]
    early = float(h["facility_month0"] - r["facility_month0"])
    later = float(r["facility_later"])
    if early <= 0 and later <= 0:
        return [Markup(G["no_hall"])]
    premium = f.pct(r["retrofit_premium"], 0)
    out = [
        say(
            G["hall"],
            early=x.money(early),
            later=x.money(later),
            first=f"{first:,}",
            premium=premium,
        )
    ]
    diff = float(h["npv"] - r["npv"])
    be = float(r["breakeven_premium"])
    fields = dict(
        diff=x.money(abs(diff)), be=f.pct(be, 1), premium=premium, max=f.pct(PREMIUM_RANGE, 0)
    )
    if diff >= 0:
        out.append(say(G["pays" if not is_empty(be) else "pays_nobe"], **fields))
    else:
        out.append(say(G["not_pays" if not is_empty(be) else "not_pays_nobe"], **fields))
    return out


def _maxim(x: Facts, rows: pd.DataFrame) -> Markup:
    G = GROWTH[x.lang]
    npv = rows["npv"].astype(float)
    maxim = MAXIM_HEADROOM[x.lang]
    if npv["staged_headroom"] >= npv.max() - TIE * abs(npv.max()):
        return say(G["maxim_yes"], maxim=maxim)
    if npv["staged_headroom"] > npv["staged_rebuild"]:
        return say(G["maxim_half"], maxim=maxim)
    return say(G["maxim_no"], maxim=maxim, winner=G[f"name_{npv.idxmax()}"])


def _intro(x: Facts, tier: str, rows: pd.DataFrame) -> Markup:
    G = GROWTH[x.lang]
    deps = x.model.deployments(tier)
    first = deps.iloc[0]
    steps = [
        say(G["step"], gpus=f"{int(d['gpus']):,}", month=int(d["month"]))
        for _, d in deps.iloc[1:].iterrows()
    ]
    return say(
        G["intro"],
        label=tier_label(x.model, tier, x.lang),
        gpus=f"{int(rows.loc['at_once', 'gpus']):,}",
        first=f"{int(first['gpus']):,}",
        month0=int(first["month"]),
        steps=Markup(G["also"] if x.lang == "en" else "，").join(steps),
        premium=f.pct(rows.loc["staged_rebuild", "retrofit_premium"], 0),
    )


def growth(x: Facts) -> dict[str, Any] | None:
    """The growth section's context, or None when no tier has stages."""
    g = _table(x)
    if g is None or not len(g):
        return None
    G = GROWTH[x.lang]
    tiers = []
    for tier in dict.fromkeys(g.index.get_level_values("tier")):
        rows = g.loc[tier]
        first = int(x.model.deployments(tier).iloc[0]["gpus"])
        table = [
            dict(
                option=o,
                label=G[f"opt_{o}"],
                cells=[dict(metric=c, text=_value(x, c, float(rows.loc[o, c]))) for c in MEASURES],
            )
            for o in OPTIONS
        ]
        tiers.append(
            dict(
                tier=tier,
                label=tier_label(x.model, tier, x.lang),
                intro=_intro(x, tier, rows),
                rows=table,
                measures=[_measure(x, rows, c) for c in MEASURES],
                hall=_hall(x, rows, first),
                maxim=_maxim(x, rows),
            )
        )
    cols = [G["col_npv"], G["col_funding"], G["col_cost"], G["col_initial"], G["col_capex"]]
    return dict(heading=G["heading"], t=G, columns=cols, tiers=tiers, note=G["note"])
