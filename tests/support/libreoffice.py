"""Recalculate spreadsheets with LibreOffice Calc, headless, as an independent
reference (it is not code under test).

An isolated user profile sets ``OOXMLRecalcMode`` to 0 ("always recalculate on
load"), so ``soffice --convert-to xlsx`` writes freshly computed values.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
  xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">
  <prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">
  <prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def recalculate(src: Path, out_dir: Path, fmt: str = "xlsx") -> Path:
    """Open ``src`` in LibreOffice (recalculating every formula) and save it as
    ``fmt`` in ``out_dir``; returns the new file."""
    return recalculate_many([src], out_dir, fmt)[0]


def recalculate_many(sources: list[Path], out_dir: Path, fmt: str = "xlsx") -> list[Path]:
    """:func:`recalculate` for several files in one LibreOffice start (names must
    differ)."""
    exe = soffice()
    if exe is None:
        raise RuntimeError("LibreOffice (soffice) is not installed")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lo-profile-") as prof:
        user = Path(prof) / "user"
        user.mkdir(parents=True)
        (user / "registrymodifications.xcu").write_text(XCU, encoding="utf-8")
        cmd = [
            exe,
            f"-env:UserInstallation=file://{prof}",
            "--headless",
            "--norestore",
            "--convert-to",
            fmt,
            "--outdir",
            str(out_dir),
            *map(str, sources),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    results = [out_dir / (src.stem + "." + fmt.split(":")[0]) for src in sources]
    if proc.returncode != 0 or not all(r.exists() for r in results):
        raise RuntimeError(f"LibreOffice failed ({proc.returncode}): {proc.stdout}\n{proc.stderr}")
    return results
