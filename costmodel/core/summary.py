"""The summary columns of a tier, from the sums and present values of a run."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import numpy as np

from costmodel.catalogue.items import HARDWARE_CLASSES
from costmodel.core import finance as fin
from costmodel.core.config import servers_per_rack
from costmodel.core.design import design_columns
from costmodel.core.finance import FloatArray
from costmodel.core.irrsolve import irr_annual, irr_root_count
from costmodel.core.result import Derived, Metrics, value_of
from costmodel.core.siteprices import KW_PER_MW
from costmodel.core.threads import blas_single_thread
from costmodel.core.tierparams import TierParams
from costmodel.core.units import (
    MONTHS_PER_YEAR,
    TFLOPS_PER_PFLOPS,
)
from costmodel.core.wacc import discount_rates


def summary(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    goodput_m: Mapping[str, FloatArray],
    *,
    capex_by: dict[str, FloatArray],
    opex_sum: FloatArray,
    opex_by_year: FloatArray,
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
    borrowers: np.ndarray | None,
    dscr: FloatArray | Callable[[], FloatArray],
    debt_peak: FloatArray | Callable[[], FloatArray],
    terminal: FloatArray,
    terminal_tax: FloatArray,
    irr: Callable[[], FloatArray] | None = None,
    vat: Mapping[str, FloatArray | Callable[[], FloatArray]] | None = None,
    irr_roots: Callable[[], FloatArray] | None = None,
    more: Mapping[str, FloatArray | Callable[[], FloatArray]] | None = None,
) -> Metrics:
    """Summary columns (methodology §4, §5, §8, §11) from the sums, present values and
    the monthly FCF (and ECF when borrowing; None: ECF = FCF) of a run; the IRRs are
    computed when read (``opex_by_year``: total opex (S, Y) per model year; ``irr``
    (``irr_roots``): a cheaper solve of the IRR (count of the FCF's roots), None: from
    the monthly FCF; ``vat``, ``more``: :func:`_more_columns`). ``irr_roots`` and
    ``equity_irr_roots`` (not summary columns) count the roots of NPV in the IRR's
    range (methodology §11.2): more than one, and the IRR is one of several."""
    capex = sum(capex_by.values())
    hardware = sum(capex_by[c] for c in HARDWARE_CLASSES)
    tco = capex + opex_sum
    rack = cache(lambda: _servers(q, deps))  # (servers, servers per rack)
    cost_per_gpu_hour = fin.safe_divide(pv_cost, pv_gpu_hours)

    # columns a Monte Carlo does not read are computed when read
    values: dict[str, FloatArray | Callable[[], FloatArray] | Derived] = {
        "gpus": lambda: sum(d["gpus"] for d in deps),
        "servers": lambda: rack()[0],
        "racks": lambda: np.ceil(fin.safe_divide(*rack())),
        **_power_columns(q, deps),
        "capex": capex,
        **{f"capex_{c}": v for c, v in capex_by.items()},
        "network_share": lambda: fin.safe_divide(capex_by["network"], hardware),
        **design_columns(q, deps),
        **_opex_columns(deps, opex_by_year),
        "tco": tco,
        "gpu_hours": gpu_hours,
        "tco_per_gpu_hour": lambda: fin.safe_divide(tco, value_of(gpu_hours)),
        "cost_per_gpu_hour": cost_per_gpu_hour,
        "revenue": revenue,
        "realized_price": lambda: fin.safe_divide(revenue, value_of(gpu_hours)),
        "npv": npv,
        "irr": irr or (lambda: irr_of(value_of(fcf))),
        "irr_roots": irr_roots or (lambda: roots_of(value_of(fcf))),
        "payback_years": payback,
        "roi": lambda: fin.safe_divide(value_of(fcf_sum), capex),
        **_goodput_columns(q, goodput_m, pv_cost, pv_gpu_hours, cost_per_gpu_hour),
        "peak_funding": peak_funding,
        "equity_npv": equity_npv,
        "equity_irr": lambda: irr_of(ecf()),
        "equity_irr_roots": lambda: roots_of(ecf()),
        "min_dscr": lambda: _min_dscr(value_of(dscr)),
        "debt_peak": debt_peak,
        "pv_cost": pv_cost,
        "pv_gpu_hours": pv_gpu_hours,
        "capex_hardware": hardware,
        "terminal_value": terminal,
        "terminal_tax": terminal_tax,
        "servers_per_rack": lambda: rack()[1],
        **_more_columns(q, vat, more),
    }
    return _with_irrs(values, ecf, borrowers)


def _more_columns(
    q: TierParams,
    vat: Mapping[str, FloatArray | Callable[[], FloatArray]] | None,
    more: Mapping[str, FloatArray | Callable[[], FloatArray]] | None,
) -> dict[str, FloatArray | Callable[[], FloatArray]]:
    """The VAT columns, ``discount_rate`` (the rate of the NPV, methodology §11.10)
    and the columns of ``more`` (contract default and subsidies, §11.12, §11.13; 0
    where absent: the by-year evaluation runs neither)."""
    none = dict.fromkeys(("contract_at_risk", "subsidies"), np.zeros(q.gpus.shape[0]))
    return {**(vat or {}), "discount_rate": lambda: discount_rates(q), **none, **(more or {})}


def _power_columns(
    q: TierParams, deps: list[dict[str, FloatArray]]
) -> dict[str, Callable[[], FloatArray]]:
    """``it_kw`` of the final cluster and its facility power ``facility_mw = it_kw *
    pue / 1000`` (methodology §29), computed when read."""
    it_kw = cache(lambda: sum(d["it_kw"] for d in deps))
    return {"it_kw": it_kw, "facility_mw": lambda: it_kw() * q.pue / KW_PER_MW}


def _opex_columns(
    deps: list[dict[str, FloatArray]], opex_by_year: FloatArray
) -> dict[str, FloatArray | Callable[[], FloatArray]]:
    """The opex columns of the year table ``opex_by_year`` (S, Y): ``opex_year1 =
    opex_1``, ``opex_full_year = opex_{y*}`` (:func:`first_full_year_opex`, computed
    when read) and ``opex_full_year_number = y*`` (:func:`first_full_year` of the
    first deployment's capex month), both NaN where ``y* > Y`` (no full operating
    year within the horizon: a model year past it is no year of the model)."""
    year = first_full_year(deps[0]["month"])
    table = np.broadcast_to(opex_by_year, (year.shape[0], np.shape(opex_by_year)[-1]))
    return {
        "opex_year1": table[:, 0] + 0.0,
        "opex_full_year": lambda: first_full_year_opex(table, year),
        "opex_full_year_number": np.where(year <= table.shape[1], year, np.nan),
    }


def first_full_year(first_capex_month: FloatArray) -> FloatArray:
    """(S,): the first full operating year ``y* = ceil(B / 12) + 1``, ``B`` the month
    of the first deployment's hardware capex (``round(build_months)``; in service
    from ``B + 1``): the first model year (months ``12(y-1)+1 .. 12y``) whose twelve
    months all come after the first deployment enters service; 1 when ``B = 0``
    (methodology §4).

    >>> first_full_year(np.array([0.0, 4.0, 12.0, 13.0]))
    array([1., 2., 2., 3.])
    """
    return np.ceil(np.asarray(first_capex_month, dtype=float) / MONTHS_PER_YEAR) + 1.0


def first_full_year_opex(opex_by_year: FloatArray, year: FloatArray) -> FloatArray:
    """``opex_full_year = opex_{y*}`` (S,): the total opex of model year ``y* = year``
    (:func:`first_full_year`) from the year table ``opex_by_year`` (S, Y), NaN where
    ``y* > Y`` (no full operating year within the horizon).

    >>> first_full_year_opex(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([2.0, 3.0]))
    array([ 2., nan])
    """
    table = np.atleast_2d(np.asarray(opex_by_year, dtype=float))
    size = max(table.shape[0], np.size(year))
    table = np.broadcast_to(table, (size, table.shape[1]))
    y = np.broadcast_to(np.asarray(year, dtype=float), (size,))
    inside = y <= table.shape[1]
    col = np.where(inside, y, 1).astype(np.intp) - 1
    return np.where(inside, table[np.arange(size), col], np.nan)


def _goodput_columns(
    q: TierParams,
    goodput_m: Mapping[str, FloatArray],
    pv_cost: FloatArray,
    pv_gpu_hours: FloatArray,
    cost_per_gpu_hour: FloatArray,
) -> dict[str, Callable[[], FloatArray]]:
    """The summary columns of methodology §5, §8.3, computed when read: :func:`goodput`
    and its intermediates, ``cost_per_effective_gpu_hour = cost_per_gpu_hour /
    goodput`` and ``cost_per_pflop_hour = PV_cost / (PV_gpu_hours goodput mfu
    tflops_bf16 / 1000)``."""

    def read(key: str) -> Callable[[], FloatArray]:
        return lambda: goodput_m[key]

    def per_pflop_hour() -> FloatArray:
        gp = goodput_m["goodput"]
        pv_pflop_hours = pv_gpu_hours * gp * q.mfu * q.tflops_bf16 / TFLOPS_PER_PFLOPS
        return fin.safe_divide(pv_cost, pv_pflop_hours)

    keys = ("mtbf_hours", "checkpoint_interval_hours", "goodput", "availability")
    details = (
        "failures_per_hour",
        "checkpoint_write_hours",
        "young_interval_hours",
        "write_waste",
        "restart_waste",
    )
    return {
        **{k: read(k) for k in keys},
        "cost_per_effective_gpu_hour": lambda: fin.safe_divide(
            cost_per_gpu_hour, goodput_m["goodput"]
        ),
        "cost_per_pflop_hour": per_pflop_hour,
        **{k: read(k) for k in details},
    }


def _servers(q: TierParams, deps: list[dict[str, FloatArray]]) -> tuple[FloatArray, FloatArray]:
    """Servers ``sum_d servers_d`` and servers per rack (:func:`servers_per_rack`
    of rack kW, server kW and the auxiliary power share); a rack-scale unit spanning
    ``racks_per_unit`` racks (methodology §33) has ``1 / racks_per_unit`` per rack, so
    that racks = units x racks_per_unit."""
    servers = sum(d["servers_n"] for d in deps)
    if q.racks_per_unit is not None:
        return servers, 1.0 / q.racks_per_unit
    return servers, servers_per_rack(q.rack_kw, q.server_power_kw, q.aux_power_fraction)


def _min_dscr(dscr: FloatArray) -> FloatArray:
    """(S,): ``min_y DSCR_y`` over the years with debt service (S, Y), NaN where
    none has."""
    return np.fmin.reduce(dscr, axis=1)  # fmin skips NaN; all NaN gives NaN


def _with_irrs(
    values: dict[str, FloatArray | Callable[[], FloatArray] | Derived],
    ecf: Callable[[], FloatArray] | None,
    borrowers: np.ndarray | None,
) -> Metrics:
    """The metrics ``values`` (their IRRs solved when read); a variant that does
    not borrow has ECF = FCF and its equity IRR is its IRR (``ecf`` None: no
    variant borrows; ``borrowers`` (S,): which do), so that it does not depend on
    which variants it was computed with."""
    for irr, of in (("irr", irr_of), ("irr_roots", roots_of)):
        equity = f"equity_{irr}"
        if ecf is None:  # ECF = FCF: the same IRR
            values[equity] = Derived(lambda m, irr=irr: m[irr])
        elif borrowers is not None and not np.all(borrowers):
            values[equity] = Derived(
                lambda m, irr=irr, of=of: np.where(borrowers, of(ecf()), m[irr])
            )
    return Metrics(values)


def roots_of(values: FloatArray, runs: tuple[int, ...] | None = None) -> FloatArray:
    """How many roots the NPV of each row of ``values`` has in the IRR's range
    (:func:`costmodel.core.irrsolve.irr_root_count`)."""
    with blas_single_thread():
        return irr_root_count(values, runs)


def irr_of(values: FloatArray, runs: tuple[int, ...] | None = None) -> FloatArray:
    """The annual IRR of each row of ``values`` (months, or runs of months of the
    lengths ``runs``: :func:`costmodel.core.irrsolve.irr_monthly`)."""
    with blas_single_thread():
        return irr_annual(values, runs)
