"""Monte Carlo simulation on the engine's scenario axis (methodology §9; the scenario
axis: §6; the blocks of draws: §34).

Every ranged input (see :func:`costmodel.analysis.sensitivity.ranged_inputs`: ``low`` and
``high`` given, or ``dist: normal`` with ``sd``) is drawn N times, per block of
:data:`~costmodel.analysis.draws.BLOCK_SIZE` draws from its own stream of
``numpy.random.SeedSequence(seed)`` (:mod:`costmodel.analysis.draws`):

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
and :attr:`MonteCarloResult.held_fixed` names them. With ``correlations``
(methodology §9.1) the paired inputs are drawn through a Gaussian copula.

Each block is a job (:mod:`costmodel.analysis.blocks`) that makes its own draws and
evaluates them through :func:`costmodel.inputs.runs.run_variants` in chunks of at
most ``chunk_size`` draws (a tier whose timing is drawn in order of timing, in chunks
of whole timings). The draws depend only on the assumptions, ``seed`` and the
block, and a draw's numbers do not depend on the other draws of its chunk, so the
results do not depend on how many processes evaluate the blocks, or where; up to
the rounding of the engine's two evaluation paths (rel 1e-12) they do not depend on
``chunk_size`` either. Memory does not grow with N beyond the N results: a block's
draws are made where it is evaluated and dropped with it
(:attr:`MonteCarloResult.samples` draws them again when read).

Per tier the summary gives P10/P50/P90 (``numpy.percentile``, linear
interpolation) of ``npv``, ``irr`` and ``cost_per_gpu_hour``, their means,
``P(npv > 0)`` = share of draws with ``npv > 0``, and ``irr_missing`` = share of
draws without an IRR (IRR percentiles are over the draws that have one).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from costmodel.analysis.blocks import CHUNK_SIZE, METRICS, Case, Job, jobs_of, run_blocks
from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED, MAX_DRAWS
from costmodel.analysis.draws import (
    active_pairs,
    check_pairs,
    cholesky,
    inverse_cdf,
    normal_cdf,
    sample,
    sample_columns,
)
from costmodel.analysis.sensitivity import RangedInput, ranged_inputs
from costmodel.inputs.correlations import canonical
from costmodel.inputs.model import assumptions_of
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions, Correlation

if TYPE_CHECKING:
    from costmodel.inputs.model import Model

__all__ = [
    "CHUNK_SIZE",
    "METRICS",
    "PROCESS_MIN_TIER_DRAWS",
    "MonteCarloResult",
    "active_pairs",
    "cholesky",
    "inverse_cdf",
    "median_shifts",
    "monte_carlo",
    "normal_cdf",
    "sample",
    "sample_columns",
]

#: draws x tiers from which a run uses worker processes (100,000 draws of the
#: default): below it the wait they save is short beside the CPU they add
#: (``benchmarks/bench_montecarlo.py --workers``; docs/performance.md)
PROCESS_MIN_TIER_DRAWS = 300_000


@dataclass(frozen=True)
class MonteCarloResult:
    """``summary``: one row per tier (see module docstring); ``draws``: tier ->
    DataFrame (n rows) of ``npv``, ``irr``, ``cost_per_gpu_hour``; ``samples``:
    DataFrame (n rows) of the drawn inputs by dotted path (drawn again from the
    seed when first read); ``inputs``: what was varied; ``skipped``: ranged paths
    no tier reads; ``held_fixed``: ranged structural whole numbers held at their
    value (methodology §11.3); ``correlations``: the pairs drawn together ``(a, b,
    rho)`` (methodology §9.1); ``n``, ``seed``."""

    n: int
    seed: int
    summary: pd.DataFrame
    draws: dict[str, pd.DataFrame]
    inputs: list[RangedInput]
    skipped: list[str]
    held_fixed: list[str] = field(default_factory=list)
    correlations: list[tuple[str, str, float]] = field(default_factory=list)
    pairs: list[Correlation] = field(default_factory=list, repr=False)

    @cached_property
    def samples(self) -> pd.DataFrame:
        """The drawn inputs, one column per dotted path, n rows (the draws of the
        run, made again from its seed: :func:`costmodel.analysis.draws.sample_columns`)."""
        columns = sample_columns(self.inputs, self.n, self.seed, self.pairs)
        return pd.DataFrame(columns.T, columns=[x.path for x in self.inputs], copy=False)

    def __repr__(self) -> str:
        tiers = list(self.summary.index)
        p = self.summary.get("p_npv_positive")
        odds = (
            "; P(NPV > 0): " + ", ".join(f"{t} {p[t]:.0%}" for t in tiers) if p is not None else ""
        )
        return (
            f"<MonteCarloResult: {self.n:,} draws (seed {self.seed}) of {len(self.inputs)} "
            f"inputs, tiers {', '.join(map(str, tiers))}{odds}; .summary for the table>"
        )


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
    client: Any = None,
) -> MonteCarloResult:
    """Draw ``n`` scenarios of the ranged inputs of ``x`` (a model or its
    assumptions) with ``seed`` and evaluate every tier on them (see module
    docstring). ``workers`` (default: one per core) are processes that evaluate
    the blocks of a run of at least :data:`PROCESS_MIN_TIER_DRAWS` draws x tiers
    (on Linux); a Dask ``distributed.Client`` as ``client`` evaluates them on its
    cluster instead. The results do not depend on where the blocks run (bit for
    bit) nor on ``chunk_size`` (to rel 1e-12). ``progress(done, n)`` is called
    after each block, ``done`` the draws evaluated for every tier so far.

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
    client : distributed.Client, optional
        A Dask client whose workers evaluate the blocks (the ``dask`` extra).

    Returns
    -------
    MonteCarloResult
        ``summary`` (tier -> P10, P50, P90 and mean of NPV, IRR and cost per
        GPU-hour, P(NPV > 0)), ``draws`` (tier -> one row per draw), ``samples``.

    Examples
    --------
    >>> import costmodel as cm
    >>> mc = cm.monte_carlo(cm.load_assumptions(cm.example_dir("by-hand")), n=500, seed=1)
    >>> mc.draws["large"].shape
    (500, 3)
    >>> mc.summary["p_npv_positive"].tolist()
    [0.008, 0.51]
    >>> f"{mc.summary.loc['large', 'npv_p50']:,.0f}"
    '71,989'
    """
    if not 1 <= n <= MAX_DRAWS:
        raise ValueError(f"n: from 1 to {MAX_DRAWS:,} draws, got {n:,}")
    assumptions = assumptions_of(x)
    tiers = list(tiers or assumptions.tiers)
    workers = workers or os.cpu_count() or 1
    if n * len(tiers) < PROCESS_MIN_TIER_DRAWS:
        workers = 1
    ranged, skipped = ranged_inputs(assumptions, include_normal=True)
    inputs = [x for x in ranged if not x.structural]
    held = [x.path for x in ranged if x.structural]
    case = Case.of(assumptions, tiers, inputs, seed, n, chunk_size=chunk_size)
    out = _run(case, workers, client, progress)
    draws = {t: pd.DataFrame(out[t], columns=list(METRICS), copy=False) for t in tiers}
    return MonteCarloResult(
        n=n,
        seed=seed,
        summary=_summarize(draws),
        draws=draws,
        inputs=inputs,
        skipped=skipped,
        held_fixed=held,
        correlations=[(canonical(c.a), canonical(c.b), c.rho) for c in case.pairs],
        pairs=list(case.pairs),
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
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> shifts = cm.median_shifts(a, cm.monte_carlo(a, n=500, seed=1))
    >>> top = shifts[shifts["tier"] == "large"].iloc[0]
    >>> str(top["input"]), float(top["value"]), round(float(top["median"]), 3)
    ('servers.box.price', 1000000.0, 1035306.258)
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


def _run(
    case: Case, workers: int, client: Any, progress: Callable[[int, int], None] | None
) -> dict[str, np.ndarray]:
    """Every tier's metrics (n, metrics) of the blocks of ``case`` (a matrix that is
    not positive definite refused before any block runs), ``progress(done, n)``
    after each block."""
    check_pairs(list(case.inputs), case.pairs)
    n = case.n
    out = {t: np.empty((n, len(METRICS))) for t in case.tiers}
    evaluated = 0

    def done(job: Job, metrics: dict[str, np.ndarray]) -> None:
        nonlocal evaluated
        for t, values in metrics.items():
            out[t][job.lo : job.hi] = values
        evaluated += job.hi - job.lo
        if progress:
            progress(evaluated, n)

    run_blocks([case], jobs_of(0, n), done, workers=workers, client=client)
    return out
