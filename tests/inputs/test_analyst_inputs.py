"""What a new analyst types: a near-miss name, a percentage, a fraction given as a
percentage number (issue: what a new analyst stumbles on)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.inputs.suggest import name_hint

runner = CliRunner()


@pytest.fixture
def run_cli():
    app = get_app()
    return lambda *args: runner.invoke(app, list(args))


def problems(excinfo: pytest.ExceptionInfo) -> list[str]:
    return [str(p) for p in excinfo.value.problems]


# ----------------------------------------------------------------------------- did you mean


def test_a_misspelt_tier_in_an_override_is_one_problem_naming_the_nearest_tier():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"tiers.hundred.gpus": 256})
    lines = problems(e)
    assert len(lines) == 1, lines  # not a "required but missing" line per key of a tier
    assert lines[0].startswith("--set: tiers.hundred: no tier 'hundred'")
    assert "did you mean 'hundreds'?" in lines[0]
    assert "required but missing" not in lines[0]


def test_a_misspelt_tier_in_an_overlay_file_names_the_file_line_and_nearest_tier(tmp_path):
    over = tmp_path / "typo.yaml"
    over.write_text("tiers:\n  thousand:\n    gpus: 2048\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions("default", over)
    (line,) = problems(e)
    assert line.startswith(
        f"{over}:2: tiers.thousand: no tier 'thousand'; did you mean 'thousands'?"
    )


def test_an_override_creating_an_unknown_tier_lists_the_tiers_without_a_guess():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"tiers.zz.gpus": 8})
    (line,) = problems(e)
    assert "no tier 'zz' (tiers: tens, hundreds, thousands;" in line
    assert "did you mean" not in line


def test_a_misspelt_server_and_cooling_of_a_tier_get_the_nearest_name():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"tiers.tens.server": "h2000", "tiers.tens.cooling": "aer"})
    text = "\n".join(problems(e))
    assert "tiers.tens.server = 'h2000': unknown server; did you mean 'h200'?" in text
    assert "tiers.tens.cooling = 'aer': unknown cooling; did you mean 'air'?" in text


def test_a_misspelt_server_entry_in_an_override_names_the_catalogue_entry():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"servers.h20O.price": 1})
    (line,) = problems(e)
    assert "no server 'h20O'; did you mean 'h200'?" in line


def test_name_hint_prefers_the_name_of_the_closer_length_and_stays_quiet_when_far():
    assert name_hint("hundred", ["tens", "hundreds", "thousands"]) == "; did you mean 'hundreds'?"
    assert name_hint("Tens", ["tens", "hundreds"]) == "; did you mean 'tens'?"
    assert name_hint("xyz", ["tens", "hundreds"]) == ";"


def test_the_cli_sweep_names_the_nearest_tier(run_cli):
    r = run_cli("sweep", "--tier", "hundred", "--gpus", "8:64")
    assert r.exit_code == 2
    assert "did you mean 'hundreds'?" in r.stderr


# ----------------------------------------------------------------------------- percentages


def test_sixty_percent_is_read_as_a_fraction_in_an_override_and_in_a_file(tmp_path):
    a = cm.load_assumptions(overrides={"operations.utilization": "60%"})
    assert a.operations.utilization.value == pytest.approx(0.6)
    over = tmp_path / "pct.yaml"
    over.write_text(
        "operations:\n"
        "  utilization: 65%\n"
        "  maintenance_rate: {value: 5%, low: 2.5%, high: 8%}\n"
        "tiers:\n  tens:\n    operations: {utilization: 72.5 %}\n",
        encoding="utf-8",
    )
    b = cm.load_assumptions("default", over)
    assert b.operations.utilization.value == pytest.approx(0.65)
    m = b.operations.maintenance_rate
    assert (m.value, m.low, m.high) == pytest.approx((0.05, 0.025, 0.08))
    assert b.tiers["tens"].operations.utilization.value == pytest.approx(0.725)


def test_a_percentage_above_the_range_widens_it_like_the_number_would():
    a = cm.load_assumptions(overrides={"operations.utilization": "95%"})
    u = a.operations.utilization
    assert u.value == pytest.approx(0.95)
    assert u.high == pytest.approx(0.95)  # the default's high is 0.85: widened, as 0.95 would


def test_the_cli_reads_sixty_percent_as_the_same_model_as_zero_point_six(run_cli):
    pct = run_cli("summary", "-f", "json", "--set", "operations.utilization=60%")
    frac = run_cli("summary", "-f", "json", "--set", "operations.utilization=0.6")
    assert pct.exit_code == 0, pct.stderr
    assert pct.stdout == frac.stdout


def test_a_fraction_given_sixty_is_refused_as_no_fraction_at_the_value_line(tmp_path):
    over = tmp_path / "sixty.yaml"
    over.write_text("operations:\n  utilization:\n    value: 60\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions("default", over)
    (line,) = problems(e)
    # line 3 is the value's own line (the range's high comes from the default's file)
    assert line.startswith(f"{over}:3: operations.utilization = 60: must be a fraction")
    assert "write 0.6 or 60%" in line


def test_a_fraction_given_sixty_on_the_command_line_says_fraction():
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"operations.utilization": 60})
    (line,) = problems(e)
    assert line.startswith("--set: operations.utilization = 60: must be a fraction between 0 and 1")


def test_a_percentage_where_no_fraction_is_asked_is_refused_saying_so(tmp_path):
    with pytest.raises(cm.AssumptionError) as e:
        cm.load_assumptions(overrides={"power.price_per_kwh": "60%"})
    (line,) = problems(e)
    assert "power.price_per_kwh = '60%'" in line
    assert "a percentage (60%) is read only where a fraction is asked" in line


def test_is_fraction_path_follows_the_schema():
    from costmodel.inputs.fields import is_fraction_path

    assert is_fraction_path(["operations", "utilization"])
    assert is_fraction_path(["tiers", "any", "revenue", "contract", "share"])
    assert is_fraction_path(["vat", "input_rates", "servers"])
    assert not is_fraction_path(["power", "price_per_kwh"])
    assert not is_fraction_path(["no", "such"])
