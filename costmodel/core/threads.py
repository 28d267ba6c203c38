"""Single-threaded BLAS for the engine's small matrix products.

The engine's matrix products are small (a chunk of variants times a few dozen
columns); a multithreaded OpenBLAS spends more time waking its threads than
computing, and from two Monte Carlo worker threads it oversubscribes the cores.
:func:`blas_single_thread` sets numpy's bundled OpenBLAS to one thread while any
engine call is running (nested and concurrent uses are counted; the setting
before the first is restored after the last). Best effort: a no-op where numpy's
BLAS is not a bundled OpenBLAS.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import os
from collections.abc import Callable, Iterator
from functools import cache
from threading import Lock

import numpy as np

_lock = Lock()
_depth = 0
_before = 1


@cache
def _openblas() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    """numpy's bundled OpenBLAS ``(get_num_threads, set_num_threads)``, or None."""
    with contextlib.suppress(Exception):
        libs = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
        lib = ctypes.CDLL(sorted(glob.glob(os.path.join(libs, "*openblas*")))[0])
        for suffix in ("64_", "", "_64"):
            get = getattr(lib, f"scipy_openblas_get_num_threads{suffix}", None)
            put = getattr(lib, f"scipy_openblas_set_num_threads{suffix}", None)
            if get is not None and put is not None:
                return get, put
        get = getattr(lib, "openblas_get_num_threads", None)
        put = getattr(lib, "openblas_set_num_threads", None)
        if get is not None and put is not None:
            return get, put
    return None


@contextlib.contextmanager
def blas_single_thread() -> Iterator[None]:
    """Run numpy's OpenBLAS single-threaded for the duration (see module docstring)."""
    global _depth, _before
    funcs = _openblas()
    if funcs is None:
        yield
        return
    get, put = funcs
    with _lock:
        if _depth == 0:
            _before = int(get())
            if _before != 1:
                put(1)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _before != 1:
                put(_before)
