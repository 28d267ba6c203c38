"""The cost engine (spec sections 4-9), vectorised over scenarios and months.

Every input is a scalar or an array of shape ``(S,)``: ``S`` scenario variants of
one tier are computed at once (``S = 1`` for a plain build). Monthly arrays have
shape ``(S, M + 1)``, column ``m`` holding month m (month 0 is the investment
date; operating months are 1..M). The engine does no I/O and knows nothing of
files, workbooks or memos.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core import finance as fin
from costmodel.core.finance import FloatArray
from costmodel.core.roots import irr_annual
from costmodel.core.units import (
    GB_PER_TB,
    HOURS_PER_DAY,
    HOURS_PER_MONTH,
    MONTHS_PER_YEAR,
    SECONDS_PER_HOUR,
    TFLOPS_PER_PFLOPS,
)
from costmodel.inputs.params import TierConfig
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
)


class Schedules(Mapping[str, FloatArray]):
    """Read-only mapping of line name -> array. An entry given as a zero-argument
    function is computed on first access and kept, so a large run (Monte Carlo,
    sensitivity) that reads only the metrics never builds the monthly schedules."""

    def __init__(self, entries: Mapping[str, FloatArray | Callable[[], FloatArray]]):
        self._entries = dict(entries)

    def __getitem__(self, key: str) -> FloatArray:
        value = self._entries[key]
        if callable(value):
            value = value()
            self._entries[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Schedules({', '.join(self._entries)})"


@dataclass(frozen=True)
class TierResult:
    """Everything computed for one tier, for S scenario variants.

    ``capex``: line -> (S,); ``opex`` and ``depreciation``: line -> (S, M+1);
    ``flows``: revenue, opex, depreciation, ebit, tax, terminal_value, fcf,
    gpu_hours, discount_factor -> (S, M+1); ``annual``: ebit, tax, loss pool
    corkscrew -> (S, Y); ``metrics``: summary column -> (S,);
    ``nbv``: asset class -> (S,) net book value at month M. The monthly mappings
    are :class:`Schedules`: arrays are built on first access.
    """

    months: int
    capex: dict[str, FloatArray]
    opex: Mapping[str, FloatArray]
    depreciation: Mapping[str, FloatArray]
    nbv: dict[str, FloatArray]
    flows: Mapping[str, FloatArray]
    annual: dict[str, FloatArray]
    metrics: dict[str, FloatArray]

    @property
    def size(self) -> int:
        return int(self.metrics["npv"].shape[0])


def _col(x: ArrayLike) -> FloatArray:
    """(S,) -> (S, 1) for broadcasting against months."""
    return np.atleast_1d(np.asarray(x, dtype=float))[:, None]


def _to_months(table: FloatArray, months: int, out: FloatArray | None = None) -> FloatArray:
    """Expand a year table to months: ``table[:, 0]`` is month 0 and ``table[:, y]``
    (y = 1..Y) the value of every month of operating year y; shape (S, M + 1)
    (written into ``out`` if given)."""
    size, cols = table.shape
    if out is None:
        out = np.empty((size, months + 1))
    out[:, 0] = table[:, 0]
    out[:, 1:].reshape(size, cols - 1, MONTHS_PER_YEAR)[...] = table[:, 1:, None]
    return out


def _sum_in_month_order(table: FloatArray, months: int) -> FloatArray:
    """Sum over months 0..M of the expanded year table, added one month at a time
    in month order. This keeps the rounding of the earlier implementation, whose
    (S, M+1) schedule was column-major for S > 1 (numpy then sums month by month;
    for S = 1 it sums pairwise), so results are unchanged to the last bit."""
    total = table[:, 0].copy()
    for m in range(1, months + 1):
        total += table[:, -(-m // MONTHS_PER_YEAR)]
    return total


def _discount(rate: FloatArray, months: int) -> FloatArray:
    """:func:`finance.discount_factors`, computed once per distinct rate (most
    variant sets share one rate; the values are the same element by element)."""
    unique, inverse = np.unique(rate, return_inverse=True)
    if 2 * unique.size > rate.size:
        return fin.discount_factors(rate, months)
    return fin.discount_factors(unique, months)[inverse.reshape(-1)]


def run_tier(p: Mapping[str, ArrayLike], config: TierConfig) -> TierResult:
    """Compute one tier for S variants. ``p`` holds the inputs named in
    :func:`costmodel.inputs.params.resolve_tier`, each a scalar or an (S,) array.

    Every line before tax is constant within an operating year, so it is computed
    on a year table of shape (S, Y + 1) (column 0 = month 0, column y = each month
    of year y, with the same operations as month by month) and then expanded to
    months: the monthly values are the same numbers, computed Y + 1 times instead
    of M + 1 times per variant.
    """
    names = list(p)
    size = int(np.broadcast_shapes(*[np.shape(p[k]) for k in names], (1,))[0])
    q = {k: np.broadcast_to(np.asarray(p[k], dtype=float), (size,)) for k in names}
    M = config.months
    Y = M // MONTHS_PER_YEAR
    j = np.arange(Y + 1)  # year-table column: 0 = month 0, y = months of operating year y
    ops = (j >= 1).astype(float)[None, :]  # operating-month flag
    years_in = np.maximum(j - 1, 0)[None, :]  # y - 1

    # ---- capex (spec 4)
    gpus = q["gpus"]
    servers = gpus / q["gpus_per_server"]
    capex_servers = servers * q["server_price"]
    capex_storage = q["storage_capacity_tb"] * q["storage_price_per_tb"]
    share = q["network_share"]
    capex_network = share / (1.0 - share) * (capex_servers + capex_storage)
    capex_hardware = capex_servers + capex_network + capex_storage
    it_kw = servers * q["server_power_kw"] * (1.0 + q["aux_power_fraction"])
    racks = np.ceil(it_kw / q["rack_kw"] - 1e-9)
    capex_facility = it_kw * q["build_cost_per_kw"] * q["build_flag"]
    capex_total = capex_hardware + capex_facility
    capex = {
        "servers": capex_servers,
        "network": capex_network,
        "storage": capex_storage,
        "facility": capex_facility,
    }

    # ---- opex (spec 5), per operating year (year tables)
    util = _col(q["utilization"])
    avg_it_kw = _col(it_kw) * (_col(q["idle_fraction"]) + (1 - _col(q["idle_fraction"])) * util)
    power_index = np.power(1 + _col(q["power_escalation"]), years_in)
    electricity = (
        avg_it_kw * _col(q["pue"]) * HOURS_PER_MONTH * _col(q["price_per_kwh"]) * power_index * ops
    )
    colocation = _col(it_kw * q["colocation_per_kw_month"] * (1.0 - q["build_flag"])) * ops
    staff_index = np.power(1 + _col(q["staff_escalation"]), years_in)
    staff = _col(q["staff_fte"] * q["staff_cost_per_fte"]) * staff_index / MONTHS_PER_YEAR * ops
    maintenance = _col(q["maintenance_rate"] * capex_hardware) / MONTHS_PER_YEAR * ops
    insurance = _col(q["insurance_rate"] * capex_total) / MONTHS_PER_YEAR * ops
    software = _col(q["software_per_gpu_year"] * gpus) / MONTHS_PER_YEAR * ops
    opex_y = {
        "electricity": electricity,
        "colocation": colocation,
        "staff": staff,
        "maintenance": maintenance,
        "insurance": insurance,
        "software": software,
    }
    opex_total_y = sum(opex_y.values())

    # ---- depreciation (spec 6): asset year k = operating year k
    dep_y: dict[str, FloatArray] = {}
    nbv: dict[str, FloatArray] = {}
    for cls in ASSET_CLASSES:
        annual = fin.depreciation_annual(
            capex[cls],
            q[f"salvage_{cls}"],
            config.depreciation_method[cls],
            config.depreciation_life_years[cls],
        )
        life = annual.shape[1]
        padded = np.zeros((annual.shape[0], max(life, Y) + 1))
        padded[:, 1 : life + 1] = annual / MONTHS_PER_YEAR
        dep_y[cls] = padded[:, : Y + 1]
        nbv[cls] = capex[cls] - (
            _to_months(dep_y[cls], M).sum(axis=1)
            if size == 1
            else _sum_in_month_order(dep_y[cls], M)
        )
    dep_total_y = sum(dep_y.values())

    # ---- revenue, tax, cash flow (spec 7)
    gpu_hours_y = _col(gpus) * util * HOURS_PER_MONTH * ops
    price_index = np.power(1 - _col(q["price_decline"]), years_in)
    revenue_y = gpu_hours_y * _col(q["price_per_gpu_hour"]) * price_index
    ebit_y_table = revenue_y - opex_total_y - dep_total_y
    buf = np.empty((size, M + 1))  # scratch for monthly arrays that only feed sums
    tmp = np.empty((size, M + 1))
    ebit = _to_months(ebit_y_table, M, out=buf)
    ebit_y = ebit[:, 1:].reshape(size, Y, MONTHS_PER_YEAR).sum(axis=2)
    tax_y = np.zeros((size, Y))
    pool_open = np.zeros((size, Y))
    loss_added = np.zeros((size, Y))
    loss_used = np.zeros((size, Y))
    pool = np.zeros(size)
    tax_rate = q["tax_rate"]
    for y in range(Y):
        e = ebit_y[:, y]
        pool_open[:, y] = pool
        loss = e <= 0
        used = np.where(loss, 0.0, np.minimum(pool, e))
        loss_used[:, y] = used
        loss_added[:, y] = np.where(loss, -e, 0.0)
        tax_y[:, y] = np.where(loss, 0.0, tax_rate * (e - used))
        pool = np.where(loss, pool - e, pool - used)
    pool_close = np.concatenate([pool_open[:, 1:], pool[:, None]], axis=1)
    terminal_value = sum(nbv.values()) * q["terminal_flag"]
    # fcf = revenue - opex - tax + terminal: tax and terminal are 0 outside their months
    fcf = _to_months(revenue_y - opex_total_y, M)
    fcf[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR] -= tax_y
    fcf[:, M] += terminal_value
    fcf[:, 0] = -capex_total
    discount = _discount(q["discount_rate"], M)
    discount = np.broadcast_to(discount, fcf.shape)

    # ---- metrics (spec 8, 9): sums over the monthly arrays, each built once here
    opex_total = _to_months(opex_total_y, M, out=buf)
    pv_cost = capex_total + np.multiply(opex_total, discount, out=tmp).sum(axis=1)
    tco = capex_total + opex_total.sum(axis=1)
    opex_year1 = opex_total[:, 1 : MONTHS_PER_YEAR + 1].sum(axis=1)
    gpu_hours = _to_months(gpu_hours_y, M, out=buf)
    pv_gpu_hours = np.multiply(gpu_hours, discount, out=tmp).sum(axis=1)
    total_gpu_hours = gpu_hours.sum(axis=1)
    total_revenue = _to_months(revenue_y, M, out=buf).sum(axis=1)
    npv = np.multiply(fcf, discount, out=tmp).sum(axis=1)
    del buf, tmp, ebit, opex_total, gpu_hours
    cost_per_gpu_hour = fin.safe_divide(pv_cost, pv_gpu_hours)

    def tax_months() -> FloatArray:
        tax = np.zeros((size, M + 1))
        tax[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR] = tax_y
        return tax

    def terminal_months() -> FloatArray:
        terminal = np.zeros((size, M + 1))
        terminal[:, M] = terminal_value
        return terminal

    def months(table: FloatArray) -> Callable[[], FloatArray]:
        return lambda: _to_months(table, M)

    opex = Schedules({k: months(v) for k, v in opex_y.items()})
    dep = Schedules({k: months(v) for k, v in dep_y.items()})
    flows = Schedules(
        {
            "gpu_hours": months(gpu_hours_y),
            "price_index": months(price_index * ops),
            "power_index": months(power_index * ops),
            "staff_index": months(staff_index * ops),
            "revenue": months(revenue_y),
            "opex": months(opex_total_y),
            "depreciation": months(dep_total_y),
            "ebit": months(ebit_y_table),
            "tax": tax_months,
            "terminal_value": terminal_months,
            "fcf": fcf,
            "discount_factor": discount,
        }
    )
    annual = {
        "ebit": ebit_y,
        "tax": tax_y,
        "loss_pool_open": pool_open,
        "loss_added": loss_added,
        "loss_used": loss_used,
        "loss_pool_close": pool_close,
    }
    goodput_m = goodput(
        servers,
        q["node_failures_per_day"],
        q["checkpoint_tb"],
        q["write_gbps"],
        q["restart_hours"],
    )
    pv_pflop_hours = (
        pv_gpu_hours * goodput_m["goodput"] * q["mfu"] * q["tflops_bf16"] / TFLOPS_PER_PFLOPS
    )
    metrics = {
        "gpus": gpus,
        "servers": servers,
        "racks": racks,
        "it_kw": it_kw,
        "capex": capex_total,
        "capex_servers": capex_servers,
        "capex_network": capex_network,
        "capex_storage": capex_storage,
        "capex_facility": capex_facility,
        "network_share": fin.safe_divide(capex_network, capex_hardware),
        "opex_year1": opex_year1,
        "tco": tco,
        "gpu_hours": total_gpu_hours,
        "tco_per_gpu_hour": fin.safe_divide(tco, total_gpu_hours),
        "cost_per_gpu_hour": cost_per_gpu_hour,
        "revenue": total_revenue,
        "npv": npv,
        "irr": irr_annual(fcf),
        "payback_years": fin.payback_years(fcf),
        "roi": fin.safe_divide(fcf[:, 1:].sum(axis=1) - capex_total, capex_total),
        "mtbf_hours": goodput_m["mtbf_hours"],
        "checkpoint_interval_hours": goodput_m["checkpoint_interval_hours"],
        "goodput": goodput_m["goodput"],
        "cost_per_effective_gpu_hour": fin.safe_divide(cost_per_gpu_hour, goodput_m["goodput"]),
        "cost_per_pflop_hour": fin.safe_divide(pv_cost, pv_pflop_hours),
        "failures_per_hour": goodput_m["failures_per_hour"],
        "checkpoint_write_hours": goodput_m["checkpoint_write_hours"],
        "young_interval_hours": goodput_m["young_interval_hours"],
        "write_waste": goodput_m["write_waste"],
        "restart_waste": goodput_m["restart_waste"],
        "pv_cost": pv_cost,
        "pv_gpu_hours": pv_gpu_hours,
        "capex_hardware": capex_hardware,
        "terminal_value": terminal_value,
    }
    return TierResult(M, capex, opex, dep, nbv, flows, annual, metrics)


def goodput(
    servers: ArrayLike,
    node_failures_per_day: ArrayLike,
    checkpoint_tb: ArrayLike,
    write_gbps: ArrayLike,
    restart_hours: ArrayLike,
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
    - ``goodput = max(0, 1 - write_waste - restart_waste)`` (1 with no failures).
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
    }
