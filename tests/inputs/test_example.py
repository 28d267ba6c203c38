"""The bundled USD example model (issue 14, item 5): assumptions/examples/us-neocloud."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.inputs.resources import example_dir, example_names

NAME = "us-neocloud"
runner = CliRunner()


@pytest.fixture(scope="module")
def example():
    return cm.load_assumptions(f"example:{NAME}")


def test_example_is_bundled_and_found_by_name():
    assert NAME in example_names()
    assert cm.example_dir(NAME) == example_dir(NAME)
    assert sorted(p.name for p in example_dir(NAME).glob("*.yaml"))


def test_example_loads_in_usd_on_us_figures(example):
    assert example.currency == "USD"
    assert example.finance.tax_rate.value == pytest.approx(0.21)
    assert 0.06 <= example.power.price_per_kwh.value <= 0.12
    assert example.facility.colocation_per_kw_month.value == pytest.approx(184)
    assert set(example.servers) == {"h100", "h200"}


def test_example_equals_loading_its_folder(example):
    assert cm.fingerprint(example) == cm.fingerprint(cm.load_assumptions(example_dir(NAME)))


def test_example_builds_and_keeps_the_cloud_price_rule(example):
    summary = cm.build(example).summary()
    assert list(summary.index) == ["tens", "hundreds", "thousands"]
    assert (summary["capex"] > 0).all()
    for tier in example.tiers.values():
        price = (tier.revenue.price_per_gpu_hour if tier.revenue else None) or (
            example.revenue.price_per_gpu_hour
        )
        assert price.value <= example.servers[tier.server].cloud_on_demand_per_gpu_hour.value


def test_unknown_example_names_the_bundled_ones():
    with pytest.raises(cm.AssumptionError, match=NAME):
        cm.load_assumptions("example:nope")


def test_summary_with_example_equals_the_folder():
    app = get_app()
    via_option = runner.invoke(app, ["summary", "--example", NAME, "--format", "json"])
    via_folder = runner.invoke(app, ["summary", str(example_dir(NAME)), "--format", "json"])
    assert via_option.exit_code == 0, via_option.stderr
    assert json.loads(via_option.stdout) == json.loads(via_folder.stdout)
    table = runner.invoke(app, ["summary", "--example", NAME])
    assert "USD" in table.stdout


def test_init_with_example_copies_it(tmp_path):
    target = tmp_path / "mine"
    result = runner.invoke(get_app(), ["init", "--example", NAME, str(target)])
    assert result.exit_code == 0, result.stderr
    copied = sorted(p.name for p in target.glob("*.yaml"))
    assert copied == sorted(p.name for p in example_dir(NAME).glob("*.yaml"))
    a = cm.load_assumptions(target)
    assert a.currency == "USD"
    pd.testing.assert_frame_equal(
        cm.build(a).summary(), cm.build(cm.load_assumptions(f"example:{NAME}")).summary()
    )
    bad = runner.invoke(get_app(), ["init", "--example", "nope", str(tmp_path / "x")])
    assert bad.exit_code == 2
