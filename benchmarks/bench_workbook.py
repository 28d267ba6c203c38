"""Time to write the investor workbook.

Prints the time for the bundled default (target: under 2 s on a 2-core machine)
and for a 10-tier, 10-year model (tiers made by scaling the default's GPU counts).

Run: python benchmarks/bench_workbook.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import costmodel as cm


def timed(model: cm.Model, path: Path, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        cm.write_workbook(model, path)
        best = min(best, time.perf_counter() - t0)
    return best


def ten_tiers() -> cm.Assumptions:
    a = cm.load_assumptions()
    tiers = {}
    for i in range(10):
        base = list(a.tiers.values())[i % 3]
        tiers[f"option_{i + 1}"] = base.model_copy(update={"gpus": base.gpus * (1 + i // 3)})
    data = a.model_dump(exclude_none=True)
    data["tiers"] = {k: t.model_dump(exclude_none=True) for k, t in tiers.items()}
    data["horizon_years"] = 10
    return cm.Assumptions.model_validate(data)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        default = cm.build(cm.load_assumptions())
        t = timed(default, Path(tmp) / "default.xlsx")
        print(f"default (3 tiers x 72 months):    {t:6.2f} s  (target < 2 s)")
        big = cm.build(ten_tiers())
        t = timed(big, Path(tmp) / "big.xlsx", repeat=1)
        print(f"10 tiers x 120 months:            {t:6.2f} s")


if __name__ == "__main__":
    main()
