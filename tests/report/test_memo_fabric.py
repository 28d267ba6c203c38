"""The memo's profile of a designed fabric (methodology §12.1) and of a scaled
staff (§12.2), en and zh, figures written out by hand for the fabric-design
overlay: the thousands tier's 1,024 GPUs at radix 64 are 32 leaves + 16 spines = 48
switches and 2 x (1,024 + 1,024) = 4,096 transceivers; its network
48 x 250,000 + 4,096 x 6,000 + 128 servers x 30,000 = CNY 40,416,000."""

from __future__ import annotations

import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.report.memo.render import render_memo


@pytest.fixture(scope="module")
def model() -> cm.Model:
    overlay = scenarios_dir() / "fabric-design.yaml"
    return cm.build(cm.load_assumptions(default_assumptions_dir(), overlay))


def test_the_thousands_fabric_by_hand(model):
    row = model.summary().loc["thousands"]
    assert row["capex_network"] == pytest.approx(48 * 250_000 + 4_096 * 6_000 + 128 * 30_000)
    hardware = row["capex_servers"] + row["capex_network"] + row["capex_storage"]
    assert row["network_share"] == pytest.approx(row["capex_network"] / hardware)


def test_memo_names_the_fabric_and_the_band(model):
    share = f"{model.summary().loc['thousands', 'network_share']:.1%}"
    en = render_memo(model, "en")
    assert f"2 levels, 48 switches, 4,096 transceivers, {share} of hardware" in en
    assert "the source gives 20%–30% of hardware at this scale: below it" in en
    # staff: 8 + 0.1 x 128 servers = 20.8 FTE
    assert "20.8 FTE in the final cluster (8 fixed + 0.1 per server)" in en
    zh = render_memo(model, "zh")
    assert f"2 层网络，48 台交换机，4,096 个光模块，占硬件投资 {share}" in zh
    assert "资料给出该规模网络占硬件 20%–30%：低于该区间" in zh
    assert "建成后 20.8 人（固定 8 人，每台服务器 0.1 人）" in zh
