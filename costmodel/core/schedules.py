"""What the writers show beside the totals, from the engine's own definitions:
each capex event with its depreciation, each loan, the loss vintages and each
deployment's hours and revenue (methodology §8).

The workbook writes these as the cached values of its formulas; it computes
none of them itself. Arrays are per variant: (S,) or (S, M+1), a loan's lines
(R, M+1) for the R variants that draw it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core import finance as fin
from costmodel.core.config import TierConfig
from costmodel.core.debt import Loan, loan_rate, loans
from costmodel.core.depreciation import event_depreciation
from costmodel.core.finance import FloatArray
from costmodel.core.lines import Coefficients, monthly_line
from costmodel.core.tax import market_value, tax_rows
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import CapexEvent, Clock
from costmodel.core.units import MONTHS_PER_YEAR


@dataclass(frozen=True)
class EventSchedule:
    """A capex event: asset class, the deployment it belongs to, the month it is
    paid (S,), its cost (S,), the month from which it is in service (S,), its
    book depreciation month by month (S, M+1) and its market value at M (S,)."""

    cls: str
    deployment: int
    month: FloatArray
    cost: FloatArray
    in_service: FloatArray
    depreciation: FloatArray
    market_value: FloatArray

    @property
    def net_book_value(self) -> FloatArray:
        """(S,): cost less the depreciation to month M."""
        return self.cost - self.depreciation.sum(axis=1)


@dataclass(frozen=True)
class DeploymentSchedule:
    """A deployment's capacity in service (flag), utilization, GPU-hours sold and
    revenue, and of those the contracted hours and revenue (methodology §11.5),
    month by month (S, M+1)."""

    in_service: FloatArray
    utilization: FloatArray
    gpu_hours: FloatArray
    revenue: FloatArray
    contract_hours: FloatArray | None = None
    contract_revenue: FloatArray | None = None


@dataclass(frozen=True)
class LossVintages:
    """The loss pool by the year a loss arose (vintage v = 1..Y), month by month
    (S, Y, M+1): ``used`` and ``expired`` at each year end, ``balance`` what is
    left of the vintage after the last year end at or before the month."""

    used: FloatArray
    expired: FloatArray
    balance: FloatArray


@dataclass(frozen=True)
class TierSchedules:
    """Everything of :mod:`costmodel.core.schedules` for one tier."""

    events: list[EventSchedule]
    deployments: list[DeploymentSchedule]
    loans: list[Loan]
    vintages: LossVintages
    levered_vintages: LossVintages
    #: monthly rates (S,): of the loans (and ``(1 + r)^n`` over their term), the
    #: discount rate and the cost of equity
    rates: dict[str, FloatArray]


@dataclass(frozen=True)
class TierParts:
    """What a monthly run computed that its schedules are made from."""

    q: TierParams
    config: TierConfig
    clock: Clock
    deps: list[dict[str, FloatArray]]
    events: list[CapexEvent]
    coefficients: dict[str, Coefficients]
    shapes: list[FloatArray]
    utilization: list[FloatArray]
    capex: FloatArray | None = None
    taxable: FloatArray | None = None  # (S, Y), unlevered and levered
    taxable_levered: FloatArray | None = None


def event_of(events: list[CapexEvent]) -> list[int]:
    """The deployment of each capex event, in the engine's order (the hall first,
    then each deployment's hardware and, after the first, its facility)."""
    out, d = [], -1
    for e in events:
        if e.cls == "servers":
            d += 1
        out.append(max(d, 0))
    return out


def tier_schedules(p: TierParts) -> TierSchedules:
    """The :class:`TierSchedules` of a monthly run's parts."""
    clock, q = p.clock, p.q
    size = p.capex.shape[0]
    full = (size,)
    events = [
        EventSchedule(
            e.cls,
            d,
            np.broadcast_to(e.month, full),
            np.broadcast_to(e.amount, full),
            np.broadcast_to(e.in_service, full),
            np.broadcast_to(event_depreciation(q, e, p.config, clock), (size, clock.months + 1)),
            np.broadcast_to(market_value(q, e, clock.months), full),
        )
        for e, d in zip(p.events, event_of(p.events), strict=True)
    ]
    n = len(p.deps)
    deployments = []
    years = (len(p.shapes) - 4 * n) // n if len(p.shapes) > 3 * n else 0
    for i in range(n):
        # the shapes of deployment i: ramp share, ramp share in contract, contract years
        own = {n + i, 3 * n + i, *range(4 * n + years * i, 4 * n + years * (i + 1))}

        def line(name: str, own: set[int] = own) -> FloatArray:
            c = {k: v for k, v in p.coefficients[name].items() if k in own}
            return np.broadcast_to(monthly_line(c, p.shapes, clock), (size, clock.months + 1))

        deployments.append(
            DeploymentSchedule(
                np.broadcast_to(p.shapes[i], (size, clock.months + 1)),
                np.broadcast_to(p.utilization[i], (size, clock.months + 1)),
                line("gpu_hours"),
                line("revenue"),
                line("contract_hours"),
                line("contract_revenue"),
            )
        )
    width = clock.months + 1
    carry = p.config.loss_carryforward_years
    build = p.deps[0]["month"]
    return TierSchedules(
        events=events,
        deployments=deployments,
        loans=loans(q, np.broadcast_to(p.capex, (size, width)), build, clock, True),
        vintages=loss_vintages(p.taxable, q.tax_rate, carry, clock),
        levered_vintages=loss_vintages(p.taxable_levered, q.tax_rate, carry, clock),
        rates={
            "interest": loan_rate(q),
            "interest_term_growth": np.power(1.0 + loan_rate(q), q.term_years * MONTHS_PER_YEAR),
            "discount": fin.monthly_rate(q.discount_rate),
            "cost_of_equity": fin.monthly_rate(q.cost_of_equity),
        },
    )


def loss_vintages(
    taxable_y: FloatArray, tax_rate: ArrayLike, carry: int | None, clock: Clock
) -> LossVintages:
    """The loss vintages of the yearly results ``taxable_y`` (S, Y)
    (:func:`costmodel.core.tax.tax_rows`), placed at the months: used and expired
    at the year ends, the balance held from one year end to the next."""
    rows = tax_rows(np.asarray(taxable_y, dtype=float).T, tax_rate, carry, vintages=True)
    size, width = taxable_y.shape[0], clock.months + 1
    ends = np.arange(MONTHS_PER_YEAR, width, MONTHS_PER_YEAR)

    def at_year_ends(x: FloatArray) -> FloatArray:  # (Y, V, S) -> (S, V, M+1)
        out = np.zeros((size, x.shape[1], width))
        out[:, :, ends] = x.transpose(2, 1, 0)
        return out

    held = np.arange(width) // MONTHS_PER_YEAR  # year ends at or before m (0: none)
    balance = rows["vintage_balance"].transpose(2, 1, 0)  # (S, V, Y)
    balance = np.concatenate([np.zeros(balance.shape[:2] + (1,)), balance], axis=2)
    return LossVintages(
        used=at_year_ends(rows["vintage_used"]),
        expired=at_year_ends(rows["vintage_expired"]),
        balance=balance[:, :, held],
    )
