"""CPU time to write the investor workbook, next to its targets.

Two models: the bundled default (3 tiers x 72 months), and 10 tiers x 20 years
(``models.tiers(10, 20)``: the default's tiers at growing GPU counts). Each is
written with the workbook's own worksheet class (FastWorksheet) and, in the same
run, with RowWorksheet (XlsxWriter's own code for every cell, the same bytes): the
ratio is what the fast class buys on this machine today. CPU seconds are
``time.process_time`` (best of a few runs for the fast class); the model is built
before timing. Targets (issue 15, this 2-core machine): 10 x 20 under 2 s; the
default about 0.5-0.6 s, so that ``costmodel build`` fits in 1.5 s.

Run: python benchmarks/bench_workbook.py [--no-stock]   (--no-stock skips the slow
stock-class reference runs, about 30 s at 10 x 20)
"""

from __future__ import annotations

import sys
import tempfile
import time
import zipfile
from pathlib import Path

from models import tiers

import costmodel as cm
from costmodel.report.workbook import book
from costmodel.report.workbook.sheet import FastWorksheet, RowWorksheet

#: (label, target CPU seconds of the fast class)
TARGETS = {"default": 0.6, "10x20": 2.0}


def cpu_seconds(model: cm.Model, path: Path, worksheet_class: type, repeat: int) -> float:
    """Best CPU time of ``repeat`` writes of ``model`` with ``worksheet_class``."""
    saved = book.WORKSHEET_CLASS
    book.WORKSHEET_CLASS = worksheet_class
    try:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.process_time()
            cm.write_workbook(model, path)
            best = min(best, time.process_time() - t0)
        return best
    finally:
        book.WORKSHEET_CLASS = saved


def formulas_in(path: Path) -> int:
    """Formula cells in the workbook (``<f>`` elements of its sheets)."""
    with zipfile.ZipFile(path) as z:
        return sum(z.read(n).count(b"<f>") for n in z.namelist() if n.startswith("xl/worksheets/"))


def main(stock: bool = True) -> None:
    cases = {
        "default": ("default (3 tiers x 72 months)", cm.load_assumptions(), 5),
        "10x20": ("10 tiers x 20 years (240 months)", tiers(10, 20), 3),
    }
    print("workbook CPU seconds (time.process_time, model built beforehand)")
    head = ("", "formulas", "fast", "target", "", "stock", "stock/fast")
    print("{:34s}{:>10s}{:>7s}{:>8s} {:6s}{:>7s}{:>11s}".format(*head))
    with tempfile.TemporaryDirectory() as tmp:
        for key, (label, assumptions, repeat) in cases.items():
            model = cm.build(assumptions)
            path = Path(tmp) / f"{key}.xlsx"
            fast = cpu_seconds(model, path, FastWorksheet, repeat)
            n = formulas_in(path)
            target = TARGETS[key]
            verdict = "ok" if fast < target else "MISSED"
            ref = cpu_seconds(model, path, RowWorksheet, 1) if stock else float("nan")
            row = (label, f"{n:,d}", f"{fast:.2f}", f"< {target}", verdict, f"{ref:.2f}",
                   f"{ref / fast:.1f}x")  # fmt: skip
            print("{:34s}{:>10s}{:>7s}{:>8s} {:6s}{:>7s}{:>11s}".format(*row))


if __name__ == "__main__":
    main(stock="--no-stock" not in sys.argv[1:])
