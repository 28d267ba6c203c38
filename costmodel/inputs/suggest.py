"""Hints added to input errors: "did you mean" for an unknown key (by edit
distance to the keys allowed there) and "put a base first" for an overlay
loaded alone."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from costmodel.inputs.errors import Problem

#: the word that names the bundled default among assumption paths
DEFAULT_WORD = "default"

#: unknown keys this far (edits) from an allowed key get a suggestion
MAX_EDITS = 3


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest ``word`` if within ``MAX_EDITS`` (and less than half
    its length), else None."""
    best = min(candidates, key=lambda c: (edit_distance(word, c), c), default=None)
    if best is None:
        return None
    d = edit_distance(word, best)
    return best if d <= min(MAX_EDITS, max(1, len(word) // 2)) else None


def _models(tp: Any) -> list[Any]:
    """The types a value of annotation ``tp`` may hold (unions and Annotated unwrapped)."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _models(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType):
        return [m for arg in typing.get_args(tp) for m in _models(arg)]
    return [tp]


def allowed_keys(root: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys a mapping at ``loc`` (a pydantic error location, without the
    unknown key itself) may hold, read from the schema ``root``."""
    current: list[Any] = [root]
    for part in loc:
        nxt: list[Any] = []
        for tp in current:
            origin = typing.get_origin(tp)
            if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(part, str):
                field = tp.model_fields.get(part) or next(
                    (f for f in tp.model_fields.values() if f.alias == part), None
                )
                if field is not None:
                    nxt += _models(field.annotation)
            elif origin is dict and isinstance(part, str):
                nxt += _models(typing.get_args(tp)[1])
            elif origin is list and isinstance(part, int):
                nxt += _models(typing.get_args(tp)[0])
        current = nxt
    keys: list[str] = []
    for tp in current:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            keys += [f.alias or name for name, f in tp.model_fields.items()]
    return keys


def did_you_mean(root: type[BaseModel], loc: tuple[Any, ...], rule: str) -> str:
    """``rule`` (an unknown-key message) with ``did you mean 'x'?`` for the
    unknown key ending ``loc`` when an allowed key is close to it."""
    if not loc or not isinstance(loc[-1], str):
        return rule
    guess = closest(loc[-1], allowed_keys(root, loc[:-1]))
    return f"unknown key; did you mean {guess!r}? (see `costmodel schema`)" if guess else rule


def overlay_hint(problems: list[Problem], files: list[str]) -> list[Problem]:
    """When the model's ``name`` is missing with other top-level sections (an
    overlay loaded without a base: a base always names its model), one problem
    saying so in place of every "required but missing" one."""
    missing = [p for p in problems if p.rule == "required but missing"]
    top = [p.path for p in missing if p.path and "." not in p.path]
    if "name" not in top or len(top) < 2:
        return problems
    names = " ".join(files) if files else "FILE"
    hint = Problem(
        ", ".join(files),
        "",
        "",
        f"{len(top)} top-level sections are missing ({', '.join(top)}): "
        f"this file changes a model; put a base first, e.g. "
        f"`costmodel summary default {names}` "
        f'(Python: load_assumptions("default", ...))',
    )
    return [hint] + [p for p in problems if p not in missing]
