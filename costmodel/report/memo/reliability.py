"""Two memo sections built from a finished model: what failures and checkpoints
cost (METHODOLOGY 9), and which scale fits which task (METHODOLOGY 10).

Like every section module, it reads the :class:`~costmodel.report.memo.context.Facts`:
one builder per section, each returning a plain dict for its own block of
``templates/memo.html.j2``.

Failures (per tier; words in :data:`costmodel.report.memo.text_reliability.FAILURES`): the
figures of ``Analysis.risks`` (:mod:`costmodel.analysis.risks`: failures a year,
GPU-hours and money lost, what storage ``risks.storage_speedup`` times faster
would recover), formatted.

Fit (per workload and tier; words in :data:`costmodel.report.memo.text_reliability.FIT`): the
columns of ``Analysis.recommend`` as they are, formatted; the recommended tier is
``df.attrs["recommended"]``. No workloads: the section is left out (``None``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from markupsafe import Markup

from costmodel.catalogue.items import capex_column
from costmodel.core.metrics import is_empty
from costmodel.report.memo import analysis_charts
from costmodel.report.memo import numbers as f
from costmodel.report.memo.context import Facts, say, times
from costmodel.report.memo.labels import chart_label, tier_label, workload_label
from costmodel.report.memo.text_reliability import FAILURES, FIT

# ----------------------------------------------------------------------------- failures


def _speedup(x: Facts) -> str:
    """The storage speed-up of the what-if, as written in the text (``10``)."""
    return f.number(x.model.assumptions.risks.storage_speedup.value)


def failure_figures(x: Facts, tier: str) -> dict[str, float]:
    """The raw numbers of one tier: a row of ``Analysis.risks``."""
    return {k: float(v) for k, v in x.analysis.risks.loc[tier].items()}


def _write_time(h: float, lang: str) -> str:
    if is_empty(h):
        return f.EMPTY
    return f.duration(h, lang) if h >= 1 else f.seconds(h * 3600, lang)


def failure_cells(x: Facts, n: dict[str, float]) -> dict[str, str]:
    """Formatted table cells of one tier, by row key (the tests use the same)."""
    lang = x.lang
    gb = "GB/s"
    return dict(
        per_year=times(n["per_year"]),
        mtbf=f.duration(n["mtbf"], lang),
        write=f"{f.number(n['checkpoint_tb'])}\u00a0TB @ {f.number(n['write'])}\u00a0{gb}"
        f" → {_write_time(n['delta_h'], lang)}",
        tau=f.duration(n["tau"], lang),
        goodput=f.pct(n["goodput"], 2),
        annual_hours=f.count(n["annual_hours"], lang),
        lost_hours=f.count(n["lost_hours"], lang),
        lost_money=x.money(n["lost_money"]),
        write_fast=f"{f.number(n['write_fast'])}\u00a0{gb}",
        goodput_fast=f.pct(n["goodput_fast"], 2),
        recovered_hours=f.count(n["recovered_hours"], lang),
        recovered_money=x.money(n["recovered_money"]),
    )


ROWS_NOW = (
    "per_year",
    "mtbf",
    "write",
    "tau",
    "goodput",
    "annual_hours",
    "lost_hours",
    "lost_money",
)
ROWS_FAST = ("write_fast", "goodput_fast", "recovered_hours", "recovered_money")


def _tier_finding(x: Facts, tier: str, n: dict[str, float]) -> Markup:
    """One generated paragraph per tier, led by the source's warning for its scale."""
    lang, m = x.lang, x.model
    F = FAILURES[lang]
    cls = str(x.summary.loc[tier, "scale_class"])
    label = tier_label(m, tier, x.lang)
    if n["per_year"] == 0:
        return say(F["none"], label=label)
    common = dict(
        label=label,
        servers=f"{int(n['servers']):,}",
        per_year=times(n["per_year"]),
        per_day=f"{n['per_day']:,.2f}",
        mtbf=f.duration(n["mtbf"], lang),
        tau=f.duration(n["tau"], lang),
        lost_share=f.pct(1 - n["goodput"], 2),
        lost_hours=f.count(n["lost_hours"], lang),
        lost_money=x.money(n["lost_money"]),
        ckpt=f"{f.number(n['checkpoint_tb'])} TB",
        write=f"{f.number(n['write'])} GB/s",
        delta=_write_time(n["delta_h"], lang),
        write_share=f.pct(n["delta_h"] / n["tau"], 2) if n["tau"] > 0 else f.EMPTY,
        day_cost=x.money(n["day_cost"]),
        per_day_high=f"{n['per_day_high']:,.2f}",
    )
    met = bool(n["at_source_rate"])
    common["source_rate"] = say(F["source_met" if met else "source_high"], **common)
    lead = say(F[f"lead_{cls}"], **common)
    total = n["recovered_money"] * n["years"]
    storage = say(
        F["storage"],
        factor=_speedup(x),
        write_fast=f"{f.number(n['write_fast'])} GB/s",
        goodput_fast=f.pct(n["goodput_fast"], 2),
        rec_hours=f.count(n["recovered_hours"], lang),
        rec_money=x.money(n["recovered_money"]),
        years=m.assumptions.horizon_years,
        rec_total=x.money(total),
        storage_capex=x.money(float(x.summary.loc[tier, capex_column("storage")])),
    )
    return Markup("" if lang == "zh" else " ").join([lead, storage])


def failures(x: Facts) -> dict[str, Any]:
    """Context of the section "What failures and checkpoints cost"."""
    m, lang = x.model, x.lang
    F = FAILURES[lang]
    nums = {t: failure_figures(x, t) for t in m.tiers}
    cells = {t: failure_cells(x, nums[t]) for t in m.tiers}

    def rows(keys: tuple[str, ...]) -> list[dict[str, Any]]:
        return [
            dict(
                key=k,
                label=F[f"row_{k}"].format(factor=_speedup(x)),
                cells=[dict(tier=t, text=cells[t][k]) for t in m.tiers],
            )
            for k in keys
        ]

    intro = [
        say(
            F["intro"],
            years=m.assumptions.horizon_years,
            factor=_speedup(x),
        )
    ]
    failing = [t for t in m.tiers if nums[t]["per_year"] > 0]
    if len(failing) > 1:
        lo = min(failing, key=lambda t: nums[t]["servers"])
        hi = max(failing, key=lambda t: nums[t]["servers"])
        if nums[hi]["servers"] > nums[lo]["servers"]:
            intro.append(
                say(
                    F["scale"],
                    small=tier_label(m, lo, x.lang),
                    big=tier_label(m, hi, x.lang),
                    s_small=f"{int(nums[lo]['servers']):,}",
                    s_big=f"{int(nums[hi]['servers']):,}",
                    f_small=times(nums[lo]["per_year"]),
                    f_big=times(nums[hi]["per_year"]),
                    g_small=f.pct(nums[lo]["goodput"], 2),
                    g_big=f.pct(nums[hi]["goodput"], 2),
                )
            )
    body = analysis_charts.failures_chart(
        [chart_label(m, t, x.lang) for t in m.tiers],
        [1 - nums[t]["goodput"] for t in m.tiers],
        [1 - nums[t]["goodput_fast"] for t in m.tiers],
        [nums[t]["lost_money"] for t in m.tiers],
        [nums[t]["lost_money"] - nums[t]["recovered_money"] for t in m.tiers],
        lang,
        x.currency,
        _speedup(x),
        f"failures-{lang}",
    )
    return dict(
        heading=F["heading"],
        intro=intro,
        tiers=[dict(name=t, label=tier_label(m, t, x.lang)) for t in m.tiers],
        now_label=F["group_now"],
        fast_label=F["group_fast"].format(factor=_speedup(x)),
        rows_now=rows(ROWS_NOW),
        rows_fast=rows(ROWS_FAST),
        findings=[dict(tier=t, text=_tier_finding(x, t, nums[t])) for t in m.tiers],
        note=F["note"],
        chart=dict(
            title=F["chart_title"],
            caption=F["chart_caption"].format(factor=_speedup(x)),
            body=Markup(body),
        ),
    )


# ----------------------------------------------------------------------------- fit


def _days(days: float, lang: str) -> str:
    return f.EMPTY if is_empty(days) else f.duration(days * 24, lang)


def fit_cell(row: pd.Series, lang: str, currency: str = "CNY") -> dict[str, str]:
    """Formatted figures of one (workload, tier) row (the tests use the same);
    inference: ``tokens``, the tier's cost per GPU-hour and the cost per million
    tokens it comes to (methodology §27), "" for training."""
    W = FIT[lang]
    inference = row["kind"] == "inference"
    tokens = ""
    if inference:
        tokens = W["tokens_cell"].format(
            gpu_cost=f.price(float(row["cost_per_gpu_hour"]), lang, currency),
            tokens_cost=f.price(float(row["cost_per_million_tokens"]), lang, currency, "mtok"),
        )
    if not row["meets_memory"]:
        main = W["short_memory"].format(floor=f"{int(row['memory_floor_gpus']):,}")
    elif inference:
        main = W["service"].format(floor=f"{int(row['memory_floor_gpus']):,}")
    else:
        main = _days(float(row["days_needed"]), lang)
    return dict(
        main=main,
        used=f.share(float(row["share_of_horizon"])),
        idle=f.share(float(row["idle_share"])),
        tokens=tokens,
    )


def fit(x: Facts) -> dict[str, Any] | None:
    """Context of the section "Which scale fits which task"; ``None`` without workloads."""
    m, lang = x.model, x.lang
    a = m.assumptions
    if not a.workloads:
        return None
    W = FIT[lang]
    df = x.analysis.recommend
    chosen: dict[str, str | None] = df.attrs["recommended"]
    tco = x.summary["tco"].astype(float)
    rows = []
    for w in a.workloads:
        g = df.loc[w.name]
        floors = sorted({int(v) for v in g["memory_floor_gpus"]})
        floor = f"{floors[0]:,}" if len(floors) == 1 else f"{floors[0]:,}–{floors[-1]:,}"
        cells = []
        for t in m.tiers:
            r = g.loc[t]
            c = fit_cell(r, lang, x.currency)
            reason = ""
            if not r["meets_memory"]:
                reason = W["why_memory"]
            elif not r["meets_deadline"]:
                reason = W["why_deadline"]
            cells.append(
                dict(
                    tier=t,
                    label=str.__str__(tier_label(m, t, x.lang)),  # an attribute: plain text
                    feasible=bool(r["feasible"]),
                    recommended=chosen.get(w.name) == t,
                    reason=reason,
                    **c,
                )
            )
        rec = chosen.get(w.name)
        rows.append(
            dict(
                key=w.name,
                name=workload_label(x.model, w.name, x.lang),
                kind=_kind_unless_named(workload_label(x.model, w.name, x.lang), W["kind"][w.kind]),
                floor=floor,
                deadline=(
                    W["days"].format(days=f.number(w.deadline_days.value))
                    if w.deadline_days is not None and w.kind != "inference"
                    else W["no_deadline"]
                ),
                cells=cells,
                recommended=rec,
                recommended_label=tier_label(m, rec, x.lang) if rec else W["none_fits"],
            )
        )
    return dict(
        heading=W["heading"],
        maxim=W["maxim"],
        maxim_source=W["maxim_source"],
        intro=W["intro"],
        tiers=[
            dict(name=t, label=tier_label(m, t, x.lang), gpus=int(x.summary.loc[t, "gpus"]))
            for t in m.tiers
        ],
        rows=rows,
        findings=_fit_findings(x, df, chosen, tco),
        legend=W["legend"].format(years=a.horizon_years),
        gpus_unit=W["gpus_unit"],
        t=W,
    )


def _fit_findings(
    x: Facts, df: pd.DataFrame, chosen: dict[str, str | None], tco: pd.Series
) -> list[Markup]:
    """Generated sentences: the worst over-buy, the tasks that need a costlier tier,
    and the tasks nothing fits."""
    m, lang = x.model, x.lang
    W = FIT[lang]
    a = m.assumptions
    out: list[Markup] = []
    gpus = x.summary["gpus"].astype(float)
    big = str(gpus.idxmax())
    cheapest = str(tco.idxmin())
    names = [w.name for w in a.workloads]
    fits_cheapest = [n for n in names if chosen.get(n) == cheapest]
    if len(m.tiers) > 1:
        out.append(
            say(
                W["count"],
                k=len(fits_cheapest),
                n=len(names),
                label=tier_label(m, cheapest, x.lang),
            )
        )
    out += _overbuy(x, df, chosen, big)
    out += _needs_costlier(x, df, chosen, tco, cheapest)
    out += _nothing_fits(x, df, chosen)
    out += _token_costs(x, df, chosen)
    return out


def _token_costs(x: Facts, df: pd.DataFrame, chosen: dict[str, str | None]) -> list[Markup]:
    """Per inference task on its recommended option: the cost per million tokens
    beside the option's cost per GPU-hour it comes from (methodology §27:
    ``cost_per_gpu_hour * 1e6 / (tokens_per_s_per_gpu * 3600)``)."""
    m, lang = x.model, x.lang
    W = FIT[lang]
    out: list[Markup] = []
    for w in m.assumptions.workloads:
        rec = chosen.get(w.name)
        if w.kind != "inference" or rec is None:
            continue
        r = df.loc[(w.name, rec)]
        out.append(
            say(
                W["tokens"],
                name=workload_label(m, w.name, lang),
                rec=tier_label(m, rec, lang),
                gpu_cost=f.price(float(r["cost_per_gpu_hour"]), lang, x.currency),
                tps=f.number(w.tokens_per_s_per_gpu.value),
                tokens_cost=f.price(float(r["cost_per_million_tokens"]), lang, x.currency, "mtok"),
            )
        )
    return out


def _overbuy(x: Facts, df: pd.DataFrame, chosen: dict[str, str | None], big: str) -> list[Markup]:
    """The worst over-buy: the task leaving the biggest tier most idle, recommended
    elsewhere."""
    m, lang = x.model, x.lang
    W = FIT[lang]
    a = m.assumptions
    gpus = x.summary["gpus"].astype(float)
    names = [w.name for w in a.workloads]
    out: list[Markup] = []
    over = [n for n in names if chosen.get(n) not in (None, big)]
    if over and len(m.tiers) > 1:
        worst = max(over, key=lambda n: float(df.loc[(n, big), "idle_share"]))
        rec = str(chosen[worst])
        r, rb = df.loc[(worst, rec)], df.loc[(worst, big)]
        fields = dict(
            name=workload_label(m, worst, x.lang),
            floor=f"{int(r['memory_floor_gpus']):,}",
            rec=tier_label(m, rec, x.lang),
            big=tier_label(m, big, x.lang),
            big_gpus=f"{int(gpus[big]):,}",
            idle=f.share(float(rb["idle_share"])),
            years=a.horizon_years,
        )
        if r["kind"] == "inference":
            out.append(say(W["overbuy_service"], **fields))
        else:
            out.append(
                say(
                    W["overbuy"],
                    days=_days(float(r["days_needed"]), lang),
                    big_days=_days(float(rb["days_needed"]), lang),
                    **fields,
                )
            )
    return out


def _needs_costlier(
    x: Facts, df: pd.DataFrame, chosen: dict[str, str | None], tco: pd.Series, cheapest: str
) -> list[Markup]:
    """Tasks that need more than the cheapest option: why the cheaper ones fail."""
    m, lang = x.model, x.lang
    W = FIT[lang]
    gpus = x.summary["gpus"].astype(float)
    names = [w.name for w in m.assumptions.workloads]
    out: list[Markup] = []
    for n in names:
        rec = chosen.get(n)
        if rec is None or rec == cheapest:
            continue
        cheaper = [t for t in m.tiers if tco[t] < tco[rec]]
        near = max(cheaper, key=lambda t: tco[t])
        r = df.loc[(n, near)]
        fields = dict(
            name=workload_label(m, n, x.lang),
            rec=tier_label(m, rec, x.lang),
            near=tier_label(m, near, x.lang),
        )
        if not r["meets_memory"]:
            out.append(
                say(
                    W["needs_memory"],
                    floor=f"{int(r['memory_floor_gpus']):,}",
                    gpus=f"{int(gpus[near]):,}",
                    **fields,
                )
            )
        else:
            out.append(
                say(
                    W["needs_time"],
                    days=_days(float(r["days_needed"]), lang),
                    deadline=f.number(float(r["deadline_days"])),
                    rec_days=_days(float(df.loc[(n, rec), "days_needed"]), lang),
                    **fields,
                )
            )
    return out


def _nothing_fits(x: Facts, df: pd.DataFrame, chosen: dict[str, str | None]) -> list[Markup]:
    """Tasks no option fits: too slow on the fastest, or too little memory anywhere."""
    m, lang = x.model, x.lang
    W = FIT[lang]
    names = [w.name for w in m.assumptions.workloads]
    out: list[Markup] = []
    for n in names:
        if chosen.get(n) is None:
            g = df.loc[n]
            roomy = g[g["meets_memory"]]["days_needed"].astype(float).dropna()
            best = str(roomy.idxmin()) if len(roomy) else None
            if best is not None:
                out.append(
                    say(
                        W["none_time"],
                        name=workload_label(m, n, x.lang),
                        label=tier_label(m, str(best), x.lang),
                        days=_days(float(g.loc[best, "days_needed"]), lang),
                        deadline=f.number(float(g.loc[best, "deadline_days"])),
                    )
                )
            else:
                out.append(say(W["none_memory"], name=workload_label(m, n, x.lang)))
    return out


def _kind_unless_named(name: str, kind: str) -> str:
    """The task's kind, or nothing when its name already ends with it
    (``13B 模型 LoRA 微调`` needs no second ``LoRA 微调``)."""
    return "" if name.endswith(kind) else kind
