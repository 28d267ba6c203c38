"""The workbook's "Study" sheet: P(NPV > 0) by site and GPU count (methodology §34).

The cells are **cached results of the simulation, not live formulas**: each is the
share of a cell's Monte Carlo draws with NPV above zero, from
:func:`costmodel.analysis.study.study`, which no sheet of formulas can redo. The
sheet says so at its top and carries the stale mark of the other engine-result
sheets. The grid of P(NPV > 0) (sites down, GPU counts across) has a three-colour
scale (red at 0, white at 0.5, green at 1: conditional formatting, so it follows
an edited value), the best cells framed and named below it; a second table lists
every cell with its P10/P50/P90 NPV, mean cost per GPU-hour and feasibility.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xlsxwriter.workbook import Workbook

from costmodel.analysis.study import OWN_SITE
from costmodel.report.workbook.grid import Styles
from costmodel.report.workbook.results import ENGINE, banner

if TYPE_CHECKING:
    from costmodel.analysis.study import StudyResult

SHEET = "Study"
BEST_BORDER = 5  # xlsxwriter border style: thick
#: the per-cell table: (column, header, format kind)
TABLE = [
    ("npv_p10", "NPV P10", "money"),
    ("npv_p50", "NPV P50", "money"),
    ("npv_p90", "NPV P90", "money"),
    ("p_npv_positive", "P(NPV > 0)", "pct"),
    ("cost_per_gpu_hour_mean", "mean cost per GPU-hour", "money2"),
    ("npv_base", "NPV as assumed", "money"),
]


def study_labels(a: Any, res: StudyResult) -> dict[str, str]:
    """Site -> its readable name: the catalogue's ``label``, else its key; the
    study's implicit site (no ``sites``) as "the assumed site"."""
    out = {}
    for site in res.sites:
        entry = (getattr(a, "sites", None) or {}).get(site)
        label = getattr(entry, "label", None) if entry is not None else None
        out[site] = "the assumed site" if site == OWN_SITE else str(label or site)
    return out


def write_study_sheet(
    wb: Workbook,
    st: Styles,
    res: StudyResult,
    labels: dict[str, str],
    currency: str = "CNY",
    fingerprint: str = "",
) -> tuple[int, int]:
    """The "Study" sheet (``labels``: site -> its readable name). Returns the (row,
    column) of the grid's first cell."""
    ws = wb.add_worksheet(SHEET)
    ws.set_column(0, 0, 34)
    ws.set_column(1, max(len(res.gpus), len(TABLE) + 3), 13)
    r = banner(
        ws,
        st,
        f"Study of {res.tier}: P(NPV > 0) by site and GPU count",
        f"Cached results of the simulation, not live formulas: each cell is the share of "
        f"{res.n:,} Monte Carlo draws (seed {res.seed}, the same draws of every ranged input "
        "in every cell) with NPV above zero for the tier rebuilt at that site and GPU count, "
        "computed by the engine when this file was written. Colour: red at 0%, white at 50%, "
        "green at 100%; a thick border marks the best cell by P(NPV > 0) and by median NPV.",
        fingerprint,
    )
    ws.write_string(r, 0, "site \\ GPUs", st.header)
    for j, g in enumerate(res.gpus):
        ws.write_number(r, j + 1, int(g), st.cell("count", ENGINE))
    first = r + 1
    cells = res.cells.set_index(["site", "gpus"])
    best = {res.best_probability, res.best_median} - {None}
    plain = st.cell("pct", ENGINE)
    framed = wb.add_format(
        {"num_format": "0.0%", "font_color": ENGINE, "bold": True, "border": BEST_BORDER}
    )
    for i, site in enumerate(res.sites):
        ws.write_string(first + i, 0, labels[site], st.text)
        for j, g in enumerate(res.gpus):
            row = cells.loc[(site, g)]
            if not bool(row["feasible"]):
                ws.write_string(first + i, j + 1, "infeasible", st.text)
                continue
            fmt = framed if (site, g) in best else plain
            ws.write_number(first + i, j + 1, float(row["p_npv_positive"]), fmt)
    last = first + len(res.sites) - 1
    ws.conditional_format(
        first,
        1,
        last,
        len(res.gpus),
        {
            "type": "3_color_scale",
            "min_type": "num",
            "min_value": 0,
            "min_color": "#F8696B",
            "mid_type": "num",
            "mid_value": 0.5,
            "mid_color": "#FFFFFF",
            "max_type": "num",
            "max_value": 1,
            "max_color": "#63BE7B",
        },
    )
    r = last + 2
    for key, what in ((res.best_probability, "P(NPV > 0)"), (res.best_median, "median NPV")):
        if key is None:
            continue
        row = cells.loc[key]
        ws.write_string(r, 0, f"best by {what}", st.label_bold)
        ws.write_string(r, 1, f"{labels[key[0]]}, {key[1]:,} GPUs", st.text)
        ws.write_number(r, 4, float(row["p_npv_positive"]), st.cell("pct", ENGINE))
        ws.write_number(r, 5, float(row["npv_p50"]), st.cell("money", ENGINE))
        r += 1
    r += 1
    r = _table(ws, st, res, labels, r, currency)
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    return first, 1


def _table(ws: Any, st: Styles, res: StudyResult, labels: dict[str, str], r: int, cur: str) -> int:
    """Every cell's figures from row ``r``; returns the next free row."""
    heads = ["site", "GPUs", *(h for _, h, _ in TABLE), "feasible", "best"]
    for j, h in enumerate(heads):
        ws.write_string(r, j, h if "NPV" not in h or "P(" in h else f"{h} ({cur})", st.header)
    r += 1
    for _, row in res.cells.iterrows():
        ws.write_string(r, 0, labels[str(row["site"])], st.text)
        ws.write_number(r, 1, int(row["gpus"]), st.cell("count", ENGINE))
        for j, (c, _, kind) in enumerate(TABLE):
            v = float(row[c])
            if v == v:
                ws.write_number(r, j + 2, v, st.cell(kind, ENGINE))
            else:
                ws.write_string(r, j + 2, "-", st.text)
        reason = str(row["infeasible_reason"])
        ws.write_string(r, len(TABLE) + 2, "yes" if row["feasible"] else f"no: {reason}", st.text)
        best = str(row["best"]).replace("p_npv_positive", "P(NPV > 0)")
        ws.write_string(r, len(TABLE) + 3, best.replace("npv_p50", "median NPV"), st.text)
        r += 1
    return r + 1
