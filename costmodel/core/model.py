"""Build a model from assumptions and read it as DataFrames (spec 8, 12)."""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pandas as pd

from costmodel.core.engine import (
    CAPEX_LINES,
    OPEX_LINES,
    SUMMARY_COLUMNS,
    TierResult,
    run_tier,
)
from costmodel.core.roots import BisectionTrace, bisect_trace
from costmodel.core.units import scale_class
from costmodel.inputs.params import TierInputs, resolve_tier
from costmodel.inputs.schema import ASSET_CLASSES, Assumptions


class Model:
    """A built model: every tier computed from one set of assumptions.

    ``summary()`` gives one row per tier; ``capex``/``opex``/``depreciation``/
    ``cash_flow``/``annual`` give a tier's schedules whose sums reproduce it.
    """

    def __init__(self, assumptions: Assumptions):
        self.assumptions = assumptions
        self.tiers: list[str] = list(assumptions.tiers)
        self.inputs: dict[str, TierInputs] = {t: resolve_tier(assumptions, t) for t in self.tiers}
        self.results: dict[str, TierResult] = {
            t: run_tier(ti.values(), ti.config) for t, ti in self.inputs.items()
        }

    def __repr__(self) -> str:
        return f"<Model {self.assumptions.name!r}: tiers {', '.join(self.tiers)}>"

    @property
    def months(self) -> int:
        """M = 12 * horizon_years."""
        return 12 * self.assumptions.horizon_years

    @cached_property
    def periods(self) -> pd.PeriodIndex:
        """Calendar month of months 0..M: month 1 is ``start``; month 0, the
        investment date, is the month before."""
        first = pd.Period(self.assumptions.start, freq="M") - 1
        return pd.period_range(first, periods=self.months + 1, freq="M")

    def _check(self, tier: str) -> TierResult:
        if tier not in self.results:
            raise KeyError(f"unknown tier {tier!r}; tiers: {', '.join(self.tiers)}")
        return self.results[tier]

    def _frame(self, columns: dict[str, np.ndarray]) -> pd.DataFrame:
        df = pd.DataFrame({k: np.asarray(v)[0] for k, v in columns.items()})
        df.index = pd.RangeIndex(self.months + 1, name="month")
        df.insert(0, "period", self.periods)
        return df

    # ------------------------------------------------------------------ summary

    def summary(self) -> pd.DataFrame:
        """One row per tier (in tier order), the columns of spec 8 and 9.

        Empty metrics (no IRR, no payback, zero denominators) are NaN.
        """
        rows = {}
        for t in self.tiers:
            m = self.results[t].metrics
            row = {c: float(m[c][0]) for c in SUMMARY_COLUMNS if c in m}
            row["scale_class"] = scale_class(int(round(row["gpus"])))
            for c in ("gpus", "servers", "racks"):
                row[c] = int(round(row[c]))
            rows[t] = row
        df = pd.DataFrame.from_dict(rows, orient="index")[list(SUMMARY_COLUMNS)]
        df.index.name = "tier"
        return df

    # ------------------------------------------------------------------ schedules

    def capex(self, tier: str) -> pd.DataFrame:
        """Capex by line item (all at month 0) and ``total``; months 0..M."""
        r = self._check(tier)
        cols = {}
        for line in CAPEX_LINES:
            v = np.zeros((1, self.months + 1))
            v[0, 0] = r.capex[line][0]
            cols[line] = v
        cols["total"] = sum(cols.values())
        return self._frame(cols)

    def opex(self, tier: str) -> pd.DataFrame:
        """Opex by line item and ``total``, months 0..M (zero at month 0)."""
        r = self._check(tier)
        cols = {line: r.opex[line] for line in OPEX_LINES}
        cols["total"] = r.flows["opex"]
        return self._frame(cols)

    def depreciation(self, tier: str) -> pd.DataFrame:
        """Depreciation by asset class and ``total``, plus the closing net book
        value of each class (``nbv_<class>``), months 0..M."""
        r = self._check(tier)
        cols: dict[str, np.ndarray] = {c: r.depreciation[c] for c in ASSET_CLASSES}
        cols["total"] = r.flows["depreciation"]
        for c in ASSET_CLASSES:
            cols[f"nbv_{c}"] = r.capex[c][:, None] - np.cumsum(r.depreciation[c], axis=1)
        return self._frame(cols)

    def cash_flow(self, tier: str) -> pd.DataFrame:
        """Revenue, opex, depreciation, EBIT, tax, capex, terminal value, free cash
        flow, cumulative FCF, discount factor and discounted FCF, months 0..M.

        ``fcf = revenue - opex - tax - capex + terminal_value``;
        ``discounted_fcf.sum() == summary().npv``.
        """
        r = self._check(tier)
        f = r.flows
        capex = np.zeros_like(f["fcf"])
        capex[:, 0] = r.metrics["capex"]
        cols = {
            "gpu_hours": f["gpu_hours"],
            "revenue": f["revenue"],
            "opex": f["opex"],
            "depreciation": f["depreciation"],
            "ebit": f["ebit"],
            "tax": f["tax"],
            "capex": capex,
            "terminal_value": f["terminal_value"],
            "fcf": f["fcf"],
            "cumulative_fcf": np.cumsum(f["fcf"], axis=1),
            "discount_factor": f["discount_factor"],
            "discounted_fcf": f["fcf"] * f["discount_factor"],
        }
        return self._frame(cols)

    def annual(self, tier: str) -> pd.DataFrame:
        """Operating years 1..Y: revenue, opex, depreciation, EBIT, the tax loss
        pool corkscrew (open, added, used, close), tax and FCF (year 1 FCF
        excludes the month-0 capex, which is shown as its own column)."""
        r = self._check(tier)
        years = self.months // 12
        f = r.flows

        def by_year(x: np.ndarray) -> np.ndarray:
            return x[0, 1:].reshape(years, 12).sum(axis=1)

        a = r.annual
        df = pd.DataFrame(
            {
                "revenue": by_year(f["revenue"]),
                "opex": by_year(f["opex"]),
                "depreciation": by_year(f["depreciation"]),
                "ebit": a["ebit"][0],
                "loss_pool_open": a["loss_pool_open"][0],
                "loss_added": a["loss_added"][0],
                "loss_used": a["loss_used"][0],
                "loss_pool_close": a["loss_pool_close"][0],
                "tax": a["tax"][0],
                "terminal_value": by_year(f["terminal_value"]),
                "fcf": by_year(f["fcf"]),
            },
            index=pd.RangeIndex(1, years + 1, name="year"),
        )
        return df

    def irr_trace(self, tier: str, steps: int) -> BisectionTrace:
        """The IRR search of the tier's free cash flow as the workbook's IRR sheet
        does it (grid, brackets, ``steps`` bisection halvings); see
        :func:`costmodel.core.roots.bisect_trace`."""
        return bisect_trace(self._check(tier).flows["fcf"][0], steps)


def build(assumptions: Assumptions) -> Model:
    """Compute every tier of ``assumptions`` (see :class:`Model`)."""
    return Model(assumptions)


def assumptions_of(x: Model | Assumptions) -> Assumptions:
    """The one rule of the analysis functions: they take a built :class:`Model` or
    its :class:`Assumptions` alike; a model contributes its assumptions."""
    if isinstance(x, Model):
        return x.assumptions
    if isinstance(x, Assumptions):
        return x
    raise TypeError(f"expected a costmodel Model or Assumptions, not {type(x).__name__}")


def model_of(x: Model | Assumptions) -> Model:
    """``x`` if it is a built model, else :func:`build` of the assumptions."""
    return x if isinstance(x, Model) else build(assumptions_of(x))
