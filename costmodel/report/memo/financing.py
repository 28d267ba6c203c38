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
from costmodel.core.metrics import is_empty
from costmodel.report.memo import format as f
from costmodel.report.memo.context import say
from costmodel.report.memo.labels import tier_label
from costmodel.report.memo.text_v2 import FINANCING, TIMING

if TYPE_CHECKING:
    from costmodel.report.memo.context import Facts


def ratio(v: float) -> str:
    """A coverage ratio: ``1.20×``, ``−0.89×``."""
    return f.EMPTY if is_empty(v) else f.with_sign(v, f"{abs(v):,.2f}") + "×"


def month_text(period: str, lang: str) -> str:
    """``2027-07`` as ``July 2027`` / ``2027 年 7 月``."""
    p = pd.Period(period, freq="M")
    return f"{p.year} 年 {p.month} 月" if lang == "zh" else f"{p:%B %Y}".replace(" ", f.NBSP)


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
    fields |= dict(covenant=ratio(r["covenant"]), room=ratio(r["headroom"]))
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
        rate=f.pct(x.model.assumptions.finance.discount_rate.value),
        equity_irr=f.pct(r["equity_irr"]),
        irr=f.pct(r["irr"]),
        debt_peak=x.money(r["debt_peak"]),
        funding=x.money(r["peak_funding"]),
    )
    return sep.join([head, _dscr_sentence(x, r)])


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
    if x.model.assumptions.terminal_value != "market":
        return None
    items = []
    for t, r in d.iterrows():
        tax = float(r["terminal_tax"])
        kind = "tax_gain" if tax > 0 else "tax_loss" if tax < 0 else "tax_none"
        items.append(
            say(
                T["market_item"],
                label=tier_label(x.model, str(t), x.lang),
                value=x.money(r["terminal_value"]),
                book=x.money(r["book_value"]),
                tax=say(T[kind], tax=x.money(abs(tax))),
            )
        )
    return say(T["market"], items=Markup("；" if x.lang == "zh" else "; ").join(items))


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
    sep = "、" if x.lang == "zh" else ", "
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
    return out
