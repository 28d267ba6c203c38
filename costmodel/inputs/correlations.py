"""Rules of ``correlations`` (methodology §9.1).

Each entry names two inputs ``a`` and ``b`` (dotted paths to a Quantity or a whole
number) and a ``rho`` in (-1, 1) (the schema bounds it). A pair is active when both
are ranged (``low`` and ``high``, or ``dist: normal`` with ``sd``); a pair naming an
input without a range (an overlay that fixed it), or one of an optional section
that is not given (``contract: null``), is inactive: nothing to draw together, no
error. A path that names no field at all is an error. A pair may be given once (in either
order), an input is not correlated with itself, and the matrix with ones on the
diagonal and ``rho`` at each pair must be positive definite (its Cholesky factor
exists): it is checked per group of inputs linked by pairs (the matrix is block
diagonal in them), and a group that fails is named by its pairs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from pydantic import BaseModel

from costmodel.inputs.paths import split_path
from costmodel.inputs.schema import Assumptions, Correlation, Quantity
from costmodel.inputs.whole import WholeNumber

#: One broken rule: (dotted path, rendered value, rule).
Problem = tuple[str, str, str]


def resolve(a: Assumptions, path: str) -> Any:
    """The node at dotted ``path`` in ``a`` (a field, a mapping's key, a list's
    index), or None when there is none."""
    try:
        keys = split_path(path)
    except ValueError:
        return None
    node: Any = a
    for key in keys:
        if isinstance(node, BaseModel) and key in type(node).model_fields:
            node = getattr(node, key)
        elif isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


def declared_absent(a: Assumptions, path: str) -> bool:
    """Whether ``path`` walks declared fields down to one that is not given (None:
    an optional section an overlay removed, such as ``revenue.contract``), as
    opposed to naming no field at all (a typo)."""
    try:
        keys = split_path(path)
    except ValueError:
        return False
    node: Any = a
    for key in keys:
        if node is None:
            return True
        if isinstance(node, BaseModel) and key in type(node).model_fields:
            node = getattr(node, key)
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            return False
    return node is None


def is_ranged(node: Any) -> bool:
    """A Quantity or whole number with ``low`` and ``high``, or ``dist: normal``
    with ``sd``: an input the Monte Carlo draws."""
    if not isinstance(node, Quantity | WholeNumber):
        return False
    ranged = node.low is not None and node.high is not None
    return ranged or (node.dist == "normal" and node.sd is not None)


def canonical(path: str) -> str:
    """``path`` with its keys joined by dots, unquoted (the form of the Monte
    Carlo's sample columns); ``path`` itself when it does not parse."""
    try:
        return ".".join(split_path(path))
    except ValueError:
        return path


def pair_name(c: Correlation) -> str:
    """``a ~ b (rho)``, as the errors name a pair."""
    return f"{c.a} ~ {c.b} (rho {c.rho:g})"


def matrix(paths: list[str], pairs: list[Correlation]) -> np.ndarray:
    """The correlation matrix over ``paths`` (canonical form): ones on the
    diagonal, ``rho`` at each pair (both triangles), zero elsewhere."""
    index = {p: k for k, p in enumerate(paths)}
    m = np.eye(len(paths))
    for c in pairs:
        i, j = index[canonical(c.a)], index[canonical(c.b)]
        m[i, j] = m[j, i] = c.rho
    return m


def _groups(pairs: list[Correlation]) -> list[list[Correlation]]:
    """The pairs split into groups of inputs linked by pairs (union-find)."""
    parent: dict[str, str] = {}

    def root(p: str) -> str:
        while parent.setdefault(p, p) != p:
            p = parent[p]
        return p

    for c in pairs:
        parent[root(canonical(c.a))] = root(canonical(c.b))
    groups: dict[str, list[Correlation]] = {}
    for c in pairs:
        groups.setdefault(root(canonical(c.a)), []).append(c)
    return list(groups.values())


def correlation_problems(a: Assumptions) -> Iterator[Problem]:
    """The broken rules of ``a.correlations`` (see module docstring)."""
    seen: dict[frozenset[str], int] = {}
    valid: list[Correlation] = []
    for i, c in enumerate(a.correlations):
        ok = True
        for end in ("a", "b"):
            path = getattr(c, end)
            node = resolve(a, path)
            if node is None and declared_absent(a, path):
                ok = False  # inactive: the section was removed (contract: null)
            elif not isinstance(node, Quantity | WholeNumber):
                ok = False
                yield (
                    f"correlations.{i}.{end}",
                    repr(path),
                    "must name an input of the assumptions (a number, ranged for the "
                    "Monte Carlo to draw it)",
                )
            elif not is_ranged(node):
                ok = False  # inactive: an input held fixed has nothing to correlate
        key = frozenset((canonical(c.a), canonical(c.b)))
        if len(key) == 1:
            ok = False
            yield f"correlations.{i}.b", repr(c.b), "an input is not correlated with itself"
        elif key in seen:
            ok = False
            yield (
                f"correlations.{i}",
                pair_name(c),
                f"the pair is given twice (also correlations.{seen[key]})",
            )
        else:
            seen[key] = i
        if ok:
            valid.append(c)
    for group in _groups(valid):
        paths = list(dict.fromkeys(canonical(p) for c in group for p in (c.a, c.b)))
        try:
            np.linalg.cholesky(matrix(paths, group))
        except np.linalg.LinAlgError:
            yield (
                "correlations",
                "; ".join(pair_name(c) for c in group),
                "the correlation matrix of these pairs is not positive definite "
                "(no set of draws can have them all); weaken one of them",
            )
