"""Hostile and extreme inputs (issue 16), run through the CLI.

Each file in ``corpus/`` is an overlay on the bundled default (or, marked
``# standalone``, loaded alone) with its expected outcome in its header:

- ``# expect: exit 2: <phrase>`` (or ``exit 1``): that exit code, the phrase in
  the message, and the message names the file;
- ``# expect: exit 0``: success; JSON output parses with a parser that rejects
  ``NaN`` and ``Infinity``, CSV output has no field that starts a formula.

``# args: <command and options>`` (default ``validate``; ``{out}`` is a fresh
folder) and ``# env: NAME=value`` set how the CLI is run.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from costmodel.cli import get_app
from costmodel.inputs.resources import default_assumptions_dir

app = get_app()
CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(CORPUS.glob("*.yaml"))


def header(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("# "):
            break
        key, _, value = line[2:].partition(": ")
        out.setdefault(key.strip(), []).append(value)
    return out


def strict_json(text: str):
    def refuse(name: str):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def run_case(path: Path, tmp_path: Path, monkeypatch):
    h = header(path)
    args = shlex.split(h.get("args", ["validate"])[0].replace("{out}", str(tmp_path / "out")))
    for env in h.get("env", []):
        name, _, value = env.partition("=")
        monkeypatch.setenv(name, value)
    files = [str(path)] if "standalone" in h else [str(default_assumptions_dir()), str(path)]
    start = time.process_time()  # CPU seconds: a busy machine does not inflate them
    result = CliRunner().invoke(app, [args[0], *files, *args[1:]])
    return h, result, time.process_time() - start


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    h, result, seconds = run_case(path, tmp_path, monkeypatch)
    expect = h["expect"][0]
    code = int(expect.split()[1].rstrip(":"))
    message = " ".join(result.stderr.split())
    assert result.exit_code == code, (
        f"exit {result.exit_code}:\n{result.stderr}\n{result.exception!r}"
    )
    if code:
        phrase = expect.split(": ", 1)[1]
        assert phrase in message, f"{phrase!r} not in {message!r}"
        if code == 2:
            assert str(path) in message or "--set" in message  # names the file
        assert result.stdout == ""
        assert not (tmp_path / "out").exists()  # nothing written
        assert seconds < 5, f"took {seconds:.1f} s of CPU to refuse"
        return
    args = h.get("args", ["validate"])[0]
    if "-f json" in args:
        strict_json(result.stdout)
    if "-f csv" in args:
        for row in csv.reader(io.StringIO(result.stdout)):
            for field in row:
                if field[:1] in ("=", "+", "-", "@"):
                    float(field)  # only numbers may start like a formula


def test_the_corpus_has_its_cases():
    names = {p.stem for p in CASES}
    for required in ("alias-bomb", "deep-nesting", "case-only-servers", "duplicate-key",
                     "dotted-tier", "price-decline-one", "formula-tier-names"):  # fmt: skip
        assert required in names


def test_nesting_deeper_than_libyaml_can_compose(tmp_path):
    """200,000 levels would crash libyaml's recursive composer (a segfault): the
    depth is checked on the event stream first."""
    f = tmp_path / "deep.yaml"
    f.write_text("x: " + "[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    start = time.perf_counter()
    result = CliRunner().invoke(app, ["validate", str(f)])
    assert result.exit_code == 2
    # our event-stream check, or libyaml's own limit (PyYAML >= 6.0.4 stops at 1,000)
    assert re.search(r"nested more than 50 levels deep|maximum nesting depth", result.stderr)
    # a guard against a hang, not a speed test (CI machines are shared and slow)
    assert time.perf_counter() - start < 60


def test_alias_bomb_is_cheap(tmp_path):
    """Rejected without expanding the aliases: a few MB (measured in-process)."""
    import tracemalloc

    from costmodel.inputs.errors import AssumptionError
    from costmodel.inputs.yamlfile import read_file

    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(AssumptionError, match="alias bomb"):
        read_file(CORPUS / "alias-bomb.yaml")
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert elapsed < 30  # a guard against a hang: expansion is refused, not performed
    assert peak < 20e6  # memory is the deterministic measure: a few MB, not gigabytes
