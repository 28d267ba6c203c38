"""Subsidies (methodology §11.13): capex grants, power rebates and compute
vouchers as a cash line of their own, month by month, and the taxable part of it
by model year. A tier with subsidies is evaluated month by month
(:func:`costmodel.core.engine.run_tier`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES, item_of_input
from costmodel.core.calendar import year_sums
from costmodel.core.config import Subsidy
from costmodel.core.finance import FloatArray
from costmodel.core.lines import monthly_line, operating_coefficients
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import Clock
from costmodel.core.units import MONTHS_PER_YEAR


def subsidy_lines(
    subsidies: tuple[Subsidy, ...],
    capex_months: Mapping[str, FloatArray],
    revenue: FloatArray,
    kwh: Callable[[], FloatArray],
    clock: Clock,
) -> dict[str, FloatArray]:
    """The subsidy cash (S, M+1) and its taxable part by model year (S, Y):

    - ``capex_grant``: ``share * capex_{c,t}`` of its classes (every class without
      ``classes``) paid at ``t + lag_months``; the running total of its payments,
      in payment order, capped at ``cap``; a payment after M is not received;
    - ``power_rebate``: ``per_kwh * kWh_m`` (metered kWh, PUE included: ``kwh()``)
      in model years 1..``years``;
    - ``voucher``: ``share_of_revenue * revenue_m`` in model years 1..``years``.

    ``taxable`` subsidies are income of the model year of their month (month 0:
    year 1)."""
    size = revenue.shape[0]
    cash = np.zeros((size, clock.months + 1))
    taxable = np.zeros_like(cash)
    for s in subsidies:
        line = np.broadcast_to(_one(s, capex_months, revenue, kwh, clock), cash.shape)
        cash = cash + line
        if s.taxable:
            taxable = taxable + line
    taxable_y = year_sums(taxable)
    taxable_y[:, 0] += taxable[:, 0]
    return {"subsidies": cash, "subsidies_taxable_y": taxable_y}


def _one(
    s: Subsidy,
    capex_months: Mapping[str, FloatArray],
    revenue: FloatArray,
    kwh: Callable[[], FloatArray],
    clock: Clock,
) -> FloatArray:
    """The cash of one subsidy month by month (see :func:`subsidy_lines`)."""
    months = clock.months + 1
    if s.kind == "capex_grant":
        base = sum(capex_months[c] for c in (s.classes or CAPEX_CLASSES))
        base = np.atleast_2d(np.asarray(base, dtype=float))
        lag = int(s.lag_months or 0)
        paid = np.zeros((base.shape[0], months))
        if lag < months:
            paid[:, lag:] = s.share * base[:, : months - lag]  # type: ignore[operator]
        if s.cap is not None:
            paid = np.diff(np.minimum(np.cumsum(paid, axis=1), s.cap), axis=1, prepend=0.0)
        return paid
    within = (clock.m >= 1) & (np.ceil(clock.m / MONTHS_PER_YEAR) <= s.years)  # type: ignore[operator]
    if s.kind == "power_rebate":
        return s.per_kwh * kwh() * within  # type: ignore[operator]
    return s.share_of_revenue * revenue * within  # type: ignore[operator]


def metered_kwh(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    events: list,
    clock: Clock,
    shapes: list,
) -> FloatArray:
    """(S, M+1): the metered kWh of each month (PUE included), the line priced per
    kWh (``price_per_kwh``) of :func:`costmodel.core.lines.operating_coefficients` at
    1 per kWh without escalation."""
    size = q.gpus.shape[0]
    unit = q.replaced(price_per_kwh=np.ones(size), power_escalation=np.zeros(size))
    years = clock.months // MONTHS_PER_YEAR
    lines = operating_coefficients(unit, deps, events, years)
    return monthly_line(lines[item_of_input("price_per_kwh").key], shapes, clock)
