"""The memo's price x utilization grid (methodology §9.2): a table per tier,
cells shaded by sign, the contour drawn, one sentence per tier with the
break-even prices (en and zh)."""

from __future__ import annotations

import re

import pytest

from costmodel.analysis.breakeven import break_even
from costmodel.analysis.pricegrid import price_utilization_grid


@pytest.fixture(scope="module")
def grid(model):
    return price_utilization_grid(model.assumptions)


def _table(html: str, tier: str) -> str:
    m = re.search(rf'<table class="pugrid" data-tier="{tier}">(.*?)</table>', html, re.S)
    assert m, tier
    return m.group(1)


def _sentence(html: str, tier: str) -> str:
    m = re.search(rf'<p data-grid="{tier}">(.*?)</p>', html, re.S)
    assert m, tier
    return re.sub(r"<[^>]+>", "", m.group(1)).replace("\xa0", " ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memo_grid_tables_shade_by_sign_and_draw_the_contour(memos, model, grid, lang):
    html = memos[lang]
    for tier in model.tiers:
        g = grid[grid["tier"] == tier]
        body = _table(html, tier)
        cells = re.findall(r'<td class="num (pos|neg)([^"]*)">', body)
        assert len(cells) == len(g) == 49
        assert sum(c[0] == "pos" for c in cells) == int((g["npv"] > 0).sum()) > 0
        assert sum("edge-top" in c[1] for c in cells) == int(g["edge_price"].sum()) > 0
        assert sum("edge-right" in c[1] for c in cells) == int(g["edge_utilization"].sum())
        assert sum(" base" in c[1] for c in cells) == 1


def test_memo_grid_sentences_give_the_break_even_prices(memos, model, grid):
    """Per tier: the grid's break-even price at the base utilization when the grid's
    prices reach it (else that no grid price breaks even below the lowest utilization that
    can), and the one at the highest utilization."""
    be = break_even(model.assumptions)
    for tier in model.tiers:
        g = grid[grid["tier"] == tier]
        # the grid's prices are the input's (a quote as written); the memo states them
        # as sold in year 1: rolled from the quote's month to the start, times the
        # site's factor (methodology §29, §30)
        v = model.inputs[tier].values()
        k = (1 - v["price_decline"]) ** (v.get("spot_roll_months", 0) / 12) * v["price_factor"]
        base = model.inputs[tier].values()["utilization"]
        at_base = f"{base * 100:.1f}%"
        exact = float(be.loc[tier, "price_per_gpu_hour"])  # at the base utilization
        top_price = float(g["price_per_gpu_hour"].max())
        sold_top = top_price * k
        # the highest utilization of the tier's range (its own, or the global one)
        own = model.assumptions.tiers[tier].operations
        u = own.utilization if own is not None and own.utilization is not None else None
        high = (u or model.assumptions.operations.utilization).high
        at_high = g[g["utilization"] == high]
        top = float(at_high["break_even_price"].iloc[0]) * k
        en, zh = _sentence(memos["en"], tier), _sentence(memos["zh"], tier)
        if exact <= top_price:
            # the grid's price: interpolated linearly between the two grid prices
            # around the root, so near the exact break-even (not equal: NPV is not
            # linear in the price where tax losses are carried forward)
            p = float(g.loc[g["utilization"] == base, "break_even_price"].iloc[0])
            assert p == pytest.approx(exact, rel=5e-3)
            p *= k
            assert f"CNY {p:.2f}/GPU\u2011h at {at_base}" in en, en
            assert f"利用率 {at_base} 时为 {p:.2f} 元/卡时" in zh, zh
        else:  # beyond the grid's prices at the base utilization
            lowest = float(g.loc[g["break_even_price"].notna(), "utilization"].min())
            assert lowest > base
            assert f"at {at_base}" not in en.split("(it assumes")[0], en
            assert (
                f"Below {lowest * 100:.1f}% utilization no price up to "
                f"CNY {sold_top:.2f}/GPU\u2011h breaks even"
            ) in en, en
            assert (
                f"利用率低于 {lowest * 100:.1f}% 时，价格达到 {sold_top:.2f} 元/卡时仍无法"
            ) in zh, zh
        assert f"CNY {top:.2f}/GPU\u2011h at {high * 100:.1f}% utilization" in en, en
        assert f"利用率 {high * 100:.1f}% 时为 {top:.2f} 元/卡时" in zh, zh
        assert not re.search(r"[A-Za-z]{2,}", re.sub(r"H200|GPU", "", zh)), zh
