"""A tier's totals over the horizon, and the second routes to them that the
workbook's Checks sheet compares with the totals of its rows (methodology §8.5):
closed forms per deployment (months in service, ramped months sold), per capex
event (depreciation over the years in service), per subsidy and per contract, the
NPV by its definition, and the opex lines' closed forms of
:mod:`costmodel.catalogue.linechecks`.

Each second route is computed here by its own formula, not by summing the rows it
checks; ``tests/core/test_closed_forms.py`` holds the two routes equal on the
default, every bundled scenario and the examples. :class:`ClosedForms` is a part
of :class:`~costmodel.core.intermediate.Intermediate` (``Model.rows(tier)``); every
value is of the first variant (S = 1).
"""

from __future__ import annotations

from dataclasses import fields
from functools import cached_property
from typing import Any

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.catalogue.linechecks import CHECKS, ClosedForm
from costmodel.core.deploymentrows import first, frozen, price_factor
from costmodel.core.siteprices import rolled
from costmodel.core.units import HOURS_PER_MONTH, MONTHS_PER_YEAR


class ClosedForms:
    """The horizon totals and their second routes (see the module docstring)."""

    result: Any
    params: Any
    config: Any
    months: int

    # ------------------------------------------------------------ totals

    @cached_property
    def totals(self) -> dict[str, float]:
        """The tier's totals over the horizon, by name: every monthly line (cash
        flows, opex lines, debt lines) summed over months 0..M; ``dep_<class>`` the
        depreciation and ``capex_<class>`` the capex of each class; the loss pool's
        ``loss_added``, ``loss_used``, ``loss_expired`` summed over the years and
        ``loss_close = added - used - expired``; ``taxable_income`` over the years;
        ``levered_loss_close`` the levered loss pool at M; ``capex``, ``npv``,
        ``equity_npv`` and ``debt_peak`` of the summary; ``vat_<line>`` each VAT line
        (methodology §24); ``fcf_before_own_cash`` the FCF less its cash lines of
        their own ``fcf - vat_cash - subsidies``; ``repaid`` the debt's ``principal +
        balloon``; ``debt_service`` its ``interest + principal``; and
        ``ramped_hours``, the ramped GPU-hours (spot + what a contract takes from
        spot, methodology §11.5) ``sum_d GPUs_d x sum_m u_d(m) x availability x H``."""
        r = self.result
        v = {k: float(x[0].sum()) for k, x in (*r.flows.items(), *r.opex.items())}
        v |= {f"dep_{c}": float(r.depreciation[c][0].sum()) for c in CAPEX_CLASSES}
        v |= {f"capex_{c}": float(r.capex[c][0]) for c in CAPEX_CLASSES}
        v |= {k: float(r.annual[k][0].sum()) for k in ("loss_added", "loss_used", "loss_expired")}
        v |= {k: float(x[0].sum()) for k, x in r.debt.items()}
        v |= {k: float(r.metrics[k][0]) for k in ("equity_npv", "debt_peak")}
        v["capex"] = float(r.metrics["capex"][0])
        v["npv"] = float(r.metrics["npv"][0])
        v["loss_close"] = v["loss_added"] - v["loss_used"] - v["loss_expired"]
        v["taxable_income"] = float(r.annual["taxable_income"][0].sum())
        v["levered_loss_close"] = float(r.annual["levered_loss_close"][0][-1])
        v |= {f"vat_{k}": float(x[0].sum()) for k, x in r.vat.items()}
        v["fcf_before_own_cash"] = v["fcf"] - v["vat_cash"] - v["subsidies"]
        v["repaid"] = v["principal"] + v["balloon"]
        v["debt_service"] = v["interest"] + v["principal"]
        v["ramped_hours"] = self.ramped_gpu_hours  # type: ignore[attr-defined]
        return v

    def total_of(self, *lines: str) -> float:
        """``lines`` (names of :attr:`totals`) added up."""
        return sum(self.totals[k] for k in lines)

    # ------------------------------------------------------------ per deployment

    def service_months(self, i: int) -> dict[str, float]:
        """Deployment ``i``'s months in closed form (methodology §8.1): ``n = M -
        t`` in service, ``f = min(n, floor(R))`` whole ramp months within them and
        ``sold`` the months of full utilization they sell, ``f (f + 1) / 2R + n -
        f`` (n without a ramp, R <= 0)."""
        n = self.months - first(self.result.deployments[i]["month"])
        ramp = first(self.params.ramp_months)
        f = min(n, np.floor(ramp))
        sold = n if ramp <= 0 else f * (f + 1) / 2 / ramp + n - f
        return {"months": n, "whole_ramp": f, "sold": sold}

    @cached_property
    def closed_namespace(self) -> dict[str, Any]:
        """What the opex lines' closed forms (:mod:`costmodel.catalogue.linechecks`)
        read: the tier's inputs by name, the hours of a month, the rows of months
        1..M (``kw_on``, ``kw_used``, ``fte``, ``year``), each deployment's
        ``gpus``, ``kw``, ``hardware``, ``facility`` and ``months_in_service``, and
        the revenue over the horizon."""
        deps = self.result.deployments
        on = self.in_service  # type: ignore[attr-defined]
        return {
            **{
                f.name: first(v)
                for f in fields(self.params)
                if isinstance(v := getattr(self.params, f.name), (int, float, np.ndarray))
            },
            "hours": HOURS_PER_MONTH,
            "kw_on": on["kw_on"][1:],
            "kw_used": on["kw_used"][1:],
            "fte": self.headcount[-1][1:],  # type: ignore[attr-defined]
            "year": -(-np.arange(1, self.months + 1) // MONTHS_PER_YEAR),
            "gpus": [first(d["gpus"]) for d in deps],
            "kw": [first(d["it_kw"]) for d in deps],
            "hardware": [first(d["hardware"]) for d in deps],
            "facility": self.facility_costs,  # type: ignore[attr-defined]
            "months_in_service": [self.service_months(i)["months"] for i in range(len(deps))],
            "revenue_total": float(self.result.flows["revenue"][0].sum()),
        }

    def closed_form(self, form: ClosedForm) -> float:
        """The value of an opex line's closed form (:class:`ClosedForm`)."""
        return float(form.value(self.closed_namespace))

    def closed_form_per_deployment(self, form: ClosedForm, i: int) -> float:
        """The value of ``form``'s row of deployment ``i``."""
        assert form.per_deployment is not None
        return float(form.per_deployment.value(self.closed_namespace, i))

    # ------------------------------------------------------------ hours, revenue, NPV

    @cached_property
    def gpu_hours_closed(self) -> float:
        """The ramped GPU-hours in closed form: ``sum_d GPUs_d x sold_d x
        utilization x availability x H`` (:meth:`service_months`)."""
        deps = self.result.deployments
        months = sum(first(d["gpus"]) * self.service_months(i)["sold"] for i, d in enumerate(deps))
        availability = first(self.result.metrics["availability"])
        return months * first(self.params.utilization) * availability * HOURS_PER_MONTH

    @cached_property
    def spot_revenue_closed(self) -> float:
        """Spot revenue by the price index: ``price x factor x sum_m spot hours_m x
        (1 - decline [year > 1])^(year - 1)`` over months 1..M."""
        year = -(-np.arange(1, self.months + 1) // MONTHS_PER_YEAR)
        q = self.params
        index = (1 - first(q.price_decline) * (year > 1)) ** (year - 1)
        hours = self.result.flows["spot_hours"][0][1:]
        price = first(rolled(q, "price_per_gpu_hour")) * price_factor(q)
        return price * float(np.sum(hours * index))

    @cached_property
    def npv_closed(self) -> float:
        """The NPV by its definition: ``sum_m FCF_m (1 + r)^(-m / 12)``, r the
        tier's annual discount rate."""
        rate = first(self.result.metrics["discount_rate"])
        fcf = self.result.flows["fcf"][0]
        return float(np.sum(fcf * (1 + rate) ** (-np.arange(self.months + 1) / 12)))

    # ------------------------------------------------------------ depreciation

    def depreciation_closed(self, j: int) -> float:
        """Capex event ``j``'s depreciation over the horizon in closed form, by its
        class's method (methodology §3.3): straight line ``(cost - salvage) y /
        life``, else the accelerated method's value of
        :meth:`~costmodel.core.intermediate.Intermediate.event_over_horizon`."""
        e = self.result.schedules.events[j]
        part = self.event_over_horizon(j)  # type: ignore[attr-defined]
        method = self.config.depreciation_method[e.cls]
        if method in part:
            return part[method]
        life = self.config.depreciation_life_years[e.cls]
        cost = first(e.cost)
        return (cost - cost * first(self.params.salvage[e.cls])) * part["years"] / life

    def depreciation_closed_total(self, cls: str) -> float:
        """Class ``cls``'s depreciation over the horizon: the closed forms of its
        events, added."""
        events = self.result.schedules.events
        return sum(self.depreciation_closed(j) for j, e in enumerate(events) if e.cls == cls)

    # ------------------------------------------------------------ contract

    def contract_rebuilt(self, i: int) -> dict[str, Any]:
        """Deployment ``i``'s contract rebuilt from the inputs alone (methodology
        §11.5, §11.12): ``kept`` the window x survival ``[t < m <= t + months] (1 -
        rate)^(max(0, m - t - 1) / 12)`` and ``price``, ``price x factor x (1 +
        escalation)^floor(max(0, m - t - 1) / 12)`` or, in mode ``avoided_cloud``,
        the GPU-hour's value x factor x ``(1 - decline [year > 1])^(year - 1)``."""
        q, m = self.params, np.arange(self.months + 1)
        months, rate = first(q.contract_months), first(q.contract_default_rate)
        # each quote rolled to the start (methodology §30), as the sheet's rows read it
        price = first(rolled(q, "contract_price_per_gpu_hour"))
        esc = first(q.contract_escalation)
        factor = price_factor(q)  # the site's (methodology §29)
        price = price * factor
        year = -(-m // MONTHS_PER_YEAR)
        cloud = first(rolled(q, "price_per_gpu_hour")) * factor
        cloud = cloud * (1 - first(q.price_decline) * (year > 1)) ** (year - 1)
        t = first(self.result.deployments[i]["month"])
        since = np.maximum(0, m - t - 1)
        kept = ((m > t) & (m <= t + months)) * (1.0 - rate) ** (since / MONTHS_PER_YEAR)
        p = cloud if first(q.contract_at_hour_value) else price * (1 + esc) ** (since // 12)
        return {"kept": frozen(kept), "price": frozen(p)}

    @cached_property
    def contract_revenue_rebuilt(self) -> float:
        """The contract revenue over the horizon rebuilt: ``sum_d GPUs_d x sum_m
        kept_d(m) price_d(m) x share x availability x H`` (:meth:`contract_rebuilt`)."""
        deps = self.result.deployments
        total = 0.0
        for i, d in enumerate(deps):
            c = self.contract_rebuilt(i)
            total += first(d["gpus"]) * float(np.sum(c["kept"] * c["price"]))
        share = first(self.params.contract_share)
        return total * share * first(self.result.metrics["availability"]) * HOURS_PER_MONTH

    # ------------------------------------------------------------ subsidies

    def subsidy_closed(self, sub: Any) -> float:
        """A subsidy's cash over the horizon in closed form (methodology §11.13): a
        grant ``min(cap, share x capex of its classes paid by M - lag)``; a rebate
        ``per kWh x PUE x H x sum of the kW drawn`` in its years; a voucher ``share x
        revenue`` of its years."""
        m = np.arange(self.months + 1)
        year = -(-m // MONTHS_PER_YEAR)
        if sub.kind == "capex_grant":
            base = self.grant(sub)["base"]  # type: ignore[attr-defined]
            due = float(sub.share or 0) * float(
                np.sum(base * (m <= self.months - (sub.lag_months or 0)))
            )
            return due if sub.cap is None else min(float(sub.cap), due)
        years = (year <= (sub.years or 0)) * (m >= 1)
        if sub.kind == "power_rebate":
            drawn = self.in_service["kw_drawn"]  # type: ignore[attr-defined]
            rate = float(sub.per_kwh or 0) * first(self.params.pue) * HOURS_PER_MONTH
            return rate * float(np.sum(drawn * years))
        return float(sub.share_of_revenue or 0) * float(
            np.sum(self.result.flows["revenue"][0] * years)
        )

    # ------------------------------------------------------------ debt

    def loan_paid_within(self, j: int) -> float:
        """Loan ``j``'s level payments made within the horizon (methodology §8.2), the
        loan table's side of interest + principal paid: ``payment x min(n, max(0, M -
        p + 1))`` with n the term in months and p its first payment's month; 0 for a
        slot beyond the capex months (no loan)."""
        loans = self.result.schedules.loans
        if j >= len(loans):
            return 0.0
        loan = loans[j]
        n = float(MONTHS_PER_YEAR * first(self.params.term_years))
        made = min(n, max(0.0, self.months - float(loan.first_payment[0]) + 1))
        return float(loan.payment[0]) * made

    # ------------------------------------------------------------ the Checks sheet

    @cached_property
    def opex_checks(self) -> list[tuple[ClosedForm, float, float]]:
        """Each opex check of :data:`~costmodel.catalogue.linechecks.CHECKS` with the
        total of its lines and its closed form's value."""
        return [(c, self.total_of(*c.lines), self.closed_form(c)) for c in CHECKS]
