"""The engine's caches: bounded stores of results computed from values.

A tier's monthly shapes, segments, unit loans and depreciation counts depend on
its timing only, and its discount factors on its rates; the tiers of one build and
the chunks of a Monte Carlo share them. Each store is a :class:`Memo`, keyed by
the values a result is computed from (never by object identity), bounded, safe to
use from several threads, and emptied by :func:`clear_caches`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from threading import Lock
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

#: every store, for :func:`clear_caches`
MEMOS: list[Memo] = []


class Memo:
    """Results by key, the ``size`` most recently used kept; arrays are stored
    read-only (a caller cannot change what the next one reads)."""

    def __init__(self, name: str, size: int = 64):
        self.name = name
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = Lock()
        MEMOS.append(self)

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The result stored for ``key``, else ``compute()`` stored and returned."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        out = compute()
        if isinstance(out, np.ndarray):
            out.flags.writeable = False
        with self._lock:
            self._data[key] = out
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return out

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


def memoized(size: int = 64) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A function of hashable arguments whose results are kept in a :class:`Memo`
    (its ``memo`` attribute), keyed by the arguments."""

    def wrap(f: Callable[..., T]) -> Callable[..., T]:
        memo = Memo(f.__qualname__, size)

        @wraps(f)
        def inner(*args: Hashable) -> T:
            return memo.get(args, lambda: f(*args))

        inner.memo = memo  # type: ignore[attr-defined]
        return inner

    return wrap


def clear_caches() -> None:
    """Empty every store of the engine (:data:`MEMOS`)."""
    for memo in MEMOS:
        memo.clear()
