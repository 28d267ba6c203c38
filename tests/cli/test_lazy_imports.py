"""What each entry point loads: ``import costmodel`` and ``costmodel --help``
no numerical or reporting library, ``costmodel summary`` no writer library.

Each case runs in a fresh interpreter (this one has imported everything) and
reports the top-level packages in ``sys.modules`` when it is done.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.paths import HAND, ROOT

WRITERS = {"matplotlib", "jinja2", "xlsxwriter", "openpyxl"}
NUMERICAL = {"numpy", "pandas", "pydantic", "yaml"}

PROBE = """
import json, sys
argv = json.loads(sys.argv[1])
if argv is None:
    import costmodel
else:
    sys.argv = ["costmodel", *argv]
    from costmodel.cli import main
    try:
        main()
    except SystemExit as exc:
        assert exc.code in (0, None), exc.code
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})), file=sys.stderr)
"""


def loaded(argv: list[str] | None) -> set[str]:
    """Top-level packages loaded by ``import costmodel`` (``argv`` None) or by
    ``costmodel *argv``."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv)],
        capture_output=True, text=True, env=env, timeout=120, check=True,
    )  # fmt: skip
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_the_probe_sees_what_is_loaded():
    assert "costmodel" in loaded(None)
    assert {"numpy", "pandas", "rich"} <= loaded(["summary", str(HAND)])


def test_import_costmodel_loads_no_numerical_or_reporting_library():
    assert loaded(None) & (WRITERS | NUMERICAL | {"typer", "rich"}) == set()


@pytest.mark.parametrize("argv", [["--help"], ["summary", "--help"]])
def test_help_loads_no_numerical_or_reporting_library(argv):
    assert loaded(argv) & (WRITERS | {"numpy", "pandas", "yaml"}) == set()


@pytest.mark.parametrize(
    "argv",
    [
        ["summary"],
        ["summary", "--format", "json"],
        ["validate", str(HAND)],
        ["recommend", str(HAND)],
    ],
)
def test_commands_that_print_load_no_writer_library(argv):
    assert loaded(argv) & WRITERS == set()
