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
from costmodel.report.memo import format as f
from costmodel.report.memo.context import say
from costmodel.report.memo.labels import tier_label
from costmodel.report.memo.text_v2 import GROWTH, MAXIM_HEADROOM

if TYPE_CHECKING:
    from costmodel.report.memo.context import Facts

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
