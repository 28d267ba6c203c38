"""Every bundled scenario builds from the command line as a user runs it
(``costmodel build default OVERLAY``, and the bundled example model): the workbook
and both memos are written, the Chinese one through the glossary's check. The
workbook audit and the memo tests read the default and a few overlays closely; this
runs every overlay's whole path, so that a sentence only a financed or staged model
reaches cannot stop a build."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from costmodel.cli import get_app
from tests.report.test_memo_decision import ALLOWED_LATIN, text_of
from tests.support.workbooks import overlays

pytestmark = pytest.mark.slow

OUTPUTS = ("model.xlsx", "memo.html", "memo.zh.html")


#: what a user types after ``costmodel build``: each overlay on the default, and the
#: bundled example model
BUILDS = {
    **{p.stem: ["default", str(p)] for p in overlays()},
    "example-us-neocloud": ["--example", "us-neocloud"],
}


@pytest.mark.parametrize("name", BUILDS)
def test_every_bundled_scenario_builds(name, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        get_app(), ["build", *BUILDS[name], "-n", "0", "-q", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted([*OUTPUTS, "manifest.sha256"])
    manifest = (out / "manifest.sha256").read_text("utf-8")
    for file in OUTPUTS:
        assert (out / file).stat().st_size > 10_000, file
        assert file in manifest, file
    zh = (out / "memo.zh.html").read_text("utf-8")
    assert '<html lang="zh' in zh
    # the zh body is Chinese in every branch the scenario reaches: Latin words only
    # for names, units and text quoted from the files (marked lang="en")
    body = text_of(zh[: zh.index('<h3 id="assumptions"')], keep_marked_english=False)
    assert set(re.findall(r"[A-Za-z][A-Za-z]{3,}", body)) - ALLOWED_LATIN == set()
