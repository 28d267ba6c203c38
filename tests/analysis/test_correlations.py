"""Correlated draws (methodology §9.1): the Gaussian copula's rank correlation, the
rules of ``correlations`` (ranged inputs, positive definite), and draws unchanged
without it."""

from __future__ import annotations

import json
import math
import statistics

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis.montecarlo import inverse_cdf, normal_cdf, sample_columns
from costmodel.analysis.sensitivity import RangedInput, ranged_inputs
from costmodel.inputs.errors import AssumptionError

DEFAULT = cm.load_assumptions()
PRICE, UTIL = "revenue.price_per_gpu_hour", "operations.utilization"
#: The default with its ``correlations`` cleared: every input drawn independently.
INDEPENDENT = cm.with_overrides(DEFAULT, {"correlations": []})


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (no ties in continuous draws)."""
    rx = np.argsort(np.argsort(x)).astype(float)
    ry = np.argsort(np.argsort(y)).astype(float)
    return float(np.corrcoef(rx, ry)[0, 1])


def _with(pairs):
    return cm.with_overrides(DEFAULT, {"correlations": pairs})


def _columns(a, n=20_000, seed=7):
    inputs, _ = ranged_inputs(a, include_normal=True)
    inputs = [x for x in inputs if not x.structural]
    cols = sample_columns(inputs, n, seed, list(a.correlations))
    return {x.path: cols[k] for k, x in enumerate(inputs)}


def test_price_and_utilization_at_rho_06_have_the_copulas_rank_correlation():
    a = _with([{"a": PRICE, "b": UTIL, "rho": 0.6, "source": "test"}])
    d = _columns(a)
    expected = 6 / math.pi * math.asin(0.6 / 2)  # 0.582 for a Gaussian copula
    assert expected == pytest.approx(0.582, abs=5e-4)
    assert _spearman(d[PRICE], d[UTIL]) == pytest.approx(expected, abs=0.03)
    # the other inputs stay independent of both
    assert _spearman(d[PRICE], d["power.price_per_kwh"]) == pytest.approx(0, abs=0.03)


def test_without_correlations_the_rank_correlation_is_near_zero():
    d = _columns(INDEPENDENT)
    assert _spearman(d[PRICE], d[UTIL]) == pytest.approx(0, abs=0.03)


def test_the_defaults_pairs_have_the_copulas_rank_correlation():
    """The bundled default draws its own pairs together (95-correlations.yaml):
    rank correlation 6/pi asin(rho/2) for each, zero for a pair it does not name."""
    d = _columns(DEFAULT)
    assert DEFAULT.correlations
    for c in DEFAULT.correlations:
        expected = 6 / math.pi * math.asin(c.rho / 2)
        assert _spearman(d[c.a], d[c.b]) == pytest.approx(expected, abs=0.03), (c.a, c.b)
    assert _spearman(d[UTIL], d["power.price_per_kwh"]) == pytest.approx(0, abs=0.03)


def test_correlations_change_the_draws_of_the_paired_inputs_alone():
    """An input's draws come from its own stream: the pairs of ``correlations``
    change the draws of the inputs they name and leave the others' unchanged."""
    inputs, _ = ranged_inputs(DEFAULT, include_normal=True)
    inputs = [x for x in inputs if not x.structural]
    pairs = list(DEFAULT.correlations)
    named = {p for c in pairs for p in (c.a, c.b)}
    alone, together = sample_columns(inputs, 300, 5, []), sample_columns(inputs, 300, 5, pairs)
    for k, x in enumerate(inputs):
        assert np.array_equal(alone[k], together[k]) == (x.path not in named), x.path


def test_the_copula_keeps_each_inputs_own_distribution():
    """Margins under the copula: the triangular and uniform quantiles by hand."""
    a = _with([{"a": PRICE, "b": UTIL, "rho": 0.6}])
    d = _columns(a, n=40_000)
    q = a.revenue.price_per_gpu_hour  # a triangle (low, value, high) in the default
    lo, mode, hi = q.low, q.value, q.high
    assert lo < mode < hi
    assert d[PRICE].min() >= lo and d[PRICE].max() <= hi
    assert d[PRICE].mean() == pytest.approx((lo + mode + hi) / 3, abs=0.05)
    # the triangle's median: lo + sqrt((hi - lo)(mode - lo) / 2) when the mode is at or
    # above the middle, else hi - sqrt((hi - lo)(hi - mode) / 2)
    if mode >= (lo + hi) / 2:
        median = lo + math.sqrt((hi - lo) * (mode - lo) / 2)
    else:
        median = hi - math.sqrt((hi - lo) * (hi - mode) / 2)
    assert np.median(d[PRICE]) == pytest.approx(median, abs=0.05)
    # uniform: the inverse CDF at u is low + u (high - low)
    x = RangedInput("p", 2.0, 1.0, 4.0, "uniform", None, None)
    z = np.array([-1.0, 0.0, 1.0])
    u = np.array([statistics.NormalDist().cdf(v) for v in z])
    np.testing.assert_allclose(inverse_cdf(x, z), 1.0 + 3.0 * u, rtol=1e-14)
    # triangular (1, 2, 4): F(2) = 1/3, so Phi(z) = 1/3 maps to the mode
    t = RangedInput("t", 2.0, 1.0, 4.0, "triangular", None, None)
    z13 = statistics.NormalDist().inv_cdf(1 / 3)
    assert inverse_cdf(t, np.array([z13]))[0] == pytest.approx(2.0, abs=1e-12)
    # normal: value + sd z, clipped to the field's interval
    nrm = RangedInput("n", 0.5, None, None, "normal", 0.2, None, lower=0.0, upper=1.0)
    np.testing.assert_allclose(inverse_cdf(nrm, np.array([-3.0, 1.0, 3.0])), [0.0, 0.7, 1.0])


def test_normal_cdf_is_accurate_to_double_precision():
    z = np.linspace(-8, 8, 161)
    ref = np.array([statistics.NormalDist().cdf(v) for v in z])
    np.testing.assert_allclose(normal_cdf(z), ref, rtol=1e-13, atol=1e-16)
    assert normal_cdf(np.array([1.959963984540054]))[0] == pytest.approx(0.975, abs=1e-15)
    assert normal_cdf(np.array([0.0]))[0] == 0.5


def test_same_seed_same_numbers_with_correlations():
    a = _with([{"a": PRICE, "b": UTIL, "rho": -0.4}])
    one = cm.monte_carlo(a, n=300, seed=9)
    two = cm.monte_carlo(a, n=300, seed=9)
    assert one.samples.equals(two.samples)
    for t in a.tiers:
        assert one.draws[t].equals(two.draws[t])
    assert one.correlations == [(PRICE, UTIL, -0.4)]
    assert cm.monte_carlo(INDEPENDENT, n=10, seed=1).correlations == []


def test_a_matrix_that_is_not_positive_definite_is_refused_naming_the_pairs():
    c = "power.price_per_kwh"
    pairs = [
        {"a": PRICE, "b": UTIL, "rho": 0.9},
        {"a": UTIL, "b": c, "rho": 0.9},
        {"a": PRICE, "b": c, "rho": -0.9},
    ]
    with pytest.raises(AssumptionError) as err:
        _with(pairs)
    text = str(err.value)
    assert "positive definite" in text
    for p in (f"{PRICE} ~ {UTIL}", f"{UTIL} ~ {c}", f"{PRICE} ~ {c}"):
        assert p in text


def test_a_path_that_names_no_input_is_refused_one_held_fixed_is_inactive():
    # methodology §9.1: a typo is an error; an input without a range (the tax rate) or
    # of a removed section (no contract) leaves nothing to draw together
    with pytest.raises(AssumptionError) as err:
        _with([{"a": "no.such.input", "b": UTIL, "rho": 0.5}])
    assert "correlations.0.a" in str(err.value) and "must name an input" in str(err.value)
    fixed = _with([{"a": PRICE, "b": "finance.tax_rate", "rho": 0.5}])
    cleared = _with([])
    mc = cm.monte_carlo(fixed, n=200, seed=3, workers=1)
    assert mc.correlations == []
    base = cm.monte_carlo(cleared, n=200, seed=3, workers=1)
    assert mc.samples.equals(base.samples)  # the draws of a model without the pair


def test_rho_outside_minus_one_one_and_a_pair_twice_are_refused():
    for rho in (1.0, -1.0, 1.5):
        with pytest.raises(AssumptionError, match="rho"):
            _with([{"a": PRICE, "b": UTIL, "rho": rho}])
    with pytest.raises(AssumptionError, match="given twice"):
        _with([{"a": PRICE, "b": UTIL, "rho": 0.5}, {"a": UTIL, "b": PRICE, "rho": 0.4}])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_memo_says_which_inputs_were_drawn_together(lang):
    """The memo's Monte Carlo part names each pair drawn together with its rho; without
    correlations it has no such sentence."""
    from costmodel.analysis.bundle import analyze
    from costmodel.report.memo.labels import input_label
    from costmodel.report.memo.render import render_memo

    a = _with([{"a": PRICE, "b": UTIL, "rho": 0.6, "source": "test"}])
    m = cm.build(a)
    page = render_memo(m, lang, analysis=analyze(m, draws=40, seed=1))
    together = page[page.index('data-mc="together"') :].split("</p>", 1)[0]
    for path in (PRICE, UTIL):
        assert input_label(m, "tens", path, lang)[0] in together
    assert "rho 0.60" in together
    plain = cm.build(INDEPENDENT)
    assert 'data-mc="together"' not in render_memo(
        plain, lang, analysis=analyze(plain, draws=40, seed=1)
    )


def test_the_cli_reports_the_pairs_and_refuses_a_bad_matrix(tmp_path):
    from typer.testing import CliRunner

    from costmodel.cli import get_app
    from costmodel.inputs.resources import default_assumptions_dir

    runner = CliRunner()
    good = tmp_path / "corr.yaml"
    good.write_text(f"correlations:\n  - {{a: {PRICE}, b: {UTIL}, rho: 0.6, source: test}}\n")
    base = str(default_assumptions_dir())
    args = ["montecarlo", base, str(good), "-n", "200", "--seed", "3"]
    res = runner.invoke(get_app(), [*args, "--format", "json"])
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["correlations"] == [{"a": PRICE, "b": UTIL, "rho": 0.6}]
    res = runner.invoke(get_app(), args, env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "drawn together" in res.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "correlations:\n"
        f"  - {{a: {PRICE}, b: {UTIL}, rho: 0.9}}\n"
        f"  - {{a: {UTIL}, b: power.price_per_kwh, rho: 0.9}}\n"
        f"  - {{a: {PRICE}, b: power.price_per_kwh, rho: -0.9}}\n"
    )
    res = runner.invoke(get_app(), ["montecarlo", base, str(bad), "-n", "10"])
    assert res.exit_code != 0 and "positive definite" in res.stderr


def test_copula_draws_are_the_documented_product_per_block(monkeypatch):
    """The paired inputs' draws are, bit for bit, the definition of methodology
    §9.1 and §34 written out: per block ``b``, ``Z`` of each paired input's
    ``standard_normal(m)`` from the stream ``SeedSequence(seed, spawn_key=(b,
    blake2b(path)))``, ``L @ Z`` in one product, each row through its input's
    inverse CDF. ``n`` spans three blocks (blocks of 1,000 here)."""
    import hashlib

    from costmodel.analysis import draws
    from costmodel.analysis import montecarlo as mc

    monkeypatch.setattr(draws, "BLOCK_SIZE", 1_000)
    inputs, _ = ranged_inputs(DEFAULT, include_normal=True)
    inputs = [x for x in inputs if not x.structural]
    pairs = mc.active_pairs(DEFAULT.correlations, [x.path for x in inputs])
    named = {p for c in pairs for p in (c.a, c.b)}
    linked = [k for k, x in enumerate(inputs) if x.path in named]
    factor = mc.cholesky([inputs[k] for k in linked], pairs)
    n = 2_501
    expected = np.empty((len(linked), n))
    for b, lo in enumerate(range(0, n, 1_000)):
        m = min(n, lo + 1_000) - lo
        z = np.empty((len(linked), m))
        for row, k in enumerate(linked):
            digest = hashlib.blake2b(inputs[k].path.encode(), digest_size=8).digest()
            key = (b, int.from_bytes(digest, "little"))
            z[row] = np.random.default_rng(
                np.random.SeedSequence(5, spawn_key=key)
            ).standard_normal(m)
        z = factor @ z
        for row, k in enumerate(linked):
            expected[row, lo : lo + m] = inverse_cdf(inputs[k], z[row])
    np.testing.assert_array_equal(sample_columns(inputs, n, 5, pairs)[linked], expected)
