"""A corpus of bad assumption files (tests/bad/), each with the message it must
produce (its ``# expect:`` line). A file marked ``# standalone`` is loaded alone;
the others are overlays on the valid tests/data/hand.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from tests.paths import HAND, TESTS

app = get_app()

#: cases the corpus must keep (a missing file fails its case); any other file in
#: tests/bad/ is a case too
REQUIRED = (
    "missing-section", "unknown-key", "negative-price", "share-of-one", "pue-below-one",
    "gpus-not-multiple", "unknown-server", "air-at-60kw", "horizon-zero",
    "string-for-number", "malformed", "empty",
)  # fmt: skip
BAD = sorted({*(TESTS / "bad" / f"{n}.yaml" for n in REQUIRED), *(TESTS / "bad").glob("*.yaml")})


def _case(path: Path) -> tuple[list[Path], str]:
    header = path.read_text(encoding="utf-8").splitlines()
    expect = next(
        line.split("# expect: ", 1)[1] for line in header if line.startswith("# expect: ")
    )
    paths = [path] if "# standalone" in header else [HAND, path]
    return paths, expect


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_error_names_file_path_value_and_rule(path):
    paths, expect = _case(path)
    with pytest.raises(cm.AssumptionError) as info:
        cm.load_assumptions(*paths)
    message = str(info.value)
    assert expect in message, f"expected {expect!r} in:\n{message}"
    assert str(path) in message  # the full file name, so the user can open it
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_cli_exits_2_and_writes_nothing(path, tmp_path, monkeypatch):
    paths, expect = _case(path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["summary", *map(str, paths), "--format", "json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert expect.split(": ", 1)[1][:30] in " ".join(result.stderr.split())
    assert list(tmp_path.iterdir()) == []


def test_several_problems_are_reported_together(tmp_path):
    f = tmp_path / "two.yaml"
    f.write_text("finance: {tax_rate: 2}\npower: {pue: {air: 0.5}}\n", encoding="utf-8")
    with pytest.raises(cm.AssumptionError) as info:
        cm.load_assumptions(HAND, f)
    assert len(info.value.problems) == 2
    assert f"{f}:1: finance.tax_rate = 2" in str(info.value)
    assert f"{f}:2: power.pue.air = 0.5" in str(info.value)


def test_bad_override_names_set(tmp_path):
    with pytest.raises(
        cm.AssumptionError, match=r"--set: operations.utilization = 1.5: must be a fraction"
    ):
        cm.load_assumptions(HAND, overrides={"operations.utilization": 1.5})
