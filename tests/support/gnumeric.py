"""Recalculate spreadsheets with Gnumeric's ``ssconvert --recalc``: a second
spreadsheet engine, independent of LibreOffice (it is not code under test)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def ssconvert() -> str | None:
    return shutil.which("ssconvert")


def recalculate(src: Path, out_dir: Path) -> Path:
    """Open ``src`` in Gnumeric, recalculate every formula, save as xlsx in ``out_dir``."""
    exe = ssconvert()
    if exe is None:
        raise RuntimeError("Gnumeric (ssconvert) is not installed")
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{src.stem}.xlsx"
    cmd = [exe, "--recalc", "--export-type=Gnumeric_Excel:xlsx2", str(src), str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"ssconvert failed ({proc.returncode}): {proc.stdout}\n{proc.stderr}")
    return out
