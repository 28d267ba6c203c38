"""Book and tax depreciation of the capex events, month by month and per model
year (methodology §3.3, §11.7)."""

from __future__ import annotations

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core import finance as fin
from costmodel.core.config import TierConfig
from costmodel.core.finance import FloatArray
from costmodel.core.memo import memoized
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import CapexEvent, Clock, col, when
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)


def depreciation_lines(
    q: TierParams,
    events: list[CapexEvent],
    config: TierConfig,
    clock: Clock,
    book: list[FloatArray] | None = None,
) -> dict[str, FloatArray]:
    """Monthly depreciation per asset class (methodology §3.3, §8.1): the sum of its
    events' :func:`event_depreciation` (``book``: those of ``events``, when
    already computed)."""
    if book is None:
        book = [event_depreciation(q, e, config, clock) for e in events]
    out = {cls: np.zeros((1, clock.months + 1)) for cls in CAPEX_CLASSES}
    for e, line in zip(events, book, strict=True):
        out[e.cls] = out[e.cls] + line
    return out


def event_depreciation(
    q: TierParams, e: CapexEvent, config: TierConfig, clock: Clock
) -> FloatArray:
    """One event's depreciation month by month (S, M+1): its annual amounts
    (:func:`finance.depreciation_annual` of its cost, class salvage, method and
    life), asset year k covering months ``in_service + 12(k-1) .. in_service + 12k
    - 1``, each month 1/12 of it."""
    life = config.depreciation_life_years[e.cls]
    annual = fin.depreciation_annual(
        e.amount, q.salvage[e.cls], config.depreciation_method[e.cls], life
    )
    k = np.floor((clock.m - when(e.in_service)) / MONTHS_PER_YEAR)
    idx = np.where((k >= 0) & (k < life), k, life).astype(np.intp)  # life: the 0 column
    monthly = np.concatenate([annual / MONTHS_PER_YEAR, np.zeros((annual.shape[0], 1))], 1)
    if idx.shape[0] == 1:
        return monthly[:, idx[0]]
    return np.take_along_axis(monthly, idx, axis=1)


def tax_depreciation_lines(
    q: TierParams,
    events: list[CapexEvent],
    config: TierConfig,
    clock: Clock,
    book: list[FloatArray] | None = None,
) -> dict[str, FloatArray]:
    """Monthly tax depreciation per asset class (methodology §11.7): the book
    depreciation (:func:`event_depreciation`; ``book``: that of each of ``events``,
    when already computed) of a class whose ``tax_method`` is ``book``; for an
    ``expensed`` class each event's whole cost in its in-service month (nothing
    when that is after M)."""
    out = {cls: np.zeros((1, clock.months + 1)) for cls in CAPEX_CLASSES}
    for i, e in enumerate(events):
        if e.cls in config.tax_expensed:
            charge = np.where(clock.m == when(e.in_service), col(e.amount), 0.0)
        elif book is not None:
            charge = book[i]
        else:
            charge = event_depreciation(q, e, config, clock)
        out[e.cls] = out[e.cls] + charge
    return out


def expensed_by_year(e: CapexEvent, months: int, size: int) -> FloatArray:
    """(Y, S): an expensed event's cost in the model year of its in-service month
    ``s`` (year ``ceil(s / 12)``; nothing when ``s > M``) (:func:`tax_depreciation_lines`)."""
    years = months // MONTHS_PER_YEAR
    s = np.broadcast_to(when(e.in_service)[:, 0], (size,))
    year = np.ceil(s / MONTHS_PER_YEAR) - 1
    rows = np.arange(years, dtype=float)[:, None]
    return np.where((rows == year) & (s <= months), np.broadcast_to(e.amount, (size,)), 0.0)


@memoized()
def depreciation_counts(
    months: int, in_service: int, life: int
) -> tuple[tuple[np.ndarray, FloatArray], tuple[np.ndarray, FloatArray]]:
    """The months of each model year y in the asset years of an asset in service
    from ``in_service`` (asset year k covers months in_service + 12(k-1) ..
    in_service + 12k - 1; k < ``life``): a model year meets at most two, the first
    ``(k1, c1)`` and the second ``(k2, c2)`` (Y,) each (count 0 where none)."""
    m = np.arange(1, months + 1)
    k = np.floor((m - in_service) / MONTHS_PER_YEAR).astype(np.intp)
    y = (m - 1) // MONTHS_PER_YEAR
    counts = np.zeros((months // MONTHS_PER_YEAR, life + 1))
    ok = (k >= 0) & (k < life)
    np.add.at(counts, (y[ok], k[ok]), 1.0)
    first = np.argmax(counts[:, :life] > 0, axis=1)  # 0 with count 0 when none
    rows = np.arange(counts.shape[0])
    after = counts[rows, first + 1]  # column ``life`` stays 0
    second = np.minimum(first + 1, life - 1)  # an index into the asset years
    out = ((first, counts[rows, first]), (second, after))
    for arr in (first, second, out[0][1], out[1][1]):
        arr.flags.writeable = False
    return out


def depreciation_by_year(
    q: TierParams,
    config: TierConfig,
    events: list[CapexEvent],
    capex_by: dict[str, FloatArray],
    size: int,
) -> tuple[FloatArray, dict[str, FloatArray]]:
    """Depreciation per model year (Y, S) and net book value per asset class at
    the horizon (S,): an event's charge in asset year k (``fin.depreciation_annual``
    / 12 a month) falls in model year y for the months counted by
    :func:`depreciation_counts`; ``NBV = capex - sum of its charges``."""
    years = config.months // MONTHS_PER_YEAR
    full = (size,)
    dep_y = np.zeros((years, size))
    nbv = {}
    for cls in CAPEX_CLASSES:
        total = np.zeros(full)
        for e in events:
            if e.cls != cls:
                continue
            per_year = event_by_year(q, config, e)
            dep_y = dep_y + per_year
            total = total + per_year.sum(axis=0)
        nbv[cls] = np.broadcast_to(capex_by[cls] - total, full)
    return dep_y, nbv


def tax_depreciation_by_year(
    q: TierParams, config: TierConfig, events: list[CapexEvent], size: int
) -> tuple[FloatArray, FloatArray]:
    """Tax depreciation per model year (Y, S) of ``events`` and their tax net book
    value at the horizon (S,), ``cost - sum of tax depreciation``: the yearly sums
    of :func:`tax_depreciation_lines` (:func:`event_by_year` for a ``book`` class,
    :func:`expensed_by_year` for an ``expensed`` one)."""
    years = config.months // MONTHS_PER_YEAR
    dep_y = np.zeros((years, size))
    cost = np.zeros(size)
    for cls in CAPEX_CLASSES:  # in the order of :func:`depreciation_by_year`
        for e in events:
            if e.cls != cls:
                continue
            if cls in config.tax_expensed:
                per_year = expensed_by_year(e, config.months, size)
            else:
                per_year = event_by_year(q, config, e)
            dep_y = dep_y + per_year
            cost = cost + e.amount
    return dep_y, cost - dep_y.sum(axis=0)


def event_by_year(q: TierParams, config: TierConfig, e: CapexEvent) -> FloatArray:
    """(Y, S): one event's book depreciation per model year (:func:`depreciation_by_year`)."""
    months = config.months
    cls = e.cls
    life = config.depreciation_life_years[cls]
    annual = fin.depreciation_annual(
        e.amount, q.salvage[cls], config.depreciation_method[cls], life
    )
    s = when(e.in_service)
    if s.shape[0] > 1:  # each variant its own month in service
        return _event_by_year_per_variant(annual, s[:, 0], months, life)
    (k1, c1), (k2, c2) = depreciation_counts(months, int(s[0, 0]), life)
    # a model year spans at most two asset years k1 < k2 (0 + a + b, as summed
    # term by term; a count of 0 adds 0)
    if annual.strides[1] == 0:  # straight line: one charge for every asset year
        row = annual[:, 0] / MONTHS_PER_YEAR
        return c1[:, None] * row + c2[:, None] * row
    monthly = annual.T / MONTHS_PER_YEAR
    return c1[:, None] * monthly[k1] + c2[:, None] * monthly[k2]


def _event_by_year_per_variant(
    annual: FloatArray, in_service: FloatArray, months: int, life: int
) -> FloatArray:
    """(Y, S): :func:`event_by_year` with a month in service ``s`` (S,) per variant.
    Model year y (months 12y+1 .. 12y+12) meets asset year ``k = floor((12y + 1 -
    s) / 12)`` for ``c = min(12y + 12, s + 12k + 11) - 12y`` months and asset year
    k + 1 for the other ``12 - c``; an asset year outside ``0 .. life - 1``
    charges nothing."""
    y = np.arange(months // MONTHS_PER_YEAR, dtype=float)[:, None] * MONTHS_PER_YEAR
    first = np.floor((y + 1.0 - in_service) / MONTHS_PER_YEAR)
    months_first = np.minimum(y + MONTHS_PER_YEAR, in_service + MONTHS_PER_YEAR * first + 11) - y
    monthly = np.concatenate([annual / MONTHS_PER_YEAR, np.zeros((annual.shape[0], 1))], 1)
    monthly = np.broadcast_to(monthly, (in_service.shape[0], life + 1))
    out = None
    for k, count in ((first, months_first), (first + 1, MONTHS_PER_YEAR - months_first)):
        idx = np.where((k >= 0) & (k < life), k, life).astype(np.intp)  # life: the 0 column
        term = count * np.take_along_axis(monthly, idx.T, 1).T
        out = term if out is None else out + term
    return out
