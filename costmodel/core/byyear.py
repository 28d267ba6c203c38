"""The by-year evaluation of a tier whose variants share their timing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import numpy as np

from costmodel.core import finance as fin
from costmodel.core.debt import borrowing_variants, borrows, debt_by_year, debt_draws
from costmodel.core.depreciation import depreciation_by_year
from costmodel.core.discount import DISCOUNTED, Discount, discounting, pv_months, sum_rows
from costmodel.core.finance import FloatArray
from costmodel.core.lines import (
    Coefficients,
    discounted_shapes,
    margin,
    operating_coefficients,
    per_run,
    pv_lines,
    tier_goodput,
    total,
    year_sums,
)
from costmodel.core.result import OPEX_LINES, Lazy, Metrics, TierResult, value_of
from costmodel.core.summary import irr_of, roots_of, summary
from costmodel.core.tax import tax_rows, terminal_lines
from costmodel.core.timing import (
    CapexEvent,
    Segments,
    capex_by_month,
    capex_events,
    segments,
    timing_shapes,
)
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)
from costmodel.inputs.params import TierConfig


def run_by_year(
    q: dict[str, FloatArray],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    timing: tuple[list[int], float],
    monthly: Callable[[], TierResult],
    one_loan: bool = True,
) -> TierResult:
    """:func:`run_tier` for variants that share their timing (and, with
    ``one_loan``, their interest rate and loan term).

    Every operating line is ``sum_k c_k(y, s) h_k(m)``: a coefficient per model
    year and variant (inputs times the year's escalation or price index) times a
    monthly shape shared by all variants (:func:`timing_shapes`). Nominal and
    discounted sums come from the coefficients (:data:`Coefficients`) and the
    shapes' (and discounted shapes') year sums. The FCF is built per segment of
    months over which it is constant (:func:`_fcf_by_segment`), months first
    ((Q, S): each segment one contiguous row); its NPV and IRR are computed on
    the segments, and month by month (M+1, S) only what reads it: payback, peak
    funding, ROI, the equity lines. Depreciation is summed per model year
    (:func:`depreciation_counts`); debt is the draws times the schedules of unit
    loans (:func:`unit_debt`) when every variant borrows at the same rate and
    term; the equity lines are computed when one of their metrics is read.
    """
    months = config.months
    t, r = timing
    events = capex_events(q, deps)
    size = q["gpus"].shape[0]  # every input is (S,) (inputs)
    full = (size,)
    shapes = timing_shapes(months, (tuple(t), r))
    goodput_m = Lazy(lambda: tier_goodput(q, deps))  # read by metrics a Monte Carlo skips
    rev, hours, opex = _operating(q, deps, events, months)
    rev_y, opex_y = (year_sums(c, shapes.sums) for c in (rev, opex))
    disc = discounting(q["discount_rate"])
    disc_shapes = discounted_shapes(shapes, disc)  # (Y, K, 1 or S)
    capex_by, capex_at = capex_by_month(events, full)
    dep_y, nbv = depreciation_by_year(q, config, events, capex_by, size)
    terminal_all = terminal_lines(q, events, sum(nbv.values()), config)
    terminal, terminal_tax = (np.broadcast_to(v, full) for v in terminal_all)
    ebit_y = rev_y - opex_y - dep_y
    margin_y = rev_y - opex_y
    tax = tax_rows(ebit_y, q["tax_rate"], config.loss_carryforward_years, pool=False)
    seg = segments(months, (tuple(t), r), tuple(capex_at))
    fcf, fcf_monthly, payback_and_peak = _fcf_by_segment(
        seg, per_run(shapes, margin(rev, opex)), tax["tax"], capex_at, terminal - terminal_tax
    )
    npv = sum_rows(fcf * _segment_discounts(seg, disc))
    equity = cache(
        lambda: _equity_by_year(
            q, config, t[0], one_loan, capex_at, fcf_monthly(), npv, disc, ebit_y, tax, margin_y
        )
    )
    metrics = summary(
        q,
        deps,
        goodput_m,
        capex_by=capex_by,
        opex_sum=opex_y.sum(axis=0),
        opex_year1=opex_y[0] + 0.0,
        pv_cost=_pv_capex(capex_at, disc) + pv_lines(opex, disc_shapes),
        pv_gpu_hours=pv_lines(hours, disc_shapes),
        gpu_hours=lambda: year_sums(hours, shapes.sums).sum(axis=0),
        revenue=rev_y.sum(axis=0),
        npv=npv,
        fcf=lambda: fcf_monthly().T,
        fcf_sum=lambda: fcf_monthly().sum(axis=0),
        irr=lambda: irr_of(fcf.T, seg.runs),
        irr_roots=lambda: roots_of(fcf.T, seg.runs),
        payback=lambda: payback_and_peak()[0],  # not read by a Monte Carlo
        peak_funding=lambda: payback_and_peak()[1],
        equity_npv=lambda: value_of(equity()[3]),
        ecf=(lambda: equity()[0]()) if borrows(q, capex_at) else None,  # type: ignore[misc]
        borrowers=borrowing_variants(q, capex_at),
        dscr=lambda: equity()[1],
        debt_peak=lambda: equity()[2],
        terminal=terminal,
        terminal_tax=terminal_tax,
    )
    return _lazy_schedules(monthly, config, deps, capex_by, nbv, metrics)


def _operating(
    q: Mapping[str, FloatArray],
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    months: int,
) -> tuple[Coefficients, Coefficients, Coefficients]:
    """The coefficients of revenue, GPU-hours and total opex (the sum of
    :data:`OPEX_LINES`), from :func:`operating_coefficients`."""
    lines = operating_coefficients(q, deps, events, months // MONTHS_PER_YEAR)
    return lines["revenue"], lines["gpu_hours"], total([lines[line] for line in OPEX_LINES])


def _pv_capex(capex_at: dict[int, FloatArray], disc: Discount) -> FloatArray:
    """(S,): ``sum_t capex(t) d(t)`` over the capex months."""
    at_capex = disc.sums(np.array(list(capex_at), dtype=float), [1] * len(capex_at))
    return sum(a * d for a, d in zip(capex_at.values(), at_capex, strict=True))


def _fcf_by_segment(
    seg: Segments,
    per_run: FloatArray,
    tax_y: FloatArray,
    capex_at: dict[int, FloatArray],
    terminal_net: FloatArray,
) -> tuple[FloatArray, Callable[[], FloatArray], Callable[[], tuple[FloatArray, FloatArray]]]:
    """The FCF per segment (Q, S): ``FCF(m) = sum_k h_k(m) margin[y(m), k] - tax_y
    [m = 12 y] - capex(m)`` (``per_run``: :func:`per_run` of the revenue minus
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


def _segment_discounts(seg: Segments, disc: Discount) -> FloatArray:
    """``sum_{m in segment q} d(m)`` (Q, 1 or S) (:meth:`Discount.sums`,
    :data:`DISCOUNTED`)."""
    key = ("segments", seg.key, disc.key)
    return DISCOUNTED.get(key, lambda: disc.sums(seg.start, seg.runs))


def _equity_by_year(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    build: int,
    one_loan: bool,
    capex_at: dict[int, FloatArray],
    fcf: FloatArray,
    npv: FloatArray,
    disc: Discount,
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
    draws = debt_draws(q, capex_at)
    if not draws:  # PV(FCF) at the cost of equity, computed when read

        def equity_npv() -> FloatArray:
            equity = discounting(q["cost_of_equity"])
            return npv if equity.same_rates(disc) else pv_months(fcf, equity.table(months))

        return None, np.full((size, months // MONTHS_PER_YEAR), np.nan), np.zeros(full), equity_npv
    equity = discounting(q["cost_of_equity"])
    e_disc = equity.table(months)
    interest_y, service_y, debt_peak, pv_net, net = debt_by_year(
        q, draws, build, months, equity, one_loan
    )
    levered = tax_rows(
        ebit_y - interest_y, q["tax_rate"], config.loss_carryforward_years, pool=False
    )
    tax_saved = tax["tax"] - levered["tax"]

    def ecf() -> FloatArray:  # only for the equity IRR, when read
        out = fcf + net()
        out[MONTHS_PER_YEAR::MONTHS_PER_YEAR] += tax_saved
        return out.T

    cfads_y = margin_y - levered["tax"]
    dscr = np.where(service_y > 0, fin.safe_divide(cfads_y, service_y), np.nan).T
    # PV of ECF = PV of FCF + PV of the net debt flows + PV of the tax saved
    pv_fcf = npv if equity.same_rates(disc) else pv_months(fcf, e_disc)
    pv_tax = (tax_saved * e_disc[MONTHS_PER_YEAR::MONTHS_PER_YEAR]).sum(axis=0)
    return ecf, dscr, debt_peak, pv_fcf + pv_net + pv_tax


def _lazy_schedules(
    monthly: Callable[[], TierResult],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    capex_by: dict[str, FloatArray],
    nbv: dict[str, FloatArray],
    metrics: Metrics,
) -> TierResult:
    """The result of a by-year run: its capex, net book values and metrics; the
    monthly schedules from ``monthly()``, the monthly run of the same inputs
    (:func:`costmodel.core.engine.run_monthly`), called when one is first read."""
    full_run = monthly
    return TierResult(
        months=config.months,
        capex=capex_by,
        capex_months=Lazy(lambda: full_run().capex_months),
        opex=Lazy(lambda: full_run().opex),
        depreciation=Lazy(lambda: full_run().depreciation),
        nbv=nbv,
        flows=Lazy(lambda: full_run().flows),
        annual=Lazy(lambda: full_run().annual),
        metrics=metrics,
        debt=Lazy(lambda: full_run().debt),
        deployments=deps,
        schedules_of=lambda: full_run().schedules,
    )
