"""Monte Carlo simulation on the engine's scenario axis (methodology §9; the scenario axis: §6).

Every ranged input (see :func:`costmodel.analysis.sensitivity.ranged_inputs`: ``low`` and
``high`` given, or ``dist: normal`` with ``sd``) is drawn independently, N times:

- ``triangular`` (the default): ``Triangular(low, value, high)``;
- ``uniform``: ``Uniform(low, high)``;
- ``normal``: ``Normal(value, sd)`` clipped to the field's valid interval
  (rates and fractions to [0, 1], network share to [0, 1), prices and sizes to
  ``>= 0``, PUE to ``>= 1``; ``low``/``high`` do not clip).

A zero-width range (``low == high``) or ``sd = 0`` gives the value itself.
Timing inputs (``build_months``, ``ramp_months``, a stage's ``month``) are drawn
in whole months: each draw is rounded (``numpy.round``, half to even; methodology §8).
Whole-number inputs with a range (methodology §11.3) are drawn and rounded the same
way when they are not structural (``life_years``, ``build_months``, ``ramp_months``,
``term_years``, ``loss_carryforward_years``); the structural ones (``horizon_years``,
a tier's or a stage's GPUs, GPUs per server, a stage's month) stay at their value,
and :attr:`MonteCarloResult.held_fixed` names them.
All draws are made up front by one ``numpy.random.default_rng(seed)``, input by
input in model order, so they depend only on the assumptions, ``n`` and ``seed``.

With ``correlations`` (methodology §9.1) the inputs are drawn through a Gaussian
copula instead: ``Z = rng.standard_normal((inputs, n))`` in one call, correlated by
the lower Cholesky factor ``L`` of the correlation matrix (``L @ Z``), and each row
mapped to its input's distribution: ``value + sd * z`` for a normal input (clipped
as above), ``u = Phi(z)`` and the inverse CDF at ``u`` for the others
(``low + u * (high - low)``; triangular ``low + sqrt(u (high - low) (value - low))``
for ``u < (value - low) / (high - low)``, else ``high - sqrt((1 - u) (high - low)
(high - value))``). ``Phi(z) = erfc(-z / sqrt 2) / 2`` with :func:`math.erfc`
(double precision). Without ``correlations`` the draws are those above, unchanged.

The draws then go through :func:`costmodel.core.variants.run_variants` in chunks of
at most ``chunk_size`` draws, one vectorised engine evaluation per tier and chunk.
A tier whose timing (or a depreciation life, or the loss carry-forward years: one
engine evaluation each, :mod:`costmodel.core.variants`) is drawn takes its draws in
order of timing (a stable sort), in chunks of whole timings, so that each chunk
holds few distinct timings (one timing the engine computes by year, several by
draw; methodology §6); its results are put back in draw order. A draw's numbers
do not depend on the other draws of its chunk, so the results do not depend on
``chunk_size`` or on how many processes evaluate the chunks: every chunk is an
independent job.

Per tier the summary gives P10/P50/P90 (``numpy.percentile``, linear
interpolation) of ``npv``, ``irr`` and ``cost_per_gpu_hour``, their means,
``P(npv > 0)`` = share of draws with ``npv > 0``, and ``irr_missing`` = share of
draws without an IRR (IRR percentiles are over the draws that have one).
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED
from costmodel.analysis.sensitivity import RangedInput, ranged_inputs
from costmodel.core.model import assumptions_of
from costmodel.core.threads import blas_single_thread
from costmodel.core.variants import run_variants
from costmodel.inputs.correlations import canonical, matrix
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.schema import Assumptions, Correlation

if TYPE_CHECKING:
    from costmodel.core.model import Model

METRICS = ("npv", "irr", "cost_per_gpu_hour")

#: draws per engine evaluation (bounds the engine's memory: its arrays are
#: chunk x months per line item)
CHUNK_SIZE = 1_000

#: draws x tiers from which a run uses worker processes (100,000 draws of the
#: default): below it the wait they save is short beside the CPU they add
#: (``benchmarks/bench_montecarlo.py --workers``; docs/performance.md)
PROCESS_MIN_TIER_DRAWS = 300_000


@dataclass(frozen=True)
class MonteCarloResult:
    """``summary``: one row per tier (see module docstring); ``draws``: tier ->
    DataFrame (n rows) of ``npv``, ``irr``, ``cost_per_gpu_hour``; ``samples``:
    DataFrame (n rows) of the drawn inputs by dotted path; ``inputs``: what was
    varied; ``skipped``: ranged paths no tier reads; ``held_fixed``: ranged
    structural whole numbers held at their value (methodology §11.3);
    ``correlations``: the pairs drawn together ``(a, b, rho)`` (methodology §9.1);
    ``n``, ``seed``."""

    n: int
    seed: int
    summary: pd.DataFrame
    draws: dict[str, pd.DataFrame]
    samples: pd.DataFrame
    inputs: list[RangedInput]
    skipped: list[str]
    held_fixed: list[str] = field(default_factory=list)
    correlations: list[tuple[str, str, float]] = field(default_factory=list)


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
    if drawn and x.whole:
        draw = np.round(draw)
    return draw


def normal_cdf(z: np.ndarray) -> np.ndarray:
    """``Phi(z) = erfc(-z / sqrt 2) / 2`` elementwise (:func:`math.erfc`: double
    precision, also in the tails).

    >>> normal_cdf(np.array([0.0, 1.959963984540054]))
    array([0.5  , 0.975])
    """
    x = -np.asarray(z, float) / math.sqrt(2.0)
    return 0.5 * np.fromiter(map(math.erfc, x.ravel().tolist()), float, x.size).reshape(x.shape)


def inverse_cdf(x: RangedInput, z: np.ndarray) -> np.ndarray:
    """The draws of ``x`` from standard normals ``z`` (the copula's margins, see
    the module docstring): the same distribution as :func:`_draw`'s."""
    if x.dist == "normal":
        sd = x.sd or 0.0
        drawn = sd > 0
        draw = np.clip(x.value + sd * z if drawn else np.full(z.shape, x.value), x.lower, x.upper)
    elif x.low == x.high:
        drawn = False
        draw = np.full(z.shape, x.value)
    else:
        drawn = True
        lo, mode, hi = float(x.low), float(x.value), float(x.high)
        u = normal_cdf(z)
        if x.dist == "uniform":
            draw = lo + u * (hi - lo)
        else:
            left = u < (mode - lo) / (hi - lo)
            draw = np.where(
                left,
                lo + np.sqrt(u * (hi - lo) * (mode - lo)),
                hi - np.sqrt(np.maximum(1.0 - u, 0.0) * (hi - lo) * (hi - mode)),
            )
    if drawn and x.whole:
        draw = np.round(draw)
    return draw


def cholesky(inputs: list[RangedInput], pairs: list[Correlation]) -> np.ndarray:
    """The lower Cholesky factor of the correlation matrix of ``inputs`` (model
    order). Raises ``ValueError`` naming a pair whose input the Monte Carlo does
    not draw, or the pairs when the matrix is not positive definite."""
    paths = [x.path for x in inputs]
    missing = [
        f"{c.a} ~ {c.b}"
        for c in pairs
        if canonical(c.a) not in paths or canonical(c.b) not in paths
    ]
    if missing:
        raise ValueError(
            "correlations name inputs the Monte Carlo does not draw (not ranged, read by "
            f"no tier, or structural): {'; '.join(missing)}"
        )
    try:
        return np.linalg.cholesky(matrix(paths, pairs))
    except np.linalg.LinAlgError:
        names = "; ".join(f"{c.a} ~ {c.b} ({c.rho:g})" for c in pairs)
        raise ValueError(f"the correlation matrix is not positive definite: {names}") from None


def active_pairs(pairs: list[Correlation], drawn: list[str]) -> list[Correlation]:
    """The pairs of ``correlations`` whose two inputs are both ``drawn`` (methodology
    §9.1): a pair naming an input held fixed (no range, read by no tier of the run, or
    structural) is inactive, and the draws of the others are as without it."""
    have = set(drawn)
    return [c for c in pairs if canonical(c.a) in have and canonical(c.b) in have]


def sample_columns(
    inputs: list[RangedInput], n: int, seed: int, correlations: list[Correlation] | None = None
) -> np.ndarray:
    """``n`` draws of each input, an (inputs, n) array: row k holds input k's draws,
    made by one ``numpy.random.default_rng(seed)`` drawing input after input, or,
    with ``correlations``, through the Gaussian copula (module docstring)."""
    rng = np.random.default_rng(seed)
    columns = np.empty((len(inputs), n))
    if correlations:
        factor = cholesky(inputs, correlations)
        for row in columns:  # the rows of rng.standard_normal((inputs, n)), in order
            rng.standard_normal(out=row)
        for lo in range(0, n, _MIX_COLUMNS):  # columns = factor @ columns, a block at a time
            block = columns[:, lo : lo + _MIX_COLUMNS]
            block[...] = factor @ block
        for k, x in enumerate(inputs):
            columns[k] = inverse_cdf(x, columns[k])
        return columns
    for k, x in enumerate(inputs):
        columns[k] = _draw(x, n, rng)
    return columns


#: draws per block of the copula's product ``L @ Z`` (the draws are made in place:
#: the run holds one (inputs, n) array, not three)
_MIX_COLUMNS = 65_536


def sample(
    inputs: list[RangedInput], n: int, seed: int, correlations: list[Correlation] | None = None
) -> dict[str, np.ndarray]:
    """``n`` draws of each input (see module docstring), path -> (n,) array."""
    columns = sample_columns(inputs, n, seed, correlations)
    return {x.path: columns[k] for k, x in enumerate(inputs)}


def _timing_paths(a: Assumptions, tier: str, draws: dict[str, np.ndarray]) -> tuple[str, ...]:
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
    return tuple(p for p in dict.fromkeys(timing) if p in draws)


def _packed(keys: np.ndarray, chunk_size: int) -> list[tuple[int, int]]:
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


@dataclass(frozen=True)
class _Job:
    """One engine evaluation: the tiers ``group`` on the draws ``rows`` (an index
    array, ascending, or a slice of the draws in order), reading the inputs
    ``read`` (rows of the draws' columns)."""

    group: tuple[str, ...]
    rows: np.ndarray | slice
    read: np.ndarray

    @property
    def size(self) -> int:
        """Draws in the job."""
        if isinstance(self.rows, slice):
            return self.rows.stop - self.rows.start
        return len(self.rows)


@dataclass(frozen=True)
class _Context:
    """What every job reads: the assumptions, the paths of the rows of the draws'
    columns, and the draws (inputs, n): a worker process inherits them at its fork
    and gathers each job's own (:func:`_job_draws`)."""

    assumptions: Assumptions
    paths: list[str]
    columns: np.ndarray


def _plan(
    a: Assumptions,
    tiers: list[str],
    paths: list[str],
    columns: np.ndarray,
    tiers_of: list[set[str]],
    chunk_size: int,
) -> list[_Job]:
    """The jobs of a run of the draws ``columns`` (row k: the input of ``paths[k]``,
    read by the tiers ``tiers_of[k]``): tiers with the same drawn timing paths
    share their jobs (one order of the draws; tiers without drawn timing run in
    draw order), each group's draws in chunks (:func:`_packed` for a timing order)."""
    n = columns.shape[1]
    drawn = {p: columns[k] for k, p in enumerate(paths)}
    groups: dict[tuple[str, ...], list[str]] = {}
    for t in tiers:
        groups.setdefault(_timing_paths(a, t, drawn), []).append(t)
    jobs = []
    for timing, group in groups.items():
        read = np.array([k for k, ts in enumerate(tiers_of) if ts & set(group)], np.intp)
        if not timing:
            step = max(1, chunk_size)
            jobs += [
                _Job(tuple(group), slice(lo, min(lo + step, n)), read) for lo in range(0, n, step)
            ]
            continue
        keys = [drawn[p] for p in timing]
        order = np.lexsort(keys[::-1])  # stable: the first path the most significant
        sorted_keys = np.stack([k[order] for k in keys], axis=1)
        jobs += [
            _Job(tuple(group), np.sort(order[lo:hi]), read)
            for lo, hi in _packed(sorted_keys, chunk_size)
        ]
    return jobs


def _job_draws(columns: np.ndarray, job: _Job) -> np.ndarray:
    """(read, rows): the job's draws of the inputs it reads (one copy of those)."""
    if isinstance(job.rows, slice):
        return columns[job.read, job.rows]
    return columns[np.ix_(job.read, job.rows)]


def _metrics_of(context: _Context, k: int, job: _Job, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Job ``k``'s metrics: tier -> (rows, metrics) array, from its draws ``rows``
    (:func:`_job_draws`)."""
    inputs = {context.paths[c]: v for c, v in zip(job.read, rows, strict=True)}
    out = {}
    with blas_single_thread():
        for t in job.group:  # one tier's engine arrays at a time
            tier = run_variants(context.assumptions, inputs, [t])[t]
            out[t] = np.stack([np.asarray(tier.metrics[m]) for m in METRICS], axis=1)
    return out


#: the context of the run a worker process evaluates (set by :func:`_start_worker`)
_WORKER_CONTEXT: _Context | None = None


def _start_worker(context: _Context) -> None:
    """A worker process's initializer: the run's context, inherited at the fork."""
    global _WORKER_CONTEXT
    _WORKER_CONTEXT = context


def _worker_job(k: int, job: _Job) -> tuple[int, dict[str, np.ndarray]]:
    """In a worker process: job ``k``'s number and metrics, from the draws the
    worker inherited."""
    assert _WORKER_CONTEXT is not None
    rows = _job_draws(_WORKER_CONTEXT.columns, job)
    return k, _metrics_of(_WORKER_CONTEXT, k, job, rows)


def _ready() -> None:
    """A worker's first job: nothing (see :func:`_start_pool`)."""


def _pool_context() -> mp.context.BaseContext | None:
    """The context of worker processes: fork on Linux (a worker inherits the
    assumptions instead of receiving a copy); None elsewhere, and in a process that
    may not have children (a daemonic ``multiprocessing`` worker): the run stays in
    this process."""
    if sys.platform != "linux" or mp.current_process().daemon:
        return None
    return mp.get_context("fork")


def _start_pool(context: _Context, workers: int) -> tuple[ProcessPoolExecutor, int] | None:
    """``workers`` processes of a :class:`~concurrent.futures.ProcessPoolExecutor`
    (None: ``workers < 2`` or no context, :func:`_pool_context`), forked now, after
    the draws are made: each worker reads the draws of ``context`` where the fork
    left them (shared with this process until written, and never written), so a
    job is sent as its row numbers."""
    context_mp = _pool_context() if workers > 1 else None
    if context_mp is None:
        return None
    pool = ProcessPoolExecutor(
        workers, mp_context=context_mp, initializer=_start_worker, initargs=(context,)
    )
    with warnings.catch_warnings():  # Python 3.12+ warns of fork with threads running
        warnings.filterwarnings("ignore", ".*fork.*", DeprecationWarning)
        for f in [pool.submit(_ready) for _ in range(workers)]:  # every worker started
            f.result()
    return pool, workers


def _evaluate(
    context: _Context,
    jobs: list[_Job],
    pool: tuple[ProcessPoolExecutor, int] | None,
    done: Callable[[_Job, dict[str, np.ndarray]], None],
) -> None:
    """Evaluate every job, calling ``done(job, metrics)`` in this thread as each
    finishes: in this process, or in the processes of ``pool`` (the executor and
    its workers), at most two jobs per worker sent at a time. A worker's error is
    raised here, and the jobs not yet sent are not."""
    if pool is None:
        for k, job in enumerate(jobs):
            done(job, _metrics_of(context, k, job, _job_draws(context.columns, job)))
        return
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


def _stats(v: np.ndarray) -> tuple[float, float, float, float]:
    """P10, P50, P90 and mean of the draws ``v`` that are not NaN (NaN if none)."""
    ok = v[~np.isnan(v)]
    if not ok.size:
        return (np.nan,) * 4
    p10, p50, p90 = np.percentile(ok, [10, 50, 90])
    return p10, p50, p90, float(ok.mean())


def _summarize(draws: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The summary of the module docstring."""
    rows = {}
    for tier, d in draws.items():
        row: dict[str, float] = {}
        for m in METRICS:
            keys = (f"{m}_p10", f"{m}_p50", f"{m}_p90", f"{m}_mean")
            row.update(zip(keys, _stats(d[m].to_numpy()), strict=True))
        row["p_npv_positive"] = float(np.mean(d["npv"].to_numpy() > 0))
        row["irr_missing"] = float(np.mean(np.isnan(d["irr"].to_numpy())))
        rows[tier] = row
    df = pd.DataFrame.from_dict(rows, orient="index")
    df.index.name = "tier"
    return df


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
    docstring). ``workers`` (default: one per core) are processes that evaluate
    the chunks of a run of at least :data:`PROCESS_MIN_TIER_DRAWS` draws x tiers
    (on Linux); results do not depend on ``workers`` or ``chunk_size``.
    ``progress(done, n)`` is called after each chunk, ``done`` the draws evaluated
    for every tier so far.

    Parameters
    ----------
    x : Model or Assumptions
    n, seed : int, optional
        Draws, and their seed (the same seed, the same draws).
    tiers : list of str, optional
        The tiers (default: all).
    chunk_size, workers : int, optional
        Draws per engine evaluation; worker processes.
    progress : callable, optional

    Returns
    -------
    MonteCarloResult
        ``summary`` (tier -> P10, P50, P90 and mean of NPV, IRR and cost per
        GPU-hour, P(NPV > 0)), ``draws`` (tier -> one row per draw), ``samples``.

    Examples
    --------
    >>> import costmodel as cm
    >>> mc = cm.monte_carlo(cm.load_assumptions(), n=500, seed=1)
    >>> mc.draws["thousands"].shape
    (500, 3)
    >>> mc.summary["p_npv_positive"].tolist()
    [0.012, 0.006, 0.13]
    >>> f"{mc.summary.loc['thousands', 'npv_p50']:,.0f}"
    '-53,125,216'
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    assumptions = assumptions_of(x)
    tiers = list(tiers or assumptions.tiers)
    workers = workers or os.cpu_count() or 1
    if n * len(tiers) < PROCESS_MIN_TIER_DRAWS:
        workers = 1
    ranged, skipped = ranged_inputs(assumptions, include_normal=True)
    inputs = [x for x in ranged if not x.structural]
    held = [x.path for x in ranged if x.structural]
    paths = [x.path for x in inputs]
    pairs = active_pairs(assumptions.correlations, paths)
    columns = sample_columns(inputs, n, seed, pairs)
    tiers_of = [set(x.tiers) for x in inputs]
    jobs = _plan(assumptions, tiers, paths, columns, tiers_of, chunk_size)
    context = _Context(assumptions, paths, columns)
    pool = _start_pool(context, workers)
    try:
        out = _evaluate_all(context, jobs, pool, tiers, n, progress)
    finally:
        if pool is not None:  # after an error: the jobs sent and not started are dropped
            pool[0].shutdown(cancel_futures=True)
    draws = {t: pd.DataFrame(out[t], columns=list(METRICS), copy=False) for t in tiers}
    return MonteCarloResult(
        n=n,
        seed=seed,
        summary=_summarize(draws),
        draws=draws,
        samples=pd.DataFrame(columns.T, columns=paths, copy=False),
        inputs=inputs,
        skipped=skipped,
        held_fixed=held,
        correlations=[(canonical(c.a), canonical(c.b), c.rho) for c in pairs],
    )


def median_shifts(
    x: Model | Assumptions, mc: MonteCarloResult, metric: str = "npv"
) -> pd.DataFrame:
    """What moves the draws away from the assumed case, one input at a time
    (methodology §9.1): one row per drawn input and tier of ``mc``, ``input, tier,
    value, median, base, at_median, shift``, with ``median`` the lower median of
    the input's draws (``numpy.percentile(..., method="lower")``: a value drawn,
    whole numbers stay whole), ``at_median = metric_t(x_i = median_i)`` with every
    other input at its value, ``base = metric_t`` as assumed and ``shift =
    at_median - base``; rows of the inputs a tier does not read are left out, and
    each tier's rows are sorted by ``|shift|`` (largest first). Variant i sets
    input i to its median, the last variant is the base case: one ``run_variants``
    call.

    Parameters
    ----------
    x : Model or Assumptions
        The model the draws were made for.
    mc : MonteCarloResult
    metric : str, optional
        A summary column (default ``npv``).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> a = cm.load_assumptions()
    >>> shifts = cm.median_shifts(a, cm.monte_carlo(a, n=500, seed=1))
    >>> top = shifts[shifts["tier"] == "thousands"].iloc[0]
    >>> str(top["input"]), float(top["value"]), round(float(top["median"]), 3)
    ('revenue.price_per_gpu_hour', 16.0, 14.822)
    >>> bool(top["at_median"] - top["base"] == top["shift"] < 0)
    True
    """
    a = assumptions_of(x)
    tiers = list(mc.draws)
    inputs = mc.inputs
    n = len(inputs)
    variants: dict[str, np.ndarray] = {}
    medians = []
    for i, one in enumerate(inputs):
        drawn = mc.samples[one.path].to_numpy(float)
        medians.append(float(np.percentile(drawn, 50, method="lower")))
        variants[one.path] = np.full(n + 1, one.value)
        variants[one.path][i] = medians[i]
    results = run_variants(a, variants, tiers=tiers)
    rows = []
    for t in tiers:
        m = np.asarray(results[t].metrics[metric], dtype=float)
        for i, one in enumerate(inputs):
            if t in one.tiers:
                shift = float(m[i] - m[n])
                row = (one.path, t, one.value, medians[i], float(m[n]), float(m[i]), shift)
                rows.append(row)
    cols = ["input", "tier", "value", "median", "base", "at_median", "shift"]
    df = pd.DataFrame(rows, columns=cols)
    order = df["shift"].abs().sort_values(ascending=False, kind="stable").index
    df = df.loc[order].sort_values("tier", key=lambda s: s.map(tiers.index), kind="stable")
    df = df.reset_index(drop=True)
    df.attrs["metric"] = metric
    return df


def _evaluate_all(
    context: _Context,
    jobs: list[_Job],
    pool: tuple[ProcessPoolExecutor, int] | None,
    tiers: list[str],
    n: int,
    progress: Callable[[int, int], None] | None,
) -> dict[str, np.ndarray]:
    """Every tier's metrics (n, metrics) of the draws of ``context`` (:func:`_evaluate`
    of ``jobs``), ``progress(done, n)`` after each job."""
    out = {t: np.empty((n, len(METRICS))) for t in tiers}
    tier_draws = 0

    def done(job: _Job, metrics: dict[str, np.ndarray]) -> None:
        nonlocal tier_draws
        for t, values in metrics.items():
            out[t][job.rows] = values
        tier_draws += job.size * len(job.group)
        if progress:
            progress(tier_draws // len(tiers), n)

    _evaluate(context, jobs, pool, done)
    return out
