"""The layer contract (tests/support/layers.py) holds for the package, and the
checker really fails when a module breaks it."""

from __future__ import annotations

import ast
import shutil
import textwrap
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.support.layers import LAYERS, check, imports_of, module_names

PACKAGE = ROOT / "costmodel"


def test_costmodel_keeps_its_layers():
    assert check(PACKAGE) == []


def test_every_layer_is_a_package():
    names = module_names(PACKAGE)
    assert {f"costmodel.{layer}" for layer in LAYERS} <= set(names)


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of the package to break."""
    return Path(
        shutil.copytree(
            PACKAGE, tmp_path / "costmodel", ignore=shutil.ignore_patterns("__pycache__")
        )
    )


def append(path: Path, source: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + textwrap.dedent(source), encoding="utf-8")


def test_matplotlib_in_core_is_flagged(copy):
    append(copy / "core" / "units.py", "import matplotlib\n")
    (problem,) = check(copy)
    assert problem.startswith("costmodel/core/units.py:")
    assert "costmodel.core.units (layer core) imports 'matplotlib'" in problem


def test_imports_inside_functions_count(copy):
    append(
        copy / "inputs" / "loader.py",
        """
        def _late():
            from jinja2 import Template
            from costmodel.report.format import number
            return Template, number
        """,
    )
    problems = check(copy)
    assert len(problems) == 2
    assert "imports 'jinja2'" in problems[0]
    assert "(layer inputs) imports costmodel.report.format (higher layer report)" in problems[1]


def test_yaml_is_allowed_in_inputs_but_not_in_core(copy):
    append(copy / "inputs" / "errors.py", "import yaml\n")
    append(copy / "core" / "finance.py", "from yaml import safe_load\n")
    (problem,) = check(copy)
    assert "costmodel.core.finance (layer core) imports 'yaml'" in problem


def test_type_checking_imports_still_respect_layers(copy):
    append(
        copy / "core" / "metrics.py",
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from costmodel.analysis.bundle import Analysis
        """,
    )
    (problem,) = check(copy)
    assert "imports costmodel.analysis.bundle (higher layer analysis)" in problem


def test_relative_imports_and_the_facade_are_resolved(copy):
    append(copy / "analysis" / "risks.py", "from ..report import format\nimport costmodel\n")
    problems = check(copy)
    assert any("imports costmodel.report.format (higher layer report)" in p for p in problems)
    assert any("imports the facade 'costmodel'" in p for p in problems)


def test_a_module_level_cycle_is_flagged_a_deferred_one_is_not(copy):
    append(copy / "core" / "units.py", "from costmodel.core import metrics\n")
    append(copy / "core" / "metrics.py", "from costmodel.core import units\n")
    assert check(copy) == [
        "module-level import cycle among: costmodel.core.metrics, costmodel.core.units"
    ]
    # the same import, deferred into a function, is no cycle
    text = (copy / "core" / "units.py").read_text(encoding="utf-8")
    text = text.replace(
        "from costmodel.core import metrics\n", "def f():\n    from costmodel.core import metrics\n"
    )
    (copy / "core" / "units.py").write_text(text, encoding="utf-8")
    assert check(copy) == []


def test_a_module_outside_the_layers_is_flagged(copy):
    (copy / "helpers.py").write_text("X = 1\n", encoding="utf-8")
    (problem,) = check(copy)
    assert "module costmodel.helpers is in no layer" in problem


def test_imports_of_reads_from_submodule_imports(tmp_path):
    pkg = tmp_path / "costmodel" / "core"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import engine\n", encoding="utf-8")
    (pkg / "engine.py").write_text("", encoding="utf-8")
    known = set(module_names(tmp_path / "costmodel"))
    (imp,) = imports_of("costmodel.core", pkg / "__init__.py", known)
    assert imp.target == "costmodel.core.engine" and imp.top_level


#: issue 10: short, named pieces
MAX_FUNCTION_LINES = 80


def test_no_function_is_longer_than_80_lines():
    """Every function and method in costmodel/ spans at most 80 lines (from its
    first decorator or ``def`` to its last line)."""
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                lines = node.end_lineno - first + 1
                if lines > MAX_FUNCTION_LINES:
                    where = path.relative_to(ROOT).as_posix()
                    too_long.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    assert too_long == []
