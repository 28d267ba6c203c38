"""Hints added to input errors: "did you mean" for an unknown key (by edit
distance to the keys allowed there) and "put a base first" for an overlay
loaded alone."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from costmodel.core.nearest import MAX_EDITS, closest, edit_distance
from costmodel.inputs.errors import Problem

#: the word that names the bundled default among assumption paths
DEFAULT_WORD = "default"


def name_hint(word: str, names: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the name nearest ``word`` among ``names`` (a
    tier, site, design, server or cooling kind; ties go to the name of the closer
    length), else ``";"``: the separator before the rest of a message."""
    others = [str(n) for n in names if n != word]
    reach = min(MAX_EDITS, max(1, len(word) // 2))

    def edits(n: str) -> int:
        return edit_distance(word.lower(), n.lower())

    near = [n for n in others if edits(n) <= reach]
    guess = min(near, key=lambda n: (edits(n), abs(len(n) - len(word)), n), default=None)
    return f"; did you mean {guess!r}?" if guess else ";"


#: mappings of named entries (top-level key -> what one entry is called)
NAMED_ENTRIES = {"tiers": "tier", "servers": "server", "sites": "site", "designs": "design"}


def unknown_entry_hint(
    problems: list[Problem], data: dict[str, Any], created: Iterable[str]
) -> list[Problem]:
    """The "required but missing" problems of one named entry (``tiers.hundred``)
    that is a near miss of another entry's name, or that an override created, as
    one problem naming the entry and the nearest name (``did you mean 'hundreds'?``)
    in place of a line per missing key. ``created``: the dotted paths of entries an
    override created."""
    made = set(created)
    groups: dict[tuple[str, str], list[Problem]] = {}
    for p in problems:
        parts = p.path.split(".")
        if p.rule == "required but missing" and len(parts) == 3 and parts[0] in NAMED_ENTRIES:
            groups.setdefault((parts[0], parts[1]), []).append(p)
    replaced: dict[int, Problem | None] = {}
    for (coll, name), group in groups.items():
        table = data.get(coll)
        names = list(table) if isinstance(table, dict) else []
        hint = name_hint(name, names).rstrip(";")
        if not hint and f"{coll}.{name}" not in made:
            continue
        kind = NAMED_ENTRIES[coll]
        others = ", ".join(n for n in names if n != name) or "none"
        missing = ", ".join(p.path.rsplit(".", 1)[1] for p in group)
        rule = f"no {kind} {name!r}{hint} ({coll}: {others}; a new {kind} would need {missing})"
        one = Problem(group[0].where, f"{coll}.{name}", "", rule)
        for i, p in enumerate(group):
            replaced[id(p)] = one if i == 0 else None
    out = []
    for p in problems:
        if id(p) not in replaced:
            out.append(p)
        elif replaced[id(p)] is not None:
            out.append(replaced[id(p)])  # type: ignore[arg-type]
    return out


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
