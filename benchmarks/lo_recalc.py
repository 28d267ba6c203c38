"""Time a persistent LibreOffice Calc recalculating a workbook per input change.

Run by Debian's ``/usr/bin/python3`` (it needs ``python3-uno``), not by the
project's Python: ``bench_all.py`` starts a headless ``soffice`` listening on a
pipe, then runs this script, which connects, opens the workbook once and, for
each of ``--changes`` values of the named input cell, sets it and then

- ``full``: calls ``calculateAll()`` (every formula, as after opening), and
- ``auto``: with automatic calculation on, reads the named output cell (Calc
  recalculates what the change made dirty),

printing one JSON line: seconds per change for each, and the output's values (so
that a recalculation that did nothing would show).

Run: /usr/bin/python3 benchmarks/lo_recalc.py WORKBOOK --pipe NAME
         [--input power_price_per_kwh] [--output npv_thousands] [--changes 10]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import uno  # Debian's python3-uno
from com.sun.star.beans import PropertyValue


def connect(pipe: str, timeout_s: float = 60.0):
    """The desktop of the soffice listening on ``pipe`` (waits until it answers)."""
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.25)
    return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)


def cell(doc, name: str):
    return doc.NamedRanges.getByName(name).getReferredCells().getCellByPosition(0, 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workbook", type=Path)
    parser.add_argument("--pipe", required=True)
    parser.add_argument("--input", default="power_price_per_kwh")
    parser.add_argument("--output", default="npv_thousands")
    parser.add_argument("--changes", type=int, default=10)
    args = parser.parse_args()
    desktop = connect(args.pipe)
    hidden = PropertyValue()
    hidden.Name, hidden.Value = "Hidden", True
    url = uno.systemPathToFileUrl(str(args.workbook.resolve()))
    t0 = time.perf_counter()
    doc = desktop.loadComponentFromURL(url, "_blank", 0, (hidden,))
    opened = time.perf_counter() - t0
    source, target = cell(doc, args.input), cell(doc, args.output)
    base = source.getValue()
    values = [base * (0.8 + 0.4 * k / max(args.changes - 1, 1)) for k in range(args.changes)]
    out: dict[str, object] = {"open_s": opened, "input": args.input, "output": args.output}
    for mode in ("full", "auto"):
        doc.enableAutomaticCalculation(mode == "auto")
        seen = []
        t0 = time.perf_counter()
        for v in values:
            source.setValue(v)
            if mode == "full":
                doc.calculateAll()
            seen.append(target.getValue())
        out[f"{mode}_s_per_change"] = (time.perf_counter() - t0) / len(values)
        out[f"{mode}_outputs"] = seen
    doc.close(True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
