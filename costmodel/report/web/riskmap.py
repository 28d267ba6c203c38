"""The study on request (methodology §34, §14): one option rebuilt at the GPU counts
of a range and simulated on common random numbers, as ``costmodel study --tier T
--gpus A:B -n N`` does (the assumptions' own site), run as a job of
:class:`~costmodel.report.web.jobs.Jobs` in this process with its progress in
cell-draws; shown as the memo's heat map of P(NPV > 0) and its sentences
(:func:`costmodel.report.memoapi.heat_map`).

A range the CLI refuses is refused with the CLI's message; a study beyond
:data:`MAX_CELL_DRAWS` cell-draws (a page's request, not a batch run) or
:data:`MAX_DRAWS` draws per cell is refused with the limit named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from costmodel.analysis.defaults import DEFAULT_SEED
from costmodel.analysis.study import study
from costmodel.analysis.sweep import parse_gpus
from costmodel.inputs.model import build
from costmodel.inputs.schema import Assumptions
from costmodel.report import memoapi as f
from costmodel.report.memoapi import STUDY, environment, heat_map, sentences, site_label, tier_label
from costmodel.report.web.jobs import Jobs

#: the most draws per cell, and cells x draws, one request may ask for
MAX_DRAWS = 20_000
MAX_CELL_DRAWS = 1_000_000
#: the choices of draws per cell on the page
DRAWS = (1_000, 2_000, 5_000)


def start(jobs: Jobs, a: Assumptions, tier: str, lo: int, hi: int, n: int) -> str:
    """Start the study of ``tier`` over ``lo:hi`` with ``n`` draws per cell on ``a``
    (validated already); returns the job's id. What the CLI refuses, or a study
    beyond the page's limits, raises ValueError with the message."""
    if tier not in a.tiers:
        raise ValueError(f"--tier {tier!r}: choose one of {', '.join(a.tiers)}")
    gpus = f"{lo}:{hi}"
    try:
        counts = parse_gpus(a, tier, gpus)
    except ValueError as e:
        raise ValueError(f"--gpus {gpus!r}: {e}") from None
    if not 1 <= n <= MAX_DRAWS:
        raise ValueError(f"draws per cell: a whole number from 1 to {MAX_DRAWS:,}")
    total = len(counts) * n
    if total > MAX_CELL_DRAWS:
        raise ValueError(
            f"{len(counts)} GPU counts x {n:,} draws = {total:,} cell-draws: the page runs at "
            f"most {MAX_CELL_DRAWS:,} (costmodel study runs more)"
        )

    def work(progress: Callable[[int], None]) -> dict[str, Any]:
        res = study(
            a, tier, None, counts, n, DEFAULT_SEED, workers=1, progress=lambda d, t: progress(d)
        )
        return dict(model=build(a), result=res)

    return jobs.submit(total, work, html, kind="study")


def html(result: dict[str, Any], lang: str) -> str:
    """The study's heat map and sentences in ``lang`` (``templates/serve/study.html.j2``)."""
    model, res = result["model"], result["result"]
    T = STUDY[lang]
    cur = model.assumptions.currency
    labels = {s: site_label(model.assumptions, s, lang) for s in res.sites}
    label = tier_label(model, res.tier, lang)
    return (
        environment(None)
        .get_template("serve/study.html.j2")
        .render(
            title=T["title"],
            caption=T["caption"].format(label=label, n=f"{res.n:,}", seed=res.seed),
            chart=Markup(heat_map(res, labels, lang, f"w-study-{lang}")),
            sentences=sentences(res, labels, lang, lambda v: f.money(v, lang, cur)),
            tier=res.tier,
        )
    )
