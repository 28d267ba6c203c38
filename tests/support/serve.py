"""What the tests of the what-if page (``costmodel serve``) share: the CLI's answer
for the same ``--set`` values, and the English words of a page's visible text."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from costmodel.cli import get_app
from tests.report.test_memo_decision import ALLOWED_LATIN

runner = CliRunner()


def cli_summary(sets: list[str], *paths: str) -> tuple[int, str, str]:
    """``costmodel summary PATHS --set S ... -f json``: exit code, stdout, stderr."""
    args = ["summary", *paths, "-f", "json"]
    for s in sets:
        args += ["--set", s]
    res = runner.invoke(get_app(), args)
    return res.exit_code, res.stdout, res.stderr


def cli_npv(sets: list[str], *paths: str) -> dict[str, float]:
    """Each tier's NPV as ``costmodel summary --set ...`` prints it (JSON)."""
    code, out, err = cli_summary(sets, *paths)
    assert code == 0, err
    return {t: row["npv"] for t, row in json.loads(out).items()}


def cli_error(sets: list[str], *paths: str) -> str:
    """The message ``costmodel summary --set ...`` stops with (exit 2), without
    its ``error: `` prefix."""
    code, out, err = cli_summary(sets, *paths)
    assert code == 2, (code, out, err)
    return err.removeprefix("error: ").rstrip("\n")


def visible_text(html: str) -> str:
    """The text a reader sees as prose: no head, script, style, code (file names) or
    tags; entities as text."""
    import html as h

    s = re.sub(
        r"<head>.*?</head>|<script\b.*?</script>|<style\b.*?</style>|<code\b.*?</code>",
        " ",
        html,
        flags=re.S,
    )
    s = re.sub(r"<[^>]+>", " ", s)
    return h.unescape(s)


def english_words(text: str) -> set[str]:
    """Latin words of four letters or more that are not product names, units or
    established abbreviations (the memo's list, ``ALLOWED_LATIN``). A hexadecimal
    run of 8 or more characters with a digit (an assumptions fingerprint such as
    ``29383dabfc12``) is an identifier, not a word: its letters depend on the files."""
    text = re.sub(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}(?![0-9A-Za-z])", " ", text)
    return set(re.findall(r"[A-Za-z]{4,}", text)) - ALLOWED_LATIN
