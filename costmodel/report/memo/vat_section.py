"""The memo's paragraph on value-added tax (methodology §24), when the model has a
``vat`` section: per tier, the VAT cash tied up in input credit (its peak and the
month of the peak), when it comes back (the year-end refunds under 留抵退税, or the
month the credit is used up against output VAT, or what is left and lost at the
end), the VAT paid and the surtax. Every figure is read from ``Model.vat`` and
the summary; None without a ``vat`` section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from costmodel.inputs.forms import refund_mode
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import say
from costmodel.report.memo.financing_section import month_text
from costmodel.report.memo.labels import tier_label

if TYPE_CHECKING:
    from costmodel.report.memo.context import Facts

# The words of the VAT paragraph, English and Chinese: trusted HTML patterns with
# ``{named}`` fields, filled by :func:`costmodel.report.memo.context.say`.
VAT: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Value-added tax",
        "intro": "Prices and costs in this model are net of VAT. Output VAT is {output} of "
        "revenue; the input VAT on equipment and on the opex that carries it is credited "
        "against it, and the surtaxes ({surtax} of the VAT paid) are an expense that lowers "
        "the taxable profit. {refund}",
        "refund_on": "Credit not used by a year end is refunded then (留抵退税).",
        "refund_monthly": "Credit not used by a month end is claimed and refunded the next "
        "month (MOF/STA 2025 No. 7). This assumes the operator meets that rule's conditions "
        "from its first month: over half of its sales of the prior 12 months in IT services "
        "(or the three other industries it names) and a tax credit rating of A or B, as an "
        "existing IT-services taxpayer does; a newly set-up project company is rated M until "
        "its first annual evaluation and claims its first refund about 16 months after it "
        "starts (<code>vat.refund: annual</code> models that).",
        "ratio": " Only {ratio} of it qualifies (the share of input VAT that counts, "
        "进项构成比例); the rest stays in the pool.",
        "refund_off": "Credit not used is carried forward, not refunded; what is left at the "
        "end of the horizon is lost.",
        "tier": "<strong>{label}</strong>: input VAT not yet credited, cash paid and not "
        "yet recovered, builds up to {peak} by {peak_month}; {back}. VAT paid over the "
        "horizon is {paid}, surtaxes {surtax}.",
        "refunded": "{first} comes back by refund at the end of {first_month}",
        "refunded_all": "{first} comes back by refund at the end of {first_month}, {refunded} in "
        "all over the horizon",
        "used_up": "it is used up against output VAT by {month}",
        "lost": "{left} is still unused at the end of the horizon and is lost",
        "none": "Input VAT never exceeds output VAT, so no cash is tied up in credit",
        "tier_none": "<strong>{label}</strong>: {none}. VAT paid over the horizon is "
        "{paid}, surtaxes {surtax}.",
        "note": "Peak credit: the largest input VAT not yet credited, before any refund. "
        "VAT cash (output − input − VAT paid + refunds − surtaxes) is in the free and equity "
        "cash flows, so NPV, IRR, payback and peak funding include it.",
    },
    "zh": {
        "heading": "增值税",
        "intro": "本模型的价格与成本均为不含税金额。销项税率为收入的 {output}；设备及可抵扣"
        "运营成本的进项税额用于抵扣销项税额，附加税费（按实缴增值税的 {surtax}）计入费用，"
        "减少应纳税所得额。{refund}",
        "refund_on": "年末未抵扣完的留抵税额当年末退还（留抵退税）。",
        "refund_monthly": "月末未抵扣完的留抵税额于次月申请退还"
        "（财政部 税务总局公告 2025 年第 7 号）。此处假设运营方自首月起即满足该公告的条件："
        "此前 12 个月信息技术服务等四类行业销售额占比超过 50%，且纳税信用等级为 A 级或 B 级，"
        "已有的信息技术服务纳税人可以满足；新设项目公司在首次年度评价前为 M 级，"
        "约在开业 16 个月后才能首次申请退还（以 <code>vat.refund: annual</code> 测算）。",
        "ratio": "其中仅 {ratio} 可予退还（进项构成比例），其余留在留抵税额中。",
        "refund_off": "未抵扣完的留抵税额结转下期、不予退还；测算期末仍未抵扣的部分作废。",
        "tier": "<strong>{label}</strong>：已支付尚未抵扣的进项留抵税额"
        "至{peak_month}累计达 {peak}；"
        "{back}。测算期内缴纳增值税 {paid}，附加税费 {surtax}。",
        "refunded": "其中 {first} 于 {first_month}末退还",
        "refunded_all": "其中 {first} 于 {first_month}末退还，测算期内累计退还 {refunded}",
        "used_up": "至{month}已被销项税额抵扣完毕",
        "lost": "测算期末仍有 {left} 未抵扣，作废",
        "none": "进项税额从未超过销项税额，没有资金被留抵占用",
        "tier_none": "<strong>{label}</strong>：{none}。测算期内缴纳增值税 {paid}，"
        "附加税费 {surtax}。",
        "note": "留抵峰值：退税前尚未抵扣的进项税额的最大值。增值税现金流（销项 − 进项 − "
        "实缴 + 退税 − 附加税费）计入自由现金流与股东现金流，净现值、内部收益率、回收期与"
        "峰值资金需求均已包含。",
    },
}


def _back(x: Facts, v: Any, peak_at: int) -> Markup:
    """When the credit comes back: by refund, used up, or lost at the end."""
    V = VAT[x.lang]
    refunds = v[v["refund"] > 0]
    if len(refunds):
        first = refunds.iloc[0]
        more = len(refunds) > 1
        return say(
            V["refunded_all" if more else "refunded"],
            first=x.money(first["refund"]),
            first_month=month_text(str(first["period"]), x.lang),
            refunded=x.money(float(v["refund"].sum())),
        )
    after = v.iloc[peak_at:]
    empty = after[after["credit"] <= 0]
    if len(empty):
        return say(V["used_up"], month=month_text(str(empty.iloc[0]["period"]), x.lang))
    return say(V["lost"], left=x.money(float(v["credit"].iloc[-1])))


def _refund_text(V: dict[str, str], vat: Any) -> Markup:
    """How the credit is refunded (methodology §11.6, §11.11): at year ends, each
    month or not at all, and the share that qualifies when it is not all."""
    mode = refund_mode(vat)
    text = Markup(V[{"annual": "refund_on", "monthly": "refund_monthly"}.get(mode, "refund_off")])
    ratio = vat.refund_ratio.value
    if mode != "none" and ratio < 1:
        text += say(V["ratio"], ratio=f.pct(ratio))
    return text


def vat(x: Facts) -> dict[str, Any] | None:
    """The VAT section's context, or None without a ``vat`` section."""
    a = x.model.assumptions
    if a.vat is None:
        return None
    V = VAT[x.lang]
    intro = say(
        V["intro"],
        output=f.pct(a.vat.output_rate.value),
        surtax=f.pct(a.vat.surtax_rate.value),
        refund=_refund_text(V, a.vat),
    )
    rows = []
    for t in x.model.tiers:
        v = x.model.vat(t)
        s = x.summary.loc[t]
        label = tier_label(x.model, t, x.lang)
        paid, surtax = x.money(s["vat_paid"]), x.money(s["surtax"])
        if not s["vat_credit_peak"] > 0:
            text = say(
                V["tier_none"], label=label, none=Markup(V["none"]), paid=paid, surtax=surtax
            )
        else:
            peak_at = int(v["credit_before_refund"].to_numpy().argmax())
            text = say(
                V["tier"],
                label=label,
                peak=x.money(s["vat_credit_peak"]),
                peak_month=month_text(str(v["period"].iloc[peak_at]), x.lang),
                back=_back(x, v, peak_at),
                paid=paid,
                surtax=surtax,
            )
        rows.append(dict(tier=t, text=text))
    return dict(heading=V["heading"], intro=intro, rows=rows, note=V["note"])
