"""The waits of issue 56, as ratios measured in one run (methodology §34;
docs/performance.md):

- **Monte Carlo cost per tier-month** in units of one elementwise float64 pass:
  ``n`` draws of the default (200,000; every process's CPU) per tier-month, divided
  by the time per element of ``np.multiply`` and ``np.add`` over 4-million-element
  arrays measured in the same run (target: at most 220 passes);
- **the study against one Monte Carlo call**: the study of ``cells`` (site, size)
  cells x ``draws`` draws of the hundreds tier (64 cells: 4 sites x 16 sizes, or,
  without a sites catalogue, one site x 64 sizes) against the same number of
  tier-evaluations in one Monte Carlo call of that tier (cells x draws draws),
  CPU of every process (target: at most 1.2x);
- **20-year against 10-year horizon**: the default's Monte Carlo CPU at
  ``horizon_years`` 20 against 10 (target: at most 2.2x);
- **a million draws**: peak resident memory of a fresh process (and of its
  workers) running a million draws of the default (target: under 300 MB).

Run: python benchmarks/bench_study.py [--quick] [--skip-million]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
from clock import cpu_now

import costmodel as cm
from costmodel.analysis.study import study

PASS_ELEMENTS = 4_000_000


def pass_seconds_per_element(repeat: int = 20) -> float:
    """Seconds per element of one elementwise float64 pass (the best of
    ``np.multiply`` and ``np.add`` into a preallocated output, 4 million elements)."""
    a, b = np.random.default_rng(0).random((2, PASS_ELEMENTS))
    out = np.empty(PASS_ELEMENTS)
    best = float("inf")
    for _ in range(repeat):
        for op in (np.multiply, np.add):
            t0 = time.perf_counter()
            op(a, b, out=out)
            best = min(best, time.perf_counter() - t0)
    return best / PASS_ELEMENTS


def cpu_of(fn) -> float:
    c0 = cpu_now()
    fn()
    return cpu_now() - c0


def tier_months(a: cm.Assumptions, n: int, tiers: int | None = None) -> int:
    return n * (tiers or len(a.tiers)) * 12 * a.horizon_years


def passes(a: cm.Assumptions, n: int, per_element: float) -> tuple[float, float]:
    """(passes per tier-month, CPU seconds) of ``n`` draws of ``a``."""
    cm.monte_carlo(a, n=2_000, seed=0, workers=1)  # warm
    cpu = cpu_of(lambda: cm.monte_carlo(a, n=n, seed=1))
    return cpu / tier_months(a, n) / per_element, cpu


def study_ratio(a: cm.Assumptions, draws: int) -> tuple[float, float, int]:
    """(study CPU, one Monte Carlo call's CPU, cells) for the hundreds tier."""
    sites = list(getattr(a, "sites", None) or {})[:4]
    names, gpus = (sites, "64:4096") if len(sites) == 4 else (None, "64:4096")
    if names:  # 4 sites x 16 sizes: every fourth count of the range
        gpus = cm.sweep(a, "hundreds", gpus)["gpus"].tolist()[::4][:16]
    res_cpu = cpu_of(lambda: study(a, "hundreds", names, gpus, n=draws, seed=1))
    res = study(a, "hundreds", names, gpus, n=min(draws, 100), seed=1)
    cells = len(res.cells)
    mc_cpu = cpu_of(lambda: cm.monte_carlo(a, n=cells * draws, seed=1, tiers=["hundreds"]))
    return res_cpu, mc_cpu, cells


def million() -> dict:
    """A million draws of the default in a fresh process: wall, CPU and peak memory of
    the process and of its largest worker (VmHWM)."""
    code = """
import json, os, time, resource
import costmodel as cm
from clock import cpu_now, peak_mb
a = cm.load_assumptions()
before = peak_mb()
t0, c0 = time.perf_counter(), cpu_now()
cm.monte_carlo(a, n=1_000_000, seed=1)
wall, cpu = time.perf_counter() - t0, cpu_now() - c0
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps(dict(wall=wall, cpu=cpu, peak=peak_mb(), before=before, worker=kids)))
"""
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer draws: a smoke run")
    ap.add_argument("--skip-million", action="store_true")
    args = ap.parse_args()
    a = cm.load_assumptions()
    per_element = pass_seconds_per_element()
    n = 40_000 if args.quick else 200_000
    p, cpu = passes(a, n, per_element)
    print(f"one float64 pass: {per_element * 1e9:.3f} ns per element (4 million elements)")
    print(
        f"Monte Carlo, {n:,} draws of the default: {cpu:.2f} s CPU, "
        f"{tier_months(a, n) / cpu / 1e6:.2f} million tier-months per CPU-second, "
        f"{p:.0f} passes per tier-month (target <= 220)"
    )
    y10 = cm.with_overrides(a, {"horizon_years": 10})
    y20 = cm.with_overrides(a, {"horizon_years": 20})
    m = 10_000 if args.quick else 40_000
    c10 = cpu_of(lambda: cm.monte_carlo(y10, n=m, seed=1, workers=1))
    c20 = cpu_of(lambda: cm.monte_carlo(y20, n=m, seed=1, workers=1))
    print(
        f"horizon 20 vs 10 years ({m:,} draws, one process): {c20:.2f} / {c10:.2f} s CPU "
        f"= {c20 / c10:.2f}x (target <= 2.2x)"
    )
    draws = 1_000 if args.quick else 10_000
    s_cpu, mc_cpu, cells = study_ratio(a, draws)
    print(
        f"study of {cells} cells x {draws:,} draws (hundreds): {s_cpu:.2f} s CPU against "
        f"{mc_cpu:.2f} s for the same {cells * draws:,} tier-evaluations in one Monte Carlo "
        f"call = {s_cpu / mc_cpu:.2f}x (target <= 1.2x)"
    )
    if not args.skip_million:
        r = million()
        print(
            f"1,000,000 draws (fresh process): {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU; "
            f"peak {r['peak']:.0f} MB ({r['before']:.0f} MB before the draws), largest worker "
            f"{r['worker']:.0f} MB (target < 300 MB)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
