"""The memo's glossary of Chinese finance terms, loaded from its one place,
``docs/glossary/glossary.yaml`` (:func:`costmodel.inputs.resources.glossary_path`):
per term the English, the Chinese a finance reader signs and the renderings that
are rejected. :func:`check_zh` is what :func:`costmodel.report.memo.render.write_memos`
runs on every Chinese memo before it is written.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import yaml

from costmodel.inputs.resources import glossary_path


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    rejected: tuple[str, ...]
    note: str = ""


@functools.lru_cache(maxsize=1)
def terms() -> tuple[Term, ...]:
    """The glossary's terms, in file order."""
    data = yaml.safe_load(glossary_path().read_text(encoding="utf-8"))
    return tuple(
        Term(
            str(t["en"]), str(t["zh"]), tuple(map(str, t.get("rejected") or ())), t.get("note", "")
        )
        for t in data["terms"]
    )


def rejected_in(text: str) -> list[tuple[str, str]]:
    """``(rejected, preferred)`` for each rejected term found in ``text``."""
    return [(r, t.zh) for t in terms() for r in t.rejected if r in text]


def check_zh(html: str) -> str:
    """``html`` unchanged, or :class:`ValueError` naming each rejected term in it
    and the glossary's term to use instead."""
    found = rejected_in(html)
    if found:
        items = "; ".join(f"{r!r} (use {z!r})" for r, z in found)
        raise ValueError(f"the Chinese memo contains terms the glossary rejects: {items}")
    return html
