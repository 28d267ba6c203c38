"""The context every block of a tier sheet reads (:class:`Tier`).

It sits apart from the blocks (:mod:`~costmodel.report.workbook.tier`,
:mod:`~costmodel.report.workbook.deployments`,
:mod:`~costmodel.report.workbook.money`) so that they import it, and not each
other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from costmodel.core.intermediate import Intermediate
from costmodel.core.result import TierResult
from costmodel.inputs.model import Model
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.schema import Tier as TierSection
from costmodel.report.workbook.grid import CalcSheet
from costmodel.report.workbook.inputsmap import InputsMap

#: the defined name of the hours in a month (8760 / 12) on the Inputs sheet
HOURS = "hours_per_month"


@dataclass
class Tier:
    """What every block of a tier sheet reads: the sheet, the engine's results and
    inputs of the tier, the Inputs sheet's cells and the currency code.

    The first five fields are given; the next are derived from them on
    construction; the engine's parts of the tier (deployments, capex events,
    ramps) are filled in by
    :func:`~costmodel.report.workbook.deployments.engine_parts` before any block
    is written."""

    cs: CalcSheet
    model: Model
    tier: str
    inputs: InputsMap
    summary: pd.DataFrame  # Model.summary(), computed once per workbook
    # derived on construction
    r: TierResult = field(init=False)  # the engine's results of the tier
    ti: dict[str, float] = field(init=False)  # the tier's engine inputs by name
    a: Assumptions = field(init=False)
    t: TierSection = field(init=False)  # the tier's section of the assumptions
    cur: str = field(init=False)  # currency code
    m: np.ndarray = field(init=False)  # months 0..M
    year: np.ndarray = field(init=False)  # operating year of each month (0 for month 0)
    ops: np.ndarray = field(init=False)  # 1.0 in operating months (1..M)
    met: dict[str, float] = field(init=False)  # the tier's summary metrics
    config: Any = field(init=False)  # the tier's engine configuration (stages, methods)
    rows: Intermediate = field(init=False)  # the model's rows of the tier (Model.rows)
    # the engine's parts (engine_parts), S = 1
    deps: list[dict[str, Any]] = field(init=False)  # deployments: month, GPUs, capex ...
    events: list[Any] = field(init=False)  # the engine's capex event schedules, in order
    event_of: list[tuple[str, int]] = field(init=False)  # (class, deployment) per event

    def __post_init__(self) -> None:
        M = self.model.months
        self.r = self.model.results[self.tier]
        self.ti = self.model.inputs[self.tier].values()
        self.a = self.model.assumptions
        self.t = self.a.tiers[self.tier]
        self.cur = self.a.currency
        self.m = np.arange(M + 1)
        self.year = -(-self.m // 12)
        self.ops = (self.m >= 1).astype(float)
        self.met = {k: float(v[0]) for k, v in self.r.metrics.items()}
        self.config = self.model.inputs[self.tier].config
        self.rows = self.model.rows(self.tier)

    def money(self, per: str = "") -> str:
        """Unit of an amount of money, optionally per something: ``CNY/GPU-h``."""
        return f"{self.cur}/{per}" if per else self.cur


def scalar(a: Any) -> float:
    """The value of a one-variant engine array (S = 1), as a float."""
    return float(np.asarray(a).reshape(-1)[0])
