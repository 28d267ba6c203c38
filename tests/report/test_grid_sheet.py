"""The workbook's Grid sheet (methodology §9.2): cached engine values, marked as
such, shaded by sign, the contour drawn; the base cell is the tier's NPV."""

from __future__ import annotations

import pytest


def _blocks(ws):
    """tier -> (utilizations, {price: [cells]}) read back from the sheet."""
    out, tier, utils = {}, None, None
    for row in ws.iter_rows(min_row=6):
        first = row[0].value
        if isinstance(first, str) and first.startswith("year-1 price"):
            utils = [c.value for c in row[1:] if c.value is not None]
        elif isinstance(first, str) and first.startswith("break-even"):
            tier = None
        elif isinstance(first, str):
            tier = first.split(" ")[0]
            out[tier] = ({}, None)
        elif isinstance(first, int | float) and tier:
            out[tier][0][float(first)] = row[1 : 1 + len(utils)]
            out[tier] = (out[tier][0], utils)
    return out


def test_grid_sheet_is_marked_cached_and_holds_the_grid(model, analysed_workbook):
    analysis, _, wb = analysed_workbook
    ws = wb["Grid"]
    assert "Cached engine values, not formulas" in ws["A2"].value
    grid = analysis.grid
    npv = model.summary()["npv"]
    blocks = _blocks(ws)
    assert list(blocks) == list(model.tiers)
    for tier, (rows, utils) in blocks.items():
        g = grid[grid["tier"] == tier]
        assert len(rows) * len(utils) == len(g) == 49
        for _, r in g.iterrows():
            price = min(rows, key=lambda p: abs(p - r["price_per_gpu_hour"]))
            j = min(range(len(utils)), key=lambda k: abs(utils[k] - r["utilization"]))
            assert price == pytest.approx(r["price_per_gpu_hour"], rel=1e-12)
            assert utils[j] == pytest.approx(r["utilization"], rel=1e-12)
            c = rows[price][j]
            assert c.value == pytest.approx(r["npv"], rel=1e-12)
            want_fill = "C6EFCE" if r["npv"] > 0 else "FFC7CE"
            assert c.fill.fgColor.rgb.endswith(want_fill)
            assert (c.border.top.style == "thick") == bool(r["edge_price"])
            assert (c.border.right.style == "thick") == bool(r["edge_utilization"])
            if r["base"]:
                assert c.value == pytest.approx(npv[tier], rel=1e-9)
        assert any(c.border.top.style == "thick" for cs in rows.values() for c in cs)
