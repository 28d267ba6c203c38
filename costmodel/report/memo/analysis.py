"""Three memo sections built from a finished :class:`costmodel.analysis.bundle.Analysis`
(nothing is recomputed here; every number is a value of the analysis, formatted
by :mod:`costmodel.report.memo.numbers`; words in :mod:`costmodel.report.memo.text_analysis`):

- :func:`risk`, "What has to be true": the tornado of the focus tier (the
  recommended option, or the closest to paying by NPV per unit of capex) as a chart of its
  :data:`TORNADO_CHART` largest swings, and the :data:`TORNADO_TABLE` largest
  swings of every tier as a table; sentences name the largest driver and every
  input whose range alone flips the sign of the NPV (``at_low`` or ``at_high`` on
  the other side of 0 from ``base``). The break-even table
  (``Analysis.break_even``: utilization and year-1 price at NPV = 0 against the
  assumed values; NaN means no root in the searched range: "not even at 100%" when
  the base NPV is negative). With Monte Carlo: a histogram of the NPV draws per
  tier, P10/P50/P90/mean of NPV and of the levelized cost per GPU-hour, and per
  tier the probability of loss ``1 - p_npv_positive`` with ``n`` and ``seed``.
- :func:`scenarios`, "Scenarios" (only with ``Analysis.scenarios``): scenario x
  tier table of NPV, IRR, capex, levelized cost and payback with the change
  against the base (``CompareResult.delta()``), a sentence per scenario (how many
  tiers have NPV > 0, the best, a change of ranking), a chart of NPV per scenario
  and tier, and each overlay's text (absolute paths shortened to ``parent/name``).
- :func:`build_rent`, "Build or rent?": ``Analysis.build_vs_rent`` per tier, the
  sentence chosen by the tier's revenue mode (``params.revenue_mode``): ``rental``
  compares the PV of renting the same GPU-hours with the PV of building;
  ``avoided_cloud`` reads the NPV as the value of building instead of renting.
  Tiers whose server has no cloud price for the term say so.
"""

from __future__ import annotations

import math
import re
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from markupsafe import Markup

from costmodel.analysis.breakeven import PRICE_RANGE_FACTOR
from costmodel.core.metrics import METRICS, is_empty
from costmodel.inputs.params import revenue_mode
from costmodel.report.memo import analysis_charts, grid_section, study_section, sweep_section
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, say, signed_pct
from costmodel.report.memo.labels import chart_label, input_label, metric_label, tier_label
from costmodel.report.memo.text_analysis import RENT, SCEN, TRUE

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis

TORNADO_CHART = 10  # inputs in the focus tier's tornado chart
TORNADO_TABLE = 5  # inputs per tier in the table of largest swings
SCENARIO_METRICS = ("npv", "irr", "capex", "cost_per_gpu_hour", "payback_years")


def _sep(lang: str) -> str:
    """Between the items of a list of clauses."""
    return "；" if lang == "zh" else "; "


def join_names(names: list[str], lang: str) -> Markup:
    """``A``, ``A and B``, ``A, B and C`` / ``A、B、C``; HTML, each name escaped
    (and isolated, :class:`~costmodel.report.memo.labels.UserText`)."""
    if lang == "zh":
        return Markup("、").join(names)
    if len(names) < 3:
        return Markup(" and ").join(names)
    return Markup(", ").join(names[:-1]) + Markup(" and ") + names[-1]


def focus_tier(x: Facts) -> str:
    """The tier of the tornado chart: the recommended one, or with no NPV > 0 the
    closest to being worth building (:func:`costmodel.analysis.decision.choose`)."""
    return str(x.choice["tier"])


# ----------------------------------------------------------------------------- what has to be true


def tornado_rows(an: Analysis, tier: str, k: int) -> pd.DataFrame:
    """The ``k`` largest non-zero swings of ``tier`` (the tornado's own order)."""
    d = an.tornado
    d = d[(d["tier"] == tier) & (d["swing"] > 0)]
    return d.head(k)


def flips(row: pd.Series) -> str | None:
    """``"low"``/``"high"``: the end of the input's range whose NPV lies on the
    other side of 0 from the base NPV (the first such end), else None."""
    base = float(row["base"])
    for end in ("low", "high"):
        v = float(row[f"at_{end}"])
        if (base <= 0 < v) or (base > 0 >= v):
            return end
    return None


def input_name(x: Facts, tier: str, path: str) -> str:
    """The readable name of the input at ``path`` (see ``labels.input_label``)."""
    return input_label(x.model, tier, path, x.lang)[0]


def input_value(x: Facts, tier: str, path: str, v: float) -> str:
    """A value of the input at ``path`` in its own kind (percent, money, price); a
    quoted price as the tier uses it in year 1 (:meth:`Facts.as_sold`)."""
    v = x.as_sold(tier, path, v)
    kind = input_label(x.model, tier, path, x.lang)[1]
    if kind == "pct":
        return f.pct(v)
    if kind == "money":
        return x.money(v)
    if kind == "price":
        return x.price(v)
    if kind == "decimal":
        return f"{v:,.2f}"
    return f.number(v)


def chart_value(x: Facts, tier: str, path: str, v: float) -> str:
    """A value written at a tornado bar's end: short (percent, or the number alone);
    a quoted price as the tier uses it in year 1 (:meth:`Facts.as_sold`)."""
    v = x.as_sold(tier, path, v)
    kind = input_label(x.model, tier, path, x.lang)[1]
    if kind == "pct":
        return f.pct(v, 0)
    if kind in ("price", "decimal"):
        return f"{v:,.2f}"
    return f.short(v)


def _tornado(x: Facts, an: Analysis) -> dict[str, Any]:
    """The tornado of the focus tier: sentences, chart and the table of every tier."""
    focus = focus_tier(x)
    rows = tornado_rows(an, focus, TORNADO_CHART)
    order = [focus] + [t for t in x.model.tiers if t != focus]
    table = [_tornado_group(x, an, t) for t in order]
    return dict(
        focus=focus,
        sentences=_tornado_sentences(x, an, focus, rows) if len(rows) else [],
        chart=_tornado_chart(x, focus, rows) if len(rows) else None,
        table=[g for g in table if g["rows"]],
    )


def _tornado_sentences(x: Facts, an: Analysis, focus: str, rows: pd.DataFrame) -> list[Markup]:
    """The largest driver, and every input whose range alone flips the NPV's sign."""
    T = TRUE[x.lang]
    top = rows.iloc[0]
    out = [
        say(
            T["driver"],
            label=tier_label(x.model, focus, x.lang),
            base=x.money(top["base"]),
            input=input_name(x, focus, top["input"]),
            low=input_value(x, focus, top["input"], top["low"]),
            high=input_value(x, focus, top["input"], top["high"]),
            at_low=x.money(top["at_low"]),
            at_high=x.money(top["at_high"]),
        )
    ]
    up = float(top["base"]) <= 0
    items = []
    for _, r in an.tornado[an.tornado["tier"] == focus].iterrows():
        end = flips(r)
        if end:
            items.append(
                say(
                    T["flip_item"],
                    input=input_name(x, focus, r["input"]),
                    value=input_value(x, focus, r["input"], r[end]),
                    npv=x.money(r[f"at_{end}"]),
                )
            )
    if items:
        out.append(say(T["flip_up" if up else "flip_down"], items=Markup(_sep(x.lang)).join(items)))
    else:
        out.append(Markup(T["flip_none_up" if up else "flip_none_down"]))
    return out


def _tornado_chart(x: Facts, focus: str, rows: pd.DataFrame) -> dict[str, Any]:
    T, lang = TRUE[x.lang], x.lang
    label = tier_label(x.model, focus, lang)
    title = T["tornado_title"].format(label=label)  # the chart's (SVG) text
    paths = list(rows["input"])
    body = analysis_charts.tornado_chart(
        [input_name(x, focus, p) for p in paths],
        [chart_value(x, focus, p, v) for p, v in zip(paths, rows["low"], strict=True)],
        [chart_value(x, focus, p, v) for p, v in zip(paths, rows["high"], strict=True)],
        list(rows["at_low"]),
        list(rows["at_high"]),
        float(rows.iloc[0]["base"]),
        lang,
        x.currency,
        title,
        f"tornado-{lang}",
    )
    return dict(
        title=say(T["tornado_title"], label=label),  # HTML: the label isolated
        caption=T["tornado_caption"].format(k=len(rows)),
        body=Markup(body),
    )


def _tornado_group(x: Facts, an: Analysis, t: str) -> dict[str, Any]:
    """One tier's rows of the table of largest swings."""
    rs = tornado_rows(an, t, TORNADO_TABLE)
    return dict(
        tier=t,
        label=tier_label(x.model, t, x.lang),
        rows=[
            dict(
                rank=i + 1,
                input=r["input"],
                name=input_name(x, t, r["input"]),
                range=f"{input_value(x, t, r['input'], r['low'])} – "
                f"{input_value(x, t, r['input'], r['high'])}",
                at_low=x.money(r["at_low"]),
                at_high=x.money(r["at_high"]),
                swing=x.money(r["swing"]),
                flip_low=flips(r) == "low",
                flip_high=flips(r) == "high",
            )
            for i, (_, r) in enumerate(rs.iterrows())
        ],
    )


def break_even_cells(x: Facts, row: pd.Series, npv: float) -> dict[str, str]:
    """Formatted cells of one tier's break-even row (the tests use the same)."""
    T = TRUE[x.lang]
    u, ub = row["utilization"], row["utilization_base"]
    k = x.sold_factor.get(str(row.name), 1.0)  # the year-1 price as sold
    p, pb = row["price_per_gpu_hour"] * k, row["price_per_gpu_hour_base"] * k
    negative = npv < 0 if not is_empty(npv) else True
    util = T["util_never" if negative else "util_always"] if is_empty(u) else f.pct(u)
    if is_empty(p):
        top = x.price(PRICE_RANGE_FACTOR * max(float(pb), 1.0))
        price = T["price_never"].format(top=top) if negative else T["price_always"]
        gap = f.EMPTY
    else:
        price = x.price(p)
        gap = signed_pct(p / pb - 1) if pb > 0 else f.EMPTY
    return dict(
        util=util,
        util_base=f.pct(ub),
        price=price,
        price_base=x.price(pb),
        gap=gap,
    )


def _break_even(x: Facts, an: Analysis) -> dict[str, Any]:
    m, lang = x.model, x.lang
    T = TRUE[lang]
    be = an.break_even
    npv = x.summary["npv"].astype(float)
    rows = []
    for t in m.tiers:
        if t not in be.index:
            continue
        c = break_even_cells(x, be.loc[t], float(npv[t]))
        rows.append(dict(tier=t, label=tier_label(m, t, x.lang), **c))
    hopeless = [
        t for t in m.tiers if t in be.index and is_empty(be.loc[t, "utilization"]) and npv[t] < 0
    ]
    sentences: list[Markup] = []
    if hopeless:
        labels = join_names([tier_label(m, t, x.lang) for t in hopeless], lang)
        sentences.append(say(T["util_hopeless"], labels=labels))
    for t in m.tiers:
        if t in be.index and not is_empty(be.loc[t, "utilization"]) and npv[t] < 0:
            sentences.append(
                say(
                    T["util_need"],
                    label=tier_label(m, t, x.lang),
                    u=f.pct(be.loc[t, "utilization"]),
                    ub=f.pct(be.loc[t, "utilization_base"]),
                )
            )
    return dict(rows=rows, sentences=sentences)


def loss_sentence(x: Facts, tier: str, row: pd.Series, n: int) -> Markup:
    """The probability-of-loss sentence of one tier: loss = 1 - p_npv_positive."""
    T = TRUE[x.lang]
    loss = 1.0 - float(row["p_npv_positive"])
    key = "loss_all" if loss >= 1 else "loss_none" if loss <= 0 else "loss_some"
    return say(
        T[key],
        p=Markup('<span class="p-loss" data-tier="{}">{}</span>').format(tier, f.prob(loss)),
        n=f"{n:,}",
        label=tier_label(x.model, tier, x.lang),
        p10=x.money(row["npv_p10"]),
        p90=x.money(row["npv_p90"]),
    )


#: inputs named in the sentence on why the draws sit where they do
LEAN_ITEMS = 3


def lean_sentence(x: Facts, tier: str, row: pd.Series, shifts: pd.DataFrame | None) -> Markup:
    """Why the median draw of ``tier`` sits below (or above) the assumed case: the
    gap ``P50 - NPV``, and the :data:`LEAN_ITEMS` inputs whose median draw alone
    moves the NPV most in the gap's direction (``shifts``:
    :func:`costmodel.analysis.montecarlo.median_shifts`), how many of the inputs
    the tier reads move it that way, and the sum of every input's shift."""
    T = TRUE[x.lang]
    base = float(x.summary.loc[tier, "npv"])
    gap = float(row["npv_p50"]) - base
    head = say(
        T["lean_below" if gap < 0 else "lean_above"],
        label=tier_label(x.model, tier, x.lang),
        p50=x.money(row["npv_p50"]),
        npv=x.money(base),
        gap=x.money(abs(gap)),
    )
    if shifts is None:
        return head
    rows = shifts[shifts["tier"] == tier]
    that_way = np.sign(rows["shift"]) == np.sign(gap)
    ways = rows[that_way].head(LEAN_ITEMS)
    if not len(ways):
        return head
    parts = []
    for i, (_, r) in enumerate(ways.iterrows()):
        path = str(r["input"])
        name = input_name(x, tier, path)
        parts.append(
            T["lean_item" if i == 0 else "lean_item_more"].format(
                input=name[:1].lower() + name[1:] if x.lang == "en" else name,
                median=input_value(x, tier, path, float(r["median"])),
                value=input_value(x, tier, path, float(r["value"])),
                shift=f.signed(float(r["shift"]), x.money),
            )
        )
    items = (
        T["lean_sep"].join(parts[:-1]) + T["lean_and"] + parts[-1] if len(parts) > 1 else parts[0]
    )
    key = "lean_items_below" if gap < 0 else "lean_items_above"
    total = f.signed(float(rows["shift"].sum()), x.money)
    k = int(that_way.sum())
    verb = ("lowers" if k == 1 else "lower") if gap < 0 else ("raises" if k == 1 else "raise")
    return head + say(T[key], items=items, k=k, n=len(rows), sum=total, verb=verb)


def mc_cells(x: Facts, row: pd.Series) -> dict[str, str]:
    """Formatted cells of one tier's Monte Carlo row (the tests use the same)."""
    out = {f"npv_{q}": x.money(row[f"npv_{q}"]) for q in ("p10", "p50", "p90", "mean")}
    out |= {f"cost_{q}": x.price(row[f"cost_per_gpu_hour_{q}"]) for q in ("p10", "p50", "p90")}
    out["loss"] = f.prob(1.0 - float(row["p_npv_positive"]))
    return out


def _held(x: Facts, paths: list[str]) -> Markup | None:
    """The sentence naming the ranged structural inputs the Monte Carlo held at
    their value (methodology §11.3), or None."""
    if not paths:
        return None
    sep = "、" if x.lang == "zh" else ", "
    return say(TRUE[x.lang]["mc_held"], items=sep.join(_input_label(x, p) for p in paths))


def _input_label(x: Facts, path: str) -> str:
    """The name of the input at ``path``, with its tier's label for a tier's own."""
    parts = path.split(".")
    tier = parts[1] if parts[0] == "tiers" and parts[1] in x.model.tiers else None
    name = input_name(x, tier or x.model.tiers[0], path)
    return f"{name} ({tier_label(x.model, tier, x.lang)})" if tier else name


def _together(x: Facts, pairs: list[tuple[str, str, float]]) -> Markup | None:
    """The sentence naming the inputs the Monte Carlo drew together and the rho of
    each pair (methodology §9.1), or None."""
    if not pairs:
        return None
    T = TRUE[x.lang]
    sep = "；" if x.lang == "zh" else "; "
    items = sep.join(
        T["mc_pair"].format(a=_input_label(x, a), b=_input_label(x, b), rho=f"{rho:.2f}")
        for a, b, rho in pairs
    )
    return say(T["mc_together"], items=items)


def _monte_carlo(x: Facts, an: Analysis) -> dict[str, Any] | None:
    mc = an.monte_carlo
    if mc is None:
        return None
    m, lang = x.model, x.lang
    T = TRUE[lang]
    s = mc.summary
    tiers = [t for t in m.tiers if t in s.index]
    n, seed = f"{mc.n:,}", mc.seed
    title = T["mc_title"].format(n=n)
    body = analysis_charts.npv_distribution_chart(
        [chart_label(m, t, lang) for t in tiers],
        [mc.draws[t]["npv"].to_numpy(float) for t in tiers],
        [tuple(float(s.loc[t, f"npv_{q}"]) for q in ("p10", "p50", "p90")) for t in tiers],
        lang,
        x.currency,
        title,
        f"mc-{lang}",
    )
    return dict(
        intro=say(T["mc_intro_together" if mc.correlations else "mc_intro"], n=n, seed=seed),
        together=_together(x, mc.correlations),
        held=_held(x, mc.held_fixed),
        n=mc.n,
        seed=seed,
        rows=[dict(tier=t, label=tier_label(m, t, x.lang), **mc_cells(x, s.loc[t])) for t in tiers],
        sentences=[dict(tier=t, text=loss_sentence(x, t, s.loc[t], mc.n)) for t in tiers],
        lean=[dict(tier=t, text=lean_sentence(x, t, s.loc[t], an.shifts)) for t in tiers],
        chart=dict(
            title=title,
            caption=T["mc_caption"].format(n=n, seed=seed),
            body=Markup(body),
        ),
    )


def risk(x: Facts, an: Analysis) -> dict[str, Any]:
    """Context of the section "What has to be true"."""
    T = TRUE[x.lang]
    n_inputs = an.tornado["input"].nunique()
    return dict(
        heading=T["heading"],
        intro=T["intro"].format(n=n_inputs),
        tornado=_tornado(x, an),
        break_even=_break_even(x, an),
        grid=grid_section.grid(x, an),
        sweep=sweep_section.sweep(x, an),
        monte_carlo=_monte_carlo(x, an),
        study=study_section.study(x, an),
        t=T,
    )


# ----------------------------------------------------------------------------- scenarios


def metric_text(x: Facts, column: str, v: float) -> str:
    return f.fmt(v, METRICS[column].kind, x.lang, x.currency, column)


def delta_text(x: Facts, column: str, d: float) -> str:
    """The change of a summary metric against the base, signed, in its own unit
    (rates in percentage points)."""
    kind = METRICS[column].kind
    if kind == "pct":
        return f.pp(d, x.lang)
    return f.signed(d, lambda a: f.fmt(a, kind, x.lang, x.currency, column))


_ABS_PATH = re.compile(r"^# (/\S.*|[A-Za-z]:[\\/].*)$", re.M)


def overlay_text(text: str) -> str:
    """An overlay's description with absolute file paths in its ``# path`` lines
    shortened to ``parent/name`` (no home directories in the memo)."""

    def short(mt: re.Match[str]) -> str:
        p = PurePath(mt.group(1))
        return f"# {p.parent.name}/{p.name}"

    return _ABS_PATH.sub(short, text)


def _scenario_group(x: Facts, cr: Any, name: str, base: str) -> dict[str, Any]:
    """One scenario's rows: each tier's metrics and their change against the base."""
    wide, delta = cr.wide, cr.delta(base)
    rows = []
    for t in wide.loc[name].index:
        t = str(t)
        cells = []
        for col in SCENARIO_METRICS:
            v = float(wide.loc[(name, t), col])
            d = float(delta.loc[(name, t), col])
            cells.append(
                dict(
                    metric=col,
                    text=metric_text(x, col, v),
                    delta=None if name == base else delta_text(x, col, d),
                    negative=col == "npv" and not is_empty(v) and v < 0,
                )
            )
        label = tier_label(x.model, t, x.lang) if t in x.model.tiers else t
        rows.append(dict(tier=t, label=label, cells=cells))
    return dict(name=name, label=scenario_label(name, x.lang), base=name == base, rows=rows)


#: Chinese names of the bundled scenarios (others keep the name they were given)
SCENARIO_ZH = {"base": "基准情景", "downside": "下行情景", "upside": "上行情景"}


def scenario_label(name: str, lang: str) -> str:
    """A scenario's name as the memo shows it: in Chinese, the bundled scenarios by
    their Chinese names (:data:`SCENARIO_ZH`)."""
    return SCENARIO_ZH.get(name, name) if lang == "zh" else name


def scenarios(x: Facts, an: Analysis) -> dict[str, Any] | None:
    """Context of the section "Scenarios"; None without scenarios."""
    cr = an.scenarios
    if cr is None:
        return None
    m, lang = x.model, x.lang
    S = SCEN[lang]
    names = cr.scenarios
    base = names[0]
    wide, delta = cr.wide, cr.delta(base)
    tiers = [t for t in m.tiers if (base, t) in wide.index]
    lab = {t: tier_label(m, t, x.lang) for t in tiers}

    def best_of(name: str) -> tuple[str, int]:
        npv = wide.loc[name]["npv"].astype(float).dropna()
        return (str(npv.idxmax()) if len(npv) else tiers[0]), int((npv > 0).sum())

    groups = [_scenario_group(x, cr, name, base) for name in names]
    base_best, _ = best_of(base)
    lines: list[Markup] = []
    for name in names[1:]:
        b, k = best_of(name)
        fields = dict(
            name=scenario_label(name, lang),
            k=k,
            n=len(wide.loc[name]),
            label=lab.get(b, b),
            npv=x.money(wide.loc[(name, b), "npv"]),
            delta=delta_text(x, "npv", float(delta.loc[(name, b), "npv"])),
            options="option" if len(wide.loc[name]) == 1 else "options",
            have="has" if k == 1 else "have",
        )
        line = say(S["line" if k else "line_none"], **fields)
        if b != base_best:
            extra = say(S["rank_change"], label=lab.get(b, b), base_label=lab.get(base_best))
            line = Markup("" if lang == "zh" else " ").join([line, extra])
        lines.append(line)
    npv = np.array([[float(wide.loc[(s, t), "npv"]) for t in tiers] for s in names], float)
    title = S["chart_title"]
    body = analysis_charts.scenario_chart(
        [chart_label(m, t, lang) for t in tiers],
        [scenario_label(s, lang) for s in names],
        npv,
        lang,
        x.currency,
        title,
        f"scen-{lang}",
    )
    headers = [dict(metric=c, label=metric_label(METRICS[c], lang)) for c in SCENARIO_METRICS]
    return dict(
        heading=S["heading"],
        intro=S["intro"].format(k=len(names) - 1),
        headers=headers,
        groups=groups,
        lines=lines,
        chart=dict(
            title=title,
            caption=S["chart_caption"],
            body=Markup(body),
        ),
        overlays=[
            dict(
                name=scenario_label(name, lang),
                text=overlay_text(cr.overlays.get(name, "")) or S["overlay_empty"],
            )
            for name in names[1:]
        ],
        t=S,
    )


# ----------------------------------------------------------------------------- build or rent


def rent_cells(x: Facts, row: pd.Series) -> dict[str, str]:
    """Formatted table cells of one tier's build-vs-rent row (the tests use the same)."""
    R = RENT[x.lang]
    priced = not is_empty(row["cloud_price_per_gpu_hour"])
    month = row["break_even_month"]
    return dict(
        cloud_price=x.price(row["cloud_price_per_gpu_hour"]),
        pv_cloud=x.money(row["pv_cloud_cost"]),
        pv_build=x.money(row["pv_build_cost"]),
        saving=x.money(row["saving"]),
        saving_share=f.pct(row["saving_share"]) if priced else f.EMPTY,
        npv_cloud=x.money(row["npv_vs_cloud"]),
        util=f.pct(row["break_even_utilization"])
        if not is_empty(row["break_even_utilization"])
        else (R["none"] if priced else f.EMPTY),
        month=f"{int(month)}" if not is_empty(month) else (R["never"] if priced else f.EMPTY),
    )


def _month_years(month: float, lang: str) -> str:
    y = math.ceil(month / 12)
    return f"第 {y} 年" if lang == "zh" else f"year {y}"


def rent_sentence(x: Facts, tier: str, row: pd.Series) -> Markup:
    """The generated paragraph of one tier, by its revenue mode (module docstring)."""
    m, lang = x.model, x.lang
    R = RENT[lang]
    a = m.assumptions
    mode, term = revenue_mode(a, tier)
    term_text = R.get(f"term_{term}", term)
    label = tier_label(m, tier, x.lang)
    if is_empty(row["cloud_price_per_gpu_hour"]):
        return say(R["no_price"], label=label, server=str(row["server"]), term=term_text)
    common = dict(
        label=label,
        term=term_text,
        price=x.price(row["cloud_price_per_gpu_hour"]),
        hours=f.count(row["gpu_hours"], lang),
        pv_cloud=x.money(row["pv_cloud_cost"]),
        pv_build=x.money(row["pv_build_cost"]),
    )
    saving = float(row["saving"])
    if mode == "avoided_cloud":
        npv = float(row["npv_vs_cloud"])
        verdict = (
            Markup(R["avoided_good"])
            if npv > 0
            else say(R["avoided_bad"], amount=x.money(abs(npv)))
        )
        head = say(R["avoided"], npv=x.money(npv), verdict=verdict, **common)
    else:
        share = f.pct(abs(float(row["saving_share"])))
        verdict = say(
            R["saves" if saving > 0 else "loses"], amount=x.money(abs(saving)), share=share
        )
        head = say(R["rental"], verdict=verdict, **common)
    u = row["break_even_utilization"]
    ub = m.inputs[tier].values()["utilization"]
    if not is_empty(u):
        util = say(R["util"], u=f.pct(u), ub=f.pct(ub))
    else:
        util = Markup(R["util_always" if float(row["npv_vs_cloud"]) > 0 else "util_never"])
    month = row["break_even_month"]
    if not is_empty(month):
        when = say(R["month"], m=int(month), years=_month_years(float(month), lang))
    else:
        when = say(R["month_never"], horizon=a.horizon_years)
    return Markup("" if lang == "zh" else " ").join([head, util, when])


def build_rent(x: Facts, an: Analysis) -> dict[str, Any]:
    """Context of the section "Build or rent?"."""
    m, lang = x.model, x.lang
    R = RENT[lang]
    a = m.assumptions
    df = an.build_vs_rent
    tiers = [t for t in m.tiers if t in df.index]
    modes = {t: revenue_mode(a, t) for t in tiers}
    avoided = [t for t in tiers if modes[t][0] == "avoided_cloud"]
    rate = f.pct(m.discount_rate())
    intro: list[Markup] = []
    if len(avoided) < len(tiers):
        intro.append(say(R["intro_rental"], rate=rate))
    if avoided:
        intro.append(say(R["intro_avoided"], rate=rate))
    rows = []
    for t in tiers:
        mode, term = modes[t]
        cells = rent_cells(x, df.loc[t])
        rows.append(
            dict(
                tier=t,
                label=tier_label(m, t, x.lang),
                key=say(
                    R["row_key"],
                    mode=R.get(f"mode_{mode}", mode),
                    term=R.get(f"term_{term}", term),
                    price=cells["cloud_price"],
                ),
                saving_negative=not is_empty(df.loc[t, "saving"]) and df.loc[t, "saving"] < 0,
                **cells,
            )
        )
    return dict(
        heading=R["heading"],
        intro=intro,
        rows=rows,
        sentences=[dict(tier=t, text=rent_sentence(x, t, df.loc[t])) for t in tiers],
        note=R["note"],
        t=R,
    )
