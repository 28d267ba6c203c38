"""Every speed figure of the project in one run; first the three targets that
stand, each with its verdict (met / MISSED):

- ``build``: analysis (10,000 Monte Carlo draws) + workbook + en and zh memos of
  the bundled default in one warm process (imports excluded; they are the
  start-up figures): < 1.5 s of CPU;
- ``Monte Carlo wall``: 100,000 draws of the default within 1.5 s wall (the rate
  in tier-months per CPU-second is information: its 15 million target is retired);
- ``1e6 draws``: a million draws of the default in a fresh process, peak resident
  memory of every process (the process and its largest worker) < 800 MB.

CPU seconds count every process: this one and its children that have been waited
for (``os.times``, which is ``getrusage`` of ``RUSAGE_SELF`` and
``RUSAGE_CHILDREN``; worker processes end with their run). Peak memory is
``VmHWM`` of the process and ``ru_maxrss`` of ``RUSAGE_CHILDREN`` (the largest
worker; a forked worker's resident pages include those it shares with the
process, so the two are not added).

Then, as information: ``costmodel build`` as a fresh process; workbooks for the
default and 10 tiers x 20 years (target < 2 s CPU); Monte Carlo draws per
CPU-second against a memory-bandwidth bound of this machine (a numpy sum
streaming one float per tier-month), the engine alone on the same draws
(timing fixed, no sorting or workers) and the floor of draws with their own timing
(:func:`kernel_floor_rate`); a million draws with worker processes and
in one process (wall and CPU: what the workers buy); 30 tiers against 3; a
persistent LibreOffice recalculating the workbook per input change against the
engine's CPU per draw (Debian's python3-uno); the start-up of ``costmodel
--help`` and ``summary`` against their import floors (``bench_startup.py``, its
targets). The machine may be shared: compare figures of one run.

Run: python benchmarks/bench_all.py [--quick] [--skip NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from clock import cpu_now, timed
from models import tiers

import costmodel as cm

HERE = Path(__file__).resolve().parent
UNO_PYTHON = "/usr/bin/python3"


@dataclass
class Row:
    figure: str
    value: str
    reference: str
    verdict: str = ""


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def build_rows(repeat: int) -> list[Row]:
    from costmodel.analysis.bundle import analyze
    from costmodel.analysis.defaults import DEFAULT_DRAWS
    from costmodel.report.memo.render import write_memos
    from costmodel.report.workbook.book import write_workbook

    model = cm.build(cm.load_assumptions())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)

        def build() -> None:
            analysis = analyze(model, draws=DEFAULT_DRAWS, seed=0)
            write_workbook(model, out / "model.xlsx", analysis=analysis)
            memos = {lang: out / f"memo.{lang}.html" for lang in ("en", "zh")}
            write_memos(model, memos, analysis=analysis)  # as costmodel build does

        build()  # warm: imports, fonts, caches
        _, cpu = timed(build, repeat)
        exe = shutil.which("costmodel") or ""
        argv = [exe] if exe else [sys.executable, "-m", "costmodel"]
        cmd = [*argv, "build", "-o", str(out / "cli"), "--quiet"]
        c0 = cpu_now()
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        wall_cli, cpu_cli = time.perf_counter() - t0, cpu_now() - c0
    return [
        Row(
            "build of the default: analysis + workbook + 2 memos",
            f"{cpu:.2f} s CPU",
            "target < 1.5 s CPU",
            verdict(cpu < 1.5),
        ),
        Row(
            "costmodel build (fresh process)",
            f"{cpu_cli:.2f} s CPU, {wall_cli:.2f} s wall",
            "imports included",
        ),
    ]


def workbook_rows(repeat: int) -> list[Row]:
    from costmodel.report.workbook.book import write_workbook

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, a, target in (
            ("workbook: default (3 tiers x 6 years)", cm.load_assumptions(), None),
            ("workbook: 10 tiers x 20 years", tiers(10, 20), 2.0),
        ):
            model = cm.build(a)
            _, cpu = timed(lambda m=model: write_workbook(m, Path(tmp) / "w.xlsx"), repeat)
            ref = f"target < {target} s CPU" if target else ""
            rows.append(Row(name, f"{cpu:.2f} s CPU", ref, verdict(cpu < target) if target else ""))
    return rows


def bandwidth_tier_months_per_s(count: int) -> float:
    """Floats per second a numpy sum streams from an array of ``count`` floats (best of 5)."""
    x = np.ones(count)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        x.sum()
        best = min(best, time.perf_counter() - t0)
    return count / best


def engine_alone_rate(a: cm.Assumptions, draws: int, chunk: int = 4_000) -> float:
    """Tier-months per CPU-second of the engine alone, the most a Monte Carlo around
    it can reach: ``draws`` draws of ``a`` with the timing inputs left at their
    values (so that each chunk is one by-year evaluation per tier), put through
    ``run_variants`` in chunks of ``chunk`` draws, tier by tier, in this thread,
    reading the Monte Carlo's metrics: no sorting by timing, no gathering of rows,
    no worker processes (best of 3)."""
    from costmodel.analysis import montecarlo as mc
    from costmodel.analysis.sensitivity import ranged_inputs
    from costmodel.core.threads import blas_single_thread
    from costmodel.inputs.runs import run_variants

    inputs, _ = ranged_inputs(a, include_normal=True)
    drawn = mc.sample(inputs, draws, seed=1)
    timing = {p for t in a.tiers for p in mc._timing_paths(a, t, drawn)}
    drawn = {p: np.ascontiguousarray(v) for p, v in drawn.items() if p not in timing}

    def run() -> None:
        with blas_single_thread():
            for lo in range(0, draws, chunk):
                part = {p: v[lo : lo + chunk] for p, v in drawn.items()}
                for t in a.tiers:
                    tier = run_variants(a, part, [t])[t]
                    for m in mc.METRICS:
                        np.asarray(tier.metrics[m])

    run()
    _, cpu = timed(run, 3)
    return draws * len(a.tiers) * 12 * a.horizon_years / cpu


def _tier_kernels(
    a: cm.Assumptions,
    tier: str,
    drawn: dict[str, Any],
    best: Callable[[str, Callable[[], Any]], Any],
) -> None:
    """The parts of :func:`kernel_floor_rate` for one tier, each timed by ``best``."""
    from costmodel.core.calendar import year_sums
    from costmodel.core.discount import discount_table
    from costmodel.core.engine import tier_inputs
    from costmodel.core.lines import margin, monthly_line, operating_coefficients, total
    from costmodel.core.result import OPEX_LINES
    from costmodel.core.summary import irr_of
    from costmodel.core.timing import Clock, capex_events, deployments, tier_shapes
    from costmodel.core.vat import vat_cash_lines, vat_net_coefficients
    from costmodel.inputs.params import resolve_tier

    def shape_sums(h: Any, weight: Any = 1.0) -> list[Any]:
        return [year_sums(k * weight) for k in h]

    ti = resolve_tier(a, tier)
    params = ti.params().varied({k: drawn[p] for k, p in ti.paths().items() if p in drawn})
    config = ti.config
    q = tier_inputs(params)
    clock = Clock(config.months)
    deps = deployments(q, config.stages, config.months)
    events = capex_events(q, deps)
    years = config.months // 12
    lines = best("coefficients", lambda: operating_coefficients(q, deps, events, years))
    shapes = best("shapes", lambda: tier_shapes(q, deps, clock))
    disc = discount_table(q["discount_rate"], config.months)
    best("year sums", lambda: shape_sums(shapes))
    best("discounted year sums", lambda: shape_sums(shapes, disc))
    cash = margin(lines["revenue"], total([lines[k] for k in OPEX_LINES]))
    fcf = best("margin month by month", lambda: monthly_line(cash, shapes, clock))
    net = best(
        "VAT net month by month",
        lambda: monthly_line(vat_net_coefficients(q, lines), shapes, clock),
    )
    best("VAT credit pool", lambda: vat_cash_lines(q, config, net))
    best("NPV", lambda: (fcf * disc).sum(axis=1))
    best("IRR", lambda: irr_of(np.ascontiguousarray(fcf)))


def kernel_floor_rate(a: cm.Assumptions, draws: int = 1_000) -> tuple[float, dict[str, float]]:
    """Tier-months per CPU-second of only the passes that any evaluation of draws
    with their own timing makes month by month, however the rest is organised (a
    by-year evaluation with per-draw shapes included): each tier's operating
    coefficients, its monthly shapes (``tier_shapes``), their year sums and
    discounted year sums, the margin and VAT-net lines month by month
    (``monthly_line``), the VAT credit pool (``vat_cash_lines``), the NPV and the
    IRR of the monthly flow (``irr_of``); ``draws`` draws of the default's ranged
    inputs, best of 5 per part. Also the CPU seconds of each part, summed over the
    tiers."""
    from costmodel.analysis import montecarlo as mc
    from costmodel.analysis.sensitivity import ranged_inputs

    inputs, _ = ranged_inputs(a, include_normal=True)
    drawn = mc.sample([x for x in inputs if not x.structural], draws, seed=1)
    parts: dict[str, float] = {}

    def best(name: str, fn: Callable[[], Any]) -> Any:
        out = fn()
        runs = []
        for _ in range(5):  # this thread's CPU clock: os.times ticks in 10 ms
            c0 = time.process_time()
            fn()
            runs.append(time.process_time() - c0)
        parts[name] = parts.get(name, 0.0) + min(runs)
        return out

    for tier in a.tiers:
        _tier_kernels(a, tier, drawn, best)
    tier_months = draws * len(a.tiers) * 12 * a.horizon_years
    return tier_months / sum(parts.values()), parts


#: glibc's allocator with a fixed mmap threshold: a large array freed and made
#: again (as each part of :func:`kernel_floor_rate`, timed in turn) reuses the
#: heap, as the chunks of a Monte Carlo do, instead of faulting in fresh pages
ALLOCATOR_ENV = {"MALLOC_MMAP_THRESHOLD_": "268435456", "MALLOC_TRIM_THRESHOLD_": "536870912"}


def floor_in_fresh_process() -> tuple[float, dict[str, float]]:
    """:func:`kernel_floor_rate` of the default in a fresh process with
    :data:`ALLOCATOR_ENV`."""
    out = subprocess.run(
        [sys.executable, __file__, "--floor"],
        env={**os.environ, **ALLOCATOR_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    rate, parts = json.loads(out.stdout)
    return rate, parts


def montecarlo_rows(draws: int, repeat: int) -> tuple[list[Row], list[Row], float]:
    """Target rows, information rows, and the engine's CPU seconds per draw (all tiers)."""
    a = cm.load_assumptions()
    cm.monte_carlo(a, n=2_000, seed=0)
    wall, cpu = timed(lambda: cm.monte_carlo(a, n=draws, seed=1), repeat)
    tier_months = draws * len(a.tiers) * 12 * a.horizon_years
    rate = tier_months / cpu
    bound = bandwidth_tier_months_per_s(draws * len(a.tiers) * (12 * a.horizon_years + 1))
    alone = engine_alone_rate(a, draws)
    floor, parts = floor_in_fresh_process()
    targets = [
        Row(
            f"Monte Carlo, {draws:,} draws: wall",
            f"{wall:.2f} s wall",
            "target <= 1.5 s",
            verdict(wall <= 1.5),
        ),
    ]
    info = [
        Row(
            f"Monte Carlo, {draws:,} draws: tier-months per CPU-second",
            f"{rate / 1e6:,.1f} million ({cpu:.2f} s CPU)",
            "information: the 15 million target is retired (it needs a compiled second "
            "implementation of the model); benchmarks/bench_study.py sets the waits",
        ),
        Row("Monte Carlo: draws per CPU-second", f"{draws / cpu:,.0f}", ""),
        Row(
            "  memory-bandwidth bound",
            f"{bound / 1e6:,.0f} million",
            f"tier-months per second a numpy sum streams; the run reaches {rate / bound:.1%}",
        ),
        Row(
            "  floor of draws with their own timing",
            f"{floor / 1e6:,.1f} million",
            "tier-months per CPU-second of the passes any evaluation makes month by month: "
            + ", ".join(f"{k} {v / len(a.tiers) * 1e3:.2f}" for k, v in parts.items())
            + " ms per tier and 1,000 draws",
        ),
        Row(
            "  the engine alone (timing fixed, 4,000 per call)",
            f"{alone / 1e6:,.1f} million",
            "tier-months per CPU-second without sorting, gathering or workers",
        ),
    ]
    return targets, info, cpu / draws


def scaling_rows(draws: int) -> list[Row]:
    # one worker for both: the engine's cost per tier, not when worker processes start
    few, many = tiers(3), tiers(30)
    cm.monte_carlo(few, n=500, seed=0, workers=1)
    _, cpu3 = timed(lambda: cm.monte_carlo(few, n=draws, seed=1, workers=1), 2)
    _, cpu30 = timed(lambda: cm.monte_carlo(many, n=draws, seed=1, workers=1), 2)
    ratio = cpu30 / cpu3
    return [
        Row(
            f"30 tiers / 3 tiers ({draws:,} draws)",
            f"{ratio:.1f}x ({cpu30:.2f} / {cpu3:.2f} s CPU)",
            "10x the work",
        ),
    ]


#: a million draws of the default in a fresh process (argv: the benchmarks folder and
#: ``workers``, 0 for the default), printing wall, CPU of every process and peaks
MILLION = """
import json, os, resource, sys, time, tempfile
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from typing import Any
import costmodel as cm
from clock import cpu_now, peak_mb
a = cm.load_assumptions()
cm.monte_carlo(a, n=2000, seed=0)
before = peak_mb()
c, w = cpu_now(), time.perf_counter()
cm.monte_carlo(a, n=1_000_000, seed=1, workers=int(sys.argv[2]) or None)
w, c = time.perf_counter() - w, cpu_now() - c
worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"wall": w, "cpu": c, "before": before, "peak": peak_mb(), "worker": worker}))
"""


def million(workers: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", MILLION, str(HERE), str(workers)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def million_rows() -> tuple[list[Row], list[Row]]:
    """Target rows and information rows of a million draws, with the default
    workers and in one process."""
    pool, one = million(0), million(1)
    peak = max(pool["peak"], pool["worker"])
    workers = f"{pool['worker']:,.0f} MB largest worker" if pool["worker"] else "no worker"
    targets = [
        Row(
            "1e6 draws of the default: peak resident memory",
            f"{peak:,.0f} MB",
            f"target < 800 MB in every process ({pool['peak']:,.0f} MB the process, {workers})",
            verdict(peak < 800),
        ),
    ]
    info = [
        Row(
            "1e6 draws (fresh process)",
            f"{pool['wall']:.2f} s wall, {pool['cpu']:.2f} s CPU",
            f"default workers (up to {os.cpu_count()}); {pool['before']:,.0f} MB before the draws",
        ),
        Row(
            "1e6 draws in one process (workers=1)",
            f"{one['wall']:.2f} s wall, {one['cpu']:.2f} s CPU",
            f"peak {one['peak']:,.0f} MB; the workers save {1 - pool['wall'] / one['wall']:.0%}"
            f" wall for {pool['cpu'] / one['cpu'] - 1:+.0%} CPU",
        ),
    ]
    return targets, info


def libreoffice_rows(cpu_per_draw: float) -> list[Row]:
    soffice = shutil.which("soffice")
    uno = subprocess.run([UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0
    if not soffice or not uno:
        return [
            Row("LibreOffice recalculation", "skipped", "needs soffice and python3-uno (Debian)")
        ]
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "model.xlsx"
        cm.write_workbook(cm.build(cm.load_assumptions()), book)
        pipe = f"costmodel-bench-{os.getpid()}"
        profile = Path(tmp, "profile").as_uri()
        office = subprocess.Popen(
            [
                soffice,
                "--headless",
                "--invisible",
                "--norestore",
                "--nologo",
                f"-env:UserInstallation={profile}",
                f"--accept=pipe,name={pipe};urp;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            out = subprocess.run(
                [UNO_PYTHON, str(HERE / "lo_recalc.py"), str(book), "--pipe", pipe],
                capture_output=True,
                text=True,
                check=True,
                timeout=600,
            )
        finally:
            office.terminate()
            office.wait(30)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    full, auto = r["full_s_per_change"], r["auto_s_per_change"]
    ratio = full / cpu_per_draw
    return [
        Row(
            "LibreOffice full recalculation per change",
            f"{full * 1e3:,.1f} ms",
            f"{ratio:,.0f}x the engine's {cpu_per_draw * 1e6:,.1f} us CPU per draw",
        ),
        Row(
            "LibreOffice automatic recalculation per change",
            f"{auto * 1e3:,.1f} ms",
            f"{auto / cpu_per_draw:,.0f}x the engine",
        ),
    ]


def startup_rows(repeat: int) -> list[Row]:
    import bench_startup

    best = bench_startup.measure(repeat)
    rows = []
    for command, (floor, target) in bench_startup.TARGETS.items():
        ratio = best[command] / best[floor]
        rows.append(
            Row(
                f"start-up: {command}",
                f"{best[command] * 1e3:.0f} ms, {ratio:.2f}x",
                f"floor {floor} {best[floor] * 1e3:.0f} ms; target <= {target}x",
                verdict(ratio <= target),
            )
        )
    loads = "what summary loads"  # without pandas, which summary does not import
    rows.append(
        Row(
            "start-up: costmodel summary (shown)",
            f"{best['costmodel summary'] / best[loads]:.2f}x",
            f"floor {loads} {best[loads] * 1e3:.0f} ms; no target",
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and draws")
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=["build", "workbook", "montecarlo", "scaling", "million", "libreoffice", "startup"],
    )
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:  # the part run by floor_in_fresh_process
        print(json.dumps(kernel_floor_rate(cm.load_assumptions())))
        return
    skip = set(args.skip)
    repeat = 1 if args.quick else 3
    targets: list[Row] = []
    info: list[Row] = []
    cpu_per_draw = float("nan")
    # the million draws first: this process grows with the workbooks below, and a
    # process it starts reports its peak from its own start (VmHWM), its workers'
    # from the fork
    million_targets, million_info = million_rows() if "million" not in skip else ([], [])
    if "build" not in skip:
        build = build_rows(repeat)
        targets += build[:1]
        info += build[1:]
    if not {"montecarlo", "libreoffice"} <= skip:
        mc_targets, mc_info, cpu_per_draw = montecarlo_rows(100_000, repeat)
        if "montecarlo" not in skip:
            targets += mc_targets
            info += mc_info
    targets += million_targets
    if "workbook" not in skip:
        info += workbook_rows(repeat)
    info += million_info
    if "scaling" not in skip:
        info += scaling_rows(2_000 if args.quick else 10_000)
    if "libreoffice" not in skip:
        info += libreoffice_rows(cpu_per_draw)
    if "startup" not in skip:
        info += startup_rows(3 if args.quick else 10)
    rows = targets + info
    width = max(len(r.figure) for r in rows)
    vwidth = max(len(r.value) for r in rows)
    print(f"costmodel benchmarks, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for title, part in (("targets", targets), ("other figures", info)):
        if part:
            print(f"-- {title}")
        for r in part:
            print(f"{r.figure:<{width}}  {r.value:<{vwidth}}  {r.verdict:<6}  {r.reference}")
    missed = [r.figure for r in targets if r.verdict == "MISSED"]
    print(
        f"targets: {len(targets) - len(missed)} of {len(targets)} met"
        + (f"; MISSED: {'; '.join(missed)}" if missed else "")
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(this process peaked at {peak:,.0f} MB)")


if __name__ == "__main__":
    main()
