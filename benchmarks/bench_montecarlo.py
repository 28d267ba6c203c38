"""Monte Carlo speed and memory on the bundled default (3 tiers x 72 months).

Prints: the time of ``costmodel.monte_carlo`` with 100,000 draws (every ranged
input varied; best of 3 and each run); the peak resident memory of the process
(``ru_maxrss``); the time of the same draws as a loop of single builds
(``with_overrides`` + ``build``, timed on 50 draws and scaled); and the ratio.
Targets on a 2-core machine: under 2 s, under 2 GB, at least 100x the loop.
Also times the tornado and the break-even search.

Run: python benchmarks/bench_montecarlo.py
"""

from __future__ import annotations

import resource
import time

import costmodel as cm
from costmodel.analysis.breakeven import break_even
from costmodel.analysis.montecarlo import sample
from costmodel.analysis.sensitivity import ranged_inputs, tornado

N = 100_000
LOOP_SAMPLE = 50


def main() -> None:
    a = cm.load_assumptions()
    cm.monte_carlo(a, n=2_000, seed=0)  # warm up (imports, caches)
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        res = cm.monte_carlo(a, n=N, seed=1)
        runs.append(time.perf_counter() - t0)
    vec = min(runs)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    shown = ", ".join(f"{r:.2f}" for r in runs)
    shape = f"{N:,} draws x {len(a.tiers)} tiers x {12 * a.horizon_years} months"
    print(f"monte_carlo: {shape}, {len(res.inputs)} inputs varied: {vec:.2f} s (runs: {shown} s)")
    print(f"peak memory (ru_maxrss, whole process):       {peak_mb:,.0f} MB")

    inputs, _ = ranged_inputs(a, include_normal=True)
    draws = sample(inputs, LOOP_SAMPLE, seed=1)
    t0 = time.perf_counter()
    for i in range(LOOP_SAMPLE):
        m = cm.build(cm.with_overrides(a, {p: float(v[i]) for p, v in draws.items()}))
        m.summary()
    looped = (time.perf_counter() - t0) / LOOP_SAMPLE * N
    print(f"{N:,} single builds in a loop (from {LOOP_SAMPLE}):  {looped:,.1f} s")
    print(f"ratio loop / vectorised: {looped / vec:,.0f}x")

    t0 = time.perf_counter()
    tornado(a)
    t1 = time.perf_counter()
    break_even(a)
    t2 = time.perf_counter()
    print(f"tornado: {(t1 - t0) * 1000:.0f} ms; break-even: {(t2 - t1) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
