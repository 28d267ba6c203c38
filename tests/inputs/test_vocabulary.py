"""The one registry of input names (costmodel.inputs.vocabulary): every input the
engine reads has a name in both languages and a kind that fits its values, and
the command line, the workbook and the memo call an input by that one name."""

from __future__ import annotations

import doctest

import pytest

import costmodel as cm
from costmodel.analysis.sensitivity import ranged_inputs
from costmodel.inputs import vocabulary
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir
from costmodel.inputs.vocabulary import INPUTS, input_key, input_kind, input_label

CASES = [None, *sorted(scenarios_dir().glob("*.yaml"))]


def _load(overlay):
    if overlay is None:
        return cm.load_assumptions()
    return cm.load_assumptions(default_assumptions_dir(), overlay)


def test_doctests_pass():
    result = doctest.testmod(vocabulary)
    assert result.attempted >= 4 and result.failed == 0


def test_every_term_is_named_in_both_languages_with_a_unit():
    for key, term in INPUTS.items():
        assert term.en and term.zh and term.unit, key
        assert term.en[0].isupper() or term.en[0].isdigit() or term.en.startswith("MFU"), key


@pytest.mark.parametrize("overlay", CASES, ids=lambda p: "default" if p is None else p.stem)
def test_every_input_the_engine_reads_has_a_term_of_its_kind(overlay):
    """A path the engine reads resolves to its engine name, or (a cloud price read
    as the tier's price) to a term of the same kind."""
    a = _load(overlay)
    for tier in a.tiers:
        for name, path in resolve_tier(a, tier).paths().items():
            if name not in INPUTS:
                continue  # flags (build_flag, terminal_flag) and stage fields by number
            key = input_key(path)
            assert key is not None, path
            assert INPUTS[key].kind == INPUTS[name].kind, (path, key, name)


@pytest.mark.parametrize("overlay", CASES, ids=lambda p: "default" if p is None else p.stem)
def test_a_percentage_input_has_its_range_within_0_and_1(overlay):
    """Shares and yearly rates are fractions: a ranged input shown as a percentage
    has low and high within [0, 1]; the ramp (3 to 12 months) is not one."""
    inputs, _ = ranged_inputs(_load(overlay))
    assert inputs
    for r in inputs:
        assert input_key(r.path) is not None, r.path
        if input_kind(r.path) == "pct":
            assert 0 <= r.low <= r.high <= 1, r.path
    assert input_kind("timeline.ramp_months") == "number"
    assert input_kind("operations.utilization") == "pct"


def test_workbook_and_memo_call_an_input_by_the_registry_name(default_workbook, default_book):
    from costmodel.report.memo.labels import input_label as memo_label

    model = default_workbook[0]
    labels = {r[0] for r in default_book["Inputs"].iter_rows(values_only=True)}
    for dotted in ("timeline.ramp_months", "operations.utilization", "power.price_per_kwh"):
        name = input_label(dotted)
        assert name == INPUTS[input_key(dotted)].en
        assert name in labels, dotted
        tier = model.tiers[0]
        assert memo_label(model, tier, dotted) == (name, input_kind(dotted))
        assert memo_label(model, tier, dotted, "zh")[0] == input_label(dotted, "zh")
