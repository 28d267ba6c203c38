"""The Python API a finance script expects: ``build(x, overrides=...)``, a way to
change one input, short reprs, and the units of the summary."""

from __future__ import annotations

import pytest

import costmodel as cm


@pytest.fixture(scope="module")
def base():
    return cm.load_assumptions()


def test_build_takes_overrides_and_leaves_the_assumptions_unchanged(base):
    via_build = cm.build(base, overrides={"power.price_per_kwh": 0.5})
    via_copy = cm.build(cm.with_overrides(base, {"power.price_per_kwh": 0.5}))
    assert via_build.summary().equals(via_copy.summary())
    assert base.power.price_per_kwh.value == 0.71  # the caller's set is not changed
    assert via_build.assumptions.power.price_per_kwh.value == 0.5
    assert via_build.summary().loc["tens", "npv"] != cm.build(base).summary().loc["tens", "npv"]


def test_build_takes_paths_and_overrides_as_load_assumptions_does(base):
    m = cm.build(["default", "scenario:bank-loan"], overrides={"operations.utilization": "60%"})
    a = cm.load_assumptions(
        "default", "scenario:bank-loan", overrides={"operations.utilization": 0.6}
    )
    assert m.summary().equals(cm.build(a).summary())
    assert cm.build().summary().equals(cm.build(base).summary())  # None: the bundled default
    assert cm.build("default").summary().equals(cm.build(base).summary())


def test_setting_an_input_says_how_to_change_one(base):
    with pytest.raises(
        TypeError, match=r"frozen.*cm\.with_overrides\(a, \{\"power\.price_per_kwh\": 0\.5\}\)"
    ):
        base.power.price_per_kwh.value = 0.5
    with pytest.raises(TypeError, match="cannot set 'name'"):
        base.name = "x"


def test_summary_carries_the_unit_of_every_column(base):
    m = cm.build(base)
    s = m.summary()
    units = s.attrs["units"]
    assert set(units) == set(s.columns)
    assert units == m.units()
    assert units["npv"] == "CNY" and units["capex"] == "CNY"
    assert units["irr"] == "fraction"  # summary() holds shares as fractions (-0.26, not -26%)
    assert units["cost_per_gpu_hour"] == "CNY/GPU-h"
    assert units["payback_years"] == "years"
    assert units["scale_class"] == ""
    us = cm.build(cm.load_assumptions("example:us-neocloud")).units()
    assert us["npv"] == "USD"


def test_every_result_object_has_a_short_repr(base):
    m = cm.build(base)
    reprs = {
        "model": repr(m),
        "assumptions": repr(base),
        "compare": repr(cm.compare(m, {"greenfield": "scenario:greenfield"})),
        "monte_carlo": repr(cm.monte_carlo(m, n=200, seed=1)),
        "analysis": repr(cm.analyze(m, draws=0)),
    }
    for what, text in reprs.items():
        assert len(text) < 300, (what, text)
        assert "\n" not in text, what
        assert "source" not in text and "note" not in text, what  # no dump of the inputs
    assert reprs["model"].startswith(
        "<Model 'GPU compute center scale options in China': tiers tens, hundreds, thousands"
    )
    assert reprs["compare"].startswith("<CompareResult: scenarios base, greenfield;")
    assert reprs["monte_carlo"].startswith("<MonteCarloResult: 200 draws (seed 1)")
    assert reprs["assumptions"].startswith(
        "<Assumptions 'GPU compute center scale options in China'"
    )
