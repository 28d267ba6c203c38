"""The package's examples are self-contained (issue 49, item 5): at least ten
doctests, and none of them loads the bundled default, so a re-basing of the
default moves no docstring. Proven by running every doctest with the default's
folder made unreachable, and by a fault: a doctest that loads it is caught."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import costmodel
import costmodel as cm
from costmodel.inputs import loader
from costmodel.inputs.resources import example_names


def _doctests() -> list[doctest.DocTest]:
    found = []
    for info in pkgutil.walk_packages(costmodel.__path__, "costmodel."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found += [t for t in doctest.DocTestFinder().find(module) if t.examples]
    return found + [t for t in doctest.DocTestFinder().find(costmodel) if t.examples]


def _refuse_default():
    raise AssertionError("an example loaded the bundled default")


def _failures(tests: list[doctest.DocTest]) -> int:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for t in tests:
        runner.run(t, out=lambda _text: None)
    return runner.summarize(verbose=False).failed


def test_there_are_at_least_ten_doctests():
    tests = {t.name for t in _doctests()}
    assert len(tests) >= 10, sorted(tests)


def test_no_doctest_loads_the_bundled_default(monkeypatch):
    tests = _doctests()
    monkeypatch.setattr(loader, "default_assumptions_dir", _refuse_default)
    assert _failures(tests) == 0


def test_a_doctest_that_loads_the_default_is_caught(monkeypatch):
    monkeypatch.setattr(loader, "default_assumptions_dir", _refuse_default)
    source = ">>> import costmodel as cm\n>>> len(cm.load_assumptions().tiers)\n3\n"
    test = doctest.DocTestParser().get_doctest(source, {}, "fault", "fault.py", 0)
    assert _failures([test]) == 1


@pytest.fixture(scope="module")
def by_hand():
    return cm.load_assumptions(cm.example_dir("by-hand"))


def test_the_examples_case_is_bundled_and_worked_by_hand(by_hand):
    """The large tier's capex, written out: 16 servers at 1,000,000, 500 TB at
    1,000, the network as 15% of the cluster and a hall of 16 x 10 kW x 1.1 built
    at 15,000 per kW (cold plate)."""
    assert "by-hand" in example_names()
    servers = 16 * 1_000_000
    storage = 500 * 1_000
    network = 0.15 / 0.85 * (servers + storage)
    facility = 16 * 10 * 1.1 * 15_000
    large = cm.build(by_hand).summary_rows()["large"]
    assert large["capex"] == pytest.approx(servers + storage + network + facility, rel=1e-12)
