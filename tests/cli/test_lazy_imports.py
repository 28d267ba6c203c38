"""What each entry point loads: ``import costmodel`` and ``costmodel --help``
no numerical or reporting library, the commands that print no writer library.

The commands run in a fresh interpreter (this one has imported everything), one
after another; after each, the probe records the top-level packages in
``sys.modules``. A package seen after a command was loaded by it or by one run
before it, so a clean record clears every command up to it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.paths import HAND, ROOT

WRITERS = {"matplotlib", "jinja2", "xlsxwriter", "openpyxl"}
NUMERICAL = {"numpy", "pandas", "yaml"}
WEB = {"starlette", "uvicorn", "httpx", "playwright"}  # the serve extra and its tests

PROBE = """
import json, sys
loaded = []
for argv in json.loads(sys.argv[1]):
    if argv is None:
        import costmodel
    else:
        sys.argv = ["costmodel", *argv]
        from costmodel.cli import main
        try:
            main()
        except SystemExit as exc:
            assert exc.code in (0, None), (argv, exc.code)
    loaded.append(sorted({name.split(".")[0] for name in sys.modules}))
print(json.dumps(loaded), file=sys.stderr)
"""


def loaded(*runs: list[str] | None) -> list[set[str]]:
    """Top-level packages in ``sys.modules`` after each of ``runs`` in one fresh
    interpreter: ``None`` is ``import costmodel``, a list ``costmodel *argv``."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(runs)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path},
        timeout=120, check=True,
    )  # fmt: skip
    return [set(names) for names in json.loads(proc.stderr.strip().splitlines()[-1])]


def test_import_and_help_load_no_numerical_or_reporting_library():
    runs = [None, ["--help"], ["summary", "--help"], ["serve", "--help"]]
    for argv, names in zip(runs, loaded(*runs), strict=True):
        assert "costmodel" in names
        library = WRITERS | NUMERICAL | WEB
        library |= {"typer", "rich", "pydantic"} if argv is None else set()
        assert names & library == set(), argv


def test_commands_that_print_load_no_writer_library():
    runs = [
        ["summary"],
        ["summary", "--format", "json"],
        ["summary", "--format", "csv"],
        ["validate", str(HAND)],
        ["recommend", str(HAND)],
    ]
    after = loaded(*runs)
    assert {"numpy", "pydantic", "rich"} <= after[0]  # the probe sees what a command loads
    assert "pandas" in after[1]  # the JSON of a DataFrame
    for argv, names in zip(runs, after, strict=True):
        assert names & WRITERS == set(), argv


def test_summary_table_and_validate_load_no_pandas():
    """The summary table is printed from ``Model.summary_rows()``: pandas (about
    two thirds of the start-up floor) is loaded only for a DataFrame (JSON, CSV)."""
    runs = [["summary"], ["summary", "--set", "finance.tax_rate=0.2"], ["validate", str(HAND)]]
    for argv, names in zip(runs, loaded(*runs), strict=True):
        assert {"numpy", "pydantic", "rich"} <= names, argv
        assert "pandas" not in names, argv
