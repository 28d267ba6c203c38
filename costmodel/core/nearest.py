"""The nearest word by edit distance: the "did you mean" of an unknown name (a
metric here, an input key or a tier in :mod:`costmodel.inputs.suggest`)."""

from __future__ import annotations

from collections.abc import Iterable

#: unknown keys this far (edits) from an allowed key get a suggestion
MAX_EDITS = 3


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions.

    >>> edit_distance("npv", "irr"), edit_distance("payback", "paybak")
    (3, 1)
    """
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest ``word`` if within ``MAX_EDITS`` (and less than half
    its length), else None.

    >>> closest("capx", ["capex", "opex"]), closest("zzz", ["capex"])
    ('capex', None)
    """
    best = min(candidates, key=lambda c: (edit_distance(word, c), c), default=None)
    if best is None:
        return None
    d = edit_distance(word, best)
    return best if d <= min(MAX_EDITS, max(1, len(word) // 2)) else None
