"""The layer contract (tests/support/layers.py) holds for the package, and the
checker really fails when a module breaks it."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.support.layers import (
    LAYERS,
    check,
    cycles,
    imports_of,
    module_names,
)

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


@pytest.mark.parametrize(
    "source, found",
    [
        ("from costmodel.inputs.schema import Assumptions\n", "imports costmodel.inputs.schema"),
        ("def f():\n    from costmodel.inputs import params\n", "imports costmodel.inputs.params"),
        ("import pydantic\n", "imports 'pydantic'"),
    ],
    ids=["schema", "deferred-params", "pydantic"],
)
def test_core_reading_the_inputs_or_pydantic_is_flagged(copy, source, found):
    """The engine takes its own typed inputs: ``core`` imports nothing of
    ``inputs`` (the layer above it) and not pydantic."""
    append(copy / "core" / "engine.py", source)
    problems = check(copy)
    assert any("costmodel.core.engine (layer core)" in p and found in p for p in problems), problems


def test_an_import_of_a_module_that_is_not_there_is_flagged(copy):
    """An import of a module that is not in the package is flagged, also under
    ``if TYPE_CHECKING:``, where nothing runs it."""
    append(
        copy / "analysis" / "risks.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from costmodel.core.model import Model\n",
    )
    (problem,) = check(copy)
    assert "imports costmodel.core.model, which is no module of the package" in problem


def test_core_imports_no_schema_when_imported():
    """Importing every module of ``costmodel.core`` loads neither pydantic nor a
    module of ``costmodel.inputs`` (checked in a fresh interpreter)."""
    code = (
        "import importlib, pkgutil, sys, costmodel.core as c\n"
        "for m in pkgutil.iter_modules(c.__path__):\n"
        "    importlib.import_module('costmodel.core.' + m.name)\n"
        "bad = sorted(k for k in sys.modules if k.split('.')[0] == 'pydantic'"
        " or k.startswith('costmodel.inputs'))\n"
        "print(len([k for k in sys.modules if k.startswith('costmodel.core.')]), bad)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.split(maxsplit=1)
    assert int(out[0]) >= 25 and out[1].strip() == "[]", out


def test_type_checking_imports_still_respect_layers(copy):
    append(
        copy / "core" / "metrics.py",
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from costmodel.analysis.bundle import Analysis
        """,
    )
    problem, *rest = check(copy)
    assert "imports costmodel.analysis.bundle (higher layer analysis)" in problem
    assert all(p.startswith("import cycle among: ") for p in rest)  # bundle reads metrics


def test_relative_imports_and_the_facade_are_resolved(copy):
    append(copy / "analysis" / "risks.py", "from ..report import format\nimport costmodel\n")
    problems = check(copy)
    assert any("imports costmodel.report.format (higher layer report)" in p for p in problems)
    assert any("imports the facade 'costmodel'" in p for p in problems)


def test_no_import_cycle_counting_deferred_and_type_checking_imports():
    assert cycles(PACKAGE) == []


@pytest.mark.parametrize(
    "how",
    [
        "from costmodel.core import units\n",
        "def f():\n    from costmodel.core import units\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from costmodel.core import units\n",
    ],
    ids=["top-level", "deferred", "type-checking"],
)
def test_a_cycle_is_flagged_however_it_is_hidden(copy, how):
    """A cycle counts whether the import closing it is at the top, inside a
    function or under ``if TYPE_CHECKING:``."""
    append(copy / "core" / "units.py", "from costmodel.core import metrics\n")
    append(copy / "core" / "metrics.py", how)
    assert check(copy) == ["import cycle among: costmodel.core.metrics, costmodel.core.units"]
    assert cycles(copy) == [["costmodel.core.metrics", "costmodel.core.units"]]


def test_a_cycle_of_three_is_one_component(copy):
    append(copy / "core" / "units.py", "def f():\n    from costmodel.core import metrics\n")
    append(copy / "core" / "metrics.py", "from costmodel.core import finance\n")
    append(copy / "core" / "finance.py", "import costmodel.core.units\n")
    (problem,) = check(copy)
    assert problem == (
        "import cycle among: costmodel.core.finance, costmodel.core.metrics, costmodel.core.units"
    )


@pytest.mark.parametrize(
    "source, name",
    [
        (
            "from costmodel.core.finance import _private_helper\n",
            "costmodel.core.finance._private_helper",
        ),
        ("from ..core.units import _x\n", "costmodel.core.units._x"),
        ("from costmodel.core import roots\nY = roots._bracket\n", "costmodel.core.roots._bracket"),
        ("import costmodel.core.roots as r\nY = r._bracket\n", "costmodel.core.roots._bracket"),
        ("import costmodel.core.roots\nY = costmodel.core.roots._b\n", "costmodel.core.roots._b"),
        (
            "def f():\n    from costmodel.core import engine\n    return engine._defaults\n",
            "costmodel.core.engine._defaults",
        ),
    ],
    ids=["from-import", "relative", "module-attribute", "module-alias", "dotted", "deferred"],
)
def test_a_private_name_of_another_module_is_flagged(copy, source, name):
    append(copy / "analysis" / "risks.py", source)
    (problem,) = check(copy)
    assert problem.startswith("costmodel/analysis/risks.py:")
    assert f"costmodel.analysis.risks uses the private name {name} of another module" in problem


def test_own_private_names_dunders_and_private_attributes_of_objects_pass(copy):
    append(
        copy / "analysis" / "risks.py",
        """
        from costmodel.core import units
        from costmodel.core.finance import __doc__ as doc
        _mine = 1
        Y = (_mine, units.__name__, doc, units.MONTHS_PER_YEAR.__class__._x if False else 0)
        """,
    )
    assert check(copy) == []


def test_a_private_engine_name_in_the_workbook_is_flagged(copy):
    """The workbook reads the engine's public schedules only: a private engine name
    read there (as ``engine_parts`` once did) is flagged."""
    append(
        copy / "report" / "workbook" / "deployments.py",
        "from costmodel.core import engine\nZ = engine._defaults\n",
    )
    (problem,) = check(copy)
    assert "deployments uses the private name costmodel.core.engine._defaults" in problem


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


def duplicate_file_names(root: Path) -> dict[str, list[str]]:
    """File names used by more than one module below ``root`` (``__init__.py`` and
    ``__main__.py`` aside), each with the paths that use it."""
    paths: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name not in ("__init__.py", "__main__.py"):
            paths.setdefault(path.name, []).append(path.relative_to(root.parent).as_posix())
    return {name: where for name, where in paths.items() if len(where) > 1}


def test_no_two_modules_share_a_file_name():
    """A file name says which module it is: ``model.py`` is the core's model, not
    also a command-line module."""
    assert duplicate_file_names(PACKAGE) == {}


def test_a_shared_file_name_is_found(copy):
    (copy / "report" / "memo" / "finance.py").write_text("X = 1\n", encoding="utf-8")
    assert duplicate_file_names(copy) == {
        "finance.py": ["costmodel/core/finance.py", "costmodel/report/memo/finance.py"]
    }


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


def test_the_formatter_lays_out_every_line():
    """No line of costmodel/ is kept out of ``ruff format`` (``# fmt: skip``,
    ``# fmt: off``): function and module lengths are counted as the formatter lays
    the code out, not squeezed under the limits above."""
    markers = [
        f"{path.relative_to(ROOT).as_posix()}:{i}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "# fmt: skip" in line or "# fmt: off" in line
    ]
    assert markers == []


def test_code_cites_the_methodology_of_the_repository():
    """Comments and docstrings cite sections of docs/methodology.md ("methodology
    §8.1"), not the numbered sections of a specification kept outside the
    repository ("Spec 15", "spec §27")."""
    spec = re.compile(r"\b[Ss]pec(?: v\d'?s?)?(?: §| )\d")
    cited = [
        f"{path.relative_to(ROOT).as_posix()}:{i}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if spec.search(line)
    ]
    assert cited == []
    assert spec.search('"""Spec 15: stage months') and spec.search("(spec §27)")


#: what the writers may read of the core: the model, its results, schedules and
#: intermediate rows, the vocabulary of metrics and units (not the calendar's sums
#: nor the finance functions: the model's rows are what they compute)
WRITER_CORE = {"model", "result", "schedules", "intermediate", "metrics", "units"}

#: functions whose results the model keeps (sums per year, cumulative sums, monthly
#: rates, present values, depreciation): a writer calling one computes a row of the
#: model again
COMPUTED = {
    "cumsum",
    "cumprod",
    "year_sums",
    "monthly_rate",
    "present_value",
    "discount_factors",
    "depreciation_annual",
}


#: numpy's element-wise arithmetic (floors, caps, differences, powers): a
#: workbook writer applying one to the model's rows computes a row of the model
ELEMENTWISE = {
    "floor", "ceil", "trunc", "rint", "round", "around", "maximum", "minimum", "fmax",
    "fmin", "clip", "where", "diff", "power", "exp", "log", "sign", "floor_divide",
}  # fmt: skip


def _cached_value_problems(node: ast.AST, where: str, workbook: bool) -> list[str]:
    """What a writer computes that the model keeps (docs/architecture.md, "Writers
    that only read"): the hours of a month anywhere in ``report/`` (hours x rates
    are the model's quantities); in ``report/workbook/``, numpy's element-wise
    arithmetic, a sum over deployments, events or classes (``sum(...)`` of a
    generator or a comprehension), a sum across a table (``.sum(axis=...)``) and a
    sum of an arithmetic of rows (``(a + b).sum()``). A row's own total
    (``row.sum()``, the cached value of its SUM cell) is reading."""
    out = []
    if (isinstance(node, ast.Name) and node.id == "HOURS_PER_MONTH") or (
        isinstance(node, ast.alias) and node.name == "HOURS_PER_MONTH"
    ):
        out.append(
            f"{where}:{getattr(node, 'lineno', 0)} reads HOURS_PER_MONTH: read the model's rows"
        )
    if not workbook or not isinstance(node, ast.Call):
        return out
    f, line = node.func, node.lineno
    numpy = isinstance(f, ast.Attribute) and getattr(f.value, "id", "") in ("np", "numpy")
    if numpy and f.attr in ELEMENTWISE:
        out.append(f"{where}:{line} computes np.{f.attr}: read the model's rows")
    generator = node.args and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp))
    if isinstance(f, ast.Name) and f.id == "sum" and generator:
        out.append(f"{where}:{line} sums over a generator: read the model's rows")
    if isinstance(f, ast.Attribute) and f.attr == "sum":
        if any(k.arg == "axis" for k in node.keywords):
            out.append(f"{where}:{line} sums across a table: read the model's rows")
        elif isinstance(f.value, ast.BinOp):
            out.append(f"{where}:{line} sums an arithmetic of rows: read the model's totals")
    return out


def _writer_problems(root: Path) -> list[str]:
    """Engine modules imported by ``report/`` beyond :data:`WRITER_CORE`, rates
    turned monthly there (a power with exponent ``1/12`` or ``1 /
    MONTHS_PER_YEAR``: the engine's schedules and ``finance.monthly_rate`` carry
    them), and the quantities of :func:`_cached_value_problems`."""
    out = []
    for path in sorted((root / "report").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(root.parent).as_posix()
        workbook = path.parent.name == "workbook"
        for node in ast.walk(tree):
            out += _cached_value_problems(node, where, workbook)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "costmodel.core"
            ):
                parts = (node.module or "").split(".")
                names = [parts[2]] if len(parts) > 2 else [a.name for a in node.names]
                out += [f"{where}:{node.lineno} imports core.{n}" for n in names
                        if n not in WRITER_CORE]  # fmt: skip
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in COMPUTED or name == "npv" or name.startswith("npv_at"):
                    out.append(f"{where}:{node.lineno} computes {name}: read the model's rows")
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
                e = node.right
                monthly = (
                    isinstance(e, ast.BinOp) and isinstance(e.op, ast.Div)
                    and isinstance(e.left, ast.Constant) and e.left.value in (1, 1.0)
                ) or (isinstance(e, ast.Constant) and e.value == 1 / 12)  # fmt: skip
                if monthly:
                    out.append(f"{where}:{node.lineno} turns a rate monthly")
    return out


def test_the_writers_read_results_and_compute_no_rate():
    assert _writer_problems(PACKAGE) == []


def test_a_rate_or_an_engine_module_in_the_writers_is_flagged(copy):
    append(copy / "report" / "workbook" / "money.py",
           "from costmodel.core.debt import loans\nR = (1 + 0.06) ** (1 / 12) - 1\n")  # fmt: skip
    problems = _writer_problems(copy)
    assert len(problems) == 2
    assert "imports core.debt" in problems[0] and "turns a rate monthly" in problems[1]


@pytest.mark.parametrize(
    "source, found",
    [
        ("from costmodel.core.units import HOURS_PER_MONTH\n", "reads HOURS_PER_MONTH"),
        ("import numpy as np\nK = np.maximum([-1.0], 0.0)\n", "computes np.maximum"),
        ("import numpy as np\nY = np.floor([1.5] * 2)\n", "computes np.floor"),
        ("D = [{'gpus': 1.0}]\nG = sum(d['gpus'] for d in D)\n", "sums over a generator"),
        ("import numpy as np\nU = np.zeros((2, 3)).sum(axis=0)\n", "sums across a table"),
        ("import numpy as np\nA = np.ones(3)\nT = float((A + A).sum())\n", "sums an arithmetic"),
    ],
)  # fmt: skip
def test_a_cached_value_computed_in_the_workbook_is_flagged(copy, source, found):
    """The workbook's writers read every cached value from the model: the hours of a
    month, an element-wise function, a sum over deployments, across a table or of
    an arithmetic of rows, written into a workbook module, is flagged (and the
    hours of a month in the memo too); the total of one row is not."""
    append(copy / "report" / "workbook" / "subsidyblock.py", source)
    problems = _writer_problems(copy)
    assert any(found in p and "subsidyblock.py" in p for p in problems), problems
    if "HOURS" in source:
        append(copy / "report" / "memo" / "numbers.py", source)
        assert any("memo/numbers.py" in p for p in _writer_problems(copy))


def test_the_total_of_one_row_is_reading(copy):
    append(
        copy / "report" / "workbook" / "recons.py",
        "import numpy as np\nT = float(np.ones(3).sum())\n",
    )
    assert _writer_problems(copy) == []


@pytest.mark.parametrize(
    "source, found",
    [
        ("import numpy as np\nC = np.cumsum([1.0, 2.0])\n", "computes cumsum"),
        ("X = [1.0].cumsum()\n", "computes cumsum"),
        ("from costmodel.core.calendar import year_sums\nY = year_sums([0.0] * 13)\n",
         "computes year_sums"),
        ("from costmodel.core import finance as fin\nR = fin.monthly_rate(0.08)\n",
         "computes monthly_rate"),
        ("from costmodel.core import finance as fin\nV = fin.npv_at_monthly_rates([1.0], [0.0])\n",
         "computes npv_at_monthly_rates"),
    ],
)  # fmt: skip
def test_a_row_computed_again_in_the_writers_is_flagged(copy, source, found):
    """The writers read the model's rows (sums per year, cumulative sums, present
    values, monthly rates): computing one again in ``report/`` is flagged, and so
    is an import of the calendar or the finance functions."""
    append(copy / "report" / "workbook" / "bookvalue.py", source)
    problems = _writer_problems(copy)
    assert any(found in p and "bookvalue.py" in p for p in problems), problems
    if "costmodel.core" in source:
        assert any("imports core." in p for p in problems), problems


def _page_problems(root: Path) -> list[str]:
    """Imports of the memo's modules by the what-if page (``report/web/``): it reads
    the memo through its public API, :mod:`costmodel.report.memoapi`, only."""
    out = []
    names = module_names(root)
    known = set(names)
    for module, path in names.items():
        if not module.startswith("costmodel.report.web"):
            continue
        where = path.relative_to(root.parent).as_posix()
        for imp in imports_of(module, path, known):
            if imp.target == "costmodel.report.memo" or imp.target.startswith(
                "costmodel.report.memo."
            ):
                out.append(
                    f"{where}:{imp.line} imports {imp.target}: read costmodel.report.memoapi"
                )
    return out


def test_the_page_reads_the_memo_through_its_public_api():
    assert _page_problems(PACKAGE) == []


@pytest.mark.parametrize(
    "source",
    [
        "from costmodel.report.memo.charts import npv_chart\n",
        "from costmodel.report.memo import numbers\n",
        "def f():\n    from costmodel.report.memo.context import Facts\n    return Facts\n",
        "from ..memo import labels\n",
    ],
)
def test_a_memo_module_in_the_page_is_flagged(copy, source):
    append(copy / "report" / "web" / "view.py", source)
    problems = _page_problems(copy)
    assert len(problems) == 1 and "report/web/view.py" in problems[0], problems
    assert "imports costmodel.report.memo" in problems[0]


MAX_MODULE_LINES = 700


def test_no_module_is_longer_than_700_lines():
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert {p: n for p, n in sizes.items() if n > MAX_MODULE_LINES} == {}
    assert max(sizes.values()) > MAX_MODULE_LINES / 2  # the sizes were read
