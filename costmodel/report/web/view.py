"""What the what-if page shows, through the memo's public API
(:mod:`costmodel.report.memoapi`): the option table (summary metrics as the memo
formats them), the memo's decision (on
:func:`costmodel.analysis.bundle.decision_analysis`), the memo's charts, and a
slider for every ranged input, grouped as on the workbook's Inputs sheet, named
and formatted by the one registry (:mod:`costmodel.inputs.vocabulary`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pandas as pd
from markupsafe import Markup

from costmodel.analysis.bundle import NO_RENT_COLUMNS, decision_analysis
from costmodel.analysis.decision import choose, options
from costmodel.analysis.sensitivity import RangedInput
from costmodel.core.metrics import METRICS
from costmodel.inputs.model import Model
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.vocabulary import input_label, input_term
from costmodel.report import memoapi as f
from costmodel.report.memoapi import (
    STUDY,
    SWEEP,
    chart_label,
    cooling_name,
    environment,
    metric_label,
    model_name,
    option_charts,
    tier_label,
)
from costmodel.report.memoapi import decision as memo_decision
from costmodel.report.web import riskmap, scale
from costmodel.report.web.page_text import ASSETS, GROUPS, PAGE
from costmodel.report.web.session import Session

LANGS = ("en", "zh")

#: the option table's columns (summary metrics)
TABLE = ("npv", "irr", "peak_funding", "cost_per_gpu_hour", "realized_price")

#: build versus rent is not recomputed by the page: the options' cloud price and saving are empty
NO_RENT = pd.DataFrame(columns=list(NO_RENT_COLUMNS))

#: Monte Carlo draws the page offers (the first is the default)
DRAWS = (2_000, 10_000, 50_000)

#: slider positions across an input's range (at least)
POSITIONS = 100


@dataclass(frozen=True)
class Control:
    """One slider: the input's dotted ``path``, its name and unit in the page's
    language, its range and step, and its base value."""

    path: str
    label: str
    unit: str
    kind: str
    low: float
    high: float
    step: float
    decimals: int
    value: float
    group: str


def lang_of(lang: str | None) -> str:
    return lang if lang in LANGS else "en"


def step_of(x: RangedInput) -> tuple[float, int]:
    """``(step, decimals)`` of the slider of ``x``: 1 for whole numbers (months,
    years); otherwise the largest power of ten giving :data:`POSITIONS` or more
    positions with the base value, the low and the high end on a position."""
    if x.whole or x.integer:
        return 1.0, 0
    low, high = float(x.low or 0.0), float(x.high or 0.0)
    span = high - low
    if not span > 0:
        return 1.0, 0
    e = math.floor(math.log10(span / POSITIONS))
    for _ in range(8):
        step = 10.0**e
        if all(
            abs(round((v - low) / step) * step - (v - low)) < step * 1e-6 for v in (x.value, high)
        ):
            break
        e -= 1
    return 10.0**e, max(0, -e)


def _qualifier(path: str, lang: str) -> str | None:
    parts = path.split(".")
    if parts[:2] in (["power", "pue"], ["facility", "build_cost_per_kw"]) and len(parts) == 3:
        return cooling_name(parts[2], lang)
    if parts[0] == "depreciation" and len(parts) == 3 and parts[2] == "life_years":
        return ASSETS[lang].get(parts[1], parts[1])
    if parts[0] == "servers" and len(parts) == 3:
        return parts[1]
    return None


def _group(path: str) -> str:
    parts = path.split(".")
    if parts[0] == "tiers":
        return f"tiers.{parts[1]}"
    if parts[:2] in (["power", "pue"], ["facility", "build_cost_per_kw"]):
        return "cooling"
    return parts[0]


def server_step(a: Assumptions, path: str) -> float | None:
    """The GPUs of one server of the tier whose GPU count ``path`` is
    (``tiers.T.gpus``, ``tiers.T.stages.i.gpus``): a GPU slider moves by whole
    servers, so every position is a count the model accepts; None for other inputs."""
    parts = path.split(".")
    if parts[0] != "tiers" or parts[-1] != "gpus" or parts[1] not in a.tiers:
        return None
    server = a.servers.get(a.tiers[parts[1]].server)
    return float(server.gpus_per_server) if server is not None else None


def control(x: RangedInput, currency: str, lang: str, per: float | None = None) -> Control:
    """The slider of ``x`` in ``lang``; ``per``: its step when it counts GPUs
    (:func:`server_step`)."""
    term = input_term(x.path)
    label = input_label(x.path, lang)
    q = _qualifier(x.path, lang)
    if q:
        label = f"{label}（{q}）" if lang == "zh" else f"{label} ({q})"
    unit = term.unit_in(f.currency_unit(lang, currency), lang) if term else ""
    kind = term.kind if term else "number"
    if kind == "pct" and unit in ("fraction", "比例"):
        unit = ""
    step, decimals = (per, 0) if per else step_of(x)
    return Control(
        x.path,
        label,
        unit,
        kind,
        float(x.low),
        float(x.high),  # type: ignore[arg-type]
        step,
        decimals,
        float(x.value),
        _group(x.path),
    )


def shown(c: Control, v: float) -> str:
    """The value ``v`` of control ``c`` as the page shows it (percentages for
    shares and rates; thousands separators; as many decimals as the step)."""
    if c.kind == "pct":
        return f"{v * 100:,.{max(0, c.decimals - 2)}f}%"
    if c.kind == "money" and c.decimals == 0:
        return f"{v:,.0f}"
    digits = max(c.decimals, 2) if c.kind in ("price", "decimal") else c.decimals
    return f"{v:,.{digits}f}"


def groups(session: Session, model: Model, lang: str) -> list[dict[str, Any]]:
    """The controls grouped as on the workbook's Inputs sheet: the global sections
    in its order, then one group per tier (its overrides)."""
    a = model.assumptions
    order = list(GROUPS[lang])
    by: dict[str, list[Control]] = {}
    for x in session.inputs:
        c = control(x, a.currency, lang, server_step(a, x.path))
        by.setdefault(c.group, []).append(c)
    keys = [g for g in order if g in by]
    keys += [g for g in by if g not in order and not g.startswith("tiers.")]
    keys += [f"tiers.{t}" for t in a.tiers if f"tiers.{t}" in by]
    out = []
    for g in keys:
        if g.startswith("tiers."):
            title = PAGE[lang]["group_tier"].format(label=tier_label(model, g[6:], lang))
        else:
            title = GROUPS[lang].get(g, g)
        out.append(dict(key=g, title=title, controls=[_control_row(c, lang) for c in by[g]]))
    return out


def _control_row(c: Control, lang: str) -> dict[str, Any]:
    return dict(
        c=c,
        shown=shown(c, c.value),
        range=PAGE[lang]["range"].format(low=shown(c, c.low), high=shown(c, c.high)),
    )


def values(session: Session, overrides: dict[str, Any], currency: str, lang: str) -> dict[str, str]:
    """Each control's current value as shown (``overrides`` over the base values)."""
    out = {}
    for x in session.inputs:
        c = control(x, currency, lang)
        v = overrides.get(x.path, x.value)
        out[x.path] = shown(c, float(v)) if isinstance(v, int | float) else str(v)
    return out


def option_rows(model: Model, best: str, lang: str) -> list[dict[str, Any]]:
    """The option table: per tier its label and the :data:`TABLE` metrics, each
    as the memo formats it and as the number (``raw``, for machines)."""
    s = model.summary()
    cur = model.assumptions.currency
    rows = []
    for t in model.tiers:
        cells = []
        for col in TABLE:
            v = float(s.loc[t, col])
            text = f.fmt(v, METRICS[col].kind, lang, cur, col)
            raw = repr(v) if math.isfinite(v) else ""
            cells.append(dict(metric=col, text=text, raw=raw))
        label, short = tier_label(model, t, lang), chart_label(model, t, lang)
        build = build_line(s.loc[t], lang)
        rows.append(
            dict(tier=t, label=label, short=short, best=t == best, cells=cells, build=build)
        )
    return rows


def build_line(row: pd.Series, lang: str) -> str:
    """The design an option takes (methodology §28), in one line: ``design thousands
    · cold plate, 60 kW/rack · 13 storage nodes, 260 GB/s``; empty without a design."""
    if row["design"] is None:
        return ""
    cooling = cooling_name(str(row["cooling"]), lang)
    nodes, gbps = float(row["storage_nodes"]), float(row["storage_write_gbps"])
    kw = f"{float(row['rack_kw']):g}"
    if lang == "zh":
        store = f"{int(nodes)} 个存储节点，" if nodes == nodes else ""
        store += f"{gbps:,.0f} GB/s"
        return f"设计方案 {f.fmt(row['design'], 'text', lang)} · {cooling}，单柜 {kw} kW · {store}"
    plural = "" if nodes == 1 else "s"
    store = f"{int(nodes)} storage node{plural}, " if nodes == nodes else ""
    store += f"{gbps:,.0f} GB/s"
    return f"design {row['design']} · {cooling}, {kw} kW/rack · {store}"


class Shown:
    """A model the page shows, with what the page derives from it by analysis,
    each computed when first asked and kept while the page keeps the model (the
    other language, and a state the page returns to, reuse them)."""

    def __init__(self, model: Model):
        self.model = model

    @cached_property
    def options(self) -> pd.DataFrame:
        """The memo's options table without build versus rent
        (:func:`costmodel.analysis.decision.options`), for the table's choice and
        the decision."""
        return options(self.model, NO_RENT)

    @cached_property
    def analysis(self) -> Any:
        """The analysis the memo's decision reads (the break-even search,
        :func:`costmodel.analysis.bundle.decision_analysis`)."""
        return decision_analysis(self.model, self.options)


def result(shown: Shown, lang: str) -> dict[str, Any]:
    """What the page recomputes first for ``shown.model`` (built from the page's
    inputs): the option table (the chosen option marked by the memo's rule,
    :func:`costmodel.analysis.decision.choose`, which reads NPVs, capex and funding
    only) and the memo's charts of NPV, cash, capex and opex."""
    model = shown.model
    choice = choose(shown.options)
    return dict(
        model=model,
        headers=[metric_label(METRICS[c], lang) for c in TABLE],
        metrics=TABLE,
        rows=option_rows(model, str(choice["tier"]), lang),
        charts=option_charts(model, lang, "w"),
    )


def decision(shown: Shown, lang: str) -> dict[str, Any]:
    """What the page recomputes second: the memo's decision and its chart of cost
    against price and break-even (:func:`costmodel.report.memoapi.decision`), which
    need the break-even search (once per model: the other language, and a state the
    page returns to while its model is kept, reuse it)."""
    return memo_decision(shown.model, lang, shown.analysis, "w")


def render_result(res: dict[str, Any], lang: str) -> dict[str, str]:
    """The option table, the NPV strip a phone keeps in view and the charts as HTML,
    ``{"options": ..., "strip": ..., "charts": ...}`` (``templates/serve/options.html.j2``,
    ``strip.html.j2``, ``charts.html.j2``)."""
    env = environment(None)
    return {
        part: env.get_template(f"serve/{part}.html.j2").render(t=PAGE[lang], lang=lang, **res)
        for part in ("options", "strip", "charts")
    }


def render_decision(res: dict[str, Any], lang: str) -> str:
    """The decision and the cost chart as HTML (``templates/serve/decision.html.j2``)."""
    env = environment(None)
    return env.get_template("serve/decision.html.j2").render(t=PAGE[lang], lang=lang, **res)


def render_page(
    session: Session, shown: Shown, res: dict[str, Any], lang: str, version: str
) -> str:
    """The whole page (``templates/serve/page.html.j2``): the controls with the
    base values and the recomputed part ``res`` of ``shown``."""
    from costmodel.inputs.loader import fingerprint

    model = shown.model
    T = PAGE[lang]
    name = model_name(model, lang)
    fp = fingerprint(model.assumptions)
    names = Markup(", ").join(Markup("<code>{}</code>").format(f) for f in session.files)
    files = Markup(T["files"]).format(files=names, fp=fp[:12])
    return (
        environment(None)
        .get_template("serve/page.html.j2")
        .render(
            t=T,
            lang=lang,
            html_lang="zh-CN" if lang == "zh" else "en",
            other="zh" if lang == "en" else "en",
            title=T["title"].format(name=name),
            version=version,
            files=files,
            groups=groups(session, model, lang),
            parts={k: Markup(v) for k, v in render_result(res, lang).items()},
            decision=Markup(render_decision(decision(shown, lang), lang)),
            draws=DRAWS,
            sweep_tiers=scale.controls(model, lang),
            sweep_heading=SWEEP[lang]["heading"],
            study_heading=STUDY[lang]["heading"],
            study_draws=riskmap.DRAWS,
        )
    )
