"""Blocks of Monte Carlo draws as jobs: what one evaluates, and where they run
(methodology §9 and §34).

A :class:`Case` is what blocks of draws are evaluated on: assumptions, tiers, the
ranged inputs and the active correlation pairs, the seed, and paths held at a value
in every draw (the study's GPU count and storage: :mod:`costmodel.analysis.study`).
:func:`evaluate_block` evaluates one block (:mod:`costmodel.analysis.draws`): it
makes the block's draws itself, so a job is sent as ``(case, block)`` and can run in
this process, a worker process or on a Dask worker, with the same numbers (every
engine call single-threaded; a draw's numbers do not depend on where its block
runs).

Within a block the tiers are grouped by their drawn timing paths (construction,
ramp, stage and contract months; depreciation lives and the loss carry-forward,
which the engine evaluates one value at a time): a group without drawn timing runs
its draws in order in chunks of ``chunk_size``; a group with drawn timing runs them
sorted by timing (a stable sort, the first path most significant) in chunks of
whole timings packed up to ``chunk_size`` draws (a timing with more draws than a
chunk in pieces), so that a chunk holds few distinct timings (one timing the engine
computes by year, several by draw: methodology §6), and puts the results back in
draw order.

:func:`run_blocks` runs the jobs: in this process; on a
:class:`concurrent.futures.ProcessPoolExecutor` of forked workers (Linux, not from
a daemonic process); or on a Dask ``distributed.Client`` when one is given. It
calls ``done(job, metrics)`` in the calling thread as each job completes, in any
order.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from costmodel.analysis.draws import active_pairs, block_draws, blocks
from costmodel.analysis.sensitivity import RangedInput
from costmodel.core.threads import blas_single_thread
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions, Correlation

METRICS = ("npv", "irr", "cost_per_gpu_hour")

#: draws per engine evaluation (bounds the engine's memory: its arrays are
#: chunk x months per line item)
CHUNK_SIZE = 1_000


@dataclass(frozen=True)
class Case:
    """What blocks of draws are evaluated on: ``tiers`` of ``assumptions`` on the
    draws of ``inputs`` (``pairs``: the correlations among them) with ``seed``;
    ``fixed``: paths set to a value in every draw (not drawn); ``scaled``: drawn
    paths whose draws are multiplied by a factor (the study's storage, proportional
    to GPUs); ``n`` draws; ``chunk_size`` draws per engine evaluation."""

    assumptions: Assumptions
    tiers: tuple[str, ...]
    inputs: tuple[RangedInput, ...]
    pairs: tuple[Correlation, ...]
    seed: int
    n: int
    fixed: tuple[tuple[str, float], ...] = ()
    scaled: tuple[tuple[str, float], ...] = ()
    chunk_size: int = CHUNK_SIZE

    @staticmethod
    def of(
        a: Assumptions,
        tiers: Sequence[str],
        inputs: Sequence[RangedInput],
        seed: int,
        n: int,
        **kw: Any,
    ) -> Case:
        """A case with the active pairs of ``a``'s correlations among ``inputs``."""
        pairs = active_pairs(a.correlations, [x.path for x in inputs])
        return Case(a, tuple(tiers), tuple(inputs), tuple(pairs), seed, n, **kw)


@dataclass(frozen=True)
class Job:
    """Block ``block`` (draws ``lo .. hi - 1``) of case number ``case``."""

    case: int
    block: int
    lo: int
    hi: int


def jobs_of(case: int, n: int) -> list[Job]:
    """The jobs of the blocks of ``n`` draws of case number ``case``."""
    return [Job(case, b, lo, hi) for b, lo, hi in blocks(n)]


def timing_paths(a: Assumptions, tier: str, drawn: set[str]) -> tuple[str, ...]:
    """The drawn paths of the tier's structural whole numbers (depreciation lives,
    loss carry-forward: one engine evaluation per value) and of its timing inputs
    (construction and ramp months, stage months, the contract's months), in that
    order."""
    ti = resolve_tier(a, tier)
    timing = [*ti.structure.values()] + [
        path
        for key, path in ti.paths().items()
        if key in ("build_months", "ramp_months", "contract_months")
        or (key.startswith("stage") and key.endswith("_month"))
    ]
    return tuple(p for p in dict.fromkeys(timing) if p in drawn)


def packed(keys: np.ndarray, chunk_size: int) -> list[tuple[int, int]]:
    """Chunks ``(lo, hi)`` of rows sorted by ``keys`` (n, k): whole runs of equal
    keys, packed up to ``chunk_size`` rows (a longer run in pieces of
    ``chunk_size``), so that a timing is split between chunks only when it has
    more draws than a chunk."""
    n = keys.shape[0]
    new = np.ones(n, dtype=bool)
    new[1:] = np.any(keys[1:] != keys[:-1], axis=1)
    starts = np.r_[np.flatnonzero(new), n]
    size = max(1, chunk_size)
    out: list[tuple[int, int]] = []
    lo = 0
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        if b - lo > size and a > lo:  # close the chunk before this run
            out.append((lo, int(a)))
            lo = int(a)
        while b - lo > size:  # a run longer than what is left of a chunk
            out.append((lo, lo + size))
            lo += size
    if lo < n:
        out.append((lo, n))
    return out


def chunks(case: Case, columns: np.ndarray) -> Iterator[tuple[tuple[str, ...], np.ndarray | slice]]:
    """``(tiers, rows)`` of each engine evaluation of a block's draws ``columns``
    (module docstring): rows ascending, or a slice in draw order."""
    m = columns.shape[1]
    drawn = {x.path: columns[k] for k, x in enumerate(case.inputs)}
    groups: dict[tuple[str, ...], list[str]] = {}
    for t in case.tiers:
        groups.setdefault(timing_paths(case.assumptions, t, set(drawn)), []).append(t)
    step = max(1, case.chunk_size)
    for timing, group in groups.items():
        if not timing:
            for lo in range(0, m, step):
                yield tuple(group), slice(lo, min(lo + step, m))
            continue
        keys = [drawn[p] for p in timing]
        order = np.lexsort(keys[::-1])  # stable: the first path the most significant
        sorted_keys = np.stack([k[order] for k in keys], axis=1)
        for lo, hi in packed(sorted_keys, case.chunk_size):
            yield tuple(group), np.sort(order[lo:hi])


@lru_cache(maxsize=8)
def cached_draws(
    inputs: tuple[RangedInput, ...],
    seed: int,
    block: int,
    size: int,
    pairs: tuple[Correlation, ...],
) -> np.ndarray:
    """:func:`~costmodel.analysis.draws.block_draws`, read-only, kept for the next
    jobs of this process: the study's cells at one site draw the same inputs, so
    the cells of a block share one draw (the last 8 blocks are kept, about 3.5 MB
    each for the default's tier)."""
    columns = block_draws(inputs, seed, block, size, pairs)
    columns.flags.writeable = False
    return columns


def evaluate_block(case: Case, job: Job) -> dict[str, np.ndarray]:
    """Tier -> (draws of the block, metrics) array of ``METRICS``: the block's draws
    made here (:func:`cached_draws`) and evaluated chunk by chunk, one tier at a
    time."""
    m = job.hi - job.lo
    with blas_single_thread():
        columns = cached_draws(case.inputs, case.seed, job.block, m, case.pairs)
        paths = [x.path for x in case.inputs]
        scaled = [(paths.index(p), factor) for p, factor in case.scaled if p in paths]
        if scaled:
            columns = columns.copy()
            for k, factor in scaled:
                columns[k] *= factor
        readers = [set(x.tiers) for x in case.inputs]
        out = {t: np.empty((m, len(METRICS))) for t in case.tiers}
        for group, rows in chunks(case, columns):
            size = len(range(m)[rows]) if isinstance(rows, slice) else len(rows)
            for t in group:  # one tier's engine arrays at a time
                read = [k for k, ts in enumerate(readers) if t in ts]
                variants: dict[str, Any] = {paths[k]: columns[k, rows] for k in read}
                variants.update({p: np.full(size, v) for p, v in case.fixed})
                metrics = run_variants(case.assumptions, variants, [t])[t].metrics
                out[t][rows] = np.stack([np.asarray(metrics[c]) for c in METRICS], axis=1)
    return out


# ----------------------------------------------------------------------------- where jobs run

#: the cases of the run a worker process evaluates (set by :func:`_start_worker`)
_WORKER_CASES: list[Case] | None = None


def _start_worker(cases: list[Case]) -> None:
    """A worker process's initializer: the run's cases, inherited at the fork."""
    global _WORKER_CASES
    _WORKER_CASES = cases


def _worker_job(k: int, job: Job) -> tuple[int, dict[str, np.ndarray]]:
    """In a worker process: job ``k``'s number and metrics."""
    assert _WORKER_CASES is not None
    return k, evaluate_block(_WORKER_CASES[job.case], job)


def _ready() -> None:
    """A worker's first job: nothing (see :func:`start_pool`)."""


def pool_context() -> mp.context.BaseContext | None:
    """The context of worker processes: fork on Linux (a worker inherits the
    assumptions instead of receiving a copy); None elsewhere, and in a process that
    may not have children (a daemonic ``multiprocessing`` worker): the run stays in
    this process."""
    if sys.platform != "linux" or mp.current_process().daemon:
        return None
    return mp.get_context("fork")


def start_pool(cases: list[Case], workers: int) -> tuple[ProcessPoolExecutor, int] | None:
    """``workers`` forked processes of a :class:`~concurrent.futures.ProcessPoolExecutor`
    that hold ``cases`` (None: ``workers < 2`` or no context, :func:`pool_context`)."""
    context_mp = pool_context() if workers > 1 else None
    if context_mp is None:
        return None
    pool = ProcessPoolExecutor(
        workers, mp_context=context_mp, initializer=_start_worker, initargs=(cases,)
    )
    with warnings.catch_warnings():  # Python 3.12+ warns of fork with threads running
        warnings.filterwarnings("ignore", ".*fork.*", DeprecationWarning)
        for f in [pool.submit(_ready) for _ in range(workers)]:  # every worker started
            f.result()
    return pool, workers


Done = Callable[[Job, dict[str, np.ndarray]], None]


def _on_pool(jobs: list[Job], pool: tuple[ProcessPoolExecutor, int], done: Done) -> None:
    """The jobs on the pool's workers, at most two per worker sent at a time."""
    executor, workers = pool
    waiting = iter(enumerate(jobs))
    running: set[Future] = set()

    def send() -> None:
        for k, job in waiting:
            running.add(executor.submit(_worker_job, k, job))
            if len(running) >= 2 * workers:
                return

    send()
    while running:
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        for f in finished:
            running.discard(f)
            k, metrics = f.result()
            done(jobs[k], metrics)
        send()


def _on_dask(cases: list[Case], jobs: list[Job], client: Any, done: Done) -> None:
    """The jobs on the workers of a Dask ``distributed.Client``: the cases sent to
    every worker once, at most two jobs per worker thread in flight."""
    from distributed import as_completed

    shared = client.scatter(cases, broadcast=True)
    threads = sum(client.nthreads().values()) or 1
    waiting = iter(jobs)
    owner: dict[Any, Job] = {}

    def submit(job: Job) -> Any:
        future = client.submit(evaluate_block, shared[job.case], job, pure=False)
        owner[future.key] = job
        return future

    running = as_completed([submit(j) for j in _take(waiting, 2 * threads)], with_results=True)
    for future, metrics in running:
        done(owner.pop(future.key), metrics)
        for job in _take(waiting, 1):
            running.add(submit(job))


def _take(it: Iterator[Job], k: int) -> list[Job]:
    out = []
    for job in it:
        out.append(job)
        if len(out) == k:
            break
    return out


def run_blocks(
    cases: list[Case],
    jobs: list[Job],
    done: Done,
    *,
    workers: int = 1,
    client: Any = None,
) -> None:
    """Evaluate every job (:func:`evaluate_block` of its case), calling ``done(job,
    metrics)`` in this thread as each finishes: on the Dask ``client`` when given,
    else on ``workers`` forked processes (``workers > 1``, Linux), else here. A
    worker's error is raised here, and the jobs not yet sent are not."""
    if client is not None:
        _on_dask(cases, jobs, client, done)
        return
    pool = start_pool(cases, workers)
    if pool is None:
        for job in jobs:
            done(job, evaluate_block(cases[job.case], job))
        return
    try:
        _on_pool(jobs, pool, done)
    finally:  # after an error: the jobs sent and not started are dropped
        pool[0].shutdown(cancel_futures=True)
