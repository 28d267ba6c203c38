"""The Chinese memo speaks Chinese: English prose is allowed only where it is
marked as quoted English (``lang="en"``: sources, notes, units quoted from the
assumption files) or is code (input paths). Counted over the whole page of the
bundled default, the assumptions appendix included."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import costmodel as cm
from costmodel.inputs.resources import templates_dir
from costmodel.report.memo.render import render_memo

#: the most runs of five or more English words the zh memo may carry outside code
#: and text marked lang="en" (product names and standards, e.g. "Docker + Docker
#: Compose, or lightweight Kubernetes", may read as one)
MAX_RUNS = 10
#: a run: this many Latin words in a row, nothing but spaces, digits and ASCII
#: punctuation between them (any Chinese character ends a run)
RUN_WORDS = 5

VOID = {"br", "img", "meta", "link", "input", "hr", "wbr", "source", "col", "area", "base"}
#: elements whose text is not prose: code, scripts, styles
SKIPPED = {"code", "script", "style", "head", "title", "kbd", "samp", "pre"}


class _Text(HTMLParser):
    """The page's text outside code and lang="en" elements, each element's
    boundary a break (an element never joins words into one run)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        lang = dict(attrs).get("lang") or ""
        self.stack.append(tag in SKIPPED or lang.startswith("en"))
        self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()
        self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not any(self.stack):
            self.parts.append(data)


#: what may stand between two words of a run
_BETWEEN = r"[\s0-9.,;:()\[\]/+\-–—'\"!?&%×x~<>=*]*"
_RUN = re.compile(rf"(?:[A-Za-z][A-Za-z'\-]*{_BETWEEN}){{{RUN_WORDS},}}")


def english_runs(page: str) -> list[str]:
    """Runs of :data:`RUN_WORDS` or more English words in the page's text outside
    code and text marked ``lang="en"``, as they read."""
    p = _Text()
    p.feed(page)
    runs = []
    for line in "".join(p.parts).split("\n"):
        for m in _RUN.finditer(line):
            words = re.findall(r"[A-Za-z][A-Za-z'\-]*", m.group(0))
            if len(words) >= RUN_WORDS:
                runs.append(" ".join(m.group(0).split()))
    return runs


def test_the_counter_counts_runs_and_skips_code_and_marked_english():
    page = (
        "<p>一台服务器 One NFS server with NVMe storage 和 <code>a b c d e f</code>"
        '<span lang="en">quoted source text of many words</span> 期内 (GPU) 4 个</p>'
        "<td>POC and light production: LoRA</td><td>and more</td>"
    )
    assert english_runs(page) == [
        "One NFS server with NVMe storage",
        "POC and light production: LoRA",
    ]


@pytest.fixture(scope="module")
def zh_default() -> str:
    return render_memo(cm.build(cm.load_assumptions()), "zh")


def test_zh_memo_of_the_default_carries_at_most_ten_english_runs(zh_default):
    runs = english_runs(zh_default)
    assert len(runs) <= MAX_RUNS, "\n".join(runs)
    # the runs the appendix carried before its Chinese fields and marks
    text = "\n".join(runs)
    for gone in ("One NFS server with NVMe", "POC and light production", "export control since"):
        assert gone not in text


_HAN = "\u3400-\u4dbf\u4e00-\u9fff"


def test_no_space_between_chinese_characters(zh_default):
    """Chinese typography: a space between Chinese and a figure (``4.79 亿元``,
    ``2027 年``), none between two Chinese characters (``亿元中``, not ``亿元 中``)."""
    p = _Text()
    p.feed(zh_default)
    text = "".join(p.parts)
    gaps = re.findall(rf".{{0,12}}[{_HAN}][ \u00a0]+[{_HAN}].{{0,12}}", text)
    assert gaps == []
    assert re.search("[\\d.,]+[ \u00a0][亿万]元中有", text)  # "成本现值 ... 中有 ... 未转化"
    assert re.search("\\d[ \u00a0]元/卡时计价值", text)


def test_zh_spacing_leaves_quoted_english_and_code_alone():
    from costmodel.report.memo.numbers import zh_spacing

    page = '<p>收入 4 亿元 中</p><code>a 中 b</code><td lang="en">seed: 必须 部署</td><br>元 与'
    assert zh_spacing(page) == (
        '<p>收入 4 亿元中</p><code>a 中 b</code><td lang="en">seed: 必须 部署</td><br>元与'
    )


def test_zh_tier_headers_break_only_between_phrases(zh_default):
    """A tier's header is its phrases, each an inline block (``th .ph`` in memo.css):
    ``数十卡方案`` and ``（32 张 H200）``, so a narrow column breaks between them."""
    heads = re.findall(r'<th scope="col"[^>]*data-tier="(\w+)">(.*?)</th>', zh_default, re.S)
    assert len(heads) >= 3
    for tier, head in heads:
        label = re.sub(r'<span class="tier-key">.*?</span>', "", head)
        pieces = re.findall(r'<span class="ph">([^<]*)</span>', label)
        assert "".join(pieces) == re.sub(r"<[^>]+>", "", label), (tier, head)
        assert len(pieces) == 2 and pieces[1].startswith("（") and pieces[1].endswith("）")
    css = (Path(templates_dir()) / "memo.css").read_text("utf-8")
    assert "th .ph { display: inline-block; }" in css
