"""What the memo says: the template context, built from a finished model and
its :class:`costmodel.analysis.bundle.Analysis`.

Nothing financial is computed here: figures come from ``Model.summary()``, the
tier inputs and the analysis (break-even prices, the priced risks of
:mod:`costmodel.analysis.risks`, the options table of
:mod:`costmodel.analysis.decision`). The decision rule is
:func:`costmodel.analysis.decision.choose`: the highest positive NPV, else no option
is worth building and the closest is the highest NPV per unit of capex; then
every tier's break-even year-1 price and utilization (price gap = break-even /
assumed price - 1), where the base case sits in the Monte Carlo distribution,
flagged inputs, and build versus rent by the sign of each tier's saving.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd
from markupsafe import Markup
from pydantic import BaseModel

from costmodel.analysis.breakeven import PRICE_RANGE_FACTOR
from costmodel.analysis.decision import OPTIMISTIC, choose
from costmodel.core.metrics import METRICS, is_empty
from costmodel.core.model import Model
from costmodel.inputs.params import revenue_mode
from costmodel.inputs.schema import Quantity

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis
from costmodel.report.memo import cache
from costmodel.report.memo import numbers as f
from costmodel.report.memo.labels import gpu_name, input_key, input_label, metric_label, tier_label
from costmodel.report.memo.profiles import ASPECT_LABELS, ASPECTS, MAXIMS, PROFILES
from costmodel.report.memo.text import TEXT
from costmodel.report.memo.text_analysis import RENT
from costmodel.report.memo.text_method import METHOD, METHOD_RULES, SECTIONS
from costmodel.report.memo.text_risks import COOLING, RISKS
from costmodel.report.memo.text_summary import SUMMARY


def say(pattern: str, **fields: Any) -> Markup:
    """Fill a trusted HTML pattern; every field is HTML-escaped."""
    return Markup(pattern).format(**fields)


def signed_pct(x: float) -> str:
    """``+42.8%`` / ``−20.0%``."""
    return f.EMPTY if is_empty(x) else ("+" if x >= 0 else "") + f.pct(x)


duration = f.duration  # shared with the tests and memo_reliability
seconds = f.seconds


def times(n: float) -> str:
    """A count of events: one decimal below 10 (``7.3``), else whole (``234``)."""
    return f"{n:,.1f}" if n < 10 else f"{n:,.0f}"


@dataclass
class Facts:
    """The numbers the text needs, per tier."""

    model: Model
    lang: str
    analysis: Analysis
    summary: pd.DataFrame = field(init=False)
    breakeven: dict[str, float] = field(init=False)
    prices: dict[str, float] = field(init=False)
    options: pd.DataFrame = field(init=False)
    choice: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.summary = cache.summary(self.model)
        self.options = self.analysis.options
        self.choice = choose(self.options)
        be = self.analysis.break_even["price_per_gpu_hour"]
        self.breakeven = {str(t): float(v) for t, v in be.items()}
        self.prices = {
            t: self.model.inputs[t].values()["price_per_gpu_hour"] for t in self.model.tiers
        }

    @property
    def currency(self) -> str:
        return self.model.assumptions.currency

    @property
    def currency_word(self) -> str:
        """The currency's unit in a sentence ("CNY" / "元")."""
        return f.currency_unit(self.lang, self.currency)

    def money(self, v: float) -> str:
        return f.money(v, self.lang, self.currency)

    def price(self, v: float) -> str:
        return f.price(v, self.lang, self.currency)

    def metric(self, tier: str, column: str) -> str:
        value = self.summary.loc[tier, column]
        return f.fmt(value, METRICS[column].kind, self.lang, self.currency, column)

    def gap(self, tier: str) -> float:
        p, be = self.prices[tier], self.breakeven.get(tier, math.nan)
        return be / p - 1 if p > 0 and not is_empty(be) else math.nan


# ----------------------------------------------------------------------------- summary


def decision(x: Facts) -> dict[str, Any]:
    """Executive summary: the decision by the rule of
    :func:`costmodel.analysis.decision.choose`, where the base case sits in the
    Monte Carlo distribution, flagged inputs, build versus rent, and the key rows."""
    m, lang = x.model, x.lang
    S = SUMMARY[lang]
    c = x.choice
    best = str(c["tier"])
    paras = _recommend(x) if c["worth"] else _no_option(x)
    need: list[Markup] = [] if c["worth"] else [_need_item(x, t) for t in m.tiers]
    after = [p for p in (_mc_sentence(x, best), _could_change(x, best)) if p is not None]
    after += _flags(x)
    after += _rent_verdict(x)
    if not c["worth"]:
        after.append(Markup(S["advice"]))
    rows = [_key_row(x, t, best) for t in m.tiers]
    return dict(
        best=best,
        positive=bool(c["worth"]),
        paragraphs=paras,
        need_intro=S["need"],
        need=need,
        after=after,
        key_rows=rows,
        price_unit=price_unit(x),
        key_note=say(S["key_note"], decline=_declines(m, lang))
        + (S["key_note_red"] if any(r["above_cloud"] for r in rows) else ""),
    )


def _common(x: Facts) -> dict[str, Any]:
    a = x.model.assumptions
    return dict(
        n=len(x.model.tiers), rate=f.pct(a.finance.discount_rate.value), horizon=a.horizon_years
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
    one = len(m.tiers) == 1
    out = [say(S["recommend_one" if one else "recommend"], **b, **_common(x))]
    detail = "detail_nopay" if is_empty(s.loc[best, "payback_years"]) else "detail"
    out.append(
        say(
            S[detail],
            capex=b["capex"],
            opex1=x.metric(best, "opex_year1"),
            irr=x.metric(best, "irr"),
            payback=x.metric(best, "payback_years"),
        )
    )
    out.append(
        say(S["margin_free" if is_empty(x.breakeven.get(best, math.nan)) else "margin"], **b)
    )
    if not one:
        rank = int(x.options.loc[best, "rank_pi"])
        out.append(say(S["recommend_pi"], **b, rank=rank, n=len(m.tiers)))
        alt = str(c["by_pi"])
        if alt != best and float(x.options.loc[alt, "npv"]) > 0:
            out.append(say(S["pi_alt"], **_tier_fields(x, alt)))
    return out


def _no_option(x: Facts) -> list[Markup]:
    """No NPV > 0: say so; the closest by NPV per unit of capex, and why not the
    smallest loss in absolute terms."""
    m, S, c = x.model, SUMMARY[x.lang], x.choice
    one = len(m.tiers) == 1
    out = [say(S["none_one" if one else "none"], **_common(x))]
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
    return out


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


def _could_change(x: Facts, tier: str) -> Markup | None:
    """The tier's largest driver (the tornado's first row) and its MFU what-if."""
    d = x.analysis.tornado
    d = d[(d["tier"] == tier) & (d["swing"] > 0)]
    n = x.analysis.risks.loc[tier]
    if not len(d) or not float(n["mfu_loss_share"]) > 0:
        return None
    top = d.iloc[0]
    name = input_label(x.model, tier, str(top["input"]), x.lang)[0]
    return say(
        SUMMARY[x.lang]["could_change"],
        input=name[:1].lower() + name[1:] if x.lang == "en" else name,
        label=tier_label(x.model, tier, x.lang),
        at_low=x.money(top["at_low"]),
        at_high=x.money(top["at_high"]),
        mfu=f.pct(n["mfu"], 0),
        degraded=f.pct(n["degraded_mfu"], 0),
        at_stake=x.money(n["mfu_at_stake"]),
    )


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


# ----------------------------------------------------------------------------- table

_EMPTY_REASON = {
    "irr": "fn_irr",
    "payback_years": "fn_payback",
    "mtbf_hours": "fn_failures",
    "checkpoint_interval_hours": "fn_failures",
}


QUALITY = frozenset(
    {
        "tco_per_gpu_hour",
        "cost_per_gpu_hour",
        "irr",
        "payback_years",
        "roi",
        "goodput",
        "cost_per_effective_gpu_hour",
        "cost_per_pflop_hour",
        "availability",
        "equity_irr",
        "min_dscr",
    }
)
"""The rows whose best value is starred: measures of quality per unit (cost per
GPU-hour, return per unit invested), not of size (capex, revenue, NPV, MTBF all
favour the smallest or the largest option by construction)."""


def comparison(x: Facts) -> dict[str, Any]:
    """Every summary metric per tier, the best value of a :data:`QUALITY` row
    marked, empty cells footnoted by reason."""
    m, s, lang = x.model, x.summary, x.lang
    T = TEXT[lang]
    notes: dict[str, int] = {}
    rows = []
    for col, meta in METRICS.items():
        if col not in s.columns:
            continue
        values = s[col]
        best: set[str] = set()
        if meta.better and col in QUALITY and len(m.tiers) > 1:
            v = pd.to_numeric(values, errors="coerce").dropna()
            if len(v) and v.nunique() > 1:
                target = v.max() if meta.better == "higher" else v.min()
                best = {str(t) for t in v.index[v == target]}
        cells = []
        for t in m.tiers:
            empty = is_empty(values[t])
            note = None
            if empty:
                key = _EMPTY_REASON.get(col, "fn_other")
                note = notes.setdefault(key, len(notes) + 1)
            cells.append(
                dict(tier=t, text=x.metric(t, col), best=t in best, empty=empty, note=note)
            )
        label = metric_label(meta, lang)
        rows.append(dict(metric=col, label=label, better=meta.better, cells=cells))
    footnotes = [
        dict(n=n, text=T[key].format(years=m.assumptions.horizon_years))
        for key, n in sorted(notes.items(), key=lambda kv: kv[1])
    ]
    tiers = [dict(name=t, label=tier_label(m, t, x.lang)) for t in m.tiers]
    return dict(tiers=tiers, rows=rows, footnotes=footnotes)


# ----------------------------------------------------------------------------- profiles


def cost_band(x: Facts, cls: str) -> tuple[float, float | None] | None:
    """The domain source's build-cost band of scale class ``cls`` in the model's
    currency (``reference.build_cost``), or None when there is none to compare."""
    ref = x.model.assumptions.reference
    if ref is None or ref.currency != x.currency or cls not in ref.build_cost:
        return None
    band = ref.build_cost[cls]
    return band.low, band.high


def _cost_range(x: Facts, band: tuple[float, float | None]) -> str:
    lo, hi = band
    if hi:
        return f"{x.money(lo)} – {x.money(hi)}"
    return f"{x.money(lo)}以上" if x.lang == "zh" else f"{x.money(lo)} or more"


def _where(capex: float, band: tuple[float, float | None]) -> str:
    lo, hi = band
    return "below" if capex < lo else "above" if hi and capex > hi else "within"


def risks(x: Facts, tier: str) -> list[Markup]:
    """The tier's main risks priced with model numbers (``Analysis.risks``), in the
    order the source ranks them for the tier's scale class."""
    cls = str(x.summary.loc[tier, "scale_class"])
    n = x.analysis.risks.loc[tier]
    out: dict[str, Markup] = {"mfu": _risk_mfu(x, n), "network": _risk_network(x, tier)}
    out["failures"] = _risk_failures(x, n)
    if float(n["per_year"]) > 0:
        out["backup"] = _risk_backup(x, tier, n)
    tau = float(n["tau"])
    if not is_empty(tau) and tau > 0:
        out["io"] = _risk_io(x, n)
    out["cooling"] = _risk_cooling(x, tier, n)
    sw = x.analysis.software
    if sw is not None and sw["big"] == tier and not is_empty(sw["ratio"]):
        out["software"] = _risk_software(x, sw)  # nothing to compare when goodput is 0
    order = {
        "tens": ("backup", "failures", "mfu", "network"),
        "hundreds": ("network", "mfu", "io", "failures"),
        "thousands": ("failures", "software", "cooling", "mfu", "network", "io"),
    }[cls]
    return [out[k] for k in order if k in out]


def _pflop(x: Facts, v: float) -> str:
    return f.price(v, x.lang, x.currency, "pflop")


def _risk_mfu(x: Facts, n: pd.Series) -> Markup:
    R = RISKS[x.lang]
    fields = dict(mfu=f.pct(n["mfu"], 0), degraded=f.pct(n["degraded_mfu"], 0))
    if not float(n["mfu_loss_share"]) > 0:
        return say(R["mfu_none"], **fields)
    return say(
        R["mfu"],
        loss=f.pct(n["mfu_loss_share"]),
        at_stake=x.money(n["mfu_at_stake"]),
        pv_cost=x.money(n["pv_cost"]),
        cpf=_pflop(x, n["cost_per_pflop_hour"]),
        cpf20=_pflop(x, n["cost_per_pflop_hour_degraded"]),
        **fields,
    )


def _risk_failures(x: Facts, n: pd.Series) -> Markup:
    R, lang = RISKS[x.lang], x.lang
    if not float(n["per_year"]) > 0:
        return say(R["failures_none"])
    head = say(
        R["failures"],
        rate=f.number(n["per_day"] / n["servers"]),
        servers=f"{int(n['servers']):,}",
        mtbf=duration(n["mtbf"], lang),
        per_day=f"{n['per_day']:,.2f}",
        per_year=times(n["per_year"]),
        goodput=f.pct(n["goodput"]),
        lost_hours=f.count(n["lost_hours"], lang),
        lost_money=x.money(n["lost_money"]),
        cost=x.price(n["cost"]),
        rate_high=f.number(n["failures_high"]),
        per_day_high=f"{n['per_day_high']:,.2f}",
        goodput_high=f.pct(n["goodput_high"]),
        lost_money_high=x.money(n["lost_money_high"]),
    )
    repair = float(n["repair_hours"]) > 0
    tail = say(
        R["failures_npv_repair" if repair else "failures_npv"],
        pv_lost=x.money(n["pv_revenue_lost"]),
        repair=duration(n["repair_hours"], lang),
        availability=f.pct(n["availability"], 2),
        npv_delta=f.signed(float(n["npv_high_rate"] - n["npv"]), x.money),
        npv_high=x.money(n["npv_high_rate"]),
    )
    return Markup("" if lang == "zh" else " ").join([head, tail])


def _risk_network(x: Facts, tier: str) -> Markup:
    fabric = x.model.assumptions.tiers[tier].network.fabric
    text = Markup("")
    if fabric:
        text = data_text(fabric, x.lang) + Markup("；" if x.lang == "zh" else ". ")
    return say(
        RISKS[x.lang]["network"],
        fabric_text=text,
        share=x.metric(tier, "network_share"),
        capex_network=x.metric(tier, "capex_network"),
    )


def _risk_backup(x: Facts, tier: str, n: pd.Series) -> Markup:
    v = x.model.inputs[tier].values()
    hours = float(n["backup_hours"])
    return say(
        RISKS[x.lang]["backup"],
        ckpt=f"{f.number(n['checkpoint_tb'])} TB",
        backup_cost=x.money(n["backup_cost"]),
        price_tb=x.money(v["storage_price_per_tb"]),
        day_cost=x.money(n["day_cost"]),
        gpus=f"{int(n['gpus']):,}",
        cost=x.price(n["cost"]),
        per_year=times(n["per_year"]),
        backup_time=duration(hours, x.lang) if hours >= 1 / 60 else seconds(hours * 3600, x.lang),
    )


def _risk_io(x: Facts, n: pd.Series) -> Markup:
    delta = float(n["delta_h"])
    a = x.model.assumptions
    return say(
        RISKS[x.lang]["io"],
        ckpt=f"{f.number(n['checkpoint_tb'])} TB",
        write=f"{f.number(n['write'])} GB/s",
        delta=duration(delta, x.lang) if delta >= 1 else seconds(delta * 3600, x.lang),
        tau=duration(n["tau"], x.lang),
        share=f.pct(n["write_share"], 2),
        share10=f.pct(n["write_share_often"], 1),
        money10=x.money(n["io_money"]),
        factor=f.number(a.risks.checkpoint_frequency_factor.value),
    )


def _risk_cooling(x: Facts, tier: str, n: pd.Series) -> Markup:
    t = x.model.assumptions.tiers[tier]
    return say(
        RISKS[x.lang]["cooling"],
        cooling=COOLING[x.lang].get(t.cooling, t.cooling),
        pue=f"PUE {f.number(x.model.inputs[tier].values()['pue'])}",
        capex_facility=x.metric(tier, "capex_facility"),
        day_cost=x.money(n["day_cost"]),
    )


def _risk_software(x: Facts, sw: dict[str, Any]) -> Markup:
    return say(
        RISKS[x.lang]["software"],
        degraded=f.pct(sw["degraded_mfu"], 0),
        big=tier_label(x.model, sw["big"], x.lang),
        mid=tier_label(x.model, sw["mid"], x.lang),
        big_degraded=_pflop(x, sw["big_degraded"]),
        big_tuned=_pflop(x, sw["big_tuned"]),
        mid_tuned=_pflop(x, sw["mid_tuned"]),
        big_mfu=f.pct(sw["big_mfu"], 0),
        mid_mfu=f.pct(sw["mid_mfu"], 0),
        ratio=f"{sw['ratio']:.1f}",
    )


def data_text(text: str, lang: str) -> Markup:
    """Text from the assumption files. In the Chinese memo it keeps the language it
    was written in, marked ``lang="en"`` (the schema has no Chinese for it)."""
    if lang == "zh":
        return Markup('<span lang="en" class="data">{}</span>').format(text)
    return Markup("{}").format(text)


def _data_or_empty(text: str | None, lang: str) -> Markup:
    return data_text(text, lang) if text else Markup(f.EMPTY)


def _own_profile(x: Facts, tier: str) -> dict[str, Markup | str]:
    """The tier's own traits from the assumption files (text marked as data)."""
    m, lang = x.model, x.lang
    T = TEXT[lang]
    t = m.assumptions.tiers[tier]
    row = x.summary.loc[tier]
    v = m.inputs[tier].values()
    dot = Markup(" · ")
    if lang == "zh":
        per = int(v["gpus_per_server"])
        servers = (
            f"{int(row['servers']):,} 台 × {per} 卡 {gpu_name(m, tier)}"
            f"（共 {int(row['gpus']):,} 卡）"
        )
    else:
        label = m.assumptions.servers[t.server].label or t.server
        servers = f"{int(row['servers']):,} × {label} ({int(row['gpus']):,} GPUs)"
    return {
        "workloads": _data_or_empty(t.description, lang),
        "servers": servers,
        "network": _data_or_empty(t.network.fabric, lang) + dot + x.metric(tier, "network_share"),
        "storage": _data_or_empty(t.storage.kind, lang)
        + dot
        + f"{f.number(v['storage_capacity_tb'])} TB · {f.number(v['write_gbps'])} GB/s",
        "scheduling": _data_or_empty(t.scheduler, lang),
        "cooling": f"{COOLING[lang].get(t.cooling, t.cooling)} · "
        f"{T['rack_kw'].format(kw=f.number(v['rack_kw']))} · PUE {f.number(v['pue'])}",
        "cost": x.metric(tier, "capex"),
        "team": T["team_fte"].format(fte=f.number(v["staff_fte"])),
    }


def profiles(x: Facts) -> list[dict[str, Any]]:
    """Per tier: the source's typical profile beside the tier's own data, the
    capex checked against the source's cost range, and the priced risks."""
    m, s, lang = x.model, x.summary, x.lang
    R = RISKS[lang]
    out = []
    for tier in m.tiers:
        row = s.loc[tier]
        cls = str(row["scale_class"])
        seed = PROFILES[cls][lang]
        band = cost_band(x, cls)
        capex = float(row["capex"])
        own = _own_profile(x, tier)
        rows = [
            dict(aspect=ASPECT_LABELS[lang][k], seed=seed[k], own=own[k], key=k) for k in ASPECTS
        ]
        out.append(
            dict(
                tier=tier,
                label=tier_label(m, tier, x.lang),
                scale_class=f.fmt(cls, "text", lang),
                headline=seed["headline"],
                rows=rows,
                capex_check=None
                if band is None
                else say(
                    R["capex_range"],
                    capex=x.metric(tier, "capex"),
                    where=R[_where(capex, band)],
                    range=_cost_range(x, band),
                ),
                seed_risk=seed["risk"],
                trap=seed["trap"],
                risks=risks(x, tier),
            )
        )
    return out


# ----------------------------------------------------------------------------- appendix


def walk(obj: Any, path: str = ""):
    """Yield ``(dotted path, leaf)`` for every input of validated assumptions:
    :class:`Quantity` objects and plain values (text, whole numbers, flags)."""
    if isinstance(obj, Quantity):
        yield path, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            if value is not None:
                yield from walk(value, f"{path}.{name}" if path else name)
    elif isinstance(obj, dict):
        for k, value in obj.items():
            yield from walk(value, f"{path}.{k}")
    elif isinstance(obj, list | tuple):
        for i, value in enumerate(obj):
            yield from walk(value, f"{path}[{i}]")
    else:
        yield path, obj


def assumption_rows(x: Facts) -> list[dict[str, Any]]:
    """Every assumption with its value, range, unit, source and note, grouped by
    top-level section."""
    rows = []
    for path, leaf in walk(x.model.assumptions):
        top = path.split(".", 1)[0].split("[", 1)[0]
        section = top if top != path else ""  # top-level scalars: the model group
        if isinstance(leaf, Quantity):
            rng = (
                f"{f.number(leaf.low)} – {f.number(leaf.high)}"
                if leaf.low is not None or leaf.high is not None
                else ""
            )
            row = dict(
                value=f.number(leaf.value),
                range=rng,
                unit=leaf.unit or "",
                source=leaf.source or "",
                note=leaf.note or "",
                numeric=True,
            )
        else:
            numeric = isinstance(leaf, int | float) and not isinstance(leaf, bool)
            text = f.number(leaf) if numeric else str(leaf)
            row = dict(value=text, range="", unit="", source="", note="", numeric=numeric)
        sections = SECTIONS[x.lang]
        rows.append(
            dict(
                section=section,
                section_label=sections.get(section, section),
                path=path,
                label=_appendix_label(x, path),
                **row,
            )
        )
    return rows


def _appendix_label(x: Facts, path: str) -> str:
    """The readable name of an input in the appendix ('' when it has none)."""
    parts = path.split(".")
    tier = parts[1] if parts[0] == "tiers" and len(parts) > 2 else x.model.tiers[0]
    if tier not in x.model.tiers or input_key(x.model, tier, path) is None:
        return ""
    return input_label(x.model, tier, path, x.lang)[0]


def method(x: Facts) -> list[dict[str, str]]:
    a = x.model.assumptions
    fields = dict(
        months=12 * a.horizon_years,
        hours=730,
        rate=f.pct(a.finance.discount_rate.value),
        tax=f.pct(a.finance.tax_rate.value),
        degraded=f.pct(a.risks.degraded_mfu.value, 0),
        factor=f.number(a.risks.checkpoint_frequency_factor.value),
        **_method_rules(x),
    )
    return [dict(heading=h, text=p.format(**fields)) for h, p in METHOD[x.lang]]


def _method_rules(x: Facts) -> dict[str, str]:
    """The loss carry-forward and terminal-value rules as the inputs set them."""
    a = x.model.assumptions
    R = METHOD_RULES[x.lang]
    years = a.finance.loss_carryforward_years
    years = getattr(years, "value", years)
    loss = R["loss_unlimited"] if years is None else R["loss_years"].format(years=int(years))
    return dict(loss_rule=loss, terminal=R[f"terminal_{a.terminal_value}"])


def maxims(lang: str) -> list[str]:
    return MAXIMS[lang]
