"""Work requested from the page that takes seconds: started in a thread, its
progress read by polling (``GET /api/jobs/{id}``), its result shown as HTML.

:class:`Jobs` runs any such work (:meth:`Jobs.submit`): a function that reports
``done`` of ``total`` units as it goes and returns a result, and a function that
renders the result in a language. Two kinds use it:

- a Monte Carlo run (:meth:`Jobs.start`), its result shown as the memo formats
  NPVs, its progress reported after each block of draws (10,000: methodology §34).
  Results do not depend on the chunk size (methodology §9), so the run's engine
  evaluations take up to a tenth of its draws, at least :data:`MIN_CHUNK` (each
  chunk costs a few tenths of a second beyond its draws: 2,000 draws of the default
  take 3.5 s in chunks of 1,000 and 8 s in chunks of 100);
- the scale sweep (:mod:`costmodel.report.web.scale`), in groups of GPU counts.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from costmodel.analysis.defaults import DEFAULT_SEED
from costmodel.analysis.montecarlo import monte_carlo
from costmodel.core.model import build
from costmodel.inputs.schema import Assumptions
from costmodel.report.memo import numbers as f
from costmodel.report.memo.labels import tier_label
from costmodel.report.memo.render import environment
from costmodel.report.web.page_text import PAGE

#: the most draws one request may ask for, and the runs kept
MAX_DRAWS = 200_000
KEPT = 8

#: the fewest draws of a chunk, and the most chunks of a run
MIN_CHUNK = 1_000
CHUNKS = 10

#: seed of the page's runs: the CLI's default
SEED = DEFAULT_SEED

#: ``work(progress)``: the job's work, calling ``progress(done)`` as it goes
Work = Callable[[Callable[[int], None]], Any]
#: ``render(result, lang)``: the result as HTML
Render = Callable[[Any, str], str]


@dataclass
class Job:
    """One run: ``done`` of ``total`` units (draws, GPU counts), then ``result``
    (shown by ``render``) or ``error``."""

    total: int
    render: Render
    done: int = 0
    result: Any = None
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def html(self, lang: str) -> str | None:
        """The result as HTML in ``lang`` (None while it runs)."""
        if self.result is None:
            return None
        return self.render(self.result, lang)


class Jobs:
    """The runs of one server (the last :data:`KEPT`)."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def submit(self, total: int, work: Work, render: Render) -> str:
        """Run ``work`` in a thread as a job of ``total`` units; returns its id."""
        job = Job(total=total, render=render)
        with self._lock:
            key = str(next(self._ids))
            self._jobs[key] = job
            for old in list(self._jobs)[:-KEPT]:
                del self._jobs[old]
        threading.Thread(target=_run, args=(job, work), daemon=True).start()
        return key

    def start(self, a: Assumptions, n: int, seed: int = SEED) -> str:
        """Start ``n`` Monte Carlo draws on ``a`` (validated already); returns the
        run's id."""
        if not 1 <= n <= MAX_DRAWS:
            raise ValueError(f"draws: a whole number from 1 to {MAX_DRAWS:,}")

        def work(progress: Callable[[int], None]) -> dict[str, Any]:
            return montecarlo_rows(a, n, seed, progress)

        return self.submit(n, work, montecarlo_html)

    def get(self, key: str) -> Job | None:
        with self._lock:
            return self._jobs.get(key)


def _run(job: Job, work: Work) -> None:
    def progress(done: int) -> None:
        job.done = done

    try:
        result = work(progress)
        job.done = job.total
        job.result = result
    except Exception as exc:  # noqa: BLE001 - the page shows it, the server goes on
        job.error = f"{type(exc).__name__}: {exc}"
    finally:
        job.finished.set()


def montecarlo_rows(
    a: Assumptions, n: int, seed: int, progress: Callable[[int], None]
) -> dict[str, Any]:
    """``n`` draws on ``a`` in chunks (module docstring): per tier its label and
    P10, P50, P90 of NPV and P(NPV > 0) as the memo formats them, in both languages."""
    chunk = max(MIN_CHUNK, -(-n // CHUNKS))
    mc = monte_carlo(
        a, n=n, seed=seed, workers=1, chunk_size=chunk, progress=lambda done, total: progress(done)
    )
    model = build(a)
    cur = a.currency
    rows = []
    for t in model.tiers:
        s = mc.summary.loc[t]
        cells = {
            lang: [f.money(s[c], lang, cur) for c in ("npv_p10", "npv_p50", "npv_p90")]
            + [f.pct(s["p_npv_positive"], 0)]
            for lang in ("en", "zh")
        }
        label = {lang: tier_label(model, t, lang) for lang in ("en", "zh")}
        rows.append(dict(tier=t, label=label, cells=cells))
    return dict(rows=rows, n=n, seed=seed)


def montecarlo_html(result: dict[str, Any], lang: str) -> str:
    """A Monte Carlo result as HTML in ``lang`` (``templates/serve/montecarlo.html.j2``)."""
    T = PAGE[lang]
    rows = [dict(label=r["label"][lang], cells=r["cells"][lang]) for r in result["rows"]]
    note = T["mc_note"].format(n=f"{result['n']:,}", seed=result["seed"])
    return (
        environment(None).get_template("serve/montecarlo.html.j2").render(t=T, rows=rows, note=note)
    )
