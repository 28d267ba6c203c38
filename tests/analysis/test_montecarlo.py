"""Monte Carlo (methodology §9): reproducibility, degenerate ranges, a linear check (the CLI:
tests/cli)."""

from __future__ import annotations

import gc
import os
import time

import numpy as np
import pytest

import costmodel as cm
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


def test_same_seed_same_numbers_different_seed_different():
    a = cm.monte_carlo(DEFAULT, n=3000, seed=11)
    b = cm.monte_carlo(DEFAULT, n=3000, seed=11, chunk_size=700, workers=1)
    c = cm.monte_carlo(DEFAULT, n=3000, seed=12)
    for tier in DEFAULT.tiers:
        assert a.draws[tier].equals(b.draws[tier])  # chunking and threads do not matter
        assert not np.allclose(a.draws[tier].npv, c.draws[tier].npv)
    assert a.summary.equals(b.summary)
    assert (a.n, a.seed) == (3000, 11) and len(a.samples) == 3000


def test_two_worker_processes_give_the_numbers_of_one(monkeypatch):
    """Two processes (this one and a forked helper, Linux) evaluate the chunks; every
    draw's numbers are those of one process, and the progress reports rise to n."""
    from costmodel.analysis import montecarlo as mc

    if not mc._can_fork():
        pytest.skip("forked worker processes are used on Linux only")
    monkeypatch.setattr(mc, "PROCESS_MIN_TIER_DRAWS", 0)
    seen: list[tuple[int, int]] = []
    one = cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=400, workers=1)
    two = cm.monte_carlo(
        DEFAULT,
        n=2500,
        seed=4,
        chunk_size=400,
        workers=2,
        progress=lambda d, n: seen.append((d, n)),
    )
    for tier in DEFAULT.tiers:
        assert two.draws[tier].equals(one.draws[tier])
    assert two.summary.equals(one.summary)
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[-1] == 2500 and {n for _, n in seen} == {2500}
    # the objects frozen for the workers are thawed again; a caller's stay frozen
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        again = cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=400, workers=2)
        assert gc.get_freeze_count() >= frozen > 0
        assert again.summary.equals(one.summary)
    finally:
        gc.unfreeze()


def _forking(monkeypatch):
    """The Monte Carlo module, set to fork a helper for any run (skips off Linux)."""
    from costmodel.analysis import montecarlo as mc

    if not mc._can_fork():
        pytest.skip("forked helper processes are used on Linux only")
    monkeypatch.setattr(mc, "PROCESS_MIN_TIER_DRAWS", 0)
    return mc


def test_this_process_and_a_forked_helper_share_the_jobs(monkeypatch, tmp_path):
    """With two workers this process evaluates jobs itself beside one forked helper;
    each job is evaluated once, by one of the two."""
    mc = _forking(monkeypatch)
    log = tmp_path / "jobs.txt"
    here, metrics_of = os.getpid(), mc._metrics_of

    def logged(work, k):
        if os.getpid() == here:
            time.sleep(0.01)  # so that the helper, still starting, gets jobs too
        with log.open("a") as f:
            f.write(f"{os.getpid()} {k}\n")
        return metrics_of(work, k)

    monkeypatch.setattr(mc, "_metrics_of", logged)
    two = cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=200, workers=2)
    rows = [line.split() for line in log.read_text().splitlines()]
    by = {pid for pid, _ in rows}
    assert str(here) in by and len(by) == 2
    assert sorted(int(k) for _, k in rows) == list(range(len(rows)))
    log.unlink()
    one = cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=200, workers=1)
    assert len(log.read_text().splitlines()) == len(rows)  # the same jobs, here alone
    for tier in DEFAULT.tiers:
        assert two.draws[tier].equals(one.draws[tier])


@pytest.mark.parametrize("where", ["helper", "here"])
def test_an_error_in_either_process_is_raised_and_leaves_nothing_behind(monkeypatch, where):
    """An error in the forked helper is raised in this process, and so is one here
    (the helper then takes no further job); either way the module is left ready for
    the next run: nothing shared, nothing frozen."""
    mc = _forking(monkeypatch)
    here, metrics_of = os.getpid(), mc._metrics_of

    def failing(work, k):
        if (os.getpid() == here) == (where == "here"):
            raise RuntimeError(f"job {k} failed in the {where}")
        time.sleep(0.005)
        return metrics_of(work, k)

    monkeypatch.setattr(mc, "_metrics_of", failing)
    with pytest.raises(RuntimeError, match=f"failed in the {where}"):
        cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=200, workers=2)
    assert mc._FORKED is None and gc.get_freeze_count() == 0
    monkeypatch.setattr(mc, "_metrics_of", metrics_of)
    again = cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=200, workers=2)
    one = cm.monte_carlo(DEFAULT, n=2500, seed=4, chunk_size=200, workers=1)
    assert again.summary.equals(one.summary)


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
    from costmodel.analysis import montecarlo as mc

    mc.PROCESS_MIN_TIER_DRAWS = 0  # would fork, were it allowed
    res = cm.monte_carlo(DEFAULT, n=n, seed=4, chunk_size=400, workers=2)
    return res.draws["tens"]["npv"].tolist()


def test_a_pool_worker_runs_the_draws_itself():
    """A daemonic multiprocessing worker may not have children: there the draws
    run in the worker's own thread, with the same numbers."""
    import multiprocessing as mp

    from costmodel.analysis import montecarlo as mc

    if not mc._can_fork():
        pytest.skip("forked worker processes are used on Linux only")
    with mp.get_context("fork").Pool(1) as pool:
        got = pool.apply(_draws_in_a_pool_worker, (1200,))
    one = cm.monte_carlo(DEFAULT, n=1200, seed=4, chunk_size=400, workers=1)
    assert got == one.draws["tens"]["npv"].tolist()


def _one_generator(inputs, n: int, seed: int) -> dict[str, np.ndarray]:
    """The documented definition of the draws, written out: one
    ``default_rng(seed)``, input after input in order."""
    rng = np.random.default_rng(seed)
    out = {}
    for x in inputs:
        if x.dist == "normal":
            drawn = bool(x.sd)
            v = rng.normal(x.value, x.sd, n) if drawn else np.full(n, x.value)
            v = np.clip(v, x.lower, x.upper)
        elif x.low == x.high:
            drawn, v = False, np.full(n, x.value)
        elif x.dist == "uniform":
            drawn, v = True, rng.uniform(x.low, x.high, n)
        else:
            drawn, v = True, rng.triangular(x.low, x.value, x.high, n)
        out[x.path] = np.round(v) if drawn and x.whole_months else v
    return out


@pytest.mark.parametrize(
    ("threshold", "tile", "huge"),
    [(0, 97, 1 << 22), (10**12, 97, 1 << 22), (0, 65_536, 1 << 22), (0, 97, 0)],
)  # two threads or one; tiles of 97 draws or one tile; tile buffer from numpy or mapped
def test_inputs_drawn_apart_are_the_numbers_of_one_generator(monkeypatch, threshold, tile, huge):
    """``sample`` draws the inputs before the first drawn normal each from its own
    generator advanced to its position (in two threads for large runs), a tile at
    a time: every number equals the one-generator definition, also after a normal
    input, a zero-width range, a zero sd and whole months."""
    from costmodel.analysis import montecarlo
    from costmodel.analysis.sensitivity import RangedInput

    monkeypatch.setattr(montecarlo, "THREAD_MIN_VALUES", threshold)
    monkeypatch.setattr(montecarlo, "TILE_DRAWS", tile)
    monkeypatch.setattr(montecarlo, "HUGE_PAGE_ADVICE_BYTES", huge)

    def x(path, dist="triangular", low=1.0, value=2.0, high=4.0, sd=None):
        return RangedInput(path, value, low, high, dist, sd, None, lower=0.0, upper=9.0)

    def kinds(i):
        return [x(f"a{i}"), x(f"b{i}", "uniform"), x(f"c{i}", low=2.0, high=2.0),
                x(f"tiers.t{i}.timeline.build_months"), x(f"d{i}", "normal", sd=0.0)]  # fmt: skip

    inputs = [*kinds(1), *kinds(2), x("f", "normal", sd=1.5), *kinds(3), x("g", "normal", sd=2.0)]
    got = montecarlo.sample(inputs, 1_001, seed=11)
    want = _one_generator(inputs, 1_001, seed=11)
    assert list(got) == list(want)
    for path in want:
        assert np.array_equal(got[path], want[path]), path
    months = got["tiers.t1.timeline.build_months"]
    assert np.all(months == np.round(months)) and len(set(months)) > 1


def test_timing_order_is_the_stable_lexicographic_order():
    """Draws sorted by timing: the order of ``np.lexsort`` (first column most
    significant, ties in draw order), whether the months fit one 16-bit key (radix
    sort) or not (more months, fractions, negatives: lexsort itself); the keys
    returned tell the same timings apart."""
    from costmodel.analysis.montecarlo import _timing_order

    rng = np.random.default_rng(5)
    cases = [
        [np.round(rng.uniform(0, 12, 5_000)), np.round(rng.uniform(0, 30, 5_000))],
        [np.round(rng.uniform(0, 300, 999)), np.round(rng.uniform(0, 300, 999)),
         np.round(rng.uniform(0, 3, 999))],
        [rng.uniform(0, 3, 100)],
        [np.round(rng.uniform(-2, 3, 100))],
        [np.zeros(7), np.zeros(7)],
    ]  # fmt: skip
    for columns in cases:
        order, keys = _timing_order(columns)
        want = np.lexsort(columns[::-1])
        np.testing.assert_array_equal(order, want)
        # the keys returned are equal exactly where the timings (in that order) are
        timings = np.stack([c[want] for c in columns], axis=1)
        keys = keys.reshape(keys.shape[0], -1)
        np.testing.assert_array_equal(
            np.all(keys[1:] == keys[:-1], axis=1), np.all(timings[1:] == timings[:-1], axis=1)
        )


def test_nothing_to_draw():
    """No ranged input, or only fixed ones: no draws, or the values themselves."""
    from costmodel.analysis.montecarlo import sample
    from costmodel.analysis.sensitivity import RangedInput

    assert sample([], 10, seed=1) == {}
    fixed = RangedInput("a", 2.0, 2.0, 2.0, "triangular", None, None)
    np.testing.assert_array_equal(sample([fixed], 3, seed=1)["a"], [2.0, 2.0, 2.0])


def test_tiers_share_an_order_of_the_draws_when_their_timing_leads_it():
    """A tier whose drawn timing paths are among another's runs in that tier's
    order (its paths first in the key); the others get their own; its numbers are
    the ones it gets run alone, in its own order."""
    from costmodel.analysis.montecarlo import _shared_orders

    assert _shared_orders({"a": ("r",), "b": ("b", "r"), "c": ("c", "r")}) == {
        ("r", "b"): ["a", "b"],
        ("c", "r"): ["c"],
    }
    assert _shared_orders({"a": ("x", "y"), "b": ("y", "x"), "c": ()}) == {
        (): ["c"],
        ("x", "y"): ["a", "b"],
    }
    # neither {x} nor {y} leads the other's key; {x, y, z} extends the first made
    assert _shared_orders({"c": ("x", "y", "z"), "a": ("x",), "b": ("y",)}) == {
        ("y",): ["b"],
        ("x", "y", "z"): ["a", "c"],
    }
    together = cm.monte_carlo(DEFAULT, n=2000, seed=4, chunk_size=300, workers=1)
    for tier in DEFAULT.tiers:
        alone = cm.monte_carlo(DEFAULT, n=2000, seed=4, tiers=[tier], chunk_size=300, workers=1)
        assert together.draws[tier].equals(alone.draws[tier])


def test_plan_in_two_threads_is_the_plan_in_one(monkeypatch):
    """Large runs plan the timing orders of the tier groups in two threads: the same
    jobs, in the same order, as one thread makes; every draw of a timing-ordered
    group is in exactly one job, and a job's draws are ascending."""
    from costmodel.analysis import montecarlo as mc

    inputs, _ = ranged_inputs(DEFAULT, include_normal=True)
    n = 3_000
    block = mc.sample_block(inputs, n, seed=2)
    draws = {x.path: block[:, k] for k, x in enumerate(inputs)}
    tiers = list(DEFAULT.tiers)

    def plan(threshold: int) -> list:
        monkeypatch.setattr(mc, "THREAD_MIN_VALUES", threshold)
        return mc._plan(DEFAULT, tiers, inputs, draws, n, chunk_size=400)

    one, two = plan(10**12), plan(0)
    assert len(one) == len(two) > 2
    groups = {tuple(j.group) for j in one}
    assert len(groups) == 2  # tens with hundreds; thousands on its own order
    for a, b in zip(one, two, strict=True):
        assert (a.group, a.lo, a.hi) == (b.group, b.lo, b.hi)
        np.testing.assert_array_equal(a.picked, b.picked)
        np.testing.assert_array_equal(a.read, b.read)
    for group in groups:
        picked = [j.picked for j in two if tuple(j.group) == group]
        assert all(np.all(np.diff(p) > 0) for p in picked)
        np.testing.assert_array_equal(np.sort(np.concatenate(picked)), np.arange(n))
