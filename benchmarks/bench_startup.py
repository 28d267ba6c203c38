"""Start-up time of the command line against what its libraries alone cost.

Each command runs as a fresh process, several times, interleaved with its floors
(so that a busy machine slows both alike); the best (minimum) wall time counts.
Floors, measured in the same run:

- ``typer + rich``: ``python -c "import typer, rich"``, the least a Typer/rich
  command can cost;
- ``numerical``: ``python -c "import numpy, pandas, pydantic, yaml"``;
- ``numerical + typer + rich``: both, the least ``costmodel summary`` can cost;
- ``... + pydantic.BaseModel``: the same with pydantic's model machinery loaded
  (``import pydantic`` alone imports almost nothing until a name is used; any
  schema pays for ``BaseModel``). Shown to explain the gap, not a target.
- ``what summary loads``: numpy, pydantic's ``BaseModel``, yaml, typer and rich,
  without pandas. ``costmodel summary`` prints its table from
  ``Model.summary_rows()`` and never imports pandas (about 250 ms of the
  ``numerical`` floor), so it can come in under the issue's floor; this floor
  shows what the command costs beyond the libraries it does load (schema,
  YAML, build, table). Shown, not a target.

Targets (issue 10): ``costmodel --help`` at most 2x the ``typer + rich`` floor;
``costmodel summary`` at most 1.3x the ``numerical + typer + rich`` floor. Issue 56:
``costmodel build -o DIR`` on the default in a fresh process under 1.5 s of CPU (the
child's user + system time, its workers included; :func:`build_cpu`).

Run: python benchmarks/bench_startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FLOORS = {
    "typer + rich": "import typer, rich",
    "numerical": "import numpy, pandas, pydantic, yaml",
    "numerical + typer + rich": "import numpy, pandas, pydantic, yaml, typer, rich",
    "... + pydantic.BaseModel": (
        "import numpy, pandas, yaml, typer, rich; from pydantic import BaseModel"
    ),
    "what summary loads": "import numpy, yaml, typer, rich; from pydantic import BaseModel",
}
COMMANDS = {
    "costmodel --help": ["--help"],
    "costmodel summary": ["summary"],
}
TARGETS = {  # command -> (floor, at most this many times it)
    "costmodel --help": ("typer + rich", 2.0),
    "costmodel summary": ("numerical + typer + rich", 1.3),
}


def wall(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from start to exit of one process (its output discarded)."""
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - t0


def measure(repeat: int) -> dict[str, float]:
    """Best wall time of every floor and command over ``repeat`` interleaved rounds."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.setdefault("COLUMNS", "100")
    # an installed package has its bytecode compiled (pip does it on install); let the
    # warm-up write it for a source checkout too, or every run compiles the sources
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    runs = {name: [sys.executable, "-c", code] for name, code in FLOORS.items()}
    runs |= {name: [sys.executable, "-m", "costmodel", *args] for name, args in COMMANDS.items()}
    for argv in runs.values():  # warm the file cache (and the .pyc files)
        wall(argv, env)
    best = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, argv in runs.items():
            best[name] = min(best[name], wall(argv, env))
    return best


#: issue 56: ``costmodel build -o DIR`` of the default in a fresh process, CPU seconds
BUILD_TARGET_CPU = 1.5


def build_cpu(repeat: int = 3, args: tuple[str, ...] = ("-m", "costmodel", "build", "-q")) -> float:
    """Least CPU seconds (user + system, ``getrusage`` of the waited-for child, its
    worker processes included) of ``python ARGS -o DIR`` (``costmodel build -o DIR
    -q`` on the bundled default) in a fresh process, over ``repeat`` runs after one
    that warms the file cache and the bytecode. ``args=("-c", "pass", "-o")``: the
    interpreter's own start (its ``site`` and ``.pth`` files), the floor."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    best = float("inf")
    for k in range(repeat + 1):
        with tempfile.TemporaryDirectory() as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            argv = [sys.executable, *args, "-o", out]
            subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best = min(best, cpu) if k else best
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="rounds (default 10)")
    repeat = parser.parse_args().repeat
    best = measure(repeat)
    print(f"best of {repeat}, wall time of a fresh process (ms):")
    for name, seconds in best.items():
        print(f"  {name:<26} {seconds * 1000:7.1f}")
    print("ratios:")
    for command in COMMANDS:
        parts = [f"{best[command] / best[floor]:.2f}x {floor}" for floor in FLOORS]
        print(f"  {command:<18} " + ", ".join(parts))
    for command, (floor, target) in TARGETS.items():
        ratio = best[command] / best[floor]
        verdict = "ok" if ratio <= target else "over"
        print(f"target {command}: {ratio:.2f}x {floor} (at most {target}x): {verdict}")
    cpu, floor = build_cpu(), build_cpu(args=("-c", "pass", "-o"))
    verdict = "ok" if cpu < BUILD_TARGET_CPU else "over"
    print(
        f"target costmodel build -o DIR (fresh process, least of 3): {cpu:.2f} s CPU "
        f"(under {BUILD_TARGET_CPU} s): {verdict}; python -c pass: {floor:.2f} s CPU"
    )


if __name__ == "__main__":
    main()
