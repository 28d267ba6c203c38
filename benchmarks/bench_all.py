"""Every speed figure of the project in one run, each next to its reference.

Measured on this machine in this run (CPU seconds count the worker processes of a
Monte Carlo too; wall seconds are shown where a user waits):

- ``build``: analysis (10,000 Monte Carlo draws) + workbook + en and zh memos of
  the bundled default, CPU seconds in one warm process (imports excluded; they
  are the start-up figures), and ``costmodel build`` as a fresh process;
- ``workbook``: the default, and 10 tiers x 20 years;
- ``Monte Carlo``: 100,000 draws of the default, draws and tier-months per
  CPU-second, against a memory-bandwidth bound of this machine (a numpy sum
  streaming an array of one float per tier-month of the same run), and the
  engine alone on the same draws with their timing fixed (one by-year evaluation
  per tier and chunk of 4,000 draws, in this thread): the most any Monte Carlo
  around this engine reaches;
- ``30 tiers / 3 tiers``: CPU of 10,000 draws in one process;
- ``1e6 draws``: a fresh process: wall, CPU, peak resident memory of the process
  and of its largest worker;
- ``LibreOffice``: a persistent headless Calc (Debian's python3-uno) recalculating
  the default workbook after each change of the power price, full
  (``calculateAll``) and automatic, against the engine's CPU per draw;
- ``start-up``: ``costmodel --help`` and ``summary`` against their import floors
  (``bench_startup.py``).

Targets (issue 15, 2-core machine): build < 1.5 s CPU; workbook 10x20 < 2 s CPU;
>= 80 million tier-months per CPU-second; 1e6 draws < 4 s wall and < 800 MB;
30 tiers <= 11x 3 tiers; >= 5,000x a full LibreOffice recalculation; --help <=
2x and summary <= 1.3x their floors.

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
            "build: analysis + workbook + 2 memos",
            f"{cpu:.2f} s CPU",
            "target < 1.5 s",
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
            ref = f"target < {target} s" if target else ""
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
    from costmodel.core.variants import run_variants

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


def montecarlo_rows(draws: int) -> tuple[list[Row], float]:
    """Rows, and the engine's CPU seconds per draw (all tiers)."""
    a = cm.load_assumptions()
    cm.monte_carlo(a, n=2_000, seed=0)
    wall, cpu = timed(lambda: cm.monte_carlo(a, n=draws, seed=1), 3)
    tier_months = draws * len(a.tiers) * 12 * a.horizon_years
    rate = tier_months / cpu
    bound = bandwidth_tier_months_per_s(draws * len(a.tiers) * (12 * a.horizon_years + 1))
    alone = engine_alone_rate(a, draws)
    rows = [
        Row(
            f"Monte Carlo: {draws:,} draws of the default",
            f"{wall:.2f} s wall, {cpu:.2f} s CPU",
            "",
        ),
        Row("  draws per CPU-second", f"{draws / cpu:,.0f}", ""),
        Row(
            "  tier-months per CPU-second",
            f"{rate / 1e6:,.1f} million",
            f"target >= 80 million; memory-bandwidth bound {bound / 1e6:,.0f} million "
            f"({rate / bound:.1%} of it)",
            verdict(rate >= 80e6),
        ),
        Row(
            "  the engine alone (timing fixed, 4,000 per call)",
            f"{alone / 1e6:,.1f} million",
            "tier-months per CPU-second without sorting, gathering or workers: "
            "the most a Monte Carlo around this engine reaches",
        ),
    ]
    return rows, cpu / draws


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
            "target <= 11x",
            verdict(ratio <= 11),
        ),
    ]


def million_rows() -> list[Row]:
    code = (
        "import json, os, resource, sys, time; sys.path.insert(0, sys.argv[1]);"
        "import tempfile; from pathlib import Path; import costmodel as cm;"
        "from models import load;"
        "from clock import peak_mb;"
        "a = load('default', Path(tempfile.mkdtemp())); cm.monte_carlo(a, n=2000, seed=0);"
        "before = peak_mb();"
        "t = os.times(); w = time.perf_counter(); cm.monte_carlo(a, n=1_000_000, seed=1);"
        "w = time.perf_counter() - w; u = os.times();"
        "cpu = sum(u[:4]) - sum(t[:4]);"
        "print(json.dumps({'wall': w, 'cpu': cpu, 'before': before, 'peak': peak_mb(),"
        " 'worker': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(HERE)], capture_output=True, text=True, check=True
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    peak = max(r["peak"], r["worker"])
    return [
        Row(
            "1e6 draws of the default (fresh process)",
            f"{r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU",
            "target < 4 s wall",
            verdict(r["wall"] < 4),
        ),
        Row(
            "  peak resident memory",
            f"{r['peak']:,.0f} MB process, {r['worker']:,.0f} MB largest worker",
            f"target < 800 MB; {r['before']:,.0f} MB before the draws",
            verdict(peak < 800),
        ),
    ]


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
            f"engine {cpu_per_draw * 1e6:,.1f} us CPU per draw: {ratio:,.0f}x (target >= 5,000x)",
            verdict(ratio >= 5000),
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
    parser.add_argument("--quick", action="store_true", help="fewer draws and repeats")
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=["build", "workbook", "montecarlo", "scaling", "million", "libreoffice", "startup"],
    )
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    rows: list[Row] = []
    cpu_per_draw = float("nan")
    steps: dict[str, Callable[[], list[Row]]] = {
        "build": lambda: build_rows(repeat),
        "workbook": lambda: workbook_rows(repeat),
        "scaling": lambda: scaling_rows(2_000 if args.quick else 10_000),
        "million": million_rows,
        "startup": lambda: startup_rows(3 if args.quick else 10),
    }
    # the million draws first: a process started from this one reports at least this
    # one's peak resident memory as its own (ru_maxrss survives fork and exec), and
    # the workbooks below make this process large; the rows print in the usual order
    million = steps["million"]() if "million" not in args.skip else []
    for name in ("build", "workbook"):
        if name not in args.skip:
            rows += steps[name]()
    if "montecarlo" not in args.skip or "libreoffice" not in args.skip:
        mc, cpu_per_draw = montecarlo_rows(20_000 if args.quick else 100_000)
        rows += mc if "montecarlo" not in args.skip else []
    if "scaling" not in args.skip:
        rows += steps["scaling"]()
    rows += million
    if "libreoffice" not in args.skip:
        rows += libreoffice_rows(cpu_per_draw)
    if "startup" not in args.skip:
        rows += steps["startup"]()
    width = max(len(r.figure) for r in rows)
    vwidth = max(len(r.value) for r in rows)
    print(f"costmodel benchmarks, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for r in rows:
        print(f"{r.figure:<{width}}  {r.value:<{vwidth}}  {r.verdict:<6}  {r.reference}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(this process peaked at {peak:,.0f} MB)")


if __name__ == "__main__":
    main()
