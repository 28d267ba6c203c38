"""Goodput (methodology §5) and workload sizing (methodology §5b) against hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costmodel as cm
from costmodel.core.lines import goodput
from tests.paths import HAND


def test_goodput_128_servers_at_0008_failures_per_node_day():
    # 128 servers x 0.008 failures per node-day = 1.024 failures a day
    mtbf = 24 / (0.008 * 128)  # 23.4375 h
    # 1 TB checkpoint at 2 GB/s: 1000 GB / 2 GB/s = 500 s = 0.138889 h
    delta_slow = 1000 / 2 / 3600
    tau_slow = math.sqrt(2 * delta_slow * mtbf)  # sqrt(6.5104) = 2.5516 h
    waste_slow = delta_slow / tau_slow + (tau_slow / 2 + 0.25) / mtbf  # 0.05443 + 0.06510
    # the same checkpoint at 50 GB/s: 20 s = 0.005556 h
    delta_fast = 1000 / 50 / 3600
    tau_fast = math.sqrt(2 * delta_fast * mtbf)  # 0.5103 h
    waste_fast = delta_fast / tau_fast + (tau_fast / 2 + 0.25) / mtbf  # 0.01089 + 0.02155
    assert mtbf == pytest.approx(23.4375)
    assert tau_slow == pytest.approx(2.5516, abs=1e-4)
    assert 1 - waste_slow == pytest.approx(0.88047, abs=1e-5)
    assert 1 - waste_fast == pytest.approx(0.96756, abs=1e-5)
    g = goodput(128, 0.008, 1.0, np.array([2.0, 50.0]), 0.25)
    np.testing.assert_allclose(g["mtbf_hours"], [mtbf, mtbf])
    np.testing.assert_allclose(g["checkpoint_interval_hours"], [tau_slow, tau_fast])
    np.testing.assert_allclose(g["goodput"], [1 - waste_slow, 1 - waste_fast])


def test_no_failures_means_full_goodput_and_empty_mtbf():
    g = goodput(128, 0.0, 1.0, 2.0, 0.25)
    assert g["goodput"][()] == 1.0
    assert np.isnan(g["mtbf_hours"]).all() and np.isnan(g["checkpoint_interval_hours"]).all()
    s = cm.build(
        cm.load_assumptions(HAND, overrides={"reliability.node_failures_per_day": 0})
    ).summary()
    assert s.loc["small", "goodput"] == 1.0
    assert math.isnan(s.loc["small", "mtbf_hours"])
    assert s.loc["small", "cost_per_effective_gpu_hour"] == pytest.approx(
        s.loc["small", "cost_per_gpu_hour"]
    )


def test_goodput_zero_gives_empty_costs():
    # failures so frequent that waste exceeds 1
    a = cm.load_assumptions(HAND, overrides={"reliability.node_failures_per_day": 50.0})
    s = cm.build(a).summary().loc["small"]
    assert s.goodput == 0
    assert math.isnan(s.cost_per_effective_gpu_hour) and math.isnan(s.cost_per_pflop_hour)


@settings(max_examples=200, deadline=None)
@given(
    servers=st.integers(1, 4096),
    rate=st.floats(1e-4, 0.05),
    tb=st.floats(0.01, 10),
    gbps=st.floats(0.5, 2000),
    restart=st.floats(0, 2),
)
def test_goodput_monotonic(servers, rate, tb, gbps, restart):
    base = goodput(servers, rate, tb, gbps, restart)["goodput"]
    more_servers = goodput(servers * 2, rate, tb, gbps, restart)["goodput"]
    more_failures = goodput(servers, rate * 2, tb, gbps, restart)["goodput"]
    faster_storage = goodput(servers, rate, tb, gbps * 2, restart)["goodput"]
    assert more_servers <= base + 1e-12
    assert more_failures <= base + 1e-12
    assert faster_storage >= base - 1e-12
    assert 0 <= base <= 1


def test_effective_cost_never_below_list_cost():
    s = cm.build(cm.load_assumptions()).summary()
    assert (s.cost_per_effective_gpu_hour >= s.cost_per_gpu_hour).all()
    # more servers, more failures: the thousands tier has the shortest MTBF
    assert s.mtbf_hours.idxmin() == "thousands"


def test_workload_sizing_by_hand(tmp_path):
    w = tmp_path / "w.yaml"
    w.write_text(
        "workloads:\n"
        "  - {name: ft70, kind: finetune, params_b: 70, tokens_b: 1, deadline_days: 30}\n"
        "  - {name: lora13, kind: lora, params_b: 13, tokens_b: 1, deadline_days: 30}\n"
        "  - {name: inf70, kind: inference, params_b: 70, bytes_per_param: 0.5,"
        " tokens_per_s: 5000, tokens_per_s_per_gpu: 600}\n",
        encoding="utf-8",
    )
    model = cm.build(
        cm.load_assumptions(HAND, w, overrides={"reliability.node_failures_per_day": 0})
    )
    df = cm.recommend(model)
    ft = df.loc[("ft70", "small")]
    # memory floor: 70e9 params x 16 bytes / (80e9 x 0.8) = 17.5 -> 18 GPUs > the tier's 16
    assert ft.memory_floor_gpus == 18 and not ft.meets_memory and not ft.feasible
    # FLOPs 6 x 70e9 x 1e9 = 4.2e20; tier: 16 GPUs x 1000 TFLOPS x 0.4 MFU x goodput 1
    assert ft.days_needed == pytest.approx(4.2e20 / (16 * 1000e12 * 0.4 * 1.0 * 86400))
    lora = df.loc[("lora13", "small")]
    # LoRA: 6 x 13e9 x 1e9 x 2/3 = 5.2e19 FLOPs; floor ceil(13e9 x 16 / 64e9) = 4
    assert lora.flops == pytest.approx(5.2e19)
    assert lora.memory_floor_gpus == 4 and lora.feasible
    assert lora.days_needed == pytest.approx(5.2e19 / (16 * 1000e12 * 0.4 * 86400))
    # share of the horizon: 16 GPUs x days x 24 h over 16 GPUs x 730 h x 12 months
    assert lora.share_of_horizon == pytest.approx(lora.days_needed * 24 / (730 * 12))
    inf = df.loc[("inf70", "small")]
    # per replica: ceil(70e9 x 0.5 x 1.2 / 80e9) = ceil(0.525) = 1; replicas ceil(5000/600) = 9
    assert inf.memory_floor_gpus == 9 and inf.feasible
    assert inf.share_of_horizon == pytest.approx(9 / 16)
    assert df.attrs["recommended"] == {"ft70": None, "lora13": "small", "inf70": "small"}


def test_small_workload_is_not_recommended_onto_a_bigger_costlier_tier(tmp_path):
    f = tmp_path / "two.yaml"
    f.write_text(
        "tiers:\n"
        "  big:\n"
        "    server: box\n"
        "    gpus: 256\n"
        "    network: {share: 0.2}\n"
        "    storage: {capacity_tb: 500, price_per_tb: 1000, write_gbps: 50}\n"
        "    rack_kw: 25\n"
        "    cooling: air\n"
        "    staff_fte: 8\n"
        "workloads:\n"
        "  - {name: lora13, kind: lora, params_b: 13, tokens_b: 1, deadline_days: 30}\n",
        encoding="utf-8",
    )
    model = cm.build(cm.load_assumptions(HAND, f))
    df = cm.recommend(model)
    assert df.loc[("lora13", "big"), "feasible"] and df.loc[("lora13", "small"), "feasible"]
    assert model.summary().loc["big", "tco"] > model.summary().loc["small", "tco"]
    assert df.attrs["recommended"]["lora13"] == "small"
    # the big tier would sit idle: its share of horizon GPU-hours is smaller
    assert df.loc[("lora13", "big"), "idle_share"] > df.loc[("lora13", "small"), "idle_share"]


def test_default_workloads_follow_the_seed():
    rec = cm.recommend(cm.build(cm.load_assumptions())).attrs["recommended"]
    assert rec["LoRA of a 13B model"] == "tens"  # "几十卡级集群完全够用"
    assert rec["Pretrain a 65B model on 1.4T tokens"] in ("hundreds", "thousands")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "workloads:\n  - {name: x, kind: pretrain, params_b: 7}\n",
            "a pretrain workload needs tokens_b, deadline_days",
        ),
        (
            "workloads:\n  - {name: x, kind: inference, params_b: 7, bytes_per_param: 2}\n",
            "an inference workload needs tokens_per_s, tokens_per_s_per_gpu",
        ),
        ("workloads:\n  - {name: x, kind: rlhf, params_b: 7}\n", "workloads.0.kind = 'rlhf'"),
        ("reliability:\n  mfu: 1.5\n", "reliability.mfu = 1.5: must be a fraction between 0 and 1"),
        (
            "reliability:\n  node_failures_per_day: -1\n",
            "reliability.node_failures_per_day = -1: must be >= 0",
        ),
        (
            "tiers:\n  small:\n    storage: {write_gbps: 0}\n",
            "tiers.small.storage.write_gbps = 0: must be > 0",
        ),
    ],
)
def test_bad_reliability_and_workload_inputs(tmp_path, text, message):
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as info:
        cm.load_assumptions(HAND, f)
    assert message in str(info.value)
    assert str(f) in str(info.value)
