"""Clocks the benchmarks share: CPU seconds that count the worker processes of a
Monte Carlo (forked workers are children of the process), and best-of timing."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def cpu_now() -> float:
    """CPU seconds of this process and of its children that have been waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(fn: Callable[[], object], repeat: int = 1) -> tuple[float, float]:
    """Best (wall, CPU) seconds of ``fn()`` over ``repeat`` runs."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), cpu_now()
        fn()
        best = min(best, (time.perf_counter() - t0, cpu_now() - c0))
    return best
