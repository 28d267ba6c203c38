"""Named scenarios: overlays on a base, tidy and wide views (the CLI: tests/cli)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import costmodel as cm
from costmodel.analysis.scenarios import METRIC_COLUMNS, CompareResult
from costmodel.inputs.resources import scenarios_dir
from tests.paths import HAND

GREENFIELD = scenarios_dir() / "greenfield.yaml"


@pytest.fixture(scope="module")
def base() -> cm.Assumptions:
    return cm.load_assumptions()


# ----------------------------------------------------------------------------- API


def test_base_comes_first_and_empty_overlays_equal_it(base):
    r = cm.compare(base, {"none": None, "no files": [], "no overrides": {}})
    assert r.scenarios == ["base", "none", "no files", "no overrides"]
    ref = r.models["base"]
    for name in r.scenarios[1:]:
        pd.testing.assert_frame_equal(r.wide.loc[name], r.wide.loc["base"], check_exact=True)
        m = r.models[name]
        for t in m.tiers:
            pd.testing.assert_frame_equal(m.cash_flow(t), ref.cash_flow(t), check_exact=True)
            pd.testing.assert_frame_equal(m.opex(t), ref.opex(t), check_exact=True)
        assert r.overlays[name] == ""
    assert (r.delta().loc["none"].fillna(0) == 0).all().all()


def test_electricity_price_changes_only_electricity_driven_lines(base, tmp_path):
    overlay = tmp_path / "power.yaml"
    # a mapping with only ``value`` merges into the default's (it keeps its range, as
    # --set does; a bare number would replace the ranged input, methodology §2)
    overlay.write_text("power:\n  price_per_kwh: {value: 0.8}\n", encoding="utf-8")
    r = cm.compare(base, {"file": overlay, "set": {"power.price_per_kwh": 0.8}})
    ratio = 0.8 / base.power.price_per_kwh.value
    b = r.models["base"]
    for name in ("file", "set"):
        m = r.models[name]
        for t in b.tiers:
            ob, om = b.opex(t), m.opex(t)
            for line in ("colocation", "staff", "maintenance", "insurance", "software"):
                pd.testing.assert_series_equal(ob[line], om[line], check_exact=True)
            # electricity is proportional to the price per kWh (methodology §3.2)
            pd.testing.assert_series_equal(
                om.electricity, ob.electricity * ratio, check_exact=False, rtol=1e-12
            )
            pd.testing.assert_series_equal(
                om.total - ob.total,
                om.electricity - ob.electricity,
                rtol=1e-9,
                atol=1e-6,
                check_names=False,
            )
            cb, cf = b.cash_flow(t), m.cash_flow(t)
            for col in ("gpu_hours", "revenue", "depreciation", "capex"):
                pd.testing.assert_series_equal(cb[col], cf[col], check_exact=True)
            # an income residual is the margin left after power (methodology §30): dearer
            # power lowers it; a market or book residual does not see power
            if base.terminal_value == "income":
                assert cf["terminal_value"].sum() <= cb["terminal_value"].sum()
            else:
                pd.testing.assert_series_equal(
                    cb["terminal_value"], cf["terminal_value"], check_exact=True
                )
            pd.testing.assert_frame_equal(b.capex(t), m.capex(t), check_exact=True)
            # (no electricity while the hall is being built, methodology §8.1)
            live = ob.electricity > 0
            assert live.sum() >= om.electricity.size - 13
            assert (om.electricity[live] > ob.electricity[live]).all()
            # dearer power lowers cumulative free cash flow at every month (the tax it
            # saves, paid at year end, is at most the tax rate times the extra opex)
            lower = cb.fcf.cumsum() - cf.fcf.cumsum()
            assert (lower >= -1e-6).all() and lower.iloc[-1] > 0
        w, wb = r.wide.loc[name], r.wide.loc["base"]
        unchanged = ["capex", "gpus", "it_kw", "revenue", "gpu_hours", "goodput"]
        pd.testing.assert_frame_equal(w[unchanged], wb[unchanged], check_exact=True)
        assert (w.npv < wb.npv).all()
        # (a tier built over the whole first year draws no power in it, methodology §8.1)
        assert (w.opex_year1 >= wb.opex_year1).all() and (w.opex_year1 > wb.opex_year1).any()
        assert (w.cost_per_gpu_hour > wb.cost_per_gpu_hour).all()
    pd.testing.assert_frame_equal(r.wide.loc["file"], r.wide.loc["set"], check_exact=True)


def test_paths_and_overrides_together(base):
    r = cm.compare(
        base,
        {
            "green": GREENFIELD,
            "green list": [str(GREENFIELD)],
            "both": {"paths": [GREENFIELD], "overrides": {"power.price_per_kwh": 0.45}},
        },
    )
    pd.testing.assert_frame_equal(r.wide.loc["green"], r.wide.loc["green list"])
    direct = cm.build(cm.layer(base, GREENFIELD, overrides={"power.price_per_kwh": 0.45}))
    pd.testing.assert_frame_equal(
        r.wide.loc["both"], direct.summary()[METRIC_COLUMNS].astype(float), check_names=False
    )
    # the default leases its hall (no facility capex); greenfield builds it:
    # capex_facility = it_kw * build_cost_per_kw[cooling] (methodology §4)
    assert (r.wide.loc["base"].capex_facility == 0).all()
    green = cm.layer(base, GREENFIELD)
    for t, tier in green.tiers.items():
        per_kw = green.facility.build_cost_per_kw[tier.cooling].value
        want = r.wide.loc[("green", t), "it_kw"] * per_kw
        assert r.wide.loc[("green", t), "capex_facility"] == pytest.approx(want, rel=1e-12)
        assert want > 0
    text = r.overlays["both"]
    assert str(GREENFIELD) in text and GREENFIELD.read_text(encoding="utf-8").strip() in text
    assert "power.price_per_kwh: 0.45" in text
    assert "base" in r.overlays["base"] and "10-servers.yaml" in r.overlays["base"]


def test_base_may_be_paths_or_default():
    r1 = cm.compare(HAND, {"x": {"finance.tax_rate": 0}})
    r2 = cm.compare([HAND], {})
    assert r1.wide.loc["base"].equals(r2.wide.loc["base"])
    assert r1.wide.loc[("base", "small"), "npv"] == pytest.approx(2_867_332.5)
    assert r1.wide.loc[("x", "small"), "npv"] == pytest.approx(2_867_332.5 + 955_777.5)
    assert cm.compare(None, {}).scenarios == ["base"]


def test_tidy_and_wide_agree(base):
    r = cm.compare(base, {"green": GREENFIELD})
    assert isinstance(r, CompareResult)
    assert list(r.tidy.columns) == ["scenario", "tier", "metric", "value"]
    assert list(r.wide.index.names) == ["scenario", "tier"]
    assert list(r.wide.columns) == METRIC_COLUMNS
    assert len(r.tidy) == r.wide.size
    for row in r.tidy.sample(40, random_state=1).itertuples():
        want = r.wide.at[(row.scenario, row.tier), row.metric]
        assert (math.isnan(want) and math.isnan(row.value)) or row.value == want
    pivot = r.tidy.pivot_table(
        index=["scenario", "tier"], columns="metric", values="value", dropna=False, sort=False
    )
    assert pivot.loc[("green", "hundreds"), "npv"] == r.wide.loc[("green", "hundreds"), "npv"]


def test_hostile_names_are_kept_verbatim():
    names = ["<script>alert(1)</script>", "=1+1", "a, b", "名字"]
    r = cm.compare(HAND, {n: {"finance.tax_rate": 0.1} for n in names})
    assert r.scenarios == ["base", *names]
    assert list(r.overlays) == ["base", *names]
    assert list(r.tidy.scenario.unique()) == ["base", *names]
    assert list(r.wide.index.get_level_values("scenario").unique()) == ["base", *names]


def test_the_name_base_is_reserved():
    with pytest.raises(cm.AssumptionError, match="reserved"):
        cm.compare(HAND, {"base": {"finance.tax_rate": 0}})


def test_bad_overlay_is_an_assumption_error(tmp_path):
    with pytest.raises(cm.AssumptionError, match="no such file"):
        cm.compare(HAND, {"x": tmp_path / "missing.yaml"})
    bad = tmp_path / "bad.yaml"
    bad.write_text("power:\n  price_per_kwh: -1\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError, match="power.price_per_kwh"):
        cm.compare(HAND, {"x": bad})
