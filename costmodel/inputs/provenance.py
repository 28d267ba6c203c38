"""Where a scenario came from: the notes an imported workbook leaves on the inputs
it changed (``costmodel import`` writes ``changed in WORKBOOK on DATE (was X)``
beside each changed value), read back from the merged assumption files so that
the workbook's Cover and the memo can name them."""

from __future__ import annotations

from typing import Any

from costmodel.inputs.paths import join_path
from costmodel.inputs.schema import Assumptions

#: how the note of an input changed in a workbook begins
CHANGED_PREFIX = "changed in "


#: between an input's own note and the changes appended to it (:func:`with_change`)
NOTE_SEP = " | "


def with_change(note: str | None, change: str) -> str:
    """``note`` with ``change`` appended after :data:`NOTE_SEP` (``change`` alone
    when there is no note): an imported input keeps the reasoning it had.

    >>> with_change("utilization of a new cluster", "changed in a.xlsx on 2027-01-05 (was 0.6)")
    'utilization of a new cluster | changed in a.xlsx on 2027-01-05 (was 0.6)'
    """
    return f"{note.rstrip()}{NOTE_SEP}{change}" if note and note.strip() else change


def last_change(note: str) -> str | None:
    """The last change appended to ``note`` (:func:`with_change`), or None."""
    last = note.rsplit(NOTE_SEP, 1)[-1]
    return last if last.startswith(CHANGED_PREFIX) else None


def changed_note(workbook: str, date: str, was: str) -> str:
    """``changed in WORKBOOK on DATE (was X)``: the note of an imported input."""
    return f"{CHANGED_PREFIX}{workbook} on {date} (was {was})"


def changed_inputs(a: Assumptions) -> list[tuple[str, str]]:
    """``(dotted path, note)`` of every input whose note says that it was changed in
    a workbook (:func:`changed_note`), in the order of the merged files. Read from
    the merged data, so that a whole number or a choice written as ``{value: ...,
    note: ...}`` counts as well as a quantity."""
    data = a._source.data if a._source is not None else a.model_dump(exclude_none=True)
    out: list[tuple[str, str]] = []
    _walk(data, "", out)
    return out


def _walk(node: Any, path: str, out: list[tuple[str, str]]) -> None:
    if isinstance(node, dict):
        note = node.get("note")
        change = last_change(note) if "value" in node and isinstance(note, str) else None
        if change is not None:
            out.append((path, change))
            return
        for key, value in node.items():
            _walk(value, join_path(path, key), out)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            _walk(item, join_path(path, str(i)), out)
