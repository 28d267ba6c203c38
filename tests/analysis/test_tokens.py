"""Cost per million tokens of an inference workload on each tier (methodology §27):
``cost_per_gpu_hour * 1e6 / (tokens_per_s_per_gpu * 3600)``."""

from __future__ import annotations

import math

import pytest

import costmodel as cm
from costmodel.analysis.workloads import cost_per_million_tokens
from tests.paths import HAND


def test_cost_per_million_tokens_by_hand():
    # CNY 10.80 a GPU-hour; 600 tokens/s x 3,600 s = 2,160,000 tokens a GPU-hour;
    # 10.80 / 2.16 million tokens = CNY 5.00 per million tokens
    assert cost_per_million_tokens(10.8, 600) == pytest.approx(5.0, rel=1e-12)
    # twice the throughput halves it: 10.80 / 4.32 = 2.50
    assert cost_per_million_tokens(10.8, 1200) == pytest.approx(2.5, rel=1e-12)
    assert math.isnan(cost_per_million_tokens(float("nan"), 600))
    assert math.isnan(cost_per_million_tokens(10.8, 0))


def test_recommend_carries_it_beside_the_tier_cost_per_gpu_hour(tmp_path):
    w = tmp_path / "w.yaml"
    w.write_text(
        "workloads:\n"
        "  - {name: lora13, kind: lora, params_b: 13, tokens_b: 1, deadline_days: 30}\n"
        "  - {name: inf70, kind: inference, params_b: 70, bytes_per_param: 0.5,"
        " tokens_per_s: 5000, tokens_per_s_per_gpu: 600}\n",
        encoding="utf-8",
    )
    model = cm.build(cm.load_assumptions(HAND, w))
    s = model.summary()
    df = cm.recommend(model)
    cols = list(df.columns)
    assert cols.index("cost_per_million_tokens") == cols.index("cost_per_gpu_hour") + 1
    for t in model.tiers:
        cost_h = float(s.loc[t, "cost_per_gpu_hour"])
        inf = df.loc[("inf70", t)]
        assert inf.cost_per_gpu_hour == cost_h
        # one GPU serves 600 tokens/s x 3,600 s = 2.16 million tokens an hour
        assert inf.cost_per_million_tokens == pytest.approx(cost_h / 2.16, rel=1e-12)
        assert inf.cost_per_million_tokens == pytest.approx(cost_h * 1e6 / (600 * 3600))
        lora = df.loc[("lora13", t)]
        assert lora.cost_per_gpu_hour == cost_h
        assert math.isnan(lora.cost_per_million_tokens)  # training: empty
