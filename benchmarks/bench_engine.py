"""Engine speed on the bundled default (3 tiers x 72 months).

Prints: one full build (all tiers, with summary); 10,000 variants through the
scenario axis; and the same variants as a loop of single builds (timed on a
sample and scaled), with the ratio. Targets on a 2-core machine: a single build
well under 50 ms after import; 10,000 variants under 1 s.

Run: python benchmarks/bench_engine.py
"""

from __future__ import annotations

import time

import numpy as np

import costmodel as cm


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    a = cm.load_assumptions()
    single = best_of(lambda: cm.build(a).summary(), repeat=10)
    print(f"single build, 3 tiers x 72 months, with summary: {single * 1000:8.1f} ms")

    n = 10_000
    rng = np.random.default_rng(0)
    variants = {
        "revenue.price_per_gpu_hour": rng.uniform(8, 24, n),
        "operations.utilization": rng.uniform(0.4, 0.9, n),
        "power.price_per_kwh": rng.uniform(0.4, 1.0, n),
    }
    vec = best_of(lambda: cm.run_variants(a, variants), repeat=3)
    print(f"{n:,} variants x 3 tiers via the scenario axis:  {vec * 1000:8.1f} ms")

    sample = 50

    def loop() -> None:
        for i in range(sample):
            over = {k: float(v[i]) for k, v in variants.items()}
            cm.build(cm.with_overrides(a, over))

    looped = best_of(loop, repeat=1) / sample * n
    print(f"{n:,} single builds in a loop (from {sample}):     {looped * 1000:8.1f} ms")
    print(f"ratio loop / vectorised: {looped / vec:,.0f}x")


if __name__ == "__main__":
    main()
