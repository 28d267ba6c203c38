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

Bounded (README, "Limits"): at most :data:`WORKERS` runs at once (threads of
their own, so the server's event loop never runs the engine); at most
:data:`PER_KIND` runs of one kind and :data:`TOTAL` in all queued or running, a
run beyond them refused with :class:`JobsFull` (the page's 429) rather than
queued without end. A run is never dropped while it is queued or running; its
result is kept until the page has fetched it (then :data:`FETCHED_KEEP_S` more,
for a last poll) or for :data:`UNFETCHED_KEEP_S` after it finished. At most
:data:`MAX_FINISHED` results are kept: beyond it the oldest fetched ones go first,
and while that many are not yet fetched a new run is refused (429) rather than
one dropped.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from costmodel.analysis.defaults import DEFAULT_SEED
from costmodel.analysis.montecarlo import monte_carlo
from costmodel.inputs.model import build
from costmodel.inputs.schema import Assumptions
from costmodel.report import memoapi as f
from costmodel.report.memoapi import environment, tier_label
from costmodel.report.web.page_text import PAGE

#: the most draws one request may ask for
MAX_DRAWS = 200_000

#: runs at once; runs queued or running, of one kind and in all
WORKERS = 2
PER_KIND = 4
TOTAL = 6
#: seconds a finished run's result is kept after the page fetched it, and at most
#: after it finished; the most finished runs kept
FETCHED_KEEP_S = 60.0
UNFETCHED_KEEP_S = 900.0
MAX_FINISHED = 32

#: the fewest draws of a chunk, and the most chunks of a run
MIN_CHUNK = 1_000
CHUNKS = 10

#: seed of the page's runs: the CLI's default
SEED = DEFAULT_SEED

#: ``work(progress)``: the job's work, calling ``progress(done)`` as it goes
Work = Callable[[Callable[[int], None]], Any]
#: ``render(result, lang)``: the result as HTML
Render = Callable[[Any, str], str]


class JobsFull(Exception):
    """No room for another run (the page answers 429): the message says why."""


@dataclass
class Job:
    """One run: ``done`` of ``total`` units (draws, GPU counts), then ``result``
    (shown by ``render``) or ``error``."""

    total: int
    render: Render
    kind: str = "job"
    done: int = 0
    result: Any = None
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    finished_at: float | None = None
    fetched_at: float | None = None

    def html(self, lang: str) -> str | None:
        """The result as HTML in ``lang`` (None while it runs)."""
        if self.result is None:
            return None
        return self.render(self.result, lang)


class Jobs:
    """The runs of one server (module docstring: the bounds)."""

    def __init__(
        self,
        workers: int = WORKERS,
        per_kind: int = PER_KIND,
        total: int = TOTAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._jobs: dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._queue: queue.Queue[tuple[Job, Work]] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self.workers, self.per_kind, self.total = workers, per_kind, total
        self._clock = clock

    def submit(self, total: int, work: Work, render: Render, kind: str = "job") -> str:
        """Queue ``work`` as a run of ``total`` units; returns its id. Raises
        :class:`JobsFull` when :attr:`per_kind` runs of ``kind`` or :attr:`total`
        runs in all are queued or running."""
        job = Job(total=total, render=render, kind=kind)
        with self._lock:
            self._expire()
            active = [j for j in self._jobs.values() if not j.finished.is_set()]
            same = sum(j.kind == kind for j in active)
            if same >= self.per_kind:
                raise JobsFull(
                    f"{same} {kind} runs are queued or running, the most at once; "
                    "start another when one has finished"
                )
            if len(active) >= self.total:
                raise JobsFull(
                    f"{len(active)} runs are queued or running, the most at once; "
                    "start another when one has finished"
                )
            unread = sum(j.finished.is_set() and j.fetched_at is None for j in self._jobs.values())
            if unread >= MAX_FINISHED:
                raise JobsFull(
                    f"{unread} finished runs wait for their results to be fetched, the most "
                    "kept; fetch them or wait until they expire"
                )
            key = str(next(self._ids))
            self._jobs[key] = job
            if len(self._threads) < self.workers:
                t = threading.Thread(target=self._worker, daemon=True, name="costmodel-job")
                t.start()
                self._threads.append(t)
        self._queue.put((job, work))
        return key

    def start(self, a: Assumptions, n: int, seed: int = SEED) -> str:
        """Start ``n`` Monte Carlo draws on ``a`` (validated already); returns the
        run's id."""
        if not 1 <= n <= MAX_DRAWS:
            raise ValueError(f"draws: a whole number from 1 to {MAX_DRAWS:,}")

        def work(progress: Callable[[int], None]) -> dict[str, Any]:
            return montecarlo_rows(a, n, seed, progress)

        return self.submit(n, work, montecarlo_html, kind="Monte Carlo")

    def get(self, key: str) -> Job | None:
        with self._lock:
            self._expire()
            return self._jobs.get(key)

    def fetched(self, key: str) -> None:
        """The page has the run's result (or error): it is kept a little longer."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.finished.is_set() and job.fetched_at is None:
                job.fetched_at = self._clock()

    def counts(self) -> dict[str, int]:
        """Runs queued or running, finished and kept, in all kept."""
        with self._lock:
            self._expire()
            running = sum(not j.finished.is_set() for j in self._jobs.values())
            return dict(active=running, finished=len(self._jobs) - running, kept=len(self._jobs))

    def _expire(self) -> None:
        """Drop finished runs fetched long enough ago or finished too long ago, and
        the oldest fetched ones beyond :data:`MAX_FINISHED` results; never a run
        not finished, nor one not fetched before it expires."""
        now = self._clock()
        done, read = 0, []
        for key, j in list(self._jobs.items()):
            if not j.finished.is_set() or j.finished_at is None:
                continue
            fetched = j.fetched_at is not None and now - j.fetched_at > FETCHED_KEEP_S
            if fetched or now - j.finished_at > UNFETCHED_KEEP_S:
                del self._jobs[key]
                continue
            done += 1
            if j.fetched_at is not None:
                read.append(key)
        for key in read[: max(0, done - MAX_FINISHED)]:
            del self._jobs[key]

    def _worker(self) -> None:
        while True:
            job, work = self._queue.get()
            _run(job, work, self._clock)


def _run(job: Job, work: Work, clock: Callable[[], float] = time.monotonic) -> None:
    def progress(done: int) -> None:
        job.done = done

    try:
        result = work(progress)
        job.done = job.total
        job.result = result
    except Exception as exc:  # noqa: BLE001 - the page shows it, the server goes on
        job.error = f"{type(exc).__name__}: {exc}"
    finally:
        job.finished_at = clock()
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
