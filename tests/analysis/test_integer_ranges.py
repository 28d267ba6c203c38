"""Integers take ranges (methodology §11.3): every whole-number input accepts the
mapping form with low and high; the tornado varies each at its ends (equal to
separate builds there); the Monte Carlo draws and rounds the non-structural ones
and names the structural ones it holds at their value."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml

import costmodel as cm
from costmodel.analysis.sensitivity import ranged_inputs
from costmodel.inputs.resources import default_assumptions_dir
from tests.paths import HAND

#: the default at a GPU-hour price at which every tier pays tax, so that the
#: depreciation life moves the NPV (through the tax) in every tier
PROFITABLE = {"revenue.price_per_gpu_hour": 60.0}


def overlay(tmp_path, data: dict, name: str = "ranges.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def ranged(tmp_path_factory):
    """The default with servers' life 5 in 4..6, the horizon 6 in 5..7, the hundreds
    tier's 128 GPUs in 72..256 (both ends in the hundreds class, whose design the tier
    takes: a count across a class boundary rebuilds the design, which the sweep does)
    and the loss carry-forward 5 in 3..8."""
    data = {
        "horizon_years": {"value": 6, "low": 5, "high": 7, "source": "test"},
        "depreciation": {"servers": {"life_years": {"value": 5, "low": 4, "high": 6}}},
        "tiers": {"hundreds": {"gpus": {"value": 128, "low": 72, "high": 256}}},
        "finance": {"loss_carryforward_years": {"value": 5, "low": 3, "high": 8}},
    }
    path = overlay(tmp_path_factory.mktemp("ints"), data)
    return cm.load_assumptions(default_assumptions_dir(), path, overrides=PROFITABLE)


def built(a, path: str, value: int) -> pd.DataFrame:
    """A separate build with ``path`` at ``value`` (its range kept)."""
    return cm.build(cm.with_overrides(a, {path: value})).summary()


@pytest.mark.parametrize(
    ("path", "low", "high"),
    [
        ("depreciation.servers.life_years", 4, 6),
        ("horizon_years", 5, 7),
        ("tiers.hundreds.gpus", 72, 256),
        ("finance.loss_carryforward_years", 3, 8),
    ],
)
def test_the_tornado_moves_by_separate_builds_at_the_ends(ranged, path, low, high):
    t = cm.tornado(ranged)
    rows = t[t["input"] == path].set_index("tier")
    assert len(rows)
    at_low, at_high = built(ranged, path, low), built(ranged, path, high)
    for tier, r in rows.iterrows():
        assert (r["low"], r["high"]) == (low, high)
        assert r["at_low"] == pytest.approx(at_low.loc[tier, "npv"], rel=1e-9)
        assert r["at_high"] == pytest.approx(at_high.loc[tier, "npv"], rel=1e-9)
        swing = abs(at_high.loc[tier, "npv"] - at_low.loc[tier, "npv"])
        assert r["swing"] == pytest.approx(swing, rel=1e-9, abs=1e-6)


def test_a_life_of_4_to_6_years_moves_the_npv(ranged):
    """4 against 6 years of server depreciation: where tax is paid (hundreds and
    thousands at this price), a shorter life brings the deduction forward, so the
    NPV is higher at 4 than at 6."""
    t = cm.tornado(ranged)
    rows = t[t["input"] == "depreciation.servers.life_years"].set_index("tier")
    assert set(rows.index) == set(ranged.tiers)
    taxed = ["hundreds", "thousands"]
    assert all(cm.build(ranged).results[k].flows["tax"][0].sum() > 0 for k in taxed)
    assert (rows.loc[taxed, "at_low"] > rows.loc[taxed, "at_high"]).all()


def test_monte_carlo_holds_structural_integers_and_draws_the_others(ranged):
    mc = cm.monte_carlo(ranged, n=400, seed=3)
    assert mc.held_fixed == ["horizon_years", "tiers.hundreds.gpus"]
    assert not set(mc.held_fixed) & set(mc.samples.columns)
    for path in ("depreciation.servers.life_years", "finance.loss_carryforward_years"):
        drawn = mc.samples[path].to_numpy()
        np.testing.assert_array_equal(drawn, np.round(drawn))
    life = mc.samples["depreciation.servers.life_years"]
    assert set(life.unique()) == {4.0, 5.0, 6.0}
    for i in (0, 7, 399):
        draw = {p: float(v.iloc[i]) for p, v in mc.samples.items()}
        whole = {x.path for x in mc.inputs if x.integer}
        draw = {p: int(v) if p in whole else v for p, v in draw.items()}
        one = cm.build(cm.with_overrides(ranged, draw)).summary()
        for t in ranged.tiers:
            assert mc.draws[t]["npv"].iloc[i] == pytest.approx(one.loc[t, "npv"], rel=1e-9)


def mapping_form(node, path=""):
    """Every number of a raw assumption tree written as ``{value, low, high,
    source}`` (a mapping already written keeps its keys and gets a range where it
    has none); whole numbers with a range around the value (a tier's GPUs up to
    twice, lives and loan terms up by one), others with a zero-width range."""
    if isinstance(node, dict) and "value" not in node:
        return {k: mapping_form(v, f"{path}.{k}" if path else k) for k, v in node.items()}
    if isinstance(node, list):
        return [mapping_form(v, f"{path}.{i}") for i, v in enumerate(node)]
    value = node["value"] if isinstance(node, dict) else node
    if isinstance(value, bool) or not isinstance(value, int | float):
        return node
    if path == "schema_version" or path.startswith(("reference.", "correlations.")):
        return node  # not inputs (a correlation's rho is a plain number)
    high = value
    if isinstance(value, int) and path.endswith("gpus") and ".stages." not in path:
        high = 2 * value
    elif isinstance(value, int) and path.endswith(("life_years", "term_years")):
        high = value + 1
    out = dict(node) if isinstance(node, dict) else {"value": value}
    out.setdefault("source", "test: mapping form")
    out.setdefault("low", value)
    out.setdefault("high", high)
    return out


@pytest.mark.parametrize("case", ["hand v1", "default"])
def test_every_input_in_mapping_form_with_integer_ranges_loads_and_matches(tmp_path, case):
    """The v1 hand case and the bundled default with every input, integers included,
    written as a mapping with a range: they load, every integer carries its range,
    and the summary equals the plain file's."""
    plain = cm.load_assumptions(HAND) if case == "hand v1" else cm.load_assumptions()
    data = mapping_form(plain._source.data)
    path = overlay(tmp_path, data, "mapping.yaml")
    a = cm.load_assumptions(path)
    first = next(iter(a.tiers))
    assert a.tiers[first].gpus.high == 2 * plain.tiers[first].gpus
    life = a.depreciation.servers.life_years
    assert (life.low, life.high) != (None, None) and life.source
    paths = {x.path for x in ranged_inputs(a)[0] if x.integer}
    assert {"horizon_years", "depreciation.servers.life_years", f"tiers.{first}.gpus"} <= paths
    pd.testing.assert_frame_equal(cm.build(a).summary(), cm.build(plain).summary())


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        ({"horizon_years": {"value": 6, "low": 4.5}}, "low 4.5: must be a whole number"),
        ({"horizon_years": {"value": 6, "high": 31}}, "high 31: must be less than or equal"),
        ({"horizon_years": {"value": 6, "low": 7}}, "low 7 must not exceed value 6"),
        (
            {"depreciation": {"servers": {"life_years": {"value": 5, "lo": 4}}}},
            "unknown key 'lo'",
        ),
        (
            {"tiers": {"tens": {"gpus": {"value": 32, "low": 20, "high": 64}}}},
            "low 20: must be a positive multiple of 8",
        ),
        (
            {"timeline": {"build_months": {"value": 3, "low": 1, "high": 4.5}}},
            "high 4.5: must be a whole number of months",
        ),
    ],
)
def test_integer_ranges_are_validated(tmp_path, data, rule):
    path = overlay(tmp_path, data)
    with pytest.raises(cm.AssumptionError, match=rule.replace("(", r"\(")):
        cm.load_assumptions(default_assumptions_dir(), path)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_memo_names_the_inputs_the_monte_carlo_held(ranged, lang):
    """The memo's Monte Carlo part names the ranged structural inputs it held at
    their value: the horizon and the hundreds tier's GPUs (with the tier)."""
    from costmodel.analysis.bundle import analyze
    from costmodel.report.memo.labels import input_label, tier_label
    from costmodel.report.memo.render import render_memo

    m = cm.build(ranged)
    page = render_memo(m, lang, analysis=analyze(m, draws=40, seed=1))
    held = page[page.index('data-mc="held"') :].split("</p>", 1)[0]
    horizon = input_label(m, "tens", "horizon_years", lang)[0]
    gpus = input_label(m, "hundreds", "tiers.hundreds.gpus", lang)[0]
    assert horizon in held
    assert f"{gpus} ({tier_label(m, 'hundreds', lang)})" in held
    assert "life" not in held.lower()
