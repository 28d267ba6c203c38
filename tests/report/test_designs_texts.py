"""The memo and the what-if page show each option's design (methodology §28): the
storage in nodes, TB and GB/s against the seed's bandwidth for the scale, the
design taken, the cooling and rack power."""

from __future__ import annotations

import html
import re

import pytest

import costmodel as cm
from costmodel.report.web.view import option_rows
from tests.paths import DATA


@pytest.fixture(scope="module")
def model():
    return cm.build(cm.load_assumptions(DATA / "designs.yaml"))


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def memos(model, tmp_path_factory):
    d = tmp_path_factory.mktemp("memo")
    return {
        lang: _text(cm.write_memo(model, d / f"memo-{lang}.html", lang=lang).read_text("utf-8"))
        for lang in ("en", "zh")
    }


def test_memo_storage_against_the_seed(memos):
    en = memos["en"]
    # hundreds: 4 nodes of 500 TB and 12.5 GB/s = 2,000 TB, 50 GB/s: within 50-100
    assert "4 storage nodes, 2,000 TB, 50 GB/s of writes; the source asks 50–100 GB/s" in en
    assert "within it" in en
    # thousands: 13 nodes x 20 GB/s = 260 GB/s, below the seed's TB/s
    assert (
        "13 storage nodes, 8,192 TB, 260 GB/s of writes; the source asks TB/s at this scale: below it"
        in en
    )
    assert "1 storage node, 100 TB, 5 GB/s of writes" in en
    zh = memos["zh"]
    assert "13 个存储节点，8,192 TB，写入带宽 260 GB/s" in zh and "低于要求" in zh


def test_memo_names_the_design_taken(memos):
    assert (
        "design Thousands: Training hall: rail-optimised NDR, tiered storage, cold plate"
        in memos["en"]
    )
    # Chinese text runs without spaces between its characters (the memo drops them)
    assert "设计方案千卡级：训练园区" in re.sub(r"\s", "", memos["zh"])


def test_page_shows_each_options_design(model):
    rows = {r["tier"]: r["build"] for r in option_rows(model, "tens", "en")}
    assert (
        rows["thousands"]
        == "design thousands · Cold-plate liquid cooling, 60 kW/rack · 13 storage nodes, 260 GB/s"
    )
    assert rows["tens"].endswith("1 storage node, 5 GB/s")
    zh = {r["tier"]: r["build"] for r in option_rows(model, "tens", "zh")}
    assert zh["hundreds"] == "设计方案 百卡级 · 风冷，单柜 25 kW · 4 个存储节点，50 GB/s"


def test_page_without_designs_shows_no_build():
    from tests.support.v3 import v3_default

    rows = option_rows(cm.build(v3_default()), "tens", "en")
    assert all(r["build"] == "" for r in rows)


def test_memo_scale_curve_marks_every_rebuild(memos, model):
    sw = cm.sweep(model, "hundreds", [504, 512])
    was, now = sw["cost_per_gpu_hour"]
    # the step at 512 GPUs with what it costs, from the sweep's own numbers
    assert (
        f"512 GPUs (scale class and design rebuilt: cost per GPU-hour CNY {was:.2f}" in memos["en"]
    )
    assert f"-> CNY {now:.2f}" in memos["en"]
    assert "512 卡（规模等级、设计方案重构：每卡时成本" in memos["zh"]
    assert "at 8,192" not in memos["en"]  # the curves stop at the designs' largest cluster


def test_storage_bandwidth_is_said_in_gb_per_s_and_rack_power_in_kw():
    # one decimal with the metric's own unit (core.metrics: GB/s, kW/rack)
    from costmodel.report.memo.numbers import fmt

    assert fmt(286.0, "kw", "en", column="storage_write_gbps") == "286.0\u00a0GB/s"
    assert fmt(60.0, "kw", "zh", column="rack_kw") == "60.0\u00a0kW"
