"""The model keeps what is derived from it alone (its summary, opex by year,
cumulative cash) and exposes the intermediate rows the writers show
(:class:`costmodel.core.intermediate.Intermediate`); each row is checked against
the definition written out here from the engine's monthly lines."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import cached_property

import numpy as np
import pytest

import costmodel as cm
from costmodel.inputs.model import Model


@pytest.fixture(scope="module")
def model() -> Model:
    return cm.build(cm.load_assumptions(cm.example_dir("by-hand")))


def count_summaries(monkeypatch) -> list[int]:
    """A list that grows by one each time a model computes its summary."""
    calls: list[int] = []
    real = Model.__dict__["_summary_rows"].func
    counted = cached_property(lambda self: calls.append(1) or real(self))
    counted.__set_name__(Model, "_summary_rows")
    monkeypatch.setattr(Model, "_summary_rows", counted)
    return calls


def test_a_built_model_does_not_change(model):
    with pytest.raises(AttributeError, match="does not change"):
        model.tiers = ["small"]
    with pytest.raises(AttributeError, match="does not change"):
        model.results = {}
    s = model.summary()
    s.loc["small", "npv"] = 0.0  # the caller's own copy
    assert model.summary().loc["small", "npv"] != 0.0
    rows = model.summary_rows()
    rows["small"]["npv"] = 0.0
    assert model.summary_rows()["small"]["npv"] != 0.0
    cum = model.cumulative_fcf("small")
    with pytest.raises(ValueError, match="read-only"):
        cum[0] = 1.0


def test_the_workbook_computes_the_summary_once(tmp_path, monkeypatch):
    """Before the model kept its summary the workbook writer built it 8 times
    (every sheet that reads it asked again)."""
    calls = count_summaries(monkeypatch)
    m = cm.build(cm.load_assumptions(cm.example_dir("by-hand")))
    cm.write_workbook(m, tmp_path / "m.xlsx", datetime(2025, 1, 1, tzinfo=timezone.utc))
    assert len(calls) == 1
    m.summary(), m.summary_rows()
    assert len(calls) == 1


def test_annual_sums_are_the_months_of_each_model_year(model):
    for tier in model.tiers:
        rows = model.rows(tier)
        fcf = model.cash_flow(tier)["fcf"].to_numpy()
        years = model.months // 12
        want = [fcf[0]] + [fcf[12 * (y - 1) + 1 : 12 * y + 1].sum() for y in range(1, years + 1)]
        np.testing.assert_allclose(rows.annual_sums("fcf"), want, rtol=1e-12)
        interest = model.debt(tier)["interest"].to_numpy()
        np.testing.assert_allclose(rows.annual_sums("interest")[1:].sum(), interest.sum())
        staff = model.opex(tier)["staff"].to_numpy()
        np.testing.assert_allclose(
            rows.annual_sums("staff")[1:], model.opex_by_year(tier)["staff"], rtol=1e-12
        )
        assert rows.annual_sums("staff")[0] == staff[0]
        placed = rows.at_year_ends(rows.annual_sums("staff")[1:])
        assert placed[12] == rows.annual_sums("staff")[1] and placed[11] == 0.0
        with pytest.raises(KeyError, match="no monthly line"):
            rows.line("nothing")


def test_cumulative_rows_and_payback(model):
    for tier in model.tiers:
        rows, cf = model.rows(tier), model.cash_flow(tier)
        fcf = cf["fcf"].to_numpy()
        running, cum = 0.0, []
        for v in fcf:
            running += v
            cum.append(running)
        np.testing.assert_allclose(rows.cumulative_fcf, cum, rtol=1e-12, atol=1e-6)
        np.testing.assert_allclose(model.cumulative_fcf(tier), cum, rtol=1e-12, atol=1e-6)
        assert rows.discounted_fcf.sum() == pytest.approx(model.summary().loc[tier, "npv"])
        cash = np.cumsum(fcf - cf["terminal_value"].to_numpy() + cf["terminal_tax"].to_numpy())
        flags = rows.paid_back
        for m in range(1, len(cash)):
            assert flags[m] == float(all(c >= 0 for c in cash[m:]))
        payback = model.summary().loc[tier, "payback_years"]
        if rows.payback_flag.sum() == 0:
            assert np.isnan(payback)
        else:
            month = int(np.flatnonzero(rows.payback_flag)[0])
            assert payback == pytest.approx(month / 12)
        df = cf["discount_factor"].to_numpy()
        pv = ((cf["opex"].to_numpy() + cf["capex"].to_numpy()) * df).sum()
        pv_gh = (cf["gpu_hours"].to_numpy() * df).sum()
        assert rows.pv_cost / rows.pv_gpu_hours == pytest.approx(
            model.summary().loc[tier, "cost_per_gpu_hour"]
        )
        assert rows.pv_cost == pytest.approx(pv) and rows.pv_gpu_hours == pytest.approx(pv_gh)


def test_capex_count_counts_the_capex_months(model):
    for tier in model.tiers:
        capex = model.capex(tier)["total"].to_numpy()
        count = model.rows(tier).capex_count
        assert count[-1] == sum(1 for c in capex if c > 0)
        assert all(count[m] - count[m - 1] == (capex[m] > 0) for m in range(1, len(capex)))


def test_event_rows_rebuild_the_depreciation(model):
    """The annual depreciation of each event in its asset years, a twelfth per
    month, summed over a class's events is the class's monthly depreciation; the
    asset year counts whole years from the month after the capex month."""
    for tier in model.tiers:
        rows, r = model.rows(tier), model.results[tier]
        events = r.schedules.events
        by_class: dict[str, np.ndarray] = {}
        for j, e in enumerate(events):
            ev = rows.event(j)
            t = float(e.month[0])
            assert ev["asset_year"][int(t) + 1] == 1 and ev["asset_year"][int(t)] == 0
            assert ev["asset_year"][int(t) + 13] == 2 if int(t) + 13 <= model.months else True
            salvage = model.inputs[tier].values()[f"salvage_{e.cls}"]
            assert ev["salvage"] == pytest.approx(float(e.cost[0]) * salvage)
            by_class[e.cls] = by_class.get(e.cls, 0) + ev["annual"] / 12
        for cls, monthly in by_class.items():
            np.testing.assert_allclose(monthly, r.depreciation[cls][0], rtol=1e-12, atol=1e-9)


def test_book_value_ends_at_the_net_book_value(model):
    for tier in model.tiers:
        rows, dep = model.rows(tier), model.depreciation(tier)
        for cls in ("servers", "facility"):
            book = rows.book_value(cls)
            assert book["close"][-1] == pytest.approx(dep[f"nbv_{cls}"].iloc[-1])
            assert book["open"][0] == 0.0 and book["open"][5] == book["close"][4]
            salvage = model.inputs[tier].values()[f"salvage_{cls}"]
            bought = model.capex(tier)[cls].to_numpy().sum()
            assert book["above_salvage"][-1] == pytest.approx(book["close"][-1] - salvage * bought)


def test_the_npv_falls_through_zero_at_each_irr(model):
    for tier in model.tiers:
        s = model.summary().loc[tier]
        for metric, flow in (("irr", "fcf"), ("equity_irr", "equity_cash_flow")):
            sign = model.rows(tier).irr_sign_below(metric)
            if np.isnan(s[metric]):
                assert sign == 0.0
                continue
            values = model.cash_flow(tier)[flow].to_numpy()
            r = (1 + s[metric]) ** (1 / 12) - 1 - 1e-6
            npv = sum(v / (1 + r) ** m for m, v in enumerate(values))
            assert sign == np.sign(npv) == 1.0


def test_what_is_derived_from_a_model_is_computed_once_and_shared(model):
    calls: list[int] = []

    def make() -> dict[str, int]:
        calls.append(1)
        return {"n": len(calls)}

    first = model.derived("counted", ("small", 3), make)
    assert model.derived("counted", ("small", 3), make) is first
    assert calls == [1]
    model.derived("counted", ("small", 4), make)  # another key: computed again
    assert calls == [1, 1]
    other = cm.build(model.assumptions)
    assert other.derived("counted", ("small", 3), make) == {"n": 3}  # kept per model
