"""Clocks the benchmarks share: CPU seconds that count the worker processes of a
Monte Carlo (forked workers are children of the process), best-of timing, and the
peak resident memory of this process."""

from __future__ import annotations

import os
import resource
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


def peak_mb() -> float:
    """Peak resident memory of this process in MB: ``VmHWM`` on Linux (the high
    water mark of this program's memory; ``ru_maxrss`` also counts the process
    that started it, as it survives fork and exec), else ``ru_maxrss``."""
    try:
        with open("/proc/self/status") as f:
            status = f.read()
        return int(status.split("VmHWM:")[1].split()[0]) / 1024
    except (OSError, IndexError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
