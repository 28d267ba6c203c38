"""Monte Carlo simulation (spec 11) on the engine's scenario axis.

Every ranged input (see :func:`costmodel.analysis.sensitivity.ranged_inputs`: ``low`` and
``high`` given, or ``dist: normal`` with ``sd``) is drawn independently, N times:

- ``triangular`` (the default): ``Triangular(low, value, high)``;
- ``uniform``: ``Uniform(low, high)``;
- ``normal``: ``Normal(value, sd)`` clipped to the field's valid interval
  (rates and fractions to [0, 1], network share to [0, 1), prices and sizes to
  ``>= 0``, PUE to ``>= 1``; ``low``/``high`` do not clip).

A zero-width range (``low == high``) or ``sd = 0`` gives the value itself.
Timing inputs (``build_months``, ``ramp_months``, a stage's ``month``) are drawn
in whole months: each draw is rounded (``numpy.round``, half to even).
All draws are made up front: the numbers of ``numpy.random.default_rng(seed)``
drawing input by input in model order, so they depend only on the assumptions,
``n`` and ``seed`` (not on the chunk size). Inputs whose place in that stream is
known in advance are drawn from generators advanced to it, in two threads for
large runs (:func:`sample_block`). The draws then go through
:func:`costmodel.core.model.run_variants` in chunks of ``chunk_size`` scenarios (one
vectorised engine evaluation per tier and chunk; memory stays bounded). A tier
whose timing is drawn takes its draws in order of timing, in chunks of whole
timings, so that the engine computes each timing's draws by year; its results
are put back in draw order.

Per tier the summary gives P10/P50/P90 (``numpy.percentile``, linear
interpolation) of ``npv``, ``irr`` and ``cost_per_gpu_hour``, their means,
``P(npv > 0)`` = share of draws with ``npv > 0``, and ``irr_missing`` = share of
draws without an IRR (IRR percentiles are over the draws that have one).
"""

from __future__ import annotations

import gc
import mmap
import multiprocessing as mp
import os
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED
from costmodel.analysis.sensitivity import RangedInput, ranged_inputs
from costmodel.core.model import assumptions_of
from costmodel.core.threads import blas_single_thread
from costmodel.core.variants import run_variants
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.schema import Assumptions

if TYPE_CHECKING:
    from costmodel.core.model import Model

METRICS = ("npv", "irr", "cost_per_gpu_hour")
CHUNK_SIZE = 5_000  # measured: 10,000-20,000 within noise, 2,000 20% slower (CPU per draw)


@dataclass(frozen=True)
class MonteCarloResult:
    """``summary``: one row per tier (see module docstring); ``draws``: tier ->
    DataFrame (n rows) of ``npv``, ``irr``, ``cost_per_gpu_hour``; ``samples``:
    DataFrame (n rows) of the drawn inputs by dotted path; ``inputs``: what was
    varied; ``skipped``: ranged paths no tier reads; ``n``, ``seed``."""

    n: int
    seed: int
    summary: pd.DataFrame
    draws: dict[str, pd.DataFrame]
    samples: pd.DataFrame
    inputs: list[RangedInput]
    skipped: list[str]


#: values drawn from which :func:`sample_block` uses two threads (numpy's generators
#: release the GIL while they fill an array)
THREAD_MIN_VALUES = 500_000


#: draws made at a time: a tile of rows, drawn input after input into a buffer and
#: copied into the rows at once (measured, a million draws of 52 inputs: 8,192
#: and 16,384 rows took 0.35 s, 4,096 and 65,536 rows 0.40 s)
TILE_DRAWS = 8_192

#: bytes from which numpy's allocator advises huge pages for an array (numpy 1.22+:
#: 4 MiB); a tile buffer that large (more than 64 inputs) is a mapping of its own,
#: as the draws are (:func:`_mapped`)
HUGE_PAGE_ADVICE_BYTES = 1 << 22


def _mapped(count: int, shared: bool) -> np.ndarray:
    """``count`` floats in an anonymous memory mapping of their own: ``shared``
    with processes forked afterwards (they write into it), else private (they
    read it). Not numpy's allocator, which advises huge pages for arrays over
    4 MB (on some machines that stalls the first writes)."""
    flags = mmap.MAP_ANONYMOUS | (mmap.MAP_SHARED if shared else mmap.MAP_PRIVATE)
    block = mmap.mmap(-1, 8 * max(1, count), flags=flags)  # (a mapping is never empty)
    return np.frombuffer(block, dtype=float)[:count]


def _draws_used(x: RangedInput, n: int) -> int | None:
    """How many 64-bit outputs of the bit generator ``n`` draws of ``x`` use: ``n``
    for triangular and uniform (one double each), 0 when the value is not drawn,
    None for a drawn normal (the ziggurat uses a variable number)."""
    if x.dist == "normal":
        return 0 if not (x.sd or 0.0) > 0 else None
    return 0 if x.low == x.high else n


def _draw(x: RangedInput, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` draws of ``x`` from ``rng`` (see the module docstring)."""
    drawn = True
    if x.dist == "normal":
        sd = x.sd or 0.0
        drawn = sd > 0
        draw = rng.normal(x.value, sd, n) if drawn else np.full(n, x.value)
        draw = np.clip(draw, x.lower, x.upper)
    elif x.low == x.high:
        drawn = False
        draw = np.full(n, x.value)
    elif x.dist == "uniform":
        draw = rng.uniform(x.low, x.high, n)
    else:
        draw = rng.triangular(x.low, x.value, x.high, n)
    if drawn and x.whole_months:
        draw = np.round(draw)
    return draw


def _generator_at(seed: int, position: int) -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` after ``position`` 64-bit outputs."""
    bits = np.random.PCG64(seed)
    bits.advance(position)
    return np.random.Generator(bits)


def sample(inputs: list[RangedInput], n: int, seed: int) -> dict[str, np.ndarray]:
    """``n`` draws of each input (see module docstring), path -> (n,) array: the
    columns of :func:`sample_block`."""
    block = sample_block(inputs, n, seed)
    return {x.path: block[:, k] for k, x in enumerate(inputs)}


def sample_block(inputs: list[RangedInput], n: int, seed: int) -> np.ndarray:
    """``n`` draws of each input (see module docstring), an (n, inputs) array (a
    draw's inputs side by side, in one anonymous memory mapping: the engine's
    chunks gather whole rows): the numbers of one ``numpy.random.default_rng(seed)``
    drawing input after input.

    Each input before the first drawn normal starts at a known position of the
    stream (the outputs its predecessors used, :func:`_draws_used`), and each of
    its draws takes one output, so those inputs are drawn a tile of rows at a
    time, every input from a generator advanced to its position, in two threads
    (each half of the rows) for large runs (:data:`THREAD_MIN_VALUES`); from the
    first drawn normal on, input after input from one generator."""
    starts: list[int] = []
    position = 0
    for x in inputs:
        used = _draws_used(x, n)
        if used is None:
            break
        starts.append(position)
        position += used
    known = len(starts)
    block = _mapped(n * len(inputs), shared=False).reshape(n, len(inputs))

    def rows(lo: int, hi: int) -> None:  # the known inputs' draws lo:hi
        rngs = [_generator_at(seed, starts[k] + lo) for k in range(known)]
        # numpy's allocator below its huge-page size: measured on a million draws
        # of the default, a mapping of its own instead left this process 47 MB
        # more resident after planning, its peak 25 MB higher and each worker's
        # 45 MB higher, and the workers took 2% more CPU (the allocator's state
        # differs; how, was not traced)
        count = known * TILE_DRAWS
        small = 8 * count < HUGE_PAGE_ADVICE_BYTES
        tile = (np.empty(count) if small else _mapped(count, False)).reshape(known, TILE_DRAWS)
        for a in range(lo, hi, TILE_DRAWS):
            b = min(a + TILE_DRAWS, hi)
            for k, rng in enumerate(rngs):
                tile[k, : b - a] = _draw(inputs[k], b - a, rng)
            block[a:b, :known] = tile[:, : b - a].T

    if n * known >= THREAD_MIN_VALUES and (os.cpu_count() or 1) > 1 and n > TILE_DRAWS:
        half = -(-n // (2 * TILE_DRAWS)) * TILE_DRAWS  # a whole number of tiles
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(rows, (0, half), (half, n)))
    else:
        rows(0, n)
    rng = _generator_at(seed, position)  # the stream runs on, input after input
    for k in range(known, len(inputs)):
        for a in range(0, n, TILE_DRAWS):
            b = min(a + TILE_DRAWS, n)
            block[a:b, k] = _draw(inputs[k], b - a, rng)
    return block


def _timing_paths(a: Assumptions, tier: str, draws: dict[str, np.ndarray]) -> tuple[str, ...]:
    """The drawn paths of the tier's timing inputs (construction and ramp months,
    stage months)."""
    timing = [
        path
        for key, path in resolve_tier(a, tier).paths().items()
        if key in ("build_months", "ramp_months")
        or (key.startswith("stage") and key.endswith("_month"))
    ]
    return tuple(p for p in dict.fromkeys(timing) if p in draws)


def _timing_order(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The draws in order of their timing, ``np.lexsort`` of ``columns`` (the
    first the most significant; stable: draws ascending within a timing), and
    their timing keys in that order: (n,) or (n, columns), equal where the
    timings are. Whole months from 0 whose combinations fit in 16 bits are sorted
    as one integer key (numpy sorts those by radix: about 6x faster for a million
    draws), which is also the key returned."""
    whole = all(
        c.size and np.all(c >= 0) and np.all(c == np.round(c)) and c.max() < 2**16 for c in columns
    )
    if not whole or np.prod([float(c.max()) + 1 for c in columns]) > 2**16:
        order = np.lexsort(columns[::-1])
        return order, np.stack([c[order] for c in columns], axis=1)
    key = np.zeros(columns[0].size, dtype=np.int64)
    for c in columns:
        key = key * (int(c.max()) + 1) + c.astype(np.int64)
    short = key.astype(np.uint16)
    order = np.argsort(short, kind="stable")
    return order, short[order]


def _shared_orders(timing: dict[str, tuple[str, ...]]) -> dict[tuple[str, ...], list[str]]:
    """Tiers that run on one order of the draws: sort key (drawn timing paths, the
    first the most significant) -> tiers. A tier whose timing paths are all among
    another's shares that tier's order when they lead its sort key (its timings
    are then runs of that order too): tiers are taken by number of paths, and
    each extends the first key made only of its own paths, or starts its own.
    Tiers without drawn timing run together in draw order (key ``()``)."""
    out: dict[tuple[str, ...], list[str]] = {}
    for t in sorted(timing, key=lambda t: len(timing[t])):  # stable: tier order within a size
        paths = timing[t]
        key = next((k for k in out if k and set(k) <= set(paths)), paths)
        tiers = out.pop(key, [])
        out[key + tuple(p for p in paths if p not in key)] = [*tiers, t]
    return out


def _packed(keys: np.ndarray, chunk_size: int) -> list[tuple[int, int]]:
    """Chunks ``(lo, hi)`` of rows sorted by ``keys`` ((n,) or (n, k)): whole runs of
    equal keys, packed up to ``chunk_size`` rows (a longer run in pieces of
    ``chunk_size``), so that a timing is split between chunks only when it has
    more draws than a chunk."""
    n = keys.shape[0]
    new = np.ones(n, dtype=bool)
    differ = keys[1:] != keys[:-1]
    new[1:] = differ if differ.ndim == 1 else np.any(differ, axis=1)
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


def _stats(v: np.ndarray) -> tuple[float, float, float, float]:
    """P10, P50, P90 and mean of the draws ``v`` that are not NaN (NaN if none)."""
    ok = v[~np.isnan(v)]  # a copy, partitioned in place by the percentiles
    if not ok.size:
        return (np.nan,) * 4
    mean = float(ok.mean())
    p10, p50, p90 = np.percentile(ok, [10, 50, 90], overwrite_input=True)
    return p10, p50, p90, mean


def _summarize(draws: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The summary of the module docstring; the percentiles in two threads for
    large runs (numpy releases the GIL while it partitions)."""
    columns = [(tier, m) for tier in draws for m in METRICS]
    values = [draws[tier][m].to_numpy() for tier, m in columns]
    if sum(v.size for v in values) >= THREAD_MIN_VALUES and (os.cpu_count() or 1) > 1:
        with ThreadPoolExecutor(2) as pool:
            stats = dict(zip(columns, pool.map(_stats, values), strict=True))
    else:
        stats = dict(zip(columns, map(_stats, values), strict=True))
    rows = {}
    for tier, d in draws.items():
        row: dict[str, float] = {}
        for m in METRICS:
            keys = (f"{m}_p10", f"{m}_p50", f"{m}_p90", f"{m}_mean")
            row.update(zip(keys, stats[tier, m], strict=True))
        row["p_npv_positive"] = float(np.mean(d["npv"].to_numpy() > 0))
        row["irr_missing"] = float(np.mean(np.isnan(d["irr"].to_numpy())))
        rows[tier] = row
    df = pd.DataFrame.from_dict(rows, orient="index")
    df.index.name = "tier"
    return df


@dataclass(frozen=True)
class _Job:
    """One engine evaluation: the tiers ``group`` on the draws ``rows`` (``lo:hi``
    of the draws in order, or the draws ``picked``, ascending), reading the
    inputs ``read`` (columns of the draws)."""

    group: list[str]
    picked: np.ndarray | None
    read: np.ndarray
    lo: int
    hi: int

    @property
    def tier_draws(self) -> int:
        """Draws times tiers: the job's share of a run's progress."""
        return (self.hi - self.lo) * len(self.group)

    def gather(self, block: np.ndarray) -> np.ndarray:
        """The columns ``read`` of ``block`` (n, k) at the job's rows, one contiguous
        row per column: whole rows are taken (``np.take``, a draw's inputs side
        by side: measured 3x faster than taking each column's values at scattered
        rows, one cache miss each), then the columns read."""
        rows = block[self.lo : self.hi] if self.picked is None else np.take(block, self.picked, 0)
        return rows.T[self.read]

    def put(self, block: np.ndarray, values: np.ndarray) -> None:
        """``values`` (rows, k) into the job's rows of ``block`` (n, k), contiguous
        (``np.put`` at the flat indices: 3x faster than assigning through the row
        array, measured)."""
        if self.picked is None:
            block[self.lo : self.hi] = values
        else:
            k = block.shape[1]
            np.put(block, (self.picked[:, None] * k + np.arange(k)).ravel(), values)


@dataclass(frozen=True)
class _Work:
    assumptions: Assumptions
    paths: list[str]  # of the columns of ``draws``
    draws: np.ndarray  # (n, inputs): :func:`sample_block`
    jobs: list[_Job]


def _metrics_of(work: _Work, k: int) -> dict[str, np.ndarray]:
    """Job ``k``'s metrics: tier -> (rows, metrics) array (each tier's engine
    arrays are dropped as soon as its metrics are read)."""
    job = work.jobs[k]
    columns = job.gather(work.draws)
    inputs = {work.paths[c]: v for c, v in zip(job.read, columns, strict=True)}
    out = {}
    for t in job.group:  # a tier's arrays are dropped before the next tier is computed
        tier = run_variants(work.assumptions, inputs, [t])[t]
        out[t] = np.stack([np.asarray(tier.metrics[m]) for m in METRICS], axis=1)
    return out


@dataclass(frozen=True)
class _Shared:
    """What this process and its forked helpers share while they evaluate: the work,
    the metrics' arrays (in shared memory) and, in a shared array under one lock,
    the next job to take and the tier-draws done."""

    work: _Work
    out: dict[str, np.ndarray]
    counts: Any  # multiprocessing.Array("q", 2): [next job, tier-draws done]

    def take(self) -> int | None:
        """The next job nobody has taken (None: none left)."""
        with self.counts.get_lock():
            counts = self.counts.get_obj()
            k = counts[0]
            if k >= len(self.work.jobs):
                return None
            counts[0] = k + 1
        return k

    def run(self, k: int) -> int:
        """Evaluate job ``k`` into the shared arrays; the tier-draws done so far."""
        job = self.work.jobs[k]
        _put(job, _metrics_of(self.work, k), self.out)
        with self.counts.get_lock():
            counts = self.counts.get_obj()
            counts[1] += job.tier_draws
            return int(counts[1])

    def stop(self) -> None:
        """Leave no job to take (the others finish the one they are on)."""
        with self.counts.get_lock():
            self.counts.get_obj()[0] = len(self.work.jobs)


#: what the forked helper processes evaluate (set in this process before the fork,
#: inherited by them, not pickled)
_FORKED: _Shared | None = None


def _put(job: _Job, metrics: dict[str, np.ndarray], out: dict[str, np.ndarray]) -> None:
    """Job ``job``'s metrics into the rows of ``out`` (tier -> (n, metrics): a
    draw's metrics side by side, one row written per draw)."""
    for t, values in metrics.items():
        job.put(out[t], values)


def _forked_jobs() -> None:
    """In a forked helper: take and evaluate jobs until none is left; the metrics go
    straight to the shared arrays (nothing is pickled back)."""
    shared = cast(_Shared, _FORKED)
    with blas_single_thread():
        while (k := shared.take()) is not None:
            shared.run(k)


def _shared(out: dict[str, np.ndarray]) -> None:
    """Replace the arrays of ``out`` by arrays of the same shape in one anonymous
    shared mapping, which processes forked afterwards write into."""
    flat = _mapped(sum(v.size for v in out.values()), shared=True)
    start = 0
    for t, v in out.items():
        out[t] = flat[start : start + v.size].reshape(v.shape)
        start += v.size


#: tier-draws from which a forked helper joins this process (measured on a 2-core
#: machine, the default's 3 tiers: at 30,000 tier-draws the two took 0.83x the
#: wall time of this process alone but 1.5x its CPU; at 150,000, 0.69x and 1.2x;
#: at 300,000, 0.70x and 1.25x)
PROCESS_MIN_TIER_DRAWS = 150_000


def _can_fork() -> bool:
    """Forked helpers: on Linux, and not from a daemonic process (a worker of a
    ``multiprocessing.Pool`` may not have children) nor from one of our helpers."""
    return (
        sys.platform == "linux"
        and "fork" in mp.get_all_start_methods()
        and not mp.current_process().daemon
        and _FORKED is None
    )


def _evaluate(
    work: _Work,
    out: dict[str, np.ndarray],
    n: int,
    n_tiers: int,
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Evaluate every job into ``out``: in this thread and ``workers - 1`` forked
    helper processes (Linux, from ``PROCESS_MIN_TIER_DRAWS`` tier-draws), each
    taking the next job nobody has taken and writing its metrics into ``out``'s
    arrays moved to shared memory (:func:`_shared`); else in this thread alone.
    This process works too, rather than only handing out jobs and collecting
    results (measured in turn, four pairs of fresh-process runs of a million draws
    of the default: 3% less wall time and CPU than two worker processes fed by a
    pool; this process's heap is already warm, and one process less is forked).
    Threads do not pay here (measured: two threads took more CPU and no less wall
    time than one, the engine's many small numpy calls hold the GIL too often).
    ``progress`` is called in this thread after each of its jobs, with every
    process's draws done."""

    def report(done: int) -> None:  # ``done``: tier-draws
        if progress:
            progress(done // n_tiers, n)

    if workers > 1 and len(work.jobs) > 1 and n * n_tiers >= PROCESS_MIN_TIER_DRAWS and _can_fork():
        _evaluate_forked(work, out, workers, report)
        report(n * n_tiers)
        return
    done = 0
    with blas_single_thread():
        for k, job in enumerate(work.jobs):
            _put(job, _metrics_of(work, k), out)
            done += job.tier_draws
            report(done)


def _evaluate_forked(
    work: _Work, out: dict[str, np.ndarray], workers: int, report: Callable[[int], None]
) -> None:
    """:func:`_evaluate` in this thread and ``workers - 1`` forked helpers,
    ``report(tier-draws done)`` after each job of this thread. A helper's error (or
    its end: killed, out of memory) is raised here as soon as this thread finishes
    its job; an error here leaves the helpers no job to take."""
    global _FORKED
    _shared(out)
    ctx = mp.get_context("fork")
    shared = _Shared(work, out, ctx.Array("q", 2))
    _FORKED = shared  # inherited by the forked helpers, not pickled
    # the objects that exist now are left out of the helpers' garbage collections,
    # which would otherwise touch, and so copy, the pages they share with this
    # process (measured: 6-10% less CPU for a million draws); a caller's own
    # frozen objects stay frozen
    thaw = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers - 1, mp_context=ctx) as pool:
            with warnings.catch_warnings():  # Python 3.12+: BLAS threads exist at fork
                warnings.filterwarnings(
                    "ignore", message=".*use of fork.*", category=DeprecationWarning
                )
                helpers = [pool.submit(_forked_jobs) for _ in range(workers - 1)]
            try:
                with blas_single_thread():
                    while (k := shared.take()) is not None:
                        report(shared.run(k))
                        for f in helpers:
                            if f.done():
                                f.result()  # a helper's error, raised now
            finally:
                shared.stop()
            for f in helpers:
                f.result()
    finally:
        _FORKED = None
        if thaw:
            gc.unfreeze()


def _plan(
    assumptions: Assumptions,
    tiers: list[str],
    inputs: list[RangedInput],
    draws_in: dict[str, np.ndarray],
    n: int,
    chunk_size: int,
) -> list[_Job]:
    """The jobs of a run of ``n`` draws: chunks of draws for each group of tiers
    (the sort keys are freed on return, before helper processes are forked)."""
    bounds = [(s, min(s + chunk_size, n)) for s in range(0, n, max(1, chunk_size))]
    # tiers whose timing is drawn run their draws in order of timing (stably), so
    # that a chunk holds few distinct timings, which the engine computes by year
    # (results are put back in draw order; a draw's numbers do not depend on
    # the other draws of its chunk); the others run together in draw order
    by_timing = _shared_orders({t: _timing_paths(assumptions, t, draws_in) for t in tiers})

    def jobs_of(paths: tuple[str, ...], group: list[str]) -> list[_Job]:
        # the draws' columns (the inputs, in order) that the group's tiers read
        read = np.array([k for k, x in enumerate(inputs) if set(x.tiers) & set(group)], np.intp)
        if not paths:
            return [_Job(group, None, read, lo, hi) for lo, hi in bounds]
        # the timing columns contiguous (the draws are rows: one strided pass each)
        order, keys = _timing_order([np.ascontiguousarray(draws_in[p]) for p in paths])
        # a chunk's draws in ascending order: gathered with fewer cache misses (the
        # engine groups them by timing itself)
        return [
            _Job(group, np.sort(order[lo:hi]), read, lo, hi) for lo, hi in _packed(keys, chunk_size)
        ]

    # the orders in two threads for large runs (numpy sorts without the GIL)
    if n * len(by_timing) >= THREAD_MIN_VALUES and len(by_timing) > 1 and (os.cpu_count() or 1) > 1:
        with ThreadPoolExecutor(2) as pool:
            parts = list(pool.map(jobs_of, by_timing, by_timing.values()))
    else:
        parts = [jobs_of(paths, group) for paths, group in by_timing.items()]
    return [job for part in parts for job in part]


def monte_carlo(
    x: Model | Assumptions,
    n: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    *,
    tiers: list[str] | None = None,
    chunk_size: int = CHUNK_SIZE,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MonteCarloResult:
    """Draw ``n`` scenarios of the ranged inputs of ``x`` (a model or its
    assumptions) with ``seed`` and evaluate every tier on them (see module
    docstring). ``workers`` (default: up to 2, one per core) evaluate chunks
    concurrently for large runs on Linux: this process and ``workers - 1`` forked
    ones (see :func:`_evaluate`); results do not depend on ``workers`` or
    ``chunk_size``.
    ``progress(done, n)`` is called after each chunk this thread evaluates (``done``:
    the draws every process has done)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    assumptions = assumptions_of(x)
    tiers = list(tiers or assumptions.tiers)
    workers = workers or min(2, os.cpu_count() or 1)
    inputs, skipped = ranged_inputs(assumptions, include_normal=True)
    block = sample_block(inputs, n, seed)
    paths = [x.path for x in inputs]
    draws_in = {p: block[:, k] for k, p in enumerate(paths)}
    out = {t: np.empty((n, len(METRICS))) for t in tiers}
    jobs = _plan(assumptions, tiers, inputs, draws_in, n, chunk_size)
    _evaluate(_Work(assumptions, paths, block, jobs), out, n, len(tiers), workers, progress)
    draws = {t: pd.DataFrame(out[t], columns=list(METRICS), copy=False) for t in tiers}
    return MonteCarloResult(
        n=n,
        seed=seed,
        summary=_summarize(draws),
        draws=draws,
        samples=pd.DataFrame(block, columns=paths, copy=False),  # no second copy of the draws
        inputs=inputs,
        skipped=skipped,
    )
