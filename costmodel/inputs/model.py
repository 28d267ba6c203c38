"""Build a model from assumptions and read it as DataFrames (methodology §4, §10).

pandas is imported by the methods that return a DataFrame, not by this module: a
command that only prints the summary (:meth:`Model.summary_rows`) never loads it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from os import PathLike
from typing import TYPE_CHECKING, Any

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core.calendar import year_sums
from costmodel.core.engine import run_tier, tier_inputs
from costmodel.core.finance import safe_divide
from costmodel.core.intermediate import Intermediate, frozen
from costmodel.core.irrtrace import BisectionTrace, bisect_trace
from costmodel.core.metrics import machine_unit
from costmodel.core.residual import residual_table
from costmodel.core.result import (
    CAPEX_LINES,
    DEBT_LINES,
    OPEX_LINES,
    SUMMARY_COLUMNS,
    VAT_INPUT_COLUMNS,
    VAT_LINES,
    TierResult,
)
from costmodel.core.siteprices import rolled
from costmodel.core.timing import capex_events
from costmodel.core.units import MONTHS_PER_YEAR, scale_class
from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.loader import PathArg, load_assumptions, with_overrides
from costmodel.inputs.params import TierInputs, resolve_tier
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.sites import feasibility, site_name

if TYPE_CHECKING:
    import pandas as pd

#: a summary cell: the scale class (text), a count (GPUs, servers, racks) or a float
SummaryValue = str | int | float


class Model:
    """A built model: every tier computed from one set of assumptions.

    ``summary()`` gives one row per tier; ``capex``/``opex``/``depreciation``/
    ``cash_flow``/``annual`` give a tier's schedules whose sums reproduce it;
    ``rows(tier)`` the intermediate rows the writers show between the two.

    A model does not change once built (its attributes cannot be set), so what is
    derived from it alone is computed once and kept with it: the summary, each
    tier's opex by year, cumulative free cash flow and intermediate rows. What a
    method returns is the caller's own (a copy) unless it says it is shared.
    """

    def __init__(self, assumptions: Assumptions):
        self.assumptions = assumptions
        self.tiers: list[str] = list(assumptions.tiers)
        self.inputs: dict[str, TierInputs] = {t: resolve_tier(assumptions, t) for t in self.tiers}
        self.results: dict[str, TierResult] = {
            t: run_tier(ti.params(), ti.config) for t, ti in self.inputs.items()
        }
        self._kept: dict[tuple[str, Hashable], Any] = {}
        self._built = True

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_built", False):
            raise AttributeError(f"a built Model does not change (set {name!r}): build another")
        object.__setattr__(self, name, value)

    def _once(self, what: str, tier: Hashable, make: Callable[[], Any]) -> Any:
        """``make()``, computed the first time ``(what, tier)`` is asked."""
        key = (what, tier)
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]

    def derived(self, what: str, key: Hashable, make: Callable[[], Any]) -> Any:
        """``make()``, a result derived from this model alone (its assumptions and
        results), computed the first time ``(what, key)`` is asked and kept with the
        model: a writer that reads it more than once (the memo in each language)
        computes it once. Shared: the caller must not change it."""
        return self._once(what, key, make)

    def __repr__(self) -> str:
        a = self.assumptions
        return (
            f"<Model {a.name!r}: tiers {', '.join(self.tiers)}; {a.currency}, "
            f"{a.horizon_years} years from {a.start}>"
        )

    def units(self) -> dict[str, str]:
        """The unit of each column of :meth:`summary` as it holds its values
        (``npv``: the currency, ``irr``: ``fraction``, ``gpus``: ``GPUs``; "" for
        text); also ``summary().attrs["units"]``.

        >>> import costmodel as cm
        >>> u = cm.build(cm.load_assumptions(cm.example_dir("by-hand"))).units()
        >>> u["npv"], u["irr"], u["cost_per_gpu_hour"], u["payback_years"]
        ('CNY', 'fraction', 'CNY/GPU-h', 'years')
        """
        cur = self.assumptions.currency
        return {c: machine_unit(c, cur) for c in SUMMARY_COLUMNS}

    @property
    def months(self) -> int:
        """M = 12 * horizon_years."""
        return 12 * self.assumptions.horizon_years

    @cached_property
    def periods(self) -> pd.PeriodIndex:
        """Calendar month of months 0..M: month 1 is ``start``; month 0, the
        investment date, is the month before."""
        import pandas as pd

        first = pd.Period(self.assumptions.start, freq="M") - 1
        return pd.period_range(first, periods=self.months + 1, freq="M")

    def _check(self, tier: str) -> TierResult:
        if tier not in self.results:
            raise KeyError(f"unknown tier {tier!r}; tiers: {', '.join(self.tiers)}")
        return self.results[tier]

    def _frame(self, columns: dict[str, np.ndarray]) -> pd.DataFrame:
        import pandas as pd

        df = pd.DataFrame({k: np.asarray(v)[0] for k, v in columns.items()})
        df.index = pd.RangeIndex(self.months + 1, name="month")
        df.insert(0, "period", self.periods)
        return df

    # ------------------------------------------------------------------ summary

    def summary_rows(self) -> dict[str, dict[str, SummaryValue]]:
        """The summary as plain Python values: tier -> column -> value, tiers in
        tier order and the columns of methodology §4, §5 in :data:`SUMMARY_COLUMNS`
        order; ``scale_class`` text, ``gpus``, ``servers``, ``racks`` and
        ``opex_full_year_number`` whole numbers (the last NaN when no full operating
        year falls within the horizon), every other column a float (NaN
        where a metric is empty: no IRR, no payback, a zero denominator, no full
        operating year within the horizon). :meth:`summary` is this as a DataFrame.
        Computed once per model; each call returns a copy."""
        return {t: dict(row) for t, row in self._summary_rows.items()}

    @cached_property
    def _summary_rows(self) -> dict[str, dict[str, SummaryValue]]:
        rows: dict[str, dict[str, SummaryValue]] = {}
        for t in self.tiers:
            m = self.results[t].metrics
            values = {c: float(m[c][0]) for c in SUMMARY_COLUMNS if c in m}
            racks = values["racks"] if np.isfinite(values["racks"]) else 0.0
            counts = {
                "gpus": values["gpus"],
                "servers": values["servers"],
                "racks": racks,
                "opex_full_year_number": values["opex_full_year_number"],
            }
            row: dict[str, SummaryValue] = {
                **values,
                **{c: int(round(v)) if np.isfinite(v) else v for c, v in counts.items()},
                "scale_class": scale_class(int(round(values["gpus"]))),
                "cooling": self.assumptions.tiers[t].cooling,
                "design": self.assumptions.tiers[t].design,
                "site": site_name(self.assumptions, t) or "",
            }
            row["feasible"], row["infeasible_reason"] = feasibility(self.assumptions, t)
            rows[t] = {c: row[c] for c in SUMMARY_COLUMNS}
        return rows

    def summary(self) -> pd.DataFrame:
        """One row per tier (in tier order), the columns of methodology §4, §5
        (:meth:`summary_rows`), indexed by ``tier``.

        Empty metrics (no IRR, no payback, zero denominators) are NaN. The unit of
        each column is in ``df.attrs["units"]`` (:meth:`units`). Computed once per
        model; each call returns a copy.
        """
        return self._summary_frame.copy()

    @cached_property
    def _summary_frame(self) -> pd.DataFrame:
        import pandas as pd

        df = pd.DataFrame.from_dict(self._summary_rows, orient="index")[list(SUMMARY_COLUMNS)]
        df.index.name = "tier"
        df.attrs["units"] = self.units()
        return df

    def rows(self, tier: str) -> Intermediate:
        """The intermediate rows of ``tier`` the writers show between its lines and
        its summary (:class:`~costmodel.core.intermediate.Intermediate`: sums per
        year, cumulative sums, present values, each capex event's asset year and
        depreciation, book values, loan counts), made once and shared (read-only)."""
        r = self._check(tier)
        ti = self.inputs[tier]
        return self._once("rows", tier, lambda: Intermediate(r, ti.params(), ti.config))

    def cumulative_fcf(self, tier: str) -> np.ndarray:
        """The cumulative free cash flow ``sum_{s<=m} FCF_s``, months 0..M, of
        :meth:`fcf` (read without building the monthly schedules); computed once,
        shared and read-only."""
        return self._once("cumulative_fcf", tier, lambda: frozen(np.cumsum(self.fcf(tier))))

    def discount_rate(self, tier: str | None = None) -> float:
        """The annual rate the NPV of ``tier`` (the first tier if None) is
        discounted at: ``finance.discount_rate``, or with ``wacc`` the rate the
        tier's financing implies (methodology §11.10)."""
        name = tier if tier is not None else self.tiers[0]
        return float(self._check(name).metrics["discount_rate"][0])

    def selling_price(self, tier: str) -> float:
        """The spot price per GPU-hour ``tier`` sells at in model year 1: its input
        ``price_per_gpu_hour`` rolled from its quote's ``as_of`` to ``start`` and times
        its site's ``price_factor`` (methodology §29, §30); the input itself without
        either."""
        self._check(tier)
        return float(tier_inputs(self.inputs[tier].params()).price_per_gpu_hour[0])

    def quoted_at_start(self, tier: str, name: str) -> float:
        """Engine input ``name`` of ``tier`` (``price_per_gpu_hour``,
        ``contract_price_per_gpu_hour``, ``cloud_price_per_gpu_hour`` or
        ``server_price``) rolled from its quote's ``as_of`` to ``start``, ``value x (1 -
        decline)^(months / 12)`` (methodology §30), before the site's ``price_factor``;
        the input itself without ``as_of``; 0 where the tier has no such input."""
        self._check(tier)
        p = self.inputs[tier].params()
        if getattr(p, name, None) is None:
            return 0.0
        return float(np.asarray(rolled(p, name), dtype=float).reshape(-1)[0])

    def residual(self, tier: str) -> pd.DataFrame:
        """The residual value from income of each deployment of ``tier``
        (methodology §30), one row per deployment: ``month`` (its capex month t_d),
        ``remaining_months`` ``R_d = max(0, t_d + 12 economic_life_years - M)``,
        ``margin`` (its revenue less its own opex lines in month M,
        :mod:`costmodel.core.residual`), ``annuity`` ``sum_{k=1..R_d} (1 -
        price_decline)^(k/12) / (1 + r)^k`` and ``value`` ``max(0, margin) x
        annuity``. Computed for every model; it is the terminal value of the hardware
        with ``terminal_value: income``."""
        import pandas as pd

        r = self._check(tier)
        q = tier_inputs(self.inputs[tier].params())
        life = self.inputs[tier].config.depreciation_life_years["servers"]
        if q.economic_life_years is None:
            q = replace(q, economic_life_years=np.full_like(q.gpus, float(life)))
        deps = r.deployments
        rows = residual_table(q, deps, capex_events(q, deps), self.months)
        df = pd.DataFrame(rows)
        df.index.name = "deployment"
        return df

    def irr_roots(self) -> dict[str, dict[str, int]]:
        """Per tier, ``{"irr": n, "equity_irr": n}``: how many roots the NPV of the
        free cash flow and of the equity cash flow has among the monthly rates the
        IRR is searched in (methodology §11.2; sign changes on the IRR grid). More
        than one: the IRR reported (the root where NPV falls through 0 nearest 0)
        is one of several, and the memo says so."""
        out = {}
        for t, r in self.results.items():
            m = r.metrics
            out[t] = {k: int(m[f"{k}_roots"][0]) for k in ("irr", "equity_irr")}
        return out

    # ------------------------------------------------------------------ schedules

    def capex(self, tier: str) -> pd.DataFrame:
        """Capex by asset class and ``total`` at the months it is paid (methodology §8.1:
        facility at month 0, each deployment's hardware at its month); months 0..M."""
        r = self._check(tier)
        cols = {line: r.capex_months[line] for line in CAPEX_LINES}
        cols["total"] = r.flows["capex"]
        return self._frame(cols)

    def deployments(self, tier: str) -> pd.DataFrame:
        """One row per deployment (vintage): capex month, in-service month, GPUs,
        servers, IT kW, hardware capex by class and its total (methodology §8.1)."""
        r = self._check(tier)
        rows = []
        for i, d in enumerate(r.deployments):
            month = int(round(float(np.asarray(d["month"])[0])))
            rows.append(
                {
                    "deployment": "initial" if i == 0 else f"stage {i}",
                    "month": month,
                    "period": self.periods[month],
                    "in_service_month": month + 1,
                    "gpus": int(round(float(np.asarray(d["gpus"])[0]))),
                    "servers": int(round(float(np.asarray(d["servers_n"])[0]))),
                    "it_kw": float(np.asarray(d["it_kw"])[0]),
                    "servers_capex": float(np.asarray(d["servers"])[0]),
                    "network_capex": float(np.asarray(d["network"])[0]),
                    "storage_capex": float(np.asarray(d["storage"])[0]),
                    "hardware_capex": float(np.asarray(d["hardware"])[0]),
                }
            )
        import pandas as pd

        return pd.DataFrame(rows).set_index("deployment")

    def debt(self, tier: str) -> pd.DataFrame:
        """The debt corkscrew (methodology §8.2), months 0..M: opening balance, draw,
        capitalized interest, interest paid, principal, balloon, closing balance;
        ``close = open + draw + capitalized_interest - principal - balloon``."""
        r = self._check(tier)
        return self._frame({k: r.debt[k] for k in DEBT_LINES})

    def vat(self, tier: str) -> pd.DataFrame:
        """The VAT schedule (methodology §24), months 0..M: output VAT, input VAT
        (total, and ``input_<class or line>``), the credit pool (opening, before the
        year-end refund, closing), VAT payable, refund, surtax and the VAT cash
        ``output - input - payable + refund - surtax`` (in FCF and ECF); all 0
        without a ``vat`` section. ``credit = credit_open + input - output +
        payable - refund``."""
        r = self._check(tier)
        return self._frame({k: r.vat[k] for k in (*VAT_LINES, *VAT_INPUT_COLUMNS)})

    def opex(self, tier: str) -> pd.DataFrame:
        """Opex by line item and ``total``, months 0..M (zero at month 0)."""
        r = self._check(tier)
        cols = {line: r.opex[line] for line in OPEX_LINES}
        cols["total"] = r.flows["opex"]
        return self._frame(cols)

    def opex_by_year(self, tier: str) -> pd.DataFrame:
        """Opex by line item per model year 1..Y (months 12(y-1)+1 .. 12y):
        ``opex_by_year(t)[line][y] == opex(t)[line]`` summed over year y's months;
        read without building the monthly schedules; computed once, each call
        returns a copy."""
        return self._once("opex_by_year", tier, lambda: self._opex_by_year(tier)).copy()

    def _opex_by_year(self, tier: str) -> pd.DataFrame:
        import pandas as pd

        r = self._check(tier)
        cols = {line: np.asarray(r.opex_by_year[line])[0] for line in OPEX_LINES}
        years = self.months // MONTHS_PER_YEAR
        return pd.DataFrame(cols, index=pd.RangeIndex(1, years + 1, name="year"))

    def fcf(self, tier: str) -> np.ndarray:
        """The free cash flow month by month, months 0..M, as the summary reads it
        (``== cash_flow(t).fcf``; read without building the monthly schedules)."""
        return np.asarray(self._check(tier).monthly_fcf())[0].copy()

    def revenue(self, tier: str) -> pd.DataFrame:
        """GPU-hours sold and revenue split into contracted (take-or-pay) and spot
        (methodology §11.5), months 0..M: ``contract_hours``, ``spot_hours``,
        ``gpu_hours = contract_hours + spot_hours``, ``contract_revenue``,
        ``spot_revenue``, ``revenue = contract_revenue + spot_revenue``, and
        ``realized_price = revenue / gpu_hours`` (empty in a month without hours)."""
        r = self._check(tier)
        f = r.flows
        keys = ("contract_hours", "spot_hours", "gpu_hours")
        cols = {k: f[k] for k in (*keys, "contract_revenue", "spot_revenue", "revenue")}
        cols["realized_price"] = safe_divide(f["revenue"], f["gpu_hours"])
        return self._frame(cols)

    def depreciation(self, tier: str) -> pd.DataFrame:
        """Depreciation by asset class and ``total``, plus the closing net book
        value of each class (``nbv_<class>``), months 0..M."""
        r = self._check(tier)
        cols: dict[str, np.ndarray] = {c: r.depreciation[c] for c in CAPEX_CLASSES}
        cols["total"] = r.flows["depreciation"]
        for c in CAPEX_CLASSES:
            cols[f"nbv_{c}"] = r.capex[c][:, None] - np.cumsum(r.depreciation[c], axis=1)
        return self._frame(cols)

    def tax_depreciation(self, tier: str) -> pd.DataFrame:
        """Tax depreciation per asset class and of the interest capitalized on the
        loans (methodology §11.7, §11.8), months 0..M: a ``book`` class's equals its
        :meth:`depreciation`; an ``expensed`` class deducts each event's cost in its
        in-service month; ``capitalized_interest`` is deducted by the levered tax only."""
        f = self._check(tier).flows
        keys = [*CAPEX_CLASSES, "capitalized_interest"]
        return self._frame({k: f[f"tax_depreciation_{k}"] for k in keys})

    def cash_flow(self, tier: str) -> pd.DataFrame:
        """Revenue, opex, depreciation, EBIT, tax, capex, terminal value and its
        tax, free cash flow, cumulative FCF, discount factor and discounted FCF,
        and the levered lines (debt draw, interest, principal, balloon, levered
        tax, equity cash flow and its discount factor), months 0..M.

        ``fcf = revenue - opex - tax - capex + terminal_value + vat_cash +
        subsidies`` (methodology §11.13); the
        tax at M includes ``terminal_tax``, the tax on the terminal gain after losses
        (methodology §11.9); VAT cash: :meth:`vat` (its surtax is an expense of the
        year's taxable income, methodology §11.6);
        ``discounted_fcf.sum() == summary().npv``; ``equity_cash_flow = fcf +
        debt_draw - interest - principal - balloon + tax - tax_levered``.
        """
        r = self._check(tier)
        f = r.flows
        capex = f["capex"]
        cols = {
            "gpu_hours": f["gpu_hours"],
            "revenue": f["revenue"],
            "opex": f["opex"],
            "depreciation": f["depreciation"],
            "ebit": f["ebit"],
            "tax": f["tax"],
            "capex": capex,
            "terminal_value": f["terminal_value"],
            "terminal_tax": f["terminal_tax"],
            "fcf": f["fcf"],
            "cumulative_fcf": np.cumsum(f["fcf"], axis=1),
            "discount_factor": f["discount_factor"],
            "discounted_fcf": f["fcf"] * f["discount_factor"],
            "debt_draw": r.debt["draw"],
            "interest": r.debt["interest"],
            "principal": r.debt["principal"],
            "balloon": r.debt["balloon"],
            "tax_levered": f["tax_levered"],
            "equity_cash_flow": f["ecf"],
            "equity_discount_factor": f["equity_discount_factor"],
            "surtax": f["surtax"],
            "vat_cash": f["vat_cash"],
            "subsidies": f["subsidies"],
        }
        return self._frame(cols)

    def annual(self, tier: str) -> pd.DataFrame:
        """Year 0 (the investment month, month 0) and model years 1..Y (months
        12(y-1)+1 .. 12y): every cash-flow line summed over its months, the tax
        loss corkscrew (open, added, used, expired, close), unlevered and levered
        tax, debt service and DSCR. ``annual().fcf.sum() == cash_flow().fcf.sum()``
        and likewise for every summed line; the year-only lines (EBIT's tax
        treatment, loss pool, DSCR) are 0 or empty in year 0."""
        import pandas as pd

        r = self._check(tier)
        years = self.months // MONTHS_PER_YEAR
        f = r.flows

        def by_year(x: np.ndarray) -> np.ndarray:
            row = np.asarray(x)[0]
            return np.concatenate([[row[0]], year_sums(row)])

        def yearly(key: str, empty: float = 0.0) -> np.ndarray:
            return np.concatenate([[empty], r.annual[key][0]])

        summed = {
            "gpu_hours": f["gpu_hours"],
            "revenue": f["revenue"],
            "opex": f["opex"],
            "capex": f["capex"],
            "depreciation": f["depreciation"],
            "ebit": f["ebit"],
        }
        cols = {k: by_year(v) for k, v in summed.items()}
        for key in ("loss_pool_open", "loss_added", "loss_used", "loss_expired", "loss_pool_close"):
            cols[key] = yearly(key)
        cols["tax_depreciation"] = by_year(sum(f[f"tax_depreciation_{c}"] for c in CAPEX_CLASSES))
        cols["taxable_income"] = yearly("taxable_income")
        cols["tax"] = by_year(f["tax"])
        cols["terminal_value"] = by_year(f["terminal_value"])
        cols["terminal_tax"] = by_year(f["terminal_tax"])
        cols["fcf"] = by_year(f["fcf"])
        for key in ("draw", "interest", "principal", "balloon"):
            cols["debt_draw" if key == "draw" else key] = by_year(r.debt[key])
        cols["tax_depreciation_capitalized_interest"] = by_year(
            f["tax_depreciation_capitalized_interest"]
        )
        cols["taxable_income_levered"] = yearly("taxable_income_levered")
        cols["tax_levered"] = by_year(f["tax_levered"])
        cols["equity_cash_flow"] = by_year(f["ecf"])
        cols["surtax"] = by_year(f["surtax"])
        cols["vat_cash"] = by_year(f["vat_cash"])
        cols["subsidies"] = by_year(f["subsidies"])
        cols["cfads"] = yearly("cfads")
        cols["debt_service"] = yearly("debt_service")
        cols["dscr"] = yearly("dscr", np.nan)
        return pd.DataFrame(cols, index=pd.RangeIndex(0, years + 1, name="year"))

    def table(self) -> pd.DataFrame:
        """Every monthly schedule of every tier in one long table for pivoting:
        columns ``tier, month, period, schedule, line, value`` (schedules
        ``capex``, ``opex``, ``depreciation``, ``cash_flow``, ``debt``)."""
        import pandas as pd

        frames = []
        for t in self.tiers:
            for name in ("capex", "opex", "depreciation", "cash_flow", "debt"):
                df = getattr(self, name)(t).reset_index()
                long = df.melt(id_vars=["month", "period"], var_name="line", value_name="value")
                long.insert(0, "schedule", name)
                long.insert(0, "tier", t)
                frames.append(long)
        out = pd.concat(frames, ignore_index=True)
        return out[["tier", "month", "period", "schedule", "line", "value"]]

    def _repr_html_(self) -> str:
        """Jupyter: the model's name and its summary table."""
        a = self.assumptions
        title = html.escape(f"{a.name} ({a.currency}, {a.horizon_years} years from {a.start})")
        return f"<h4>{title}</h4>" + self.summary().T.to_html(
            na_rep="-", float_format="{:,.4g}".format
        )

    def irr_trace(self, tier: str, steps: int, flow: str = "fcf") -> BisectionTrace:
        """The IRR search of the tier's free cash flow (``flow="fcf"``) or equity
        cash flow (``"ecf"``) as the workbook's IRR sheet does it (grid, brackets,
        ``steps`` bisection halvings); see :func:`costmodel.core.irrtrace.bisect_trace`."""
        if flow not in ("fcf", "ecf"):
            raise ValueError(f"flow must be 'fcf' or 'ecf', not {flow!r}")
        return bisect_trace(self._check(tier).flows[flow][0], steps)


def build(
    assumptions: Assumptions | PathArg | Sequence[PathArg] | None = None,
    overrides: Mapping[str, Any] | None = None,
    *,
    strict: bool = False,
) -> Model:
    """Compute every tier of ``assumptions`` (see :class:`Model`), with
    ``overrides`` applied first.

    Parameters
    ----------
    assumptions : Assumptions, path, list of paths or None
        From :func:`~costmodel.inputs.loader.load_assumptions` (or ``layer``,
        ``with_overrides``); or the paths to load (``"default"``,
        ``"example:NAME"``, ``"scenario:NAME"``, files, folders); None: the bundled
        default.
    overrides : mapping of str to value, optional
        Dotted path -> value (as ``--set``: a ranged input keeps its unit, source and
        range), applied to the assumptions, which are left unchanged.
    strict : bool, default False
        Raise the advice on the inputs (methodology §2.6) as an error.

    Returns
    -------
    Model
        Per tier its capex, opex, cash-flow and debt schedules and the summary
        columns (``summary()``, one row per tier).

    Examples
    --------
    >>> import costmodel as cm
    >>> model = cm.build(cm.load_assumptions(cm.example_dir("by-hand")))
    >>> model.tiers, model.months
    (['small', 'large'], 24)
    >>> s = model.summary()
    >>> [f"{s.loc[t, 'cost_per_gpu_hour']:.2f}" for t in model.tiers]
    ['35.21', '26.53']
    >>> f"{s.loc['large', 'capex']:,.0f}"
    '22,051,765'
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> cheap = cm.build(a, overrides={"power.price_per_kwh": 0.5})
    >>> f"{cheap.summary().loc['small', 'npv']:,.0f}"
    '-880,620'
    """
    if assumptions is None or not isinstance(assumptions, Assumptions):
        paths = (
            []
            if assumptions is None
            else [assumptions]
            if isinstance(assumptions, str | PathLike)
            else list(assumptions)
        )
        return Model(load_assumptions(*paths, overrides=overrides, strict=strict))
    if overrides:
        assumptions = with_overrides(assumptions, overrides, strict=strict)
    return Model(assumptions)


#: the results every document is built from (label -> metric)
BASE_RESULTS = {"capex": "capex", "TCO": "tco", "NPV": "npv"}


def nonfinite_results(model: Model) -> list[Problem]:
    """Problems (:class:`~costmodel.inputs.errors.Problem`) for tiers whose capex,
    TCO or NPV is not a finite number: inputs the schema accepts (finite, in range)
    but too large to compute with, e.g. a server price of 1e308 (capex = servers x
    price overflows). Each names the largest input of such tiers (the likely
    cause), where it is set, and the tiers and results affected."""
    a = model.assumptions
    hit: dict[str, tuple[float, list[str], list[str]]] = {}  # path -> value, tiers, results
    for t in model.tiers:
        metrics = model.results[t].metrics
        bad = [label for label, m in BASE_RESULTS.items() if not np.all(np.isfinite(metrics[m]))]
        if not bad:
            continue
        path, value = largest_input(model, t)
        _, tiers, results = hit.setdefault(path, (value, [], []))
        tiers.append(t)
        results += [r for r in bad if r not in results]
    return too_large(a, hit)


def too_large(a: Assumptions, hit: dict[str, tuple[float, list[str], list[str]]]) -> list[Problem]:
    """One problem per input (dotted path -> its value, the tiers and the results
    that are not finite): ``too large to compute with``, at the line that sets it."""
    out = []
    for path, (value, tiers, results) in hit.items():
        where = a._source.where(f"{path}.value") if a._source is not None else "assumptions"
        names = _joined([repr(t) for t in tiers])
        verb = "are not finite numbers" if len(results) > 1 else "is not a finite number"
        rule = (
            f"too large to compute with: the {_joined(results)} of tier{'s' * (len(tiers) > 1)} "
            f"{names} {verb} (this is the largest input there)"
        )
        out.append(Problem(where, path, f"{value:g}", rule))
    return out


def largest_input(model: Model, tier: str) -> tuple[str, float]:
    """The dotted path and value of ``tier``'s largest input in magnitude: the
    likely cause of a result too large to compute."""
    values, paths = model.inputs[tier].values(), model.inputs[tier].paths()
    key = max(values, key=lambda k: float(np.max(np.abs(values[k]))))
    return paths[key], float(values[key])


def require_finite(model: Model) -> None:
    """Raise :class:`~costmodel.inputs.errors.AssumptionError` with the problems of
    :func:`nonfinite_results`, if any: the writers' guard (a document whose base
    results are not finite numbers would be blanks, or a workbook Excel repairs)."""
    if problems := nonfinite_results(model):
        raise AssumptionError(problems)


def _joined(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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
