"""Engine speed on the bundled default and on the default with a stage and a loan
(3 tiers x 72 months).

Prints, for each model: one build with its summary (the summary comes from year
tables), the same build with every schedule read as DataFrames (the monthly
schedules are built on first access), 10,000 variants through the scenario axis,
and the same variants as a loop of single builds (timed on a sample and scaled),
with the ratio; each as wall and CPU seconds of the same run. Targets on a
2-core machine: a single build well under 50 ms after import; 10,000 variants
under 1 s.

Run: python benchmarks/bench_engine.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
from models import load

import costmodel as cm


def best_of(fn, repeat: int = 5) -> tuple[float, float]:
    """(wall, CPU) seconds of the fastest of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - t0, time.process_time() - c0))
    return min(times)


def schedules(m: cm.Model) -> None:
    m.summary()
    for t in m.tiers:
        for read in (m.capex, m.opex, m.depreciation, m.cash_flow, m.annual, m.debt):
            read(t)


def bench(name: str, a: cm.Assumptions) -> None:
    print(f"{name}:")
    wall, cpu = best_of(lambda: cm.build(a).summary(), repeat=10)
    print(f"  single build with summary:         {wall * 1e3:8.1f} ms wall {cpu * 1e3:6.1f} ms CPU")
    wall, cpu = best_of(lambda: schedules(cm.build(a)), repeat=5)
    print(f"  single build, summary + schedules: {wall * 1e3:8.1f} ms wall {cpu * 1e3:6.1f} ms CPU")

    n = 10_000
    rng = np.random.default_rng(0)
    variants = {
        "revenue.price_per_gpu_hour": rng.uniform(8, 24, n),
        "operations.utilization": rng.uniform(0.4, 0.9, n),
        "power.price_per_kwh": rng.uniform(0.4, 1.0, n),
    }

    def vectorised() -> None:
        for r in cm.run_variants(a, variants).values():
            r.metrics["irr"]

    vec_wall, vec_cpu = best_of(vectorised, repeat=3)
    vec = f"{vec_wall * 1e3:8.1f} ms wall {vec_cpu * 1e3:6.1f} ms CPU"
    print(f"  {n:,} variants (scenario axis):   {vec}")
    sample = 50

    def loop() -> None:
        for i in range(sample):
            cm.build(cm.with_overrides(a, {k: float(v[i]) for k, v in variants.items()})).summary()

    loop_wall, loop_cpu = (x / sample * n for x in best_of(loop, repeat=1))
    print(f"  {n:,} single builds in a loop:    {loop_wall:8.1f} s  wall {loop_cpu:6.1f} s  CPU")
    ratio = f"{loop_wall / vec_wall:,.0f}x wall, {loop_cpu / vec_cpu:,.0f}x CPU"
    print(f"  ratio loop / vectorised: {ratio}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("default", "staged-financed"):
            bench(name, load(name, Path(tmp)))


if __name__ == "__main__":
    main()
