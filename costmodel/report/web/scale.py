"""The scale sweep on request (methodology §13, §14): one option rebuilt at the GPU
counts of a range, as ``costmodel sweep --tier T --gpus A:B`` rebuilds it, run as a
job of :class:`~costmodel.report.web.jobs.Jobs` in :data:`PARTS` groups of counts
(:func:`costmodel.analysis.sweep.sweep_in_parts`: the rows equal one sweep over all
of them) so that its progress moves; shown as the memo's scale curve
(:func:`costmodel.report.memoapi.sweep_chart`) and a table of GPUs, scale
class, network levels, cost per GPU-hour and NPV, the steps marked.

A range the CLI refuses (below one server, start above end, above what the
designed fabric holds) is refused with the CLI's message, ``--gpus 'A:B': ...``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from costmodel.analysis.sweep import default_range, parse_gpus, sweep_in_parts
from costmodel.core.metrics import METRICS
from costmodel.inputs.model import Model, build
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.suggest import name_hint
from costmodel.report import memoapi as f
from costmodel.report.memoapi import (
    STEP_WORDS,
    SWEEP,
    environment,
    metric_label,
    sweep_chart,
    tier_label,
)
from costmodel.report.web.jobs import Jobs
from costmodel.report.web.page_text import PAGE

#: groups of GPU counts a sweep is evaluated in (one engine call each)
PARTS = 6

#: the table's columns (summary metrics)
COLUMNS = ("gpus", "scale_class", "network_levels", "cost_per_gpu_hour", "npv")


def controls(model: Model, lang: str) -> list[dict[str, Any]]:
    """Per tier the sweep control's choice: label, a server's GPUs (the step), the
    tier's GPUs and the CLI's default range (:func:`default_range`)."""
    out = []
    for t in model.tiers:
        values = resolve_tier(model.assumptions, t).values()
        lo, hi = default_range(model.assumptions, t)
        out.append(
            dict(
                tier=t,
                label=tier_label(model, t, lang),
                lo=lo,
                hi=hi,
                step=int(values["gpus_per_server"]),
                gpus=int(values["gpus"]),
            )
        )
    return out


def start(jobs: Jobs, a: Assumptions, tier: str, lo: int, hi: int) -> str:
    """Start the sweep of ``tier`` over ``lo:hi`` on ``a`` (validated already);
    returns the job's id. A tier or range the CLI refuses raises ValueError with
    the CLI's message."""
    if tier not in a.tiers:
        hint = name_hint(tier, a.tiers).removesuffix(";")
        raise ValueError(f"--tier {tier!r}{hint}: choose one of {', '.join(a.tiers)}")
    gpus = f"{lo}:{hi}"
    try:
        counts = parse_gpus(a, tier, gpus)
    except ValueError as e:
        raise ValueError(f"--gpus {gpus!r}: {e}") from None

    def work(progress: Callable[[int], None]) -> dict[str, Any]:
        df = sweep_in_parts(a, tier, counts, PARTS, lambda done, total: progress(done))
        return dict(model=build(a), tier=tier, rows=df)

    return jobs.submit(len(counts), work, html, kind="sweep")


def _step(change: str, lang: str) -> str:
    T = SWEEP[lang]
    return T["and"].join(T[STEP_WORDS[w]] for w in change.split(", ") if w)


def table(result: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The rows of the table: each column as the memo formats it and as the number
    (``raw``), the step (where the scale class or the network levels differ from the
    row above) and whether it is the tier's own size."""
    model, df = result["model"], result["rows"]
    cur = model.assumptions.currency
    rows = []
    for r in df.to_dict("records"):
        cells = []
        for col in COLUMNS:
            v = r[col]
            if isinstance(v, str | int):
                raw = str(v)
            else:
                raw = repr(float(v)) if math.isfinite(float(v)) else ""
            text = f.fmt(v, METRICS[col].kind, lang, cur, col)
            cells.append(dict(metric=col, text=text, raw=raw))
        own = int(r["gpus"]) == df.attrs["first_gpus"]
        rows.append(
            dict(gpus=int(r["gpus"]), cells=cells, step=_step(str(r["change"]), lang), own=own)
        )
    return rows


def html(result: dict[str, Any], lang: str) -> str:
    """The sweep's chart, table and note in ``lang`` (``templates/serve/sweep.html.j2``)."""
    model, df, tier = result["model"], result["rows"], result["tier"]
    T = PAGE[lang]
    caption = T["sweep_caption"].format(
        n=len(df), lo=f"{int(df['gpus'].iloc[0]):,}", hi=f"{int(df['gpus'].iloc[-1]):,}"
    )
    chart = sweep_chart(model, lang, {tier: df}, prefix=f"w-sweep-{lang}")
    return (
        environment(None)
        .get_template("serve/sweep.html.j2")
        .render(
            t=T,
            tier=tier,
            label=tier_label(model, tier, lang),
            caption=caption,
            headers=[
                dict(text=metric_label(METRICS[c], lang), num=METRICS[c].kind != "text")
                for c in COLUMNS
            ],
            rows=table(result, lang),
            chart=Markup(chart),
            note=T["sweep_note"],
        )
    )
