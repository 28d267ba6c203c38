"""The memo's public API for the pages built from it (the what-if page of
``costmodel serve``): its charts with their titles and captions, its decision,
its words for the scale sweep and the study, its number formats and labels, its
template environment and the memo itself.

A page renders through these names and reads nothing else of
:mod:`costmodel.report.memo`, so that the memo's sections can change inside
without the page following them (``tests/test_architecture.py`` fails when a
module of ``report/web/`` imports a module of the memo).
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from costmodel.inputs.model import Model
from costmodel.report.memo import charts
from costmodel.report.memo.context import Facts
from costmodel.report.memo.labels import chart_label, metric_label, tier_label
from costmodel.report.memo.numbers import currency_unit, fmt, money, pct
from costmodel.report.memo.render import environment, model_name, render_memo
from costmodel.report.memo.study_section import STUDY, heat_map, sentences, site_label
from costmodel.report.memo.summary_section import verdict
from costmodel.report.memo.sweep_section import STEP_WORDS, SWEEP, sweep_chart
from costmodel.report.memo.text_charts import CHART, caption
from costmodel.report.memo.text_risks import COOLING

__all__ = [
    "COOLING",
    "STEP_WORDS",
    "STUDY",
    "SWEEP",
    "OPTION_CHARTS",
    "chart_label",
    "cooling_name",
    "currency_unit",
    "decision",
    "environment",
    "fmt",
    "heat_map",
    "metric_label",
    "model_name",
    "money",
    "option_charts",
    "pct",
    "render_memo",
    "sentences",
    "site_label",
    "sweep_chart",
    "tier_label",
]

#: the memo's charts of the options, in the order a page shows them: NPV per tier,
#: cumulative cash, capex and opex by line
OPTION_CHARTS = {
    "npv": charts.npv_chart,
    "cash": charts.cash_chart,
    "capex": charts.capex_chart,
    "opex": charts.opex_chart,
}


def option_charts(model: Model, lang: str, prefix: str) -> list[dict[str, Any]]:
    """The memo's charts of the options of ``model`` in ``lang``, each as
    ``{"id", "title", "caption", "body"}`` (``body`` the inline SVG, its ids
    starting with ``prefix-<id>``), in :data:`OPTION_CHARTS` order."""
    C = CHART[lang]
    terminal = model.assumptions.terminal_value
    return [
        dict(
            id=key,
            title=C[f"{key}_title"],
            caption=caption(C, key, terminal),
            body=Markup(chart(model, lang, f"{prefix}-{key}-{lang}")),
        )
        for key, chart in OPTION_CHARTS.items()
    ]


def decision(model: Model, lang: str, analysis: Any, prefix: str) -> dict[str, Any]:
    """The memo's decision on ``model`` in ``lang`` (its verdict, from the options
    and the break-even search of ``analysis``,
    :func:`costmodel.analysis.bundle.decision_analysis`) and its chart of cost
    against price and break-even: ``{"decision": ..., "cost": {"id", "title",
    "caption", "body"}}``."""
    facts = Facts(model, lang, analysis)
    C = CHART[lang]
    body = charts.cost_chart(model, lang, facts.prices, facts.breakeven, f"{prefix}-cost-{lang}")
    cost = dict(id="cost", title=C["cost_title"], caption=C["cost_caption"], body=Markup(body))
    return dict(decision=verdict(facts), cost=cost)


def cooling_name(key: str, lang: str) -> str:
    """The memo's name of a cooling (``air``, ``cold_plate``, ...) in ``lang``;
    the key itself where it has none."""
    return COOLING[lang].get(key, key)
