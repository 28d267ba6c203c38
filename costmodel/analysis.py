"""Engine results beyond the base case, computed once and read by the writers.

``analyze(model)`` runs the tornado, the break-even search, build versus rent and
(unless ``draws=0``) Monte Carlo, and optionally a scenario comparison; the
workbook and the memo only read the finished :class:`Analysis`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from .compare import CompareResult
    from .model import Model
    from .montecarlo import MonteCarloResult

DEFAULT_DRAWS = 10_000
DEFAULT_SEED = 0


@dataclass(frozen=True)
class Analysis:
    """Results for one model: ``tornado`` (:meth:`Model.tornado`), ``break_even``
    (:meth:`Model.break_even`), ``build_vs_rent`` (:meth:`Model.build_vs_rent`),
    ``monte_carlo`` (:func:`costmodel.monte_carlo`, or None) and ``scenarios``
    (:func:`costmodel.compare`, or None)."""

    tornado: pd.DataFrame
    break_even: pd.DataFrame
    build_vs_rent: pd.DataFrame
    monte_carlo: MonteCarloResult | None = None
    scenarios: CompareResult | None = None


def analyze(
    model: Model,
    *,
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    scenarios: Mapping[str, Any] | None = None,
    metric: str = "npv",
) -> Analysis:
    """Compute the :class:`Analysis` of ``model``: ``draws`` Monte Carlo draws at
    ``seed`` (0 draws: none), and the named ``scenarios`` layered on the model's
    assumptions (see :func:`costmodel.compare`)."""
    from .compare import compare
    from .montecarlo import monte_carlo

    a = model.assumptions
    return Analysis(
        tornado=model.tornado(metric=metric),
        break_even=model.break_even(),
        build_vs_rent=model.build_vs_rent(),
        monte_carlo=monte_carlo(a, n=draws, seed=seed) if draws > 0 else None,
        scenarios=compare(a, scenarios) if scenarios else None,
    )
