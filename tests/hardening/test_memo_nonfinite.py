"""A memo says nothing about a metric that does not exist: with 100,000 GPUs a
whole-cluster job never finishes (goodput 0), so cost per effective GPU-hour and
the software-problem comparison are empty, and no 'nan' or 'inf' reaches the text;
nor with no GPU-hours sold (utilization 0: no levelized cost)."""

from __future__ import annotations

import math
import re

import pytest

import costmodel as cm


@pytest.mark.parametrize(
    ("overrides", "tier", "empty"),
    [
        # 100,000 GPUs need a fabric of radix 128 (3 levels of radix k hold k^3 / 4
        # endpoints: 65,536 at 64, 524,288 at 128) and a design that holds them
        (
            {
                "tiers.thousands.gpus": 100_000,
                "designs.thousands.max_gpus": 100_000,
                "designs.thousands.network.design.switch_radix": 128,
            },
            "thousands",
            "cost_per_effective_gpu_hour",
        ),
        # every tier, the tens tier's own utilization included
        (
            {"operations.utilization": 0, "tiers.tens.operations.utilization": 0},
            "tens",
            "cost_per_gpu_hour",
        ),
    ],
)
def test_no_nan_or_inf_in_either_memo(tmp_path, overrides, tier, empty):
    m = cm.build(cm.load_assumptions(overrides=overrides))
    assert math.isnan(m.summary().loc[tier, empty])
    for lang in ("en", "zh"):
        text = cm.write_memo(m, tmp_path / f"memo.{lang}.html", lang=lang).read_text()
        assert re.findall(r"\b(?:inf|nan|NaN|Infinity)\b", text) == []
