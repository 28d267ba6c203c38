"""The examples in the docstrings of the public API run with the suite.

``pyproject.toml`` lists the modules among pytest's ``testpaths`` with
``--doctest-modules``; these tests fail if a module with examples is not in that
list, or a public function of the top-level API, ``core/finance.py``,
``core/roots.py`` or ``core/irrsolve.py`` lacks its numpydoc sections or examples.
"""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

import costmodel
from tests.paths import ROOT

#: modules whose every public function carries numpydoc sections and examples
DOCUMENTED = ("costmodel.core.finance", "costmodel.core.roots", "costmodel.core.irrsolve")


def _examples(obj: object, name: str) -> int:
    tests = doctest.DocTestFinder().find(obj, name)
    return sum(len(t.examples) for t in tests)


def _public_functions() -> dict[str, object]:
    """Name -> function: the functions of the top-level API (``costmodel.X``) and
    the public functions of :data:`DOCUMENTED`."""
    out = {
        f"costmodel.{n}": getattr(costmodel, n)
        for n in costmodel._EXPORTS  # noqa: SLF001 - the package's own export table
        if inspect.isfunction(getattr(costmodel, n))
    }
    for module_name in DOCUMENTED:
        module = importlib.import_module(module_name)
        for n, f in vars(module).items():
            if not n.startswith("_") and inspect.isfunction(f) and f.__module__ == module_name:
                out[f"{module_name}.{n}"] = f
    return out


def test_each_module_with_examples_is_a_test_path():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_config = config["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in pytest_config["addopts"].split()
    paths = set(pytest_config["testpaths"])
    with_examples = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "costmodel").rglob("*.py")
        if ">>> " in p.read_text(encoding="utf-8")
    }
    assert len(with_examples) >= 20
    assert with_examples <= paths, sorted(with_examples - paths)


def test_the_public_functions_carry_sections_and_examples():
    functions = _public_functions()
    assert len(functions) >= 40
    missing = []
    for name, f in functions.items():
        doc = inspect.getdoc(f) or ""
        for section in ("Parameters\n----------", "Returns\n-------", "Examples\n--------"):
            if section not in doc:
                missing.append(f"{name}: {section.splitlines()[0]}")
        if _examples(f, name) == 0:
            missing.append(f"{name}: no example")
    assert missing == []


def test_the_package_docstring_shows_a_build():
    assert _examples(costmodel, "costmodel") >= 8
