"""costmodel.analysis.decision: the options table and the decision rule, against
values written here from the model's own summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costmodel as cm
from costmodel.analysis.buildrent import build_vs_rent
from costmodel.analysis.decision import choose, options
from costmodel.analysis.montecarlo import monte_carlo


@pytest.fixture(scope="module")
def model():
    return cm.build(cm.load_assumptions())


def test_options_table(model):
    rent = build_vs_rent(model)
    df = options(model, rent)
    s = model.summary()
    for t in model.tiers:
        v = model.inputs[t].values()
        assert df.loc[t, "pi"] == pytest.approx(s.loc[t, "npv"] / s.loc[t, "capex"])
        assert df.loc[t, "peak_funding"] == pytest.approx(s.loc[t, "peak_funding"])
        # year-1 prices as sold: each quote rolled from its as_of at the decline
        # (methodology §30), the spot price times the site's factor
        roll = {k: (1 - v["price_decline"]) ** (v.get(f"{k}_roll_months", 0.0) / 12)
                for k in ("spot", "cloud")}  # fmt: skip
        price = v["price_per_gpu_hour"] * roll["spot"] * v["price_factor"]
        assert df.loc[t, "price"] == pytest.approx(price, rel=1e-12)
        cloud = v["cloud_price_per_gpu_hour"] * roll["cloud"]
        assert df.loc[t, "price_over_cloud"] == pytest.approx(price / cloud - 1)
        a = model.assumptions
        own = a.tiers[t].operations
        util = own.utilization if own is not None and own.utilization is not None else None
        assert df.loc[t, "utilization_high"] == (util or a.operations.utilization).high
    assert df["rank_npv"].min() == 1 and set(df["rank_pi"]) == {1.0, 2.0, 3.0}
    assert df["base_percentile"].isna().all()


def test_base_percentile_is_the_share_of_draws_at_or_below_the_base(model):
    mc = monte_carlo(model.assumptions, n=300, seed=3)
    df = options(model, build_vs_rent(model), mc)
    for t in model.tiers:
        draws = mc.draws[t]["npv"].to_numpy(float)
        npv = model.summary().loc[t, "npv"]
        assert df.loc[t, "base_percentile"] == pytest.approx(np.mean(draws <= npv))
        assert df.loc[t, "npv_p50"] == pytest.approx(np.median(draws))


def table(npv: dict[str, float], capex: dict[str, float]) -> pd.DataFrame:
    df = pd.DataFrame({"npv": npv, "capex": capex})
    df["pi"] = df["npv"] / df["capex"]
    df["peak_funding"] = df["capex"]
    return df


def test_choose_highest_positive_npv():
    c = choose(table({"a": 5.0, "b": 20.0, "c": -1.0}, {"a": 10.0, "b": 100.0, "c": 5.0}))
    assert c["worth"] and c["tier"] == "b" and c["criterion"] == "npv"
    assert c["by_pi"] == "a"  # 0.5 per unit against 0.2: the better use of rationed capital


def test_choose_with_every_npv_negative_ranks_per_unit_of_capex():
    """The smallest option loses least in total (-3) but most per unit (-0.75); the
    rule names the one losing least per unit (-0.3)."""
    c = choose(table({"a": -3.0, "b": -30.0}, {"a": 4.0, "b": 100.0}))
    assert not c["worth"] and c["criterion"] == "pi"
    assert c["tier"] == "b" and c["by_npv"] == "a" and c["by_funding"] == "a"


def test_choose_without_a_funding_figure_names_the_npv_leader():
    """No option has a peak funding figure (all empty): the funding ranking falls back
    to the NPV's, as the NPV and per-unit rankings fall back when theirs are empty."""
    df = table({"a": -3.0, "b": -30.0}, {"a": 4.0, "b": 100.0})
    df["peak_funding"] = np.nan
    c = choose(df)
    assert c["by_funding"] == c["by_npv"] == "a"
