"""The memo's priced risks of one tier (:mod:`costmodel.analysis.risks`): MFU, failures,
network, checkpoint backup, checkpoint IO, cooling and software, one sentence each
(words in :mod:`costmodel.report.memo.text_risks`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from markupsafe import Markup

from costmodel.catalogue.items import capex_column
from costmodel.core.metrics import is_empty
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, own_text, say, times
from costmodel.report.memo.labels import tier_label
from costmodel.report.memo.numbers import duration, seconds
from costmodel.report.memo.text_risks import COOLING, RISKS


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
    network = x.model.assumptions.tiers[tier].network
    fabric = own_text(network, "fabric", x.lang, f"tiers.{tier}.network")
    text = Markup("")
    if fabric is not None:
        text = fabric + Markup("；" if x.lang == "zh" else ". ")
    return say(
        RISKS[x.lang]["network"],
        fabric_text=text,
        share=x.metric(tier, "network_share"),
        network_capex=x.metric(tier, capex_column("network")),
    )


def _risk_backup(x: Facts, tier: str, n: pd.Series) -> Markup:
    hours = float(n["backup_hours"])
    return say(
        RISKS[x.lang]["backup"],
        ckpt=f"{f.number(n['checkpoint_tb'])} TB",
        backup_cost=x.money(n["backup_cost"]),
        price_tb=x.money(n["price_per_tb"]),
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
    ) + _node_trade(x, n)


def _node_trade(x: Facts, n: pd.Series) -> Markup:
    """The IO storm as a trade of one storage node against goodput (storage in nodes,
    methodology §28.2); nothing for storage priced per TB."""
    if is_empty(n["storage_nodes"]):
        return Markup("")
    words = RISKS[x.lang]
    payback, horizon = float(n["node_payback_years"]), float(n["years"])
    if is_empty(payback):
        verdict = say(words["io_none"])
    else:
        which = "io_pays" if payback <= horizon else "io_slow"
        span = f"{horizon:g} 年" if x.lang == "zh" else f"{horizon:g}-year"
        verdict = say(words[which], years=f.years(payback, x.lang), horizon=span)
    return Markup(" ") + say(
        words["io_trade"],
        nodes=f.number(n["storage_nodes"]),
        binds=words[f"binds_{int(n['storage_binds'])}"],
        price=x.money(n["node_price"]),
        write_more=f"{f.number(n['write_more'])} GB/s",
        goodput=f.pct(n["goodput"], 2),
        goodput_more=f.pct(n["goodput_more"], 2),
        hours=f.count((n["goodput_more"] - n["goodput"]) * n["annual_hours"], x.lang),
        money=x.money(n["node_more_money"]),
        verdict=verdict,
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
