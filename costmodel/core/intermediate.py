"""The intermediate rows a writer shows beside a tier's totals (methodology §8),
each defined here once and computed when first read: cumulative sums, sums per
model year, present values, the payback flags, each capex event's asset year,
salvage and annual depreciation, each class's net book value, the running count
of capex months (the loans), the loss vintages' eligible sums, a capex grant's
running total and the sign of the NPV beside each IRR.

:meth:`costmodel.inputs.model.Model.rows` gives one :class:`Intermediate` per tier,
made once. Every row is of the first variant (S = 1, the model's own), months
0..M or model years 0..Y; the arrays are read-only, shared by every reader.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core import finance as fin
from costmodel.core.calendar import year_sums
from costmodel.core.closedforms import ClosedForms
from costmodel.core.config import Subsidy, TierConfig
from costmodel.core.deploymentrows import DeploymentRows, first, frozen
from costmodel.core.finance import FloatArray
from costmodel.core.result import TierResult
from costmodel.core.tierparams import TierParams
from costmodel.core.units import MONTHS_PER_YEAR


class Intermediate(DeploymentRows, ClosedForms):
    """The rows of one tier that the workbook and the memo show between the
    engine's lines and the summary (see the module docstring), with the rows
    that follow its deployments (:class:`~costmodel.core.deploymentrows.DeploymentRows`)
    and the totals over the horizon with their second routes
    (:class:`~costmodel.core.closedforms.ClosedForms`).

    ``result``: the tier's :class:`~costmodel.core.result.TierResult`; ``params``:
    its engine inputs; ``config``: its structural choices."""

    def __init__(self, result: TierResult, params: TierParams, config: TierConfig):
        self.result = result
        self.params = params
        self.config = config
        self.months = int(result.months)
        self._annual: dict[str, FloatArray] = {}
        self._events: dict[int, dict[str, Any]] = {}
        self._book: dict[str, dict[str, FloatArray]] = {}
        self._pools: dict[tuple[str, str], dict[str, FloatArray]] = {}

    # ------------------------------------------------------------ the clock

    @cached_property
    def month(self) -> FloatArray:
        """Months 0..M."""
        return frozen(np.arange(self.months + 1))

    @cached_property
    def model_year(self) -> FloatArray:
        """The model year of each month, ``ceil(m / 12)`` (0 for month 0)."""
        return frozen(-(-np.arange(self.months + 1) // MONTHS_PER_YEAR))

    def line(self, name: str) -> FloatArray:
        """The monthly line ``name`` (months 0..M): a debt line (``draw``,
        ``interest``, ``principal``, ``balloon``), an opex line, else a cash-flow
        line of the results."""
        r = self.result
        for source in (r.debt, r.opex, r.flows):
            if name in source:
                return np.asarray(source[name])[0]
        raise KeyError(f"no monthly line {name!r}")

    # ------------------------------------------------------------ sums per year

    def annual_sums(self, name: str) -> FloatArray:
        """Line ``name`` (:meth:`line`) summed per model year: year 0 is month 0
        (the investment month), year y the months 12(y-1)+1 .. 12y
        (:func:`~costmodel.core.calendar.year_sums`); length Y + 1."""
        if name not in self._annual:
            values = self.line(name)
            self._annual[name] = frozen(np.concatenate([values[:1], year_sums(values)]))
        return self._annual[name]

    def at_year_ends(self, annual: Any) -> FloatArray:
        """Values of model years 1..Y placed at each year's last month (12, 24,
        ...) of months 0..M, 0 elsewhere."""
        out = np.zeros(self.months + 1)
        out[MONTHS_PER_YEAR::MONTHS_PER_YEAR] = annual
        return frozen(out)

    # ------------------------------------------------------------ cash and payback

    @cached_property
    def cumulative_fcf(self) -> FloatArray:
        """``sum_{s<=m} FCF_s``, months 0..M (``Model.cash_flow(t).cumulative_fcf``)."""
        return frozen(np.cumsum(self.line("fcf")))

    @cached_property
    def cumulative_cash(self) -> FloatArray:
        """The cumulative cash without the terminal value and its tax (methodology
        §8.4): ``sum_{s<=m} (FCF_s - TV_s + terminal tax_s)``."""
        f = self.result.flows
        fcf = np.asarray(f["fcf"])[0]
        return frozen(np.cumsum(fcf - f["terminal_value"][0] + f["terminal_tax"][0]))

    @cached_property
    def paid_back(self) -> FloatArray:
        """1 in an operating month m from which :attr:`cumulative_cash` stays >= 0
        through month M (methodology §8.4, choice 8), else 0."""
        cash = self.cumulative_cash
        return frozen([float(m >= 1 and bool(np.all(cash[m:] >= 0))) for m in range(len(cash))])

    @cached_property
    def payback_flag(self) -> FloatArray:
        """1 in the payback month (the first of :attr:`paid_back`'s run), else 0."""
        stays = self.paid_back
        return frozen(stays - np.concatenate([[0.0], stays[:-1]]))

    @cached_property
    def discounted_fcf(self) -> FloatArray:
        """``FCF_m x DF_m``, months 0..M (the NPV is their sum)."""
        f = self.result.flows
        return frozen(np.asarray(f["fcf"])[0] * f["discount_factor"][0])

    @cached_property
    def pv_cost(self) -> float:
        """``sum_m (capex_m + opex_m) x DF_m``: the numerator of the cost per GPU-hour."""
        f = self.result.flows
        return float(np.sum((f["opex"][0] + f["capex"][0]) * f["discount_factor"][0]))

    @cached_property
    def pv_gpu_hours(self) -> float:
        """``sum_m GPU-hours_m x DF_m``."""
        f = self.result.flows
        return float(np.sum(f["gpu_hours"][0] * f["discount_factor"][0]))

    @cached_property
    def pv_pflop_hours(self) -> float:
        """Discounted PFLOP-hours: ``PV(GPU-h) x goodput x MFU x TFLOPS / 1000``."""
        goodput = first(self.result.metrics["goodput"])
        q = self.params
        return self.pv_gpu_hours * goodput * q.mfu * q.tflops_bf16 / 1000

    def irr_sign_below(self, metric: str) -> float:
        """The sign of the NPV of the free (``metric="irr"``) or the equity cash
        flow (``"equity_irr"``) at the IRR's monthly rate less 1e-6: +1 where NPV
        falls through 0 at the root (methodology §11.2); 0 without an IRR."""
        annual = first(self.result.metrics[metric])
        if annual != annual:  # no IRR
            return 0.0
        flow = np.asarray(self.result.flows["fcf" if metric == "irr" else "ecf"])[0]
        below_root = fin.monthly_rate(annual) - 1e-6
        return float(np.sign(fin.npv_at_monthly_rates(flow, [below_root])[0]))

    # ------------------------------------------------------------ capex and debt

    @cached_property
    def capex_count(self) -> FloatArray:
        """The running count of capex months (a loan is drawn in each, methodology §8.2)."""
        return frozen(np.cumsum(self.result.flows["capex"][0] > 0).astype(float))

    def event(self, j: int) -> dict[str, Any]:
        """Capex event ``j`` (in the engine's order) on the depreciation rows of
        methodology §3.3: ``asset_year`` ``k = floor((m - in-service month) / 12) +
        1``, ``asset_year_clipped`` ``min(max(k, 1), life)``, ``salvage`` ``cost x
        salvage fraction``, ``annual`` the annual depreciation of its method in
        asset year k while ``1 <= k <= life`` (0 elsewhere; its monthly charge is
        a twelfth of it)."""
        if j not in self._events:
            e = self.result.schedules.events[j]
            life = self.config.depreciation_life_years[e.cls]
            method = self.config.depreciation_method[e.cls]
            salvage = self.params.salvage[e.cls]
            k = np.floor((np.arange(self.months + 1) - first(e.in_service)) / 12) + 1
            kc = np.clip(k, 1, life)
            annual = fin.depreciation_annual(first(e.cost), salvage, method, life)[0]
            on = (k >= 1) & (k <= life)
            self._events[j] = {
                "asset_year": frozen(k),
                "asset_year_clipped": frozen(kc),
                "salvage": first(e.cost) * salvage,
                "annual": frozen(annual[kc.astype(int) - 1] * on),
            }
        return self._events[j]

    def event_over_horizon(self, j: int) -> dict[str, float]:
        """Capex event ``j``'s depreciation over the horizon in closed form (the
        Checks sheet's second route to the totals, methodology §3.3): ``years``
        ``y = min(max(0, (M - t) / 12), life)`` in service (t the event's capex
        month, the first deployment's for the hall), ``whole`` ``f = floor(y)``,
        and of each accelerated method the first f years' annual depreciation plus
        year f + 1's times ``y - f`` (``sum_of_years``, ``double_declining``)."""
        e = self.result.schedules.events[j]
        life = self.config.depreciation_life_years[e.cls]
        month = e.month if j else self.result.deployments[0]["month"]
        y = max(0.0, min((self.months - first(month)) / 12, life))
        f = float(np.floor(y))
        salvage = self.params.salvage[e.cls]
        out = {"years": y, "whole": f}
        for method in ("sum_of_years", "double_declining"):
            a = fin.depreciation_annual(first(e.cost), salvage, method, life)[0]
            out[method] = float(a[: int(f)].sum() + a[min(int(f), life - 1)] * (y - f))
        return out

    def book_value(self, cls: str) -> dict[str, FloatArray]:
        """Asset class ``cls``'s net book value corkscrew, months 0..M:
        ``close = sum_{s<=m} (additions_s - depreciation_s)``, ``open`` last
        month's close, and ``above_salvage`` ``close - salvage fraction x sum_{s<=m}
        additions_s`` (below 0: depreciated past the salvage of what was bought)."""
        if cls not in self._book:
            r = self.result
            added, dep = r.capex_months[cls][0], r.depreciation[cls][0]
            close = np.cumsum(added - dep)
            salvage = self.params.salvage[cls]
            self._book[cls] = {
                "open": frozen(np.concatenate([[0.0], close[:-1]])),
                "close": frozen(close),
                "above_salvage": frozen(close - np.cumsum(added) * salvage),
            }
        return self._book[cls]

    # ------------------------------------------------------------ tax losses

    def loss_eligible_sums(self, levered: bool) -> FloatArray:
        """(V, M+1): per loss vintage v (the model year it arose), the opening
        balances of vintages 1..v that may still be used in month m's year
        (``v < year <= v + N``, N the carry-forward years, the horizon when
        unlimited), summed over the vintages: what the losses used are taken
        from, oldest first (methodology §8.2)."""
        s = self.result.schedules
        rem = (s.levered_vintages if levered else s.vintages).balance[0]
        years = rem.shape[0]
        vintage = np.arange(1, years + 1)[:, None]
        carry = self.config.loss_carryforward_years
        n = float(self.months if carry is None else carry)
        year = self.model_year
        eligible = (year > vintage) & (year - vintage <= n)
        opening = np.concatenate([np.zeros((years, 1)), rem[:, :-1]], axis=1)
        return frozen(np.cumsum(opening * eligible, axis=0))

    def loss_pool(self, levered: bool) -> dict[str, FloatArray]:
        """The loss corkscrew of the unlevered or the levered tax (methodology §8.3,
        §11.9), months 0..M: ``base`` the taxable income of each model year at its
        last month, ``added`` ``max(-base, 0)``, ``used`` and ``expired`` the
        vintages' summed, ``close`` their balances summed, ``open`` last month's
        close and ``taxable`` the profit taxed ``max(base, 0) - used``."""
        key = ("levered", "taxable_income_levered") if levered else ("", "taxable_income")
        if key not in self._pools:
            s = self.result.schedules
            v = s.levered_vintages if levered else s.vintages
            base = self.at_year_ends(self.result.annual[key[1]][0])
            used, expired = v.used[0].sum(axis=0), v.expired[0].sum(axis=0)
            close = v.balance[0].sum(axis=0)
            self._pools[key] = {
                "base": base,
                "added": frozen(np.maximum(-base, 0.0)),
                "used": frozen(used),
                "expired": frozen(expired),
                "close": frozen(close),
                "open": frozen(np.concatenate([[0.0], close[:-1]])),
                "taxable": frozen(np.maximum(base, 0.0) - used),
            }
        return self._pools[key]

    # ------------------------------------------------------------ subsidies

    def grant(self, sub: Subsidy) -> dict[str, FloatArray]:
        """A capex grant (methodology §11.13) month by month: ``base`` the capex of
        its classes, ``due`` ``share x base`` lagged by its months, ``total`` the
        running sum of what is due and ``paid`` what of it falls under its cap
        ``min(total, cap) - min(total - due, cap)``."""
        months = self.months + 1
        classes = tuple(sub.classes or CAPEX_CLASSES)
        base = sum(np.asarray(self.result.capex_months[c][0], dtype=float) for c in classes)
        lag = int(sub.lag_months or 0)
        due = np.zeros(months)
        if lag < months:
            due[lag:] = float(sub.share or 0) * base[: months - lag]
        total = np.cumsum(due)
        cap = np.inf if sub.cap is None else float(sub.cap)
        paid = np.minimum(total, cap) - np.minimum(total - due, cap)
        return {
            "base": frozen(base),
            "due": frozen(due),
            "total": frozen(total),
            "paid": frozen(paid),
        }
