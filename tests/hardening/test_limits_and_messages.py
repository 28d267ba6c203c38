"""Limits a user can reach, each refused by name with exit 2, and the small
messages of the third hostile review (issue 55)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.analysis.defaults import MAX_DRAWS, MAX_GRID_POINTS
from costmodel.analysis.sweep import MAX_POINTS
from costmodel.cli import get_app
from costmodel.inputs.whole import MAX_COUNT

app = get_app()


def run(args: list[str]):
    return CliRunner().invoke(app, args, env={"COLUMNS": "300"})


def refused(r, *phrases: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert "Traceback" not in r.output and "TypeError" not in r.output
    text = " ".join(r.output.split())
    for p in phrases:
        assert p in text, text
    return text


# ----------------------------------------------------------------------------- limits


def test_grid_points_have_an_upper_bound():
    refused(run(["sensitivity", "--grid", "--points", "400"]), "--points", str(MAX_GRID_POINTS))
    with pytest.raises(ValueError, match=f"at most {MAX_GRID_POINTS}"):
        cm.price_utilization_grid(cm.load_assumptions(), points=MAX_GRID_POINTS + 1)


@pytest.mark.parametrize("command", [["montecarlo", "-n"], ["build", "--draws"]])
def test_draws_have_an_upper_bound(command, tmp_path):
    args = [*command, str(MAX_DRAWS + 1)] + (["-o", str(tmp_path / "o")] * (command[0] == "build"))
    refused(run(args), "--draws", f"{MAX_DRAWS}")
    assert not (tmp_path / "o").exists()
    with pytest.raises(ValueError, match="from 1 to 1,000,000 draws"):
        cm.monte_carlo(cm.load_assumptions(), n=MAX_DRAWS + 1)


@pytest.mark.parametrize(
    ("gpus", "phrase"),
    [
        ("-8:16", "the range starts at -8: GPU counts start at 1"),
        ("0:16", "the range starts at 0"),
        ("8:100000000000000000000000", f"above {MAX_COUNT:,} GPUs"),
        ("8,16,-24", "positive multiples of 8"),
        ("8,1e3", "'1e3': not a whole number of GPUs"),
        (",".join(str(8 * k) for k in range(1, MAX_POINTS + 2)), f"at most {MAX_POINTS} points"),
    ],
)
def test_sweep_gpus_refused_by_name(gpus, phrase):
    """'-8:16' was clamped to 8:16 silently; a count above 2^63 was a TypeError."""
    refused(run(["sweep", "--tier", "tens", "--gpus", gpus]), f"--gpus '{gpus[:30]}", phrase)


def test_a_gpu_count_above_the_limit_in_the_inputs(tmp_path):
    huge = str(2**64)
    for cmd in (
        ["build", "--draws", "0", "-q", "-o", str(tmp_path / "o")],
        ["sweep", "--tier", "tens"],
    ):
        text = refused(run([*cmd, "--set", f"tiers.tens.gpus={huge}"]), "tiers.tens.gpus")
        assert f"must be less than or equal to {MAX_COUNT}" in text
    assert not (tmp_path / "o").exists()


def test_a_price_of_1e300_is_refused_naming_it(tmp_path):
    """Finite at the tiers' own sizes, not at the sweep's larger counts: the build
    failed writing the workbook (exit 1, a TypeError)."""
    out = tmp_path / "o"
    r = run(["build", "--draws", "0", "-q", "-o", str(out), "--set", "power.price_per_kwh=1e300"])
    refused(r, "--set: power.price_per_kwh = 1e+300: too large to compute with", "sweep's")
    assert not out.exists()


def test_a_missing_template_folder_is_a_usage_error(tmp_path):
    r = run(["build", "--draws", "0", "-q", "-o", str(tmp_path / "o"),
             "--template-dir", str(tmp_path / "nowhere")])  # fmt: skip
    refused(r, f"--template-dir {tmp_path / 'nowhere'}: no such folder")


# ----------------------------------------------------------------------------- messages


def validate(tmp_path, text: str):
    f = tmp_path / "overlay.yaml"
    f.write_text(text, encoding="utf-8")
    return run(["validate", "default", str(f)])


@pytest.mark.parametrize("written", ["3.0", "6.0", "true", "'3'"])
def test_schema_version_is_a_whole_number(tmp_path, written):
    refused(validate(tmp_path, f"schema_version: {written}\n"), "overlay.yaml:1: schema_version",
            "must be a whole number: 1, 2, 3 or 4")  # fmt: skip


def test_schema_version_with_a_range_names_the_key(tmp_path):
    text = refused(validate(tmp_path, "schema_version: {value: 3, low: 1}\n"), "unknown key 'low'")
    assert "must be 1, 2" not in text
    assert validate(tmp_path, "schema_version: {value: 3, source: spec}\n").exit_code == 0


def test_a_range_broken_at_both_ends_reports_both(tmp_path):
    refused(validate(tmp_path, "operations:\n  utilization: {value: 0.5, low: -0.1, high: 1.5}\n"),
            "low -0.1 and high 1.5: must be a fraction between 0 and 1")  # fmt: skip
    refused(validate(tmp_path, "power:\n  price_per_kwh: {value: 0.5, low: 0.6, high: 0.4}\n"),
            "low 0.6 must not exceed value 0.5; high 0.4 must not be below value 0.5")  # fmt: skip


def test_an_expensed_facility_is_reported_at_the_overlays_line(tmp_path):
    text = refused(
        validate(tmp_path, "depreciation:\n  facility:\n    tax_method: expensed\n"),
        "overlay.yaml:3: depreciation.facility.tax_method = 'expensed'",
        "buildings do not qualify",
    )
    assert "60-depreciation.yaml" not in text and "straight_line" not in text
