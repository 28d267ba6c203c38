"""The one text policy for every string of the assumptions (methodology §2.4).

Every key and every text value can reach a document: a workbook cell, a chart, the
memo. Two things are refused, each naming the dotted path:

- a bidirectional control character (U+202A-U+202E embeddings and overrides,
  U+2066-U+2069 isolates): in a document it reorders the text after it, so that
  ``CNY -5.2 M`` after a tier name can read ``M 2.5- YNC``;
- text longer than :data:`MAX_CELL_TEXT` characters, what one spreadsheet cell
  holds (Excel cuts the rest silently).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from costmodel.inputs.paths import join_path

#: The most characters one spreadsheet cell holds (Excel's limit, XlsxWriter cuts).
MAX_CELL_TEXT = 32_767

#: Bidirectional embedding, override and isolate controls.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def bidi_control(text: str) -> str | None:
    """The first bidirectional control in ``text`` as ``U+202E RIGHT-TO-LEFT
    OVERRIDE``, or None."""
    if BIDI_CONTROLS.isdisjoint(text):
        return None
    for c in text:
        if c in BIDI_CONTROLS:
            return f"U+{ord(c):04X} {unicodedata.name(c)}"
    return None


def _shown(text: str) -> str:
    """``text`` as the message shows it: repr (controls escaped), cut at 40."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def _text_problem(text: str, path: str, what: str) -> Iterator[tuple[str, str, str]]:
    found = bidi_control(text)
    if found:
        yield (
            path,
            _shown(text),
            f"{what} must not contain {found}: a bidirectional control reorders the "
            "text and figures after it in the workbook and the memo",
        )
    if len(text) > MAX_CELL_TEXT:
        yield (
            path,
            _shown(text),
            f"{what} of {len(text):,} characters is longer than a spreadsheet cell holds "
            f"({MAX_CELL_TEXT:,}); shorten it (or cite a document instead of copying it)",
        )


def _breaks(text: str) -> bool:
    """Whether ``text`` breaks the policy (the quick test before the messages)."""
    return len(text) > MAX_CELL_TEXT or not BIDI_CONTROLS.isdisjoint(text)


def text_problems(data: Any, prefix: str = "") -> Iterator[tuple[str, str, str]]:
    """``(path, value, rule)`` for every key and text value of the merged raw
    assumptions ``data`` that breaks the policy of the module docstring (a path is
    joined only where it is needed: for a container walked into or a problem)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str) and _breaks(key):
                yield from _text_problem(key, join_path(prefix, key), "a name")
            if isinstance(value, str):
                if _breaks(value):
                    yield from _text_problem(value, join_path(prefix, key), "text")
            elif isinstance(value, dict | list):
                yield from text_problems(value, join_path(prefix, key))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            if isinstance(item, str):
                if _breaks(item):
                    yield from _text_problem(item, join_path(prefix, i), "text")
            elif isinstance(item, dict | list):
                yield from text_problems(item, join_path(prefix, i))
    elif isinstance(data, str) and _breaks(data):
        yield from _text_problem(data, prefix, "text")
