"""The rows of a tier that follow its deployments month by month (methodology
§8.1, §11.5, §11.13, §24), as the tier sheet shows them: each deployment's
contract window, share, price and load factor; what is in service (kW, GPUs,
hardware and facility, the kW drawn, the headcount); the GPU-hours available and
those a contract takes from spot; the metered kWh and each subsidy's cash; the
monthly result for tax; the VAT claimed each month.

:class:`DeploymentRows` is a part of :class:`~costmodel.core.intermediate.Intermediate`
(``Model.rows(tier)``); every row is of the first variant (S = 1), months 0..M,
computed when first read.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core.finance import FloatArray
from costmodel.core.siteprices import rolled
from costmodel.core.units import HOURS_PER_MONTH, MONTHS_PER_YEAR


def frozen(x: Any) -> FloatArray:
    """``x`` as a float array nobody can change (a reader shares it)."""
    a = np.array(x, dtype=float)
    a.flags.writeable = False
    return a


def first(x: Any) -> float:
    """The first variant's value of an engine array, as a float."""
    return float(np.asarray(x).reshape(-1)[0])


def price_factor(q: Any) -> float:
    """The site's factor on the GPU-hour prices (methodology §29): 1 without one."""
    return 1.0 if q.price_factor is None else first(q.price_factor)


class DeploymentRows:
    """The deployment rows of :class:`~costmodel.core.intermediate.Intermediate`
    (see the module docstring); it reads the tier's ``result``, ``params`` (its
    engine inputs), ``config`` and ``months``."""

    result: Any
    params: Any
    config: Any
    months: int

    # ------------------------------------------------------------ per deployment

    @cached_property
    def _m(self) -> FloatArray:
        return np.arange(self.months + 1)

    @cached_property
    def deployment_months(self) -> list[float]:
        """Each deployment's capex month ``t_d``."""
        return [first(d["month"]) for d in self.result.deployments]

    @cached_property
    def in_service_flags(self) -> list[FloatArray]:
        """Each deployment's in-service flag ``[m > t_d]`` (the engine's shape)."""
        return [d.in_service[0] for d in self.result.schedules.deployments]

    @cached_property
    def utilization_rows(self) -> list[FloatArray]:
        """Each deployment's ramped utilization ``u_d(m) = util x min(1, max(0, (m -
        t_d) / R))`` (the engine's)."""
        return [d.utilization[0] for d in self.result.schedules.deployments]

    @cached_property
    def facility_costs(self) -> list[float]:
        """The facility event of each deployment: the hall (deployment 0) and each
        stage's extension, in the engine's order."""
        return [first(e.cost) for e in self.result.schedules.events if e.cls == "facility"]

    def contract(self, i: int) -> dict[str, FloatArray]:
        """Deployment ``i``'s contract rows (methodology §11.5, §11.12), with ``t``
        its capex month, c the contract's months, r its default rate:

        - ``window`` ``[t < m <= t + c]``;
        - ``share`` sold take-or-pay ``s(m) = share x window x (1 - r)^((m - t - 1) / 12)``;
        - ``price`` of its contract year ``window x price x factor x (1 +
          escalation)^floor((m - t - 1) / 12)``, or in mode ``avoided_cloud`` the
          GPU-hour's value x the site's price factor x the spot price index;
        - ``load`` the load factor of the power drawn ``s(m) + (1 - s(m)) u(m)``."""
        return self._contracts[i]

    @cached_property
    def _contracts(self) -> list[dict[str, FloatArray]]:
        q, m = self.params, self._m
        share, months = first(q.contract_share), first(q.contract_months)
        # each quote rolled to the start (methodology §30), as the sheet's rows read it
        price = first(rolled(q, "contract_price_per_gpu_hour"))
        esc = first(q.contract_escalation)
        rate = first(q.contract_default_rate)
        factor = price_factor(q)  # the site's (methodology §29)
        price = price * factor
        index = np.asarray(self.result.flows["price_index"][0])
        hour_value = first(rolled(q, "price_per_gpu_hour")) * factor * index
        at_hour_value = first(q.contract_at_hour_value)
        out = []
        for t, util in zip(self.deployment_months, self.utilization_rows, strict=True):
            on = ((m > t) & (m <= t + months)).astype(float)
            year = np.floor(np.maximum(0, m - t - 1) / MONTHS_PER_YEAR)
            since = np.maximum(0, m - t - 1) / MONTHS_PER_YEAR
            s = share * on * (m > t) * (1.0 - rate) ** since
            p = on * (hour_value if at_hour_value else price * (1 + esc) ** year)
            rows = {"window": on, "share": s, "price": p, "load": s + (1 - s) * util}
            out.append({k: frozen(v) for k, v in rows.items()})
        return out

    # ------------------------------------------------------------ in service

    def _over_deployments(self, field: str, row: list[FloatArray]) -> FloatArray:
        """``sum_d field_d x row_d(m)``."""
        deps = self.result.deployments
        return sum(first(deps[i][field]) * row[i] for i in range(len(deps)))

    @cached_property
    def in_service(self) -> dict[str, FloatArray]:
        """What is in service each month (methodology §8.1, §11.5), sums over the
        deployments d: ``kw_on`` ``sum IT kW_d x on_d``, ``kw_used`` ``sum IT kW_d x
        load_d``, ``gpus_on`` ``sum GPUs_d x on_d``, ``gpus_sold`` ``sum GPUs_d x
        u_d``, ``hw_on`` ``sum hardware_d x on_d``, ``fac_on`` ``sum facility_d x
        on_d``, and ``kw_drawn`` ``sum (idle x on_d + (1 - idle) x load_d) x IT kW_d``."""
        on, k = self.in_service_flags, range(len(self.result.deployments))
        load = [self.contract(i)["load"] for i in k]
        fac = self.facility_costs
        deps, idle = self.result.deployments, first(self.params.idle_fraction)
        rows = {
            "kw_on": self._over_deployments("it_kw", on),
            "kw_used": self._over_deployments("it_kw", load),
            "gpus_on": self._over_deployments("gpus", on),
            "gpus_sold": self._over_deployments("gpus", self.utilization_rows),
            "hw_on": self._over_deployments("hardware", on),
            "fac_on": sum(fac[i] * on[i] for i in k),
            "kw_drawn": sum(
                (idle * on[i] + (1 - idle) * load[i]) * first(deps[i]["it_kw"]) for i in k
            ),
        }
        return {key: frozen(v) for key, v in rows.items()}

    @cached_property
    def headcount(self) -> list[FloatArray]:
        """The headcount as each deployment's team joins: entry 0 the first team
        from month 1, entry d the team of deployment d from its in-service month,
        else entry d - 1 (the last entry is the tier's headcount)."""
        deps, on = self.result.deployments, self.in_service_flags
        fte = first(deps[0]["staff_fte"]) * (self._m >= 1).astype(float)
        out = [frozen(fte)]
        for i in range(1, len(deps)):
            fte = np.where(on[i] > 0, first(deps[i]["staff_fte"]), fte)
            out.append(frozen(fte))
        return out

    @cached_property
    def gpus_so_far(self) -> list[float]:
        """Each deployment's cumulative GPUs: ``sum_{j <= d} GPUs_j``."""
        deps = self.result.deployments
        return [first(sum(deps[j]["gpus"] for j in range(i + 1))) for i in range(len(deps))]

    @cached_property
    def capex_by_deployment(self) -> list[float]:
        """Each deployment's capex: its hardware + its facility event."""
        return [
            first(d["hardware"] + c)
            for d, c in zip(self.result.deployments, self.facility_costs, strict=True)
        ]

    @cached_property
    def market_value_total(self) -> float:
        """The market value at M of every capex event, summed (methodology §3.5)."""
        return sum(first(e.market_value) for e in self.result.schedules.events)

    # ------------------------------------------------------------ hours

    @cached_property
    def _hours(self) -> float:
        """Availability x hours of a month."""
        return first(self.result.metrics["availability"]) * HOURS_PER_MONTH

    @cached_property
    def hours_available(self) -> FloatArray:
        """GPU-hours available: ``sum_d GPUs_d x on_d x availability x H``."""
        return frozen(self._over_deployments("gpus", self.in_service_flags) * self._hours)

    @cached_property
    def contract_displaced(self) -> FloatArray:
        """The ramped GPU-hours a contract takes from spot: ``sum_d GPUs_d x u_d x
        s_d x availability x H`` (methodology §11.5)."""
        deps, u = self.result.deployments, self.utilization_rows
        taken = sum(first(d["gpus"]) * u[i] * self.contract(i)["share"] for i, d in enumerate(deps))
        return frozen(taken * self._hours)

    @cached_property
    def contract_revenue_raw(self) -> float:
        """The contract revenue without default (methodology §11.12): ``sum_d GPUs_d x
        sum_m price_d(m) x share x availability x H``."""
        deps = self.result.deployments
        value = sum(
            first(d["gpus"]) * float(np.sum(self.contract(i)["price"])) for i, d in enumerate(deps)
        )
        share, availability = first(self.params.contract_share), self.result.metrics
        return value * share * first(availability["availability"]) * HOURS_PER_MONTH

    @cached_property
    def ramped_gpu_hours(self) -> float:
        """The ramped GPU-hours over the horizon (spot + what a contract takes from
        spot, methodology §11.5): ``sum_d GPUs_d x sum_m u_d(m) x availability x H``."""
        ramped = sum(
            first(d["gpus"]) * float(u.sum())
            for d, u in zip(self.result.deployments, self.utilization_rows, strict=True)
        )
        return ramped * first(self.result.metrics["availability"]) * HOURS_PER_MONTH

    # ------------------------------------------------------------ subsidies

    @cached_property
    def metered_kwh(self) -> FloatArray:
        """The metered kWh of each month: the kW drawn x PUE x hours."""
        return frozen(self.in_service["kw_drawn"] * first(self.params.pue) * HOURS_PER_MONTH)

    def subsidy(self, sub: Any) -> dict[str, FloatArray]:
        """One subsidy's cash month by month (methodology §11.13), ``paid``: a power
        rebate ``per kWh x metered kWh``, a voucher ``share x revenue``, both in model
        years 1..years; a capex grant's rows of :meth:`grant` (its base, due amounts
        and running total besides)."""
        year = -(-self._m // MONTHS_PER_YEAR)
        within = (year <= (sub.years or 0)) * (self._m >= 1).astype(float)
        if sub.kind == "power_rebate":
            return {"paid": frozen(float(sub.per_kwh or 0) * self.metered_kwh * within)}
        if sub.kind == "voucher":
            revenue = self.result.flows["revenue"][0]
            return {"paid": frozen(float(sub.share_of_revenue or 0) * revenue * within)}
        return self.grant(sub)  # type: ignore[attr-defined]

    @cached_property
    def subsidies_taxable(self) -> FloatArray | None:
        """The taxable subsidies month by month: ``sum_j paid_j x taxable_j``; None
        for a tier without subsidies."""
        subs = tuple(self.config.subsidies or ())
        if not subs:
            return None
        taxable = np.zeros(self.months + 1)
        for sub in subs:
            taxable = taxable + self.subsidy(sub)["paid"] * float(sub.taxable)
        return frozen(taxable)

    # ------------------------------------------------------------ tax and VAT

    @cached_property
    def tax_depreciation(self) -> FloatArray:
        """Tax depreciation of every class, month by month (methodology §11.7)."""
        f = self.result.flows
        return frozen(sum(f[f"tax_depreciation_{c}"][0] for c in CAPEX_CLASSES))

    @cached_property
    def tax_book_value(self) -> float:
        """The tax book value at M: ``sum capex - sum tax depreciation``."""
        return float(self.result.flows["capex"][0].sum()) - float(self.tax_depreciation.sum())

    @cached_property
    def terminal_gain(self) -> float:
        """The terminal gain taxed at M (methodology §11.9): the market or income
        value at M less :attr:`tax_book_value`; 0 for the other terminal values."""
        if self.config.terminal_value not in ("market", "income"):
            return 0.0
        return float(self.result.flows["terminal_value"][0][-1]) - self.tax_book_value

    @cached_property
    def taxable_result(self) -> FloatArray:
        """The monthly result for tax (methodology §11.6, §11.13): ``revenue - opex -
        tax depreciation - VAT surtax`` (+ the taxable subsidies)."""
        f = self.result.flows
        out = f["revenue"][0] - f["opex"][0] - self.tax_depreciation - self.result.vat["surtax"][0]
        if self.subsidies_taxable is not None:
            out = out + self.subsidies_taxable
        return frozen(out)

    @cached_property
    def vat_claim(self) -> FloatArray:
        """The VAT refund claimed each month on last month's closing credit
        (methodology §11.11): ``ratio x credit_open`` with monthly refunds, else 0."""
        given = self.params.vat_refund_ratio
        ratio = (1.0 if given is None else first(given)) if self.config.vat_refund_monthly else 0.0
        return frozen(self.result.vat["credit_open"][0] * ratio)
