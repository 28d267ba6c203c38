"""The examples in the docstrings of the public API run with the suite.

``pyproject.toml`` lists the modules among pytest's ``testpaths`` with
``--doctest-modules``; this test fails if one drops out of that list or its examples
are removed.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.paths import ROOT

MODULES = {  # module -> fewest examples it must hold
    "costmodel": 8,
    "costmodel.core.finance": 15,
    "costmodel.core.roots": 12,
}


def _examples(name: str) -> int:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module, name)
    return sum(len(t.examples) for t in tests if t.name.startswith(name))


def test_each_module_with_examples_is_a_test_path():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_config = config["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in pytest_config["addopts"].split()
    paths = set(pytest_config["testpaths"])
    for name in MODULES:
        file = name.replace(".", "/") + ("/__init__.py" if name == "costmodel" else ".py")
        assert file in paths, f"{file} is not among pytest's testpaths"


def test_the_public_functions_carry_examples():
    for name, least in MODULES.items():
        assert _examples(name) >= least, name
