"""Break-even (methodology §9): the input value at which a tier's NPV is 0.

Every search goes through :func:`costmodel.core.roots.solve` (one bracketing
root finder for the package), each round one :func:`run_variants` call per tier
for all its inputs at once. A tier's input lives at
``resolve_tier(a, t).paths()[key]`` (its own override, or the global path), so
the search varies exactly what the tier reads.

- :func:`break_even`: per tier, the ``utilization`` in [0, 1] and the year-1
  ``price_per_gpu_hour`` in [0, ``PRICE_RANGE_FACTOR`` x max(the tier's price, 1)]
  at which NPV = 0; NaN where NPV does not change sign in the range (the lowest
  root if several).
- :func:`break_even_utilization`: the utilization root of one tier (build
  versus rent passes the ``avoided_cloud`` variant of the assumptions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from costmodel.core.roots import solve
from costmodel.inputs.model import assumptions_of
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions

if TYPE_CHECKING:
    from costmodel.inputs.model import Model

PRICE_RANGE_FACTOR = 20.0  # break-even price searched in [0, 20 x the tier's price]
KEYS = ("utilization", "price_per_gpu_hour")
COLUMNS = [
    "utilization",
    "utilization_base",
    "npv_at_utilization",
    "price_per_gpu_hour",
    "price_per_gpu_hour_base",
    "npv_at_price_per_gpu_hour",
    "utilization_path",
    "price_per_gpu_hour_path",
]


@dataclass(frozen=True)
class Job:
    """One root search: tier ``tier``'s input ``key`` (at dotted ``path``, base value
    ``base``) over ``[lo, hi]``."""

    tier: str
    key: str
    path: str
    base: float
    lo: float
    hi: float


def _npv_of_jobs(a: Assumptions, jobs: Sequence[Job], points: Sequence[np.ndarray]) -> list:
    """NPV of job j at its candidate ``points[j]``: one engine call per tier for all
    its jobs, each job's points on its own stretch of the variant axis, where every
    other job's path carries its base value (a tier is evaluated at its own jobs'
    points only; a variant's figures do not depend on the others on the axis)."""
    out: list = [None] * len(jobs)
    by_tier: dict[str, list[int]] = {}
    for j, job in enumerate(jobs):
        by_tier.setdefault(job.tier, []).append(j)
    for tier, js in by_tier.items():
        starts = np.cumsum([0, *(len(points[j]) for j in js)])
        if starts[-1] == 0:  # every search of this tier is solved
            for j in js:
                out[j] = np.empty(0)
            continue
        variants: dict[str, np.ndarray] = {}
        for j in js:
            variants.setdefault(jobs[j].path, np.full(starts[-1], jobs[j].base))
        for k, j in enumerate(js):
            variants[jobs[j].path][starts[k] : starts[k + 1]] = points[j]
        npv = run_variants(a, variants, tiers=[tier])[tier].metrics["npv"]
        for k, j in enumerate(js):
            out[j] = npv[starts[k] : starts[k + 1]]
    return out


def npv_roots(
    a: Assumptions, jobs: Sequence[Job], check: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """The first NPV root of each job (NaN: none in its range) and the NPV at it
    (a check: about 0 relative to capex; NaN where there is no root, and every
    one without ``check``, which spares the engine call that evaluates it)."""
    sol = solve(
        lambda pts: _npv_of_jobs(a, jobs, pts),
        [j.lo for j in jobs],
        [j.hi for j in jobs],
    )
    if not check:
        return sol.root, np.full(len(jobs), np.nan)
    at = [np.array([j.base if np.isnan(r) else r]) for r, j in zip(sol.root, jobs, strict=True)]
    values = np.array([float(v[0]) for v in _npv_of_jobs(a, jobs, at)])
    return sol.root, np.where(np.isnan(sol.root), np.nan, values)


def _job(a: Assumptions, tier: str, key: str) -> Job:
    ti = resolve_tier(a, tier)
    base = float(ti.values()[key])
    top = 1.0 if key == "utilization" else PRICE_RANGE_FACTOR * max(base, 1.0)
    return Job(tier, key, ti.paths()[key], base, 0.0, top)


def break_even(
    x: Model | Assumptions, tiers: list[str] | None = None, check: bool = True
) -> pd.DataFrame:
    """Per tier (index): the utilization and the year-1 price per GPU-hour at which
    NPV = 0 (see the module docstring), their base values, the NPV at each
    solution (``npv_at_*``; NaN without ``check``: the roots are the same) and the
    dotted paths varied.

    Parameters
    ----------
    x : Model or Assumptions
    tiers : list of str, optional
        The tiers (default: all).
    check : bool, optional
        Evaluate the NPV at each solution (``npv_at_*``).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> be = cm.break_even(cm.load_assumptions(cm.example_dir("by-hand")), tiers=["small", "large"])
    >>> cols = ["utilization", "utilization_base", "price_per_gpu_hour", "price_per_gpu_hour_base"]
    >>> be.loc["small", cols].round(4).tolist()
    [0.8512, 0.6, 27.9416, 20.0]
    >>> be.loc["large", cols].round(4).tolist()
    [0.578, 0.6, 19.2981, 20.0]
    >>> bool((be["npv_at_utilization"].abs() < 1e-3).all())
    True
    """
    a = assumptions_of(x)
    tiers = list(tiers or a.tiers)
    jobs = [_job(a, t, key) for t in tiers for key in KEYS]
    roots, checks = npv_roots(a, jobs, check)
    out: dict[str, dict[str, Any]] = {t: {} for t in tiers}
    for job, root, chk in zip(jobs, roots, checks, strict=True):
        row = out[job.tier]
        row[job.key] = float(root)
        row[f"{job.key}_base"] = job.base
        row[f"npv_at_{job.key}"] = float(chk)
        row[f"{job.key}_path"] = job.path
    df = pd.DataFrame.from_dict(out, orient="index")[COLUMNS]
    df.index.name = "tier"
    return df


def break_even_utilization(a: Assumptions, tier: str) -> float:
    """Utilization in [0, 1] at which the tier's NPV is 0 for assumptions ``a``
    (NaN: none)."""
    roots, _ = npv_roots(a, [_job(a, tier, "utilization")])
    return float(roots[0])
