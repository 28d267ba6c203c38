"""Write the investor workbook: a live-formula Excel model of every tier.

Sheets in FAST order: Cover (with the master check), Inputs, one calculation
sheet per tier, Annual, Comparison (with charts), Checks. Every calculated cell
holds its formula and the engine's value as the cached result. The writer only
reads a finished :class:`~costmodel.inputs.model.Model`.

Byte-reproducible output: pass ``created=`` (or set ``SOURCE_DATE_EPOCH``) so the
document's creation date is fixed; everything else is a function of the model.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import xlsxwriter
from xlsxwriter.utility import xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook

from costmodel.catalogue.items import CAPEX_CLASSES, OPEX_ITEMS, OPEX_LINES, capex_column
from costmodel.core.metrics import METRICS, is_empty, metric_unit
from costmodel.core.result import SUMMARY_COLUMNS as ALL_COLUMNS
from costmodel.inputs.designs import design_is_auto
from costmodel.inputs.loader import fingerprint
from costmodel.inputs.model import Model, require_finite
from costmodel.inputs.title import model_title
from costmodel.report import output as atomic
from costmodel.report.workbook import contracts
from costmodel.report.workbook.checks import write_checks
from costmodel.report.workbook.cover import write_cover
from costmodel.report.workbook.grid import (
    BLACK,
    GREEN,
    KIND_FORMAT,
    CalcSheet,
    Styles,
    excel_value,
    protect,
)
from costmodel.report.workbook.gridsheet import write_grid_sheet
from costmodel.report.workbook.inputs import write_inputs
from costmodel.report.workbook.irr import write_irr_sheet
from costmodel.report.workbook.names import chart_text, name_keys
from costmodel.report.workbook.plan import PlanWorkbook
from costmodel.report.workbook.results import (
    write_montecarlo_sheet,
    write_scenarios_sheet,
    write_sensitivity_sheet,
)
from costmodel.report.workbook.sheet import VERIFIED_XLSXWRITER, FastWorksheet, RowWorksheet
from costmodel.report.workbook.studysheet import study_labels, write_study_sheet
from costmodel.report.workbook.sweepsheet import write_sweep_sheet
from costmodel.report.workbook.tier import write_tier_sheet

#: the worksheet class of every sheet: :class:`FastWorksheet` writes the same bytes
#: as :class:`RowWorksheet` (XlsxWriter's own code for every cell), faster. It mirrors
#: the internals of the releases in ``VERIFIED_XLSXWRITER``; under any other release
#: the stock code writes (and a test fails until the byte comparisons have been run
#: with it)
WORKSHEET_CLASS: type[RowWorksheet] = (
    FastWorksheet if xlsxwriter.__version__ in VERIFIED_XLSXWRITER else RowWorksheet
)

#: the summary columns the workbook carries as formulas: all of the engine's (v1 set,
#: availability, peak funding and the financing columns of methodology §8.2)
SUMMARY_COLUMNS = tuple(ALL_COLUMNS)

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis

RESERVED = {
    "cover",
    "inputs",
    "irr",
    "annual",
    "comparison",
    "checks",
    "history",  # reserved by Excel (its change-tracking sheet)
    "sensitivity",
    "monte carlo",
    "scenarios",
}


def sheet_names(tiers: list[str]) -> dict[str, str]:
    """A valid, unique worksheet name per tier (31 chars, no ``[]:*?/\\``, none
    Excel reserves). An apostrophe becomes ``’``: quoted in a reference it is
    doubled (``'it''s'!A1``), which Gnumeric does not read."""
    out: dict[str, str] = {}
    used = set(RESERVED)
    for i, t in enumerate(tiers, 1):
        base = re.sub(r"[\[\]:*?/\\]", "_", t).replace("'", "\u2019") or f"tier {i}"
        base = base[:31] or f"tier {i}"
        name = base
        n = 2
        while name.lower() in used:
            suffix = f" ({n})"
            name = base[: 31 - len(suffix)] + suffix
            n += 1
        used.add(name.lower())
        out[t] = name
    return out


def _created(created: datetime | None) -> datetime:
    if created is not None:
        return created
    epoch = atomic.source_date_epoch()
    if epoch is not None:
        return datetime.fromtimestamp(epoch, tz=timezone.utc).replace(tzinfo=None)
    return datetime.now().replace(microsecond=0)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (restored on exit, also on error).
    A workbook holds one small object per cell until the file is written (about
    700,000 for 10 tiers x 20 years), all alive, so collections while it is built
    only traverse them: a fifth to a quarter of the writing time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def write_workbook(
    model: Model,
    path: str | os.PathLike[str],
    created: datetime | None = None,
    *,
    analysis: Analysis | None = None,
) -> Path:
    """Write ``model`` to ``path`` (.xlsx) atomically; returns the path.

    With an ``analysis`` (:func:`costmodel.analyze`), sheets of engine results are
    added, labelled as values rather than formulas: Scenarios (if it has scenarios),
    Sensitivity (tornado and break-even) and Monte Carlo (if it has draws).
    Raises :class:`~costmodel.inputs.errors.AssumptionError` when an input is too
    large to compute with (:func:`~costmodel.inputs.model.require_finite`).

    Parameters
    ----------
    model : Model
    path : str or os.PathLike
        The .xlsx file to write (replaced whole, or left as it was on an error).
    created : datetime, optional
        The date the Cover and the file's properties carry (default: now, or
        ``SOURCE_DATE_EPOCH``).
    analysis : Analysis, optional

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile, zipfile
    >>> from datetime import datetime
    >>> from pathlib import Path
    >>> import costmodel as cm
    >>> model = cm.build(cm.load_assumptions(cm.example_dir("by-hand")))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = cm.write_workbook(model, Path(d) / "model.xlsx", created=datetime(2026, 1, 1))
    ...     names = zipfile.ZipFile(path).namelist()
    >>> path.name, "xl/workbook.xml" in names
    ('model.xlsx', True)
    """
    require_finite(model)

    def write(tmp: Path) -> None:
        with collector_paused():
            wb = xlsxwriter.Workbook(
                str(tmp),
                {
                    "strings_to_formulas": False,
                    "strings_to_urls": False,
                    "strings_to_numbers": False,
                },
            )
            wb.worksheet_class = WORKSHEET_CLASS  # every add_worksheet's class
            _build(wb, model, _created(created), analysis)
            wb.close()

    return atomic.write_with(path, write)


def plan_workbook(model: Model) -> PlanWorkbook:
    """The layout of ``model``'s workbook (without analysis sheets) as data: every
    sheet's :class:`~costmodel.report.workbook.plan.SheetPlan`, laid out by the
    same blocks as :func:`write_workbook`, with nothing written. Raises as
    :func:`write_workbook` does when an input is too large to compute with."""
    require_finite(model)
    wb = PlanWorkbook()
    _build(wb, model, datetime(2000, 1, 1))  # type: ignore[arg-type]
    return wb


def _build(
    wb: Workbook,
    model: Model,
    created: datetime,
    analysis: Analysis | None = None,
) -> None:
    a = model.assumptions
    st = Styles(wb)
    wb.set_properties(
        {
            "title": model_title(a),
            "subject": "GPU compute center scale options",
            "author": "costmodel",
            "created": created,
            "comments": "Generated by costmodel",
        }
    )
    wb.set_calc_mode("auto")
    names = sheet_names(model.tiers)
    cover = wb.add_worksheet("Cover")
    prices = {t: model.inputs[t].values()["price_per_gpu_hour"] for t in model.tiers}
    inputs = write_inputs(wb, st, a, model.tiers, prices, model.discount_rate())
    summary = model.summary()
    sheets: dict[str, CalcSheet] = {
        t: write_tier_sheet(wb, st, model, t, names[t], inputs, summary) for t in model.tiers
    }
    irr_starts = write_irr_sheet(wb, st, model, sheets)
    _annual(wb, st, model, sheets)
    comp_cells = _comparison(wb, st, model, sheets, irr_starts)
    if analysis is not None:
        fp = fingerprint(a)
        if analysis.scenarios is not None:
            write_scenarios_sheet(wb, st, analysis.scenarios, fp)
        write_sensitivity_sheet(wb, st, analysis.tornado, analysis.break_even, fp, a.currency)
        labels = {t: f"{t} ({a.tiers[t].label})" for t in model.tiers}
        if analysis.grid is not None:
            write_grid_sheet(wb, st, analysis.grid, labels, fp)
        if analysis.sweeps:
            write_sweep_sheet(wb, st, analysis.sweeps, labels, a.currency, fp)
        if analysis.monte_carlo is not None:
            write_montecarlo_sheet(wb, st, analysis.monte_carlo, fp, a.currency)
        if analysis.study is not None:
            write_study_sheet(
                wb, st, analysis.study, study_labels(a, analysis.study), a.currency, fp
            )
    write_checks(wb, st, model, sheets, comp_cells)
    listed = ([w.get_name() for w in wb.worksheets()], list(names.values()))
    write_cover(cover, st, model, created, comp_cells, analysis, listed)


# ----------------------------------------------------------------------------- Annual


def _annual(wb: Workbook, st: Styles, model: Model, sheets: dict[str, CalcSheet]) -> None:
    ws = wb.add_worksheet("Annual")
    years = model.months // 12
    ws.set_column(0, 0, 30)
    ws.set_column(1, 1, 10)
    ws.set_column(2, 2 + years, 14)
    ws.write_string(
        0, 0, "Annual roll-up by tier (SUMIFS on each sheet's operating-year row)", st.title
    )
    ws.write_string(2, 0, "operating year", st.header)
    ws.write_string(2, 1, "unit", st.header)
    for y in range(years + 1):
        ws.write_number(2, 2 + y, y, st.header)
    ws.freeze_panes(3, 2)
    lines = ANNUAL_LINES
    r = 4
    year_cells = [xl_rowcol_to_cell(2, 2 + y, row_abs=True) for y in range(years + 1)]
    for t, cs in sheets.items():
        rows = model.rows(t)
        ws.write_string(r, 0, t, st.h2)
        r += 1
        years_rng = cs.ref("year", ":", sheet=True)
        for key, line, label in lines:
            if key == "subsidies" and key not in cs.rows:
                continue  # a tier without subsidies (methodology §11.13)
            ws.write_string(r, 0, label, st.label)
            ws.write_string(r, 1, model.assumptions.currency, st.unit)
            by_year = rows.annual_sums(line)  # year 0: month 0
            rng = cs.ref(key, ":", sheet=True)
            fmt = st.cell("money", BLACK, key in ("opex", "fcf", "ecf"))
            for y, yc in enumerate(year_cells):
                f = f"=SUMIFS({rng},{years_rng},{yc})"
                ws.write_formula(r, 2 + y, f, fmt, float(by_year[y]))
            r += 1
        r += 1
    ws.set_landscape()
    protect(ws)
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    ws.repeat_rows(2)


#: the Annual sheet's lines: the tier-sheet row summed, the model's line
#: (:meth:`~costmodel.core.intermediate.Intermediate.annual_sums`, which the cached
#: values are) and the label
ANNUAL_LINES = (
    ("capex_t", "capex", "capex"),
    ("revenue", "revenue", "revenue"),
    ("contract_revenue", "contract_revenue", "revenue: contracted"),
    ("spot_revenue", "spot_revenue", "revenue: spot"),
    *((i.key, i.key, i.sheet_label) for i in OPEX_ITEMS),
    ("opex", "opex", "opex: total"),
    ("dep", "depreciation", "depreciation"),
    ("ebit", "ebit", "EBIT"),
    ("tax", "tax", "tax"),
    ("subsidies", "subsidies", "subsidies received"),
    ("fcf", "fcf", "free cash flow"),
    # the money lines (methodology §8.2)
    ("debt_draw", "draw", "debt drawn"),
    ("debt_interest", "interest", "interest paid"),
    ("debt_principal", "principal", "principal repaid"),
    ("debt_balloon", "balloon", "balloon"),
    ("tax_lev", "tax_levered", "levered tax"),
    ("ecf", "ecf", "equity cash flow"),
)


# ----------------------------------------------------------------------------- Comparison


def _network_levels(cs: CalcSheet) -> str:
    """The levels of the final cluster's fabric block (methodology §12.1); empty with
    a network share."""
    last = max((int(k[4:]) for k in cs.rows if k.startswith("f_lv")), default=None)
    return '=""' if last is None else f"={cs.ref(f'f_lv{last}', '$', sheet=True)}"


def _storage_formulas(cs: CalcSheet) -> dict[str, str]:
    """The final cluster's storage (methodology §28.2): the last deployment's rows of
    the storage block, or the deployments' TB and the write bandwidth input."""
    S = lambda key: cs.ref(key, "$", sheet=True)  # noqa: E731
    last = max((int(k[5:]) for k in cs.rows if k.startswith("st_tb")), default=None)
    if last is not None:
        return {
            "storage_tb": f"={S(f'st_tb{last}')}",
            "storage_write_gbps": f"={S(f'st_w{last}')}",
            "storage_nodes": f"={S(f'st_n{last}')}",
        }
    tb = "+".join(S(k) for k in cs.rows if k.startswith("d_tb") and k[4:].isdigit())
    return {
        "storage_tb": f"={tb}",
        "storage_write_gbps": f"={S('write_gbps')}",
        "storage_nodes": '=""',
    }


def _design_formula(model: Model, tier: str, col_cell) -> str:
    """The design taken (methodology §28.1): with ``design: auto`` the scale class of
    the final GPUs, a named design as text, empty without one."""
    key = model.assumptions.tiers[tier].design
    if key is None:
        return '=""'
    if design_is_auto(model.assumptions, tier):
        return f"=LOOKUP({col_cell('gpus')},Scale_min_gpus,Scale_class)"
    return f'="{key}"'


def _text_formula(text: str) -> str:
    """A formula whose value is ``text`` (a string constant, quotes doubled)."""
    return '="' + text.replace('"', '""') + '"'


def _metric_formulas(
    cs: CalcSheet,
    col_cell,
    irr_start: tuple[str, str],
    design_formula: str = '=""',
    site: str = "",
    feasible: tuple[bool, str] = (True, ""),
) -> dict[str, str]:
    """Formula per summary column, for tier sheet ``cs``; ``col_cell(metric)`` is
    the Comparison cell of another metric in the same column; ``irr_start`` the IRR
    sheet's start cells of the free and the equity cash flow."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    c = col_cell
    pv_cost, pv_gh, pv_pf = S("pv_cost"), S("pv_gpu_hours"), S("pv_pflop_hours")
    return {
        "scale_class": f"=LOOKUP({c('gpus')},Scale_min_gpus,Scale_class)",
        "gpus": f"={S('gpus_total')}",
        "servers": f"={S('servers')}",
        "racks": f"={S('racks')}",
        "it_kw": f"={S('it_kw')}",
        "facility_mw": f"={S('it_kw')}*{S('pue')}/1000",
        "capex": f"=SUM({S('capex_t', ':')})",
        **{capex_column(k): f"={S(capex_column(k))}" for k in CAPEX_CLASSES},
        "network_share": f'=IF({S("capex_hardware")}=0,"",'
        f"{c(capex_column('network'))}/{S('capex_hardware')})",
        "network_levels": _network_levels(cs),
        **_storage_formulas(cs),
        "cooling": f"={S('cooling')}",
        "rack_kw": f"={S('rack_kw')}",
        "design": design_formula,
        "opex_year1": f"=SUMIFS({S('opex', ':')},{S('year', ':')},1)",
        # methodology §4: the first model year whose months all follow the first
        # deployment's capex month d_t0; empty past the horizon
        "opex_full_year": f"=IF(ISNUMBER({c('opex_full_year_number')}),"
        f'SUMIFS({S("opex", ":")},{S("year", ":")},{c("opex_full_year_number")}),"")',
        "opex_full_year_number": f'=IF(ROUNDUP({S("d_t0")}/12,0)+1>model_months/12,"",'
        f"ROUNDUP({S('d_t0')}/12,0)+1)",
        "tco": f"={c('capex')}+SUM({S('opex', ':')})",
        "gpu_hours": f"=SUM({S('gpu_hours', ':')})",
        "tco_per_gpu_hour": f'=IF({c("gpu_hours")}=0,"",{c("tco")}/{c("gpu_hours")})',
        "cost_per_gpu_hour": f'=IF({pv_gh}=0,"",{pv_cost}/{pv_gh})',
        "revenue": f"=SUM({S('revenue', ':')})",
        "contract_at_risk": contracts.at_risk_formula(cs),
        "realized_price": f'=IF({c("gpu_hours")}=0,"",{c("revenue")}/{c("gpu_hours")})',
        "npv": f"={S('fcf', '@0')}+NPV({S('monthly_rate')},{S('fcf', ':1')})",
        # IRR polishes the root that the IRR sheet's bracketing solver found
        "discount_rate": f"=(1+{S('monthly_rate')})^12-1",
        "irr": _irr(S("fcf", ":"), irr_start[0]),
        "payback_years": f'=IF(SUM({S("payback_flag", ":")})=0,"",'
        f"SUMPRODUCT({S('payback_flag', ':')},{S('month', ':')})/12)",
        "roi": f'=IF({c("capex")}=0,"",SUM({S("fcf", ":")})/{c("capex")})',
        "mtbf_hours": f"={S('mtbf_hours')}",
        "checkpoint_interval_hours": f"={S('checkpoint_interval_hours')}",
        "goodput": f"={S('goodput')}",
        "cost_per_effective_gpu_hour": f'=IF(OR({c("cost_per_gpu_hour")}="",{c("goodput")}=0),"",'
        f"{c('cost_per_gpu_hour')}/{c('goodput')})",
        "cost_per_pflop_hour": f'=IF({pv_pf}=0,"",{pv_cost}/{pv_pf})',
        "availability": f"={S('availability')}",
        "peak_funding": f"={S('peak_funding')}",
        "equity_npv": f"={S('ecf', '@0')}+NPV({S('equity_rate')},{S('ecf', ':1')})",
        "equity_irr": _irr(S("ecf", ":"), irr_start[1]),
        "min_dscr": f"={S('min_dscr')}",
        "debt_peak": f"={S('debt_peak')}",
        "vat_paid": f"=SUM({S('vat_payable', ':')})",
        "vat_credit_peak": f"={S('vat_credit_peak')}",
        "surtax": f"=SUM({S('vat_surtax', ':')})",
        "subsidies": f"=SUM({S('subsidies', ':')})" if "subsidies" in cs.rows else "=0",
        # the tier sheet's live site where the model has sites (methodology §29)
        "site": f"={S('site')}" if "site" in cs.rows else _text_formula(site),
        "feasible": f"={int(feasible[0])}",
        "infeasible_reason": _text_formula(feasible[1]),
    }


def _irr(flows: str, start: str) -> str:
    """Annual IRR: spreadsheet IRR polishing the root that the IRR sheet's
    bracketing solver found from ``start`` (empty: no root)."""
    return f'=IF({start}="","",IFERROR((1+IRR({flows},{start}))^12-1,(1+{start})^12-1))'


def _comparison(
    wb: Workbook,
    st: Styles,
    model: Model,
    sheets: dict[str, CalcSheet],
    irr_starts: dict[tuple[str, str], str],
) -> dict[tuple[str, str], str]:
    ws = wb.add_worksheet("Comparison")
    summary = model.summary()
    ws.set_column(0, 0, 40)
    ws.set_column(1, 1, 12)
    ws.set_column(2, 2 + len(sheets), 18)
    ws.write_string(0, 0, "Comparison of the scale options (every metric a live formula)", st.title)
    ws.write_string(2, 0, "metric", st.header)
    ws.write_string(2, 1, "unit", st.header)
    first_row = 3
    row_of = {col: first_row + i for i, col in enumerate(SUMMARY_COLUMNS)}
    cells: dict[tuple[str, str], str] = {}
    keys = name_keys(sheets)  # defined names: unique, within Excel's 255 characters
    for j, (t, cs) in enumerate(sheets.items()):
        col = 2 + j
        ws.write_string(2, col, t, st.header)

        def col_cell(metric: str, col: int = col) -> str:
            return xl_rowcol_to_cell(row_of[metric], col)

        starts = (irr_starts[(t, "fcf")], irr_starts[(t, "ecf")])
        why = (bool(summary.loc[t, "feasible"]), str(summary.loc[t, "infeasible_reason"]))
        design = _design_formula(model, t, col_cell)
        formulas = _metric_formulas(cs, col_cell, starts, design, str(summary.loc[t, "site"]), why)
        for metric in SUMMARY_COLUMNS:
            meta = METRICS[metric]
            r = row_of[metric]
            if j == 0:
                ws.write_string(r, 0, meta.label, st.label)
                ws.write_string(r, 1, metric_unit(metric, model.assumptions.currency), st.unit)
            value = summary.loc[t, metric]
            link = formulas[metric].count("!") == 1 and formulas[metric].startswith("='")
            fmt = st.cell(KIND_FORMAT[meta.kind], GREEN if link else BLACK)
            ws.write_formula(r, col, formulas[metric], fmt, excel_value(value))
            cells[(t, metric)] = (
                f"Comparison!{xl_rowcol_to_cell(r, col, row_abs=True, col_abs=True)}"
            )
            if metric in ("npv", "irr", "cost_per_gpu_hour", "capex"):
                wb.define_name(f"{metric}_{keys[t]}", f"={cells[(t, metric)]}")
    ws.freeze_panes(3, 2)
    _charts(wb, ws, model, sheets, row_of, first_row + len(SUMMARY_COLUMNS) + 2)
    ws.set_landscape()
    protect(ws)
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    return cells


def _charts(
    wb: Workbook, ws, model: Model, sheets: dict[str, CalcSheet], row_of: dict[str, int], at: int
) -> None:
    tiers = list(sheets)
    n = len(tiers)
    # capex breakdown per tier (stacked columns from the Comparison rows)
    ch = wb.add_chart({"type": "column", "subtype": "stacked"})
    for line in (f"capex_{c}" for c in CAPEX_CLASSES):
        r = row_of[line]
        ch.add_series(
            {
                "name": chart_text(METRICS[line].label),
                "categories": ["Comparison", 2, 2, 2, 1 + n],
                "values": ["Comparison", r, 2, r, 1 + n],
            }
        )
    # every chart text goes through chart_text: XlsxWriter reads text that looks like
    # a cell reference (a currency "+cmd|' /C calc'!A0") as a formula
    ch.set_title({"name": chart_text("Capex breakdown per tier")})
    ch.set_y_axis({"num_format": "#,##0", "name": chart_text(model.assumptions.currency)})
    ch.set_size({"width": 620, "height": 360})
    ws.insert_chart(at, 0, ch)
    # cumulative cash flow: one panel per tier on its own scale (the largest tier would
    # flatten the others), month labels at the bottom, clear of the lines
    for j, cs in enumerate(sheets.values()):
        lc = wb.add_chart({"type": "line"})
        r, mr = cs.rows["cum_fcf"], cs.rows["month"]
        lc.add_series(
            {
                "name": ["Comparison", 2, 2 + j],  # the tier's name as text, never a reference
                "categories": [cs.name, mr, 5, mr, 5 + model.months],
                "values": [cs.name, r, 5, r, 5 + model.months],
            }
        )
        lc.set_title({"name": chart_text(f"Cumulative free cash flow: {tiers[j]}")})
        lc.set_x_axis({"name": chart_text("month"), "interval_unit": 12, "label_position": "low"})
        lc.set_y_axis(
            {"num_format": '#,##0.0,,"M"', "name": chart_text(model.assumptions.currency)}
        )
        lc.set_legend({"none": True})
        lc.set_size({"width": 420, "height": 300})
        ws.insert_chart(at + 50 + 16 * j, 0, lc)
    _opex_chart(wb, ws, model, sheets, row_of, at + 20)


def _opex_chart(
    wb: Workbook, ws, model: Model, sheets: dict[str, CalcSheet], row_of: dict[str, int], at: int
) -> None:
    """Opex of each tier's first full operating year by line item (methodology §4:
    the year of the Comparison row ``opex_full_year_number``, not year 1, which for a
    tier still under construction is mostly payroll) as stacked columns, from a
    block of SUMIFS over the tier sheets at row ``at``; the categories name the year."""
    tiers, n = list(sheets), len(sheets)
    summary = model.summary()
    years = model.months // 12
    bold = wb.add_format({"bold": True})
    ws.write_string(
        at, 0, "Opex of the first full operating year by line item (for the chart)", bold
    )
    year_cell = {
        t: xl_rowcol_to_cell(row_of["opex_full_year_number"], 2 + j) for j, t in enumerate(tiers)
    }
    for j, t in enumerate(tiers):
        y = summary.loc[t, "opex_full_year_number"]
        name = xl_rowcol_to_cell(2, 2 + j, row_abs=True)
        yc = year_cell[t]
        shown = f"{t} (no full year)" if is_empty(y) else f"{t} (year {int(y)})"
        ws.write_formula(
            at + 1,
            2 + j,
            f'=IF(ISNUMBER({yc}),{name}&" (year "&{yc}&")",{name}&" (no full year)")',
            bold,
            shown,
        )
    money = wb.add_format({"num_format": "#,##0"})
    oc = wb.add_chart({"type": "column", "subtype": "stacked"})
    for i, line in enumerate(OPEX_LINES):
        r = at + 2 + i
        ws.write_string(r, 0, f"opex: {line}, first full operating year", wb.add_format({}))
        for j, (t, cs) in enumerate(sheets.items()):
            y = summary.loc[t, "opex_full_year_number"]
            full = not is_empty(y) and int(y) <= years
            v = float(model.rows(t).annual_sums(line)[int(y)]) if full else ""
            rows = f"{cs.ref(line, ':', sheet=True)},{cs.ref('year', ':', sheet=True)}"
            sumifs = f"SUMIFS({rows},{year_cell[t]})"
            ws.write_formula(r, 2 + j, f'=IF(ISNUMBER({year_cell[t]}),{sumifs},"")', money, v)
        oc.add_series(
            {
                "name": chart_text(line),
                "categories": ["Comparison", at + 1, 2, at + 1, 1 + n],
                "values": ["Comparison", r, 2, r, 1 + n],
            }
        )
    oc.set_title({"name": chart_text("Opex in the first full operating year by line item")})
    oc.set_y_axis({"num_format": "#,##0"})
    oc.set_size({"width": 620, "height": 360})
    ws.insert_chart(at + 10, 0, oc)
