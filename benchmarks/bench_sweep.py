"""CPU of the scale sweep against one ``summary`` (issue 28 item 2: 64 points cost
at most 4x the CPU of one ``summary``).

Two measurements, best of ``--repeat`` each, interleaved:

- **processes**: ``costmodel summary`` and ``costmodel sweep --tier T --gpus
  8:4096`` (64 points) as fresh processes; CPU from ``RUSAGE_CHILDREN``
  (user + system), so imports and loading count in both;
- **warm**: in this process, ``cm.build(a).summary()`` against ``cm.sweep(a, T,
  "8:4096")`` from loaded assumptions (imports and loading excluded: the engine
  alone; best of the repeats, so the first call's lazy imports and caches are
  excluded from both).

Run: python benchmarks/bench_sweep.py [--tier thousands] [--repeat 3] [PATHS...]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

from clock import timed

TARGET = 4.0


def child_cpu(cmd: list[str]) -> float:
    """CPU seconds of one fresh process running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--tier", default="thousands")
    ap.add_argument("--gpus", default="8:4096")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    exe = [sys.executable, "-m", "costmodel"]
    summary_cmd = [*exe, "summary", *args.paths]
    sweep_cmd = [*exe, "sweep", *args.paths, "--tier", args.tier, "--gpus", args.gpus, "-q"]
    s_cpu, w_cpu = float("inf"), float("inf")
    for _ in range(args.repeat):
        s_cpu = min(s_cpu, child_cpu(summary_cmd))
        w_cpu = min(w_cpu, child_cpu(sweep_cmd))

    import costmodel as cm

    a = cm.load_assumptions(*[Path(p) for p in args.paths])
    points = len(cm.sweep(a, args.tier, args.gpus))
    _, warm_summary = timed(lambda: cm.build(a).summary(), args.repeat)
    _, warm_sweep = timed(lambda: cm.sweep(a, args.tier, args.gpus), args.repeat)
    ratio = w_cpu / s_cpu
    verdict = "met" if ratio <= TARGET else "MISSED"
    print(f"sweep of {args.tier} over {args.gpus}: {points} points")
    print(f"processes: summary {s_cpu:.2f} s CPU, sweep {w_cpu:.2f} s CPU, "
          f"ratio {ratio:.2f} (target <= {TARGET:g}: {verdict})")  # fmt: skip
    print(f"warm (engine only): summary {warm_summary:.3f} s CPU, sweep {warm_sweep:.3f} s CPU, "
          f"ratio {warm_sweep / warm_summary:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
