"""What the memo says: the template context, built from a finished model and
its :class:`costmodel.analysis.bundle.Analysis`.

Nothing financial is computed here: figures come from ``Model.summary()``, the
tier inputs and the analysis (break-even prices, the priced risks of
:mod:`costmodel.analysis.risks`). The decision rule: recommend the highest NPV
if any NPV > 0, else name the least-bad (highest NPV) and every tier's
break-even year-1 price; price gap = break-even / assumed price - 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd
from markupsafe import Markup
from pydantic import BaseModel

from costmodel.analysis.breakeven import PRICE_RANGE_FACTOR
from costmodel.core.metrics import METRICS, is_empty
from costmodel.core.model import Model
from costmodel.inputs.schema import Quantity

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis
from costmodel.report.memo import format as f
from costmodel.report.memo.profiles import ASPECT_LABELS, ASPECTS, MAXIMS, PROFILES
from costmodel.report.memo.text import COOLING, METHOD, RISKS, SUMMARY, TEXT


def say(pattern: str, **fields: Any) -> Markup:
    """Fill a trusted HTML pattern; every field is HTML-escaped."""
    return Markup(pattern).format(**fields)


def tier_label(model: Model, tier: str) -> str:
    return model.assumptions.tiers[tier].label or tier


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

    def __post_init__(self) -> None:
        self.summary = self.model.summary()
        be = self.analysis.break_even["price_per_gpu_hour"]
        self.breakeven = {str(t): float(v) for t, v in be.items()}
        self.prices = {
            t: self.model.inputs[t].values()["price_per_gpu_hour"] for t in self.model.tiers
        }

    @property
    def currency(self) -> str:
        return self.model.assumptions.currency

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
    """Executive summary paragraphs, break-even list and key-figure rows."""
    m, s, lang = x.model, x.summary, x.lang
    S = SUMMARY[lang]
    a = m.assumptions
    npv = s["npv"].astype(float)
    ranked = npv.dropna().sort_values(ascending=False)
    best = str(ranked.index[0]) if len(ranked) else m.tiers[0]
    positive = bool(len(ranked)) and ranked.iloc[0] > 0
    one = len(m.tiers) == 1
    decline = m.inputs[best].values()["price_decline"]
    common = dict(
        n=len(m.tiers),
        rate=f.pct(a.finance.discount_rate.value),
        horizon=a.horizon_years,
        decline=f.pct(decline),
    )
    paras: list[Markup] = []  # before the break-even list
    need: list[Markup] = []
    after: list[Markup] = []  # after it
    b = dict(
        label=tier_label(m, best),
        npv=x.metric(best, "npv"),
        capex=x.metric(best, "capex"),
        price=x.price(x.prices[best]),
        be=x.price(x.breakeven.get(best, math.nan)),
        gap=signed_pct(x.gap(best)),
        cost=x.metric(best, "cost_per_gpu_hour"),
    )
    if positive:
        paras.append(say(S["recommend_one" if one else "recommend"], **b, **common))
        detail = "detail_nopay" if is_empty(s.loc[best, "payback_years"]) else "detail"
        paras.append(
            say(
                S[detail],
                capex=b["capex"],
                opex1=x.metric(best, "opex_year1"),
                irr=x.metric(best, "irr"),
                payback=x.metric(best, "payback_years"),
            )
        )
        margin = "margin_free" if is_empty(x.breakeven.get(best, math.nan)) else "margin"
        paras.append(say(S[margin], **b))
        if len(ranked) > 1:
            r = str(ranked.index[1])
            paras.append(say(S["runner_up"], label=tier_label(m, r), npv=x.metric(r, "npv")))
    else:
        paras.append(say(S["none_one" if one else "none"], **common))
        loss = -npv[best] / s.loc[best, "capex"] if s.loc[best, "capex"] > 0 else math.nan
        paras.append(say(S["least_bad_one" if one else "least_bad"], **b, loss_pct=f.pct(loss)))
        for t in m.tiers:
            be = x.breakeven.get(t, math.nan)
            fields = dict(
                label=tier_label(m, t),
                be=x.price(be),
                price=x.price(x.prices[t]),
                gap=signed_pct(x.gap(t)),
                cost=x.metric(t, "cost_per_gpu_hour"),
            )
            need.append(
                say(
                    S["need_none" if is_empty(be) else "need_item"],
                    factor=f"{PRICE_RANGE_FACTOR:g}",
                    **fields,
                )
            )
        gaps = pd.Series({t: x.gap(t) for t in m.tiers}, dtype=float).dropna()
        if len(gaps) > 1 and gaps.idxmin() != best:
            c = str(gaps.idxmin())
            after.append(say(S["closest"], label=tier_label(m, c), gap=signed_pct(gaps[c])))
        after.append(Markup(S["advice"]))
    rows = [
        dict(
            tier=t,
            label=tier_label(m, t),
            chosen=t == best,
            npv=x.metric(t, "npv"),
            npv_negative=bool(npv[t] < 0),
            capex=x.metric(t, "capex"),
            price=x.price(x.prices[t]),
            breakeven=x.price(x.breakeven.get(t, math.nan)),
            gap=signed_pct(x.gap(t)),
            cost=x.metric(t, "cost_per_gpu_hour"),
        )
        for t in m.tiers
    ]
    return dict(
        best=best,
        positive=positive,
        paragraphs=paras,
        need_intro=S["need"],
        need=need,
        after=after,
        key_rows=rows,
        key_note=say(S["key_note"], decline=_declines(m, lang)),
    )


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


def comparison(x: Facts) -> dict[str, Any]:
    """Every summary metric per tier, the best value of a row marked, empty
    cells footnoted by reason."""
    m, s, lang = x.model, x.summary, x.lang
    T = TEXT[lang]
    notes: dict[str, int] = {}
    rows = []
    for col, meta in METRICS.items():
        if col not in s.columns:
            continue
        values = s[col]
        best: set[str] = set()
        if meta.better and len(m.tiers) > 1:
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
        label = meta.label_zh if lang == "zh" else meta.label
        rows.append(dict(metric=col, label=label, better=meta.better, cells=cells))
    footnotes = [
        dict(n=n, text=T[key].format(years=m.assumptions.horizon_years))
        for key, n in sorted(notes.items(), key=lambda kv: kv[1])
    ]
    tiers = [dict(name=t, label=tier_label(m, t)) for t in m.tiers]
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
    """The tier's main risks priced with model numbers (see module docstring)."""
    m, s, lang = x.model, x.summary, x.lang
    R = RISKS[lang]
    row = s.loc[tier]
    n = x.analysis.risks.loc[tier]
    v = m.inputs[tier].values()
    t = m.assumptions.tiers[tier]
    cls = str(row["scale_class"])
    cost = float(n["cost"])
    per_year = float(n["per_year"]) if float(n["per_year"]) > 0 else math.nan
    out: dict[str, Markup] = {}
    out["mfu"] = say(
        R["mfu"],
        at_stake=x.money(n["mfu_at_stake"]),
        pv_cost=x.money(n["pv_cost"]),
        cpf=f.price(n["cost_per_pflop_hour"], lang, x.currency, "pflop"),
        cpf20=f.price(n["cost_per_pflop_hour_degraded"], lang, x.currency, "pflop"),
        mfu=f.pct(n["mfu"], 0),
    )
    if is_empty(per_year):
        out["failures"] = say(R["failures_none"])
    else:
        out["failures"] = say(
            R["failures"],
            mtbf=duration(n["mtbf"], lang),
            per_year=times(per_year),
            goodput=f.pct(n["goodput"]),
            lost_hours=f.count(n["lost_hours"], lang),
            lost_money=x.money(n["lost_money"]),
            cost=x.price(cost),
        )
    fabric = t.network.fabric
    out["network"] = say(
        R["network"],
        fabric_text=(fabric + ("；" if lang == "zh" else ". ")) if fabric else "",
        share=x.metric(tier, "network_share"),
        capex_network=x.metric(tier, "capex_network"),
    )
    if not is_empty(per_year):
        out["backup"] = say(
            R["backup"],
            day_cost=x.money(n["day_cost"]),
            gpus=f"{int(row['gpus']):,}",
            cost=x.price(cost),
            per_year=times(per_year),
        )
    tau = float(n["tau"])
    if not is_empty(tau) and tau > 0:
        delta = float(n["delta_h"])
        out["io"] = say(
            R["io"],
            ckpt=f"{f.number(v['checkpoint_tb'])} TB",
            write=f"{f.number(v['write_gbps'])} GB/s",
            delta=duration(delta, lang) if delta >= 1 else seconds(delta * 3600, lang),
            tau=duration(tau, lang),
            share=f.pct(n["write_share"], 2),
            share10=f.pct(n["write_share_often"], 1),
            money10=x.money(n["io_money"]),
        )
    out["cooling"] = say(
        R["cooling"],
        cooling=COOLING[lang].get(t.cooling, t.cooling),
        pue=f"PUE {f.number(v['pue'])}",
        capex_facility=x.metric(tier, "capex_facility"),
        day_cost=x.money(n["day_cost"]),
    )
    order = {
        "tens": ("backup", "failures", "mfu", "network"),
        "hundreds": ("network", "mfu", "io", "failures"),
        "thousands": ("failures", "cooling", "mfu", "network", "io"),
    }[cls]
    return [out[k] for k in order if k in out]


def profiles(x: Facts) -> list[dict[str, Any]]:
    """Per tier: the source's typical profile beside the tier's own data, the
    capex checked against the source's cost range, and the priced risks."""
    m, s, lang = x.model, x.summary, x.lang
    T, R = TEXT[lang], RISKS[lang]
    a = m.assumptions
    out = []
    for tier in m.tiers:
        t = a.tiers[tier]
        row = s.loc[tier]
        cls = str(row["scale_class"])
        seed = PROFILES[cls][lang]
        server = a.servers[t.server]
        band = cost_band(x, cls)
        capex = float(row["capex"])
        v = m.inputs[tier].values()
        gpu = "卡" if lang == "zh" else " GPUs"
        own = {
            "workloads": t.description or f.EMPTY,
            "servers": f"{int(row['servers']):,} × {server.label or t.server} "
            f"({int(row['gpus']):,}{gpu})",
            "network": f"{t.network.fabric or f.EMPTY} · {x.metric(tier, 'network_share')}",
            "storage": f"{t.storage.kind or f.EMPTY} · {f.number(v['storage_capacity_tb'])} TB"
            f" · {f.number(v['write_gbps'])} GB/s",
            "scheduling": t.scheduler or f.EMPTY,
            "cooling": f"{COOLING[lang].get(t.cooling, t.cooling)} · "
            f"{T['rack_kw'].format(kw=f.number(v['rack_kw']))} · PUE {f.number(v['pue'])}",
            "cost": x.metric(tier, "capex"),
            "team": T["team_fte"].format(fte=f.number(v["staff_fte"])),
        }
        rows = [
            dict(aspect=ASPECT_LABELS[lang][k], seed=seed[k], own=own[k], key=k) for k in ASPECTS
        ]
        out.append(
            dict(
                tier=tier,
                label=tier_label(m, tier),
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
        rows.append(dict(section=section, path=path, **row))
    return rows


def method(x: Facts) -> list[dict[str, str]]:
    a = x.model.assumptions
    fields = dict(
        months=12 * a.horizon_years,
        hours=730,
        rate=f.pct(a.finance.discount_rate.value),
        tax=f.pct(a.finance.tax_rate.value),
    )
    return [dict(heading=h, text=p.format(**fields)) for h, p in METHOD[x.lang]]


def maxims(lang: str) -> list[str]:
    return MAXIMS[lang]
