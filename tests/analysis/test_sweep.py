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
from tests.support.v3 import v3_default, v3_paths

STAGED = "assumptions/scenarios/staged-growth.yaml"
#: the default with its tiers sized in the tier (no design): the sweep's v3 rules;
#: the rebuilds by design are tests/analysis/test_sweep_designs.py's
DEFAULT = v3_default()


@pytest.fixture(scope="module")
def staged_sweep():
    a = cm.load_assumptions(*v3_paths(), STAGED)
    return sweep(a, "hundreds", "8:4096")


#: the staged hundreds tier with its network a share of hardware (no design) and a
#: fixed team of 3 FTE (no staff_scaling): the two incidental features the share and
#: fixed-staff tests are about, set here whatever the default's network and staff are
SHARE_AND_FIXED_STAFF = {
    "tiers": {
        "hundreds": {
            "network": {"design": None, "share": 0.15},
            "staff_scaling": None,
            "staff_fte": 3.0,
        }
    }
}


@pytest.fixture(scope="module")
def share_sweep(tmp_path_factory):
    path = tmp_path_factory.mktemp("sweep") / "share-and-fixed-staff.yaml"
    path.write_text(yaml.safe_dump(SHARE_AND_FIXED_STAFF), encoding="utf-8")
    a = cm.load_assumptions(*v3_paths(), STAGED, path)
    t = a.tiers["hundreds"]
    assert t.network.design is None and t.staff_scaling is None
    return sweep(a, "hundreds", "8:4096")


def _log_spaced_with(must: set[int], lo: int, hi: int, top: int) -> list[int]:
    """The range rule written out (methodology §13): the server multiples ``must``
    with those of ``numpy.geomspace(lo, hi, n)`` (rounded), n = 2, 3, .. for as long
    as the union holds at most ``top`` counts (the last n before it first exceeds)."""
    best: list[int] = []
    for n in range(2, 16 * top):
        chosen = sorted(must | {int(k) for k in np.round(np.geomspace(lo, hi, n))})
        if len(chosen) > top:
            return best
        best = chosen
    return best


def test_range_rule_on_the_default():
    counts = sweep_counts(DEFAULT, "thousands", 8, 4096)
    assert len(counts) <= MAX_POINTS
    assert all(n % 8 == 0 for n in counts) and counts == sorted(set(counts))
    # the counts that must be there: both ends (8, 4096), the tier's own 1,024, both
    # sides of the scale-class steps (<= 64 tens, <= 511 hundreds: 64 | 72, 504 | 512)
    # and of the designed fabric's level steps at radix 64 (1 level up to 64
    # endpoints, 2 up to 64^2 / 2 = 2,048: 64 | 72, 2,048 | 2,056)
    must = {8, 4096, 1024, 64, 72, 504, 512, 2048, 2056}
    assert must <= set(counts)
    # the rest log-spaced over the multiples of 8 (servers 1..512), as many as fit
    # (63 here: the next log-spaced set, of 80 points, would give 65 with the must ones)
    servers = _log_spaced_with({n // 8 for n in must}, 1, 512, MAX_POINTS)
    assert counts == [8 * k for k in servers]


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
    want = cm.build(cm.load_assumptions(*v3_paths(), flat)).summary()
    want = want.loc["hundreds"]
    df = staged_sweep
    row = df[df["gpus"] == 64].iloc[0]  # the tier's first deployment: 64 GPUs
    assert df.attrs["first_gpus"] == 64
    for col in ("cost_per_gpu_hour", "npv", "irr", "network_share"):
        assert row[col] == pytest.approx(want[col], rel=1e-9), col
    assert row["capex_per_gpu"] == pytest.approx(want["capex"] / 64, rel=1e-9)


def test_share_network_capex_per_gpu_is_constant(share_sweep):
    # servers, a network share of hardware, storage proportional to GPUs and the
    # facility per kW all scale with the GPUs: capex per GPU does not move
    v = share_sweep["capex_per_gpu"]
    assert v.max() == pytest.approx(v.min(), rel=1e-12)
    got = share_sweep["network_share"].tolist()
    assert got == pytest.approx([0.15] * len(got), rel=1e-12)  # the share set above
    assert share_sweep["network_levels"].isna().all()


def test_fixed_staff_makes_cost_per_gpu_hour_fall_and_steps_are_marked(share_sweep):
    df = share_sweep
    assert (df["cost_per_gpu_hour"].diff().dropna() < 0).all()
    marked = df[df["change"] != ""]
    assert list(marked["gpus"]) == [72, 512]
    assert list(marked["change"]) == ["scale_class", "scale_class"]
    assert list(df["scale_class"].iloc[[0, -1]]) == ["tens", "thousands"]
    assert math.isfinite(df["npv"].iloc[-1])


def test_sweep_is_one_engine_evaluation(engine_calls):
    calls = engine_calls
    df = sweep(DEFAULT, "thousands", "8:4096")
    n = len(sweep_counts(DEFAULT, "thousands", 8, 4096))
    assert len(df) == n and calls == [n]


def test_sweep_in_parts_has_the_rows_of_one_sweep(request):
    whole = sweep(DEFAULT, "thousands", "8:4096")
    calls = request.getfixturevalue("engine_calls")  # counting from here on
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
