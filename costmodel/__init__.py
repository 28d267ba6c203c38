"""costmodel: cost, cash flow and return of GPU compute centers by scale tier.

The public names below are imported on first use, so ``import costmodel`` loads
no numerical, templating, plotting or spreadsheet library.

Functions
---------
load_assumptions(*paths, overrides=None)
    Read, merge and validate assumption files (no paths: the bundled default);
    ``overrides`` maps dotted paths to values.
with_overrides(assumptions, overrides)
    A copy of loaded assumptions with overrides applied by the same rules.
build(assumptions)
    Run the engine on every tier: a :class:`Model` (``summary()``,
    ``summary_rows()``, ``capex(t)``, ``opex(t)``, ``cash_flow(t)``, ...).
run_variants(assumptions, variants, tiers)
    Many variants at once: ``variants`` maps dotted input paths to arrays, one
    value per variant; per tier a result whose ``metrics`` hold one value per variant.
tornado, break_even, price_utilization_grid, sweep, monte_carlo, median_shifts,
study, compare, build_vs_rent, recommend, analyze
    The analysis layer; each takes a built model or its assumptions.
write_workbook(model, path), write_memo(model, path, lang="en")
    The investor workbook and the HTML memo.
import_workbook(path, base=None)
    An investor's edits of a workbook as a scenario overlay, and a report.

Examples
--------
>>> import costmodel as cm
>>> a = cm.load_assumptions(cm.example_dir("by-hand"))  # a two-tier case
>>> list(a.tiers), a.horizon_years
(['small', 'large'], 2)
>>> model = cm.build(a)
>>> small = model.summary_rows()["small"]

The small tier's capex, by hand: two 8-GPU servers at 1,000,000, 100 TB of storage at
1,000, the network as 20% of the cluster (0.2 / 0.8 of servers and storage) and a
hall built for 2 x 10 kW x 1.1 (auxiliary power) at 10,000 per kW:

>>> 2 * 1_000_000 + 100 * 1_000 + 0.2 / 0.8 * 2_100_000 + 2 * 10 * 1.1 * 10_000
2845000.0
>>> small["gpus"], f"{small['capex']:,.0f}", f"{small['npv']:,.0f}"
(16, '2,845,000', '-1,090,343')

The discounted free cash flow of the monthly schedule sums to the NPV:

>>> abs(float(model.cash_flow("small").discounted_fcf.sum()) - small["npv"]) < 1e-6
True

An override changes one value and keeps its unit, source and range:

>>> cheap = cm.with_overrides(a, {"power.price_per_kwh": 0.5})
>>> cheap.power.price_per_kwh.value, cheap.power.price_per_kwh.unit
(0.5, 'CNY/kWh')
>>> f"{cm.build(cheap).summary_rows()['small']['npv']:,.0f}"
'-880,620'

Variants go through the engine at once, one value per variant:

>>> runs = cm.run_variants(a, {"operations.utilization": [0.6, 0.8]}, ["small"])
>>> [f"{npv:,.0f}" for npv in runs["small"].metrics["npv"]]
['-1,090,343', '-187,833']
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "AssumptionError": "costmodel.inputs.errors",
    "Assumptions": "costmodel.inputs.schema",
    "assumption_files": "costmodel.inputs.loader",
    "fingerprint": "costmodel.inputs.loader",
    "layer": "costmodel.inputs.loader",
    "load_assumptions": "costmodel.inputs.loader",
    "with_overrides": "costmodel.inputs.loader",
    "example_dir": "costmodel.inputs.resources",
    "Model": "costmodel.inputs.model",
    "build": "costmodel.inputs.model",
    "run_variants": "costmodel.inputs.runs",
    "Analysis": "costmodel.analysis.bundle",
    "break_even": "costmodel.analysis.breakeven",
    "build_vs_rent": "costmodel.analysis.buildrent",
    "recommend": "costmodel.analysis.workloads",
    "price_utilization_grid": "costmodel.analysis.pricegrid",
    "sweep": "costmodel.analysis.sweep",
    "tornado": "costmodel.analysis.sensitivity",
    "analyze": "costmodel.analysis.bundle",
    "compare": "costmodel.analysis.scenarios",
    "MonteCarloResult": "costmodel.analysis.montecarlo",
    "monte_carlo": "costmodel.analysis.montecarlo",
    "median_shifts": "costmodel.analysis.montecarlo",
    "StudyResult": "costmodel.analysis.study",
    "study": "costmodel.analysis.study",
    "write_memo": "costmodel.report.memo.render",
    "write_workbook": "costmodel.report.workbook.book",
    "import_workbook": "costmodel.report.importer",
}

__all__ = [
    "__version__",
    "Analysis",
    "AssumptionError",
    "Assumptions",
    "Model",
    "MonteCarloResult",
    "StudyResult",
    "analyze",
    "assumption_files",
    "break_even",
    "build",
    "build_vs_rent",
    "compare",
    "example_dir",
    "fingerprint",
    "import_workbook",
    "layer",
    "load_assumptions",
    "median_shifts",
    "monte_carlo",
    "price_utilization_grid",
    "recommend",
    "run_variants",
    "study",
    "sweep",
    "tornado",
    "with_overrides",
    "write_memo",
    "write_workbook",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'costmodel' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # for type checkers and IDEs; not executed
    from costmodel.analysis.breakeven import break_even
    from costmodel.analysis.buildrent import build_vs_rent
    from costmodel.analysis.bundle import Analysis, analyze
    from costmodel.analysis.montecarlo import MonteCarloResult, median_shifts, monte_carlo
    from costmodel.analysis.pricegrid import price_utilization_grid
    from costmodel.analysis.scenarios import compare
    from costmodel.analysis.sensitivity import tornado
    from costmodel.analysis.study import StudyResult, study
    from costmodel.analysis.sweep import sweep
    from costmodel.analysis.workloads import recommend
    from costmodel.inputs.errors import AssumptionError
    from costmodel.inputs.loader import (
        assumption_files,
        fingerprint,
        layer,
        load_assumptions,
        with_overrides,
    )
    from costmodel.inputs.model import Model, build
    from costmodel.inputs.resources import example_dir
    from costmodel.inputs.runs import run_variants
    from costmodel.inputs.schema import Assumptions
    from costmodel.report.importer import import_workbook
    from costmodel.report.memo.render import write_memo
    from costmodel.report.workbook.book import write_workbook
