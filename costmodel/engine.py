"""The cost engine (spec sections 4-9), vectorised over scenarios and months.

Every input is a scalar or an array of shape ``(S,)``: ``S`` scenario variants of
one tier are computed at once (``S = 1`` for a plain build). Monthly arrays have
shape ``(S, M + 1)``, column ``m`` holding month m (month 0 is the investment
date; operating months are 1..M). The engine does no I/O and knows nothing of
files, workbooks or memos.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import finance as fin
from .finance import HOURS_PER_MONTH, MONTHS_PER_YEAR, FloatArray
from .params import TierConfig
from .schema import ASSET_CLASSES

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


def scale_class(gpus: int) -> str:
    """``tens`` if gpus <= 64, ``hundreds`` if gpus <= 511, else ``thousands`` (spec 3)."""
    if gpus <= 64:
        return "tens"
    if gpus <= 511:
        return "hundreds"
    return "thousands"


@dataclass(frozen=True)
class TierResult:
    """Everything computed for one tier, for S scenario variants.

    ``capex``: line -> (S,); ``opex`` and ``depreciation``: line -> (S, M+1);
    ``flows``: revenue, opex, depreciation, ebit, tax, terminal_value, fcf,
    gpu_hours, discount_factor -> (S, M+1); ``annual``: ebit, tax, loss pool
    corkscrew -> (S, Y); ``metrics``: summary column -> (S,);
    ``nbv``: asset class -> (S,) net book value at month M.
    """

    months: int
    capex: dict[str, FloatArray]
    opex: dict[str, FloatArray]
    depreciation: dict[str, FloatArray]
    nbv: dict[str, FloatArray]
    flows: dict[str, FloatArray]
    annual: dict[str, FloatArray]
    metrics: dict[str, FloatArray]

    @property
    def size(self) -> int:
        return int(self.metrics["npv"].shape[0])


def _col(x: ArrayLike) -> FloatArray:
    """(S,) -> (S, 1) for broadcasting against months."""
    return np.atleast_1d(np.asarray(x, dtype=float))[:, None]


def run_tier(p: Mapping[str, ArrayLike], config: TierConfig) -> TierResult:
    """Compute one tier for S variants. ``p`` holds the inputs named in
    :func:`costmodel.params.resolve_tier`, each a scalar or an (S,) array."""
    names = list(p)
    size = int(np.broadcast_shapes(*[np.shape(p[k]) for k in names], (1,))[0])
    q = {k: np.broadcast_to(np.asarray(p[k], dtype=float), (size,)) for k in names}
    M = config.months
    Y = M // MONTHS_PER_YEAR
    m = np.arange(M + 1)
    year = -(-m // MONTHS_PER_YEAR)  # y(m) = ceil(m / 12); 0 at month 0
    ops = (m >= 1).astype(float)[None, :]  # operating-month flag
    years_in = np.maximum(year - 1, 0)[None, :]  # y - 1

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

    # ---- opex (spec 5), monthly
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
    opex = {
        "electricity": electricity,
        "colocation": np.broadcast_to(colocation, electricity.shape).copy(),
        "staff": staff,
        "maintenance": np.broadcast_to(maintenance, electricity.shape).copy(),
        "insurance": np.broadcast_to(insurance, electricity.shape).copy(),
        "software": np.broadcast_to(software, electricity.shape).copy(),
    }
    opex_total = sum(opex.values())

    # ---- depreciation (spec 6)
    dep: dict[str, FloatArray] = {}
    nbv: dict[str, FloatArray] = {}
    for cls in ASSET_CLASSES:
        annual = fin.depreciation_annual(
            capex[cls],
            q[f"salvage_{cls}"],
            config.depreciation_method[cls],
            config.depreciation_life_years[cls],
        )
        dep[cls] = fin.spread_annual_to_months(annual, M)
        nbv[cls] = capex[cls] - dep[cls].sum(axis=1)
    dep_total = sum(dep.values())

    # ---- revenue, tax, cash flow (spec 7)
    gpu_hours = _col(gpus) * util * HOURS_PER_MONTH * ops
    price_index = np.power(1 - _col(q["price_decline"]), years_in)
    revenue = gpu_hours * _col(q["price_per_gpu_hour"]) * price_index
    ebit = revenue - opex_total - dep_total
    ebit_y = ebit[:, 1:].reshape(size, Y, MONTHS_PER_YEAR).sum(axis=2)
    tax_y = np.zeros((size, Y))
    pool_open = np.zeros((size, Y))
    pool = np.zeros(size)
    tax_rate = q["tax_rate"]
    for y in range(Y):
        e = ebit_y[:, y]
        pool_open[:, y] = pool
        loss = e <= 0
        used = np.where(loss, 0.0, np.minimum(pool, e))
        tax_y[:, y] = np.where(loss, 0.0, tax_rate * (e - used))
        pool = np.where(loss, pool - e, pool - used)
    pool_close = np.concatenate([pool_open[:, 1:], pool[:, None]], axis=1)
    tax = np.zeros_like(ebit)
    tax[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR] = tax_y

    terminal_value = sum(nbv.values()) * q["terminal_flag"]
    terminal = np.zeros_like(ebit)
    terminal[:, M] = terminal_value
    fcf = revenue - opex_total - tax + terminal
    fcf[:, 0] = -capex_total
    discount = fin.discount_factors(q["discount_rate"], M)
    discount = np.broadcast_to(discount, fcf.shape)

    flows = {
        "gpu_hours": gpu_hours,
        "revenue": revenue,
        "opex": opex_total,
        "depreciation": dep_total,
        "ebit": ebit,
        "tax": tax,
        "terminal_value": terminal,
        "fcf": fcf,
        "discount_factor": discount,
    }
    annual = {
        "ebit": ebit_y,
        "tax": tax_y,
        "loss_pool_open": pool_open,
        "loss_pool_close": pool_close,
    }

    # ---- metrics (spec 8, 9)
    pv_cost = capex_total + (opex_total * discount).sum(axis=1)
    pv_gpu_hours = (gpu_hours * discount).sum(axis=1)
    total_gpu_hours = gpu_hours.sum(axis=1)
    tco = capex_total + opex_total.sum(axis=1)
    cost_per_gpu_hour = fin.safe_divide(pv_cost, pv_gpu_hours)
    goodput_m = goodput(
        servers,
        q["node_failures_per_day"],
        q["checkpoint_tb"],
        q["write_gbps"],
        q["restart_hours"],
    )
    pv_pflop_hours = pv_gpu_hours * goodput_m["goodput"] * q["mfu"] * q["tflops_bf16"] / 1000.0
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
        "opex_year1": opex_total[:, 1 : MONTHS_PER_YEAR + 1].sum(axis=1),
        "tco": tco,
        "gpu_hours": total_gpu_hours,
        "tco_per_gpu_hour": fin.safe_divide(tco, total_gpu_hours),
        "cost_per_gpu_hour": cost_per_gpu_hour,
        "revenue": revenue.sum(axis=1),
        "npv": (fcf * discount).sum(axis=1),
        "irr": fin.irr_annual(fcf),
        "payback_years": fin.payback_years(fcf),
        "roi": fin.safe_divide(fcf[:, 1:].sum(axis=1) - capex_total, capex_total),
        "mtbf_hours": goodput_m["mtbf_hours"],
        "checkpoint_interval_hours": goodput_m["checkpoint_interval_hours"],
        "goodput": goodput_m["goodput"],
        "cost_per_effective_gpu_hour": fin.safe_divide(cost_per_gpu_hour, goodput_m["goodput"]),
        "cost_per_pflop_hour": fin.safe_divide(pv_cost, pv_pflop_hours),
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
    """Goodput of a whole-cluster job under failures and checkpoints (spec 9).

    ``mtbf_h = 24 / (node_failures_per_day * servers)``;
    ``delta_h = checkpoint_tb * 1000 / write_gbps / 3600`` (blocking write);
    ``tau_h = sqrt(2 * delta_h * mtbf_h)`` (Young's interval);
    ``waste = delta_h / tau_h + (tau_h / 2 + restart_hours) / mtbf_h``;
    ``goodput = max(0, 1 - waste)``. With no failures, goodput is 1 and MTBF and
    the interval are NaN; with a zero-size checkpoint the write term is 0.
    """
    n = np.asarray(servers, dtype=float)
    f = np.asarray(node_failures_per_day, dtype=float)
    mtbf = fin.safe_divide(24.0, f * n)
    delta = (
        np.asarray(checkpoint_tb, dtype=float)
        * 1000.0
        / np.asarray(write_gbps, dtype=float)
        / 3600.0
    )
    tau = np.sqrt(2.0 * delta * mtbf)
    write_waste = np.where(delta > 0, fin.safe_divide(delta, tau), 0.0)
    waste = write_waste + fin.safe_divide(tau / 2.0 + np.asarray(restart_hours, dtype=float), mtbf)
    gp = np.where(f * n > 0, np.maximum(0.0, 1.0 - waste), 1.0)
    interval = np.where((f * n > 0) & (delta > 0), tau, np.nan)
    return {
        "mtbf_hours": np.broadcast_to(mtbf, gp.shape).astype(float),
        "checkpoint_interval_hours": interval,
        "goodput": gp,
    }
