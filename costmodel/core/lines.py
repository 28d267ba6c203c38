"""The operating lines: opex, revenue and GPU-hours, goodput and availability."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from costmodel.catalogue.items import OPEX_ITEMS, OPEX_LINES
from costmodel.core import finance as fin
from costmodel.core.discount import DISCOUNTED, Discount
from costmodel.core.finance import FloatArray
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import CapexEvent, Clock, Shapes, col, contract_years, when
from costmodel.core.units import (
    GB_PER_TB,
    HOURS_PER_DAY,
    HOURS_PER_MONTH,
    MONTHS_PER_YEAR,
    SECONDS_PER_HOUR,
)


def monthly_line(c: Coefficients, shapes: list[FloatArray], clock: Clock) -> FloatArray:
    """A line month by month (S, M+1): ``x(m) = sum_k c_k[y(m)] h_k(m)``, its
    coefficients ``c`` (shape k -> (Y, S)) on the monthly shapes ``h_k``
    (:func:`operating_shapes`, 0 at month 0), added shape after shape.

    Computed month-major: each term is the coefficients' rows gathered per month
    (M+1, S), multiplied in place by the shape's months and added in place, so that
    every pass reads and writes contiguous rows; the result is that (M+1, S) array
    transposed into an (S, M+1) one (the same products and sums as variant-major,
    and the same layout, so that reductions over months round as they did)."""
    year = _year_rows(clock.months)
    out = None
    for k, ck in c.items():
        rows = np.take(ck, year, axis=0)
        h = shapes[k].T
        term = np.multiply(rows, h, out=rows if rows.shape == _wider(rows, h) else None)
        if out is None:
            out = term
        elif out.shape == _wider(out, term):
            out += term
        else:
            out = out + term
    if out is None:
        return np.zeros((1, clock.months + 1))
    return np.ascontiguousarray(out.T)  # sums over months then round as before


def _wider(a: np.ndarray, b: np.ndarray) -> tuple[int, ...]:
    """The shape ``a`` and ``b`` broadcast to."""
    return np.broadcast_shapes(a.shape, b.shape)


@lru_cache(maxsize=8)
def _year_rows(months: int) -> np.ndarray:
    """``y(m) - 1`` (0 at month 0) for months 0..M: the coefficients' row of each month."""
    year = np.maximum(np.ceil(np.arange(months + 1) / MONTHS_PER_YEAR) - 1, 0).astype(np.intp)
    year.flags.writeable = False
    return year


def opex_lines(
    coefficients: Mapping[str, Coefficients], shapes: list[FloatArray], clock: Clock
) -> dict[str, FloatArray]:
    """Monthly opex (methodology §3.2 and §8.1), each line of :data:`OPEX_LINES`
    month by month from its coefficients (:func:`operating_coefficients`) on the
    monthly shapes (:func:`monthly_line`)."""
    return {line: monthly_line(coefficients[line], shapes, clock) for line in OPEX_LINES}


#: the lines of hours sold and revenue (methodology §3.4, §11.5)
REVENUE_LINES = (
    "gpu_hours",
    "contract_hours",
    "spot_hours",
    "revenue",
    "contract_revenue",
    "spot_revenue",
)


def revenue_lines(
    coefficients: Mapping[str, Coefficients],
    shapes: list[FloatArray],
    clock: Clock,
    keys: Sequence[str] = REVENUE_LINES,
) -> dict[str, FloatArray]:
    """GPU-hours sold and revenue, in all and split into contracted and spot
    (``keys``, of :data:`REVENUE_LINES`), month by month from their coefficients
    (:func:`operating_coefficients`, :func:`monthly_line`)."""
    return {k: monthly_line(coefficients[k], shapes, clock) for k in keys}


def tier_goodput(q: TierParams, deps: list[dict[str, FloatArray]]) -> dict:
    """Goodput of the final cluster; its storage writes at ``write_gbps``, or, sized
    in nodes, at the aggregate write bandwidth of the final cluster's storage
    nodes (methodology §28.2)."""
    last = deps[-1]
    write = last.get("storage_write_gbps", q.write_gbps)
    return goodput(
        sum(d["servers_n"] for d in deps),
        q.node_failures_per_day,
        q.checkpoint_tb,
        write,
        q.restart_hours,
        q.repair_hours,
    )


def goodput(
    servers: ArrayLike,
    node_failures_per_day: ArrayLike,
    checkpoint_tb: ArrayLike,
    write_gbps: ArrayLike,
    restart_hours: ArrayLike,
    repair_hours: ArrayLike = 0.0,
) -> dict[str, FloatArray]:
    """Goodput of a whole-cluster job under failures and checkpoints (methodology §5), with
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
      (methodology §8.3: the share of node-hours not under repair).
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
    """``max(0, 1 - node_failures_per_day * repair_hours / 24)`` (methodology §8.3): the share
    of node-hours not under repair."""
    f = np.asarray(node_failures_per_day, dtype=float)
    return np.maximum(0.0, 1.0 - f * np.asarray(repair_hours, dtype=float) / HOURS_PER_DAY)


def weighted_utilization(
    deps: list[dict[str, FloatArray]], utilization: list[FloatArray]
) -> FloatArray:
    """GPU-weighted utilization of the deployments in service (0 before any)."""
    gpus = [col(d["gpus"]) for d in deps]
    sold = sum(g * u for g, u in zip(gpus, utilization, strict=True))
    live = sum(g * (u > 0) for g, u in zip(gpus, utilization, strict=True))
    return fin.safe_divide(sold, live)


def _year_index(g: ArrayLike, years: int) -> FloatArray:
    """(Y, S or 1): Clock.index per year, ``(1 + g)^y`` for model years y = 0 ..
    Y-1. The power runs along the years (as in Clock.index) and is then
    transposed: vectorised transcendental functions may round differently by
    position, and the variants' results must not depend on their position in a
    chunk."""
    year_no = np.arange(years, dtype=float)[None, :]
    return np.power(1.0 + when(g), year_no).T


#: a line's coefficients on the shapes of :func:`operating_shapes`: shape k -> (Y, S),
#: only the shapes the line has (a missing shape has coefficient 0), k ascending
Coefficients = dict[int, FloatArray]

#: the operating lines, each defined once by its coefficients
OPERATING_LINES = (
    *OPEX_LINES,
    "contract_hours",
    "spot_hours",
    "gpu_hours",
    "contract_revenue",
    "spot_revenue",
    "revenue",
)


def operating_coefficients(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    years: int,
) -> dict[str, Coefficients]:
    """Every operating line (:data:`OPERATING_LINES`) as coefficients per model
    year and variant (Y, S) on the shapes of :func:`operating_shapes` (k = d in
    service, D + d ramp share, 2D + d staffing of deployment d; with a contract
    3D + d ramp share in contract, 4D + J d + j contract year j): the one
    definition of each line, read month by month (:func:`monthly_line`) and by
    year (:func:`year_sums`, :func:`pv_lines`, :func:`per_run`). With the power
    index ``E_y = (1 + power escalation)^(y-1)``, staff index ``W_y``, price index
    ``P_y = (1 - price decline)^(y-1)``, ``H = 730 h``, ``avail = availability *
    H``, ``sold = utilization * avail``, the contract share ``s``, its price
    ``p_c`` and escalation ``e`` (methodology §3.2, §3.4, §8.1, §8.3, §11.4, §11.5):

    - each opex line: its formula in the catalogue (:mod:`costmodel.catalogue`,
      :func:`opex_coefficients`), on each shape with the quantity it is linear in
      bound to that shape's coefficient: the kW drawn (in service ``kW_d idle``;
      ramp share ``kW_d (1 - idle) utilization``; ramp share in contract ``- kW_d
      (1 - idle) utilization s``; contract years ``kW_d (1 - idle) s``), the IT kW,
      hardware, facility and GPUs in service (in service), the FTE (staffing) and
      revenue (each revenue coefficient);
    - contract_hours: contract year j ``s GPUs_d avail`` (take-or-pay, no ramp);
      contract_revenue: contract year j ``s GPUs_d avail p_c (1 + e)^j``, or, in
      the ``avoided_cloud`` mode (``contract_at_hour_value``), ``s GPUs_d avail
      P_y price per GPU-hour`` (every hour at the cloud price);
    - spot_hours: ramp share ``GPUs_d sold``, ramp share in contract ``- s GPUs_d
      sold`` (``u_d(m) (1 - s_d(m))``); spot_revenue: the same times ``P_y price
      per GPU-hour``;
    - gpu_hours = spot_hours + contract_hours; revenue = spot_revenue +
      contract_revenue."""
    size = q.gpus.shape[0]
    n_dep = len(deps)
    util, idle = q.utilization, q.idle_fraction
    avail = availability(q.node_failures_per_day, q.repair_hours) * HOURS_PER_MONTH
    sold = util * avail
    price = _year_index(-np.asarray(q.price_decline), years) * q.price_per_gpu_hour
    facility = [e for e in events if e.cls == "facility"]  # in service with deployment d
    n_years = contract_years(q.contract_months, years * MONTHS_PER_YEAR)

    def flat(x: FloatArray) -> FloatArray:  # the same every year
        return np.broadcast_to(x, (years, size))

    out: dict[str, Coefficients] = {line: {} for line in OPERATING_LINES}
    # the drivers of the opex formulas on each shape: the quantity each formula is
    # linear in, per deployment, as the coefficient of that shape
    drivers: dict[int, dict[str, FloatArray]] = {}
    for i, d in enumerate(deps):
        kw, ramped = d["it_kw"], n_dep + i
        drivers[i] = {
            "kw_drawn": kw * idle,
            "kw_on": kw,
            "hw_on": d["hardware"],
            "fac_on": facility[i].amount,
            "gpus_on": d["gpus"],
        }
        drivers[ramped] = {"kw_drawn": kw * (1.0 - idle) * util}
        drivers[2 * n_dep + i] = {"fte": d["staff_fte"]}
        out["spot_hours"][ramped] = flat(d["gpus"] * sold)
        out["spot_revenue"][ramped] = price * (d["gpus"] * sold)
        if n_years:
            _contract_coefficients(q, (out, drivers), (i, n_dep, n_years), d, (price, sold, avail))
    out["gpu_hours"] = total([out["spot_hours"], out["contract_hours"]])
    out["revenue"] = total([out["spot_revenue"], out["contract_revenue"]])
    for k, c in out["revenue"].items():
        drivers.setdefault(k, {})["revenue"] = c
    out |= opex_coefficients(q, drivers, (years, size))
    return {line: dict(sorted(c.items())) for line, c in out.items()}


def formula_inputs() -> tuple[str, ...]:
    """The engine inputs the opex formulas of the catalogue read (each a field of
    :class:`~costmodel.core.tierparams.TierParams`): every name of a formula but its
    drivers, its index and the hours of a month. A name that is none of these raises
    ``AttributeError`` when this module is imported."""
    names: set[str] = set()
    for item in OPEX_ITEMS:
        f = item.formula
        assert f is not None, item.key
        index = {f.index.key} if f.index is not None else set()
        names |= f.expr.refs() - set(f.drivers) - index - {"hours_per_month"}
        names |= {f.index.escalation} if f.index is not None else set()
    inputs = {x.name for x in fields(TierParams)}
    for name in sorted(names - inputs):
        raise AttributeError(f"an opex formula of the catalogue reads {name!r}, no engine input")
    return tuple(sorted(names))


#: the engine inputs the opex formulas read (:func:`formula_inputs`)
FORMULA_INPUTS = formula_inputs()


def opex_coefficients(
    q: TierParams, drivers: dict[int, dict[str, FloatArray]], shape: tuple[int, int]
) -> dict[str, Coefficients]:
    """Each opex line's coefficients (Y, S) on the shapes: its formula (the catalogue's,
    :data:`~costmodel.catalogue.items.OPEX_ITEMS`) evaluated on each shape k whose
    ``drivers[k]`` has one of the quantities the formula is linear in (a driver the
    shape lacks is 0 there), the other names read from ``q``, the hours of a month
    and the line's yearly index per model year."""
    years, _ = shape
    env = {name: getattr(q, name) for name in FORMULA_INPUTS} | {"hours_per_month": HOURS_PER_MONTH}
    out: dict[str, Coefficients] = {}
    for item in OPEX_ITEMS:
        f = item.formula
        assert f is not None, item.key
        if f.index is not None:
            env[f.index.key] = _year_index(getattr(q, f.index.escalation), years)
        out[item.key] = {}
        for k, on in drivers.items():
            if any(name in on for name in f.drivers):
                given = {name: on.get(name, 0.0) for name in f.drivers}
                out[item.key][k] = np.broadcast_to(f.expr.numpy(env | given), shape)
    return out


def _contract_coefficients(
    q: TierParams,
    into: tuple[dict[str, Coefficients], dict[int, dict[str, FloatArray]]],
    where: tuple[int, int, int],
    d: dict[str, FloatArray],
    rates: tuple[FloatArray, FloatArray, FloatArray],
) -> None:
    """The coefficients of deployment i's contract (methodology §11.5; see
    :func:`operating_coefficients`) on its shapes 3D + i (ramp share in contract)
    and 4D + J i + j (contract year j), added to ``out``, and the kW drawn on them
    to ``drivers``."""
    out, drivers = into
    i, n_dep, n_years = where
    price, sold, avail = rates
    years, size = price.shape
    s, kw = q.contract_share, d["it_kw"]
    in_contract, busy = 3 * n_dep + i, kw * (1.0 - q.idle_fraction)
    drivers[in_contract] = {"kw_drawn": -(busy * q.utilization * s)}
    out["spot_hours"][in_contract] = np.broadcast_to(-(s * d["gpus"] * sold), (years, size))
    out["spot_revenue"][in_contract] = -(price * (s * d["gpus"] * sold))
    contracted = s * d["gpus"] * avail
    at_hour_value = q.contract_at_hour_value > 0
    for j in range(n_years):
        k = 4 * n_dep + n_years * i + j
        escalated = q.contract_price_per_gpu_hour * (1.0 + q.contract_escalation) ** j
        drivers[k] = {"kw_drawn": busy * s}
        out["contract_hours"][k] = np.broadcast_to(contracted, (years, size))
        out["contract_revenue"][k] = contracted * np.where(at_hour_value, price, escalated)


def total(lines: Sequence[Coefficients]) -> Coefficients:
    """The sum of lines, shape by shape (k ascending)."""
    out: Coefficients = {}
    for c in lines:
        for k, ck in c.items():
            out[k] = ck if k not in out else out[k] + ck
    return dict(sorted(out.items()))


def margin(rev: Coefficients, opex: Coefficients) -> Coefficients:
    """Revenue minus opex, shape by shape (0 where a line has no coefficient)."""
    out: Coefficients = {}
    for k in sorted(set(rev) | set(opex)):
        r, o = rev.get(k), opex.get(k)
        out[k] = r if o is None else (0.0 - o if r is None else r - o)  # type: ignore[operator]
    return out


def year_sums(c: Coefficients, h_sums: FloatArray) -> FloatArray:
    """(Y, S): ``sum_k c[y, k] H[y, k]``, the year sums of the line with
    coefficients ``c``, H the shapes' year sums, (Y, K) when the variants share
    them or (Y, K, S) each variant's own, added shape after shape.
    Elementwise products summed in order: each variant's result does not depend on
    its position in the chunk (BLAS and einsum kernels may round the first or
    last few columns otherwise)."""
    out = None
    for k, ck in c.items():
        term = ck * (h_sums[:, k, None] if h_sums.ndim == 2 else h_sums[:, k])
        out = term if out is None else out + term
    return out if out is not None else np.zeros((h_sums.shape[0], 1))


def pv_lines(c: Coefficients, disc_shapes: FloatArray) -> FloatArray:
    """(S,): present value ``sum_y sum_k c[y, k] D[y, k]`` of the line with
    coefficients ``c``, D the discounted shapes (Y, K, 1 or S), added year after
    year and within a year shape after shape."""
    out = None
    for y in range(disc_shapes.shape[0]):
        for k, ck in c.items():
            term = ck[y] * disc_shapes[y, k]
            out = term if out is None else out + term
    return out if out is not None else np.zeros(disc_shapes.shape[2])


def per_run(shapes: Shapes, c: Coefficients) -> FloatArray:
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


def discounted_shapes(shapes: Shapes, disc: Discount) -> FloatArray:
    """``sum_{m in year y} h_k(m) d(m)`` (Y, K, 1 or S), from the discount sums over
    each run of months (:meth:`Discount.sums`, kept in :data:`DISCOUNTED`)."""

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

    return DISCOUNTED.get(("shapes", shapes.key, disc.key), compute)
