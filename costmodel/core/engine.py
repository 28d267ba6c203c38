"""The cost engine (spec sections 4-9 and 14-20), vectorised over scenarios and
months.

Every input is a scalar or an array of shape ``(S,)``: ``S`` scenario variants of
one tier are computed at once (``S = 1`` for a plain build). Monthly arrays have
shape ``(S, M + 1)``, column ``m`` holding month m (month 0 is the investment
date). The engine does no I/O and knows nothing of files, workbooks or memos.

A tier is a list of deployments (vintages, spec 14-15) and a list of capex
events; each line item is one function below, with its formula in its docstring:
:func:`deployments`, :func:`capex_events`, :func:`opex_lines`,
:func:`depreciation_lines`, :func:`revenue_line`, :func:`tax_with_losses`,
:func:`debt_schedule`, :func:`terminal_lines` and :func:`run_tier`, which
assembles the cash flows and metrics.

Two ways to the same numbers (equal up to rounding, tested to rel 1e-12):

- :func:`_run_monthly` computes every line month by month as (S, M+1) arrays;
- :func:`_run_by_year`, used whenever the variants share their timing (the
  deployment months and the ramp: every single build, and Monte Carlo unless a
  timing input is ranged) and, by :func:`_run_grouped`, for the variants of each
  distinct timing when there are few (at most :data:`MAX_TIMING_GROUPS`, or 20
  variants per timing on average; Monte Carlo draws timing in whole months and
  runs the draws in order of timing), computes the summary from year tables: each
  operating line is per-variant coefficients per model year times monthly
  shapes shared by all variants, over runs of months where every shape is
  constant; only the free cash flow (and, for the equity IRR, the equity cash
  flow) is built month by month, months first. Its monthly schedules
  (``opex``, ``depreciation``, ``flows``, ``debt``, ``capex_months``,
  ``annual``) are built by :func:`_run_monthly` on first access, and the IRRs
  when first read.

Each variant's result does not depend on its position among the S or on the
other variants (Monte Carlo results do not depend on the chunk size): the path
follows which inputs are arrays, not their values (except that more than
:data:`MAX_TIMING_GROUPS` distinct timings in a chunk go month by month; a
variant alone with its timing is computed as a group of two copies), and sums
over variants use elementwise products and sums over leading axes, not BLAS or
einsum. A lone
variant (S = 1, e.g. a single build) may differ from the same variant among
others in the last digit (numpy sums a single column pairwise).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from threading import Lock
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core import finance as fin
from costmodel.core.finance import FloatArray
from costmodel.core.roots import irr_annual
from costmodel.core.threads import blas_single_thread
from costmodel.core.units import (
    GB_PER_TB,
    HOURS_PER_DAY,
    HOURS_PER_MONTH,
    MONTHS_PER_YEAR,
    SECONDS_PER_HOUR,
    TFLOPS_PER_PFLOPS,
)
from costmodel.inputs.params import TierConfig, servers_per_rack
from costmodel.inputs.schema import ASSET_CLASSES

CAPEX_LINES = ("servers", "network", "storage", "facility")
OPEX_LINES = ("electricity", "colocation", "staff", "maintenance", "insurance", "software")

SUMMARY_COLUMNS = (
    "scale_class",
    "gpus",
    "servers",
    "racks",
    "it_kw",
    "capex",
    "capex_servers",
    "capex_network",
    "capex_storage",
    "capex_facility",
    "network_share",
    "opex_year1",
    "tco",
    "gpu_hours",
    "tco_per_gpu_hour",
    "cost_per_gpu_hour",
    "revenue",
    "npv",
    "irr",
    "payback_years",
    "roi",
    "mtbf_hours",
    "checkpoint_interval_hours",
    "goodput",
    "cost_per_effective_gpu_hour",
    "cost_per_pflop_hour",
    "availability",
    "peak_funding",
    "equity_npv",
    "equity_irr",
    "min_dscr",
    "debt_peak",
)
DEBT_LINES = (
    "balance_open",
    "draw",
    "capitalized_interest",
    "interest",
    "principal",
    "balloon",
    "balance_close",
)


@dataclass(frozen=True)
class TierResult:
    """Everything computed for one tier, for S scenario variants.

    ``capex``: asset class -> (S,) nominal sum of its capex events;
    ``capex_months``: asset class -> (S, M+1); ``opex`` and ``depreciation``:
    line -> (S, M+1); ``flows``: monthly cash-flow lines (revenue, opex, capex,
    depreciation, ebit, tax, terminal_value, terminal_tax, fcf, the levered lines
    and the indices) -> (S, M+1); ``debt``: :data:`DEBT_LINES` -> (S, M+1);
    ``annual``: year tables (EBIT, tax and the loss corkscrew, unlevered and
    levered, debt service) -> (S, Y); ``deployments``: one mapping per vintage
    (month, gpus, servers, it_kw, capex per class, total) of (S,) arrays;
    ``metrics``: summary column -> (S,); ``nbv``: asset class -> (S,) net book
    value at month M.
    """

    months: int
    capex: dict[str, FloatArray]
    capex_months: Mapping[str, FloatArray]
    opex: Mapping[str, FloatArray]
    depreciation: Mapping[str, FloatArray]
    nbv: dict[str, FloatArray]
    flows: Mapping[str, FloatArray]
    annual: Mapping[str, FloatArray]
    metrics: Mapping[str, FloatArray]
    debt: Mapping[str, FloatArray] = field(default_factory=dict)
    deployments: list[dict[str, FloatArray]] = field(default_factory=list)

    @property
    def size(self) -> int:
        return int(self.metrics["npv"].shape[0])


def _col(x: ArrayLike) -> FloatArray:
    """(S,) -> (S, 1) for broadcasting against months."""
    return np.atleast_1d(np.asarray(x, dtype=float))[:, None]


def _when(x: ArrayLike) -> FloatArray:
    """A month or a rate as a column: (1, 1) when every variant has the same value
    (the usual case: timing is rarely varied), else (S, 1). Shapes built from it
    are then (1, M+1), and products with them one pass over (S, M+1)."""
    v = np.atleast_1d(np.asarray(x, dtype=float))
    if v.size > 1 and np.all(v == v[0]):
        v = v[:1]
    return v[:, None]


def _discount(rate: ArrayLike, months: int) -> FloatArray:
    """:func:`finance.discount_factors`, computed once per distinct rate."""
    r = np.atleast_1d(np.asarray(rate, dtype=float))
    unique, inverse = np.unique(r, return_inverse=True)
    if unique.size == 1:
        return np.broadcast_to(fin.discount_factors(unique, months), (r.size, months + 1))
    if 2 * unique.size > r.size:
        return fin.discount_factors(r, months)
    return fin.discount_factors(unique, months)[inverse.reshape(-1)]


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
        table = np.power(1.0 + _when(annual_change), years)
        table = np.concatenate([np.zeros((table.shape[0], 1)), table], axis=1)
        year_of = np.ceil(np.arange(self.months + 1) / MONTHS_PER_YEAR).astype(np.intp)
        return table[:, year_of]

    def by_year(self, x: FloatArray) -> FloatArray:
        """Sum of months 12(y-1)+1 .. 12y for y = 1..Y: shape (S, Y)."""
        size = x.shape[0]
        return x[:, 1:].reshape(size, -1, MONTHS_PER_YEAR).sum(axis=2)

    def at_year_ends(self, table: FloatArray) -> FloatArray:
        """A year table (S, Y) placed at months 12y of an (S, M+1) array."""
        out = np.zeros((table.shape[0], self.months + 1))
        out[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR] = table
        return out

    def at(self, month: ArrayLike, amount: ArrayLike) -> FloatArray:
        """``amount`` (S,) placed at month ``month`` (S,) of an (S, M+1) array."""
        t = _when(month)
        a = _col(amount)
        if t.shape[0] == 1:
            out = np.zeros((a.shape[0], self.months + 1))
            out[:, int(t[0, 0])] = a[:, 0]
            return out
        return np.where(self.m == t, a, 0.0)

    def after(self, month: ArrayLike) -> FloatArray:
        """In-service flag: 1 for m > ``month``."""
        return (self.m > _when(month)).astype(float)


# ----------------------------------------------------------------------------- deployments


def deployments(
    q: Mapping[str, FloatArray], stages: int, months: int
) -> list[dict[str, FloatArray]]:
    """The tier's vintages (spec 14-16). Deployment 0 holds the tier's ``gpus`` and
    storage and is bought at ``t_0 = B = round(build_months)``; stage i at
    ``t_i = max(stage_i.month, B)`` (a Monte Carlo draw may put B after a stage).
    For each, with ``n = gpus / gpus_per_server``:

    - ``servers = n * price * (1 - price_decline)^(t / 12)``
    - ``storage = capacity_tb * price_per_tb``
    - ``network = share / (1 - share) * (servers + storage)``
    - ``it_kw = n * power_kw * (1 + aux_power_fraction)``
    - ``staff_fte``: the tier's headcount from ``t + 1`` on.
    """
    build = np.clip(np.round(q["build_months"]), 0, months - 1)
    out = []
    for i in range(stages + 1):
        key = "" if i == 0 else f"stage{i}_"
        month = build if i == 0 else np.maximum(q[f"stage{i}_month"], build)
        gpus = q["gpus"] if i == 0 else q[f"stage{i}_gpus"]
        capacity = q["storage_capacity_tb"] if i == 0 else q[f"stage{i}_capacity_tb"]
        n = gpus / q["gpus_per_server"]
        decline = np.power(1.0 - q["server_price_decline"], month / MONTHS_PER_YEAR)
        servers = n * q["server_price"] * decline
        storage = capacity * q["storage_price_per_tb"]
        share = q["network_share"]
        network = share / (1.0 - share) * (servers + storage)
        out.append(
            {
                "month": month,
                "gpus": gpus,
                "servers_n": n,
                "it_kw": n * q["server_power_kw"] * (1.0 + q["aux_power_fraction"]),
                "staff_fte": q[f"{key}staff_fte"],
                "servers": servers,
                "network": network,
                "storage": storage,
                "hardware": servers + network + storage,
            }
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


def capex_events(
    q: Mapping[str, FloatArray], deps: list[dict[str, FloatArray]]
) -> list[CapexEvent]:
    """Hardware of each deployment at its month, in service the month after; the
    facility (mode build, spec 15):

    - ``reserve_headroom``: one build at month 0 for the final IT kW,
      ``sum_d it_kw_d * build_cost_per_kw``, in service from ``B + 1``;
    - otherwise month 0 for deployment 0, and each stage adds
      ``it_kw_d * build_cost_per_kw * (1 + retrofit_premium)`` at its month.
    """
    build = deps[0]["month"]
    zero = np.zeros_like(build)
    rate = q["build_cost_per_kw"] * q["build_flag"]
    reserve = q["reserve_headroom"]
    total_kw = sum(d["it_kw"] for d in deps)
    first = np.where(reserve > 0, total_kw, deps[0]["it_kw"]) * rate
    events = [CapexEvent("facility", first, zero, build + 1)]
    for i, d in enumerate(deps):
        for cls in ("servers", "network", "storage"):
            events.append(CapexEvent(cls, d[cls], d["month"], d["month"] + 1))
        if i:
            extra = (1.0 - reserve) * d["it_kw"] * rate * (1.0 + q["retrofit_premium"])
            events.append(CapexEvent("facility", extra, d["month"], d["month"] + 1))
    return events


# ----------------------------------------------------------------------------- opex


def ramp(q: Mapping[str, FloatArray], month: FloatArray, clock: Clock) -> FloatArray:
    """Sold share of a deployment's hours (spec 14): ``u_d(m) = utilization *
    min(1, (m - t_d) / ramp_months)`` for m > t_d, 0 before (flat at
    ``utilization`` from t_d + 1 when ``ramp_months = 0``)."""
    r = _when(q["ramp_months"])
    since = clock.m - _when(month)
    share = np.where(r > 0, np.clip(since / np.where(r > 0, r, 1.0), 0.0, 1.0), since > 0)
    return _col(q["utilization"]) * share


def opex_lines(
    q: Mapping[str, FloatArray],
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    utilization: list[FloatArray],
    clock: Clock,
) -> dict[str, FloatArray]:
    """Monthly opex (spec 5 and 14), only for capacity in service (I_d = m > t_d),
    except staff, hired from month 1 (construction included):

    - ``electricity = sum_d it_kw_d (idle + (1 - idle) u_d(m)) I_d * pue * H *
      price_per_kwh * (1 + escalation)^(y-1)``
    - ``colocation = sum_d it_kw_d I_d * colocation_per_kw_month`` (mode colocation)
    - ``staff = staff_fte(m) * staff_cost_per_fte * (1 + staff_escalation)^(y-1) / 12``
    - ``maintenance = maintenance_rate * sum_d hardware_d I_d / 12``
    - ``insurance = insurance_rate * (in-service hardware + facility capex) / 12``
    - ``software = software_per_gpu_year * sum_d gpus_d I_d / 12``
    """
    idle = _col(q["idle_fraction"])
    live = [clock.after(d["month"]) for d in deps]
    kw_live = sum(_col(d["it_kw"]) * i for d, i in zip(deps, live, strict=True))
    kw_used = sum(_col(d["it_kw"]) * u for d, u in zip(deps, utilization, strict=True))
    energy = (idle * kw_live + (1.0 - idle) * kw_used) * _col(q["pue"]) * HOURS_PER_MONTH
    hardware = sum(_col(d["hardware"]) * i for d, i in zip(deps, live, strict=True))
    facility = sum(
        _col(e.amount) * clock.after(e.in_service - 1) for e in events if e.cls == "facility"
    )
    fte = _col(deps[0]["staff_fte"]) * clock.ops
    for d in deps[1:]:
        fte = np.where(clock.m > _col(d["month"]), _col(d["staff_fte"]), fte)
    gpus_live = sum(_col(d["gpus"]) * i for d, i in zip(deps, live, strict=True))
    per_month = 1.0 / MONTHS_PER_YEAR
    colo = _col(q["colocation_per_kw_month"] * (1.0 - q["build_flag"]))
    return {
        "electricity": energy * _col(q["price_per_kwh"]) * clock.index(q["power_escalation"]),
        "colocation": kw_live * colo,
        "staff": fte
        * _col(q["staff_cost_per_fte"])
        * clock.index(q["staff_escalation"])
        * per_month,
        "maintenance": _col(q["maintenance_rate"]) * hardware * per_month,
        "insurance": _col(q["insurance_rate"]) * (hardware + facility) * per_month,
        "software": _col(q["software_per_gpu_year"]) * gpus_live * per_month,
    }


# ----------------------------------------------------------------------------- depreciation


def depreciation_lines(
    q: Mapping[str, FloatArray], events: list[CapexEvent], config: TierConfig, clock: Clock
) -> dict[str, FloatArray]:
    """Monthly depreciation per asset class (spec 6 and 14): each event's annual
    amounts (:func:`finance.depreciation_annual`), asset year k covering months
    ``in_service + 12(k-1) .. in_service + 12k - 1``, each month 1/12 of it."""
    out = {cls: np.zeros((1, clock.months + 1)) for cls in ASSET_CLASSES}
    for e in events:
        life = config.depreciation_life_years[e.cls]
        annual = fin.depreciation_annual(
            e.amount, q[f"salvage_{e.cls}"], config.depreciation_method[e.cls], life
        )
        k = np.floor((clock.m - _when(e.in_service)) / MONTHS_PER_YEAR)
        idx = np.where((k >= 0) & (k < life), k, life).astype(np.intp)  # life: the 0 column
        monthly = np.concatenate([annual / MONTHS_PER_YEAR, np.zeros((annual.shape[0], 1))], 1)
        if idx.shape[0] == 1:
            out[e.cls] = out[e.cls] + monthly[:, idx[0]]
        else:
            out[e.cls] = out[e.cls] + np.take_along_axis(monthly, idx, axis=1)
    return out


# ----------------------------------------------------------------------------- tax


def tax_with_losses(
    taxable: FloatArray, tax_rate: ArrayLike, carryforward_years: int | None
) -> dict[str, FloatArray]:
    """Annual tax with a loss pool (spec 7 and 18), ``taxable`` of shape (S, Y).

    A loss of year v (``taxable_v <= 0``) adds ``-taxable_v`` to vintage v; a profit
    in year y uses the vintages v with ``y - v <= N`` oldest first, up to the
    profit; ``tax_y = tax_rate * (taxable_y - used_y)``; after year y the vintage
    ``v = y - N`` expires (``N = carryforward_years``; ``None``: never, 0: no
    carry-forward). Returns tax, the pool corkscrew (open, added, used, expired,
    close) per year.
    """
    rows = _tax_t(np.asarray(taxable, dtype=float).T, tax_rate, carryforward_years)
    return {k: np.ascontiguousarray(v.T) for k, v in rows.items()}


def _tax_t(
    taxable: FloatArray,
    tax_rate: ArrayLike,
    carryforward_years: int | None,
    pool: bool = True,
) -> dict[str, FloatArray]:
    """:func:`tax_with_losses` with years first: ``taxable`` and the rows (Y, S);
    without ``pool``, the tax alone (a by-year run reads no other row)."""
    years, size = taxable.shape
    n = years + 1 if carryforward_years is None else carryforward_years
    vintage = np.zeros((years, size))
    names = ("open", "added", "used", "expired", "tax") if pool else ("tax",)
    rows = {k: np.zeros((years, size)) for k in names}
    rate = np.broadcast_to(np.asarray(tax_rate, dtype=float), (size,))
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
        used = profit - need
        vintage[y] = np.where(loss, -e, 0.0)
        rows["tax"][y] = np.where(loss, 0.0, rate * (e - used))
        if pool:
            rows["used"][y] = used
            rows["added"][y] = vintage[y]
        if 0 <= y - n < years:
            if pool:
                rows["expired"][y] = vintage[y - n]
            vintage[y - n] = 0.0
    if pool:
        close = vintage.sum(axis=0)
        rows["close"] = np.concatenate([rows["open"][1:], close[None, :]], axis=0)
    return rows


# ----------------------------------------------------------------------------- debt


def debt_schedule(
    q: Mapping[str, FloatArray], capex_m: FloatArray, build: FloatArray, clock: Clock
) -> dict[str, FloatArray]:
    """Debt of spec 17: the capex of each month t is financed ``debt_share`` by a
    loan ``D`` drawn at t. With ``r = (1 + interest_rate)^(1/12) - 1``, first
    payment ``p = max(t, B) + 1`` and ``n = 12 term_years``: interest accrues from
    t + 1 and is capitalized until p (``b = D (1 + r)^(p - 1 - t)``); then level
    payments ``P = b r / (1 - (1 + r)^-n)`` (``b / n`` at r = 0), interest ``r`` x
    the opening balance, principal ``P - interest``; what is owed at M is repaid
    at M (balloon). Lines (S, M+1): :data:`DEBT_LINES`.
    """
    size, width = capex_m.shape
    r_all = np.broadcast_to(_col(fin.monthly_rate(q["interest_rate"])), (size, 1))
    term = np.asarray(q["term_years"], dtype=float) * MONTHS_PER_YEAR
    n_all = np.broadcast_to(_col(term), (size, 1))
    share = np.broadcast_to(_col(q["debt_share"]), (size, 1))
    build_all = np.broadcast_to(np.asarray(build, dtype=float), (size,))
    lines = {k: np.zeros((size, width)) for k in DEBT_LINES}
    if not np.any(share):
        return lines
    full_all = np.power(1.0 + r_all, n_all)
    m = clock.m
    for t in range(width - 1):
        draw = share[:, 0] * capex_m[:, t]
        rows = np.flatnonzero(draw)
        if rows.size == 0:
            continue
        # only the variants that borrow at t (the others' lines get exact zeros)
        at = slice(None) if rows.size == size else rows
        r, n, full = r_all[at], n_all[at], full_all[at]
        growth = 1.0 + r
        d = _col(draw[at])
        p = _col(np.maximum(t, build_all[at]) + 1)
        b = d * np.power(growth, p - 1 - t)
        k = m - p  # payments made before month m
        paying = (m >= p) & (k < n)
        if np.any(r > 0):
            left = np.where(r > 0, (full - np.power(growth, k)) / np.where(r > 0, full - 1, 1), 0)
            left_after = np.where(
                r > 0, (full - np.power(growth, k + 1)) / np.where(r > 0, full - 1, 1), 0
            )
        else:
            left = left_after = 0.0
        flat = r == 0
        left = np.where(flat, 1.0 - k / n, left)
        left_after = np.where(flat, 1.0 - (k + 1) / n, left_after)
        opening = b * left
        interest = np.where(paying, r * opening, 0.0)
        principal = np.where(paying, b * (left - left_after), 0.0)
        building = (m > t) & (m < p)
        accrued = d * np.power(growth, m - t)
        capitalized = np.where(building, accrued - d * np.power(growth, m - 1 - t), 0.0)
        close = np.where(m == t, d, 0.0) + np.where(building, accrued, 0.0)
        close = close + np.where(paying, b * np.maximum(left_after, 0.0), 0.0)
        lines["draw"][:, t] += draw
        lines["capitalized_interest"][at] += capitalized
        lines["interest"][at] += interest
        lines["principal"][at] += principal
        lines["balance_close"][at] += close
    before = lines["balance_close"].copy()  # closing balances before the balloon
    lines["balloon"][:, -1] = before[:, -1]
    lines["balance_close"][:, -1] = 0.0
    lines["balance_open"][:, 1:] = before[:, :-1]
    return lines


# ----------------------------------------------------------------------------- terminal


def terminal_lines(
    q: Mapping[str, FloatArray],
    events: list[CapexEvent],
    nbv_total: FloatArray,
    config: TierConfig,
) -> tuple[FloatArray, FloatArray]:
    """Terminal value at M and its tax (spec 7 and 19): ``book``: the net book
    value, untaxed; ``none``: 0; ``market``: ``sum_events cost (1 -
    market_decline_class)^((M - t) / 12)``, taxed ``tax_rate (value - NBV)`` (a
    negative tax is a refund)."""
    zero = np.zeros_like(nbv_total)
    if config.terminal_value == "book":
        return nbv_total, zero
    if config.terminal_value == "none":
        return zero, zero
    value = sum(
        e.amount
        * np.power(1.0 - q[f"market_decline_{e.cls}"], (config.months - e.month) / MONTHS_PER_YEAR)
        for e in events
    )
    return value, q["tax_rate"] * (value - nbv_total)


# ----------------------------------------------------------------------------- the tier


def _inputs(p: Mapping[str, ArrayLike]) -> dict[str, FloatArray]:
    """Every input broadcast to (S,) (an (S,) float array as it is)."""
    size = int(np.broadcast_shapes(*[np.shape(v) for v in p.values()], (1,))[0])
    full = (size,)
    return {
        k: v
        if isinstance(v, np.ndarray) and v.shape == full and v.dtype == np.float64
        else np.broadcast_to(np.asarray(v, dtype=float), full)
        for k, v in p.items()
    }


def _defaults(q: dict[str, FloatArray]) -> dict[str, FloatArray]:
    """v1 inputs run as v1 (no build, no ramp, no debt, cash at the discount rate)."""
    zero = np.zeros_like(q["gpus"])
    defaults = {
        "build_months": zero,
        "ramp_months": zero,
        "server_price_decline": zero,
        "retrofit_premium": zero,
        "reserve_headroom": zero + 1.0,
        "repair_hours": zero,
        "debt_share": zero,
        "interest_rate": zero,
        "term_years": zero + 1.0,
        "cost_of_equity": q["discount_rate"],
    }
    return {**defaults, **q}


def run_tier(p: Mapping[str, ArrayLike], config: TierConfig) -> TierResult:
    """Compute one tier for S variants. ``p`` holds the inputs named in
    :func:`costmodel.inputs.params.resolve_tier`, each a scalar or an (S,) array.

    ``FCF_m = -capex_m + revenue_m - opex_m - tax_m`` (+ terminal value - terminal
    tax at M); ``ECF_m = FCF_m + draw_m - interest_m - principal_m - balloon_m +
    tax_m - tax_levered_m`` (spec 17).

    When every variant shares its timing (deployment months and ramp; the usual
    case, and always for a single build) the summary is computed from year tables
    (:func:`_run_by_year`) and the monthly schedules (``opex``, ``depreciation``,
    ``flows``, ``debt``, ``capex_months``, ``annual``) are built by
    :func:`_run_monthly` on first access; when timing differs, so is each group of
    variants of one timing if there are few (:func:`_run_grouped`); otherwise
    everything is computed month by month at once. All give the same numbers up
    to rounding.
    """
    q = _defaults(_inputs(p))
    # which way to go depends on which inputs are given per variant (arrays) and,
    # when timing is, on the distinct timings: each variant is computed by year
    # with the variants of its own timing (a group of two at least), so that its
    # numbers do not depend on the other variants of its chunk (Monte Carlo
    # results do not depend on the chunk size)
    varied = {k for k, v in p.items() if np.ndim(v) > 0}
    timing_inputs = {"build_months", "ramp_months"}
    timing_inputs |= {f"stage{i}_month" for i in range(1, config.stages + 1)}
    one_loan = not varied & {"interest_rate", "term_years"}
    size = q["gpus"].shape[0]
    with blas_single_thread():
        deps = deployments(q, config.stages, config.months)
        # one timing for every variant (a Monte Carlo's chunk usually has one):
        # computed by year at once, as the one group of :func:`_run_grouped` would
        # be (a lone variant with varied timing goes there, to be run twice)
        if not varied & timing_inputs or size > 1:
            timing = _shared_timing(q, deps)
            if timing is not None:
                return _run_by_year(q, config, deps, timing, one_loan)
        groups = _timing_groups(q, deps)
        if len(groups) > max(MAX_TIMING_GROUPS, size / 20):
            return _run_monthly(q, config, deps)
        return _run_grouped(q, config, deps, groups, one_loan)


#: timing groups run by year (more, when there are at least 20 variants per group
#: on average); beyond that a chunk is computed month by month
MAX_TIMING_GROUPS = 256


def _timing_groups(
    q: Mapping[str, FloatArray], deps: list[dict[str, FloatArray]]
) -> list[tuple[np.ndarray, tuple[list[int], float]]]:
    """The variants (indices, ascending) of each distinct timing (deployment
    months, ramp months), in order of timing."""
    size = q["gpus"].shape[0]
    cols = [np.broadcast_to(d["month"], (size,)) for d in deps]
    cols.append(np.broadcast_to(q["ramp_months"], (size,)))
    keys = np.stack(cols, axis=1)
    order = np.lexsort(keys.T[::-1])  # stable: indices ascend within a timing
    ordered = keys[order]
    new = np.ones(size, dtype=bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    starts = np.flatnonzero(new)
    out = []
    for a, b in zip(starts, np.r_[starts[1:], size], strict=True):
        key = ordered[a]
        out.append((order[a:b], ([int(t) for t in key[:-1]], float(key[-1]))))
    return out


def _run_grouped(
    q: dict[str, FloatArray],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    groups: list[tuple[np.ndarray, tuple[list[int], float]]],
    one_loan: bool,
) -> TierResult:
    """:func:`run_tier` for variants whose timing differs: :func:`_run_by_year`
    for the variants of each timing (a lone variant twice, so that it is summed as
    in a group: see the module docstring), the summary (IRRs included, each
    group's computed when read) scattered back in order; the monthly schedules
    are built by :func:`_run_monthly` on first access."""
    size = q["gpus"].shape[0]
    parts = []
    for idx, timing in groups:  # (one timing for all of several variants: run_tier)
        take = idx if idx.size > 1 else np.repeat(idx, 2)
        qg = {k: v[take] for k, v in q.items()}
        deps_g = [{k: np.broadcast_to(v, (size,))[take] for k, v in d.items()} for d in deps]
        parts.append((idx, _run_by_year(qg, config, deps_g, timing, one_loan)))

    def scatter(get: Callable[[TierResult], FloatArray]) -> FloatArray:
        values = [(idx, np.asarray(get(r))) for idx, r in parts]
        out = np.empty(size, dtype=values[0][1].dtype)
        for idx, v in values:
            out[idx] = np.broadcast_to(v, (max(idx.size, 2),))[: idx.size]
        return out

    def lazy(name: str) -> Callable[[], FloatArray]:
        return lambda: scatter(lambda r: r.metrics[name])

    # every metric, the IRRs too (solved on each group's segments of months), is
    # each group's, put back in order
    metrics = _Metrics({name: lazy(name) for name in parts[0][1].metrics})
    full_run = cache(lambda: _run_monthly(q, config, deps))
    return TierResult(
        months=config.months,
        capex={c: scatter(lambda r, c=c: r.capex[c]) for c in parts[0][1].capex},
        capex_months=_Lazy(lambda: full_run().capex_months),
        opex=_Lazy(lambda: full_run().opex),
        depreciation=_Lazy(lambda: full_run().depreciation),
        nbv={c: scatter(lambda r, c=c: r.nbv[c]) for c in parts[0][1].nbv},
        flows=_Lazy(lambda: full_run().flows),
        annual=_Lazy(lambda: full_run().annual),
        metrics=metrics,
        debt=_Lazy(lambda: full_run().debt),
        deployments=deps,
    )


def _shared_timing(
    q: Mapping[str, FloatArray], deps: list[dict[str, FloatArray]]
) -> tuple[list[int], float] | None:
    """Deployment months and ramp months if every variant has the same, else None."""
    months = []
    for d in deps:
        t = _when(d["month"])
        if t.shape[0] != 1:
            return None
        months.append(int(t[0, 0]))
    r = _when(q["ramp_months"])
    if r.shape[0] != 1:
        return None
    return months, float(r[0, 0])


class _Lazy(Mapping):
    """A mapping whose contents are computed by ``source()`` on first access."""

    def __init__(self, source: Callable[[], Mapping[str, FloatArray]]):
        self._source = source
        self._data: Mapping[str, FloatArray] | None = None
        self._lock = Lock()

    def _get(self) -> Mapping[str, FloatArray]:
        if self._data is None:
            with self._lock:
                if self._data is None:
                    self._data = self._source()
        return self._data

    def __getitem__(self, key: str) -> FloatArray:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"<lazy lines {list(self) if self._data is not None else '(not built)'}>"


class _Metrics(Mapping):
    """Summary columns; the IRRs (the costliest) are computed when first read."""

    def __init__(self, values: dict[str, FloatArray | Callable[[], FloatArray]]):
        self._values = values
        self._lock = Lock()

    def __getitem__(self, key: str) -> FloatArray:
        v = self._values[key]
        if callable(v):
            with self._lock:
                v = self._values[key]
                if callable(v):
                    v = v()
                    self._values[key] = v
        return v

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values


def _run_monthly(
    q: dict[str, FloatArray], config: TierConfig, deps: list[dict[str, FloatArray]]
) -> TierResult:
    """:func:`run_tier` month by month: every line as an (S, M+1) array.

    ``EBIT = revenue - opex - depreciation``; the cash lines (tax, terminal
    value, FCF, debt, ECF) are :func:`_monthly_cash`."""
    clock = Clock(config.months)
    events = capex_events(q, deps)
    utilization = [ramp(q, d["month"], clock) for d in deps]
    opex = opex_lines(q, deps, events, utilization, clock)
    opex_total = sum(opex.values())
    capex_months = _capex_months(events, clock)
    dep = depreciation_lines(q, events, config, clock)
    goodput_m = _goodput(q, deps)
    gpu_hours, price_index, revenue = _revenue_lines(q, deps, utilization, goodput_m, clock)
    ebit = revenue - opex_total - sum(dep.values())
    cf = _monthly_cash(q, config, clock, deps, events, capex_months, dep, revenue, opex_total, ebit)
    shape = cf["fcf"].shape
    flows = {
        "gpu_hours": np.broadcast_to(gpu_hours, shape),
        "utilization": sum(utilization) if len(deps) == 1 else _weighted(deps, utilization),
        "price_index": np.broadcast_to(price_index, shape),
        "power_index": np.broadcast_to(clock.index(q["power_escalation"]), shape),
        "staff_index": np.broadcast_to(clock.index(q["staff_escalation"]), shape),
        "revenue": revenue,
        "opex": np.broadcast_to(opex_total, shape),
        "capex": np.broadcast_to(cf["capex"], shape),
        "depreciation": np.broadcast_to(sum(dep.values()), shape),
        "ebit": ebit,
        "tax": cf["tax_m"],
        "terminal_value": cf["terminal"],
        "terminal_tax": cf["terminal_tax"],
        "fcf": cf["fcf"],
        "discount_factor": _discount(q["discount_rate"], config.months),
        "tax_levered": cf["tax_levered"],
        "cfads": cf["cfads"],
        "debt_service": cf["service"],
        "ecf": cf["ecf"],
        "equity_discount_factor": _discount(q["cost_of_equity"], config.months),
    }
    annual = _annual(clock, cf["tax"], cf["levered"], cf["cfads"], cf["service"], ebit)
    full = (shape[0],)
    capex_by = {c: np.broadcast_to(v.sum(axis=1), full) for c, v in capex_months.items()}
    metrics = _monthly_metrics(
        q, deps, goodput_m, capex_by, (cf["capex"], opex_total, gpu_hours), flows, cf, annual
    )
    return TierResult(
        months=config.months,
        capex=capex_by,
        capex_months={c: np.broadcast_to(v, shape) for c, v in capex_months.items()},
        opex={k: np.broadcast_to(v, shape) for k, v in opex.items()},
        depreciation={k: np.broadcast_to(v, shape) for k, v in dep.items()},
        nbv=cf["nbv"],
        flows=flows,
        annual=annual,
        metrics=metrics,
        debt=cf["debt"],
        deployments=deps,
    )


def _capex_months(events: list[CapexEvent], clock: Clock) -> dict[str, FloatArray]:
    """Capex per asset class month by month (1 or S, M+1): each event's amount at
    its month."""
    capex_months = {cls: np.zeros((1, clock.months + 1)) for cls in ASSET_CLASSES}
    for e in events:
        capex_months[e.cls] = capex_months[e.cls] + clock.at(e.month, e.amount)
    return capex_months


def _revenue_lines(
    q: Mapping[str, FloatArray],
    deps: list[dict[str, FloatArray]],
    utilization: list[FloatArray],
    goodput_m: Mapping[str, FloatArray],
    clock: Clock,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """GPU-hours sold ``sum_d GPUs_d u_d(m) * availability * 730 h``, the price
    index ``(1 - price decline)^(y(m) - 1)`` and ``revenue = GPU-hours * price per
    GPU-hour * price index``, month by month."""
    gpu_hours = (
        sum(_col(d["gpus"]) * u for d, u in zip(deps, utilization, strict=True))
        * _col(goodput_m["availability"])
        * HOURS_PER_MONTH
    )
    price_index = clock.index(-np.asarray(q["price_decline"]))
    revenue = gpu_hours * _col(q["price_per_gpu_hour"]) * price_index
    return gpu_hours, price_index, revenue


def _monthly_cash(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    clock: Clock,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    capex_months: dict[str, FloatArray],
    dep: dict[str, FloatArray],
    revenue: FloatArray,
    opex_total: FloatArray,
    ebit: FloatArray,
) -> dict[str, Any]:
    """Tax, terminal value and cash flows month by month:

    - ``tax``: :func:`tax_with_losses` of the yearly EBIT (paid at year ends);
      NBV per class = capex - depreciation; terminal value and its tax
      (:func:`terminal_lines`) at month M;
    - ``FCF = revenue - opex - tax - capex + terminal - terminal tax``;
    - debt (:func:`debt_schedule`); levered tax of ``EBIT - interest`` (the
      unlevered tax when nothing is drawn); ``CFADS = revenue - opex - levered
      tax``; ``ECF = CFADS - capex + draws - service - balloon + terminal -
      terminal tax``."""
    capex_m = sum(capex_months.values())
    tax = tax_with_losses(clock.by_year(ebit), q["tax_rate"], config.loss_carryforward_years)
    nbv = {cls: capex_months[cls].sum(axis=1) - dep[cls].sum(axis=1) for cls in ASSET_CLASSES}
    nbv = {cls: np.broadcast_to(v, (revenue.shape[0],)) for cls, v in nbv.items()}
    terminal, terminal_tax = terminal_lines(q, events, sum(nbv.values()), config)
    terminal_m = clock.at(config.months, terminal)
    terminal_tax_m = clock.at(config.months, terminal_tax)
    tax_m = clock.at_year_ends(tax["tax"])
    operating = revenue - opex_total - tax_m
    fcf = operating - capex_m + terminal_m - terminal_tax_m
    debt = debt_schedule(q, np.broadcast_to(capex_m, fcf.shape), deps[0]["month"], clock)
    borrowed = bool(np.any(debt["draw"]))
    levered = (
        tax_with_losses(
            clock.by_year(ebit - debt["interest"]), q["tax_rate"], config.loss_carryforward_years
        )
        if borrowed
        else tax
    )
    tax_levered_m = clock.at_year_ends(levered["tax"])
    cfads = revenue - opex_total - tax_levered_m
    service = debt["interest"] + debt["principal"]
    ecf = cfads - capex_m + debt["draw"] - service - debt["balloon"] + terminal_m - terminal_tax_m
    return {
        "capex": capex_m,
        "tax": tax,
        "tax_m": tax_m,
        "nbv": nbv,
        "terminal": terminal_m,
        "terminal_tax": terminal_tax_m,
        "fcf": fcf,
        "debt": debt,
        "borrowed": borrowed,
        "levered": levered,
        "tax_levered": tax_levered_m,
        "cfads": cfads,
        "service": service,
        "ecf": ecf,
    }


def _monthly_metrics(
    q: Mapping[str, FloatArray],
    deps: list[dict[str, FloatArray]],
    goodput_m: dict[str, FloatArray],
    capex_by: dict[str, FloatArray],
    lines: tuple[FloatArray, FloatArray, FloatArray],
    flows: dict[str, FloatArray],
    cf: dict[str, Any],
    annual: dict[str, FloatArray],
) -> _Metrics:
    """:func:`_summary` of a monthly run (``lines``: capex, opex and GPU-hours
    month by month): present values ``sum_m x(m) d(m)`` at the discount factors
    (of cost: capex + opex; of GPU-hours; NPV of FCF; equity NPV of ECF at the
    cost of equity), payback and peak funding from the cumulative FCF without
    the terminal value, the debt peak ``max_m (balance + balloon)``."""
    capex_m, opex_total, gpu_hours = lines
    fcf, ecf, debt = flows["fcf"], flows["ecf"], cf["debt"]
    full = (fcf.shape[0],)
    disc = flows["discount_factor"]
    cash = np.cumsum(fcf - flows["terminal_value"] + flows["terminal_tax"], axis=1)
    return _summary(
        q,
        deps,
        goodput_m,
        capex_by=capex_by,
        opex_sum=np.broadcast_to(opex_total.sum(axis=1), full),
        opex_year1=opex_total[:, 1 : MONTHS_PER_YEAR + 1].sum(axis=1) + np.zeros(full),
        pv_cost=fin.present_value(capex_m, disc) + fin.present_value(opex_total, disc),
        pv_gpu_hours=fin.present_value(gpu_hours, disc),
        gpu_hours=gpu_hours.sum(axis=1),
        revenue=flows["revenue"].sum(axis=1),
        npv=fin.present_value(fcf, disc),
        fcf=fcf,
        fcf_sum=fcf.sum(axis=1),
        payback=fin.payback_years(cash),
        peak_funding=np.maximum(0.0, -cash.min(axis=1)),
        equity_npv=fin.present_value(ecf, flows["equity_discount_factor"]),
        ecf=(lambda: ecf) if cf["borrowed"] else None,
        dscr=annual["dscr"],
        debt_peak=(debt["balance_close"] + debt["balloon"]).max(axis=1),
        terminal=flows["terminal_value"][:, -1],
        terminal_tax=flows["terminal_tax"][:, -1],
    )


def _goodput(q: Mapping[str, FloatArray], deps: list[dict[str, FloatArray]]) -> dict:
    return goodput(
        sum(d["servers_n"] for d in deps),
        q["node_failures_per_day"],
        q["checkpoint_tb"],
        q["write_gbps"],
        q["restart_hours"],
        q["repair_hours"],
    )


# ----------------------------------------------------------------------------- by year


class _Discount:
    """Discounting at the annual ``rate`` of each variant ((1,) when all share it,
    else (S,)): the factors ``d(m) = exp(-m L)``, ``L = ln(1 + r_m)``
    (:func:`finance.discount_factors`), month by month (:meth:`table`) or summed
    over runs of months in closed form (:meth:`sums`)."""

    def __init__(self, rate: FloatArray):
        self.rate = rate
        self.log_base = np.log(1.0 + fin.monthly_rate(rate))
        self._step = np.expm1(-self.log_base)  # e^(-L) - 1, every ratio's denominator
        self._tables: dict[int, FloatArray] = {}
        self._ratios: dict[int, FloatArray] = {}

    def table(self, months: int) -> FloatArray:
        """(M+1, 1 or S), read-only: ``d(m)`` for m = 0..M."""
        out = self._tables.get(months)
        if out is None:
            out = fin.discount_factors(self.rate, months, months_first=True)
            out.flags.writeable = False
            self._tables[months] = out
        return out

    def _ratio(self, k: int) -> FloatArray:
        """``sum_{j<k} e^(-jL) = (1 - e^(-kL)) / (1 - e^(-L))`` (k where L = 0), by
        ``expm1``; exactly 1 for k = 1."""
        out = self._ratios.get(k)
        if out is None:
            with np.errstate(invalid="ignore"):
                out = np.expm1(-k * self.log_base) / self._step
            out = np.where(self.log_base == 0.0, float(k), out)
            self._ratios[k] = out
        return out

    def sums(self, starts: np.ndarray, lengths: Sequence[int]) -> FloatArray:
        """(R, 1 or S): ``sum_{m=a}^{a+k-1} d(m) = d(a) sum_{j<k} e^(-jL)`` for each
        run of months (first month a, k months): one exponential per run, within a
        few units in the last place of the k factors added; a run of one month is
        ``d(a)`` itself."""
        out = np.exp(np.multiply.outer(-np.asarray(starts, dtype=float), self.log_base))
        for r, k in enumerate(lengths):
            if k != 1:
                out[r] *= self._ratio(k)
        return out

    def same_rates(self, other: _Discount) -> bool:
        """Whether ``other`` discounts every variant at the same rate."""
        return other is self or np.array_equal(other.rate, self.rate)


_DISCOUNT_CACHE: dict[bytes, _Discount] = {}
_DISCOUNT_LOCK = Lock()


def _discounting(rate: FloatArray) -> _Discount:
    """The :class:`_Discount` of ``rate`` (S,), remembered for the last few rates
    (the tiers of one chunk share the discount rate and usually the cost of
    equity, and so what :func:`_remembered` keeps of it)."""
    r = _when(rate)[:, 0]
    key = r.tobytes()
    with _DISCOUNT_LOCK:
        hit = _DISCOUNT_CACHE.get(key)
    if hit is not None:
        return hit
    d = _Discount(r)
    with _DISCOUNT_LOCK:
        if len(_DISCOUNT_CACHE) >= 8:
            _DISCOUNT_CACHE.pop(next(iter(_DISCOUNT_CACHE)))
        _DISCOUNT_CACHE[key] = d
    return d


@dataclass(frozen=True)
class _Shapes:
    """The monthly shapes of a tier whose deployments d (months ``t_d``, ramp R)
    are shared by every variant, K = 3D of them: in service ``I_d(m) = [m > t_d]``
    (k = d); ramp share ``min(1, (m - t_d) / R)`` for m > t_d (``[m > t_d]`` at
    R = 0) (k = D + d); staffing ``W_d(m)``: 1 where deployment d's headcount
    applies (k = 2D + d).

    ``sums`` (Y, K): their sums per model year. Months 1..M split into runs of
    months in one model year over which every shape is constant: ``run_year``
    (P,), ``run_shapes`` (P, K) the shapes' values, ``run_starts`` (P,) first
    months - 1 (for ``np.add.reduceat`` over months 1..M), ``run_of`` (M,) the run
    of each month, ``month_row`` (M+1,) ``0`` for month 0 and ``1 + run_of`` for
    months 1..M (rows of :func:`_per_run`, whose row 0 is month 0's zero)."""

    sums: FloatArray
    run_year: np.ndarray
    run_shapes: FloatArray
    run_starts: np.ndarray
    run_of: np.ndarray
    month_row: np.ndarray
    #: per shape k: the rows of :func:`_per_run` where it is not 0 (a slice when they
    #: are consecutive), their model years and their values (None: all 1)
    terms: tuple[tuple[slice | np.ndarray, np.ndarray, FloatArray | None], ...] = ()


@cache
def _shapes(months: int, timing: tuple[tuple[int, ...], float]) -> _Shapes:
    t, r = timing
    m = np.arange(months + 1, dtype=float)
    live = [(m > td).astype(float) for td in t]
    share = []
    for td in t:
        since = m - td
        share.append(np.clip(since / r, 0.0, 1.0) if r > 0 else (since > 0).astype(float))
    who = np.where(m >= 1, 0, -1)
    for d in range(1, len(t)):
        who = np.where(m > t[d], d, who)
    staff = [(who == d).astype(float) for d in range(len(t))]
    h = np.stack(live + share + staff)[:, 1:]  # (K, M): months 1..M
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
    out = _Shapes(
        sums=np.ascontiguousarray(h.reshape(h.shape[0], -1, MONTHS_PER_YEAR).sum(axis=2).T),
        run_year=run_year,
        run_shapes=np.ascontiguousarray(run_shapes),
        run_starts=starts,
        run_of=np.cumsum(new_run) - 1,
        month_row=np.r_[0, np.cumsum(new_run)],
        terms=tuple(terms),
    )
    for arr in (out.sums, out.run_year, out.run_shapes, out.run_starts, out.run_of, out.month_row):
        arr.flags.writeable = False
    return out


@cache
def _depreciation_counts(
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


@cache
def _unit_debt(months: int, draws: tuple[int, ...], build: int, rate: float, term: float):
    """Loans of 1 drawn at each month of ``draws`` (:func:`debt_schedule`), as
    matrices over the draws T: net debt cash flow ``draw - interest - principal -
    balloon`` (M+1, T); interest and debt service per model year (Y, T); the
    balance (closing plus balloon) at the months where the total can peak (C, T):
    B and the draw months after it (before B balances only grow, after it they
    only fall between draws)."""
    clock = Clock(months)
    q1 = {
        "interest_rate": np.array([rate]),
        "term_years": np.array([term]),
        "debt_share": np.array([1.0]),
    }
    cols = []
    for t in draws:
        unit = np.zeros((1, months + 1))
        unit[0, t] = 1.0
        cols.append(debt_schedule(q1, unit, np.array([float(build)]), clock))
    peaks = [build] + [t for t in draws if t > build]

    def stack(f: Callable[[dict[str, FloatArray]], FloatArray]) -> FloatArray:
        return np.ascontiguousarray(np.concatenate([f(u) for u in cols], axis=0).T)

    out = (
        stack(lambda u: u["draw"] - u["interest"] - u["principal"] - u["balloon"]),
        stack(lambda u: clock.by_year(u["interest"])),
        stack(lambda u: clock.by_year(u["interest"] + u["principal"])),
        stack(lambda u: (u["balance_close"] + u["balloon"])[:, peaks]),
    )
    for arr in out:
        arr.flags.writeable = False
    return out


def _run_by_year(
    q: dict[str, FloatArray],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    timing: tuple[list[int], float],
    one_loan: bool = True,
) -> TierResult:
    """:func:`run_tier` for variants that share their timing (and, with
    ``one_loan``, their interest rate and loan term).

    Every operating line is ``sum_k c_k(y, s) h_k(m)``: a coefficient per model
    year and variant (inputs times the year's escalation or price index) times a
    monthly shape shared by all variants (:func:`_shapes`). Nominal and
    discounted sums come from the coefficients (:data:`Coefficients`) and the
    shapes' (and discounted shapes') year sums. The FCF is built per segment of
    months over which it is constant (:func:`_fcf_by_segment`), months first
    ((Q, S): each segment one contiguous row); its NPV and IRR are computed on
    the segments, and month by month (M+1, S) only what reads it: payback, peak
    funding, ROI, the equity lines. Depreciation is summed per model year
    (:func:`_depreciation_counts`); debt is the draws times the schedules of unit
    loans (:func:`_unit_debt`) when every variant borrows at the same rate and
    term; the equity lines are computed when one of their metrics is read (a
    Monte Carlo reads none).
    """
    months = config.months
    t, r = timing
    events = capex_events(q, deps)
    size = q["gpus"].shape[0]  # every input is (S,) (_inputs)
    full = (size,)
    shapes = _shapes(months, (tuple(t), r))
    goodput_m = _Lazy(lambda: _goodput(q, deps))  # read by metrics a Monte Carlo skips
    available = availability(q["node_failures_per_day"], q["repair_hours"])
    rev, hours, opex = _operating_coefficients(q, deps, events, available, months, size)
    rev_y, opex_y = (_year_sums(c, shapes.sums) for c in (rev, opex))
    disc = _discounting(q["discount_rate"])
    disc_shapes = _discounted_shapes(shapes, disc)  # (Y, K, 1 or S)
    capex_by, capex_at = _capex_by_month(events, full)
    dep_y, nbv = _depreciation_by_year(q, config, events, capex_by, size)
    terminal_all = terminal_lines(q, events, sum(nbv.values()), config)
    terminal, terminal_tax = (np.broadcast_to(v, full) for v in terminal_all)
    ebit_y = rev_y - opex_y - dep_y
    margin_y = rev_y - opex_y
    tax = _tax_t(ebit_y, q["tax_rate"], config.loss_carryforward_years, pool=False)
    seg = _segments(months, (tuple(t), r), tuple(capex_at))
    fcf, fcf_monthly, payback_and_peak = _fcf_by_segment(
        seg, _per_run(shapes, _margin(rev, opex)), tax["tax"], capex_at, terminal - terminal_tax
    )
    npv = _sum_rows(fcf * _segment_discounts(seg, disc))
    equity = cache(
        lambda: _equity_by_year(
            q, config, t[0], one_loan, capex_at, fcf_monthly(), npv, disc, ebit_y, tax, margin_y
        )
    )
    at_capex = disc.sums(np.array(list(capex_at), dtype=float), [1] * len(capex_at))
    pv_capex = sum(a * d for a, d in zip(capex_at.values(), at_capex, strict=True))
    metrics = _summary(
        q,
        deps,
        goodput_m,
        capex_by=capex_by,
        opex_sum=opex_y.sum(axis=0),
        opex_year1=opex_y[0] + 0.0,
        pv_cost=pv_capex + _pv_lines(opex, disc_shapes),
        pv_gpu_hours=_pv_lines(hours, disc_shapes),
        gpu_hours=lambda: _year_sums(hours, shapes.sums).sum(axis=0),
        revenue=rev_y.sum(axis=0),
        npv=npv,
        fcf=lambda: fcf_monthly().T,
        fcf_sum=lambda: fcf_monthly().sum(axis=0),
        irr=lambda: _irr(fcf.T, seg.runs),
        payback=lambda: payback_and_peak()[0],  # not read by a Monte Carlo
        peak_funding=lambda: payback_and_peak()[1],
        equity_npv=lambda: _value(equity()[3]),
        ecf=(lambda: equity()[0]()) if _borrows(q, capex_at) else None,  # type: ignore[misc]
        dscr=lambda: equity()[1],
        debt_peak=lambda: equity()[2],
        terminal=terminal,
        terminal_tax=terminal_tax,
    )
    return _lazy_schedules(q, config, deps, capex_by, nbv, metrics)


def _year_index(g: ArrayLike, years: int) -> FloatArray:
    """(Y, S or 1): Clock.index per year, ``(1 + g)^y`` for model years y = 0 ..
    Y-1. The power runs along the years (as in Clock.index) and is then
    transposed: vectorised transcendental functions may round differently by
    position, and the variants' results must not depend on their position in a
    chunk."""
    year_no = np.arange(years, dtype=float)[None, :]
    return np.power(1.0 + _when(g), year_no).T


#: a line's coefficients on the shapes of :func:`_shapes`: shape k -> (Y, S), only
#: the shapes the line has (a missing shape has coefficient 0), k ascending
Coefficients = dict[int, FloatArray]


def _operating_coefficients(
    q: Mapping[str, FloatArray],
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    available: FloatArray,
    months: int,
    size: int,
) -> tuple[Coefficients, Coefficients, Coefficients]:
    """Coefficients (shape -> (Y, S)) of revenue, GPU-hours and opex on the shapes
    of :func:`_shapes` (K = 3D: in service, ramp share, staffing of deployment d).

    With ``sold = utilization * availability * 730 h`` (``available``: the
    availability, :func:`availability`), price index ``P_y``,
    power index ``E_y`` and staff index ``W_y``:

    - in service: opex ``E_y PUE 730 h price/kWh (kW idle) + fixed``, fixed =
      ``kW colocation (1 - build) + (maintenance hardware + insurance (hardware
      + facility) + software per GPU-year GPUs) / 12``;
    - ramp share: opex ``E_y PUE 730 h price/kWh kW (1 - idle) utilization``,
      GPU-hours ``GPUs sold``, revenue ``P_y price per GPU-hour GPUs sold``;
    - staffing: opex ``W_y cost per FTE / 12 FTE``."""
    years = months // MONTHS_PER_YEAR
    n_dep = len(deps)
    rev: Coefficients = {}
    hours: Coefficients = {}
    opex: Coefficients = {}
    util = q["utilization"]
    idle = q["idle_fraction"]
    sold = util * available * HOURS_PER_MONTH
    price = _year_index(-np.asarray(q["price_decline"]), years) * q["price_per_gpu_hour"]
    power = _year_index(q["power_escalation"], years) * (
        q["pue"] * HOURS_PER_MONTH * q["price_per_kwh"]
    )
    staff = _year_index(q["staff_escalation"], years) * (q["staff_cost_per_fte"] / MONTHS_PER_YEAR)
    colo = q["colocation_per_kw_month"] * (1.0 - q["build_flag"])
    facility = [e for e in events if e.cls == "facility"]  # in service with deployment i
    per_month = 1.0 / MONTHS_PER_YEAR
    for i, d in enumerate(deps):
        kw = d["it_kw"]
        fixed = (
            kw * colo
            + q["maintenance_rate"] * d["hardware"] * per_month
            + q["insurance_rate"] * (d["hardware"] + facility[i].amount) * per_month
            + q["software_per_gpu_year"] * d["gpus"] * per_month
        )
        opex[i] = power * (kw * idle) + fixed
        opex[n_dep + i] = power * (kw * (1.0 - idle) * util)
        opex[2 * n_dep + i] = staff * d["staff_fte"]
        hours[n_dep + i] = np.broadcast_to(d["gpus"] * sold, (years, size))
        rev[n_dep + i] = price * (d["gpus"] * sold)
    return rev, hours, {k: opex[k] for k in sorted(opex)}


def _margin(rev: Coefficients, opex: Coefficients) -> Coefficients:
    """Revenue minus opex, shape by shape (0 where a line has no coefficient)."""
    out: Coefficients = {}
    for k in sorted(set(rev) | set(opex)):
        r, o = rev.get(k), opex.get(k)
        out[k] = r if o is None else (0.0 - o if r is None else r - o)  # type: ignore[operator]
    return out


def _year_sums(c: Coefficients, h_sums: FloatArray) -> FloatArray:
    """(Y, S): ``sum_k c[y, k] H[y, k]``, the year sums of the line with
    coefficients ``c``, H the shapes' year sums (Y, K), added shape after shape.
    Elementwise products summed in order: each variant's result does not depend on
    its position in the chunk (BLAS and einsum kernels may round the first or
    last few columns otherwise)."""
    out = None
    for k, ck in c.items():
        term = ck * h_sums[:, k, None]
        out = term if out is None else out + term
    return out if out is not None else np.zeros((h_sums.shape[0], 1))


def _pv_lines(c: Coefficients, disc_shapes: FloatArray) -> FloatArray:
    """(S,): present value ``sum_y sum_k c[y, k] D[y, k]`` of the line with
    coefficients ``c``, D the discounted shapes (Y, K, 1 or S), added year after
    year and within a year shape after shape."""
    out = None
    for y in range(disc_shapes.shape[0]):
        for k, ck in c.items():
            term = ck[y] * disc_shapes[y, k]
            out = term if out is None else out + term
    return out if out is not None else np.zeros(disc_shapes.shape[2])


def _pv_months(x: FloatArray, d: FloatArray) -> FloatArray:
    """(S,): present value ``sum_m x(m) d(m)`` of x (M+1, S) at d (M+1, S or 1)."""
    return (x * d).sum(axis=0)


def _capex_by_month(
    events: list[CapexEvent], full: tuple[int]
) -> tuple[dict[str, FloatArray], dict[int, FloatArray]]:
    """Capex per asset class (S,) (the sum of its events) and per payment month
    (month -> (S,), months in order); every event's month is shared by the
    variants."""
    capex_by = {c: np.zeros(full) for c in ASSET_CLASSES}
    capex_at: dict[int, FloatArray] = {}
    for e in events:
        month = int(_when(e.month)[0, 0])
        capex_by[e.cls] = capex_by[e.cls] + e.amount
        capex_at[month] = capex_at.get(month, 0.0) + e.amount
    return capex_by, {m: np.broadcast_to(a, full) for m, a in sorted(capex_at.items())}


def _depreciation_by_year(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    events: list[CapexEvent],
    capex_by: dict[str, FloatArray],
    size: int,
) -> tuple[FloatArray, dict[str, FloatArray]]:
    """Depreciation per model year (Y, S) and net book value per asset class at
    the horizon (S,): an event's charge in asset year k (``fin.depreciation_annual``
    / 12 a month) falls in model year y for the months counted by
    :func:`_depreciation_counts`; ``NBV = capex - sum of its charges``."""
    months = config.months
    years = months // MONTHS_PER_YEAR
    full = (size,)
    dep_y = np.zeros((years, size))
    nbv = {}
    for cls in ASSET_CLASSES:
        life = config.depreciation_life_years[cls]
        total = np.zeros(full)
        for e in events:
            if e.cls != cls:
                continue
            annual = fin.depreciation_annual(
                e.amount, q[f"salvage_{cls}"], config.depreciation_method[cls], life
            )
            in_service = int(_when(e.in_service)[0, 0])
            (k1, c1), (k2, c2) = _depreciation_counts(months, in_service, life)
            # a model year spans at most two asset years k1 < k2 (0 + a + b, as summed
            # term by term; a count of 0 adds 0)
            if annual.strides[1] == 0:  # straight line: one charge for every asset year
                row = annual[:, 0] / MONTHS_PER_YEAR
                per_year = c1[:, None] * row + c2[:, None] * row
            else:
                monthly = annual.T / MONTHS_PER_YEAR
                per_year = c1[:, None] * monthly[k1] + c2[:, None] * monthly[k2]
            dep_y = dep_y + per_year
            total = total + per_year.sum(axis=0)
        nbv[cls] = np.broadcast_to(capex_by[cls] - total, full)
    return dep_y, nbv


@dataclass(frozen=True)
class _Segments:
    """Months 0..M cut into segments over which the FCF of a by-year run is
    constant: the runs of :func:`_shapes`, split so that month 0, each year end
    (tax is paid), each capex month and month M (terminal value) is a segment of
    its own. ``row`` (Q,): the row of :func:`_per_run` a segment takes its
    operating value from (0 for month 0); ``start`` (Q,): its first month;
    ``runs``: the lengths; ``year_ends`` (Y,): the segments of months 12y;
    ``at``: month -> segment for every one-month segment."""

    row: np.ndarray
    start: np.ndarray
    runs: tuple[int, ...]
    year_ends: np.ndarray
    at: dict[int, int]


@cache
def _segments(
    months: int, timing: tuple[tuple[int, ...], float], capex_months: tuple[int, ...]
) -> _Segments:
    """The :class:`_Segments` of a timing (:func:`_shapes`) with capex paid at
    ``capex_months``: a new segment where the run of months changes, and at and
    after every point month."""
    row = _shapes(months, timing).month_row
    points = {0, months, *range(MONTHS_PER_YEAR, months + 1, MONTHS_PER_YEAR), *capex_months}
    m = np.arange(1, months + 1)
    single = np.isin(m, list(points)) | np.isin(m - 1, list(points))
    new = np.r_[True, single | (row[1:] != row[:-1])]
    start = np.flatnonzero(new)
    runs = tuple(int(k) for k in np.diff(np.r_[start, months + 1]))
    at = {int(a): q for q, (a, k) in enumerate(zip(start, runs, strict=True)) if k == 1}
    year_ends = np.array([at[y] for y in range(MONTHS_PER_YEAR, months + 1, MONTHS_PER_YEAR)])
    out = _Segments(row[start], start, runs, year_ends, at)
    for arr in (out.row, out.start, out.year_ends):
        arr.flags.writeable = False
    return out


def _fcf_by_segment(
    seg: _Segments,
    per_run: FloatArray,
    tax_y: FloatArray,
    capex_at: dict[int, FloatArray],
    terminal_net: FloatArray,
) -> tuple[FloatArray, Callable[[], FloatArray], Callable[[], tuple[FloatArray, FloatArray]]]:
    """The FCF per segment (Q, S): ``FCF(m) = sum_k h_k(m) margin[y(m), k] - tax_y
    [m = 12 y] - capex(m)`` (``per_run``: :func:`_per_run` of the revenue minus
    opex coefficients), plus ``terminal_net`` (terminal value minus its tax) at M;
    a function that gives it month by month (M+1, S), the same numbers as
    computed month by month; and a function that gives, when first called, the
    payback (years: the first month from which the cumulative FCF without the
    terminal value stays >= 0, over 12; NaN if never) and the peak funding
    ``max(0, -min_m cumulative FCF)`` (S,)."""
    c = np.take(per_run, seg.row, axis=0)
    c[seg.year_ends] -= tax_y
    for month, amount in capex_at.items():
        c[seg.at[month]] -= amount
    last = c[-1].copy()  # before the terminal value
    c[-1] += terminal_net
    monthly = cache(lambda: np.repeat(c, seg.runs, axis=0))

    @cache
    def payback_and_peak() -> tuple[FloatArray, FloatArray]:
        cash = monthly().copy()
        cash[-1] = last
        # np.cumsum(cash, axis=0), the same sums in the same order: numpy accumulates
        # along axis 0 element by element, 3x slower than these M row additions
        for m in range(1, cash.shape[0]):
            cash[m] += cash[m - 1]
        return fin.payback_years(cash, axis=0), np.maximum(0.0, -cash.min(axis=0))

    return c, monthly, payback_and_peak


def _segment_discounts(seg: _Segments, disc: _Discount) -> FloatArray:
    """``sum_{m in segment q} d(m)`` (Q, 1 or S) (:meth:`_Discount.sums`,
    :func:`_remembered`)."""
    return _remembered("segment_discounts", seg, disc, lambda: disc.sums(seg.start, seg.runs))


def _equity_by_year(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    build: int,
    one_loan: bool,
    capex_at: dict[int, FloatArray],
    fcf: FloatArray,
    npv: FloatArray,
    disc: _Discount,
    ebit_y: FloatArray,
    tax: dict[str, FloatArray],
    margin_y: FloatArray,
) -> tuple[
    Callable[[], FloatArray] | None, FloatArray, FloatArray, FloatArray | Callable[[], FloatArray]
]:
    """Equity lines: ``ecf()`` (S, M+1) when borrowing (None: ECF = FCF), DSCR per
    year (S, Y), the debt peak and the equity NPV (S,; without borrowing a function
    that computes it when the metric is read).

    Debt draws ``debt share * capex(m)``; levered tax is the tax of ``EBIT -
    interest``; ``ECF = FCF + net debt flows + (tax - levered tax)`` at year
    ends; ``DSCR_y = CFADS_y / service_y`` with ``CFADS_y = revenue_y - opex_y -
    levered tax_y`` (``margin_y``: revenue_y - opex_y), NaN where nothing is
    serviced; ``PV(ECF) = PV(FCF) + PV(net debt flows) + PV(tax saved)`` at the
    cost of equity."""
    months = config.months
    size = fcf.shape[1]
    full = (size,)
    draws = _draws(q, capex_at)
    if not draws:  # PV(FCF) at the cost of equity, computed when read

        def equity_npv() -> FloatArray:
            equity = _discounting(q["cost_of_equity"])
            return npv if equity.same_rates(disc) else _pv_months(fcf, equity.table(months))

        return None, np.full((size, months // MONTHS_PER_YEAR), np.nan), np.zeros(full), equity_npv
    equity = _discounting(q["cost_of_equity"])
    e_disc = equity.table(months)
    interest_y, service_y, debt_peak, pv_net, net = _debt_by_year(
        q, draws, build, months, e_disc, one_loan
    )
    levered = _tax_t(ebit_y - interest_y, q["tax_rate"], config.loss_carryforward_years, pool=False)
    tax_saved = tax["tax"] - levered["tax"]

    def ecf() -> FloatArray:  # only for the equity IRR, when read
        out = fcf + net()
        out[MONTHS_PER_YEAR::MONTHS_PER_YEAR] += tax_saved
        return out.T

    cfads_y = margin_y - levered["tax"]
    dscr = np.where(service_y > 0, fin.safe_divide(cfads_y, service_y), np.nan).T
    # PV of ECF = PV of FCF + PV of the net debt flows + PV of the tax saved
    pv_fcf = npv if equity.same_rates(disc) else _pv_months(fcf, e_disc)
    pv_tax = (tax_saved * e_disc[MONTHS_PER_YEAR::MONTHS_PER_YEAR]).sum(axis=0)
    return ecf, dscr, debt_peak, pv_fcf + pv_net + pv_tax


def _draws(q: Mapping[str, FloatArray], capex_at: dict[int, FloatArray]) -> dict[int, FloatArray]:
    """The debt drawn at each capex month, ``debt share * capex(m)`` (S,), for the
    months where some variant borrows."""
    drawn = {m: q["debt_share"] * a for m, a in capex_at.items()}
    return {m: d for m, d in drawn.items() if np.any(d)}


def _borrows(q: Mapping[str, FloatArray], capex_at: dict[int, FloatArray]) -> bool:
    """Whether any variant borrows (else ECF = FCF and the equity IRR is the IRR)."""
    return bool(_draws(q, capex_at))


def _value(x: FloatArray | Callable[[], FloatArray]) -> FloatArray:
    """``x``, or ``x()`` when it is computed when read."""
    return x() if callable(x) else x


def _debt_by_year(
    q: Mapping[str, FloatArray],
    draws: dict[int, FloatArray],
    build: int,
    months: int,
    e_disc: FloatArray,
    one_loan: bool,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, Callable[[], FloatArray]]:
    """Interest and debt service per model year (Y, S), the debt peak and the PV
    of the net debt flows at ``e_disc`` (S,), and ``net()`` those flows month by
    month (M+1, S): with one rate and term for every variant, the draws (T, S)
    times the schedules of unit loans (:func:`_unit_debt`), else :func:`_loans`."""
    rate, term = _when(q["interest_rate"]), _when(q["term_years"])
    amounts = np.stack(list(draws.values()))  # (T, S)
    if one_loan and rate.shape[0] == term.shape[0] == 1 and rate[0, 0] >= 0:
        net_u, interest_u, service_u, peak_u = _unit_debt(
            months, tuple(draws), build, float(rate[0, 0]), float(term[0, 0])
        )

        def net() -> FloatArray:
            return _combine(net_u, amounts)

        return (
            _combine(interest_u, amounts),
            _combine(service_u, amounts),
            _combine(peak_u, amounts).max(axis=0),
            (_unit_pv(net_u, e_disc) * amounts).sum(axis=0),
            net,
        )
    # rates or terms differ between variants
    loans = _loans(q, draws, build, months, e_disc)
    return loans["interest_y"], loans["service_y"], loans["peak"], loans["pv_net"], loans["net"]


def _lazy_schedules(
    q: dict[str, FloatArray],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    capex_by: dict[str, FloatArray],
    nbv: dict[str, FloatArray],
    metrics: _Metrics,
) -> TierResult:
    """The result of a by-year run: its capex, net book values and metrics; the
    monthly schedules from one :func:`_run_monthly` of the same inputs, run when
    one is first read."""
    full_run = cache(lambda: _run_monthly(q, config, deps))
    return TierResult(
        months=config.months,
        capex=capex_by,
        capex_months=_Lazy(lambda: full_run().capex_months),
        opex=_Lazy(lambda: full_run().opex),
        depreciation=_Lazy(lambda: full_run().depreciation),
        nbv=nbv,
        flows=_Lazy(lambda: full_run().flows),
        annual=_Lazy(lambda: full_run().annual),
        metrics=metrics,
        debt=_Lazy(lambda: full_run().debt),
        deployments=deps,
    )


def _sum_rows(x: FloatArray) -> FloatArray:
    """``x.sum(axis=0)`` of an (n, S) array added row after row, also when S = 1
    (numpy sums a single column pairwise): a variant's sum does not depend on
    whether its discount rate was shared by the chunk (a (M+1, 1) column) or not."""
    return x.sum(axis=0) if x.shape[1] > 1 else np.cumsum(x, axis=0)[-1]


def _blocks_t(x: FloatArray) -> FloatArray:
    """(M+1, S) -> months 1..M as (Y, 12, S) (a view)."""
    return x[1:].reshape(-1, MONTHS_PER_YEAR, x.shape[1])


def _loans(
    q: Mapping[str, FloatArray],
    draws: dict[int, FloatArray],
    build: int,
    months: int,
    e_disc: FloatArray,
) -> dict[str, FloatArray | Callable[[], FloatArray]]:
    """:func:`debt_schedule` for draws at months shared by every variant, rates and
    terms per variant: ``interest_y`` and ``service_y`` (interest + principal, the
    level payments) per model year (Y, S), ``pv_net`` (S,) the present value at
    ``e_disc`` (M+1, 1 or S) of the net debt flows (draw - service - balloon),
    ``net()`` those flows month by month (M+1, S), ``peak`` (S,) the highest
    balance (closing plus balloon), at B or a draw month after it (balances only
    grow before B and only fall between later draws).

    A loan ``b`` repaid from month p owes ``left(k) = (F - g^k) / (F - 1)`` of it
    after k payments (``g = 1 + r``, ``F = g^n``; ``1 - k / n`` at r = 0): the
    interest of its payments k0 .. k1 - 1 is ``r b (c F - sum_k g^k) / (F - 1)``
    (c = k1 - k0 payments), with the powers of g from one table of repeated
    products, and the PV of level payments is the payment times a sum of discount
    factors: no line is built month by month (when terms differ between variants,
    the sums come from running sums gathered per variant)."""
    size = next(iter(draws.values())).shape[0]
    lt = _loan_terms(q, size, months, e_disc)
    years = months // MONTHS_PER_YEAR
    interest_y = np.zeros((years, size))
    service_y = np.zeros((years, size))
    pv_net = np.zeros(size)
    peaks = [build] + [t for t in draws if t > build]
    peak = np.zeros((len(peaks), size))
    loans = []
    for t, d in draws.items():
        p = max(t, build) + 1  # first payment
        b = d * lt.powers[p - 1 - t]
        payment = np.where(lt.flat, b / lt.n, b * lt.r * lt.full / lt.denominator)
        pv_net += d * e_disc[t]
        if p <= months:
            pv_net -= payment * _payment_discount(lt, p, months, e_disc)
            _add_payments(lt, p, b, payment, interest_y, service_y)
        owed_at_end = d * lt.powers[months - t] if months < p else b * _owed(lt, months - p + 1)
        pv_net -= owed_at_end * e_disc[months]  # balloon
        loans.append((t, p, d, payment, owed_at_end))
        for i, c in enumerate(peaks):
            if c >= p:
                peak[i] += b * _owed(lt, c - p + 1)
            elif c >= t:
                peak[i] += d * lt.powers[c - t]

    def net() -> FloatArray:
        return _net_debt_flows(loans, lt.n, months, size)

    return {
        "interest_y": interest_y,
        "service_y": service_y,
        "pv_net": pv_net,
        "net": net,
        "peak": peak.max(axis=0),
    }


@dataclass(frozen=True)
class _LoanTerms:
    """Per variant (S,): monthly rate ``r``, term ``n`` in months, ``n_pay =
    ceil(n)`` payments, ``powers`` (top+1, S) ``g^k = (1 + r)^k`` by repeated
    products, ``full = F = g^n``, ``flat``: r = 0, ``denominator``: F - 1 (1 where
    flat); when terms differ (``one_term`` False), running sums ``power_sums[k] =
    sum_{j<k} g^j`` and ``disc_sums[m] = sum_{j<m} e_disc(j)`` (gathered at
    ``disc_rows``)."""

    rows: np.ndarray
    r: FloatArray
    n: FloatArray
    n_pay: np.ndarray
    one_term: bool
    powers: FloatArray
    full: FloatArray
    flat: np.ndarray
    any_flat: bool
    denominator: FloatArray
    power_sums: FloatArray | None = None
    disc_sums: FloatArray | None = None
    disc_rows: np.ndarray | None = None


def _loan_terms(
    q: Mapping[str, FloatArray], size: int, months: int, e_disc: FloatArray
) -> _LoanTerms:
    """The :class:`_LoanTerms` of rates and terms ``q`` for ``size`` variants."""
    rows = np.arange(size)
    r = np.broadcast_to(fin.monthly_rate(q["interest_rate"]), (size,))
    n = np.broadcast_to(np.asarray(q["term_years"], dtype=float) * MONTHS_PER_YEAR, (size,))
    n_pay = np.ceil(n).astype(np.intp)  # payments k = 0 .. n_pay - 1 (k < n)
    one_term = bool(np.all(n_pay == n_pay[0]))
    top = int(max(months, np.max(n))) + 1
    powers = np.empty((top + 1, size))  # (1 + r)^k, k = 0..top
    powers[0] = 1.0
    growth = 1.0 + r
    for k in range(1, top + 1):  # repeated products, row after row
        np.multiply(powers[k - 1], growth, out=powers[k])
    full = powers[n.astype(np.intp), rows]
    flat = r == 0
    denominator = np.where(flat, 1.0, full - 1.0)
    terms = _LoanTerms(
        rows, r, n, n_pay, one_term, powers, full, flat, bool(np.any(flat)), denominator
    )
    if one_term:
        return terms
    power_sums = np.empty((top + 2, size))  # sum_{j < k} (1 + r)^j, k = 0..top+1
    power_sums[0] = 0.0
    for k in range(top + 1):
        np.add(power_sums[k], powers[k], out=power_sums[k + 1])
    disc_sums = np.empty((months + 2, e_disc.shape[1]))  # sum_{j < m} e_disc(j)
    disc_sums[0] = 0.0
    for m in range(months + 1):
        np.add(disc_sums[m], e_disc[m], out=disc_sums[m + 1])
    disc_rows = rows if e_disc.shape[1] > 1 else np.zeros(size, dtype=np.intp)
    return replace(terms, power_sums=power_sums, disc_sums=disc_sums, disc_rows=disc_rows)


def _owed(lt: _LoanTerms, k: int) -> FloatArray:
    """(S,): share of the loan still owed after k payments (k <= top):
    ``(F - g^k) / (F - 1)``, ``1 - k / n`` at r = 0, 0 once k >= n."""
    owed = (lt.full - lt.powers[k]) / lt.denominator
    if lt.any_flat:
        owed = np.where(lt.flat, 1.0 - k / lt.n, owed)
    return np.where(k < lt.n, owed, 0.0)


def _payment_discount(lt: _LoanTerms, p: int, months: int, e_disc: FloatArray) -> FloatArray:
    """(S,): ``sum_m e_disc(m)`` over the paying months p .. min(p + n_pay, M+1) - 1
    (the PV of level payments of 1 from month p)."""
    if lt.one_term:  # (the usual case: sums of rows, not gathers)
        last = min(p + int(lt.n_pay[0]), months + 1)  # paying months p .. last - 1
        return _sum_rows(e_disc[p:last])
    last = np.minimum(p + lt.n_pay, months + 1)
    return lt.disc_sums[last, lt.disc_rows] - lt.disc_sums[p, lt.disc_rows]


def _add_payments(
    lt: _LoanTerms,
    p: int,
    b: FloatArray,
    payment: FloatArray,
    interest_y: FloatArray,
    service_y: FloatArray,
) -> None:
    """Adds to the model years (Y, S) the service ``payment * c`` and interest
    ``r b (c F - sum_{k0 <= k < k1} g^k) / (F - 1)`` of a loan ``b`` repaid from
    month p, c = k1 - k0 of its payments falling in the year."""
    years = interest_y.shape[0]
    n_one = int(lt.n_pay[0])
    rate = lt.r * b / lt.denominator
    for y in range((p - 1) // MONTHS_PER_YEAR, years):
        k0 = max(MONTHS_PER_YEAR * y + 1, p) - p
        if lt.one_term:
            k1 = max(min(MONTHS_PER_YEAR * (y + 1) + 1 - p, n_one), k0)
            if k1 == k0:
                break
            c, sums = k1 - k0, lt.powers[k0:k1].sum(axis=0)
        else:
            k1 = np.minimum(MONTHS_PER_YEAR * (y + 1) + 1 - p, lt.n_pay)  # (S,)
            c = np.maximum(k1 - k0, 0)
            sums = lt.power_sums[np.maximum(k1, k0), lt.rows] - lt.power_sums[k0]
        service_y[y] += payment * c
        interest_y[y] += rate * (c * lt.full - sums)


def _net_debt_flows(
    loans: list[tuple[int, int, FloatArray, FloatArray, FloatArray]],
    n: FloatArray,
    months: int,
    size: int,
) -> FloatArray:
    """(M+1, S): ``draw(t) - payment [p <= m < p + n] - balloon [m = M]`` summed
    over the loans (t, p, draw, payment, balloon)."""
    out = np.zeros((months + 1, size))
    for t, p, d, payment, owed_at_end in loans:
        out[t] += d
        if p <= months:
            paying = np.arange(months + 1 - p, dtype=float)[:, None] < n
            out[p:] -= np.where(paying, payment, 0.0)
        out[months] -= owed_at_end
    return out


def _per_run(shapes: _Shapes, c: Coefficients) -> FloatArray:
    """The monthly value of the line with coefficients ``c`` (shape -> (Y, S)) in each run
    of months, after a row of zeros for month 0 (1 + P, S): ``sum_k h_k c[y_p, k]``
    over the shapes not 0 in run p (row 1 + p)."""
    size = next(iter(c.values())).shape[1]
    out = np.zeros((1 + shapes.run_year.size, size))
    for k, (rows, years, w) in enumerate(shapes.terms):  # k ascending: runs sum in k order
        if k in c:
            part = c[k][years]
            out[rows] += part if w is None else w * part
    return out


#: results remembered by :func:`_remembered`, per function
_REMEMBERED: dict[str, dict[tuple[int, int], tuple[object, object, FloatArray]]] = {}


def _remembered(
    name: str, first: object, second: object, compute: Callable[[], FloatArray]
) -> FloatArray:
    """``compute()`` of the objects ``first`` and ``second``, read-only and
    remembered (by identity) for the last 8 pairs of each function ``name``: the
    tiers of a chunk share the discount factors and the shapes or draws."""
    key = (id(first), id(second))
    with _DISCOUNT_LOCK:
        store = _REMEMBERED.setdefault(name, {})
        hit = store.get(key)
    if hit is not None and hit[0] is first and hit[1] is second:
        return hit[2]
    out = compute()
    out.flags.writeable = False
    with _DISCOUNT_LOCK:
        if len(store) >= 8:
            store.pop(next(iter(store)))
        store[key] = (first, second, out)
    return out


def _discounted_shapes(shapes: _Shapes, disc: _Discount) -> FloatArray:
    """``sum_{m in year y} h_k(m) d(m)`` (Y, K, 1 or S), from the discount sums over
    each run of months (:meth:`_Discount.sums`, :func:`_remembered`)."""

    def compute() -> FloatArray:
        lengths = np.diff(np.r_[shapes.run_starts, shapes.run_of.size]).tolist()
        runs = disc.sums(shapes.run_starts + 1, lengths)
        out = np.zeros((shapes.sums.shape[0], shapes.sums.shape[1], runs.shape[1]))
        for p, run in enumerate(runs):
            y = shapes.run_year[p]
            for k in np.flatnonzero(shapes.run_shapes[p]):
                w = shapes.run_shapes[p, k]
                out[y, k] += run if w == 1.0 else w * run
        return out

    return _remembered("discounted_shapes", shapes, disc, compute)


def _unit_pv(units: FloatArray, disc: FloatArray) -> FloatArray:
    """Present values (T, 1 or S) of the unit lines ``units`` (M+1, T) at ``disc``
    (M+1, 1 or S) (:func:`_remembered`: tiers with the same draws share them)."""
    return _remembered(
        "unit_pv",
        units,
        disc,
        lambda: np.stack([_sum_rows(units[:, j, None] * disc) for j in range(units.shape[1])]),
    )


def _combine(units: FloatArray, amounts: FloatArray) -> FloatArray:
    """``units @ amounts`` ((R, T) x (T, S)) by elementwise products, so that each
    variant's result does not depend on its position in the chunk."""
    out = units[:, 0, None] * amounts[0]
    for j in range(1, amounts.shape[0]):
        out += units[:, j, None] * amounts[j]
    return out


def _weighted(deps: list[dict[str, FloatArray]], utilization: list[FloatArray]) -> FloatArray:
    """GPU-weighted utilization of the deployments in service (0 before any)."""
    gpus = [_col(d["gpus"]) for d in deps]
    sold = sum(g * u for g, u in zip(gpus, utilization, strict=True))
    live = sum(g * (u > 0) for g, u in zip(gpus, utilization, strict=True))
    return fin.safe_divide(sold, live)


def _annual(
    clock: Clock,
    tax: dict[str, FloatArray],
    levered: dict[str, FloatArray],
    cfads: FloatArray,
    service: FloatArray,
    ebit: FloatArray,
) -> dict[str, FloatArray]:
    """Year tables: unlevered and levered tax with their loss corkscrews, CFADS,
    debt service and DSCR (``CFADS_y / DS_y``, NaN where no debt is serviced)."""
    cfads_y = clock.by_year(cfads)
    service_y = clock.by_year(service)
    out = {"ebit": clock.by_year(ebit), "tax": tax["tax"]}
    for key in ("open", "added", "used", "expired", "close"):
        out[f"loss_{key}" if key in ("added", "used", "expired") else f"loss_pool_{key}"] = tax[key]
        out[f"levered_loss_{key}"] = levered[key]
    out["tax_levered"] = levered["tax"]
    out["cfads"] = cfads_y
    out["debt_service"] = service_y
    out["dscr"] = np.where(service_y > 0, fin.safe_divide(cfads_y, service_y), np.nan)
    return out


def _summary(
    q: Mapping[str, FloatArray],
    deps: list[dict[str, FloatArray]],
    goodput_m: Mapping[str, FloatArray],
    *,
    capex_by: dict[str, FloatArray],
    opex_sum: FloatArray,
    opex_year1: FloatArray,
    pv_cost: FloatArray,
    pv_gpu_hours: FloatArray,
    gpu_hours: FloatArray | Callable[[], FloatArray],
    revenue: FloatArray,
    npv: FloatArray,
    fcf: FloatArray | Callable[[], FloatArray],
    fcf_sum: FloatArray | Callable[[], FloatArray],
    payback: FloatArray | Callable[[], FloatArray],
    peak_funding: FloatArray | Callable[[], FloatArray],
    equity_npv: FloatArray | Callable[[], FloatArray],
    ecf: Callable[[], FloatArray] | None,
    dscr: FloatArray | Callable[[], FloatArray],
    debt_peak: FloatArray | Callable[[], FloatArray],
    terminal: FloatArray,
    terminal_tax: FloatArray,
    irr: Callable[[], FloatArray] | None = None,
) -> _Metrics:
    """Summary columns (spec 8, 9, 14, 16, 17, 20) from the sums, present values
    and the monthly FCF (and ECF when borrowing; None: ECF = FCF) of a run; the
    IRRs are computed when read (``irr``: a cheaper solve of the same IRR, None:
    from the monthly FCF)."""
    capex = sum(capex_by.values())
    hardware = capex_by["servers"] + capex_by["network"] + capex_by["storage"]
    tco = capex + opex_sum
    rack = cache(lambda: _servers(q, deps))  # (servers, servers per rack)
    cost_per_gpu_hour = fin.safe_divide(pv_cost, pv_gpu_hours)

    # columns a Monte Carlo does not read are computed when read
    values: dict[str, FloatArray | Callable[[], FloatArray]] = {
        "gpus": lambda: sum(d["gpus"] for d in deps),
        "servers": lambda: rack()[0],
        "racks": lambda: np.ceil(fin.safe_divide(*rack())),
        "it_kw": lambda: sum(d["it_kw"] for d in deps),
        "capex": capex,
        **{f"capex_{c}": v for c, v in capex_by.items()},
        "network_share": lambda: fin.safe_divide(capex_by["network"], hardware),
        "opex_year1": opex_year1,
        "tco": tco,
        "gpu_hours": gpu_hours,
        "tco_per_gpu_hour": lambda: fin.safe_divide(tco, _value(gpu_hours)),
        "cost_per_gpu_hour": cost_per_gpu_hour,
        "revenue": revenue,
        "npv": npv,
        "irr": irr or (lambda: _irr(_value(fcf))),
        "payback_years": payback,
        "roi": lambda: fin.safe_divide(_value(fcf_sum), capex),
        **_goodput_columns(q, goodput_m, pv_cost, pv_gpu_hours, cost_per_gpu_hour),
        "peak_funding": peak_funding,
        "equity_npv": equity_npv,
        "equity_irr": lambda: _irr(ecf()),
        "min_dscr": lambda: _min_dscr(_value(dscr)),
        "debt_peak": debt_peak,
        "pv_cost": pv_cost,
        "pv_gpu_hours": pv_gpu_hours,
        "capex_hardware": hardware,
        "terminal_value": terminal,
        "terminal_tax": terminal_tax,
        "servers_per_rack": lambda: rack()[1],
    }
    return _with_irrs(values, ecf)


def _goodput_columns(
    q: Mapping[str, FloatArray],
    goodput_m: Mapping[str, FloatArray],
    pv_cost: FloatArray,
    pv_gpu_hours: FloatArray,
    cost_per_gpu_hour: FloatArray,
) -> dict[str, Callable[[], FloatArray]]:
    """The summary columns of spec 9 and 20, computed when read: :func:`goodput`
    and its intermediates, ``cost_per_effective_gpu_hour = cost_per_gpu_hour /
    goodput`` and ``cost_per_pflop_hour = PV_cost / (PV_gpu_hours goodput mfu
    tflops_bf16 / 1000)``."""

    def read(key: str) -> Callable[[], FloatArray]:
        return lambda: goodput_m[key]

    def per_pflop_hour() -> FloatArray:
        gp = goodput_m["goodput"]
        pv_pflop_hours = pv_gpu_hours * gp * q["mfu"] * q["tflops_bf16"] / TFLOPS_PER_PFLOPS
        return fin.safe_divide(pv_cost, pv_pflop_hours)

    keys = ("mtbf_hours", "checkpoint_interval_hours", "goodput", "availability")
    details = ("failures_per_hour", "checkpoint_write_hours", "young_interval_hours",
               "write_waste", "restart_waste")  # fmt: skip
    return {
        **{k: read(k) for k in keys},
        "cost_per_effective_gpu_hour": lambda: fin.safe_divide(
            cost_per_gpu_hour, goodput_m["goodput"]
        ),
        "cost_per_pflop_hour": per_pflop_hour,
        **{k: read(k) for k in details},
    }


def _servers(
    q: Mapping[str, FloatArray], deps: list[dict[str, FloatArray]]
) -> tuple[FloatArray, FloatArray]:
    """Servers ``sum_d servers_d`` and servers per rack (:func:`servers_per_rack`
    of rack kW, server kW and the auxiliary power share)."""
    servers = sum(d["servers_n"] for d in deps)
    return servers, servers_per_rack(q["rack_kw"], q["server_power_kw"], q["aux_power_fraction"])


def _min_dscr(dscr: FloatArray) -> FloatArray:
    """(S,): ``min_y DSCR_y`` over the years with debt service (S, Y), NaN where
    none has."""
    return np.fmin.reduce(dscr, axis=1)  # fmin skips NaN; all NaN gives NaN


def _with_irrs(
    values: dict[str, FloatArray | Callable[[], FloatArray]],
    ecf: Callable[[], FloatArray] | None,
) -> _Metrics:
    """The metrics ``values`` (their IRRs solved when read); without borrowing
    (``ecf`` None) ECF = FCF and the equity IRR is the IRR."""
    metrics = _Metrics(values)
    if ecf is None:  # ECF = FCF: the same IRR
        values["equity_irr"] = lambda: metrics["irr"]
    return metrics


def _irr(values: FloatArray, runs: tuple[int, ...] | None = None) -> FloatArray:
    """The annual IRR of each row of ``values`` (months, or runs of months of the
    lengths ``runs``: :func:`costmodel.core.roots.irr_monthly`)."""
    with blas_single_thread():
        return irr_annual(values, runs)


def goodput(
    servers: ArrayLike,
    node_failures_per_day: ArrayLike,
    checkpoint_tb: ArrayLike,
    write_gbps: ArrayLike,
    restart_hours: ArrayLike,
    repair_hours: ArrayLike = 0.0,
) -> dict[str, FloatArray]:
    """Goodput of a whole-cluster job under failures and checkpoints (spec 9), with
    every intermediate the writers show:

    - ``failures_per_hour = node_failures_per_day * servers / 24``;
      ``mtbf_hours = 1 / failures_per_hour`` (NaN with no failures);
    - ``checkpoint_write_hours = checkpoint_tb * 1000 / write_gbps / 3600`` (blocking);
    - ``young_interval_hours = sqrt(2 * write_hours * mtbf)`` (0 with no failures);
      ``checkpoint_interval_hours`` is the same, NaN with no failures or no write;
    - ``write_waste = write_hours / interval`` (0 without failures or write);
    - ``restart_waste = (interval / 2 + restart_hours) / mtbf``;
    - ``goodput = max(0, 1 - write_waste - restart_waste)`` (1 with no failures);
    - ``availability = max(0, 1 - node_failures_per_day * repair_hours / 24)``
      (spec 20: the share of node-hours not under repair).
    """
    n = np.asarray(servers, dtype=float)
    f = np.asarray(node_failures_per_day, dtype=float)
    per_hour = f * n / HOURS_PER_DAY
    mtbf = fin.safe_divide(HOURS_PER_DAY, f * n)
    delta = (
        np.asarray(checkpoint_tb, dtype=float)
        * GB_PER_TB
        / np.asarray(write_gbps, dtype=float)
        / SECONDS_PER_HOUR
    )
    tau = np.sqrt(2.0 * delta * mtbf)
    failing = f * n > 0
    write_waste = np.where(failing & (delta > 0), fin.safe_divide(delta, tau), 0.0)
    restart_waste = np.where(
        failing, fin.safe_divide(tau / 2.0 + np.asarray(restart_hours, dtype=float), mtbf), 0.0
    )
    gp = np.where(failing, np.maximum(0.0, 1.0 - (write_waste + restart_waste)), 1.0)
    interval = np.where(failing & (delta > 0), tau, np.nan)
    shape = gp.shape
    return {
        "failures_per_hour": np.broadcast_to(per_hour, shape).astype(float),
        "mtbf_hours": np.broadcast_to(mtbf, shape).astype(float),
        "checkpoint_write_hours": np.broadcast_to(delta, shape).astype(float),
        "young_interval_hours": np.broadcast_to(np.where(failing, tau, 0.0), shape).astype(float),
        "checkpoint_interval_hours": interval,
        "write_waste": np.broadcast_to(write_waste, shape).astype(float),
        "restart_waste": np.broadcast_to(restart_waste, shape).astype(float),
        "goodput": gp,
        "availability": np.broadcast_to(availability(f, repair_hours), shape).astype(float),
    }


def availability(node_failures_per_day: ArrayLike, repair_hours: ArrayLike) -> FloatArray:
    """``max(0, 1 - node_failures_per_day * repair_hours / 24)`` (spec 20): the share
    of node-hours not under repair."""
    f = np.asarray(node_failures_per_day, dtype=float)
    return np.maximum(0.0, 1.0 - f * np.asarray(repair_hours, dtype=float) / HOURS_PER_DAY)
