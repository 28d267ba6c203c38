"""costmodel: cost, cash flow and return of GPU compute centers by scale tier.

Quick start::

    import costmodel as cm
    model = cm.build(cm.load_assumptions())      # the bundled default
    model.summary()                              # one row per tier
    model.cash_flow("hundreds")                  # monthly schedule
"""

from __future__ import annotations

from .analysis import Analysis, analyze
from .compare import compare
from .errors import AssumptionError
from .loader import assumption_files, fingerprint, layer, load_assumptions, with_overrides
from .memo import write_memo
from .model import Model, build, run_variants
from .montecarlo import MonteCarloResult, monte_carlo
from .schema import Assumptions
from .workbook import write_workbook

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "analyze",
    "AssumptionError",
    "Assumptions",
    "Model",
    "MonteCarloResult",
    "__version__",
    "assumption_files",
    "build",
    "compare",
    "fingerprint",
    "layer",
    "load_assumptions",
    "monte_carlo",
    "run_variants",
    "with_overrides",
    "write_memo",
    "write_workbook",
]
