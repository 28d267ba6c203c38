"""Dotted paths into the assumptions (``tiers.tens.gpus``).

A key that holds a dot, a double quote or a bracket is written in double quotes
(``tiers."v1.5".gpus``, ``\\"`` for a quote inside it) or, when reading a path,
also in brackets (``tiers[v1.5].gpus``). Error messages and ``--set`` use this form.
"""

from __future__ import annotations

import re

__all__ = ["join_path", "key_path", "quote_key", "split_path"]

_PLAIN_KEY = re.compile(r'[^."\[\]]+')


def quote_key(key: object) -> str:
    """A key as it appears in a dotted path: as is, or in double quotes when it
    holds a dot, a quote or a bracket (``tiers."v1.5".gpus``)."""
    text = str(key)
    if _PLAIN_KEY.fullmatch(text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def join_path(prefix: str, key: object) -> str:
    """``prefix.key`` with ``key`` quoted where needed (see :func:`quote_key`)."""
    return f"{prefix}.{quote_key(key)}" if prefix else quote_key(key)


def key_path(*keys: object) -> str:
    """A dotted path from its keys, each quoted where needed."""
    out = ""
    for k in keys:
        out = join_path(out, k)
    return out


def split_path(path: str) -> list[str]:
    """The keys of a dotted path. A key holding dots is written in double quotes
    (``tiers."v1.5".gpus``; ``\\"`` for a quote inside) or in brackets
    (``tiers[v1.5].gpus``). Raises ``ValueError`` for an unbalanced quote/bracket."""
    keys: list[str] = []
    i, n = 0, len(path)
    while True:
        if i < n and path[i] == '"':
            j, buf = i + 1, []
            while j < n and path[j] != '"':
                if path[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(path[j])
                j += 1
            if j >= n:
                raise ValueError("unclosed double quote")
            keys.append("".join(buf))
            i = j + 1
        elif i < n and path[i] == "[":
            j = path.find("]", i)
            if j < 0:
                raise ValueError("unclosed bracket")
            keys.append(path[i + 1 : j])
            i = j + 1
        else:
            j = i
            while j < n and path[j] not in ".[":
                j += 1
            keys.append(path[i:j])
            i = j
        if i >= n:
            return keys
        if path[i] == ".":
            i += 1
        elif path[i] != "[":
            raise ValueError(f"unexpected {path[i]!r} after a quoted key")
