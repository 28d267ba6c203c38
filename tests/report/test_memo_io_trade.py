"""The IO storm as a trade of storage nodes against goodput (methodology §28.2): one
node more, its write bandwidth and the goodput it buys, worked out here by hand for
tests/data/designs.yaml, and the memo's sentence in English and Chinese whose verdict
the numbers choose."""

from __future__ import annotations

import math
import re

import pytest

import costmodel as cm
from costmodel.analysis.risks import risk_figures
from costmodel.report.memo.render import render_memo
from tests.paths import DATA

DESIGNS = DATA / "designs.yaml"


def waste(servers: float, write_gbps: float) -> float:
    """Section 9 with designs.yaml's reliability: 0.008 failures per server-day, 2 TB
    checkpoints, 0.25 h restarts; at Young's interval the waste is
    sqrt(2 delta / mtbf) + restart / mtbf."""
    mtbf = 24 / (0.008 * servers)
    delta = 2.0 * 1000 / write_gbps / 3600
    return math.sqrt(2 * delta / mtbf) + 0.25 / mtbf


def test_one_more_node_priced_by_hand():
    model = cm.build(cm.load_assumptions(DESIGNS))
    r = risk_figures(model).loc["hundreds"]
    s = model.summary().loc["hundreds"]
    # 128 + 64 GPUs of the hundreds design: writes 0.25 x 192 / 12.5 -> 4 nodes (reads
    # 0.5 x 192 / 25 -> 4, capacity 768 / 500 -> 2, minimum 2): the write bandwidth binds
    assert (r["storage_nodes"], r["storage_binds"]) == (4, 1)
    assert (r["write"], r["write_more"], r["node_price"]) == (50, 62.5, 1_200_000)
    gain = waste(24, 50) - waste(24, 62.5)
    assert r["goodput_more"] - r["goodput"] == pytest.approx(gain, rel=1e-9)
    money = gain * s["gpu_hours"] / 5 * s["cost_per_gpu_hour"]
    assert r["node_more_money"] == pytest.approx(money, rel=1e-9)
    assert r["node_payback_years"] == pytest.approx(1_200_000 / money, rel=1e-9)
    # with a capacity tier the capacity never binds: 1,024 GPUs write 256 / 20 -> 13
    assert risk_figures(model).loc["thousands", "storage_binds"] == 1


def test_the_memo_says_whether_the_node_pays_in_each_language():
    slow = render_memo(cm.build(cm.load_assumptions(DESIGNS)), "en")
    text = re.sub(r"<[^>]+>", "", slow)
    i = text.index("Storage against goodput.")
    first = text[i : i + 600]
    assert "4 storage nodes are sized by their write bandwidth" in first
    assert "62.5 GB/s" in first and "longer than the 5-year horizon" in first
    # a node at CNY 10,000 pays for itself in a fraction of a year
    cheap = {"designs.hundreds.storage.node.price": 10_000}
    model = cm.build(cm.load_assumptions(DESIGNS, overrides=cheap))
    years = risk_figures(model).loc["hundreds", "node_payback_years"]
    assert years < 1
    zh = re.sub(r"<[^>]+>", "", render_memo(model, "zh"))
    i = zh.index("存储与有效产出")
    assert "由写入带宽决定" in zh[i : i + 400]
    assert f"{years:.1f}年即可回本" in re.sub(r"\s", "", zh[i : i + 400])
