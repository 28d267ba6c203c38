"""Time in the engine: the month clock, the deployments (vintages), the capex
events, the ramp of sold hours and the monthly shapes of a shared timing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from costmodel.catalogue.items import CAPEX_CLASSES, HARDWARE_CLASSES
from costmodel.core.calendar import year_sums
from costmodel.core.fabric import design_network
from costmodel.core.finance import FloatArray
from costmodel.core.memo import memoized
from costmodel.core.siteprices import first_capex_month, grid_connection
from costmodel.core.storage import design_storage, node_sized
from costmodel.core.tierparams import TierParams
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)


def col(x: ArrayLike) -> FloatArray:
    """(S,) -> (S, 1) for broadcasting against months."""
    return np.atleast_1d(np.asarray(x, dtype=float))[:, None]


def when(x: ArrayLike) -> FloatArray:
    """A month or a rate as a column: (1, 1) when every variant has the same value
    (the usual case: timing is rarely varied), else (S, 1). Shapes built from it
    are then (1, M+1), and products with them one pass over (S, M+1)."""
    v = np.atleast_1d(np.asarray(x, dtype=float))
    if v.size > 1 and np.all(v == v[0]):
        v = v[:1]
    return v[:, None]


@dataclass(frozen=True)
class Clock:
    """Month index ``m = 0..M`` (shape (1, M+1)), model year ``y(m) = ceil(m/12)``
    and the operating flag (m >= 1), shared by every line item."""

    months: int

    @property
    def m(self) -> FloatArray:
        return np.arange(self.months + 1, dtype=float)[None, :]

    @property
    def years_in(self) -> FloatArray:
        """``y(m) - 1`` for m >= 1 (0 at month 0)."""
        return np.maximum(np.ceil(self.m / MONTHS_PER_YEAR) - 1, 0)

    @property
    def ops(self) -> FloatArray:
        return (self.m >= 1).astype(float)

    def index(self, annual_change: ArrayLike) -> FloatArray:
        """``(1 + g)^(y(m) - 1)`` for m >= 1, 0 at month 0 (escalation g > 0,
        decline g < 0); computed per year and expanded to months."""
        years = np.arange(-(-self.months // MONTHS_PER_YEAR), dtype=float)[None, :]
        table = np.power(1.0 + when(annual_change), years)
        table = np.concatenate([np.zeros((table.shape[0], 1)), table], axis=1)
        year_of = np.ceil(np.arange(self.months + 1) / MONTHS_PER_YEAR).astype(np.intp)
        return table[:, year_of]

    def by_year(self, x: FloatArray) -> FloatArray:
        """Sum of months 12(y-1)+1 .. 12y for y = 1..Y: shape (S, Y) (:func:`year_sums`)."""
        return year_sums(x)

    def at_year_ends(self, table: FloatArray) -> FloatArray:
        """A year table (S, Y) placed at months 12y of an (S, M+1) array."""
        out = np.zeros((table.shape[0], self.months + 1))
        out[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR] = table
        return out

    def at(self, month: ArrayLike, amount: ArrayLike) -> FloatArray:
        """``amount`` (S,) placed at month ``month`` (S,) of an (S, M+1) array."""
        t = when(month)
        a = col(amount)
        if t.shape[0] == 1:
            out = np.zeros((a.shape[0], self.months + 1))
            out[:, int(t[0, 0])] = a[:, 0]
            return out
        return np.where(self.m == t, a, 0.0)

    def after(self, month: ArrayLike) -> FloatArray:
        """In-service flag: 1 for m > ``month``."""
        return (self.m > when(month)).astype(float)


def deployments(q: TierParams, stages: int, months: int) -> list[dict[str, FloatArray]]:
    """The tier's vintages (methodology §8.1). Deployment 0 holds the tier's ``gpus`` and
    storage and is bought at ``t_0 = B = round(build_months)`` (lengthened by a grid
    connection's and a server's lead time:
    :func:`costmodel.core.siteprices.first_capex_month`); stage i at ``t_i =
    max(stage_i.month, B)`` (a Monte Carlo draw may put B after a stage).
    For each, with ``n = gpus / gpus_per_server``:

    - ``servers = n * price * (1 - price_decline)^(t / 12)``
    - ``storage = capacity_tb * price_per_tb``, or sized in nodes by capacity and
      bandwidth, the increment of the storage of the GPUs in service
      (:func:`storage.design_storage`, methodology §28.2)
    - ``network = share / (1 - share) * (servers + storage)``, or with a design the
      fabric increment plus the front-end per server (:func:`fabric.design_network`,
      methodology §12.1)
    - ``it_kw = n * power_kw * (1 + aux_power_fraction)``
    - ``staff_fte``: the tier's headcount from ``t + 1`` on; with ``staff_scaling``
      ``fixed_fte + fte_per_server * (n_1 + .. + n_d)`` (methodology §12.2).
    """
    all_gpus = [q.gpus] + [st.gpus for st in q.stages[:stages]]
    # validated: 0 <= B <= M - 1 (methodology §2.4); a grid or supply wait lengthens it
    build = first_capex_month(q, all_gpus)
    designed = design_network(q, all_gpus) if q.fabric_radix is not None else None
    nodes = design_storage(q, all_gpus) if node_sized(q) else None
    servers_so_far = np.zeros_like(np.asarray(q.gpus, dtype=float))
    out = []
    for i in range(stages + 1):
        stage = q.stages[i - 1] if i else None
        month = build if stage is None else np.maximum(stage.month, build)
        gpus = all_gpus[i]
        n = gpus / q.gpus_per_server
        decline = np.power(1.0 - q.server_price_decline, month / MONTHS_PER_YEAR)
        servers = n * q.server_price * decline
        if nodes is None:
            capacity = q.storage_capacity_tb if stage is None else stage.capacity_tb
            storage = capacity * q.storage_price_per_tb
        else:
            storage = nodes[i]["storage"]
        if designed is None:
            share = q.network_share
            network = share / (1.0 - share) * (servers + storage)
        else:
            network = designed[i]["network"]
        servers_so_far = servers_so_far + n
        if q.staff_fixed_fte is not None:
            fte = q.staff_fixed_fte + q.staff_fte_per_server * servers_so_far
        else:
            fte = q.staff_fte if stage is None else stage.staff_fte
        out.append(
            {
                "month": month,
                "gpus": gpus,
                "servers_n": n,
                "it_kw": n * q.server_power_kw * (1.0 + q.aux_power_fraction),
                "staff_fte": fte,
                "servers": servers,
                "network": network,
                "storage": storage,
                "hardware": servers + network + storage,
            }
            | ({} if designed is None else designed[i])
            | ({} if nodes is None else nodes[i])
        )
    return out


@dataclass(frozen=True)
class CapexEvent:
    """One purchase: ``amount`` (S,) of asset class ``cls`` paid at ``month`` and
    in service (depreciating, insured) from ``in_service``."""

    cls: str
    amount: FloatArray
    month: FloatArray
    in_service: FloatArray


def capex_events(q: TierParams, deps: list[dict[str, FloatArray]]) -> list[CapexEvent]:
    """Hardware of each deployment at its month, in service the month after; the
    facility (mode build, methodology §8.1):

    - ``reserve_headroom``: one build at month 0 for the final IT kW,
      ``sum_d it_kw_d * build_cost_per_kw``, in service from ``B + 1``;
    - otherwise month 0 for deployment 0, and each stage adds
      ``it_kw_d * build_cost_per_kw * (1 + retrofit_premium)`` at its month.

    A grid connection (:func:`costmodel.core.siteprices.grid_connection`, methodology §29)
    adds to the facility's month-0 event.
    """
    build = deps[0]["month"]
    zero = np.zeros_like(build)
    rate = q.build_cost_per_kw * q.build_flag
    reserve = q.reserve_headroom
    total_kw = sum(d["it_kw"] for d in deps)
    first = np.where(reserve > 0, total_kw, deps[0]["it_kw"]) * rate
    first = first + grid_connection(q, [d["gpus"] for d in deps])
    events = [CapexEvent("facility", first, zero, build + 1)]
    for i, d in enumerate(deps):
        for cls in HARDWARE_CLASSES:
            events.append(CapexEvent(cls, d[cls], d["month"], d["month"] + 1))
        if i:
            extra = (1.0 - reserve) * d["it_kw"] * rate * (1.0 + q.retrofit_premium)
            events.append(CapexEvent("facility", extra, d["month"], d["month"] + 1))
    return events


def ramp_share(since: ArrayLike, ramp_months: ArrayLike) -> FloatArray:
    """Share of a deployment's sold hours reached ``since`` months after it
    (methodology §8.1): ``min(1, since / R)`` for since > 0, 0 before; 1 from the
    first month when ``R = ramp_months = 0``."""
    r = np.asarray(ramp_months, dtype=float)
    since = np.asarray(since, dtype=float)
    return np.where(r > 0, np.clip(since / np.where(r > 0, r, 1.0), 0.0, 1.0), since > 0)


def ramp(q: TierParams, month: FloatArray, clock: Clock) -> FloatArray:
    """Sold share of a deployment's hours: ``u_d(m) = utilization *
    ramp_share(m - t_d, ramp_months)`` (:func:`ramp_share`)."""
    share = ramp_share(clock.m - when(month), when(q.ramp_months))
    return col(q.utilization) * share


def contract_years(contract_months: ArrayLike, months: int) -> int:
    """J, the contract years a contract of ``contract_months`` (the largest of the
    variants) can have within the horizon of ``months``: ``ceil(c / 12)``, at most
    ``ceil(months / 12)`` (0 without a contract)."""
    c = float(np.max(np.asarray(contract_months, dtype=float), initial=0.0))
    return int(min(np.ceil(c / MONTHS_PER_YEAR), -(-months // MONTHS_PER_YEAR)))


def tier_shapes(q: TierParams, deps: list[dict[str, FloatArray]], clock: Clock) -> list:
    """The monthly shapes of a tier month by month (:func:`operating_shapes` of its
    deployment months, ramp and contract), as every monthly evaluation uses them;
    with a counterparty default rate, each contract shape times the contract's
    survival (:func:`surviving`)."""
    contract = when(q.contract_months)
    years = contract_years(contract, clock.months)
    starts = [when(d["month"]) for d in deps]
    shapes = operating_shapes(clock.m, starts, when(q.ramp_months), contract, years)
    rate = q.contract_default_rate
    if years and rate is not None and np.any(np.asarray(rate) > 0):
        return surviving(shapes, clock.m, starts, when(rate), years)
    return shapes


def surviving(
    shapes: list, m: FloatArray, starts: Sequence[FloatArray], rate: FloatArray, years: int
) -> list:
    """The shapes of :func:`operating_shapes` with each contract shape of deployment
    d (ramp share in contract 3D + d, contract years 4D + J d + j) times the
    survival of its contract ``S_d(m) = (1 - default_rate)^((m - t_d - 1) / 12)``
    (methodology §11.12): contract hours and revenue earn ``S_d(m)`` of their
    amount, and the share ``1 - S_d(m)`` of the contracted hours is sold spot with
    the ramp (the spot lines subtract only the surviving contract share), and the
    power it draws is that of spot hours."""
    out = list(shapes)
    n_dep = len(starts)
    for d, t in enumerate(starts):
        alive = np.where(m > t, (1.0 - rate) ** ((m - t - 1.0) / MONTHS_PER_YEAR), 0.0)
        out[3 * n_dep + d] = out[3 * n_dep + d] * alive
        for j in range(years):
            k = 4 * n_dep + years * d + j
            out[k] = out[k] * alive
    return out


def operating_shapes(
    m: FloatArray,
    months: Sequence[ArrayLike],
    ramp_months: ArrayLike,
    contract_months: ArrayLike = 0.0,
    years: int = 0,
) -> list:
    """The K monthly shapes every operating line is a sum over (methodology §8.1,
    §11.5), for deployments bought at ``months`` t_d (d = 0..D-1) and months ``m``:

    - k = d, in service: ``I_d(m) = [m > t_d]``;
    - k = D + d, ramp share: :func:`ramp_share` ``(m - t_d, ramp_months)``;
    - k = 2D + d, staffing: 1 where deployment d's headcount applies (the last
      deployment in service, deployment 0 from month 1 on, construction included);

    and, with a contract of c = ``contract_months`` (J = ``years`` =
    :func:`contract_years` > 0; K = 3D without one):

    - k = 3D + d, ramp share in contract: ``ramp_share(m - t_d) W_d(m)``, with the
      contract window ``W_d(m) = [t_d < m <= t_d + c]``;
    - k = 4D + J d + j, contract year j = 0..J-1 of deployment d:
      ``[t_d + 12 j < m <= t_d + min(12 (j + 1), c)]``.

    Each is 0 at month 0. Shapes broadcast like ``m - t_d``: (M+1,) for a shared
    timing, (1 or S, M+1) month by month."""
    live = [(m > t).astype(float) for t in months]
    share = [ramp_share(m - t, ramp_months) for t in months]
    who = np.where(m >= 1, 0, -1)
    for d in range(1, len(months)):
        who = np.where(m > months[d], d, who)
    staff = [(who == d).astype(float) for d in range(len(months))]
    if years == 0:
        return live + share + staff
    c = np.asarray(contract_months, dtype=float)
    window = [((m > t) & (m <= t + c)).astype(float) for t in months]
    in_contract = [s * w for s, w in zip(share, window, strict=True)]
    by_year = []
    for t in months:
        for j in range(years):
            end = np.minimum(MONTHS_PER_YEAR * (j + 1), c)
            by_year.append(((m > t + MONTHS_PER_YEAR * j) & (m <= t + end)).astype(float))
    return live + share + staff + in_contract + by_year


@dataclass(frozen=True)
class Shapes:
    """The K monthly shapes (:func:`operating_shapes`: 3D, more with a contract) of
    a tier whose deployments d (months ``t_d``, ramp R, the contract's months) are
    shared by every variant.

    ``sums`` (Y, K): their sums per model year. Months 1..M split into runs of
    months in one model year over which every shape is constant: ``run_year``
    (P,), ``run_shapes`` (P, K) the shapes' values, ``run_starts`` (P,) first
    months - 1 (for ``np.add.reduceat`` over months 1..M), ``run_of`` (M,) the run
    of each month, ``month_row`` (M+1,) ``0`` for month 0 and ``1 + run_of`` for
    months 1..M (rows of :func:`per_run`, whose row 0 is month 0's zero)."""

    sums: FloatArray
    run_year: np.ndarray
    run_shapes: FloatArray
    run_starts: np.ndarray
    run_of: np.ndarray
    month_row: np.ndarray
    #: per shape k: the rows of :func:`per_run` where it is not 0 (a slice when they
    #: are consecutive), their model years and their values (None: all 1)
    terms: tuple[tuple[slice | np.ndarray, np.ndarray, FloatArray | None], ...] = ()
    #: what they are computed from (months, timing), for the caches
    key: tuple = ()


#: a timing shared by variants: deployment months, ramp months and, with a
#: contract, its months (methodology §8.1, §11.5)
Timing = tuple


@memoized()
def timing_shapes(months: int, timing: Timing) -> Shapes:
    t, r, c = (*timing, 0)[:3]
    m = np.arange(months + 1, dtype=float)
    years = contract_years(c, months)
    h = np.stack(operating_shapes(m, t, r, c, years))[:, 1:]  # (K, M): months 1..M
    year = np.arange(months) // MONTHS_PER_YEAR
    new_run = np.ones(months, dtype=bool)
    new_run[1:] = (year[1:] != year[:-1]) | np.any(h[:, 1:] != h[:, :-1], axis=0)
    starts = np.flatnonzero(new_run)
    run_shapes, run_year = h[:, starts].T, year[starts]
    terms = []
    for k in range(h.shape[0]):
        p = np.flatnonzero(run_shapes[:, k])
        w = run_shapes[p, k]
        consecutive = p.size > 0 and p[-1] - p[0] == p.size - 1
        rows = slice(1 + p[0], 2 + p[-1]) if consecutive else 1 + p
        terms.append((rows, run_year[p], None if np.all(w == 1.0) else w[:, None]))
    out = Shapes(
        sums=np.ascontiguousarray(h.reshape(h.shape[0], -1, MONTHS_PER_YEAR).sum(axis=2).T),
        run_year=run_year,
        run_shapes=np.ascontiguousarray(run_shapes),
        run_starts=starts,
        run_of=np.cumsum(new_run) - 1,
        month_row=np.r_[0, np.cumsum(new_run)],
        terms=tuple(terms),
        key=(months, timing),
    )
    for arr in (out.sums, out.run_year, out.run_shapes, out.run_starts, out.run_of, out.month_row):
        arr.flags.writeable = False
    return out


@dataclass(frozen=True)
class Segments:
    """Months 0..M cut into segments over which the FCF of a by-year run is
    constant: the runs of :func:`timing_shapes`, split so that month 0, each year end
    (tax is paid), each capex month and month M (terminal value) is a segment of
    its own. ``row`` (Q,): the row of :func:`per_run` a segment takes its
    operating value from (0 for month 0); ``start`` (Q,): its first month;
    ``runs``: the lengths; ``year_ends`` (Y,): the segments of months 12y;
    ``at``: month -> segment for every one-month segment."""

    row: np.ndarray
    start: np.ndarray
    runs: tuple[int, ...]
    year_ends: np.ndarray
    at: dict[int, int]
    #: what they are computed from (months, timing, capex months), for the caches
    key: tuple = ()


@memoized()
def segments(months: int, timing: Timing, capex_months: tuple[int, ...]) -> Segments:
    """The :class:`Segments` of a timing (:func:`timing_shapes`) with capex paid at
    ``capex_months``: a new segment where the run of months changes, and at and
    after every point month."""
    row = timing_shapes(months, timing).month_row
    points = {0, months, *range(MONTHS_PER_YEAR, months + 1, MONTHS_PER_YEAR), *capex_months}
    m = np.arange(1, months + 1)
    single = np.isin(m, list(points)) | np.isin(m - 1, list(points))
    new = np.r_[True, single | (row[1:] != row[:-1])]
    start = np.flatnonzero(new)
    runs = tuple(int(k) for k in np.diff(np.r_[start, months + 1]))
    at = {int(a): q for q, (a, k) in enumerate(zip(start, runs, strict=True)) if k == 1}
    year_ends = np.array([at[y] for y in range(MONTHS_PER_YEAR, months + 1, MONTHS_PER_YEAR)])
    out = Segments(row[start], start, runs, year_ends, at, (months, timing, capex_months))
    for arr in (out.row, out.start, out.year_ends):
        arr.flags.writeable = False
    return out


def monthly_capex(events: list[CapexEvent], clock: Clock) -> dict[str, FloatArray]:
    """Capex per asset class month by month (1 or S, M+1): each event's amount at
    its month."""
    capex_months = {cls: np.zeros((1, clock.months + 1)) for cls in CAPEX_CLASSES}
    for e in events:
        capex_months[e.cls] = capex_months[e.cls] + clock.at(e.month, e.amount)
    return capex_months


def capex_by_month(
    events: list[CapexEvent], full: tuple[int]
) -> tuple[dict[str, FloatArray], dict[int, FloatArray]]:
    """Capex per asset class (S,) (the sum of its events) and per payment month
    (month -> (S,), months in order); every event's month is shared by the
    variants."""
    capex_by = {c: np.zeros(full) for c in CAPEX_CLASSES}
    capex_at: dict[int, FloatArray] = {}
    for e in events:
        month = int(when(e.month)[0, 0])
        capex_by[e.cls] = capex_by[e.cls] + e.amount
        capex_at[month] = capex_at.get(month, 0.0) + e.amount
    return capex_by, {m: np.broadcast_to(a, full) for m, a in sorted(capex_at.items())}
