"""The cost engine (methodology §3-§5 and §8), vectorised over scenarios and
months: :func:`run_tier` composes the concept modules.

Every input is a scalar or an array of shape ``(S,)``: ``S`` scenario variants of
one tier are computed at once (``S = 1`` for a plain build). Monthly arrays have
shape ``(S, M + 1)``, column ``m`` holding month m (month 0 is the investment
date). The engine does no I/O and knows nothing of files, workbooks or memos.

Each line item is defined once, with its formula in its docstring:
:mod:`~costmodel.core.timing` (clock, deployments, capex events, ramp, the
monthly shapes), :mod:`~costmodel.core.lines` (every operating line as
coefficients per model year on those shapes), :mod:`~costmodel.core.depreciation`,
:mod:`~costmodel.core.tax` (loss pool, terminal value), :mod:`~costmodel.core.debt`,
:mod:`~costmodel.core.discount`, :mod:`~costmodel.core.summary` (the metrics) and
:mod:`~costmodel.core.schedules` (what the writers show per event, loan, vintage
and deployment).

Three evaluations read those definitions (equal to rel 1e-12, pinned by
tests/core/test_differential.py):

- :func:`run_monthly` expands every line month by month as (S, M+1) arrays;
- :func:`costmodel.core.byyear.run_by_year`, used whenever the variants share
  their timing (the deployment months, the ramp and a contract's months: every
  single build, and a Monte Carlo chunk of one timing), sums the coefficients
  against the shapes' year sums; only the free cash flow (and, for the equity
  IRR, the equity cash flow) is built month by month;
- :func:`costmodel.core.byyear.run_by_draw`, for variants of different timings
  (a Monte Carlo chunk of ranged timing), sums the coefficients against the year
  sums of each variant's own shapes; only the VAT net and the free cash flow are
  built month by month, and the levered columns are those of :func:`run_monthly`.

The monthly schedules of the last two are those of :func:`run_monthly`, built on
first access, and the IRRs are computed when first read.

Each variant's result does not depend on its position among the S or on the
other variants (Monte Carlo results do not depend on the chunk size): the path
follows which inputs are arrays, not their values (except that a chunk of one
timing goes by year and one of several by draw, so a chunk size can move a
draw's figures by the paths' rounding, rel 1e-12), and sums
over variants use elementwise products and sums over leading axes, not BLAS or
einsum. A lone variant (S = 1, e.g. a single build) may differ from the same
variant among others in the last digit (numpy sums a single column pairwise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache, partial
from typing import Any

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core import finance as fin
from costmodel.core.byyear import run_by_draw, run_by_year
from costmodel.core.calendar import year_sums
from costmodel.core.config import TierConfig
from costmodel.core.counterparty import contract_at_risk
from costmodel.core.debt import capitalized_events, debt_schedule
from costmodel.core.depreciation import (
    depreciation_lines,
    event_depreciation,
    tax_depreciation_lines,
)
from costmodel.core.discount import discount_table
from costmodel.core.finance import FloatArray
from costmodel.core.lines import (
    REVENUE_LINES,
    operating_coefficients,
    opex_lines,
    revenue_lines,
    tier_goodput,
    weighted_utilization,
)
from costmodel.core.memo import clear_caches  # noqa: F401 (the engine's caches)
from costmodel.core.result import Lazy, Metrics, TierResult
from costmodel.core.schedules import TierParts, tier_schedules
from costmodel.core.siteprices import selling_prices
from costmodel.core.subsidies import metered_kwh, subsidy_lines
from costmodel.core.summary import summary
from costmodel.core.tax import (
    tax_on_gain,
    tax_with_losses,
    taxable_income,
    terminal_gain,
    terminal_value,
)
from costmodel.core.threads import blas_single_thread
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import (
    CapexEvent,
    Clock,
    capex_events,
    deployments,
    monthly_capex,
    ramp,
    tier_shapes,
    when,
)
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)
from costmodel.core.vat import surtax_by_year, vat_lines, vat_metrics
from costmodel.core.wacc import with_discount_rate


def broadcast_inputs(p: TierParams) -> TierParams:
    """Every input broadcast to (S,) (an (S,) float array as it is; a number as a
    read-only view of stride 0, as ``np.broadcast_to`` makes it;
    :meth:`TierParams.spread`)."""
    shapes = [np.shape(v) for v in p.arrays() if not isinstance(v, float | int)]
    return p.spread(int(np.broadcast_shapes(*shapes, (1,))[0]))


def tier_inputs(p: TierParams) -> TierParams:
    """The inputs of :func:`run_tier`: every input broadcast to (S,)
    (:func:`broadcast_inputs`), the discount rate of ``wacc`` derived and the cost
    of equity, when not given, the discount rate (:func:`with_cost_of_equity`), its
    quotes rolled to the start and the spot and contract prices of its site
    (:func:`costmodel.core.siteprices.selling_prices`). The inputs v1 assumptions
    lacked take their defaults from :class:`TierParams` (no build, no ramp, no
    debt, no contract: v1 inputs run as v1)."""
    return selling_prices(with_cost_of_equity(broadcast_inputs(p)))


def with_cost_of_equity(q: TierParams) -> TierParams:
    """``q`` with the discount rate of ``wacc`` derived (:func:`with_discount_rate`)
    and the cost of equity, when not given, the discount rate (cash at the
    discount rate)."""
    if q.discount_wacc is not None:  # a rule makes sure the cost of equity is given
        q = with_discount_rate(q)
    if q.cost_of_equity is None:
        q = q.replaced(cost_of_equity=q.discount_rate)
    return q


def run_tier(p: TierParams, config: TierConfig) -> TierResult:
    """Compute one tier for S variants. ``p``: its inputs
    (:class:`~costmodel.core.tierparams.TierParams`, built by
    :mod:`costmodel.inputs.params`), each a number or an (S,) array.

    ``FCF_m = -capex_m + revenue_m - opex_m - tax_m + vat_cash_m`` (+ terminal value
    - terminal tax at M; VAT: :mod:`~costmodel.core.vat`); ``ECF_m = FCF_m + draw_m -
    interest_m - principal_m - balloon_m + tax_m - tax_levered_m`` (methodology §8.2).

    When every variant shares its timing (deployment months, ramp and contract
    months; always for a single build) the summary is computed from year tables
    (:func:`run_by_year`), otherwise from each variant's own year sums
    (:func:`run_by_draw`); the monthly schedules (``opex``, ``depreciation``,
    ``flows``, ``debt``, ``capex_months``, ``annual``) are built by
    :func:`run_monthly` on first access. All give the same numbers up to rounding.
    """
    q = tier_inputs(p)
    one_loan = all(
        isinstance(v, float | int) or np.ndim(v) == 0 for v in (p.interest_rate, p.term_years)
    )
    with blas_single_thread():
        deps = deployments(q, config.stages, config.months)
        monthly = cache(lambda: run_monthly(q, config, deps))
        if config.subsidies:  # subsidy cash is computed month by month (§11.13)
            return monthly()
        timing = shared_timing(q, deps)  # every single build; a chunk of one timing
        if timing is not None:
            return run_by_year(q, config, deps, timing, monthly, one_loan)
        return run_by_draw(q, config, deps, monthly)


def shared_timing(q: TierParams, deps: list[dict[str, FloatArray]]) -> tuple | None:
    """Deployment months and ramp months (and the contract's months when there is
    a contract, methodology §11.5) if every variant has the same, else None."""
    months = []
    for d in deps:
        t = when(d["month"])
        if t.shape[0] != 1:
            return None
        months.append(int(t[0, 0]))
    r, c = when(q.ramp_months), when(q.contract_months)
    if r.shape[0] != 1 or c.shape[0] != 1:
        return None
    if c[0, 0] and np.any(q.contract_default_rate > 0):
        return None  # the contracts' survival: shapes of each variant (methodology §11.12)
    return (months, float(r[0, 0])) + ((float(c[0, 0]),) if c[0, 0] else ())


def run_monthly(q: TierParams, config: TierConfig, deps: list[dict[str, FloatArray]]) -> TierResult:
    """:func:`run_tier` month by month: every line as an (S, M+1) array. ``EBIT =
    revenue - opex - depreciation``; the cash lines are :func:`_monthly_cash` and
    :func:`_levered_cash`. What the NPV, the IRR and the cost per GPU-hour read is
    computed at once; the other lines (revenue split by contract, the indices,
    EBIT, the year tables, the schedules and, when no variant has a debt share,
    the levered lines) when first read."""
    clock = Clock(config.months)
    events = capex_events(q, deps)
    coefficients = operating_coefficients(q, deps, events, config.months // MONTHS_PER_YEAR)
    shapes = tier_shapes(q, deps, clock)
    opex = opex_lines(coefficients, shapes, clock)
    opex_total = sum(opex.values())
    capex_months = monthly_capex(events, clock)
    book = [event_depreciation(q, e, config, clock) for e in events]
    dep = depreciation_lines(q, events, config, clock, book)
    sold = revenue_lines(coefficients, shapes, clock, ("gpu_hours", "revenue"))
    vat = vat_lines(q, config, sold["revenue"], opex, capex_months)
    kwh = partial(metered_kwh, q, deps, events, clock, tier_shapes(q, deps, clock))
    grants = subsidy_lines(config.subsidies, capex_months, sold["revenue"], kwh, clock)
    margin = sold["revenue"] - opex_total
    cash = (vat, grants)
    cf = _monthly_cash(q, config, clock, (events, book, deps), capex_months, dep, margin, cash)
    lev = cache(partial(_levered_cash, q, config, clock, deps, events, cf, vat))
    dep_total = cache(lambda: sum(dep.values()))
    ebit = cache(lambda: cf["margin"] - dep_total())
    utilization = cache(lambda: [ramp(q, d["month"], clock) for d in deps])
    disc = discount_table(q.discount_rate, config.months)
    equity_disc = cache(partial(discount_table, q.cost_of_equity, config.months))
    shape = cf["fcf"].shape
    annual = Lazy(lambda: _annual(clock, cf, lev(), ebit()))

    def flows() -> dict[str, FloatArray]:
        rest = tuple(k for k in REVENUE_LINES if k not in sold)
        split = revenue_lines(coefficients, shapes, clock, rest)
        lines = (opex_total, dep_total(), ebit())
        shown = (utilization(), disc, equity_disc())
        return _flows(q, clock, deps, {**sold, **split}, (lines, shown), cf, lev(), vat)

    def schedules() -> Any:
        parts = TierParts(q, config, clock, deps, events, coefficients, shapes, utilization())
        levered = lev()["taxable_levered"]
        return tier_schedules(
            replace(parts, capex=cf["capex"], taxable=cf["taxable"], taxable_levered=levered)
        )

    full = (shape[0],)
    capex_by = {c: np.broadcast_to(v.sum(axis=1), full) for c, v in capex_months.items()}
    lines = (cf["capex"], opex_total, sold["gpu_hours"], sold["revenue"])
    at_risk = partial(contract_at_risk, q, deps, coefficients["contract_revenue"], shapes, clock)
    more = {"contract_at_risk": at_risk, "subsidies": lambda: grants["subsidies"].sum(axis=1)}
    metrics = _monthly_metrics(
        q, (disc, equity_disc), deps, capex_by, lines, cf, lev, annual, vat, more
    )
    return TierResult(
        months=config.months,
        capex=capex_by,
        capex_months={c: np.broadcast_to(v, shape) for c, v in capex_months.items()},
        opex={k: np.broadcast_to(v, shape) for k, v in opex.items()},
        depreciation={k: np.broadcast_to(v, shape) for k, v in dep.items()},
        nbv=cf["nbv"],
        flows=Lazy(flows),
        annual=annual,
        metrics=metrics,
        debt=Lazy(lambda: lev()["debt"]),
        deployments=deps,
        schedules_of=cache(schedules),
        vat=vat,
        opex_by_year=Lazy(lambda: {k: year_sums(v) for k, v in opex.items()}),
        fcf=lambda: cf["fcf"],
    )


def _flows(
    q: TierParams,
    clock: Clock,
    deps: list[dict[str, FloatArray]],
    sold: Mapping[str, FloatArray],
    lines: tuple[tuple[FloatArray, ...], tuple[Any, FloatArray, FloatArray]],
    cf: Mapping[str, Any],
    lev: Mapping[str, Any],
    vat: Mapping[str, FloatArray],
) -> dict[str, FloatArray]:
    """The monthly cash-flow lines of :class:`TierResult` (``sold``: the lines of
    :data:`REVENUE_LINES`; ``lines``: opex, depreciation and EBIT, and what is shown
    beside them: each deployment's utilization, the discount factors and those at
    the cost of equity), with the price index ``(1 - price decline)^(y(m) - 1)``
    and the power and staff indices."""
    (opex_total, dep_total, ebit), (utilization, disc, equity_disc) = lines
    shape = cf["fcf"].shape
    return {
        **{k: np.broadcast_to(sold[k], shape) for k in REVENUE_LINES},
        "utilization": sum(utilization)
        if len(deps) == 1
        else weighted_utilization(deps, utilization),
        "price_index": np.broadcast_to(clock.index(-np.asarray(q.price_decline)), shape),
        "power_index": np.broadcast_to(clock.index(q.power_escalation), shape),
        "staff_index": np.broadcast_to(clock.index(q.staff_escalation), shape),
        "revenue": sold["revenue"],
        "opex": np.broadcast_to(opex_total, shape),
        "capex": np.broadcast_to(cf["capex"], shape),
        "depreciation": np.broadcast_to(dep_total, shape),
        "ebit": ebit,
        **{
            f"tax_depreciation_{k}": np.broadcast_to(v, shape)
            for k, v in lev["tax_depreciation"].items()
        },
        "tax": cf["tax_m"],
        "terminal_value": cf["terminal"],
        "terminal_tax": cf["terminal_tax"],
        "fcf": cf["fcf"],
        "discount_factor": disc,
        "tax_levered": lev["tax_levered"],
        "cfads": lev["cfads"],
        "debt_service": lev["service"],
        "ecf": lev["ecf"],
        "equity_discount_factor": equity_disc,
        "surtax": vat["surtax"],
        "vat_cash": vat["vat_cash"],
        "subsidies": cf["subsidies"],
    }


def _monthly_cash(
    q: TierParams,
    config: TierConfig,
    clock: Clock,
    events: tuple[list[CapexEvent], list[FloatArray], list[dict[str, FloatArray]]],
    capex_months: dict[str, FloatArray],
    dep: dict[str, FloatArray],
    margin: FloatArray,
    cash_lines: tuple[Mapping[str, FloatArray], Mapping[str, FloatArray]],
) -> dict[str, Any]:
    """Tax, terminal value and the free cash flow month by month (``events``: the
    capex events, the book depreciation of each and the deployments; ``margin``:
    revenue - opex; ``cash_lines``: the VAT and the subsidies, :func:`subsidy_lines`,
    whose taxable part is income of its year):

    - ``tax``: :func:`tax_with_losses` of the yearly taxable income
      (:func:`taxable_income`: revenue - opex - tax depreciation - VAT surtax
      (``vat``: :func:`vat_lines`), the terminal gain in the last year; paid at
      year ends); NBV per class = capex - book depreciation; the terminal value
      (:func:`terminal_value`) at month M;
    - ``FCF = revenue - opex - tax - capex + terminal + VAT cash + subsidies``."""
    events, book, deps = events
    vat, grants = cash_lines
    capex_m = sum(capex_months.values())
    nbv = {cls: capex_months[cls].sum(axis=1) - dep[cls].sum(axis=1) for cls in CAPEX_CLASSES}
    nbv = {cls: np.broadcast_to(v, (margin.shape[0],)) for cls, v in nbv.items()}
    terminal = np.broadcast_to(
        terminal_value(q, events, sum(nbv.values()), config, deps), nbv["servers"].shape
    )
    margin_y = clock.by_year(margin) + grants["subsidies_taxable_y"]
    surtax_y = surtax_by_year(vat)
    tax_dep_by = tax_depreciation_lines(q, events, config, clock, book)
    tax_dep = sum(tax_dep_by.values())
    tax_nbv = capex_m.sum(axis=1) - tax_dep.sum(axis=1)
    gain = terminal_gain(terminal, tax_nbv, config)
    taxable = taxable_income(margin_y.T, (clock.by_year(tax_dep) + surtax_y).T, gain).T
    carry = config.loss_carryforward_years
    tax = tax_with_losses(taxable, q.tax_rate, carry)
    terminal_tax = tax_on_gain(taxable.T, gain, tax["tax"].T, q.tax_rate, carry)
    terminal_m = clock.at(config.months, terminal)
    tax_m = clock.at_year_ends(tax["tax"])
    operating = margin - tax_m
    return {
        "capex": capex_m,
        "margin": margin,
        "margin_y": margin_y,
        "surtax_y": surtax_y,
        "tax": tax,
        "tax_m": tax_m,
        "nbv": nbv,
        "terminal_value": terminal,
        "terminal": terminal_m,
        "terminal_tax": clock.at(config.months, terminal_tax),
        "taxable": taxable,
        "tax_depreciation": tax_dep_by,
        "tax_dep": tax_dep,
        "tax_nbv": tax_nbv,
        "fcf": operating - capex_m + terminal_m + vat["vat_cash"] + grants["subsidies"],
        "subsidies": grants["subsidies"],
    }


def _levered_cash(
    q: TierParams,
    config: TierConfig,
    clock: Clock,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    cf: Mapping[str, Any],
    vat: Mapping[str, FloatArray],
) -> dict[str, Any]:
    """The levered lines month by month from the unlevered ones ``cf``
    (:func:`_monthly_cash`): debt (:func:`debt_schedule`) of the net capex;
    levered tax of the taxable income less interest paid and the tax
    depreciation of capitalized interest, with its own terminal gain (the
    unlevered tax when nothing is drawn); ``CFADS = revenue - opex - levered tax +
    VAT cash + subsidies``; ``ECF = CFADS - capex + draws - service - balloon + terminal``."""
    capex_m, fcf = cf["capex"], cf["fcf"]
    debt = debt_schedule(q, np.broadcast_to(capex_m, fcf.shape), deps[0]["month"], clock)
    borrowed = bool(np.any(debt["draw"]))
    levered, taxable_levered = cf["tax"], cf["taxable"]
    cap_dep = np.zeros_like(cf["tax_dep"])
    if borrowed:
        carry = config.loss_carryforward_years
        capitalized = capitalized_events(q, events, deps[0]["month"])
        cap_dep = sum(tax_depreciation_lines(q, capitalized, config, clock).values())
        cap_nbv = sum(e.amount for e in capitalized) - cap_dep.sum(axis=1)
        deductions = clock.by_year(cf["tax_dep"] + cap_dep + debt["interest"]) + cf["surtax_y"]
        gain_levered = terminal_gain(cf["terminal_value"], cf["tax_nbv"] + cap_nbv, config)
        taxable_levered = taxable_income(cf["margin_y"].T, deductions.T, gain_levered).T
        levered = tax_with_losses(taxable_levered, q.tax_rate, carry)
    tax_levered_m = clock.at_year_ends(levered["tax"])
    cfads = cf["margin"] - tax_levered_m + vat["vat_cash"] + cf["subsidies"]
    service = debt["interest"] + debt["principal"]
    ecf = cfads - capex_m + debt["draw"] - service - debt["balloon"] + cf["terminal"]
    return {
        "taxable_levered": taxable_levered,
        "tax_depreciation": {**cf["tax_depreciation"], "capitalized_interest": cap_dep},
        "debt": debt,
        "borrowed": borrowed,
        "levered": levered,
        "tax_levered": tax_levered_m,
        "cfads": cfads,
        "service": service,
        "ecf": ecf,
    }


def _monthly_metrics(
    q: TierParams,
    discounting: tuple[FloatArray, Callable[[], FloatArray]],
    deps: list[dict[str, FloatArray]],
    capex_by: dict[str, FloatArray],
    lines: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    cf: Mapping[str, Any],
    lev: Callable[[], Mapping[str, Any]],
    annual: Mapping[str, FloatArray],
    vat: Mapping[str, FloatArray],
    more: Mapping[str, Callable[[], FloatArray]],
) -> Metrics:
    """:func:`summary` of a monthly run (``lines``: capex, opex, GPU-hours and
    revenue month by month): present values ``sum_m x(m) d(m)`` at the discount
    factors (``discounting``: at the discount rate, and at the cost of equity when
    read; of cost: capex + opex; of GPU-hours; NPV of FCF; equity NPV of ECF),
    payback and peak funding from the cumulative FCF without the terminal value,
    the debt peak ``max_m (balance + balloon)``. The levered lines ``lev()`` are
    read at once only when some variant has a debt share (for which variants
    borrow); otherwise ECF = FCF and they are read with the columns that show
    them."""
    capex_m, opex_total, gpu_hours, revenue = lines
    fcf = cf["fcf"]
    full = (fcf.shape[0],)
    disc, equity_disc = discounting
    cash = cache(lambda: np.cumsum(fcf - cf["terminal"] + cf["terminal_tax"], axis=1))
    ecf, borrowers = None, None
    if np.any(q.debt_share):
        levered = lev()
        ecf = (lambda: levered["ecf"]) if levered["borrowed"] else None
        borrowers = np.any(levered["debt"]["draw"] != 0, axis=1)

    def debt_peak() -> FloatArray:
        debt = lev()["debt"]
        return (debt["balance_close"] + debt["balloon"]).max(axis=1)

    return summary(
        q,
        deps,
        Lazy(lambda: tier_goodput(q, deps)),
        capex_by=capex_by,
        opex_sum=np.broadcast_to(opex_total.sum(axis=1), full),
        opex_by_year=year_sums(opex_total),
        pv_cost=fin.present_value(capex_m, disc) + fin.present_value(opex_total, disc),
        pv_gpu_hours=fin.present_value(gpu_hours, disc),
        gpu_hours=gpu_hours.sum(axis=1),
        revenue=revenue.sum(axis=1),
        npv=fin.present_value(fcf, disc),
        fcf=fcf,
        fcf_sum=fcf.sum(axis=1),
        payback=lambda: fin.payback_years(cash()),
        peak_funding=lambda: np.maximum(0.0, -cash().min(axis=1)),
        equity_npv=lambda: fin.present_value(lev()["ecf"], equity_disc()),
        ecf=ecf,
        borrowers=borrowers,
        dscr=lambda: annual["dscr"],
        debt_peak=debt_peak,
        terminal=cf["terminal"][:, -1],
        terminal_tax=cf["terminal_tax"][:, -1],
        vat=vat_metrics(vat),
        more=more,
    )


def _annual(
    clock: Clock, cf: Mapping[str, Any], lev: Mapping[str, Any], ebit: FloatArray
) -> dict[str, FloatArray]:
    """Year tables of a monthly run's cash lines ``cf`` and ``lev``
    (:func:`_monthly_cash`, :func:`_levered_cash`):
    EBIT, the taxable income (unlevered and levered) and the tax on each with
    their loss corkscrews, CFADS, debt service and DSCR (``CFADS_y / DS_y``, NaN
    where no debt is serviced)."""
    tax, levered = cf["tax"], lev["levered"]
    cfads_y = clock.by_year(lev["cfads"])
    service_y = clock.by_year(lev["service"])
    out = {"ebit": clock.by_year(ebit), "taxable_income": cf["taxable"], "tax": tax["tax"]}
    for key in ("open", "added", "used", "expired", "close"):
        out[f"loss_{key}" if key in ("added", "used", "expired") else f"loss_pool_{key}"] = tax[key]
        out[f"levered_loss_{key}"] = levered[key]
    out["taxable_income_levered"] = lev["taxable_levered"]
    out["tax_levered"] = levered["tax"]
    out["cfads"] = cfads_y
    out["debt_service"] = service_y
    out["dscr"] = np.where(service_y > 0, fin.safe_divide(cfads_y, service_y), np.nan)
    return out
