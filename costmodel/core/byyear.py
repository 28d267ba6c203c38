"""The by-year evaluations of a tier: :func:`run_by_year` for variants that share
their timing, :func:`run_by_draw` for variants of many timings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core import finance as fin
from costmodel.core.calendar import year_sums as calendar_year_sums
from costmodel.core.config import TierConfig
from costmodel.core.counterparty import contract_at_risk
from costmodel.core.debt import (
    borrowing_variants,
    borrows,
    capitalized_events,
    debt_by_year,
    debt_draws,
)
from costmodel.core.depreciation import depreciation_by_year, tax_depreciation_by_year
from costmodel.core.discount import (
    DISCOUNTED,
    Discount,
    discount_table,
    discounting,
    pv_months,
    sum_rows,
)
from costmodel.core.finance import FloatArray
from costmodel.core.lines import (
    Coefficients,
    discounted_shapes,
    margin,
    monthly_line,
    operating_coefficients,
    per_run,
    pv_lines,
    tier_goodput,
    total,
    year_sums,
)
from costmodel.core.result import OPEX_LINES, Lazy, Metrics, TierResult, value_of
from costmodel.core.summary import irr_of, roots_of, summary
from costmodel.core.tax import (
    tax_on_gain,
    tax_rows,
    taxable_income,
    terminal_gain,
    terminal_value,
)
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import (
    CapexEvent,
    Clock,
    Segments,
    capex_by_month,
    capex_events,
    col,
    monthly_capex,
    segments,
    tier_shapes,
    timing_shapes,
)
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)
from costmodel.core.vat import (
    VatYears,
    no_vat_metrics,
    surtax_by_year,
    vat_by_year,
    vat_cash_lines,
    vat_metrics,
    vat_net_coefficients,
    vat_present_value,
)


def run_by_year(
    q: TierParams,
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    timing: tuple,
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
    ((Q, S): each segment one contiguous row); its NPV and IRR on the segments, month
    by month (M+1, S) only what reads it (payback, peak funding, ROI, VAT, equity).
    Depreciation is summed per model year (:func:`depreciation_counts`); debt is the
    draws times unit loans (:func:`unit_debt`) when every variant has one rate and term."""
    months = config.months
    t, rest, events = timing[0], tuple(timing[1:]), capex_events(q, deps)
    size, full = q.gpus.shape[0], q.gpus.shape  # every input is (S,) (inputs)
    shapes = timing_shapes(months, (tuple(t), *rest))
    goodput_m = Lazy(lambda: tier_goodput(q, deps))  # read by metrics a Monte Carlo skips
    lines, (rev, hours, opex) = _operating(q, deps, events, months)
    rev_y, opex_y = (year_sums(c, shapes.sums) for c in (rev, opex))
    disc = discounting(q.discount_rate)
    disc_shapes = discounted_shapes(shapes, disc)  # (Y, K, 1 or S)
    capex_by, capex_at = capex_by_month(events, full)
    dep_y, nbv = depreciation_by_year(q, config, events, capex_by, size)
    terminal = np.broadcast_to(terminal_value(q, events, sum(nbv.values()), config, deps), full)
    margin_y = rev_y - opex_y
    vat = vat_by_year(q, config, lines, shapes, events)
    tax, terminal_tax, levered_taxable = _tax_by_year(
        q, config, deps, events, (dep_y, nbv), terminal, margin_y, vat.surtax_y
    )
    seg = segments(months, (tuple(t), *rest), tuple(capex_at))
    fcf, fcf_monthly, payback_and_peak = _fcf_by_segment(
        seg, per_run(shapes, margin(rev, opex)), tax["tax"], capex_at, terminal, terminal_tax, vat
    )
    npv, irr, roots = _npv_and_irr(seg, disc, fcf, fcf_monthly, vat, months)

    @cache
    def equity() -> tuple:
        cash_y = margin_y + vat.cash_y  # CFADS before the levered tax
        lines = (capex_at, fcf_monthly(), npv, disc, levered_taxable, tax, cash_y)
        return _equity_by_year(q, config, t[0], one_loan, *lines)

    metrics = summary(
        q,
        deps,
        goodput_m,
        capex_by=capex_by,
        opex_sum=opex_y.sum(axis=0),
        opex_by_year=opex_y.T,
        pv_cost=_pv_capex(capex_at, disc) + pv_lines(opex, disc_shapes),
        pv_gpu_hours=pv_lines(hours, disc_shapes),
        gpu_hours=lambda: year_sums(hours, shapes.sums).sum(axis=0),
        revenue=rev_y.sum(axis=0),
        npv=npv,
        fcf=lambda: fcf_monthly().T,
        fcf_sum=lambda: fcf_monthly().sum(axis=0),
        irr=irr,
        irr_roots=roots,
        payback=lambda: payback_and_peak()[0],  # not read by a Monte Carlo
        peak_funding=lambda: payback_and_peak()[1],
        equity_npv=lambda: value_of(equity()[3]),
        ecf=(lambda: equity()[0]()) if borrows(q, capex_at) else None,  # type: ignore[misc]
        borrowers=borrowing_variants(q, capex_at),
        dscr=lambda: equity()[1],
        debt_peak=lambda: equity()[2],
        terminal=terminal,
        terminal_tax=terminal_tax,
        vat=vat.metrics,
    )
    opex_years = Lazy(lambda: {k: year_sums(lines[k], shapes.sums).T for k in OPEX_LINES})
    parts = (deps, capex_by, nbv)
    return later_schedules(monthly, months, parts, metrics, opex_years, lambda: fcf_monthly().T)


def run_by_draw(
    q: TierParams,
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    monthly: Callable[[], TierResult],
) -> TierResult:
    """:func:`run_tier` for variants of many timings: every operating line by
    year, ``sum_k c_k(y, s) H_k(y, s)``, from its coefficients and the year sums
    ``H_k`` (and discounted year sums) of each variant's own monthly shapes
    (:func:`tier_shapes`); depreciation and tax by year
    (:func:`depreciation_by_year`, :func:`_tax_by_year`). Month by month only the
    VAT net before its credit pool and the FCF, ``FCF(m) = sum_k h_k(m)
    margin_k[y(m)] - tax_y [m = 12 y] - capex(m) + terminal [m = M] + VAT cash(m)``,
    whose NPV and IRR are the metrics'. Payback, peak funding, the equity and debt
    columns (the levered lines: a variant's loans follow its own capex months) and
    every schedule are those of ``monthly()``, the monthly run of the same inputs
    (:func:`costmodel.core.engine.run_monthly`), read when first read."""
    months = config.months
    clock = Clock(months)
    size, full = q.gpus.shape[0], q.gpus.shape
    events = capex_events(q, deps)
    lines, (rev, hours, opex) = _operating(q, deps, events, months)
    shapes = tier_shapes(q, deps, clock)
    disc = discount_table(q.discount_rate, months)
    sums, disc_sums = _own_shape_sums(shapes, disc, sorted(set(rev) | set(opex) | set(hours)))
    rev_y, opex_y = year_sums(rev, sums), year_sums(opex, sums)
    capex_months = monthly_capex(events, clock)
    capex_m = sum(capex_months.values())
    capex_by = {c: np.broadcast_to(v.sum(axis=1), full) for c, v in capex_months.items()}
    dep_y, nbv = depreciation_by_year(q, config, events, capex_by, size)
    terminal = np.broadcast_to(terminal_value(q, events, sum(nbv.values()), config, deps), full)
    vat = _vat_by_draw(q, config, lines, (shapes, clock), capex_months)
    surtax_y = surtax_by_year(vat).T if vat else 0.0
    tax, terminal_tax, _ = _tax_by_year(
        q, config, deps, events, (dep_y, nbv), terminal, rev_y - opex_y, surtax_y
    )
    fcf = monthly_line(margin(rev, opex), shapes, clock) - clock.at_year_ends(tax["tax"].T)
    fcf = fcf - capex_m + clock.at(months, terminal) + (vat["vat_cash"] if vat else 0.0)

    def later(name: str) -> Callable[[], FloatArray]:
        return lambda: monthly().metrics[name]

    metrics = summary(
        q,
        deps,
        Lazy(lambda: tier_goodput(q, deps)),
        capex_by=capex_by,
        opex_sum=opex_y.sum(axis=0),
        opex_by_year=opex_y.T,
        pv_cost=fin.present_value(capex_m, disc) + pv_lines(opex, disc_sums),
        pv_gpu_hours=pv_lines(hours, disc_sums),
        gpu_hours=lambda: year_sums(hours, sums).sum(axis=0),
        revenue=rev_y.sum(axis=0),
        npv=fin.present_value(fcf, disc),
        fcf=fcf,
        fcf_sum=lambda: fcf.sum(axis=1),
        payback=later("payback_years"),
        peak_funding=later("peak_funding"),
        equity_npv=later("equity_npv"),
        ecf=None,
        borrowers=None,
        dscr=lambda: monthly().annual["dscr"],
        debt_peak=later("debt_peak"),
        terminal=terminal,
        terminal_tax=terminal_tax,
        vat=vat_metrics(vat) if vat else no_vat_metrics(size),
        more={
            "contract_at_risk": lambda: contract_at_risk(
                q, deps, lines["contract_revenue"], shapes, clock
            ),
            "subsidies": np.zeros(size),  # a tier with subsidies runs month by month
        },
    )
    if np.any(q.debt_share):  # the equity IRR reads the monthly run's ECF
        unlevered = metrics
        metrics = Metrics(
            {k: later(k) if k in LEVERED_IRRS else (lambda k=k: unlevered[k]) for k in unlevered}
        )
    opex_years = Lazy(lambda: {k: year_sums(lines[k], sums).T for k in OPEX_LINES})
    return later_schedules(monthly, months, (deps, capex_by, nbv), metrics, opex_years, lambda: fcf)


#: the columns of :func:`run_by_draw` read from the monthly run when some variant
#: borrows (its equity NPV, DSCR and debt peak always are)
LEVERED_IRRS = ("equity_irr", "equity_irr_roots")


def later_schedules(
    full_run: Callable[[], TierResult],
    months: int,
    parts: tuple[list[dict[str, FloatArray]], dict[str, FloatArray], dict[str, FloatArray]],
    metrics: Metrics,
    opex_by_year: Lazy,
    fcf: Callable[[], FloatArray],
) -> TierResult:
    """The result of a by-year run (:func:`run_by_year`, :func:`run_by_draw`): its
    deployments, capex and net book values (``parts``), metrics, opex per line by
    model year and monthly FCF (S, M+1), computed when read; every monthly
    schedule that of ``full_run()``, the monthly run of the same inputs
    (:func:`costmodel.core.engine.run_monthly`), built when one is first read."""
    deps, capex_by, nbv = parts
    return TierResult(
        months=months,
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
        vat=Lazy(lambda: full_run().vat),
        opex_by_year=opex_by_year,
        fcf=fcf,
    )


def _own_shape_sums(
    shapes: list[FloatArray], disc: FloatArray, used: list[int]
) -> tuple[FloatArray, FloatArray]:
    """Each variant's year sums and discounted year sums of its monthly shapes
    ``h_k`` (1 or S, M+1), ``sum_{m in y} h_k(m)`` and ``sum_{m in y} h_k(m) d(m)``
    (Y, K, S), for the shapes k in ``used`` (0 for the others)."""
    size = max(disc.shape[0], *(shapes[k].shape[0] for k in used))
    years = (disc.shape[1] - 1) // MONTHS_PER_YEAR
    sums, disc_sums = (np.zeros((years, len(shapes), size)) for _ in range(2))
    for k in used:
        sums[:, k] = calendar_year_sums(shapes[k]).T
        disc_sums[:, k] = calendar_year_sums(shapes[k] * disc).T
    return sums, disc_sums


def _vat_by_draw(
    q: TierParams,
    config: TierConfig,
    lines: Mapping[str, Coefficients],
    monthly: tuple[list[FloatArray], Clock],
    capex_months: Mapping[str, FloatArray],
) -> dict[str, FloatArray]:
    """:func:`vat_cash_lines` of ``net_m`` (:func:`costmodel.core.vat.vat_lines`):
    the operating lines' VAT (:func:`vat_net_coefficients`) on each variant's
    shapes, less the input VAT of the capex of each class; empty without a ``vat``
    section."""
    if not config.vat:
        return {}
    shapes, clock = monthly
    net = monthly_line(vat_net_coefficients(q, lines), shapes, clock)
    for cls in CAPEX_CLASSES:
        net = net - col(q.vat_input[cls]) * capex_months[cls]
    return vat_cash_lines(q, config, np.broadcast_to(net, (q.gpus.shape[0], clock.months + 1)))


def _tax_by_year(
    q: TierParams,
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    book: tuple[FloatArray, dict[str, FloatArray]],
    terminal: FloatArray,
    margin_y: FloatArray,
    surtax_y: FloatArray | float = 0.0,
) -> tuple[dict[str, FloatArray], FloatArray, Callable[[FloatArray], FloatArray]]:
    """The tax per model year of :func:`taxable_income` (revenue - opex less tax
    depreciation, the terminal gain in the last year; methodology §11.7, §11.9),
    the part of the tax at M due to the gain (S,), and a function giving the
    levered taxable income (Y, S) of the interest paid per year: also less that
    interest and the tax depreciation of capitalized interest, whose tax book value
    lowers the gain (§11.8). ``book``: book depreciation per year and NBV per class;
    ``surtax_y`` (Y, S): the VAT surtax, deducted from both (§11.6)."""
    dep_y, nbv = book
    size = margin_y.shape[1]
    if config.tax_expensed:
        tax_dep_y, tax_nbv = tax_depreciation_by_year(q, config, events, size)
    else:  # tax depreciation is the book depreciation
        tax_dep_y, tax_nbv = dep_y, sum(nbv.values())
    rate, carry = q.tax_rate, config.loss_carryforward_years
    gain = terminal_gain(terminal, tax_nbv, config)
    taxable_y = taxable_income(margin_y, tax_dep_y + surtax_y, gain)
    tax = tax_rows(taxable_y, rate, carry, pool=False)
    terminal_tax = np.broadcast_to(tax_on_gain(taxable_y, gain, tax["tax"], rate, carry), (size,))

    def levered_taxable(interest_y: FloatArray) -> FloatArray:
        capitalized = capitalized_events(q, events, deps[0]["month"])
        cap_dep_y, cap_nbv = tax_depreciation_by_year(q, config, capitalized, size)
        gain_levered = terminal_gain(terminal, tax_nbv + cap_nbv, config)
        deductions = tax_dep_y + cap_dep_y + interest_y + surtax_y
        return taxable_income(margin_y, deductions, gain_levered)

    return tax, terminal_tax, levered_taxable


def _operating(
    q: TierParams,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
    months: int,
) -> tuple[dict[str, Coefficients], tuple[Coefficients, Coefficients, Coefficients]]:
    """Every line's coefficients (:func:`operating_coefficients`), and those of
    revenue, GPU-hours and total opex (the sum of :data:`OPEX_LINES`)."""
    lines = operating_coefficients(q, deps, events, months // MONTHS_PER_YEAR)
    opex = total([lines[line] for line in OPEX_LINES])
    return lines, (lines["revenue"], lines["gpu_hours"], opex)


def _pv_capex(capex_at: dict[int, FloatArray], disc: Discount) -> FloatArray:
    """(S,): ``sum_t capex(t) d(t)`` over the capex months."""
    at_capex = disc.sums(np.array(list(capex_at), dtype=float), [1] * len(capex_at))
    return sum(a * d for a, d in zip(capex_at.values(), at_capex, strict=True))


def _fcf_by_segment(
    seg: Segments,
    per_run: FloatArray,
    tax_y: FloatArray,
    capex_at: dict[int, FloatArray],
    terminal: FloatArray,
    terminal_tax: FloatArray,
    vat: VatYears | None = None,
) -> tuple[FloatArray, Callable[[], FloatArray], Callable[[], tuple[FloatArray, FloatArray]]]:
    """The FCF per segment (Q, S): ``FCF(m) = sum_k h_k(m) margin[y(m), k] - tax_y
    [m = 12 y] - capex(m)`` (``per_run``: :func:`per_run` of the revenue minus
    opex coefficients), plus the ``terminal`` value at M (the year-end tax at M
    includes ``terminal_tax``, the tax on its gain); a function that gives it
    month by month (M+1, S), the same numbers as computed month by month, plus
    the VAT cash (M+1, S) of ``vat`` when there is one (the segments leave it
    out); and a function that gives, when first called, the payback (years: the
    first month from which the cumulative FCF without the terminal value and its
    tax stays >= 0, over 12; NaN if never) and the peak funding ``max(0, -min_m
    cumulative FCF)`` (S,)."""
    c = np.take(per_run, seg.row, axis=0)
    c[seg.year_ends] -= tax_y
    for month, amount in capex_at.items():
        c[seg.at[month]] -= amount
    last = c[-1] + terminal_tax  # before the terminal value and its tax
    c[-1] += terminal
    vat_cash = None if vat is None else vat.cash
    by_segment = cache(lambda: np.repeat(c, seg.runs, axis=0))
    monthly = by_segment if vat_cash is None else cache(lambda: by_segment() + vat_cash)

    @cache
    def payback_and_peak() -> tuple[FloatArray, FloatArray]:
        cash = by_segment().copy()
        cash[-1] = last
        if vat_cash is not None:
            cash += vat_cash
        # np.cumsum(cash, axis=0), the same sums in the same order: numpy accumulates
        # along axis 0 element by element, 3x slower than these M row additions
        for m in range(1, cash.shape[0]):
            cash[m] += cash[m - 1]
        return fin.payback_years(cash, axis=0), np.maximum(0.0, -cash.min(axis=0))

    return c, monthly, payback_and_peak


def _npv_and_irr(
    seg: Segments,
    disc: Discount,
    fcf: FloatArray,
    fcf_monthly: Callable[[], FloatArray],
    vat: VatYears,
    months: int,
) -> tuple[FloatArray, Callable[[], FloatArray], Callable[[], FloatArray]]:
    """The NPV ``sum_q FCF_q sum_{m in q} d(m)`` over the segments, plus the present
    value of the VAT cash (which is not constant over a segment); the IRR and the
    count of the NPV's roots (methodology §11.2), solved on the segments, or month
    by month with VAT."""
    npv = sum_rows(fcf * _segment_discounts(seg, disc))
    if vat.cash is None:
        return npv, lambda: irr_of(fcf.T, seg.runs), lambda: roots_of(fcf.T, seg.runs)
    npv = npv + vat_present_value(vat.lines, disc.table(months))
    return npv, lambda: irr_of(fcf_monthly().T), lambda: roots_of(fcf_monthly().T)


def _segment_discounts(seg: Segments, disc: Discount) -> FloatArray:
    """``sum_{m in segment q} d(m)`` (Q, 1 or S) (:meth:`Discount.sums`,
    :data:`DISCOUNTED`)."""
    key = ("segments", seg.key, disc.key)
    return DISCOUNTED.get(key, lambda: disc.sums(seg.start, seg.runs))


def _equity_by_year(
    q: TierParams,
    config: TierConfig,
    build: int,
    one_loan: bool,
    capex_at: dict[int, FloatArray],
    fcf: FloatArray,
    npv: FloatArray,
    disc: Discount,
    levered_taxable: Callable[[FloatArray], FloatArray],
    tax: dict[str, FloatArray],
    margin_y: FloatArray,
) -> tuple[
    Callable[[], FloatArray] | None, FloatArray, FloatArray, FloatArray | Callable[[], FloatArray]
]:
    """Equity lines: ``ecf()`` (S, M+1) when borrowing (None: ECF = FCF), DSCR per
    year (S, Y), the debt peak and the equity NPV (S,; without borrowing a function
    that computes it when the metric is read).

    Debt draws ``debt share * capex(m)``; levered tax is the tax of
    ``levered_taxable(interest_y)`` (methodology §11.8); ``ECF = FCF + net debt
    flows + (tax - levered tax)`` at year ends; ``DSCR_y = CFADS_y / service_y``
    with ``CFADS_y = revenue_y - opex_y - levered tax_y`` (``margin_y``: revenue_y -
    opex_y), NaN where nothing is serviced; ``PV(ECF) = PV(FCF) + PV(net debt
    flows) + PV(tax saved)`` at the cost of equity."""
    months = config.months
    size = fcf.shape[1]
    full = (size,)
    draws = debt_draws(q, capex_at)
    if not draws:  # PV(FCF) at the cost of equity, computed when read

        def equity_npv() -> FloatArray:
            equity = discounting(q.cost_of_equity)
            return npv if equity.same_rates(disc) else pv_months(fcf, equity.table(months))

        return None, np.full((size, months // MONTHS_PER_YEAR), np.nan), np.zeros(full), equity_npv
    equity = discounting(q.cost_of_equity)
    e_disc = equity.table(months)
    interest_y, service_y, debt_peak, pv_net, net = debt_by_year(
        q, draws, build, months, equity, one_loan
    )
    levered = tax_rows(
        levered_taxable(interest_y), q.tax_rate, config.loss_carryforward_years, pool=False
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
