"""The waits of issue 56, as ratios measured in one run (methodology §34;
docs/performance.md):

- **Monte Carlo cost per tier-month** in units of one elementwise float64 pass:
  ``n`` draws of the default (200,000; every process's CPU) per tier-month, divided
  by the time per element of ``np.multiply`` and ``np.add`` over 4-million-element
  arrays measured in the same run (target: at most 220 passes);
- **the study against one Monte Carlo call**: the study of 4 sites (:data:`SITES`,
  layered on the default) x 16 sizes x ``draws`` draws of the hundreds tier against
  the same number of tier-evaluations in one Monte Carlo call of that tier (feasible
  cells x draws draws), CPU of every process (target: at most 1.2x);
- **common random numbers**: the rank correlation of the NPV draws of neighbouring
  cells of that study that differ only in GPU count (one site, one design), the
  lowest of them (target: above 0.9);
- **past one machine**: a two-worker ``distributed.LocalCluster`` against one
  process on a small study, bit for bit (the ``dask`` extra; skipped without it);
- **the build**: ``costmodel build -o DIR`` on the default in a fresh process, CPU
  seconds (target: under 1.5 s; :func:`bench_startup.build_cpu`);
- **20-year against 10-year horizon**: the default's Monte Carlo CPU at
  ``horizon_years`` 20 against 10 (target: at most 2.2x);
- **a million draws**: peak resident memory of a fresh process (and of its
  workers) running a million draws of the default (target: under 300 MB).

Run: python benchmarks/bench_study.py [--quick] [--skip-million] [--skip-dask] [--skip-build]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml
from bench_startup import BUILD_TARGET_CPU, build_cpu
from clock import cpu_now

import costmodel as cm
from costmodel.analysis.study import StudyResult, study
from costmodel.core.units import scale_class
from costmodel.inputs.resources import default_assumptions_dir

PASS_ELEMENTS = 4_000_000
#: issue 56: the Monte Carlo's CPU per tier-month, in float64 array passes, at most
PASSES_TARGET = 220


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


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


def engine_alone(a: cm.Assumptions, n: int, per_element: float) -> tuple[float, float]:
    """(passes per tier-month, CPU seconds) of the engine alone on ``n`` draws of
    ``a`` (the reference a Monte Carlo is read against): the draws of the run's
    blocks made first, then put through ``run_variants`` chunk by chunk as the
    blocks do (the same chunks, sorted by timing), tier by tier, in this process,
    reading the Monte Carlo's metrics; no drawing, no worker processes, no
    gathering of results (best of 2)."""
    from costmodel.analysis.blocks import METRICS, Case, chunks
    from costmodel.analysis.draws import block_draws, blocks
    from costmodel.analysis.sensitivity import ranged_inputs
    from costmodel.core.threads import blas_single_thread
    from costmodel.inputs.runs import run_variants

    ranged, _ = ranged_inputs(a, include_normal=True)
    inputs = [x for x in ranged if not x.structural]
    case = Case.of(a, list(a.tiers), inputs, 1, n)
    paths = [x.path for x in inputs]
    work = []
    for b, lo, hi in blocks(n):
        columns = block_draws(case.inputs, case.seed, b, hi - lo, case.pairs)
        for group, rows in chunks(case, columns):
            for t in group:
                read = [k for k, x in enumerate(inputs) if t in x.tiers]
                work.append((t, {paths[k]: np.ascontiguousarray(columns[k, rows]) for k in read}))

    def run() -> None:
        with blas_single_thread():
            for t, variants in work:
                metrics = run_variants(a, variants, [t])[t].metrics
                for m in METRICS:
                    np.asarray(metrics[m])

    run()
    cpu = min(cpu_of(run) for _ in range(2))
    return cpu / tier_months(a, n) / per_element, cpu


#: four sites for the study's ratio, layered on the default (illustrative figures: the
#: electricity price, its range and the rent are what differ)
SITES = {
    f"site{k}": {
        "label": f"Site {k}",
        "power": {"price_per_kwh": {"value": price, "low": price * 0.85, "high": price * 1.2,
                                    "unit": "CNY/kWh", "source": "illustrative"}},
        "colocation_per_kw_month": {
            "air": {"value": rent, "unit": "CNY/kW-month", "source": "illustrative"},
            "cold_plate": {"value": rent * 1.15, "unit": "CNY/kW-month", "source": "illustrative"},
        },
    }
    for k, (price, rent) in enumerate(((0.72, 800), (0.55, 650), (0.45, 560), (0.38, 500)), 1)
}  # fmt: skip


def with_sites(folder: Path) -> cm.Assumptions:
    """The default with the four :data:`SITES`."""
    path = folder / "sites.yaml"
    path.write_text(yaml.safe_dump({"schema_version": 3, "sites": SITES}), encoding="utf-8")
    return cm.load_assumptions(default_assumptions_dir(), path)


def study_ratio(a: cm.Assumptions, draws: int) -> tuple[float, float, StudyResult]:
    """(study CPU, one Monte Carlo call's CPU, the study) for the hundreds tier of ``a``
    at its four sites x 16 sizes (every fourth count of the sweep's 64:4096)."""
    sites = list(a.sites)[:4]
    gpus = cm.sweep(a, "hundreds", "64:4096")["gpus"].tolist()[::4][:16]
    kept: list[StudyResult] = []
    res_cpu = cpu_of(
        lambda: kept.append(study(a, "hundreds", sites, gpus, n=draws, seed=1, keep_draws=True))
    )
    res = kept[0]
    cells = int(res.cells["feasible"].sum())
    mc_cpu = cpu_of(lambda: cm.monte_carlo(a, n=cells * draws, seed=1, tiers=["hundreds"]))
    return res_cpu, mc_cpu, res


def ranks(v: np.ndarray) -> np.ndarray:
    out = np.empty(len(v))
    out[np.argsort(v, kind="stable")] = np.arange(len(v))
    return out


def rank_correlations(res: StudyResult) -> list[tuple[str, int, int, float]]:
    """(site, G, G', Spearman rho) of the NPV draws of each pair of neighbouring
    cells of one site and one scale class (the same design: they differ only in
    GPU count)."""
    out = []
    for site in res.sites:
        counts = [g for g in res.gpus if (site, g) in res.draws]
        for g, h in zip(counts[:-1], counts[1:], strict=True):
            if scale_class(g) == scale_class(h):
                a, b = ranks(res.draws[(site, g)]), ranks(res.draws[(site, h)])
                out.append((site, g, h, float(np.corrcoef(a, b)[0, 1])))
    return out


def dask_identical(a: cm.Assumptions) -> str:
    """Whether a two-worker ``distributed.LocalCluster`` gives the one-process
    numbers of a small study (3 sizes x 12,000 draws: two blocks per cell), bit for
    bit."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        return "skipped (no distributed: pip install costmodel[dask])"
    kw = dict(gpus=[128, 512, 2048], n=12_000, seed=3, keep_draws=True)
    here = study(a, "hundreds", workers=1, **kw)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:  # fmt: skip
        there = study(a, "hundreds", client=client, **kw)
    same = here.cells.equals(there.cells) and all(
        np.array_equal(here.draws[k], there.draws[k]) for k in here.draws
    )
    return "identical" if same else "DIFFERENT"


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
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--skip-build", action="store_true")
    args = ap.parse_args()
    a = cm.load_assumptions()
    per_element = pass_seconds_per_element()
    n = 40_000 if args.quick else 200_000
    p, cpu = passes(a, n, per_element)
    m_alone = n // 5
    p_alone, cpu_alone = engine_alone(a, m_alone, per_element)
    print(f"one float64 pass: {per_element * 1e9:.3f} ns per element (4 million elements)")
    print(
        f"Monte Carlo, {n:,} draws of the default: {cpu:.2f} s CPU, "
        f"{tier_months(a, n) / cpu / 1e6:.2f} million tier-months per CPU-second, "
        f"{p:.0f} passes per tier-month (target <= {PASSES_TARGET}): {verdict(p <= PASSES_TARGET)}"
    )
    print(
        f"  reference, the engine alone on {m_alone:,} draws (the same chunks, one process): "
        f"{cpu_alone:.2f} s CPU, {tier_months(a, m_alone) / cpu_alone / 1e6:.2f} million "
        f"tier-months per CPU-second, {p_alone:.0f} passes per tier-month"
    )
    y10 = cm.with_overrides(a, {"horizon_years": 10})
    y20 = cm.with_overrides(a, {"horizon_years": 20})
    m = 10_000 if args.quick else 40_000
    c10 = cpu_of(lambda: cm.monte_carlo(y10, n=m, seed=1, workers=1))
    c20 = cpu_of(lambda: cm.monte_carlo(y20, n=m, seed=1, workers=1))
    print(
        f"horizon 20 vs 10 years ({m:,} draws, one process): {c20:.2f} / {c10:.2f} s CPU "
        f"= {c20 / c10:.2f}x (target <= 2.2x): {verdict(c20 / c10 <= 2.2)}"
    )
    draws = 1_000 if args.quick else 10_000
    tmp = tempfile.TemporaryDirectory()  # the overlay stays while its assumptions live
    sited = with_sites(Path(tmp.name))
    s_cpu, mc_cpu, res = study_ratio(sited, draws)
    cells = int(res.cells["feasible"].sum())
    print(
        f"study of {len(res.sites)} sites x {len(res.gpus)} sizes ({cells} feasible cells) x "
        f"{draws:,} draws (hundreds): {s_cpu:.2f} s CPU against {mc_cpu:.2f} s for the same "
        f"{cells * draws:,} tier-evaluations in one Monte Carlo call = {s_cpu / mc_cpu:.2f}x "
        f"(target <= 1.2x): {verdict(s_cpu / mc_cpu <= 1.2)}"
    )
    rhos = rank_correlations(res)
    low = min(rhos, key=lambda r: r[3])
    print(
        f"common random numbers: rank correlation of NPV draws between {len(rhos)} pairs of "
        f"neighbouring cells (same site and design): lowest {low[3]:.3f} ({low[0]}, "
        f"{low[1]:,} vs {low[2]:,} GPUs) (target > 0.9): {verdict(low[3] > 0.9)}"
    )
    if not args.skip_dask:
        print(f"LocalCluster of 2 workers against one process: {dask_identical(a)}")
    if not args.skip_build:
        cpu, floor = build_cpu(), build_cpu(args=("-c", "pass", "-o"))
        print(
            f"costmodel build -o DIR on the default (fresh process, least of 3): {cpu:.2f} s "
            f"CPU (target < {BUILD_TARGET_CPU} s): {verdict(cpu < BUILD_TARGET_CPU)}; "
            f"python -c pass: {floor:.2f} s CPU"
        )
    if not args.skip_million:
        r = million()
        print(
            f"1,000,000 draws (fresh process): {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU; "
            f"peak {r['peak']:.0f} MB ({r['before']:.0f} MB before the draws), largest worker "
            f"{r['worker']:.0f} MB (target < 300 MB): "
            f"{verdict(max(r['peak'], r['worker']) < 300)}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
