"""Inputs the schema accepts (finite, in range) but too large to compute with: a
server price of 1e308 makes capex = servers x price overflow. ``summary`` shows
empty cells; ``build`` (tests/hardening/corpus) and the writers, called from
Python, name the input and write nothing."""

from __future__ import annotations

import warnings

import pytest

import costmodel as cm
from costmodel.inputs.model import nonfinite_results
from costmodel.report.memo.render import write_memos


def overflowing(overrides: dict) -> cm.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return cm.build(cm.load_assumptions(overrides=overrides))


def test_the_default_computes():
    assert nonfinite_results(cm.build(cm.load_assumptions())) == []


def test_the_largest_input_is_named_with_the_tiers_and_results_it_breaks():
    (p,) = nonfinite_results(overflowing({"servers.h200.price": 1e308}))
    assert (p.where, p.path, p.value) == ("--set", "servers.h200.price", "1e+308")
    assert "capex, TCO and NPV of tiers 'tens', 'hundreds' and 'thousands'" in p.rule
    assert p.rule.startswith("too large to compute with")
    # one tier's own input: only that tier
    # (a GPU count is at most 1e9: a tier's own cost overflows instead)
    (p,) = nonfinite_results(overflowing({"tiers.tens.operations.software_per_gpu_year": 1e306}))
    assert (p.path, p.value) == ("tiers.tens.operations.software_per_gpu_year", "1e+306")
    assert "of tier 'tens' is not a finite number" in p.rule and "hundreds" not in p.rule


def test_the_writers_refuse_with_the_same_problem(tmp_path):
    """From Python too: no workbook with non-finite cells (which openpyxl cannot read
    and Excel repairs), no memo of blanks; nothing is written."""
    from costmodel.inputs.errors import AssumptionError

    m = overflowing({"servers.h200.price": 1e308})
    for write in (
        lambda: cm.write_workbook(m, tmp_path / "model.xlsx"),
        lambda: cm.write_memo(m, tmp_path / "memo.html"),
        lambda: write_memos(m, {"en": tmp_path / "a.html", "zh": tmp_path / "b.html"}),
    ):
        with pytest.raises(AssumptionError, match=r"servers\.h200\.price = 1e\+308: too large"):
            write()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["summary"], ["summary", "-f", "json"]])
def test_no_numpy_warning_reaches_the_terminal(command):
    from typer.testing import CliRunner

    from costmodel.cli import get_app

    result = CliRunner().invoke(get_app(), [*command, "--set", "servers.h200.price=1e308"])
    assert result.exit_code == 0
    assert "RuntimeWarning" not in result.stderr and "overflow" not in result.stderr
