"""CPU time to write the investor workbook.

Two models: the bundled default (3 tiers x 72 months), and 10 tiers x 20 years
(``models.tiers(10, 20)``: the default's tiers at growing GPU counts), each with
its number of formula cells. CPU seconds are ``time.process_time``, best of a few
runs; the model is built before timing. Target on this 2-core machine: 10 x 20
under 2 s; the default is part of the build (analysis + workbook + memos), whose
target is 1.5 s (``bench_all.py``).

Run: python benchmarks/bench_workbook.py
"""

from __future__ import annotations

import tempfile
import time
import zipfile
from pathlib import Path

from models import tiers

import costmodel as cm

#: label -> target CPU seconds (None: shown only)
TARGETS = {"default": None, "10x20": 2.0}


def cpu_seconds(model: cm.Model, path: Path, repeat: int) -> float:
    """Best CPU time of ``repeat`` writes of ``model``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        cm.write_workbook(model, path)
        best = min(best, time.process_time() - t0)
    return best


def formulas_in(path: Path) -> int:
    """Formula cells in the workbook (``<f>`` elements of its sheets)."""
    with zipfile.ZipFile(path) as z:
        return sum(z.read(n).count(b"<f>") for n in z.namelist() if n.startswith("xl/worksheets/"))


def main() -> None:
    cases = {
        "default": ("default (3 tiers x 72 months)", cm.load_assumptions(), 5),
        "10x20": ("10 tiers x 20 years (240 months)", tiers(10, 20), 2),
    }
    print("workbook CPU seconds (time.process_time, model built beforehand)")
    print(f"{'':34s}{'formulas':>10s}{'CPU s':>8s}{'target':>9s}")
    with tempfile.TemporaryDirectory() as tmp:
        for key, (label, assumptions, repeat) in cases.items():
            model = cm.build(assumptions)
            path = Path(tmp) / f"{key}.xlsx"
            cpu = cpu_seconds(model, path, repeat)
            target = TARGETS[key]
            shown = f"< {target}" if target else ""
            verdict = "" if target is None else "met" if cpu < target else "MISSED"
            print(f"{label:34s}{formulas_in(path):>10,d}{cpu:>8.2f}{shown:>9s} {verdict}")


if __name__ == "__main__":
    main()
