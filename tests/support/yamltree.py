"""Walking a parsed YAML tree (the assumption files' tests): every entry with its
dotted path, so that a test states only its rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: one entry: dotted path, its key (the index of a list item), its value, and the
#: containers enclosing it, outermost first (the last holds it)
Entry = tuple[str, str | int, Any, tuple[Any, ...]]


def entries(node: Any, path: str = "", parents: tuple[Any, ...] = ()) -> Iterator[Entry]:
    """Every mapping entry and list item below ``node``, parent before child:
    ``a.b`` for key ``b`` of ``a``, ``a[2]`` for item 2 of ``a``.

    >>> [(p, v) for p, _, v, _ in entries({"a": {"b": 1}, "c": [2]})]
    [('a', {'b': 1}), ('a.b', 1), ('c', [2]), ('c[0]', 2)]
    """
    if isinstance(node, dict):
        items = ((f"{path}.{k}" if path else str(k), k, v) for k, v in node.items())
    elif isinstance(node, list):
        items = ((f"{path}[{i}]", i, v) for i, v in enumerate(node))
    else:
        return
    inside = (*parents, node)
    for where, key, value in items:
        yield where, key, value, inside
        yield from entries(value, where, inside)


def is_number(value: Any) -> bool:
    """A YAML int or float (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool)
