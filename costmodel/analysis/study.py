"""Risk across sites and sizes: the study (methodology §34).

For every cell (site, GPU count G) the tier is rebuilt as the sweep rebuilds it
(:func:`costmodel.analysis.sweep.rebuilt`: no stages, storage proportional to GPUs,
the network, racks, power and staff sized by the engine from G; with the design the
sweep gives that size, :func:`costmodel.analysis.sweep.design_groups`) at that site, and
its Monte Carlo (methodology §9, with the correlations of §9.1) is run on **common
random numbers**: every ranged input has the same draws in every cell (an input's
draws depend only on the seed, the block and its path:
:mod:`costmodel.analysis.draws`), so two cells differ only by their build. A drawn
input that the rebuild sets (the storage) has its draws scaled as its value is
(``G / G_0``).

Per cell: P10, P50, P90 of npv, P(npv > 0), the mean cost per GPU-hour over the
draws, the NPV as assumed (the sweep's row), feasibility (a row the sweep marks
infeasible is not simulated: no numbers, and it cannot be best). The best cell by
P(npv > 0) (ties: the larger median NPV, then the first cell) and the best by
median NPV (ties: the first cell) are marked, among feasible cells.

Each (cell, block of draws) is one job (:mod:`costmodel.analysis.blocks`): run in
this process, on a pool of worker processes from :data:`PROCESS_MIN_TIER_DRAWS`
cell-draws, or on a Dask cluster (``client``), with the same numbers bit for bit.
A cell's draws are kept until its last block is in, then summarised and dropped
(``keep_draws`` keeps its NPV draws), so memory grows with the cells, not with the
draws of all cells.

Limits: at most :data:`MAX_CELLS` cells, :data:`MAX_DRAWS` draws per cell and
:data:`MAX_EVALUATIONS` cells x draws (a tier-evaluation each; about 3 million per
CPU-second on a 2-core machine of 2026).

Without ``sites`` the study has one site: the assumptions as they are (named
:data:`OWN_SITE`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from costmodel.analysis.blocks import METRICS, Case, Job, jobs_of, run_blocks
from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED
from costmodel.analysis.montecarlo import PROCESS_MIN_TIER_DRAWS
from costmodel.analysis.sensitivity import ranged_inputs
from costmodel.analysis.sweep import design_groups, parse_gpus, rebuilt, sweep
from costmodel.core.units import scale_class
from costmodel.inputs.loader import with_overrides
from costmodel.inputs.model import assumptions_of
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.schema import Assumptions

if TYPE_CHECKING:
    from costmodel.inputs.model import Model

#: at most this many cells (sites x GPU counts)
MAX_CELLS = 4_096
#: at most this many draws per cell
MAX_DRAWS = 1_000_000
#: at most this many tier-evaluations (cells x draws) in one study
MAX_EVALUATIONS = 1_000_000_000
#: the name of the one site of a study without ``sites``: the assumptions as they are
OWN_SITE = "(as assumed)"

STUDY_COLUMNS = [
    "site",
    "gpus",
    "scale_class",
    "npv_p10",
    "npv_p50",
    "npv_p90",
    "p_npv_positive",
    "cost_per_gpu_hour_mean",
    "npv_base",
    "feasible",
    "infeasible_reason",
    "best",
]

_NPV, _COST = METRICS.index("npv"), METRICS.index("cost_per_gpu_hour")


@dataclass(frozen=True)
class StudyResult:
    """``cells``: one row per (site, GPU count), sites in the order given and GPU
    counts ascending (:data:`STUDY_COLUMNS`; ``best`` holds ``"p_npv_positive"``,
    ``"npv_p50"``, both joined by ``", "``, or ``""``); ``best_probability`` and
    ``best_median``: the best cells ``(site, gpus)`` (None if no cell is feasible);
    ``draws``: ``(site, gpus) -> npv draws`` when kept; ``tier``, ``sites``,
    ``gpus``, ``n``, ``seed``."""

    tier: str
    sites: list[str]
    gpus: list[int]
    n: int
    seed: int
    cells: pd.DataFrame
    best_probability: tuple[str, int] | None
    best_median: tuple[str, int] | None
    draws: dict[tuple[str, int], np.ndarray] = field(default_factory=dict)

    def grid(self, column: str = "p_npv_positive") -> pd.DataFrame:
        """``column`` of the cells as a table: one row per site, one column per
        GPU count."""
        return self.cells.pivot(index="site", columns="gpus", values=column).loc[self.sites]


def site_names(a: Assumptions) -> list[str]:
    """The sites of ``a``'s ``sites`` catalogue (methodology §29; none before it)."""
    return list(getattr(a, "sites", None) or {})


def at_site(a: Assumptions, tier: str, site: str) -> Assumptions:
    """``a`` with tier ``tier`` at ``site`` (its ``site`` key set: a value written in
    the tier > the site > the global value, methodology §29); ``a`` itself for
    :data:`OWN_SITE`. Raises ``ValueError`` for a site the catalogue does not have."""
    if site == OWN_SITE:
        return a
    known = site_names(a)
    if site not in known:
        have = ", ".join(known) if known else "none (the assumptions have no `sites`)"
        raise ValueError(f"unknown site {site!r}; the sites are: {have}")
    return with_overrides(a, {f"tiers.{tier}.site": site})


def check_limits(cells: int, n: int) -> None:
    """Refuse a study beyond :data:`MAX_CELLS`, :data:`MAX_DRAWS` or
    :data:`MAX_EVALUATIONS`, naming the limit."""
    if n < 1:
        raise ValueError("n must be at least 1")
    if cells > MAX_CELLS:
        raise ValueError(f"{cells:,} cells (sites x GPU counts): at most {MAX_CELLS:,}")
    if n > MAX_DRAWS:
        raise ValueError(f"{n:,} draws per cell: at most {MAX_DRAWS:,}")
    if cells * n > MAX_EVALUATIONS:
        raise ValueError(
            f"{cells:,} cells x {n:,} draws = {cells * n:,} tier-evaluations: at most "
            f"{MAX_EVALUATIONS:,}"
        )


@dataclass(frozen=True)
class _Cell:
    site: str
    gpus: int
    base: dict[str, Any]  # the sweep's row at this site and count
    case: int | None  # its case number, None when it is not simulated


def _plan(
    a: Assumptions, tier: str, sites: list[str], counts: list[int], n: int, seed: int
) -> tuple[list[_Cell], list[Case]]:
    """The cells and the cases of the feasible ones (one per cell)."""
    cells: list[_Cell] = []
    cases: list[Case] = []
    for site in sites:
        here = at_site(a, tier, site)
        rows = dict(zip(counts, sweep(here, tier, counts).to_dict("records"), strict=True))
        ok = [g for g in counts if bool(rows[g].get("feasible", True))]
        built: dict[int, Case] = {}
        for b, group in design_groups(here, tier, ok)[0]:  # a design per size (§28.5)
            built |= _cases(b, tier, group, seed, n)
        for g in counts:
            cells.append(_Cell(site, g, rows[g], len(cases) if g in built else None))
            if g in built:
                cases.append(built[g])
    return cells, cases


def _cases(a: Assumptions, tier: str, counts: list[int], seed: int, n: int) -> dict[int, Case]:
    """Count -> the case of the tier of ``a`` rebuilt at that count (one design)."""
    flat, variants = rebuilt(a, tier, counts)
    ranged, _ = ranged_inputs(flat, include_normal=True)
    inputs = [x for x in ranged if not x.structural and tier in x.tiers]
    drawn = {x.path for x in inputs}
    values = {p: v for p, v in resolve_tier(flat, tier).inputs.values()}
    out = {}
    for i, g in enumerate(counts):
        fixed = tuple((p, float(v[i])) for p, v in variants.items() if p not in drawn)
        scaled = tuple(
            (p, float(v[i]) / float(values[p])) for p, v in variants.items() if p in drawn
        )
        out[g] = Case.of(flat, [tier], inputs, seed, n, fixed=fixed, scaled=scaled)
    return out


def _summary(npv: np.ndarray, cost: np.ndarray) -> dict[str, float]:
    p10, p50, p90 = np.percentile(npv, [10, 50, 90])
    return {
        "npv_p10": float(p10),
        "npv_p50": float(p50),
        "npv_p90": float(p90),
        "p_npv_positive": float(np.mean(npv > 0)),
        "cost_per_gpu_hour_mean": float(np.mean(cost)),
    }


def _best(df: pd.DataFrame) -> tuple[int | None, int | None]:
    """Row numbers of the best feasible cell by P(npv > 0) (ties: the larger
    median, then the first) and by median NPV (ties: the first)."""
    ok = df[df["feasible"]]
    if ok.empty:
        return None, None
    by_p = ok.sort_values(["p_npv_positive", "npv_p50"], ascending=False, kind="stable")
    by_m = ok.sort_values("npv_p50", ascending=False, kind="stable")
    return int(by_p.index[0]), int(by_m.index[0])


def study(
    x: Model | Assumptions,
    tier: str,
    sites: Sequence[str] | None = None,
    gpus: str | Sequence[int] | None = None,
    n: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    *,
    workers: int | None = None,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
    keep_draws: bool = False,
) -> StudyResult:
    """The study of tier ``tier`` over ``sites`` x ``gpus`` (module docstring).

    Parameters
    ----------
    x : Model or Assumptions
    tier : str
        The tier to rebuild in every cell.
    sites : sequence of str, optional
        Sites of the ``sites`` catalogue (methodology §29); default: the
        assumptions as they are (one site, :data:`OWN_SITE`).
    gpus : str or sequence of int, optional
        GPU counts, or a range ``"LOW:HIGH"`` (the sweep's rule,
        :func:`costmodel.analysis.sweep.parse_gpus`).
    n, seed : int, optional
        Draws per cell, and their seed (the same seed, the same numbers, wherever
        the blocks run).
    workers : int, optional
        Worker processes (default one per core) from
        :data:`~costmodel.analysis.montecarlo.PROCESS_MIN_TIER_DRAWS` cell-draws.
    client : distributed.Client, optional
        A Dask client whose workers evaluate the blocks (the ``dask`` extra).
    progress : callable, optional
        ``progress(done, total)`` in cell-draws, after each block.
    keep_draws : bool, optional
        Keep each cell's NPV draws in :attr:`StudyResult.draws`.

    Returns
    -------
    StudyResult

    Examples
    --------
    >>> import costmodel as cm
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> res = cm.study(a, "large", gpus=[128, 512, 2048], n=400, seed=7)
    >>> res.cells[["gpus", "p_npv_positive"]].values.tolist()
    [[128.0, 0.5075], [512.0, 0.83], [2048.0, 0.88]]
    >>> res.best_probability, res.best_median
    (('(as assumed)', 2048), ('(as assumed)', 2048))
    """
    a = assumptions_of(x)
    if tier not in a.tiers:
        raise ValueError(f"unknown tier {tier!r}; choose one of: {', '.join(a.tiers)}")
    names = list(dict.fromkeys(sites)) if sites else [OWN_SITE]
    counts = sorted(dict.fromkeys(parse_gpus(a, tier, gpus)))
    check_limits(len(names) * len(counts), n)
    cells, cases = _plan(a, tier, names, counts, n, seed)
    results, kept = _evaluate(cases, tier, n, workers, client, progress, keep_draws)
    df = _frame(cells, results)
    best_p, best_m = _best(df)
    df["best"] = [
        ", ".join(name for name, at in (("p_npv_positive", best_p), ("npv_p50", best_m)) if at == i)
        for i in range(len(df))
    ]
    df.attrs.update(tier=tier, n=n, seed=seed)

    def key(i: int | None) -> tuple[str, int] | None:
        return None if i is None else (str(df.at[i, "site"]), int(df.at[i, "gpus"]))

    draws = {(c.site, c.gpus): kept[c.case] for c in cells if c.case in kept}
    return StudyResult(tier, names, counts, n, seed, df, key(best_p), key(best_m), draws)


def _evaluate(
    cases: list[Case],
    tier: str,
    n: int,
    workers: int | None,
    client: Any,
    progress: Callable[[int, int], None] | None,
    keep_draws: bool,
) -> tuple[dict[int, dict[str, float]], dict[int, np.ndarray]]:
    """Every case's summary (:func:`_summary`) and, with ``keep_draws``, its NPV
    draws: a case's draws are kept until its last block is in, then summarised and
    dropped; ``progress(done, total)`` after each block."""
    total = n * len(cases)
    workers = workers or os.cpu_count() or 1
    if total < PROCESS_MIN_TIER_DRAWS:
        workers = 1
    buffers: dict[int, np.ndarray] = {}
    left = {c: len(jobs_of(c, n)) for c in range(len(cases))}
    results: dict[int, dict[str, float]] = {}
    kept: dict[int, np.ndarray] = {}
    evaluated = 0

    def done(job: Job, metrics: dict[str, np.ndarray]) -> None:
        nonlocal evaluated
        buf = buffers.setdefault(job.case, np.empty((n, 2)))
        buf[job.lo : job.hi] = metrics[tier][:, [_NPV, _COST]]
        left[job.case] -= 1
        if not left[job.case]:  # the cell's last block: summarise it, drop its draws
            whole = buffers.pop(job.case)
            results[job.case] = _summary(whole[:, 0], whole[:, 1])
            if keep_draws:
                kept[job.case] = whole[:, 0].copy()
        evaluated += job.hi - job.lo
        if progress:
            progress(evaluated, total)

    jobs = [j for c in range(len(cases)) for j in jobs_of(c, n)]
    run_blocks(cases, jobs, done, workers=workers, client=client)
    return results, kept


def _frame(cells: list[_Cell], results: dict[int, dict[str, float]]) -> pd.DataFrame:
    """The cells' rows (:data:`STUDY_COLUMNS` but ``best``)."""
    rows = []
    for cell in cells:
        row: dict[str, Any] = {"site": cell.site, "gpus": cell.gpus}
        row["scale_class"] = scale_class(cell.gpus)
        nan = dict.fromkeys(STUDY_COLUMNS[3:8], np.nan)
        row.update(nan if cell.case is None else results[cell.case])
        row["npv_base"] = float(cell.base["npv"])
        row["feasible"] = cell.case is not None
        row["infeasible_reason"] = str(cell.base.get("infeasible_reason", "") or "")
        rows.append(row)
    return pd.DataFrame(rows, columns=STUDY_COLUMNS[:-1])
