"""The net book value corkscrew of an asset class on a tier sheet."""

from __future__ import annotations

from costmodel.report.workbook.tiercontext import Tier


def book_value(x: Tier, cls: str) -> None:
    """Opening + additions - depreciation = closing, by month, and the book value
    above the salvage of what was bought (the Checks sheet flags it below 0)."""
    cs, r = x.cs, x.r
    dep = r.depreciation[cls][0]
    added = r.capex_months[cls][0]
    book = x.model.rows(x.tier).book_value(cls)
    opening, close = book["open"], book["close"]
    cs.reserve(f"nbv_open_{cls}", f"nbv_add_{cls}", f"nbv_less_{cls}", f"nbv_close_{cls}")
    rows = (
        ("open", "net book value, opening", f"={{nbv_close_{cls}<}}", opening, False),
        ("add", "additions (capex)", f"={{capex_{cls}_t}}", added, False),
        ("less", "less depreciation", f"={{dep_{cls}}}", dep, False),
        (
            "close",
            "net book value, closing",
            f"={{nbv_open_{cls}}}+{{nbv_add_{cls}}}-{{nbv_less_{cls}}}",
            close,
            True,
        ),
    )
    for key, label, formula, values, bold in rows:
        cs.series(f"nbv_{key}_{cls}", f"{cls}: {label}", x.cur, formula, values, bold=bold)
    floor = book["above_salvage"]
    cs.series(
        f"nbv_above_{cls}",
        f"{cls}: book value above the salvage of what was bought",
        x.cur,
        f"={{nbv_close_{cls}}}-SUM({{capex_{cls}_t@0}}:{{capex_{cls}_t}})*dep_{cls}_salvage",
        floor,
    )
