"""The LoRA memory floor (methodology §5b, ``sizing.lora_bytes_per_param``) and the
bundled default's workloads, against arithmetic written out here."""

from __future__ import annotations

import math

import pytest

import costmodel as cm
from tests.paths import HAND

WORKLOADS = (
    "workloads:\n"
    "  - {name: lora13, kind: lora, params_b: 13, tokens_b: 1, deadline_days: 30}\n"
    "  - {name: ft13, kind: finetune, params_b: 13, tokens_b: 1, deadline_days: 30}\n"
)


def _hand(tmp_path, extra: str = ""):
    w = tmp_path / "w.yaml"
    w.write_text(WORKLOADS + extra, encoding="utf-8")
    return cm.build(
        cm.load_assumptions(HAND, w, overrides={"reliability.node_failures_per_day": 0})
    )


def test_lora_floor_uses_the_lora_bytes_per_parameter(tmp_path):
    df = cm.recommend(_hand(tmp_path, "sizing:\n  lora_bytes_per_param: 2\n"))
    # the hand server has 80 GB; 80% usable = 64e9 bytes
    # LoRA: ceil(13e9 x 2 / 64e9) = ceil(0.406) = 1 GPU
    assert df.loc[("lora13", "small"), "memory_floor_gpus"] == 1
    # the full fine-tune keeps 16 bytes: ceil(13e9 x 16 / 64e9) = ceil(3.25) = 4
    assert df.loc[("ft13", "small"), "memory_floor_gpus"] == 4
    # FLOPs do not depend on the memory constant: 6 x 13e9 x 1e9 x 2/3 = 5.2e19
    assert df.loc[("lora13", "small"), "flops"] == pytest.approx(5.2e19)


def test_without_the_input_a_lora_floor_is_the_full_fine_tunes(tmp_path):
    m = _hand(tmp_path)
    assert m.assumptions.sizing.lora_bytes_per_param.value == 16  # the spec's rule
    df = cm.recommend(m)
    floors = df.xs("small", level="tier")["memory_floor_gpus"]
    assert floors["lora13"] == floors["ft13"] == 4  # ceil(13e9 x 16 / 64e9)


def test_a_4_bit_base_lowers_the_floor_further(tmp_path):
    # a 70B QLoRA-style base at 0.5 bytes: ceil(70e9 x 0.5 / 64e9) = ceil(0.547) = 1
    extra = (
        "  - {name: lora70, kind: lora, params_b: 70, tokens_b: 1, deadline_days: 30}\n"
        "sizing:\n  lora_bytes_per_param: 0.5\n"
    )
    df = cm.recommend(_hand(tmp_path, extra))
    assert df.loc[("lora70", "small"), "memory_floor_gpus"] == 1


A = cm.load_assumptions()


def test_default_13b_lora_fits_one_h200():
    w = next(w for w in A.workloads if w.kind == "lora")
    sz = A.sizing
    assert sz.lora_bytes_per_param.value < sz.training_bytes_per_param.value
    df = cm.recommend(cm.build(A))
    for tier, t in A.tiers.items():
        mem_bytes = A.servers[t.server].gpu_memory_gb.value * 1e9
        want = math.ceil(
            w.params_b.value * 1e9 * sz.lora_bytes_per_param.value
            / (mem_bytes * sz.usable_memory_fraction.value)
        )  # fmt: skip
        assert df.loc[(w.name, tier), "memory_floor_gpus"] == want
    # 13e9 x 2 / (141e9 x 0.8) = 0.23: one H200
    assert df.loc[(w.name, "tens"), "memory_floor_gpus"] == 1


def test_default_has_a_pretraining_only_the_thousands_tier_meets():
    m = cm.build(A)
    s = m.summary()
    df = cm.recommend(m)
    big = [w for w in A.workloads if w.kind == "pretrain" and w.params_b.value >= 100]
    assert big, "the default sizes a 100B+ pretraining (seed: 千亿至万亿参数基座模型预训练)"
    for w in big:
        flops = 6 * w.params_b.value * 1e9 * w.tokens_b.value * 1e9
        for tier, t in A.tiers.items():
            srv = A.servers[t.server]
            over = t.reliability.mfu if t.reliability and t.reliability.mfu else None
            mfu = (over or A.reliability.mfu).value
            rate = t.gpus * srv.tflops_bf16.value * 1e12 * mfu * s.loc[tier, "goodput"]
            days = flops / rate / 86_400
            row = df.loc[(w.name, tier)]
            assert row["days_needed"] == pytest.approx(days, rel=1e-12)
            assert bool(row["meets_deadline"]) == (days <= w.deadline_days.value)
        assert df.attrs["recommended"][w.name] == "thousands"
        assert not df.loc[(w.name, "hundreds"), "feasible"]
