"""Print reference values of spreadsheet functions computed by LibreOffice Calc.

The values quoted in tests/test_finance.py come from this script: it writes the
formulas into a workbook, has LibreOffice recalculate it headless, and prints
each formula with its result. Run: ``python tests/reference/spreadsheet_refs.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import openpyxl
import xlsxwriter

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.support.libreoffice import recalculate  # noqa: E402

FORMULAS = [
    "=SLN(2400,300,10)",
    *[f"=SYD(2400,300,10,{k})" for k in range(1, 11)],
    *[f"=VDB(2400,300,10,{k - 1},{k})" for k in range(1, 11)],
    *[f"=VDB(1000000,50000,5,{k - 1},{k})" for k in range(1, 6)],
    *[f"=VDB(1000000,0,5,{k - 1},{k})" for k in range(1, 6)],
    *[f"=SYD(1000000,50000,5,{k})" for k in range(1, 6)],
    "=SYD(30000,7500,10,1)",
    "=IRR({-70000,12000,15000,18000,21000,26000})",
    "=IRR({-5000,800,1200,1500,1800,900,700})",
]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "refs.xlsx"
        wb = xlsxwriter.Workbook(str(src))
        ws = wb.add_worksheet()
        for i, formula in enumerate(FORMULAS):
            ws.write_formula(i, 0, formula)
        wb.close()
        out = recalculate(src, Path(tmp) / "out")
        sheet = openpyxl.load_workbook(out, data_only=True).active
        for i, formula in enumerate(FORMULAS):
            print(f"{formula:45s} {sheet.cell(i + 1, 1).value!r}")


if __name__ == "__main__":
    main()
