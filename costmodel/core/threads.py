"""Single-threaded BLAS for the engine's small matrix products.

The engine's matrix products are small (a chunk of variants times a few dozen
columns); a multithreaded OpenBLAS spends more time waking its threads than
computing, and from two Monte Carlo workers it oversubscribes the cores.
:func:`blas_single_thread` sets every BLAS library loaded in the process to one
thread while any engine call is running (nested and concurrent uses are counted;
the settings before the first are restored after the last). The libraries are
found and set through ``threadpoolctl`` (its controller is made once, on first
use); a process without a BLAS that threadpoolctl knows runs unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from threading import Lock
from typing import Any

_lock = Lock()
_depth = 0
_before: list[tuple[Any, int]] = []


@cache
def _blas() -> list[Any]:
    """threadpoolctl's controllers of the BLAS libraries loaded now (numpy's first)."""
    import numpy  # noqa: F401  (its BLAS must be loaded before the libraries are listed)
    from threadpoolctl import ThreadpoolController

    return list(ThreadpoolController().select(user_api="blas").lib_controllers)


def blas_threads() -> list[int]:
    """The thread count of each loaded BLAS library (for tests and diagnostics)."""
    return [int(lib.num_threads) for lib in _blas()]


@contextlib.contextmanager
def blas_single_thread() -> Iterator[None]:
    """Run every loaded BLAS single-threaded for the duration (see module docstring)."""
    global _depth, _before
    with _lock:
        if _depth == 0:
            _before = [(lib, int(lib.num_threads)) for lib in _blas()]
            for lib, n in _before:
                if n != 1:
                    lib.set_num_threads(1)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                for lib, n in _before:
                    if n != 1:
                        lib.set_num_threads(n)
                _before = []
