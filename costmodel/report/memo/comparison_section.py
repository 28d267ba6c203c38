"""The memo's comparison of the options: every summary metric per tier, the best value
of a quality row starred, empty cells footnoted by reason, and an IRR that is one of
several roots of its NPV footnoted as such (methodology §11.2).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from costmodel.core.metrics import METRICS, is_empty
from costmodel.report.memo.context import Facts
from costmodel.report.memo.financing_section import year_text
from costmodel.report.memo.labels import metric_label, tier_label
from costmodel.report.memo.sites_section import site_label
from costmodel.report.memo.text import TEXT

_EMPTY_REASON = {
    "irr": "fn_irr",
    "equity_irr": "fn_irr",
    "payback_years": "fn_payback",
    "mtbf_hours": "fn_failures",
    "checkpoint_interval_hours": "fn_failures",
    "opex_full_year": "fn_full_year",
    "opex_full_year_number": "fn_full_year",
}


def _empty_reason(s: pd.DataFrame, col: str, tier: str) -> str:
    """The footnote key of why metric ``col`` of ``tier`` is empty: a fabric priced
    as a share has no levels; without debt there is no DSCR; else by
    :data:`_EMPTY_REASON` (a zero denominator by default)."""
    if col == "network_levels":
        return "fn_share"
    if col == "min_dscr" and not s.loc[tier, "debt_peak"] > 0:
        return "fn_no_debt"
    return _EMPTY_REASON.get(col, "fn_other")


CAPTIVE_ROWS = frozenset({"npv", "irr", "roi", "payback_years", "equity_irr"})
"""The rows that read as a return on capital: for a captive option (revenue mode
``avoided_cloud``) they measure building against renting, footnoted so, and its
value is not starred against the options sold to tenants."""

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


def _hidden(s: pd.DataFrame, col: str) -> bool:
    """Rows the comparison leaves out: the site where no tier has one, feasibility
    where every tier is feasible, and the reason (the summary's first paragraph
    states it in the memo's language; methodology §29, §33)."""
    if col == "site":
        return not any(s["site"])
    if col == "feasible":
        return bool(s["feasible"].all())
    return col == "infeasible_reason"


def comparison(x: Facts) -> dict[str, Any]:
    """Every summary metric per tier, the best value of a :data:`QUALITY` row
    marked, empty cells footnoted by reason."""
    m, s, lang = x.model, x.summary, x.lang
    T = TEXT[lang]
    notes: dict[str, int] = {}
    roots = m.irr_roots()  # methodology §11.2: an IRR that is one of several roots
    own = x.options["captive"] if "captive" in x.options.columns else None
    captive = {str(t) for t in m.tiers if own is not None and bool(own.get(t, False))}
    sold = [t for t in m.tiers if t not in captive]
    rows = []
    for col, meta in METRICS.items():
        if col not in s.columns or _hidden(s, col):
            continue
        values = s[col]
        best: set[str] = set()
        if meta.better and col in QUALITY and len(m.tiers) > 1:
            shown = values[sold] if col in CAPTIVE_ROWS and captive and sold else values
            v = pd.to_numeric(shown, errors="coerce").dropna()
            if len(v) and v.nunique() > 1:
                target = v.max() if meta.better == "higher" else v.min()
                best = {str(t) for t in v.index[v == target]}
        cells = []
        for t in m.tiers:
            empty = is_empty(values[t])
            note = None
            if empty:
                key = _empty_reason(s, col, t)
                note = notes.setdefault(key, len(notes) + 1)
            elif col in ("irr", "equity_irr") and roots[t][col] > 1:
                note = notes.setdefault("fn_roots", len(notes) + 1)
            elif col in CAPTIVE_ROWS and t in captive:
                note = notes.setdefault("fn_captive", len(notes) + 1)
            year_row = col == "opex_full_year_number" and not empty
            text = _year(x, t) if year_row else x.metric(t, col)
            if col == "site" and values[t]:  # the site's label, in the memo's language
                text = site_label(m, str(values[t]), lang)
            cells.append(dict(tier=t, text=text, best=t in best, empty=empty, note=note))
        label = metric_label(meta, lang)
        rows.append(dict(metric=col, label=label, better=meta.better, cells=cells))
    footnotes = [
        dict(
            n=n,
            text=T[key].format(years=m.assumptions.horizon_years),
            dash=key != "fn_captive",
        )
        for key, n in sorted(notes.items(), key=lambda kv: kv[1])
    ]
    tiers = [dict(name=t, label=tier_label(m, t, x.lang)) for t in m.tiers]
    return dict(tiers=tiers, rows=rows, footnotes=footnotes)


def _year(x: Facts, t: str) -> str:
    """The first full operating year as its model year and calendar months:
    ``2 (2028)`` / ``第 2 年（2028 年）``."""
    year = int(x.summary.loc[t, "opex_full_year_number"])
    if year > x.model.assumptions.horizon_years:  # past the horizon: no months to name
        return TEXT[x.lang]["year_n"].format(y=year)
    when = year_text(x.model.periods, year, x.lang)
    return TEXT[x.lang]["year_when"].format(y=year, when=when)
