"""Reading a workbook someone else saved, within bounds (``costmodel import``).

A workbook is a zip of XML parts; one that is hostile can unpack to gigabytes (a
"zip bomb"), hold a number no spreadsheet writes (``NaN``, ``INF``, 100,000
digits, a date serial of 1e12) or name any file of this machine as its base. So,
before anything is parsed:

- :func:`check_archive`: at most :data:`MAX_PARTS` parts, each at most
  :data:`MAX_PART_BYTES` unpacked and all together :data:`MAX_TOTAL_BYTES` (the
  sizes the zip declares; Python's reader never unpacks more than a part declares,
  and a part whose bytes differ fails its CRC check);
- :func:`scan_cells`: every cell of every worksheet, read with ``iterparse`` (one
  element at a time, cleared after use): a number must be a finite decimal of at
  most :data:`MAX_NUMBER_CHARS` characters, a date-formatted number a serial of
  the years 1900-9999, a boolean 0 or 1, a shared string an index into the table;
  anything else is refused naming the sheet and cell. It returns the cells that
  hold a typed number or date (where a plug can be).

:func:`bundled_file` resolves a Cover's ``bundled FOLDER: FILE`` inside the
installed package only (no absolute path, no ``..``).
"""

from __future__ import annotations

import math
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from costmodel.inputs.errors import AssumptionError, Problem

#: the most parts (files) a workbook's zip may hold
MAX_PARTS = 10_000
#: the most bytes one part may unpack to (the default's largest sheet, six years of
#: months, is 1.3 MB; a 30-year horizon of many tiers stays far below)
MAX_PART_BYTES = 64 * 1024 * 1024
#: the most bytes all parts together may unpack to
MAX_TOTAL_BYTES = 256 * 1024 * 1024
#: the longest text of a number a cell may hold (a spreadsheet writes 17 significant
#: digits and an exponent: about 24 characters)
MAX_NUMBER_CHARS = 64
#: the last date serial (9999-12-31) and the first (1900-01-01) of the 1900 date system
MAX_DATE_SERIAL = 2_958_465

_RELATIONSHIP = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:,.0f} MB"


def refuse(where: str, value: str, rule: str) -> AssumptionError:
    """An error at ``where`` (``BOOK Sheet!A1``) with the value cut to 40 characters."""
    shown = value if len(value) <= 40 else f"{value[:20]}... ({len(value):,} characters)"
    return AssumptionError(Problem(where, "", shown, rule))


def check_archive(path: Path) -> None:
    """Refuse a workbook whose zip holds too many parts or parts too large unpacked
    (module docstring: the limits), naming the part and the limit."""
    name = path.name
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        rule = f"cannot read the workbook: not an .xlsx file (a zip of XML parts): {exc}"
        raise AssumptionError(Problem(name, "", "", rule)) from None
    if len(infos) > MAX_PARTS:
        rule = f"holds {len(infos):,} parts; a workbook may hold at most {MAX_PARTS:,}"
        raise AssumptionError(Problem(name, "", "", rule))
    total = 0
    for info in infos:
        if info.file_size > MAX_PART_BYTES:
            rule = (
                f"part {info.filename} unpacks to {_mb(info.file_size)}, above the limit of "
                f"{_mb(MAX_PART_BYTES)} per part (a zip bomb, or not a costmodel workbook)"
            )
            raise AssumptionError(Problem(name, "", "", rule))
        total += info.file_size
    if total > MAX_TOTAL_BYTES:
        rule = (
            f"its parts unpack to {_mb(total)} together, above the limit of "
            f"{_mb(MAX_TOTAL_BYTES)} (a zip bomb, or not a costmodel workbook)"
        )
        raise AssumptionError(Problem(name, "", "", rule))


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _parse(z: zipfile.ZipFile, member: str) -> ElementTree.Element:
    with z.open(member) as fh:
        return ElementTree.parse(fh).getroot()


def sheet_parts(z: zipfile.ZipFile) -> dict[str, str]:
    """Worksheet title -> the zip member of its XML, in the workbook's order, as
    ``xl/workbook.xml`` and its relationships name them (a target relative to
    ``xl/`` or absolute from the package root; chart sheets are not worksheets)."""
    rels = {}
    for el in _parse(z, "xl/_rels/workbook.xml.rels").iter(_RELATIONSHIP):
        target = el.get("Target", "")
        if el.get("Type", "").endswith("/worksheet"):
            rels[el.get("Id")] = target.lstrip("/") if target.startswith("/") else "xl/" + target
    out = {}
    for el in _parse(z, "xl/workbook.xml").iter():
        if _local(el.tag) == "sheet":
            rid = next((v for k, v in el.attrib.items() if _local(k) == "id"), None)
            if rid in rels:
                out[el.get("name", "")] = rels[rid]
    return out


def _date_styles(z: zipfile.ZipFile) -> set[int]:
    """The indices of the cell formats (``cellXfs``) whose number format is a date."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format

    if "xl/styles.xml" not in z.namelist():
        return set()
    root = _parse(z, "xl/styles.xml")
    codes: dict[int, str] = dict(BUILTIN_FORMATS)
    xfs: list[int] = []
    for el in root:
        if _local(el.tag) == "numFmts":
            for f in el:
                if (fid := f.get("numFmtId", "")).isdigit():
                    codes[int(fid)] = f.get("formatCode", "")
        elif _local(el.tag) == "cellXfs":
            ids = [x.get("numFmtId", "0") for x in el]
            xfs = [int(i) if i.isdigit() else 0 for i in ids]
    return {i for i, fid in enumerate(xfs) if is_date_format(codes.get(fid, ""))}


def _shared_strings(z: zipfile.ZipFile) -> int:
    """How many strings the shared-string table holds (read one by one)."""
    member = next((n for n in z.namelist() if n.lower() == "xl/sharedstrings.xml"), None)
    if member is None:
        return 0
    n = 0
    with z.open(member) as fh:
        for _, el in ElementTree.iterparse(fh):
            if _local(el.tag) == "si":
                n += 1
                el.clear()
    return n


def _next_cell(before: str, row: int) -> str:
    """The cell after ``before`` on ``row`` (``A{row}`` when ``before`` is on
    another row): where a cell written without its reference is."""
    letters = before.rstrip("0123456789")
    if before[len(letters) :] != str(row):
        return f"A{row}"
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    n, out = n + 1, ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return f"{out}{row}"


def _rows(fh: Any) -> Iterator[tuple[int, str, ElementTree.Element]]:
    """(row number, namespace, ``<row>`` element) of a worksheet part, one at a
    time; each row is cleared once used, so memory stays that of one row."""
    row, ns, tag = 0, None, ""
    for _, el in ElementTree.iterparse(fh, events=("end",)):
        if ns is None:  # the first element's namespace is the sheet's
            ns = el.tag[: el.tag.index("}") + 1] if el.tag.startswith("{") else ""
            tag = f"{ns}row"
        if el.tag == tag:
            r = el.get("r", "")
            row = int(r) if r.isdigit() and len(r) < 8 else row + 1
            yield row, ns, el
            el.clear()


def _iso_date(text: str) -> bool:
    from openpyxl.utils.datetime import from_ISO8601

    if len(text) > MAX_NUMBER_CHARS:
        return False
    try:
        from_ISO8601(text)
    except (ValueError, TypeError, OverflowError, AttributeError):
        return False
    return True


def _check(kind: str, text: str, dated: bool, strings: int) -> str | None:
    """The rule a cell's value text breaks, or None."""
    if kind in ("n", "d") or kind == "":
        if kind == "d":
            return None if _iso_date(text) else "not a date (ISO 8601 text, years 1-9999)"
        try:
            v = float(text) if len(text) <= MAX_NUMBER_CHARS else math.nan
        except ValueError:
            v = math.nan
        if not math.isfinite(v):
            return "not a number a spreadsheet writes (a finite decimal of at most 64 characters)"
        if dated and not 0 <= v < MAX_DATE_SERIAL + 1:
            return f"a date serial outside 0..{MAX_DATE_SERIAL:,} (the years 1900-9999)"
    elif kind == "b" and text.strip() not in ("0", "1"):
        return "not a boolean (0 or 1)"
    elif kind == "s" and not (text.strip().isdigit() and int(text.strip()[:12]) < strings):
        return f"not an index into the workbook's {strings:,} shared strings"
    return None


def scan_cells(path: Path) -> dict[str, set[str]]:
    """Check every cell of every worksheet (module docstring) and return, per
    worksheet title, the cells that hold a typed number or date: a value
    (``<v>``), no formula (``<f>``), of type number (``t`` absent or ``"n"``) or
    date (``"d"``); the cells openpyxl reads as a number or a date that is not a
    formula (a row or cell written without its reference follows the one before).
    Raises :class:`AssumptionError` naming the sheet and cell of a bad value."""
    out: dict[str, set[str]] = {}
    try:
        with zipfile.ZipFile(path) as z:
            dates, strings = _date_styles(z), _shared_strings(z)
            for title, member in sheet_parts(z).items():
                found = out[title] = set()
                ref = ""
                with z.open(member) as fh:
                    for row, ns, r in _rows(fh):
                        ctag, vtag, ftag = f"{ns}c", f"{ns}v", f"{ns}f"
                        for c in r.iter(ctag):
                            ref = c.get("r") or _next_cell(ref, row)
                            v = c.find(vtag)
                            if v is None:
                                continue
                            kind = c.get("t", "n")
                            if v.text:
                                s = c.get("s", "0")
                                dated = s.isdigit() and int(s[:9]) in dates
                                rule = _check(kind, v.text, dated, strings)
                                if rule is not None:
                                    raise refuse(f"{path.name} {title}!{ref}", v.text, rule)
                            if kind in ("n", "d") and c.find(ftag) is None:
                                found.add(ref)
    except AssumptionError:
        raise
    except (zipfile.BadZipFile, ElementTree.ParseError, KeyError, OSError, ValueError) as exc:
        rule = f"cannot read the workbook: {type(exc).__name__}: {str(exc)[:200]}"
        raise AssumptionError(Problem(path.name, "", "", rule)) from None
    return out


def bundled_file(root: Path, name: str) -> Path | None:
    """The file a Cover names as ``bundled FOLDER: FILE`` inside ``root`` (the
    installed assumption folders), or None if the name is not of that form, is
    absolute, climbs with ``..`` or leaves ``root`` through a link."""
    if not name.startswith("bundled ") or ": " not in name:
        return None
    folder, file = name.removeprefix("bundled ").split(": ", 1)
    parts = [*Path(folder).parts, *Path(file).parts]
    if not parts or any(p in ("..", ".", "") or "/" in p or "\\" in p for p in parts):
        return None
    if Path(folder).is_absolute() or Path(file).is_absolute():
        return None
    found = (root / folder / file).resolve()
    if not found.is_relative_to(root.resolve()) or not found.is_file():
        return None
    return found
