"""Units checked against what each input measures, converted where only the size
or the currency differs (methodology §2.8)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import yaml

import costmodel as cm
from costmodel.inputs.dimensions import read_unit, reading
from costmodel.inputs.errors import UnitNote
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir


def load(tmp_path: Path, text: str, name: str = "over.yaml"):
    """The default with an overlay ``text``: (assumptions, notes)."""
    over = tmp_path / name
    over.write_text(text, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = cm.load_assumptions("default", over)
    return a, [str(w.message) for w in caught if issubclass(w.category, UnitNote)]


def default_without_fx(tmp_path: Path) -> Path:
    """A copy of the default's folder without its exchange rates (``fx``), so that a
    price in another currency has no rate to be converted at."""
    import re

    folder = tmp_path / "no-fx"
    folder.mkdir(exist_ok=True)
    for f in default_assumptions_dir().glob("*.yaml"):
        text = f.read_text(encoding="utf-8")
        text = re.sub(r"(?m)^fx:\n(?:[ #].*\n)*", "", text)
        (folder / f.name).write_text(text, encoding="utf-8")
    assert "fx" not in cm.load_assumptions(folder).model_dump(exclude_defaults=True)
    return folder


def refused(tmp_path: Path, text: str) -> str:
    over = tmp_path / "over.yaml"
    over.write_text(text, encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(default_without_fx(tmp_path), over)
    (p,) = e.value.problems
    return str(p)


def test_a_price_in_usd_in_a_cny_model_is_refused_naming_both_and_fx(tmp_path):
    # the stumble of the issue: the default's unit "CNY/kWh" changed to "USD/kWh"
    line = refused(tmp_path, "power:\n  price_per_kwh: {value: 0.09, unit: USD/kWh}\n")
    assert "over.yaml:2: power.price_per_kwh = 'USD/kWh':" in line
    assert "is in USD but the model's currency is CNY: give fx.USD" in line


def test_the_default_file_with_its_unit_changed_to_usd_is_refused(tmp_path):
    # without a rate for USD (the default's own fx.USD taken out)
    folder = tmp_path / "model"
    folder.mkdir()
    for f in default_without_fx(tmp_path).glob("*.yaml"):
        text = f.read_text(encoding="utf-8")
        if f.name == "20-power.yaml":
            assert 'unit: "CNY/kWh"' in text
            text = text.replace('unit: "CNY/kWh"', 'unit: "USD/kWh"', 1)
        (folder / f.name).write_text(text, encoding="utf-8")
    with pytest.raises(
        cm.AssumptionError, match=r"20-power\.yaml:\d+: power\.price_per_kwh = 'USD/kWh'.*fx\.USD"
    ):
        cm.load_assumptions(folder)


def test_with_an_fx_rate_a_usd_price_is_converted_and_said(tmp_path):
    a, notes = load(
        tmp_path,
        "fx:\n  USD: {value: 7.2, source: 'PBOC central parity', as_of: 2025-06}\n"
        "power:\n  price_per_kwh: {value: 0.09, low: 0.06, high: 0.12, unit: USD/kWh}\n",
    )
    q = a.power.price_per_kwh
    assert (q.value, q.low, q.high) == pytest.approx((0.09 * 7.2, 0.06 * 7.2, 0.12 * 7.2))
    assert q.unit == "CNY/kWh"
    (note,) = notes
    assert (
        "power.price_per_kwh = 0.09 USD/kWh: converted to 0.648 CNY/kWh (at fx.USD = 7.2 CNY/USD)"
        in note
    )
    assert a.fx["USD"].as_of == "2025-06"


def test_a_quantity_with_currency_usd_is_converted_at_fx(tmp_path):
    a, notes = load(
        tmp_path,
        "fx: {USD: 7.0}\nservers:\n  h200:\n"
        "    price: {value: 250000, low: 200000, high: 280000, currency: USD}\n",
    )
    assert a.servers["h200"].price.value == 1_750_000 and a.servers["h200"].price.high == 1_960_000
    assert "= 250000 USD: converted to 1750000 CNY at fx.USD = 7" in notes[0]
    line = refused(tmp_path, "servers:\n  h200:\n    price: {value: 300000, currency: USD}\n")
    assert "servers.h200.price = 'USD': currency USD is not the model's (CNY): give fx.USD" in line


@pytest.mark.parametrize(
    ("text", "path", "expected", "said"),
    [
        (
            "power:\n  price_per_kwh: {value: 650, unit: CNY/MWh}\n",
            "power.price_per_kwh",
            0.65,
            "650 CNY/MWh: converted to 0.65 CNY/kWh",
        ),
        (
            "servers:\n  h200:\n    power_kw: {value: 0.0102, unit: MW}\n",
            "servers.h200.power_kw",
            10.2,
            "0.0102 MW: converted to 10.2 kW",
        ),
        (
            "designs:\n  tens:\n    storage:\n      node: {capacity_tb: {value: 0.1, unit: PB}}\n",
            "designs.tens.storage.node.capacity_tb",
            100,
            "0.1 PB: converted to 100.0 TB",
        ),
        (
            "depreciation:\n  servers: {life_years: {value: 60, unit: months}}\n",
            "depreciation.servers.life_years",
            5,
            "60 months: converted to 5 years",
        ),
        (
            "operations:\n  utilization: {value: 60, unit: '%'}\n",
            "operations.utilization",
            0.6,
            "60 %: converted to 0.6 fraction",
        ),
    ],
)
def test_a_unit_of_another_size_is_converted_and_said(tmp_path, text, path, expected, said):
    a, notes = load(tmp_path, text)
    node = a
    for k in path.split("."):
        node = node[k] if isinstance(node, dict) else getattr(node, k)
    value = node.value if hasattr(node, "value") else node
    assert value == pytest.approx(expected)
    (note,) = notes
    assert f"{path} = {said}" in note


def test_a_range_merged_from_the_base_is_not_converted_with_the_overlays_value(tmp_path):
    # the overlay gives a value in MWh and its own range; the base's unit and range go
    a, _ = load(
        tmp_path, "power:\n  price_per_kwh: {value: 600, low: 450, high: 900, unit: CNY/MWh}\n"
    )
    q = a.power.price_per_kwh
    assert (q.value, q.low, q.high) == pytest.approx((0.6, 0.45, 0.9))


def test_a_months_value_for_a_whole_number_of_years_must_be_whole(tmp_path):
    line = refused(tmp_path, "depreciation:\n  servers: {life_years: {value: 66, unit: months}}\n")
    assert "depreciation.servers.life_years" in line and "whole number" in line


@pytest.mark.parametrize(
    ("text", "written", "own"),
    [
        ("power:\n  price_per_kwh: {value: 0.65, unit: kW}\n", "kW", "CNY/kWh"),
        ("tiers:\n  tens:\n    gpus: {value: 32, unit: kW}\n", "kW", "GPUs"),
        ("operations:\n  utilization: {value: 0.6, unit: months}\n", "months", "fraction"),
        ("tiers:\n  tens:\n    rack_kw: {value: 12, unit: TB}\n", "TB", "kW/rack"),
    ],
)
def test_a_unit_of_another_dimension_is_an_error_naming_both(tmp_path, text, written, own):
    line = refused(tmp_path, text)
    assert f"unit {written!r} does not match this input's unit {own!r}" in line or (
        own == "fraction" and f"unit {written!r}" in line
    )
    assert "over.yaml:" in line


def test_descriptive_units_of_the_bundled_files_are_read_without_advice():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cm.load_assumptions()
        cm.load_assumptions("example:us-neocloud")
        for f in sorted(scenarios_dir().glob("*.yaml")):
            cm.load_assumptions("default", f)
    assert [str(w.message) for w in caught if issubclass(w.category, UnitNote)] == []


def test_read_unit_takes_the_first_word_and_knows_money_by_iso_code():
    u = read_unit("CNY/GPU-hour sold (H200, spot)")
    assert (u.currency, u.pieces) == ("CNY", ("GPU", "hour"))
    assert read_unit("FTE per server").currency is None  # three capitals, not money
    assert read_unit("RMB/kWh").currency == "CNY"
    assert reading("power.price_per_kwh", "CNY/MWh", "CNY", {}).factor == pytest.approx(1e-3)
    assert reading(
        "facility.colocation_per_kw_month", "CNY/MW-month", "CNY", {}
    ).factor == pytest.approx(1e-3)
    assert reading("timeline.build_months", "years", "CNY", {}).factor == 12


def test_fx_codes_are_iso_and_rates_positive(tmp_path):
    over = tmp_path / "fx.yaml"
    over.write_text("fx:\n  usd: 7.2\n  EUR: -1\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions("default", over)
    text = str(e.value)
    assert "fx.usd" in text and "fx.EUR" in text
    assert yaml.safe_load(over.read_text())  # the file itself is valid YAML
