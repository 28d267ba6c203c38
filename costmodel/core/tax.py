"""Tax with a loss pool; the taxable income it is assessed on; the terminal value
and its gain (methodology §3.4, §8.3, §11.9)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.config import TierConfig
from costmodel.core.finance import FloatArray
from costmodel.core.residual import income_values
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import CapexEvent
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)


def tax_with_losses(
    taxable: FloatArray, tax_rate: ArrayLike, carryforward_years: int | None
) -> dict[str, FloatArray]:
    """Annual tax with a loss pool (methodology §3.4, §8.3), ``taxable`` of shape (S, Y).

    A loss of year v (``taxable_v <= 0``) adds ``-taxable_v`` to vintage v; a profit
    in year y uses the vintages v with ``y - v <= N`` oldest first, up to the
    profit; ``tax_y = tax_rate * (taxable_y - used_y)``; after year y the vintage
    ``v = y - N`` expires (``N = carryforward_years``; ``None``: never, 0: no
    carry-forward). Returns tax, the pool corkscrew (open, added, used, expired,
    close) per year.
    """
    rows = tax_rows(np.asarray(taxable, dtype=float).T, tax_rate, carryforward_years)
    return {k: np.ascontiguousarray(v.T) for k, v in rows.items()}


def tax_rows(
    taxable: FloatArray,
    tax_rate: ArrayLike,
    carryforward_years: int | None,
    pool: bool = True,
    vintages: bool = False,
) -> dict[str, FloatArray]:
    """:func:`tax_with_losses` with years first: ``taxable`` and the rows (Y, S);
    without ``pool``, the tax alone (a by-year run reads no other row). With
    ``vintages``, also each vintage v's loss used in year y
    (``vintage_used[y, v]``), expired after year y (``vintage_expired[y, v]``) and
    its balance at the end of year y (``vintage_balance[y, v]``), (Y, Y, S)."""
    years, size = taxable.shape
    n = years + 1 if carryforward_years is None else carryforward_years
    vintage = np.zeros((years, size))
    names = ("open", "added", "used", "expired", "tax") if pool else ("tax",)
    rows = {k: np.zeros((years, size)) for k in names}
    rate = np.broadcast_to(np.asarray(tax_rate, dtype=float), (size,))
    kinds = ("used", "expired", "balance")
    detail = {k: np.zeros((years, years, size)) for k in kinds} if vintages else None
    for y in range(years):
        e = taxable[y]
        if pool:
            rows["open"][y] = vintage[:y].sum(axis=0)
        loss = e <= 0
        profit = np.where(loss, 0.0, e)
        need = profit.copy()
        for v in range(max(0, y - n), y):
            take = np.minimum(vintage[v], need)
            vintage[v] -= take
            need -= take
            if detail is not None:
                detail["used"][y, v] = take
        used = profit - need
        vintage[y] = np.where(loss, -e, 0.0)
        rows["tax"][y] = np.where(loss, 0.0, rate * (e - used))
        if pool:
            rows["used"][y] = used
            rows["added"][y] = vintage[y]
        if 0 <= y - n < years:
            if pool:
                rows["expired"][y] = vintage[y - n]
            if detail is not None:
                detail["expired"][y, y - n] = vintage[y - n]
            vintage[y - n] = 0.0
        if detail is not None:
            detail["balance"][y] = vintage
    if pool:
        close = vintage.sum(axis=0)
        rows["close"] = np.concatenate([rows["open"][1:], close[None, :]], axis=0)
    if detail is not None:
        rows.update({f"vintage_{k}": v for k, v in detail.items()})
    return rows


def terminal_value(
    q: TierParams,
    events: list[CapexEvent],
    nbv_total: FloatArray,
    config: TierConfig,
    deps: list[dict[str, FloatArray]] | None = None,
) -> FloatArray:
    """Terminal value at M (methodology §3.5, §8.3, §30.3): ``book``: the net book
    value; ``none``: 0; ``market``: ``sum_events cost (1 - market_decline_class)^((M -
    t) / 12)`` (:func:`market_value`); ``income``: each deployment's value from its
    margin (:func:`costmodel.core.residual.income_values`, ``deps``) plus the
    facility's events at market."""
    if config.terminal_value == "book":
        return nbv_total
    if config.terminal_value == "none":
        return np.zeros_like(nbv_total)
    if config.terminal_value == "income":
        hardware = sum(income_values(q, deps or [], events, config.months))
        facility = [e for e in events if e.cls == "facility"]
        return hardware + sum(market_value(q, e, config.months) for e in facility)
    return sum(market_value(q, e, config.months) for e in events)


def terminal_gain(value: FloatArray, tax_nbv: FloatArray, config: TierConfig) -> FloatArray:
    """The gain taxed in the last model year (methodology §11.9): with a ``market``
    or ``income`` terminal value ``value - tax net book value at M`` (negative: a loss); 0 with
    ``book`` (sold at its book value) or ``none``."""
    if config.terminal_value not in ("market", "income"):
        return np.zeros_like(np.asarray(value, dtype=float))
    return value - tax_nbv


def taxable_income(margin_y: FloatArray, deductions_y: FloatArray, gain: FloatArray) -> FloatArray:
    """Taxable income per model year, years first (Y, S) (methodology §11.7-§11.9): ``margin_y -
    deductions_y`` (revenue - opex, less tax depreciation, and for the levered tax
    interest paid and the tax depreciation of capitalized interest), the terminal
    ``gain`` (S,) added to the last year, before the loss pool."""
    out = margin_y - deductions_y
    out[-1] = out[-1] + gain
    return out


def tax_on_gain(
    taxable_y: FloatArray,
    gain: FloatArray,
    tax_y: FloatArray,
    tax_rate: ArrayLike,
    carryforward_years: int | None,
) -> FloatArray:
    """(S,): the tax on the terminal gain after losses, the last year's tax with the
    gain (``tax_y``, (Y, S)) less its tax without it (methodology §11.9)."""
    if not np.any(gain):
        return np.zeros(tax_y.shape[1])
    without = taxable_y.copy()
    without[-1] = without[-1] - gain
    return tax_y[-1] - tax_rows(without, tax_rate, carryforward_years, pool=False)["tax"][-1]


def market_value(q: TierParams, e: CapexEvent, months: int) -> FloatArray:
    """An event's market value at M (methodology §8.3): ``cost (1 -
    market_decline_class)^((M - t) / 12)`` (no decline where none is given)."""
    decline = q.market_decline.get(e.cls, 0.0)
    return e.amount * np.power(1.0 - decline, (months - e.month) / MONTHS_PER_YEAR)
