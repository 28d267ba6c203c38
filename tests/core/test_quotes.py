"""Quotes rolled to the start and supply lead times (methodology §30), by hand on
the hand case (tests/data/hand.yaml: start 2027-01, one year, 16 GPUs in two
servers at 1,000,000, 100 per GPU-hour, utilization 0.5, 730 hours a month)."""

from __future__ import annotations

import pytest

import costmodel as cm
from costmodel.inputs.quotes import months_between
from tests.paths import DATA

HAND = DATA / "hand.yaml"
HOURS = 16 * 0.5 * 730 * 12  # GPU-hours sold in the year


def build(**overrides):
    return cm.build(cm.load_assumptions(HAND, overrides=overrides))


def test_a_2025_03_quote_of_16_at_10_percent_rolled_to_a_2027_01_start():
    assert months_between("2027-01", "2025-03") == 22
    m = build(
        **{
            "revenue.price_per_gpu_hour": {"value": 16, "as_of": "2025-03"},
            "revenue.price_decline": 0.1,
        }
    )
    # the price declines through the model year too (year 1: no decline yet)
    assert m.summary().loc["small", "revenue"] == pytest.approx(
        HOURS * 16 * 0.9 ** (22 / 12), rel=1e-12
    )


def test_low_and_high_roll_the_same_way():
    q = {"value": 16, "low": 12, "high": 20, "as_of": "2025-03"}
    a = cm.load_assumptions(
        HAND, overrides={"revenue.price_per_gpu_hour": q, "revenue.price_decline": 0.1}
    )
    runs = cm.run_variants(a, {"revenue.price_per_gpu_hour": [12.0, 20.0]})["small"]
    got = list(runs.metrics["revenue"])
    assert got == pytest.approx([HOURS * p * 0.9 ** (22 / 12) for p in (12, 20)], rel=1e-12)


def test_a_tiers_own_decline_rolls_its_quote():
    m = build(
        **{
            "revenue.price_per_gpu_hour": {"value": 16, "as_of": "2026-01"},
            "revenue.price_decline": 0.1,
            "tiers.small.revenue.price_decline": 0.2,
        }
    )
    assert m.summary().loc["small", "revenue"] == pytest.approx(HOURS * 16 * 0.8, rel=1e-12)


def test_a_server_price_rolls_at_the_servers_decline():
    m = build(
        **{
            "servers.box.price": {"value": 1_000_000, "as_of": "2026-07"},
            "servers.box.price_decline": 0.2,
        }
    )
    assert m.summary().loc["small", "capex_servers"] == pytest.approx(
        2 * 1_000_000 * 0.8 ** (6 / 12), rel=1e-12
    )


def test_a_contract_quote_rolls_at_the_tiers_decline():
    contract = {"share": 1.0, "months": 12, "price_per_gpu_hour": {"value": 50, "as_of": "2026-01"}}
    m = build(**{"revenue.contract": contract, "revenue.price_decline": 0.1})
    # every available hour contracted, take-or-pay: 16 GPUs x 730 h x 12 at 50 x 0.9
    hours = 16 * 730 * 12
    assert m.summary().loc["small", "revenue"] == pytest.approx(hours * 50 * 0.9, rel=1e-12)


def test_as_of_elsewhere_is_refused():
    with pytest.raises(cm.AssumptionError) as err:
        cm.load_assumptions(
            HAND, overrides={"power.price_per_kwh": {"value": 1.0, "as_of": "2025-01"}}
        )
    assert "power.price_per_kwh.as_of" in str(err.value)


def test_lead_months_longer_than_construction_delay_the_hardware():
    m = build(**{"servers.box.lead_months": 4, "horizon_years": 2})
    cap = m.capex("small")
    assert cap.loc[4, "servers"] == pytest.approx(2_000_000, rel=1e-12)
    assert float(cap["servers"].drop(index=4).abs().sum()) == 0.0
    # construction staff are paid during the wait; nothing is sold before month 5
    opex = m.results["small"].opex
    assert float(opex["staff"][0, 1]) == pytest.approx(2 * 600_000 / 12, rel=1e-12)
    assert float(opex["electricity"][0, 1:5].sum()) == 0.0


def test_lead_months_shorter_than_construction_change_nothing():
    base = build(**{"timeline.build_months": 6}).summary()
    lead = build(**{"timeline.build_months": 6, "servers.box.lead_months": 3}).summary()
    assert lead.loc["small", "npv"] == pytest.approx(base.loc["small", "npv"], rel=1e-12)


def test_a_usd_quote_is_converted_at_fx_then_rolled():
    """Methodology §30: a price in another currency is converted at ``fx`` (value,
    low and high), then rolled to the start: 2.5 USD at 7.2 CNY/USD = 18 CNY, quoted
    2025-03 and rolled at 10%/yr to a 2027-01 start."""
    quote = {"value": 2.5, "low": 2.0, "high": 3.0, "currency": "USD", "as_of": "2025-03"}
    a = cm.load_assumptions(
        HAND,
        overrides={
            "fx": {"USD": {"value": 7.2, "source": "illustrative", "as_of": "2025-03"}},
            "revenue.price_per_gpu_hour": quote,
            "revenue.price_decline": 0.1,
        },
    )
    q = a.revenue.price_per_gpu_hour
    assert (q.value, q.low, q.high) == pytest.approx((18.0, 14.4, 21.6), rel=1e-12)
    roll = 0.9 ** (22 / 12)
    assert cm.build(a).summary().loc["small", "revenue"] == pytest.approx(
        HOURS * 18.0 * roll, rel=1e-12
    )
    runs = cm.run_variants(a, {"revenue.price_per_gpu_hour": [q.low, q.high]})["small"]
    assert list(runs.metrics["revenue"]) == pytest.approx(
        [HOURS * 7.2 * usd * roll for usd in (2.0, 3.0)], rel=1e-12
    )


def test_a_quote_in_a_currency_without_fx_is_refused():
    quote = {"value": 2.5, "currency": "USD", "as_of": "2025-03"}
    with pytest.raises(cm.AssumptionError) as err:
        cm.load_assumptions(HAND, overrides={"revenue.price_per_gpu_hour": quote})
    assert "fx.USD" in str(err.value) and "revenue.price_per_gpu_hour" in str(err.value)


def _overlay(tmp_path, text):
    base = tmp_path / "base.yaml"
    base.write_text(
        "revenue:\n  price_per_gpu_hour:\n    value: 16\n    low: 12\n    high: 20\n"
        "    unit: CNY/GPU-hour\n    as_of: '2025-03'\n",
        encoding="utf-8",
    )
    over = tmp_path / "over.yaml"
    over.write_text(text, encoding="utf-8")
    a = cm.load_assumptions(HAND, base, over, overrides={"revenue.price_decline": 0.1})
    return a.revenue.price_per_gpu_hour, cm.build(a).summary().loc["small", "revenue"]


def test_a_value_restated_by_a_later_file_without_as_of_is_a_price_at_the_start(tmp_path):
    # the later file says 14.5: sold at 14.5 in year 1, not 14.5 x 0.9^(22/12)
    q, revenue = _overlay(tmp_path, "revenue:\n  price_per_gpu_hour:\n    value: 14.5\n")
    assert (q.value, q.as_of, q.low, q.high) == (14.5, None, None, None)
    assert revenue == pytest.approx(HOURS * 14.5, rel=1e-12)


def test_a_later_file_with_its_own_as_of_rolls_from_its_month(tmp_path):
    text = "revenue:\n  price_per_gpu_hour:\n    value: 14.5\n    as_of: '2026-01'\n"
    q, revenue = _overlay(tmp_path, text)
    assert (q.as_of, q.low, q.high) == ("2026-01", 12, 20)
    assert revenue == pytest.approx(HOURS * 14.5 * 0.9, rel=1e-12)


def test_a_range_written_alone_widens_the_same_quote(tmp_path):
    q, revenue = _overlay(tmp_path, "revenue:\n  price_per_gpu_hour:\n    low: 10\n")
    assert (q.value, q.low, q.high, q.as_of) == (16, 10, 20, "2025-03")
    assert revenue == pytest.approx(HOURS * 16 * 0.9 ** (22 / 12), rel=1e-12)


def test_set_edits_the_quote_in_place_and_keeps_its_month(tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(
        "revenue:\n  price_per_gpu_hour:\n    value: 16\n    unit: CNY/GPU-hour\n"
        "    as_of: '2025-03'\n",
        encoding="utf-8",
    )
    a = cm.load_assumptions(
        HAND, base, overrides={"revenue.price_per_gpu_hour": 14.5, "revenue.price_decline": 0.1}
    )
    assert a.revenue.price_per_gpu_hour.as_of == "2025-03"
    revenue = cm.build(a).summary().loc["small", "revenue"]
    assert revenue == pytest.approx(HOURS * 14.5 * 0.9 ** (22 / 12), rel=1e-12)
