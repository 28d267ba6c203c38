"""The workbook's "Grid" sheet: NPV per tier on a grid of year-1 price against
utilization (methodology §9.2), with the break-even contour marked.

The cells are **cached engine values, not formulas**: each is a separate engine
evaluation of the whole tier at that price and utilization
(:func:`costmodel.analysis.pricegrid.price_utilization_grid`), which one sheet of
formulas cannot redo. The sheet says so at its top and carries the stale mark of
the other engine-result sheets. Cells are shaded by sign (green NPV > 0, red NPV
<= 0); a thick border is drawn between two cells of different sign (the
contour); the last row of each block is the interpolated break-even price.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from xlsxwriter.workbook import Workbook

from costmodel.report.workbook.grid import NUMBER_FORMATS, Styles
from costmodel.report.workbook.results import ENGINE, banner

POSITIVE_FILL = "#C6EFCE"
NEGATIVE_FILL = "#FFC7CE"
CONTOUR = 5  # xlsxwriter border style: thick


def _cell_format(wb: Workbook, cache: dict, positive: bool, top: bool, right: bool) -> Any:
    """NPV cell: money in grey, filled by sign, a thick top / right border where the
    contour runs."""
    key = (positive, top, right)
    if key not in cache:
        props: dict[str, Any] = {
            "num_format": NUMBER_FORMATS["money"],
            "font_color": ENGINE,
            "bg_color": POSITIVE_FILL if positive else NEGATIVE_FILL,
        }
        if top:
            props["top"] = CONTOUR
        if right:
            props["right"] = CONTOUR
        cache[key] = wb.add_format(props)
    return cache[key]


def _block(wb: Workbook, ws, st: Styles, cache: dict, g: pd.DataFrame, r: int, head: str) -> int:
    """One tier's table from row ``r``: prices down (highest first), utilizations
    across; returns the next free row."""
    utils = sorted(g["utilization"].unique())
    prices = sorted(g["price_per_gpu_hour"].unique(), reverse=True)
    ws.write_string(r, 0, head, st.h1)
    r += 1
    ws.write_string(r, 0, "year-1 price per GPU-hour \\ utilization", st.header)
    for j, u in enumerate(utils):
        ws.write_number(r, j + 1, float(u), st.cell("pct", ENGINE))
    r += 1
    cells = g.set_index(["price_per_gpu_hour", "utilization"])
    for p in prices:
        ws.write_number(r, 0, float(p), st.cell("money2", ENGINE))
        for j, u in enumerate(utils):
            c = cells.loc[(p, u)]
            fmt = _cell_format(
                wb, cache, bool(c["positive"]), bool(c["edge_price"]), bool(c["edge_utilization"])
            )
            ws.write_number(r, j + 1, float(c["npv"]), fmt)
            if c["base"]:
                ws.write_comment(r, j + 1, "base case: equals the tier's NPV on Comparison")
        r += 1
    ws.write_string(r, 0, "break-even price (interpolated)", st.label_bold)
    be = g.groupby("utilization")["break_even_price"].first()
    for j, u in enumerate(utils):
        v = float(be[u])
        if v == v:
            ws.write_number(r, j + 1, v, st.cell("money2", ENGINE))
        else:
            ws.write_string(r, j + 1, "-", st.text)
    return r + 2


def write_grid_sheet(
    wb: Workbook, st: Styles, grid: pd.DataFrame, labels: dict[str, str], fingerprint: str = ""
) -> None:
    """The "Grid" sheet: one block per tier (``labels``: tier -> its readable label)."""
    ws = wb.add_worksheet("Grid")
    ws.set_column(0, 0, 30)
    ws.set_column(1, 12, 14)
    r = banner(
        ws,
        st,
        "Grid: NPV by year-1 price and utilization",
        "Cached engine values, not formulas: each cell is the tier's NPV computed by the engine "
        "when this file was written, at that year-1 price per GPU-hour and utilization, every "
        "other input at its value. Green: NPV > 0; red: NPV <= 0; a thick border marks the "
        "break-even contour (NPV = 0 between the two cells).",
        fingerprint,
    )
    cache: dict = {}
    for tier in dict.fromkeys(grid["tier"]):
        g = grid[grid["tier"] == tier]
        r = _block(wb, ws, st, cache, g, r, labels.get(str(tier), str(tier)))
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
