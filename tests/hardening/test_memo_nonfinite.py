"""A memo says nothing about a metric that does not exist: with 100,000 GPUs a
whole-cluster job never finishes (goodput 0), so cost per effective GPU-hour and
the software-problem comparison are empty, and no 'nan' or 'inf' reaches the text."""

from __future__ import annotations

import math
import re

import costmodel as cm


def test_no_nan_or_inf_in_either_memo(tmp_path):
    m = cm.build(cm.load_assumptions(overrides={"tiers.thousands.gpus": 100_000}))
    assert m.summary().loc["thousands", "goodput"] == 0
    assert math.isnan(m.summary().loc["thousands", "cost_per_effective_gpu_hour"])
    for lang in ("en", "zh"):
        text = cm.write_memo(m, tmp_path / f"memo.{lang}.html", lang=lang).read_text()
        assert re.findall(r"\b(?:inf|nan|NaN|Infinity)\b", text) == []
