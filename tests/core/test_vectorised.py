"""The engine's scenario axis: S variants at once equal S single runs.

A staged, financed, ramped case with expiring losses and a market terminal
value; the variants differ in construction months, ramp, a stage's month,
interest rate, loan term and share, market decline and discount rate, so that
every engine path runs: by draw (timing differs between variants) and by year
at once (timing shared, rates differ), against single runs (always by year).
Monte Carlo with ranged timing draws whole months and equals single builds.
"""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import costmodel as cm
from costmodel.core import engine, timing
from costmodel.core.engine import run_monthly, tier_inputs
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import deployments
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.runs import run_variants
from tests.paths import HAND

OVERLAY = {
    "schema_version": 2,
    "horizon_years": 3,
    "terminal_value": "market",
    "timeline": {"build_months": 3, "ramp_months": 4},
    "finance": {"loss_carryforward_years": 1},
    "financing": {"debt_share": 0.6, "interest_rate": 0.06, "term_years": 2},
    "depreciation": {
        c: {"market_decline": 0.2} for c in ("servers", "network", "storage", "facility")
    },
    "tiers": {"small": {"reserve_headroom": False, "stages": [{"month": 14, "gpus": 8}]}},
}
RNG = np.random.default_rng(7)
S = 24
TIMING = {
    "timeline.build_months": RNG.choice([0.0, 2.0, 3.0, 5.4, 16.0], S),
    "timeline.ramp_months": RNG.choice([0.0, 1.5, 4.0, 9.0], S),
    "tiers.small.stages.0.month": RNG.choice([8.0, 14.0, 20.0], S),
}
RATES = {
    "financing.interest_rate": RNG.choice([0.0, 0.03, 0.06, 0.11], S),
    "financing.term_years": RNG.choice([1.0, 2.0, 4.0], S),
    "financing.debt_share": RNG.choice([0.0, 0.3, 0.6], S),
    "depreciation.servers.market_decline": RNG.uniform(0.0, 0.6, S),
    "finance.discount_rate": RNG.choice([0.05, 0.08, 0.12], S),
    "revenue.price_per_gpu_hour": RNG.uniform(20.0, 200.0, S),
}


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    path = tmp_path_factory.mktemp("vec") / "v2.yaml"
    path.write_text(yaml.safe_dump(OVERLAY))
    return cm.load_assumptions(HAND, path)


def _close(vectorised, singles, what: str) -> None:
    """Equal to rel 1e-12, or 1e-12 of the largest value for values near 0."""
    v = np.asarray(vectorised, dtype=float)
    s = np.asarray(singles, dtype=float)
    np.testing.assert_array_equal(np.isnan(v), np.isnan(s), err_msg=what)
    ok = ~np.isnan(v)
    scale = np.max(np.abs(s[ok]), initial=0.0)
    np.testing.assert_allclose(v[ok], s[ok], rtol=1e-12, atol=1e-12 * scale, err_msg=what)


CASES = {
    "timing-and-rates": TIMING | RATES,  # by draw
    "rates": RATES,  # one timing: by year at once
}


@pytest.fixture(params=list(CASES))
def varied(request):
    """Varied inputs of each case."""
    return CASES[request.param]


def test_variants_equal_single_runs(staged, varied):
    vec = run_variants(staged, varied)["small"]
    singles = [
        run_variants(staged, {p: float(v[i]) for p, v in varied.items()})["small"] for i in range(S)
    ]
    for name in vec.metrics:
        _close(vec.metrics[name], [float(r.metrics[name][0]) for r in singles], name)
    for group in ("flows", "debt", "annual"):
        lines = getattr(vec, group)
        for name in lines:
            rows = np.concatenate([np.asarray(getattr(r, group)[name]) for r in singles])
            _close(np.broadcast_to(lines[name], rows.shape), rows, f"{group}.{name}")
    for name in vec.opex_by_year:
        rows = np.concatenate([np.asarray(r.opex_by_year[name]) for r in singles])
        _close(vec.opex_by_year[name], rows, f"opex_by_year.{name}")
    fcf = np.concatenate([r.flows["fcf"] for r in singles])
    _close(vec.monthly_fcf(), fcf, "monthly_fcf")
    assert np.ptp(vec.metrics["equity_irr"][~np.isnan(vec.metrics["equity_irr"])]) > 0


def test_summary_by_year_equals_the_monthly_engine(staged):
    """The summary computed from year tables equals the month-by-month one."""
    for varied in ({}, RATES):
        ti = resolve_tier(staged, "small")
        values = ti.values()
        for key, path in ti.paths().items():
            if path in varied:
                values[key] = varied[path]
        fast = cm.run_variants(staged, varied)["small"].metrics
        q = tier_inputs(TierParams.of(values))
        monthly = run_monthly(q, ti.config, deployments(q, ti.config.stages, ti.config.months))
        assert list(fast) == list(monthly.metrics)
        for name in fast:
            _close(np.broadcast_to(fast[name], np.shape(monthly.metrics[name])),
                   monthly.metrics[name], name)  # fmt: skip


def test_segments_cut_the_months_where_the_fcf_can_change(staged):
    """A by-year run computes NPV and IRR on segments of months over which the
    FCF is constant: they cover months 0..M in order, month 0, every year end,
    capex month and M stand alone, and the monthly engine's FCF is constant over
    each segment (and a segment's neighbours differ from it somewhere)."""
    ti = resolve_tier(staged, "small")
    q = tier_inputs(ti.params())
    deps = deployments(q, ti.config.stages, ti.config.months)
    fcf = run_monthly(q, ti.config, deps).flows["fcf"][0]
    months = ti.config.months
    t, ramp = engine.shared_timing(q, deps)
    capex_months = tuple(sorted({int(e.month[0]) for e in timing.capex_events(q, deps)}))
    seg = timing.segments(months, (tuple(t), ramp), capex_months)
    assert sum(seg.runs) == months + 1
    np.testing.assert_array_equal(seg.start, np.cumsum((0, *seg.runs[:-1])))
    for m in {0, months, *range(12, months + 1, 12), *capex_months}:
        assert seg.runs[seg.at[m]] == 1 and seg.start[seg.at[m]] == m
    scale = np.abs(fcf).max()
    for a, k in zip(seg.start, seg.runs, strict=True):
        assert np.ptp(fcf[a : a + k]) <= 1e-12 * scale, (a, k)
    assert len(seg.runs) < months / 2  # fewer terms than months
    by_segment = np.repeat(fcf[seg.start], seg.runs)
    np.testing.assert_allclose(by_segment, fcf, rtol=0, atol=1e-12 * scale)


def test_a_variant_does_not_depend_on_its_position(staged, varied):
    """Monte Carlo results do not depend on the chunk size: a variant computed in a
    chunk or in part of it gives the same numbers to the last digit."""
    whole = run_variants(staged, varied)["small"].metrics
    for lo, hi in ((3, 17), (1, 23), (10, 12)):
        part = run_variants(staged, {p: v[lo:hi] for p, v in varied.items()})["small"].metrics
        for name in whole:
            np.testing.assert_array_equal(whole[name][lo:hi], part[name], err_msg=name)


def test_the_path_follows_the_timings(staged, monkeypatch):
    """Variants of one timing go by year, of several by draw: neither evaluates
    month by month for the NPV, the IRR and the cost per GPU-hour; by draw, the
    equity IRR of variants that borrow is the monthly run's."""
    calls = []
    monthly = engine.run_monthly
    monkeypatch.setattr(engine, "run_monthly", lambda *a: calls.append(1) or monthly(*a))
    for varied in (RATES, TIMING | RATES):
        tier = run_variants(staged, varied)["small"]
        for name in ("npv", "irr", "cost_per_gpu_hour"):
            tier.metrics[name]
        assert calls == []
    tier.metrics["equity_irr"]
    assert calls == [1]


RANGED_TIMING = {
    "schema_version": 2,
    "horizon_years": {"value": 3, "low": 2, "high": 4},  # structural: held fixed
    "terminal_value": "market",
    "timeline": {
        "build_months": {"value": 3, "low": 1, "high": 7},
        "ramp_months": {"value": 4, "low": 1, "high": 9, "dist": "uniform"},
    },
    "finance": {
        "loss_carryforward_years": {"value": 1, "low": 0, "high": 3},
        "discount_rate": {"value": 0.08, "low": 0.05, "high": 0.12},
    },
    "financing": {
        "debt_share": 0.6,
        "interest_rate": {"value": 0.06, "low": 0.0, "high": 0.11},
        "term_years": {"value": 2, "low": 1, "high": 4},
        "cost_of_equity": {"value": 0.12, "low": 0.1, "high": 0.2},
    },
    "depreciation": {
        c: {"market_decline": 0.2} for c in ("servers", "network", "storage", "facility")
    }
    | {"servers": {"market_decline": 0.2, "life_years": {"value": 2, "low": 1, "high": 4}}},
    "tiers": {"small": {"reserve_headroom": False, "stages": [{"month": 14, "gpus": 8}]}},
}
MC_METRICS = ("npv", "irr", "cost_per_gpu_hour")


@pytest.fixture(scope="module")
def ranged_timing(tmp_path_factory):
    path = tmp_path_factory.mktemp("vec") / "ranged.yaml"
    path.write_text(yaml.safe_dump(RANGED_TIMING))
    return cm.load_assumptions(HAND, path)


#: ranged whole numbers the Monte Carlo draws (rounded) and holds (methodology §11.3)
DRAWN_WHOLE = (
    "timeline.build_months",
    "timeline.ramp_months",
    "depreciation.servers.life_years",
    "financing.term_years",
    "finance.loss_carryforward_years",
)


def test_monte_carlo_draws_timing_in_whole_months_and_goes_by_year(ranged_timing, monkeypatch):
    """Ranged timing, a ranged depreciation life, loan term and loss carry-forward
    are drawn in whole numbers (the horizon, structural, is held at its value and
    named); the draws go by year or by draw, not month by month, and equal single
    builds; chunks and threads do not matter."""
    calls = []
    monthly = engine.run_monthly
    monkeypatch.setattr(engine, "run_monthly", lambda *a: calls.append(1) or monthly(*a))
    mc = cm.monte_carlo(ranged_timing, n=600, seed=5, chunk_size=250)
    assert calls == []
    assert mc.held_fixed == ["horizon_years"]
    assert "horizon_years" not in mc.samples
    for path in DRAWN_WHOLE:
        drawn = mc.samples[path].to_numpy()
        np.testing.assert_array_equal(drawn, np.round(drawn))
        assert len(np.unique(drawn)) >= 3
    again = cm.monte_carlo(ranged_timing, n=600, seed=5, chunk_size=97, workers=1)
    # a chunk of one timing goes by year, one of several by draw: equal to rounding
    np.testing.assert_allclose(mc.draws["small"], again.draws["small"], rtol=1e-11, atol=1e-2)
    integer = {x.path for x in mc.inputs if x.integer}
    assert integer == set(DRAWN_WHOLE) - {"timeline.build_months", "timeline.ramp_months"}
    for i in (0, 1, 17, 311, 599):
        drawn = {p: float(v.iloc[i]) for p, v in mc.samples.items()}
        drawn = {p: int(v) if p in integer else v for p, v in drawn.items()}
        one = cm.build(cm.with_overrides(ranged_timing, drawn)).summary()
        for m in MC_METRICS:
            _close([mc.draws["small"][m].iloc[i]], [one.loc["small", m]], f"{m} of draw {i}")


def test_tornado_varies_timing_in_whole_months(ranged_timing):
    t = cm.tornado(ranged_timing).set_index("input")
    assert (t.loc["timeline.build_months", "low"], t.loc["timeline.build_months", "high"]) == (1, 7)
    one = cm.build(cm.with_overrides(ranged_timing, {"timeline.ramp_months": 9.0})).summary()
    _close([t.loc["timeline.ramp_months", "at_high"]], [one.loc["small", "npv"]], "npv")


def test_blas_runs_single_threaded_inside_the_engine_and_is_restored_after():
    """threadpoolctl sets every loaded BLAS to one thread while engine code runs
    (nested uses counted) and puts the previous count back after the last."""
    from threadpoolctl import ThreadpoolController

    from costmodel.core.threads import blas_single_thread, blas_threads

    blas = ThreadpoolController().select(user_api="blas")
    if not blas.lib_controllers:
        pytest.skip("no BLAS library that threadpoolctl can control is loaded")
    with blas.limit(limits=2):
        assert set(blas_threads()) == {2}
        with blas_single_thread():
            assert set(blas_threads()) == {1}
            with blas_single_thread():
                assert set(blas_threads()) == {1}
            assert set(blas_threads()) == {1}  # the outer use still runs
        assert set(blas_threads()) == {2}
