"""The cells of an xlsx file read straight from its XML: each sheet's cells as
``{coordinate: (formula or None, value)}``, the value as the file stores it (a
number, a string, a bool, an error text such as ``#DIV/0!``, or None).

The recalculation comparisons read every formula cell of a workbook three times
(formulas and cached values of the original, values of the recalculation);
openpyxl builds a cell object with its style for each, which costs several times
the XML's own parse. Numbers stay numbers here (openpyxl turns date-formatted ones
into datetimes), and an array formula is marked (openpyxl gives an object, not
its text)."""

from __future__ import annotations

import functools
import posixpath
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"

#: the formula text of an array formula (openpyxl reads it as an ArrayFormula)
ARRAY = "{array}"


def _text(el: ET.Element | None) -> str:
    """All text below ``el`` (a shared string may be runs of rich text)."""
    return "" if el is None else "".join(t.text or "" for t in el.iter(f"{NS}t"))


def sheet_paths(z: zipfile.ZipFile) -> list[tuple[str, str]]:
    """``(title, path in the archive)`` of each worksheet, in workbook order."""
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target") for r in rels.iter(f"{PKG}Relationship")}
    book = ET.fromstring(z.read("xl/workbook.xml"))
    out = []
    for s in book.iter(f"{NS}sheet"):
        t = target[s.get(REL)]
        out.append((s.get("name"), t.lstrip("/") if t.startswith("/") else posixpath.join("xl", t)))
    return out


def _value(c: ET.Element, shared: list[str]) -> object:
    kind = c.get("t", "n")
    if kind == "inlineStr":
        return _text(c.find(f"{NS}is"))
    v = c.find(f"{NS}v")
    if v is None or v.text is None:
        return "" if kind == "str" else None
    if kind == "s":
        return shared[int(v.text)]
    if kind == "b":
        return v.text.strip() in ("1", "true")
    if kind in ("str", "e"):
        return v.text
    x = float(v.text)
    return int(x) if x.is_integer() and "." not in v.text and "E" not in v.text.upper() else x


@functools.lru_cache(maxsize=16)
def _cells(path: Path, stamp: tuple[int, int]) -> dict[str, dict[str, tuple[str | None, object]]]:
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        shared = []
        if "xl/sharedStrings.xml" in names:
            root = ET.fromstring(z.read("xl/sharedStrings.xml"))
            shared = [_text(si) for si in root.iter(f"{NS}si")]
        out = {}
        for title, member in sheet_paths(z):
            cells: dict[str, tuple[str | None, object]] = {}
            with z.open(member) as f:
                for _, c in ET.iterparse(f):
                    if c.tag != f"{NS}c":
                        continue
                    fel = c.find(f"{NS}f")
                    formula = None
                    if fel is not None:
                        formula = ARRAY if fel.get("t") == "array" else "=" + (fel.text or "")
                    cells[c.get("r")] = (formula, _value(c, shared))
                    c.clear()
            out[title] = cells
    return out


def cells(path: Path) -> dict[str, dict[str, tuple[str | None, object]]]:
    """Every sheet's cells of the xlsx at ``path`` (read once while it is unchanged,
    of the last 16 read). Callers only read the result."""
    path = Path(path).resolve()
    stat = path.stat()
    return _cells(path, (stat.st_mtime_ns, stat.st_size))


def ref(row: int, col: int) -> str:
    """The A1 reference of 1-based ``row`` and ``col``: ``ref(4, 3) == "C4"``."""
    letters = ""
    while col:
        col, r = divmod(col - 1, 26)
        letters = chr(65 + r) + letters
    return f"{letters}{row}"


def value(path: Path, sheet: str, row: int, col: int) -> object:
    """The stored value of one cell (None where the file has none)."""
    return cells(path)[sheet].get(ref(row, col), (None, None))[1]


def rows_of(path: Path, sheet: str, col: int) -> dict[int, object]:
    """Row number -> stored value of column ``col`` of ``sheet``, for the rows that
    have a cell there."""
    letters = ref(1, col)[:-1]
    out = {}
    for r, (_, v) in cells(path)[sheet].items():
        if r.rstrip("0123456789") == letters:
            out[int(r[len(letters) :])] = v
    return out
