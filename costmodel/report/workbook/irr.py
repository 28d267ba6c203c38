"""The workbook's IRR sheet: the engine's bracketing IRR solver as live formulas,
for each tier's free cash flow and equity cash flow (``fcf`` and ``ecf`` rows).

Spreadsheet ``IRR`` iterates Newton's method from a guess and fails (or finds
another root) on cash flows whose NPV is not monotonic, which this model
produces (late months with opex above revenue, then the terminal value). So,
per tier, as :func:`costmodel.core.finance.irr_monthly` does:

1. NPV at each rate of a fixed grid of monthly rates (dense near 0):
   ``FCF_0 + NPV(rate, FCF_1..FCF_M)``;
2. every change of sign between neighbours from positive (lower rate) to negative
   or 0 (higher rate) brackets an IRR (methodology §11.2; a root where NPV rises
   through 0 is none); take the bracket nearest 0 (``MATCH(MIN(distance))``); the
   sign changes of either direction count the roots in the range;
3. bisect it: ``BISECT_STEPS`` halvings, keeping the end whose NPV sign is the
   lower end's;
4. the Comparison sheet then polishes the result with ``IRR(FCF, start)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xlsxwriter.utility import xl_col_to_name, xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook

from costmodel.inputs.model import Model
from costmodel.report.workbook.grid import BLACK, CalcSheet, Styles, protect

SHEET = "IRR"
BISECT_STEPS = 64
#: a cash flow searched: (tier, row key of the tier sheet: "fcf" or "ecf")
Flow = tuple[str, str]
FLOWS = ("fcf", "ecf")


#: an NPV of the grid from this magnitude on is written in scientific notation
#: (``#,##0`` of 1e11 is 15 characters, the width of the sheet's columns)
SCI_FROM = 1e11


def title(f: Flow) -> str:
    return f[0] if f[1] == "fcf" else f"{f[0]} (equity)"


@dataclass
class Layout:
    """Where the IRR sheet's parts sit: the grid's first row ``r0`` and size ``G``,
    the NPV and bracket column per cash flow ``(tier, row key)``, the bisection rows."""

    ws: Any
    st: Styles
    sheets: dict[Flow, CalcSheet]
    trace: dict[Flow, Any]
    r0: int = 4
    col_npv: dict[Flow, int] = field(default_factory=dict)
    col_br: dict[Flow, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    step0: int = 0

    @property
    def G(self) -> int:
        return next(iter(self.trace.values())).grid.size

    @property
    def rate_rng(self) -> str:
        return f"$B${self.r0 + 1}:$B${self.r0 + self.G}"


LABELS = (
    "roots in range (sign changes of NPV, either way)",
    "IRR brackets (NPV positive below, not above)",
    "smallest distance to 0 of a bracket",
    "chosen interval (1-based)",
    "lower end",
    "upper end",
    "sign of NPV at the lower end",
)


def write_irr_sheet(
    wb: Workbook, st: Styles, model: Model, tier_sheets: dict[str, CalcSheet]
) -> dict[Flow, str]:
    """Write the sheet; return, per (tier, flow), the cell holding the monthly IRR
    start (or an empty string where no root exists)."""
    ws = wb.add_worksheet(SHEET)
    sheets = {(t, k): cs for k in FLOWS for t, cs in tier_sheets.items()}
    tiers = list(sheets)
    traces = {f: model.irr_trace(f[0], BISECT_STEPS, f[1]) for f in tiers}
    L = Layout(ws, st, sheets, traces)
    ws.set_column(0, 0, 44)
    ws.set_column(1, 1, 14)
    ws.set_column(2, 2 + 3 * len(tiers), 15)
    ws.write_string(
        0, 0, "IRR: bracketing solver (grid scan, then bisection), per tier and cash flow", st.title
    )
    ws.write_string(
        1,
        0,
        "Spreadsheet IRR needs a good start on these cash flows; this sheet finds the root "
        "nearest 0 the way the engine does.",
        st.text,
    )
    _grid(L)
    r = L.r0 + L.G + 1
    ws.write_string(r, 0, "bisection of the bracket nearest 0", st.h1)
    r += 1
    for k, label in enumerate(LABELS):
        ws.write_string(r + k, 0, label, st.label)
        L.rows[label] = r + k
    L.step0 = r + len(LABELS) + 1
    ws.write_string(L.step0 - 1, 0, "step", st.header)
    out = {t: _bisect(L, j, t) for j, t in enumerate(tiers)}
    ws.freeze_panes(L.r0, 2)
    protect(ws)
    ws.set_landscape()  # print: A4, one page wide, the headings on every page
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    ws.repeat_rows(L.r0 - 1)
    return out


def _grid(L: Layout) -> None:
    """NPV of each tier at each grid rate, and each interval's distance to 0 where
    NPV changes sign across it."""
    ws, st, tiers = L.ws, L.st, list(L.sheets)
    head = L.r0 - 1
    ws.write_string(head, 0, "grid of monthly rates", st.header)
    ws.write_string(head, 1, "rate", st.header)
    L.col_npv = {t: 2 + j for j, t in enumerate(tiers)}
    L.col_br = {t: 2 + len(tiers) + j for j, t in enumerate(tiers)}
    dist_col = 2 + 2 * len(tiers)
    for t in tiers:
        ws.write_string(head, L.col_npv[t], f"NPV: {title(t)}", st.header)
        ws.write_string(head, L.col_br[t], f"bracket distance: {title(t)}", st.header)
    ws.write_string(head, dist_col, "distance of interval to 0", st.header)
    first = L.trace[tiers[0]]
    flows = {
        t: (cs.ref(t[1], "@0", sheet=True), cs.ref(t[1], ":1", sheet=True))
        for t, cs in L.sheets.items()
    }
    factor = st.cell("factor", BLACK)
    money, sci = st.cell("money", BLACK), st.cell("money_sci", BLACK)
    for i, g in enumerate(first.grid):
        r = L.r0 + i
        ws.write_number(r, 1, float(g), factor)
        rate = xl_rowcol_to_cell(r, 1)
        for t, (f0, f1) in flows.items():
            npv = float(L.trace[t].npv[i])
            # the NPV explodes at rates near -100%: a value too wide for its column
            # in scientific notation, so that a printed sheet shows no ###
            look = sci if abs(npv) >= SCI_FROM else money
            ws.write_formula(r, L.col_npv[t], f"={f0}+NPV({rate},{f1})", look, npv)
    # brackets over intervals i = 0..G-2 (written on the interval's lower row)
    for i in range(L.G - 1):
        r = L.r0 + i
        a, b = xl_rowcol_to_cell(r, 1), xl_rowcol_to_cell(r + 1, 1)
        ws.write_formula(
            r,
            dist_col,
            f"=IF(AND({a}<=0,{b}>=0),0,MIN(ABS({a}),ABS({b})))",
            factor,
            float(first.distance[i]),
        )
        d = xl_rowcol_to_cell(r, dist_col)
        for t in tiers:
            fa = xl_rowcol_to_cell(r, L.col_npv[t])
            fb = xl_rowcol_to_cell(r + 1, L.col_npv[t])
            # the interval's distance to 0 where NPV falls through 0 across it, else empty
            f = f'=IF(AND({fa}>0,{fb}<=0),{d},"")'
            value = float(first.distance[i]) if L.trace[t].bracketed[i] else ""
            ws.write_formula(r, L.col_br[t], f, factor, value)


def _bisect(L: Layout, j: int, t: Flow) -> str:
    """Tier ``t``'s chosen bracket, its bisection and the start for IRR; returns
    the start's cell."""
    ws, st, tr = L.ws, L.st, L.trace[t]
    c_lo, c_hi = 2 + 2 * j, 3 + 2 * j
    ws.write_string(L.step0 - 1, c_lo, f"low: {title(t)}", st.header)
    ws.write_string(L.step0 - 1, c_hi, f"high: {title(t)}", st.header)
    br_rng = f"${_c(L.col_br[t])}${L.r0 + 1}:${_c(L.col_br[t])}${L.r0 + L.G - 1}"
    n_br = int(tr.bracketed.sum())
    cell = {label: xl_rowcol_to_cell(L.rows[label], c_lo) for label in LABELS}
    cnt, sc, chosen = (cell[k] for k in LABELS[1:4])
    npv = _c(L.col_npv[t])
    lower = f"${npv}${L.r0 + 1}:${npv}${L.r0 + L.G - 1}"
    upper = f"${npv}${L.r0 + 2}:${npv}${L.r0 + L.G}"
    cs = L.sheets[t]
    f0, f1 = cs.ref(t[1], "@0", sheet=True), cs.ref(t[1], ":1", sheet=True)
    lo_cell = xl_rowcol_to_cell(L.rows["lower end"], c_lo, row_abs=True, col_abs=True)
    rows = (
        # comparisons, not SIGN(): Gnumeric applies a function to a range only in an
        # array formula
        (
            LABELS[0],
            f"=SUMPRODUCT(({lower}>0)*({upper}<0)+({lower}<0)*({upper}>0))",
            tr.roots,
            "count",
        ),
        (LABELS[1], f"=COUNT({br_rng})", n_br, "count"),
        (
            "smallest distance to 0 of a bracket",
            f"=IF({cnt}=0,0,MIN({br_rng}))",
            float(tr.distance[tr.chosen]) if n_br else 0.0,
            "factor",
        ),
        (
            "chosen interval (1-based)",
            f"=IF({cnt}=0,1,MATCH({sc},{br_rng},0))",
            tr.chosen + 1,
            "count",
        ),
        ("lower end", f"=INDEX({L.rate_rng},{chosen})", float(tr.lo[0]), "factor"),
        ("upper end", f"=INDEX({L.rate_rng},{chosen}+1)", float(tr.hi[0]), "factor"),
        ("sign of NPV at the lower end", f"=SIGN({f0}+NPV({lo_cell},{f1}))", tr.sign_lo, "flag"),
    )
    for label, formula, value, kind in rows:
        ws.write_formula(L.rows[label], c_lo, formula, st.cell(kind, BLACK), value)
    last = _steps(L, j, t, c_lo, c_hi, f0, f1)
    res_row = last + 2
    if j == 0:
        ws.write_string(
            res_row, 0, "monthly IRR start for the Comparison sheet (empty: no root)", st.header
        )
    ws.write_formula(
        res_row,
        c_lo,
        f'=IF({cnt}=0,"",({xl_rowcol_to_cell(last, c_lo)}+{xl_rowcol_to_cell(last, c_hi)})/2)',
        st.cell("factor", BLACK),
        tr.start if n_br else "",
    )
    return f"{SHEET}!{xl_rowcol_to_cell(res_row, c_lo, row_abs=True, col_abs=True)}"


def _steps(L: Layout, j: int, t: Flow, c_lo: int, c_hi: int, f0: str, f1: str) -> int:
    """The bisection: each step keeps the half whose lower end's NPV sign is the
    bracket's; returns the last step's row."""
    ws, st, tr = L.ws, L.st, L.trace[t]
    lo_cell = xl_rowcol_to_cell(L.rows["lower end"], c_lo, row_abs=True, col_abs=True)
    hi_cell = xl_rowcol_to_cell(L.rows["upper end"], c_lo, row_abs=True, col_abs=True)
    s_cell = xl_rowcol_to_cell(
        L.rows["sign of NPV at the lower end"], c_lo, row_abs=True, col_abs=True
    )
    fmt = st.cell("factor", BLACK)
    for k in range(BISECT_STEPS + 1):
        lo, hi = float(tr.lo[k]), float(tr.hi[k])
        rr = L.step0 + k
        if j == 0:
            ws.write_number(rr, 0, k, st.cell("count", BLACK))
        if k == 0:
            ws.write_formula(rr, c_lo, f"={lo_cell}", fmt, lo)
            ws.write_formula(rr, c_hi, f"={hi_cell}", fmt, hi)
            continue
        pl, ph = xl_rowcol_to_cell(rr - 1, c_lo), xl_rowcol_to_cell(rr - 1, c_hi)
        mid = f"({pl}+{ph})/2"
        same = f"SIGN({f0}+NPV({mid},{f1}))={s_cell}"
        ws.write_formula(rr, c_lo, f"=IF({same},{mid},{pl})", fmt, lo)
        ws.write_formula(rr, c_hi, f"=IF({same},{ph},{mid})", fmt, hi)
    return L.step0 + BISECT_STEPS


def _c(col: int) -> str:
    return xl_col_to_name(col)
