"""Advice on valid inputs that are probably not what was meant (methodology §2.6):
an override a tier shadows, a value far outside its documented range; a warning
by the API and on stderr, an error with ``strict=True`` / ``--strict``."""

from __future__ import annotations

import warnings

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.inputs.errors import AssumptionWarning
from costmodel.inputs.resources import example_dir, scenarios_dir

runner = CliRunner()


def advice(*paths, **kwargs) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cm.load_assumptions(*paths, **kwargs)
    return [str(w.message) for w in caught if issubclass(w.category, AssumptionWarning)]


def cli(*args: str):
    return runner.invoke(get_app(), list(args))


# ----------------------------------------------------------------------------- shadowed


def test_a_global_price_the_tens_tier_sets_for_itself_is_reported_with_the_path_to_set():
    a = cm.load_assumptions()
    own = a.tiers["tens"].revenue.price_per_gpu_hour.value  # the tier's own price
    assert own != 14
    (line,) = advice(overrides={"revenue.price_per_gpu_hour": 14})
    assert line.startswith(
        "--set: revenue.price_per_gpu_hour = 14: shadowed for tier tens by "
        f"tiers.tens.revenue.price_per_gpu_hour = {own:g} ("
    )
    assert "80-tiers.yaml:" in line  # where the tier's own value is written
    assert line.endswith("set tiers.tens.revenue.price_per_gpu_hour=14 instead")


def test_the_override_a_tier_shadows_still_reaches_the_other_tiers():
    base = cm.build(cm.load_assumptions()).summary_rows()
    with pytest.warns(AssumptionWarning, match="shadowed for tier tens"):
        a = cm.load_assumptions(overrides={"revenue.price_per_gpu_hour": 14})
    rows = cm.build(a).summary_rows()
    assert rows["tens"]["npv"] == base["tens"]["npv"]  # what the warning says
    assert rows["hundreds"]["npv"] != base["hundreds"]["npv"]


def test_an_override_every_tier_shadows_says_it_changes_nothing(tmp_path):
    over = tmp_path / "all.yaml"
    over.write_text(
        "tiers:\n"
        + "".join(
            f"  {t}:\n    operations: {{utilization: 0.5}}\n"
            for t in ("tens", "hundreds", "thousands")
        ),
        encoding="utf-8",
    )
    lines = advice("default", over, overrides={"operations.utilization": 0.7})
    assert [ln.split(" by ")[1].split(" = ")[0] for ln in lines] == [
        f"tiers.{t}.operations.utilization" for t in ("tens", "hundreds", "thousands")
    ]
    assert all(ln.endswith("so this override changes nothing") for ln in lines)


def test_a_tier_override_itself_and_an_unshadowed_global_are_not_reported():
    assert advice(overrides={"tiers.tens.revenue.price_per_gpu_hour": 14}) == []
    assert advice(overrides={"power.escalation": 0.03}) == []


def test_with_overrides_reports_the_shadowed_override_too():
    a = cm.load_assumptions()
    with pytest.warns(AssumptionWarning, match="set tiers.tens.revenue.price_per_gpu_hour=14"):
        cm.with_overrides(a, {"revenue.price_per_gpu_hour": 14})


def test_the_cli_prints_the_shadowed_override_on_stderr_and_exits_0():
    r = cli("summary", "-f", "json", "--set", "revenue.price_per_gpu_hour=14")
    assert r.exit_code == 0, r.stderr
    assert "warning: --set: revenue.price_per_gpu_hour = 14: shadowed for tier tens" in r.stderr
    assert "tiers.tens.revenue.price_per_gpu_hour" in r.stderr
    assert "warning" not in r.stdout


# ----------------------------------------------------------------------------- implausible


def test_a_price_per_mwh_typed_for_a_price_per_kwh_is_a_warning_naming_the_path():
    (line,) = advice(overrides={"power.price_per_kwh": 650})
    # the default's documented high is 0.84 CNY/kWh (net of VAT); 650 > 10 x 0.84
    assert line.startswith(
        "--set: power.price_per_kwh = 650: more than 10x its documented high, 0.84 CNY/kWh"
    )


def test_strict_makes_the_implausible_value_an_error():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"power.price_per_kwh": 650}, strict=True)
    assert "power.price_per_kwh = 650" in str(e.value)


def test_a_value_within_ten_times_its_range_is_not_questioned():
    assert advice(overrides={"power.price_per_kwh": 8.3}) == []  # < 10 x 0.84
    assert advice(overrides={"power.price_per_kwh": 0.0}) == []  # a zero is a choice


def test_a_file_value_of_the_wrong_order_of_magnitude_for_its_unit_is_a_warning(tmp_path):
    over = tmp_path / "wan.yaml"  # a staff cost typed in ten-thousands of yuan (万元)
    over.write_text("operations:\n  staff_cost_per_fte: 60\n", encoding="utf-8")
    (line,) = advice("default", over)
    # typical staff cost 20,000 to 3,000,000 a year: 60 is below 1/10 of 20,000
    assert line.startswith(
        f"{over}:2: operations.staff_cost_per_fte = 60: more than 10x below the typical range"
    )
    assert "20,000 to 3,000,000 CNY/FTE-year" in line
    with pytest.raises(cm.AssumptionError):
        cm.load_assumptions("default", over, strict=True)


def test_the_bundled_models_and_scenarios_draw_no_advice():
    assert advice() == []
    assert advice(example_dir("us-neocloud")) == []
    for f in sorted(scenarios_dir().glob("*.yaml")):
        assert advice("default", f) == [], f.name


def test_the_cli_warns_and_with_strict_refuses_a_price_per_mwh():
    r = cli("summary", "-f", "json", "--set", "power.price_per_kwh=650")
    assert r.exit_code == 0
    assert (
        "warning: --set: power.price_per_kwh = 650: more than 10x its documented high" in r.stderr
    )
    s = cli("summary", "--strict", "--set", "power.price_per_kwh=650")
    assert s.exit_code == 2
    assert "error: invalid assumptions" in s.stderr and "power.price_per_kwh = 650" in s.stderr
    assert s.stdout == ""


@pytest.mark.parametrize(
    "command",
    [
        "build",
        "summary",
        "validate",
        "recommend",
        "sensitivity",
        "montecarlo",
        "sweep",
        "compare",
        "build-vs-rent",
    ],
)
def test_every_command_that_loads_assumptions_takes_strict(command):
    r = cli(command, "--help")
    assert "--strict" in r.stdout


def test_compare_strict_refuses_an_implausible_overlay(tmp_path):
    over = tmp_path / "mwh.yaml"
    over.write_text("power:\n  price_per_kwh: 650\n", encoding="utf-8")
    ok = cli("compare", "-f", "json", "-s", f"mwh={over}")
    assert ok.exit_code == 0 and "power.price_per_kwh = 650" in ok.stderr
    bad = cli("compare", "--strict", "-s", f"mwh={over}")
    assert bad.exit_code == 2 and "power.price_per_kwh = 650" in bad.stderr
