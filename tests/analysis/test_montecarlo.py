"""Monte Carlo (methodology §9): reproducibility, degenerate ranges, a linear check (the CLI:
tests/cli)."""

from __future__ import annotations

import hashlib
import math
import os

import numpy as np
import pandas as pd
import pytest

import costmodel as cm
from costmodel.analysis.draws import block_draws
from costmodel.analysis.sensitivity import ranged_inputs
from tests.paths import HAND

DEFAULT = cm.load_assumptions()


def test_zero_width_ranges_reproduce_the_deterministic_build():
    inputs, _ = ranged_inputs(DEFAULT)
    flat = cm.with_overrides(
        DEFAULT, {x.path: {"value": x.value, "low": x.value, "high": x.value} for x in inputs}
    )
    res = cm.monte_carlo(flat, n=500, seed=3)
    s = cm.build(flat).summary()
    for tier in flat.tiers:
        for m in ("npv", "irr", "cost_per_gpu_hour"):
            np.testing.assert_allclose(res.draws[tier][m], s.loc[tier, m], rtol=1e-12)
        assert res.summary.loc[tier, "npv_p10"] == pytest.approx(s.loc[tier, "npv"], rel=1e-12)
        assert res.summary.loc[tier, "p_npv_positive"] == float(s.loc[tier, "npv"] > 0)


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal to the rounding of the engine's two evaluation paths (rel 1e-12; a
    cent of absolute slack for figures near zero)."""
    pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-11, atol=1e-2)


def test_same_seed_same_numbers_different_seed_different():
    a = cm.monte_carlo(DEFAULT, n=1500, seed=11)
    b = cm.monte_carlo(DEFAULT, n=1500, seed=11, chunk_size=700, workers=1)  # three chunks
    c = cm.monte_carlo(DEFAULT, n=1500, seed=12)
    for tier in DEFAULT.tiers:
        # chunking and threads do not matter, to the rounding of the evaluations
        # (rel 1e-12, tests/core/test_differential.py): a chunk of one timing goes
        # by year, one of several by draw
        same(a.draws[tier], b.draws[tier])
        assert not np.allclose(a.draws[tier].npv, c.draws[tier].npv)
    same(a.summary, b.summary)
    assert (a.n, a.seed) == (1500, 11) and len(a.samples) == 1500


def _pooled(monkeypatch, block: int = 300):
    """The Monte Carlo modules, set to use worker processes for any run and blocks
    of ``block`` draws (skips where it runs in this process only)."""
    from costmodel.analysis import blocks, draws
    from costmodel.analysis import montecarlo as mc

    if blocks.pool_context() is None:
        pytest.skip("worker processes are used on Linux only")
    monkeypatch.setattr(mc, "PROCESS_MIN_TIER_DRAWS", 0)
    monkeypatch.setattr(draws, "BLOCK_SIZE", block)
    return blocks


def test_two_worker_processes_give_the_numbers_of_one(monkeypatch):
    """Two worker processes evaluate the blocks; every draw's numbers are those of
    this process alone, and the progress reports rise to n."""
    _pooled(monkeypatch)
    seen: list[tuple[int, int]] = []
    one = cm.monte_carlo(DEFAULT, n=1200, seed=4, chunk_size=400, workers=1)
    two = cm.monte_carlo(
        DEFAULT,
        n=1200,
        seed=4,
        chunk_size=400,
        workers=2,
        progress=lambda d, n: seen.append((d, n)),
    )
    for tier in DEFAULT.tiers:
        assert two.draws[tier].equals(one.draws[tier])
    assert two.summary.equals(one.summary)
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[-1] == 1200 and {n for _, n in seen} == {1200}
    assert len(seen) == 4  # one report per block of 300


def test_every_block_is_evaluated_once_by_a_worker(monkeypatch, tmp_path):
    """With two workers, the blocks run in the worker processes, not here; each
    block once. Alone, this process evaluates the same blocks, in order."""
    blocks = _pooled(monkeypatch, block=200)
    log = tmp_path / "jobs.txt"
    here, evaluate = os.getpid(), blocks.evaluate_block

    def logged(case, job):
        with log.open("a") as f:
            f.write(f"{os.getpid()} {job.block}\n")
        return evaluate(case, job)

    monkeypatch.setattr(blocks, "evaluate_block", logged)
    two = cm.monte_carlo(DEFAULT, n=1000, seed=4, chunk_size=200, workers=2)
    rows = [line.split() for line in log.read_text().splitlines()]
    assert str(here) not in {pid for pid, _ in rows}
    assert sorted(int(k) for _, k in rows) == list(range(5))
    log.unlink()
    one = cm.monte_carlo(DEFAULT, n=1000, seed=4, chunk_size=200, workers=1)
    assert [line.split()[1] for line in log.read_text().splitlines()] == [str(k) for k in range(5)]
    for tier in DEFAULT.tiers:
        assert two.draws[tier].equals(one.draws[tier])


def test_an_error_in_a_worker_is_raised_here(monkeypatch):
    """An error in a worker process is raised in this process; the next run works."""
    blocks = _pooled(monkeypatch, block=200)
    here, evaluate = os.getpid(), blocks.evaluate_block

    def failing(case, job):
        if os.getpid() != here and job.block == 3:
            raise RuntimeError(f"block {job.block} failed in a worker")
        return evaluate(case, job)

    monkeypatch.setattr(blocks, "evaluate_block", failing)
    with pytest.raises(RuntimeError, match="block 3 failed in a worker"):
        cm.monte_carlo(DEFAULT, n=1000, seed=4, chunk_size=200, workers=2)
    monkeypatch.setattr(blocks, "evaluate_block", evaluate)
    again = cm.monte_carlo(DEFAULT, n=1000, seed=4, chunk_size=200, workers=2)
    one = cm.monte_carlo(DEFAULT, n=1000, seed=4, chunk_size=200, workers=1)
    assert again.summary.equals(one.summary)


def test_an_error_here_stops_the_run(monkeypatch, tmp_path):
    """An error in this process (here, in the progress callback) is raised, and the
    blocks not yet started are cancelled rather than evaluated."""
    blocks = _pooled(monkeypatch, block=100)
    log, evaluate = tmp_path / "jobs.txt", blocks.evaluate_block

    def logged(case, job):
        with log.open("a") as f:
            f.write(f"{job.block}\n")
        return evaluate(case, job)

    def progress(done, n):
        raise RuntimeError("stopped")

    monkeypatch.setattr(blocks, "evaluate_block", logged)
    with pytest.raises(RuntimeError, match="stopped"):
        cm.monte_carlo(DEFAULT, n=6000, seed=4, chunk_size=100, workers=2, progress=progress)
    assert len(log.read_text().splitlines()) < 60 // 2


def test_uniform_on_a_linear_driver_centres_on_the_deterministic_value():
    # tax 0: NPV is linear in the electricity price; Uniform(0.5, 1.5) is symmetric about 1.0
    a = cm.load_assumptions(
        HAND,
        overrides={
            "finance.tax_rate": 0.0,
            "power.price_per_kwh": {"value": 1.0, "low": 0.5, "high": 1.5, "dist": "uniform"},
        },
    )
    n = 40_000
    res = cm.monte_carlo(a, n=n, seed=5)
    npv = res.draws["small"].npv.to_numpy()
    price = res.samples["power.price_per_kwh"].to_numpy()
    assert price.min() >= 0.5 and price.max() <= 1.5
    det = cm.build(a).summary().loc["small", "npv"]
    # linearity: the mean NPV is the NPV at the mean drawn price (exactly, up to rounding)
    at_mean = cm.build(cm.with_overrides(a, {"power.price_per_kwh": float(price.mean())}))
    assert npv.mean() == pytest.approx(at_mean.summary().loc["small", "npv"], rel=1e-9)
    # and within sampling error of the deterministic value
    se = npv.std() / np.sqrt(n)
    assert abs(npv.mean() - det) < 4 * se
    assert abs(res.summary.loc["small", "npv_p50"] - det) < 4 * se * 1.3
    assert res.summary.loc["small", "npv_mean"] == pytest.approx(npv.mean())


def test_triangular_default_and_normal_clipped_to_valid_range():
    a = cm.load_assumptions(
        HAND,
        overrides={
            "operations.utilization": {"value": 0.5, "dist": "normal", "sd": 2.0},
            "power.price_per_kwh": {"value": 1.0, "low": 0.4, "high": 1.2},
        },
    )
    res = cm.monte_carlo(a, n=5000, seed=1)
    u = res.samples["operations.utilization"]
    assert u.min() == 0.0 and u.max() == 1.0 and ((u > 0) & (u < 1)).any()
    p = res.samples["power.price_per_kwh"]
    assert p.min() >= 0.4 and p.max() <= 1.2
    assert p.mean() == pytest.approx((0.4 + 1.0 + 1.2) / 3, abs=0.01)  # triangular mean
    assert {x.path: x.dist for x in res.inputs}["operations.utilization"] == "normal"


def test_summary_shape_and_quantile_order():
    res = cm.monte_carlo(DEFAULT, n=2000, seed=2)
    s = res.summary
    assert list(s.index) == list(DEFAULT.tiers)
    for m in ("npv", "irr", "cost_per_gpu_hour"):
        assert (s[f"{m}_p10"] <= s[f"{m}_p50"]).all() and (s[f"{m}_p50"] <= s[f"{m}_p90"]).all()
    with pytest.raises(ValueError):
        cm.monte_carlo(DEFAULT, n=0)


def test_probability_of_a_positive_npv_on_a_linear_driver():
    """Tax 0: NPV is linear in the GPU-hour price. Two deterministic builds give the
    break-even price p0; drawn Uniform(p0 - d, p0 + 3d), the price exceeds p0, and
    NPV is positive, in 3/4 of the draws (within sampling error)."""
    base = cm.load_assumptions(HAND, overrides={"finance.tax_rate": 0.0})

    def npv(price: float) -> float:
        a = cm.with_overrides(base, {"revenue.price_per_gpu_hour": price})
        return float(cm.build(a).summary().loc["small", "npv"])

    lo, hi = npv(40.0), npv(80.0)
    p0 = 40.0 - lo * (80.0 - 40.0) / (hi - lo)
    assert npv(p0) == pytest.approx(0, abs=1e-6 * abs(lo))  # linear indeed
    d = 10.0
    price = {"value": p0 + d, "low": p0 - d, "high": p0 + 3 * d, "dist": "uniform"}
    a = cm.with_overrides(base, {"revenue.price_per_gpu_hour": price})
    n = 20_000
    res = cm.monte_carlo(a, n=n, seed=9)
    se = (0.75 * 0.25 / n) ** 0.5
    assert res.summary.loc["small", "p_npv_positive"] == pytest.approx(0.75, abs=4 * se)


def _draws_in_a_pool_worker(n: int) -> list[float]:
    from costmodel.analysis import draws
    from costmodel.analysis import montecarlo as mc

    mc.PROCESS_MIN_TIER_DRAWS = 0  # would use workers, were it allowed
    draws.BLOCK_SIZE = 300
    res = cm.monte_carlo(DEFAULT, n=n, seed=4, chunk_size=400, workers=2)
    return res.draws["tens"]["npv"].tolist()


def test_a_pool_worker_runs_the_draws_itself(monkeypatch):
    """A daemonic multiprocessing worker may not have children: there the draws
    run in the worker itself, with the same numbers."""
    import multiprocessing as mp

    from costmodel.analysis import blocks, draws

    if blocks.pool_context() is None:
        pytest.skip("worker processes are used on Linux only")
    with mp.get_context("fork").Pool(1) as pool:
        got = pool.apply(_draws_in_a_pool_worker, (1200,))
    monkeypatch.setattr(draws, "BLOCK_SIZE", 300)
    one = cm.monte_carlo(DEFAULT, n=1200, seed=4, chunk_size=400, workers=1)
    assert got == one.draws["tens"]["npv"].tolist()


def _triangular(u, lo, mode, hi):
    """The triangular distribution's inverse CDF at ``u``, one value at a time."""
    if u < (mode - lo) / (hi - lo):
        return lo + math.sqrt(u * (hi - lo) * (mode - lo))
    return hi - math.sqrt((1 - u) * (hi - lo) * (hi - mode))


def _per_block(inputs, n: int, seed: int, size: int) -> dict[str, np.ndarray]:
    """The documented definition of the independent draws, written out: per block
    ``b`` of ``size`` draws and input, the stream of ``SeedSequence(seed)``'s child
    ``b`` and that child's child ``blake2b(path)[:8]``; uniforms ``random()`` through
    the inverse CDF, normals ``standard_normal()``."""
    out = {}
    for x in inputs:
        key = int.from_bytes(hashlib.blake2b(x.path.encode(), digest_size=8).digest(), "little")
        values = []
        for b, lo in enumerate(range(0, n, size)):
            m = min(n, lo + size) - lo
            seq = np.random.SeedSequence(seed).spawn(b + 1)[b]
            rng = np.random.default_rng(
                np.random.SeedSequence(seed, spawn_key=(*seq.spawn_key, key))
            )
            if x.dist == "normal":
                v = np.clip(x.value + x.sd * rng.standard_normal(m), x.lower, x.upper)
                v = v if x.sd else np.full(m, x.value)
            elif x.low == x.high:
                v = np.full(m, x.value)
            elif x.dist == "uniform":
                v = x.low + rng.random(m) * (x.high - x.low)
            else:
                v = np.array([_triangular(u, x.low, x.value, x.high) for u in rng.random(m)])
            drawn = not (x.low == x.high if x.dist != "normal" else not x.sd)
            values.append(np.round(v) if drawn and x.whole_months else v)
        out[x.path] = np.concatenate(values)
    return out


def test_the_draws_are_the_numbers_of_each_inputs_stream_per_block(monkeypatch):
    """``sample`` gives the per-block definition written out above, number for
    number (to the rounding of the inverse CDF's grouping, 1e-15), also after a
    normal input, a zero-width range, a zero sd and whole months; the first draws
    of a longer run are those of a shorter one, and an input's draws do not depend
    on the other inputs."""
    from costmodel.analysis import draws, montecarlo
    from costmodel.analysis.sensitivity import RangedInput

    def x(path, dist="triangular", low=1.0, value=2.0, high=4.0, sd=None):
        return RangedInput(path, value, low, high, dist, sd, None, lower=0.0, upper=9.0)

    def kinds(i):
        return [
            x(f"a{i}"),
            x(f"b{i}", "uniform"),
            x(f"c{i}", low=2.0, high=2.0),
            x(f"tiers.t{i}.timeline.build_months"),
            x(f"d{i}", "normal", sd=0.0),
        ]

    inputs = [*kinds(1), *kinds(2), x("f", "normal", sd=1.5), *kinds(3), x("g", "normal", sd=2.0)]
    monkeypatch.setattr(draws, "BLOCK_SIZE", 400)
    got = montecarlo.sample(inputs, 1_001, seed=11)
    want = _per_block(inputs, 1_001, seed=11, size=400)
    assert list(got) == list(want)
    for path in want:
        np.testing.assert_allclose(got[path], want[path], rtol=1e-15, atol=0, err_msg=path)
    months = got["tiers.t1.timeline.build_months"]
    assert np.all(months == np.round(months)) and len(set(months)) > 1
    shorter = montecarlo.sample(inputs[5:], 650, seed=11)
    for path, v in shorter.items():
        assert np.array_equal(v, got[path][:650]), path


def test_nothing_to_draw():
    """No ranged input, or only fixed ones: no draws, or the values themselves."""
    from costmodel.analysis.montecarlo import sample
    from costmodel.analysis.sensitivity import RangedInput

    assert sample([], 10, seed=1) == {}
    fixed = RangedInput("a", 2.0, 2.0, 2.0, "triangular", None, None)
    np.testing.assert_array_equal(sample([fixed], 3, seed=1)["a"], [2.0, 2.0, 2.0])


def test_a_blocks_chunks_cover_every_draw_once_in_whole_timings():
    """For each group of tiers, every draw of a block is in exactly one chunk; a
    chunk's draws are ascending; in a group whose timing is drawn, a chunk holds
    whole timings (a timing is split only into full chunks) in the stable
    lexicographic order of the timing paths."""
    from costmodel.analysis import blocks

    n, size = 3_000, 400
    inputs = [x for x in ranged_inputs(DEFAULT, include_normal=True)[0] if not x.structural]
    case = blocks.Case.of(DEFAULT, list(DEFAULT.tiers), inputs, 2, n, chunk_size=size)
    columns = block_draws(inputs, 2, 0, n, case.pairs)
    chunks = list(blocks.chunks(case, columns))
    groups = {g for g, _ in chunks}
    assert sorted(t for g in groups for t in g) == sorted(DEFAULT.tiers)
    drawn = {x.path: columns[k] for k, x in enumerate(inputs)}
    timed = 0
    for group in groups:
        rows = [np.arange(n)[r] for g, r in chunks if g == group]
        assert all(np.all(np.diff(r) > 0) and len(r) <= size for r in rows)
        np.testing.assert_array_equal(np.sort(np.concatenate(rows)), np.arange(n))
        timing = blocks.timing_paths(DEFAULT, group[0], set(drawn))
        if not timing:
            continue
        timed += 1
        key = [tuple(drawn[p][i] for p in timing) for i in range(n)]
        chunk_of = np.empty(n, int)
        for c, r in enumerate(rows):
            chunk_of[r] = c
        # chunks follow the sorted timings: a timing in two chunks fills the first
        for c, r in enumerate(rows):
            keys = {key[i] for i in r}
            elsewhere = {key[i] for i in range(n) if chunk_of[i] != c}
            assert len(keys & elsewhere) <= 2 or len(r) == size
        in_order = sorted(range(n), key=lambda i: key[i])
        assert [chunk_of[i] for i in in_order] == sorted(chunk_of)
    assert timed >= 1  # the default's timing is drawn


@pytest.mark.parametrize("chunk_size", [1, 333, 100_000])
def test_results_do_not_depend_on_the_chunks(chunk_size):
    """Each draw's numbers are those of the draw evaluated on its own (the engine
    computes a draw independently of the other draws of its chunk): chunks of one
    draw, of 333, or all draws at once."""
    n = 600 if chunk_size > 1 else 60
    base = cm.monte_carlo(DEFAULT, n=n, seed=8, workers=1)
    other = cm.monte_carlo(DEFAULT, n=n, seed=8, workers=1, chunk_size=chunk_size)
    for tier in DEFAULT.tiers:
        same(other.draws[tier], base.draws[tier])  # to the paths' rounding (above)


def test_tiers_run_alone_give_the_numbers_of_tiers_run_together():
    together = cm.monte_carlo(DEFAULT, n=900, seed=4, chunk_size=300, workers=1)
    for tier in DEFAULT.tiers:
        alone = cm.monte_carlo(DEFAULT, n=900, seed=4, tiers=[tier], chunk_size=300, workers=1)
        assert together.draws[tier].equals(alone.draws[tier])


def test_median_shifts_are_builds_with_one_input_at_its_median_draw():
    """Each row is a build of the model with one input at the lower median of its
    draws (the middle draw, sorted: the ((n - 1) // 2)-th), all else as assumed."""
    n = 400  # even: the lower median is a draw, not the mean of two
    mc = cm.monte_carlo(DEFAULT, n=n, seed=5)
    shifts = cm.median_shifts(DEFAULT, mc)
    summary = cm.build(DEFAULT).summary()
    assert set(shifts["tier"]) == set(DEFAULT.tiers)
    for t in DEFAULT.tiers:
        rows = shifts[shifts["tier"] == t]
        np.testing.assert_allclose(rows["base"], summary.loc[t, "npv"], rtol=1e-12)
        assert (rows["shift"] == rows["at_median"] - rows["base"]).all()
        size = rows["shift"].abs().to_numpy()
        assert (size[:-1] >= size[1:]).all()
        assert not rows["input"].str.match(rf"tiers\.(?!{t}\.)").any()  # another tier's input
    for t, path in (("thousands", "operations.utilization"), ("hundreds", "timeline.ramp_months")):
        row = shifts[(shifts["tier"] == t) & (shifts["input"] == path)].iloc[0]
        middle = float(np.sort(mc.samples[path].to_numpy())[(n - 1) // 2])
        assert row["median"] == middle
        alone = cm.build(cm.with_overrides(DEFAULT, {path: middle})).summary().loc[t, "npv"]
        assert row["at_median"] == pytest.approx(alone, rel=1e-9)
    assert shifts.attrs["metric"] == "npv"
