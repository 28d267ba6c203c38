"""Issue 31, inputs: the timeline, stage items, the text policy and YAML 1.1
numbers under hostile input.

Each rule is checked from the refusal it gives (file, line, path, value, rule) or
from arithmetic written here: the months a tier is in service, the characters a
cell holds, what YAML 1.1 would have read."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.inputs.errors import AssumptionError
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.inputs.textpolicy import BIDI_CONTROLS, MAX_CELL_TEXT

DEFAULT = default_assumptions_dir()
SCENARIOS = scenarios_dir()
app = get_app()


def problems(*files, overrides=None) -> list:
    with pytest.raises(AssumptionError) as err:
        cm.load_assumptions(DEFAULT, *files, overrides=overrides or {})
    return err.value.problems


def line_of(path, text: str) -> int:
    """1-based line of the first line of ``path`` that contains ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


# ----------------------------------------------------------------------------- the timeline


def test_bundled_thousands_tier_refused_in_a_one_year_horizon():
    """horizon_years=1 with a year-long build of the thousands hall (the greenfield
    overlay: 12 months, high 18) leaves it no operating month: refused at the
    overlay's lines, naming the tier."""
    overlay = SCENARIOS / "greenfield.yaml"
    found = {p.path: p for p in problems(overlay, overrides={"horizon_years": 1})}
    own = found["tiers.thousands.timeline.build_months"]
    assert own.value == "12"
    assert "tier thousands" in own.rule and "12-month horizon" in own.rule
    assert "at most 11 months" in own.rule
    assert own.where.startswith(str(overlay))
    assert "tiers.thousands.timeline.build_months.high" in found


@pytest.mark.parametrize("horizon_years", [1, 2])
def test_the_longest_construction_allowed_leaves_one_operating_month(horizon_years):
    """B = M - 1 is valid and nothing is clipped: the first deployment is in
    service in month M only, so the tier sells exactly one month of GPU-hours."""
    months = 12 * horizon_years
    over = {
        "horizon_years": horizon_years,
        "tiers.tens.timeline.build_months": months - 1,
        "tiers.hundreds.timeline.build_months": {"value": 0},
        "tiers.thousands.timeline.build_months": {"value": 0},
        "timeline.build_months": 0,
        "timeline.ramp_months": 0,
    }
    a = cm.load_assumptions(DEFAULT, overrides=over)
    r = cm.build(a).results["tens"]
    hours = r.flows["gpu_hours"][0]
    assert np.count_nonzero(hours) == 1 and hours[months] > 0
    with pytest.raises(AssumptionError, match="tier tens: construction of"):
        cm.load_assumptions(DEFAULT, overrides={**over, "tiers.tens.timeline.build_months": months})


def test_a_stage_error_points_at_the_stage_item_line(tmp_path):
    """Both rule errors (month, GPUs) and schema errors (a non-positive gpus) of a
    stage carry the item's own line and the dotted path ``stages.N.field``."""
    f_ = tmp_path / "stages.yaml"
    f_.write_text(
        "tiers:\n"
        "  tens:\n"
        "    stages:\n"
        "      - month: 30\n"
        "        gpus: 5\n"
        "      - month: 20\n"
        "        gpus: 8\n"
    )
    found = {p.path: p for p in problems(f_)}
    assert found["tiers.tens.stages.0.gpus"].where == f"{f_}:5"
    assert found["tiers.tens.stages.1.month"].where == f"{f_}:6"
    f_.write_text("tiers:\n  tens:\n    stages:\n      - month: 30\n        gpus: 0\n")
    (p,) = problems(f_)
    assert (p.path, p.where) == ("tiers.tens.stages.0.gpus", f"{f_}:5")


# ----------------------------------------------------------------------------- text


@pytest.mark.parametrize("code", sorted(ord(c) for c in BIDI_CONTROLS))
def test_every_bidi_control_is_refused_by_name(code):
    import unicodedata

    (p,) = problems(overrides={"tiers.tens.label": f"Tens{chr(code)} of cards"})
    assert p.path == "tiers.tens.label" and p.where == "--set"
    assert f"U+{code:04X} {unicodedata.name(chr(code))}" in p.rule


def test_text_longer_than_a_cell_is_refused_naming_its_path_and_length():
    ok = cm.load_assumptions(DEFAULT, overrides={"tiers.tens.description": "x" * MAX_CELL_TEXT})
    assert len(ok.tiers["tens"].description) == 32_767
    (p,) = problems(overrides={"tiers.tens.description": "x" * 40_000})
    assert p.path == "tiers.tens.description"
    assert "40,000 characters" in p.rule and "32,767" in p.rule


# ----------------------------------------------------------------------------- YAML numbers


@pytest.mark.parametrize(
    ("written", "meaning"),
    [("010", "8 (octal"), ("0o10", None), ("1:30", "90 (base 60"), ("0x10", "16 (hexadecimal"),
     ("0b101", "5 (binary"), ("-017", "-15 (octal")],
)  # fmt: skip
def test_yaml_11_number_forms_are_refused_with_their_meaning(tmp_path, written, meaning):
    f_ = tmp_path / "n.yaml"
    f_.write_text(f"tiers:\n  tens:\n    staff_fte: {written}\n")
    (p,) = problems(f_)
    assert (p.path, p.where) == ("tiers.tens.staff_fte", f"{f_}:3")
    if meaning is None:  # 0o10: text in YAML 1.1, so not a number
        assert p.rule.startswith("must be a number") or "number" in p.rule
    else:
        assert f"YAML 1.1 reads this as {meaning}" in p.rule and p.value == written


def test_decimal_numbers_and_quoted_text_read_as_before(tmp_path):
    f_ = tmp_path / "n.yaml"
    f_.write_text(
        'tiers:\n  tens:\n    staff_scaling: null\n    staff_fte: 10\n    label: "010"\n'
        "    rack_kw: 1_2\n"
    )
    a = cm.load_assumptions(DEFAULT, f_)
    assert a.tiers["tens"].staff_fte.value == 10 and a.tiers["tens"].label == "010"
    assert a.tiers["tens"].rack_kw.value == 12


def test_a_set_value_starting_with_at_is_one_clear_line():
    r = CliRunner().invoke(app, ["validate", "default", "--set", "tiers.tens.label=@ops"])
    assert r.exit_code == 2
    assert "YAML reserves @ at the start of a value; quote it" in r.stderr
    assert "--set 'tiers.tens.label=\"@ops\"'" in " ".join(r.stderr.split())
    quoted = CliRunner().invoke(app, ["validate", "default", "--set", 'tiers.tens.label="@ops"'])
    assert quoted.exit_code == 0, quoted.stderr
