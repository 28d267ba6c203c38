"""The workbook's IRR sheet: the engine's bracketing IRR solver as live formulas.

Spreadsheet ``IRR`` iterates Newton's method from a guess and fails (or finds
another root) on cash flows whose NPV is not monotonic, which this model
produces (late months with opex above revenue, then the terminal value). So,
per tier, as :func:`costmodel.core.finance.irr_monthly` does:

1. NPV at each rate of a fixed grid of monthly rates (dense near 0):
   ``FCF_0 + NPV(rate, FCF_1..FCF_M)``;
2. every sign change between neighbours brackets a root; take the bracket
   nearest 0 (``MATCH(MIN(distance))``);
3. bisect it: ``BISECT_STEPS`` halvings, keeping the end whose NPV sign is the
   lower end's;
4. the Comparison sheet then polishes the result with ``IRR(FCF, start)``.
"""

from __future__ import annotations

from xlsxwriter.utility import xl_col_to_name, xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook

from costmodel.core.model import Model
from costmodel.report.workbook.grid import BLACK, CalcSheet, Styles, protect

SHEET = "IRR"
BISECT_STEPS = 64


def write_irr_sheet(
    wb: Workbook, st: Styles, model: Model, sheets: dict[str, CalcSheet]
) -> dict[str, str]:
    """Write the sheet; return, per tier, the cell holding the monthly IRR start
    (or an empty string where no root exists)."""
    ws = wb.add_worksheet(SHEET)
    tiers = list(sheets)
    trace = {t: model.irr_trace(t, BISECT_STEPS) for t in tiers}
    grid = trace[tiers[0]].grid
    G = grid.size
    ws.set_column(0, 0, 44)
    ws.set_column(1, 1, 14)
    ws.set_column(2, 2 + 3 * len(tiers), 15)
    ws.write_string(0, 0, "IRR: bracketing solver (grid scan, then bisection), per tier", st.title)
    ws.write_string(
        1,
        0,
        "Spreadsheet IRR needs a good start on these cash flows; this sheet finds the root "
        "nearest 0 the way the engine does.",
        st.text,
    )
    head = 3
    ws.write_string(head, 0, "grid of monthly rates", st.header)
    ws.write_string(head, 1, "rate", st.header)
    npv = {t: trace[t].npv for t in tiers}
    col_npv = {t: 2 + j for j, t in enumerate(tiers)}
    col_br = {t: 2 + len(tiers) + j for j, t in enumerate(tiers)}
    dist_col = 2 + 2 * len(tiers)
    for t in tiers:
        ws.write_string(head, col_npv[t], f"NPV: {t}", st.header)
        ws.write_string(head, col_br[t], f"bracket distance: {t}", st.header)
    ws.write_string(head, dist_col, "distance of interval to 0", st.header)
    r0 = head + 1
    for i, g in enumerate(grid):
        r = r0 + i
        ws.write_number(r, 1, float(g), st.cell("factor", BLACK))
        rate = xl_rowcol_to_cell(r, 1)
        for t, cs in sheets.items():
            f = f"={cs.ref('fcf', '@0', sheet=True)}+NPV({rate},{cs.ref('fcf', ':1', sheet=True)})"
            ws.write_formula(r, col_npv[t], f, st.cell("money", BLACK), float(npv[t][i]))
    # brackets over intervals i = 0..G-2 (written on the interval's lower row)
    dist = trace[tiers[0]].distance
    bracket = {t: trace[t].bracketed for t in tiers}
    for i in range(G - 1):
        r = r0 + i
        a, b = xl_rowcol_to_cell(r, 1), xl_rowcol_to_cell(r + 1, 1)
        ws.write_formula(
            r,
            dist_col,
            f"=IF(AND({a}<=0,{b}>=0),0,MIN(ABS({a}),ABS({b})))",
            st.cell("factor", BLACK),
            float(dist[i]),
        )
        d = xl_rowcol_to_cell(r, dist_col)
        for t in tiers:
            fa = xl_rowcol_to_cell(r, col_npv[t])
            fb = xl_rowcol_to_cell(r + 1, col_npv[t])
            # the interval's distance to 0 where NPV changes sign across it, else empty
            f = f'=IF((SIGN({fa})*SIGN({fb})<=0)*(1-({fa}=0)*({fb}=0))=1,{d},"")'
            ws.write_formula(
                r, col_br[t], f, st.cell("factor", BLACK), float(dist[i]) if bracket[t][i] else ""
            )

    # chosen bracket and bisection
    r = r0 + G + 1
    ws.write_string(r, 0, "bisection of the bracket nearest 0", st.h1)
    r += 1
    out: dict[str, str] = {}
    rate_rng = f"$B${r0 + 1}:$B${r0 + G}"
    rows = {}
    labels = [
        "roots bracketed (count)",
        "smallest distance to 0 of a bracket",
        "chosen interval (1-based)",
        "lower end",
        "upper end",
        "sign of NPV at the lower end",
    ]
    for k, label in enumerate(labels):
        ws.write_string(r + k, 0, label, st.label)
        rows[label] = r + k
    step0 = r + len(labels) + 1
    ws.write_string(step0 - 1, 0, "step", st.header)
    for j, t in enumerate(tiers):
        c_lo, c_hi = 2 + 2 * j, 3 + 2 * j
        ws.write_string(step0 - 1, c_lo, f"low: {t}", st.header)
        ws.write_string(step0 - 1, c_hi, f"high: {t}", st.header)
        br_rng = f"${_c(col_br[t])}${r0 + 1}:${_c(col_br[t])}${r0 + G - 1}"
        n_br = int(bracket[t].sum())
        idx = trace[t].chosen
        cnt = xl_rowcol_to_cell(rows["roots bracketed (count)"], c_lo)
        ws.write_formula(
            rows["roots bracketed (count)"],
            c_lo,
            f"=COUNT({br_rng})",
            st.cell("count", BLACK),
            n_br,
        )
        sc = xl_rowcol_to_cell(rows["smallest distance to 0 of a bracket"], c_lo)
        ws.write_formula(
            rows["smallest distance to 0 of a bracket"],
            c_lo,
            f"=IF({cnt}=0,0,MIN({br_rng}))",
            st.cell("factor", BLACK),
            float(dist[idx]) if n_br else 0.0,
        )
        chosen = xl_rowcol_to_cell(rows["chosen interval (1-based)"], c_lo)
        ws.write_formula(
            rows["chosen interval (1-based)"],
            c_lo,
            f"=IF({cnt}=0,1,MATCH({sc},{br_rng},0))",
            st.cell("count", BLACK),
            idx + 1,
        )
        lo0 = float(trace[t].lo[0])
        hi0 = float(trace[t].hi[0])
        ws.write_formula(
            rows["lower end"], c_lo, f"=INDEX({rate_rng},{chosen})", st.cell("factor", BLACK), lo0
        )
        ws.write_formula(
            rows["upper end"], c_lo, f"=INDEX({rate_rng},{chosen}+1)", st.cell("factor", BLACK), hi0
        )
        cs = sheets[t]
        f0, f1 = cs.ref("fcf", "@0", sheet=True), cs.ref("fcf", ":1", sheet=True)
        lo_cell = xl_rowcol_to_cell(rows["lower end"], c_lo, row_abs=True, col_abs=True)
        sign_lo = trace[t].sign_lo
        ws.write_formula(
            rows["sign of NPV at the lower end"],
            c_lo,
            f"=SIGN({f0}+NPV({lo_cell},{f1}))",
            st.cell("flag", BLACK),
            sign_lo,
        )
        s_cell = xl_rowcol_to_cell(
            rows["sign of NPV at the lower end"], c_lo, row_abs=True, col_abs=True
        )
        for k in range(BISECT_STEPS + 1):
            lo, hi = float(trace[t].lo[k]), float(trace[t].hi[k])
            rr = step0 + k
            if j == 0:
                ws.write_number(rr, 0, k, st.cell("count", BLACK))
            if k == 0:
                ws.write_formula(rr, c_lo, f"={lo_cell}", st.cell("factor", BLACK), lo)
                hi_cell = xl_rowcol_to_cell(rows["upper end"], c_lo, row_abs=True, col_abs=True)
                ws.write_formula(rr, c_hi, f"={hi_cell}", st.cell("factor", BLACK), hi)
                continue
            pl, ph = xl_rowcol_to_cell(rr - 1, c_lo), xl_rowcol_to_cell(rr - 1, c_hi)
            mid = f"({pl}+{ph})/2"
            same = f"SIGN({f0}+NPV({mid},{f1}))={s_cell}"
            ws.write_formula(rr, c_lo, f"=IF({same},{mid},{pl})", st.cell("factor", BLACK), lo)
            ws.write_formula(rr, c_hi, f"=IF({same},{ph},{mid})", st.cell("factor", BLACK), hi)
        last = step0 + BISECT_STEPS
        res_row = last + 2
        if j == 0:
            ws.write_string(
                res_row, 0, "monthly IRR start for the Comparison sheet (empty: no root)", st.header
            )
        value = trace[t].start if n_br else ""
        ws.write_formula(
            res_row,
            c_lo,
            f'=IF({cnt}=0,"",({xl_rowcol_to_cell(last, c_lo)}+{xl_rowcol_to_cell(last, c_hi)})/2)',
            st.cell("factor", BLACK),
            value,
        )
        out[t] = f"{SHEET}!{xl_rowcol_to_cell(res_row, c_lo, row_abs=True, col_abs=True)}"
    ws.freeze_panes(head + 1, 2)
    protect(ws)
    return out


def _c(col: int) -> str:
    return xl_col_to_name(col)
