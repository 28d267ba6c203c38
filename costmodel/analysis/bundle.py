"""Engine results beyond the base case, computed once and read by the writers.

``analyze(model)`` runs the tornado, the break-even search, build versus rent,
workload sizing, the priced risks and (unless ``draws=0``) Monte Carlo, and
optionally a scenario comparison; the workbook and the memo only read the
finished :class:`Analysis`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from costmodel.analysis.breakeven import break_even
from costmodel.analysis.buildrent import build_vs_rent
from costmodel.analysis.decision import options
from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED
from costmodel.analysis.financing import financing_table
from costmodel.analysis.growth import growth_options
from costmodel.analysis.montecarlo import median_shifts, monte_carlo
from costmodel.analysis.pricegrid import price_utilization_grid
from costmodel.analysis.risks import risk_figures, software_problem
from costmodel.analysis.scenarios import compare
from costmodel.analysis.sensitivity import tornado
from costmodel.analysis.supply import supply_risks
from costmodel.analysis.sweep import option_sweeps
from costmodel.analysis.timeline import timeline_table
from costmodel.analysis.workloads import recommend
from costmodel.inputs.model import model_of

if TYPE_CHECKING:
    from costmodel.analysis.montecarlo import MonteCarloResult
    from costmodel.analysis.scenarios import CompareResult
    from costmodel.analysis.study import StudyResult
    from costmodel.inputs.model import Model
    from costmodel.inputs.schema import Assumptions


@dataclass(frozen=True)
class Analysis:
    """Results for one model: ``tornado`` (:func:`~costmodel.analysis.sensitivity.tornado`),
    ``break_even`` (:func:`~costmodel.analysis.breakeven.break_even`),
    ``build_vs_rent`` (:func:`~costmodel.analysis.buildrent.build_vs_rent`),
    ``recommend`` (:func:`~costmodel.analysis.workloads.recommend`), ``risks``
    (:func:`~costmodel.analysis.risks.risk_figures`), ``software`` (the seed's
    "software problem" comparison, :func:`~costmodel.analysis.risks.software_problem`,
    or None), ``options`` (:func:`~costmodel.analysis.decision.options`), ``monte_carlo``
    (:func:`~costmodel.analysis.montecarlo.monte_carlo`, or None) and ``scenarios``
    (:func:`~costmodel.analysis.scenarios.compare`, or None), ``growth``
    (:func:`~costmodel.analysis.growth.growth_options`: empty without stages),
    ``financing`` (:func:`~costmodel.analysis.financing.financing_table`: empty
    without debt), ``timeline``
    (:func:`~costmodel.analysis.timeline.timeline_table`) and ``grid``
    (:func:`~costmodel.analysis.pricegrid.price_utilization_grid`) and ``sweeps``
    (:func:`~costmodel.analysis.sweep.option_sweeps`) and ``shifts``
    (:func:`~costmodel.analysis.montecarlo.median_shifts` of the Monte Carlo, or None)
    and ``study`` (:func:`~costmodel.analysis.study.study`, when one was asked for)
    and ``supply`` (:func:`~costmodel.analysis.supply.supply_risks`: the options on
    an imported chip)."""

    tornado: pd.DataFrame
    break_even: pd.DataFrame
    build_vs_rent: pd.DataFrame
    recommend: pd.DataFrame
    risks: pd.DataFrame
    options: pd.DataFrame
    software: dict[str, Any] | None = None
    monte_carlo: MonteCarloResult | None = None
    scenarios: CompareResult | None = None
    growth: pd.DataFrame | None = None
    financing: pd.DataFrame | None = None
    timeline: pd.DataFrame | None = None
    grid: pd.DataFrame | None = None
    sweeps: dict[str, pd.DataFrame] | None = None
    shifts: pd.DataFrame | None = None
    study: StudyResult | None = None
    supply: pd.DataFrame | None = None

    @property
    def tiers(self) -> list[str]:
        """The tiers analysed, in model order."""
        return [str(t) for t in self.break_even.index]

    def __repr__(self) -> str:
        mc = f"{self.monte_carlo.n:,} Monte Carlo draws" if self.monte_carlo else "no Monte Carlo"
        sc = (
            f"scenarios {', '.join(self.scenarios.scenarios)}" if self.scenarios else "no scenarios"
        )
        return f"<Analysis: tiers {', '.join(self.tiers)}; {mc}; {sc}>"


def analyze(
    model: Model | Assumptions,
    *,
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    scenarios: Mapping[str, Any] | None = None,
    metric: str = "npv",
    study: Mapping[str, Any] | None = None,
) -> Analysis:
    """Compute the :class:`Analysis` of ``model`` (a model or its assumptions):
    ``draws`` Monte Carlo draws at ``seed`` (0 draws: none), and the named
    ``scenarios`` layered on the model's assumptions (see
    :func:`costmodel.analysis.scenarios.compare`).

    Parameters
    ----------
    model : Model or Assumptions
    draws : int, optional
        Monte Carlo draws (0: none).
    seed : int, optional
    scenarios : mapping, optional
        Name -> overlay, as :func:`~costmodel.analysis.scenarios.compare` takes them.
    metric : str, optional
        The tornado's metric.
    study : mapping, optional
        The keyword arguments of :func:`~costmodel.analysis.study.study` (``tier``,
        ``sites``, ``gpus``; ``n`` defaults to ``draws``, or the default draws when
        ``draws`` is 0, and the seed is ``seed``): the study of the memo and the
        workbook.

    Returns
    -------
    Analysis
        What the workbook's analysis sheets and the memo's sections show.

    Examples
    --------
    >>> import costmodel as cm
    >>> analysis = cm.analyze(cm.load_assumptions(cm.example_dir("by-hand")), draws=200, seed=0)
    >>> analysis.monte_carlo.n, list(analysis.break_even.index)
    (200, ['small', 'large'])
    >>> analysis.tornado.iloc[0]["input"]
    'operations.utilization'
    """
    m = model_of(model)
    a = m.assumptions
    rent = build_vs_rent(m)
    risks = risk_figures(m)
    mc = monte_carlo(a, n=draws, seed=seed) if draws > 0 else None
    return Analysis(
        tornado=tornado(a, metric=metric, tiers=m.tiers),
        break_even=break_even(a, tiers=m.tiers),
        build_vs_rent=rent,
        recommend=recommend(m),
        risks=risks,
        options=options(m, rent, mc),
        software=software_problem(m, risks),
        monte_carlo=mc,
        scenarios=compare(a, scenarios) if scenarios else None,
        growth=growth_options(m),
        financing=financing_table(m),
        timeline=timeline_table(m),
        grid=price_utilization_grid(a, tiers=m.tiers),
        sweeps=option_sweeps(a, m.tiers),
        shifts=median_shifts(a, mc) if mc is not None else None,
        study=_study(a, study, draws, seed) if study else None,
        supply=supply_risks(m),
    )


def _study(a: Assumptions, request: Mapping[str, Any], draws: int, seed: int) -> StudyResult:
    """:func:`~costmodel.analysis.study.study` of ``request`` with the analysis's
    draws and seed."""
    from costmodel.analysis.study import study

    kw = {"n": draws or DEFAULT_DRAWS, "seed": seed, **request}
    return study(a, **kw)


#: the columns of build versus rent that the options read
NO_RENT_COLUMNS = ("cloud_price_per_gpu_hour", "saving")


def decision_analysis(model: Model | Assumptions, table: pd.DataFrame | None = None) -> Analysis:
    """The part of :func:`analyze` that the memo's decision itself reads
    (:func:`costmodel.report.memo.summary_section.verdict`): the break-even and
    the options (their cloud price and build-versus-rent saving empty; ``table``:
    those options of this model, computed already); the tornado, build versus
    rent, workload sizing and priced risks are empty tables, and the break-even's
    ``npv_at_*`` checks are NaN (the decision reads the roots only: one engine call
    less). About a sixth of the time of ``analyze(model, draws=0)``, for a page that
    recomputes on every change."""
    m = model_of(model)
    if table is None:
        table = options(m, pd.DataFrame(columns=list(NO_RENT_COLUMNS)))
    empty = pd.DataFrame()
    return Analysis(
        tornado=empty,
        break_even=break_even(m.assumptions, tiers=m.tiers, check=False),
        build_vs_rent=pd.DataFrame(columns=list(NO_RENT_COLUMNS)),
        recommend=empty,
        risks=empty,
        options=table,
    )
