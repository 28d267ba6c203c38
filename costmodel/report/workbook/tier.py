"""One calculation sheet per tier: the engine's computation as live formulas.

Blocks top to bottom, each written by one function sharing the row-keyed
:class:`~costmodel.report.workbook.grid.CalcSheet`: timeline and flags; tier
inputs (green links to Inputs); lookups; the deployments and capex events (spec
14-15, :mod:`~costmodel.report.workbook.deployments`); capex and capacity of the
final cluster; reliability; then the time series: capex in the month paid, what
is in service, opex, revenue, depreciation per capex event with net-book-value
corkscrews, EBIT and annual tax with the loss-pool corkscrew, terminal value and
its tax, free cash flow, discounting and payback flags, and the recomputations
the Checks sheet compares with. Cached values are the engine's
(``Model.results``), so the file reads correctly before any recalculation.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from xlsxwriter.workbook import Workbook

from costmodel.catalogue.items import CAPEX_CLASSES, OPEX_ITEMS, OPEX_LINES, RENTED_MODE
from costmodel.inputs.model import Model
from costmodel.inputs.schema import DEPRECIATION_METHODS
from costmodel.inputs.vocabulary import input_label
from costmodel.report.workbook import contracts, losspool, money, recomputed
from costmodel.report.workbook import deployments as dep
from costmodel.report.workbook.deployments import engine_parts
from costmodel.report.workbook.designtable import design_inputs
from costmodel.report.workbook.grid import (
    FIRST_COL,
    GREEN,
    LABEL_COL,
    TOTAL_COL,
    CalcSheet,
    Styles,
    protect,
)
from costmodel.report.workbook.incomeblock import income_terms
from costmodel.report.workbook.inputs import SERVER_FIELDS
from costmodel.report.workbook.inputsmap import InputsMap
from costmodel.report.workbook.quotesblock import quote_rows
from costmodel.report.workbook.sitesblock import site_rows
from costmodel.report.workbook.storageblock import storage_inputs
from costmodel.report.workbook.subsidyblock import subsidies_block
from costmodel.report.workbook.tiercontext import HOURS, Tier, scalar
from costmodel.report.workbook.vatblock import vat_block


def excel_serials(periods: pd.PeriodIndex) -> np.ndarray:
    """Excel date serials of the last day of each period."""
    days = (periods.end_time.normalize() - pd.Timestamp("1899-12-30")).days
    return days.to_numpy(dtype=float)


def write_tier_sheet(
    wb: Workbook,
    st: Styles,
    model: Model,
    tier: str,
    sheet_name: str,
    inputs: InputsMap,
    summary: pd.DataFrame,
) -> CalcSheet:
    M = model.months
    ws = wb.add_worksheet(sheet_name)
    cs = CalcSheet(ws, sheet_name, M, st)
    ws.set_column(0, 0, 52)
    ws.set_column(1, 1, 14)
    ws.set_column(2, 3, 15)
    ws.set_column(4, 4, 2)
    ws.set_column(FIRST_COL, FIRST_COL + M, 12.5, None, {"level": 1})  # months: a group
    ws.write_string(0, 0, f"Calculation: tier {tier}", st.title)
    ws.write_string(0, 1, "unit", st.header)
    ws.write_string(0, 2, "constant", st.header)
    ws.write_string(0, 3, "total", st.header)
    cs.rows["header"] = 0  # the counter counts this row's columns
    cs.row = 1
    x = Tier(cs, model, tier, inputs, summary)
    engine_parts(x)
    for block in (
        timeline,
        tier_inputs,
        lookups,
        quote_rows,
        site_rows,
        dep.deployments,
        dep.capex_totals,
        reliability,
        dep.capex_series,
        contracts.contract,
        dep.in_service,
        contracts.revenue,
        opex,
        vat_block,
        subsidies_block,
        dep.depreciation_events,
        dep.terminal,
        tax,
        cash_flow,
        discounting,
        money.debt,
        money.levered_tax,
        money.equity,
        recomputed.recomputations,
        recomputed.depreciation_recomputed,
    ):
        block(x)
    # print: the labels, units, constants and totals on A4 portrait, one page wide;
    # the monthly detail is an outline group (level 1) left out of the print area
    # (docs/workbook.md: print a range of months by selecting it)
    ws.set_portrait()
    protect(ws)
    ws.set_paper(9)
    ws.print_area(0, LABEL_COL, cs.row, TOTAL_COL)
    ws.fit_to_pages(1, 0)
    ws.repeat_rows(0, cs.rows["last"])
    return cs


def timeline(x: Tier) -> None:
    """Month counter, calendar month end, operating year and timing flags; identical
    on every tier sheet. The counter counts the columns of the header row (no cell
    refers to itself)."""
    cs, m, M = x.cs, x.m, x.model.months
    cs.series(
        "month",
        "Month (0 = investment date)",
        "month",
        "=COLUMNS({header@0}:{header})-1",
        m,
        "count",
    )
    periods = excel_serials(x.model.periods)
    cs.series("period", "Month end", "date", "=EOMONTH(start,{month}-1)", periods, "date")
    cs.series("year", "Operating year", "year", "=ROUNDUP({month}/12,0)", x.year, "count")
    cs.series("ops", "Flag: operating month", "flag", "=({month}>=1)*1", x.ops, "flag")
    cs.series("inv", "Flag: investment month", "flag", "=({month}=0)*1", 1 - x.ops, "flag")
    yearend = ((m % 12 == 0) & (m >= 1)).astype(float)
    cs.series(
        "yearend",
        "Flag: last month of an operating year",
        "flag",
        "=(MOD({month},12)=0)*{ops}",
        yearend,
        "flag",
    )
    last = (m == M).astype(float)
    cs.series(
        "last", "Flag: last month of the horizon", "flag", "=({month}=model_months)*1", last, "flag"
    )
    cs.ws.freeze_panes(cs.row, FIRST_COL)


#: (row key, Inputs key, unit (``{cur}`` = currency), number format)
TIER_LINKS = (
    ("gpus", "gpus", "GPUs", "count"),
    ("network_share", "network.share", "fraction", "pct2"),
    ("storage_capacity_tb", "storage.capacity_tb", "TB", "number"),
    ("storage_price_per_tb", "storage.price_per_tb", "{cur}/TB", "money"),
    ("write_gbps", "storage.write_gbps", "GB/s", "number"),
    ("rack_kw", "rack_kw", "kW/rack", "number"),
    ("staff_fte", "staff_fte", "FTE", "number"),
    ("utilization", "operations.utilization", "fraction", "pct2"),
    ("maintenance_rate", "operations.maintenance_rate", "of HW capex/yr", "pct2"),
    ("insurance_rate", "operations.insurance_rate", "of capex/yr", "pct2"),
    ("staff_cost_per_fte", "operations.staff_cost_per_fte", "{cur}/FTE-year", "money"),
    ("staff_escalation", "operations.staff_escalation", "per year", "pct2"),
    ("software_per_gpu_year", "operations.software_per_gpu_year", "{cur}/GPU-year", "money"),
    ("sga_share", "operations.sga_share", "of revenue", "pct2"),
    ("price_per_gpu_hour", "gpu_hour_value", "{cur}/GPU-h", "money2"),
    ("price_decline", "revenue.price_decline", "per year", "pct2"),
    ("node_failures_per_day", "reliability.node_failures_per_day", "per server-day", "factor"),
    ("restart_hours", "reliability.restart_hours", "h", "number"),
    ("checkpoint_tb", "reliability.checkpoint_tb", "TB", "number"),
    ("mfu", "reliability.mfu", "fraction", "pct2"),
    ("repair_hours", "reliability.repair_hours", "h", "number"),
    ("build_months", "timeline.build_months", "months", "count"),
    ("ramp_months", "timeline.ramp_months", "months", "number"),
    ("reserve_headroom", "reserve_headroom", "0/1", "count"),
)
#: the links of a designed fabric and of staff_scaling (methodology §12), where given
DESIGN_LINKS = (
    ("fabric_radix", "network.design.switch_radix", "ports", "count"),
    ("fabric_switch_price", "network.design.switch_price", "{cur}/switch", "money"),
    ("fabric_optic_price", "network.design.optic_price", "{cur}/transceiver", "money"),
    ("fabric_oversubscription", "network.design.oversubscription", "ratio", "number"),
    ("fabric_per_server", "network.design.per_server", "{cur}/server", "money"),
    ("fabric_rail_optimized", "network.design.rail_optimized", "0/1", "count"),
    ("staff_fixed_fte", "staff_scaling.fixed_fte", "FTE", "number"),
    ("staff_fte_per_server", "staff_scaling.fte_per_server", "FTE/server", "number"),
)


def tier_inputs(x: Tier) -> None:
    """Green links to the tier's column of the Inputs sheet."""
    cs = x.cs
    cs.heading("Tier inputs (links to Inputs)")
    for key, value in (("server", x.t.server), ("cooling", x.t.cooling)):
        cell = x.inputs.tier_cells[(x.tier, key)]
        cs.const(key, input_label(key), "id", f"={cell}", value, "text", GREEN)
    for key, path, unit, kind in (*TIER_LINKS, *DESIGN_LINKS):
        rail = key == "fabric_rail_optimized" and "fabric_radix" in x.ti  # 0 when not given
        if key not in x.ti and not rail:  # a share or a design; staff_fte or staff_scaling
            continue
        cell = x.inputs.tier_cells[(x.tier, path)]
        unit = unit.format(cur=x.cur)
        cs.const(key, input_label(path), unit, f"={cell}", x.ti.get(key, 0.0), kind, GREEN)
    if "storage_node_price" in x.ti:  # storage sized in nodes (methodology §28.2)
        storage_inputs(x)
    design_inputs(x)


def lookups(x: Tier) -> None:
    """Server catalogue and cooling lookups (INDEX/MATCH over named columns of at
    least two cells, which every engine accepts), method index and mode flags."""
    cs, ti = x.cs, x.ti
    cs.heading("Lookups (server catalogue, cooling, depreciation, flags)")
    keys = {
        "price": "server_price",
        "power_kw": "server_power_kw",
        "price_decline": "server_price_decline",
    }
    units = {
        "gpus_per_server": "GPUs",
        "price": x.money("server"),
        "power_kw": "kW/server",
        "idle_fraction": "fraction",
        "gpu_memory_gb": "GB",
        "tflops_bf16": "TFLOPS",
        "price_decline": "per year",
    }
    for f in SERVER_FIELDS:
        key = keys.get(f, f)
        kind = "pct2" if f in ("idle_fraction", "price_decline") else "number"
        formula = f"=INDEX(Srv_{f},MATCH({{$server}},Srv_id,0))"
        cs.const(key, f"catalogue: {input_label(f'servers.{f}')}", units[f], formula, ti[key], kind)
    cool = "MATCH({$cooling},Cool_id,0)"
    max_rack = x.a.facility.max_rack_kw[x.t.cooling].value
    cs.const("pue", "PUE of the cooling type", "ratio", f"=INDEX(Cool_pue,{cool})", ti["pue"])
    cs.const(
        "build_cost_per_kw",
        "build cost of the cooling type",
        x.money("kW IT"),
        f"=INDEX(Cool_build_cost_per_kw,{cool})",
        ti["build_cost_per_kw"],
        "money",
    )
    cs.const(
        "max_rack_kw",
        "max rack power of the cooling type",
        "kW/rack",
        f"=INDEX(Cool_max_rack_kw,{cool})",
        max_rack,
    )
    _rent(x, cool)
    flags = (
        (
            "build_flag",
            "Flag: build the hall (facility mode = build)",
            '=(facility_mode="build")*1',
        ),
        ("terminal_flag", "Flag: terminal value = book", '=(terminal_value="book")*1'),
        ("market_flag", "Flag: terminal value = market", '=(terminal_value="market")*1'),
    )
    market = float(x.a.terminal_value == "market")
    for key, label, formula in flags:
        cs.const(key, label, "flag", formula, ti.get(key, market), "flag")
    cs.const(
        "monthly_rate",
        "Monthly discount rate (1+r)^(1/12)-1",
        "per month",
        "=(1+finance_discount_rate)^(1/12)-1",
        float(x.r.schedules.rates["discount"][0]),
        "factor",
    )
    for cls in CAPEX_CLASSES:
        idx = DEPRECIATION_METHODS.index(getattr(x.a.depreciation, cls).method) + 1
        cs.const(
            f"method_{cls}",
            f"depreciation method index: {cls} (1 SLN, 2 SYD, 3 VDB)",
            "1-3",
            f"=MATCH(dep_{cls}_method,Dep_methods,0)",
            idx,
            "count",
        )
        life = getattr(x.a.depreciation, cls).life_years
        cs.const(f"life_{cls}", f"useful life: {cls}", "years", f"=dep_{cls}_life", life, "count")


def _rent(x: Tier, cool: str) -> None:
    """The rent of the tier's cooling (methodology §28.3): its column of
    the cooling table when the rent is given by cooling, else the one rent."""
    cs, rent = x.cs, x.a.facility.colocation_per_kw_month
    by_cooling = isinstance(rent, dict)
    rent_formula = (
        f"=INDEX(Cool_colocation_per_kw_month,{cool})"
        if by_cooling
        else "=facility_colocation_per_kw_month"
    )
    cs.const(
        "colocation_per_kw_month",
        f"{RENTED_MODE} rent of the cooling type (methodology §28.3)",
        x.money("kW-month"),
        rent_formula,
        # the global rent: a site's rent is the site block's row (sitesblock.py)
        float((rent[x.t.cooling] if by_cooling else rent).value),
        "money",
    )


#: the checkpoint interval is not defined without failures or checkpoint writes
_OFF = "OR({$fph}=0,{$delta_h}=0)"

#: the reliability rows: key, label, unit, formula, the engine's metric, format
RELIABILITY_ROWS: tuple[tuple[str, str, str, str, str, str], ...] = (
    (
        "fph",
        "cluster failures per hour = failures/day x servers / 24",
        "per h",
        "={$node_failures_per_day}*{$servers}/24",
        "failures_per_hour",
        "factor",
    ),
    (
        "mtbf_hours",
        "cluster MTBF = 1 / failures per hour",
        "h",
        '=IF({$fph}=0,"",1/{$fph})',
        "mtbf_hours",
        "number",
    ),
    (
        "delta_h",
        "checkpoint write time = TB x 1000 / GB/s / 3600",
        "h",
        "={$checkpoint_tb}*1000/{$write_gbps}/3600",
        "checkpoint_write_hours",
        "factor",
    ),
    (
        "tau_h",
        "Young's interval sqrt(2 x write time x MTBF) (0 if no failures)",
        "h",
        "=IF({$fph}=0,0,SQRT(2*{$delta_h}/{$fph}))",
        "young_interval_hours",
        "factor",
    ),
    (
        "checkpoint_interval_hours",
        "optimal checkpoint interval",
        "h",
        f'=IF({_OFF},"",{{$tau_h}})',
        "checkpoint_interval_hours",
        "number",
    ),
    (
        "write_waste",
        "waste: checkpoint writes = write time / interval",
        "fraction",
        f"=IF({_OFF},0,{{$delta_h}}/{{$tau_h}})",
        "write_waste",
        "pct2",
    ),
    (
        "restart_waste",
        "waste: lost work and restarts = (interval/2 + restart) / MTBF",
        "fraction",
        "=({$tau_h}/2+{$restart_hours})*{$fph}",
        "restart_waste",
        "pct2",
    ),
    (
        "goodput",
        "goodput = max(0, 1 - waste)",
        "fraction",
        "=IF({$fph}=0,1,MAX(0,1-{$write_waste}-{$restart_waste}))",
        "goodput",
        "pct2",
    ),
    (
        "availability",
        "availability = max(0, 1 - failures/day x repair hours / 24)",
        "fraction",
        "=MAX(0,1-{$node_failures_per_day}*{$repair_hours}/24)",
        "availability",
        "pct2",
    ),
)


def reliability(x: Tier) -> None:
    """Methodology §5: cluster MTBF, Young's checkpoint interval, waste and goodput
    (:data:`RELIABILITY_ROWS`)."""
    x.cs.heading("Reliability: failures, checkpoints, goodput")
    if "write_gbps" not in x.ti:  # storage in nodes: the final cluster's (§28.2)
        last = len(x.deps) - 1
        x.cs.const(
            "write_gbps",
            "storage write bandwidth of the final cluster (storage block)",
            "GB/s",
            f"={{$st_w{last}}}",
            scalar(x.deps[last]["storage_write_gbps"]),
            "number",
        )
    for key, label, unit, formula, metric, kind in RELIABILITY_ROWS:
        x.cs.const(key, label, unit, formula, x.met[metric], kind)


#: the names an opex formula reads that the sheet writes otherwise than as a tier
#: input (``{$name}``) or a row (``{name}``): the workbook's global names
GLOBAL_NAMES = {
    "hours_per_month": HOURS,
    "price_per_kwh": "power_price_per_kwh",
    "power_escalation": "power_escalation",
}


def sheet_name(ref: str, rows: frozenset[str]) -> str:
    """How an opex formula (:mod:`costmodel.catalogue`) names ``ref`` on a tier sheet:
    a row of ``rows`` month by month, a global name, else the tier's input."""
    if ref in rows:
        return f"{{{ref}}}"
    return GLOBAL_NAMES.get(ref, f"{{${ref}}}")


def opex_rows() -> tuple[tuple[str, str, str, str, tuple[str, str]], ...]:
    """The opex rows: key, label, unit ("money": the currency), formula, and the
    engine's line (``flows`` or ``opex``, its name), each line's yearly index row
    before it: every formula is the catalogue's (:data:`OPEX_ITEMS`), written on the
    sheet's rows."""
    rows = frozenset(
        {d for i in OPEX_ITEMS if i.formula for d in i.formula.drivers}
        | {i.formula.index.key for i in OPEX_ITEMS if i.formula and i.formula.index}
    )
    out = []
    for item in OPEX_ITEMS:
        f = item.formula
        assert f is not None, item.key
        if f.index is not None:
            esc = sheet_name(f.index.escalation, rows)
            index = f"=(1+{esc})^({{year}}-1)*{{ops}}"
            out.append((f.index.key, f.index.label, "index", index, ("flows", f.index.key)))
        text = "=" + f.expr.excel(lambda ref: sheet_name(ref, rows))
        out.append((item.key, f.label, "money", text, ("opex", item.key)))
    return tuple(out)


def opex(x: Tier) -> None:
    """Methodology §3.2 and §11.4: the opex lines (:func:`opex_rows`; SG&A a share
    of revenue) and their total."""
    cs, r, cur = x.cs, x.r, x.cur
    cs.heading("Opex (monthly)")
    for key, label, unit, formula, (part, line) in opex_rows():
        index = unit == "index"
        values = getattr(r, part)[line][0]
        unit = cur if unit == "money" else unit
        cs.series(key, label, unit, formula, values, "factor" if index else "money", not index)
    cs.series(
        "opex",
        "opex: total",
        cur,
        "=" + "+".join(f"{{{line}}}" for line in OPEX_LINES),
        r.flows["opex"][0],
        total=True,
        bold=True,
    )


def tax(x: Tier) -> None:
    """Methodology §3.4, §8.3, §11.7, §11.9: EBIT; tax depreciation per class (book,
    or an expensed class's cost in its in-service month: the month after its capex
    month); the taxable income of each year at its last month, the terminal gain
    added at M; the loss corkscrew with its vintage table (:func:`losspool.loss_table`),
    taxable profit and tax; the part of the tax at M due to the gain."""
    cs, r, cur = x.cs, x.r, x.cur
    cs.heading("EBIT and tax (annual, paid in the year's last month; losses carried forward)")
    cs.series(
        "ebit",
        "EBIT = revenue - opex - depreciation",
        cur,
        "={revenue}-{opex}-{dep}",
        r.flows["ebit"][0],
        total=True,
    )
    for cls in CAPEX_CLASSES:
        expensed = (
            "" if cls == "facility" else f'IF(dep_{cls}_tax_method="expensed",{{capex_{cls}_t<}},'
        )
        cs.series(
            f"tax_dep_{cls}",
            f"{cls}: tax depreciation (book; expensed: the cost the month after capex)",
            cur,
            f"={expensed}{{dep_{cls}}}" + (")" if expensed else ""),
            r.flows[f"tax_depreciation_{cls}"][0],
            total=True,
        )
    cs.series(
        "tax_dep",
        "tax depreciation: total",
        cur,
        "=" + "+".join(f"{{tax_dep_{c}}}" for c in CAPEX_CLASSES),
        x.rows.tax_depreciation,
        total=True,
    )
    cs.const(
        "tax_nbv",
        "tax book value at M = capex - tax depreciation",
        cur,
        "=SUM({capex_t:})-SUM({tax_dep:})",
        x.rows.tax_book_value,
        "money",
    )
    income = "+({$tv_income}-{$tax_nbv})*{$income_flag}" if income_terms(x)[0] else ""
    cs.const(
        "gain",
        "terminal gain = market (or income) value - tax book value (market, income only)",
        cur,
        "=({$tv_market}-{$tax_nbv})*{$market_flag}" + income,
        x.rows.terminal_gain,
        "money",
    )
    _taxable(x)
    losspool.loss_inputs(x)
    losspool.loss_table(x, "", "taxable_year", "tax", r.flows["tax"][0], "tax")
    losspool.gain_tax(
        x, "", "taxable_year", "gain", "tax", "terminal_tax", r.flows["terminal_tax"][0]
    )


def _taxable(x: Tier) -> None:
    """The monthly result for tax and the taxable income of each year at its last
    month (methodology §11.6, §11.9, §11.13): revenue - opex - tax depreciation -
    surtax (+ taxable subsidies, month 0's in year 1), the terminal gain at M."""
    cs, cur = x.cs, x.cur
    # taxable subsidies are income of their model year, month 0's of year 1 (§11.13)
    grants = x.rows.subsidies_taxable is not None
    cs.series(
        "taxable_m",
        "result for tax = revenue - opex - tax depreciation - VAT surtax"
        + (" + taxable subsidies" if grants else ""),
        cur,
        "={revenue}-{opex}-{tax_dep}-{vat_surtax}" + ("+{subsidies_taxable}" if grants else ""),
        x.rows.taxable_result,
        total=True,
    )
    cs.series(
        "taxable_year",
        "taxable income of the year (at its last month; the terminal gain at M)",
        cur,
        "=SUMIFS({taxable_m:},{year:},{year})*{yearend}+{$gain}*{last}"
        + ("+{taxable_m@0}*({year}=1)*{yearend}" if grants else ""),
        x.rows.loss_pool(levered=False)["base"],
    )


def cash_flow(x: Tier) -> None:
    """Methodology §3.5: free cash flow (after the terminal value; the year-end tax
    at M includes the tax on its gain) and cumulative cash."""
    cs, r, cur = x.cs, x.r, x.cur
    cs.heading("Free cash flow, discounting, payback")
    fcf = r.flows["fcf"][0]
    grants = "subsidies" in cs.rows  # methodology §11.13
    cs.series(
        "fcf",
        "FCF = revenue - opex - tax - capex + terminal + VAT cash"
        + (" + subsidies" if grants else "")
        + " (the tax at M taxes its gain)",
        cur,
        "={revenue}-{opex}-{tax}-{capex_t}+{terminal}+{vat_cash}"
        + ("+{subsidies}" if grants else ""),
        fcf,
        total=True,
        bold=True,
    )
    cs.reserve("cum_fcf")
    cum = x.model.rows(x.tier).cumulative_fcf
    cs.series("cum_fcf", "cumulative free cash flow", cur, "={cum_fcf<}+{fcf}", cum)


def discounting(x: Tier) -> None:
    """Methodology §1 and §4: discount factors, discounted FCF and the payback flags."""
    cs, r = x.cs, x.r
    ir = x.model.rows(x.tier)
    df = r.flows["discount_factor"][0]
    cs.series(
        "discount",
        "discount factor (1+r_m)^-month",
        "factor",
        "=(1+{$monthly_rate})^(-{month})",
        df,
        "factor",
    )
    cs.series(
        "disc_fcf",
        "discounted free cash flow",
        x.cur,
        "={fcf}*{discount}",
        ir.discounted_fcf,
        total=True,
    )
    pv_cost, pv_gh, pflop = ir.pv_cost, ir.pv_gpu_hours, ir.pv_pflop_hours
    rows = (
        (
            "pv_cost",
            "present value of capex and opex",
            x.cur,
            "=SUMPRODUCT({capex_t:},{discount:})+SUMPRODUCT({opex:},{discount:})",
            pv_cost,
        ),
        (
            "pv_gpu_hours",
            "present value of GPU-hours (discounted)",
            "GPU-h",
            "=SUMPRODUCT({gpu_hours:},{discount:})",
            pv_gh,
        ),
        (
            "pv_pflop_hours",
            "discounted PFLOP-hours = GPU-h x goodput x MFU x TFLOPS / 1000",
            "PFLOP-h",
            "={$pv_gpu_hours}*{$goodput}*{$mfu}*{$tflops_bf16}/1000",
            pflop,
        ),
    )
    for key, label, unit, formula, value in rows:
        cs.const(key, label, unit, formula, value, "money" if unit == x.cur else "number")
    # payback (methodology §8.4, choice 8): from the first month after which the cumulative cash
    # without the terminal value stays >= 0 through month M
    cash, stays = ir.cumulative_cash, ir.paid_back
    cs.reserve("cum_cash")
    cs.series(
        "cum_cash",
        "cumulative cash without the terminal value and its tax",
        x.cur,
        "={cum_cash<}+{fcf}-{terminal}+{terminal_tax}",
        cash,
    )
    cs.series(
        "paid_back",
        "flag: cumulative cash stays >= 0 from here to month M",
        "flag",
        '=(COUNTIF({cum_cash}:{cum_cash@M},"<0")=0)*{ops}',
        stays,
        "flag",
    )
    cs.const(
        "peak_funding",
        "peak funding = max(0, -lowest cumulative cash without the terminal value)",
        x.cur,
        "=MAX(0,-MIN({cum_cash:}))",
        x.summary.loc[x.tier, "peak_funding"],
        "money",
    )
    first = ir.payback_flag
    cs.series(
        "payback_flag", "flag: payback month", "flag", "={paid_back}-{paid_back<}", first, "flag"
    )
