"""Statements that must follow the model: the cumulative cash-flow caption names the
terminal value the model counts (book, market or none), and the Cover's timing line
does not claim that all capex falls at month 0 (capex is staged by construction and
deployments)."""

from __future__ import annotations

import re

import pytest

import costmodel as cm
from costmodel.report.memo.render import render_memo
from costmodel.report.workbook.cover import CONVENTIONS, conventions


def caption(page: str) -> str:
    start = page.index('id="fig-cash"')
    return re.search(r"<figcaption>(.*?)</figcaption>", page[start:], re.S).group(1)


@pytest.mark.parametrize(
    "mode, en, zh",
    [
        ("book", "net book value at the end", "期末账面净值"),
        ("market", "market value at the end", "期末市场价值"),
        ("none", "no value is counted", "期末不计设备残值"),
    ],
)
def test_cash_caption_follows_the_terminal_value_mode(mode, en, zh):
    m = cm.build(cm.load_assumptions(overrides={"terminal_value": mode}))
    assert m.assumptions.terminal_value == mode
    page_en, page_zh = render_memo(m, "en"), render_memo(m, "zh")
    assert en in caption(page_en) and zh in caption(page_zh)
    others = {"book": "net book value", "market": "market value", "none": "no value"}
    for other, words in others.items():
        if other != mode:
            assert words not in caption(page_en), (mode, other)


def test_cover_timing_is_true_to_staged_capex(model):
    timing = dict(CONVENTIONS)["Timing"]
    assert "all capex" not in timing and "months it is paid" in timing
    capex = model.annual("hundreds")["capex"]
    assert (capex.iloc[1:] > 0).any()  # staged: capex after month 0 exists


def test_cover_lists_only_the_sheets_there():
    line = dict(conventions(["Cover", "Inputs", "a", "b", "Annual", "Checks"], ["a", "b"]))
    assert (
        line["Sheets"]
        == "Cover > Inputs > one calculation sheet per tier (a, b) > Annual > Checks."
    )
    assert "Scenarios" not in line["Sheets"]
