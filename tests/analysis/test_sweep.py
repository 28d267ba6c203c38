"""The scale sweep (methodology §13): the range rule, the row at the tier's own
size equals the summary of the tier without stages, storage proportional to GPUs,
steps marked."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

import costmodel as cm
from costmodel.analysis.sweep import MAX_POINTS, sweep, sweep_counts, sweep_in_parts
from costmodel.inputs.resources import default_assumptions_dir

STAGED = "assumptions/scenarios/staged-growth.yaml"
DEFAULT = cm.load_assumptions()


@pytest.fixture(scope="module")
def staged_sweep():
    a = cm.load_assumptions(default_assumptions_dir(), STAGED)
    return sweep(a, "hundreds", "8:4096")


def test_range_rule_on_the_default():
    counts = sweep_counts(DEFAULT, "thousands", 8, 4096)
    assert len(counts) <= MAX_POINTS and len(counts) >= 60
    assert all(n % 8 == 0 for n in counts) and counts == sorted(set(counts))
    assert counts[0] == 8 and counts[-1] == 4096 and 1024 in counts
    # both sides of the scale-class steps: <= 64 tens, <= 511 hundreds (multiples of 8)
    assert {64, 72, 504, 512} <= set(counts)
    # log-spaced: the ratio of neighbours above 1,000 GPUs stays within 5% to 12%
    big = [n for n in counts if n > 1100]
    ratios = [b / a for a, b in zip(big, big[1:], strict=False)]
    assert all(1.04 < r < 1.13 for r in ratios), ratios


def test_range_ends_are_rounded_to_servers_and_a_list_is_as_given():
    assert sweep_counts(DEFAULT, "tens", 5, 30) == [8, 16, 24]
    df = sweep(DEFAULT, "tens", [16, 8, 48])
    assert list(df["gpus"]) == [16, 8, 48]
    with pytest.raises(ValueError, match="multiples of 8"):
        sweep(DEFAULT, "tens", [12])
    with pytest.raises(ValueError, match="no multiple"):
        sweep_counts(DEFAULT, "tens", 1, 7)


def test_row_at_first_deployment_equals_summary_without_stages(staged_sweep, tmp_path):
    data = yaml.safe_load(Path(STAGED).read_text(encoding="utf-8"))
    data["tiers"]["hundreds"]["stages"] = []
    flat = tmp_path / "no-stages.yaml"
    flat.write_text(yaml.safe_dump(data), encoding="utf-8")
    want = cm.build(cm.load_assumptions(default_assumptions_dir(), flat)).summary()
    want = want.loc["hundreds"]
    df = staged_sweep
    row = df[df["gpus"] == 64].iloc[0]  # the tier's first deployment: 64 GPUs
    assert df.attrs["first_gpus"] == 64
    for col in ("cost_per_gpu_hour", "npv", "irr", "network_share"):
        assert row[col] == pytest.approx(want[col], rel=1e-9), col
    assert row["capex_per_gpu"] == pytest.approx(want["capex"] / 64, rel=1e-9)


def test_share_network_capex_per_gpu_is_constant(staged_sweep):
    # servers, a network share of hardware, storage proportional to GPUs and the
    # facility per kW all scale with the GPUs: capex per GPU does not move
    v = staged_sweep["capex_per_gpu"]
    assert v.max() == pytest.approx(v.min(), rel=1e-12)
    share = float(DEFAULT.tiers["hundreds"].network.share.value)  # 0.15 in the default
    got = staged_sweep["network_share"].tolist()
    assert got == pytest.approx([share] * len(got), rel=1e-12)
    assert staged_sweep["network_levels"].isna().all()


def test_fixed_staff_makes_cost_per_gpu_hour_fall_and_steps_are_marked(staged_sweep):
    df = staged_sweep
    assert (df["cost_per_gpu_hour"].diff().dropna() < 0).all()
    marked = df[df["change"] != ""]
    assert list(marked["gpus"]) == [72, 512]
    assert list(marked["change"]) == ["scale_class", "scale_class"]
    assert list(df["scale_class"].iloc[[0, -1]]) == ["tens", "thousands"]
    assert math.isfinite(df["npv"].iloc[-1])


def test_sweep_is_one_engine_evaluation(monkeypatch):
    import costmodel.core.variants as variants

    calls = []
    real = variants.run_tier

    def counting(values, config):
        calls.append(max(int(np.size(v)) for v in values.values()))
        return real(values, config)

    monkeypatch.setattr(variants, "run_tier", counting)
    df = sweep(DEFAULT, "thousands", "8:4096")
    assert len(df) == 64 and calls == [64]


def test_sweep_in_parts_has_the_rows_of_one_sweep(monkeypatch):
    import costmodel.core.variants as variants

    calls = []
    real = variants.run_tier

    def counting(values, config):
        calls.append(max(int(np.size(v)) for v in values.values()))
        return real(values, config)

    whole = sweep(DEFAULT, "thousands", "8:4096")
    monkeypatch.setattr(variants, "run_tier", counting)
    seen = []
    parts = sweep_in_parts(DEFAULT, "thousands", "8:4096", 6, lambda d, n: seen.append((d, n)))
    pd.testing.assert_frame_equal(parts, whole, check_exact=True)
    assert parts.attrs == whole.attrs
    # six engine calls of n / 6 counts each (the first n mod 6 one more), progress after each
    n = len(whole)
    assert calls == [n // 6 + (i < n % 6) for i in range(6)]
    assert [total for _, total in seen] == [n] * 6
    assert [d for d, _ in seen] == [sum(calls[: i + 1]) for i in range(6)]
    # a step at a part's first row is marked as in one sweep
    assert list(parts.loc[parts["change"] != "", "gpus"]) == list(
        whole.loc[whole["change"] != "", "gpus"]
    )


def test_counts_beyond_the_fabric_and_reversed_ranges_are_refused():
    # the default's designed fabric has radix 64: three levels hold 64^3 / 4 = 65,536 GPUs
    k = 64
    assert DEFAULT.tiers["thousands"].network.design is not None
    with pytest.raises(ValueError, match="hold at most 65,536 GPUs"):
        sweep_counts(DEFAULT, "thousands", 8, k**3 // 4 + 8)
    with pytest.raises(ValueError, match="hold at most 65,536"):
        sweep(DEFAULT, "thousands", [8, k**3 // 4 + 8])
    assert sweep_counts(DEFAULT, "thousands", 8, k**3 // 4)[-1] == k**3 // 4
    with pytest.raises(ValueError, match="starts above its end"):
        sweep_counts(DEFAULT, "thousands", 64, 8)
    # a network share has no fabric to fill
    assert sweep_counts(DEFAULT, "tens", 8, 200_000)[-1] == 200_000
