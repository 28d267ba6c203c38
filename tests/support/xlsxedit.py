"""Edit cells of an xlsx file in its XML, as a person typing into them would: a
number, a text, a boolean or a formula replaces what the cell held, its format
kept; every other part of the file is copied unchanged.

The fault and live-edit tests type a few values into copies of large workbooks;
openpyxl reads and writes the whole workbook for that (about 1.3 s of CPU for the
default's), this about a tenth of it. A cell is named by a defined name or by
``(sheet title, "C12")``; the cell must exist in the file (XlsxWriter writes every
cell the writer filled or formatted), else :class:`KeyError`.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Mapping
from pathlib import Path
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

from tests.support.xlsxcells import NS, sheet_paths

#: a cell: its defined name, or (sheet title, A1 reference)
Where = str | tuple[str, str]


def _destinations(z: zipfile.ZipFile) -> dict[str, tuple[str, str]]:
    """Defined name -> (sheet title, A1 reference) of its first cell (workbook-level
    names only)."""
    book = ET.fromstring(z.read("xl/workbook.xml"))
    out = {}
    for d in book.iter(f"{NS}definedName"):
        if d.get("localSheetId") is not None or not d.text or "!" not in d.text:
            continue
        sheet, cell = d.text.split(",")[0].rsplit("!", 1)
        if sheet.startswith("'"):
            sheet = sheet[1:-1].replace("''", "'")
        out.setdefault(d.get("name"), (sheet, cell.replace("$", "").split(":")[0]))
    return out


def _cell_xml(coord: str, style: str, value: object) -> str:
    """The ``<c>`` element of ``value`` typed into ``coord`` (format ``style``)."""
    head = f'<c r="{coord}"{style}'
    if value is None:
        return head + "/>"
    if isinstance(value, bool):
        return f'{head} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | float):
        return f"{head}><v>{value!r}</v></c>"
    text = str(value)
    if text.startswith("="):
        return f"{head}><f>{escape(text[1:])}</f></c>"
    return f'{head} t="inlineStr"><is><t xml:space="preserve">{escape(text)}</t></is></c>'


def patched_copy(source: Path, target: Path, changes: Mapping[Where, object]) -> Path:
    """``source`` with each cell of ``changes`` set to its value, saved as ``target``
    (a value starting with ``=`` is a formula, as openpyxl takes it)."""
    with zipfile.ZipFile(source) as z:
        names = _destinations(z)
        member = dict(sheet_paths(z))
        by_member: dict[str, dict[str, object]] = {}
        for where, v in changes.items():
            sheet, coord = names[where] if isinstance(where, str) else where
            by_member.setdefault(member[sheet], {})[coord] = v
        with zipfile.ZipFile(target, "w") as out:
            for info in z.infolist():
                data = z.read(info)
                if info.filename in by_member:
                    data = _patch(data.decode("utf-8"), by_member[info.filename]).encode("utf-8")
                out.writestr(info, data)
    return target


def _patch(xml: str, cells: dict[str, object]) -> str:
    """``xml`` with each cell of ``cells`` replaced, in one pass over the sheet."""
    coords = "|".join(map(re.escape, cells))
    pattern = re.compile(rf'<c r="(?P<r>{coords})"(?P<attrs>[^>]*?)(?:/>|>.*?</c>)', re.S)
    done = set()

    def typed(m: re.Match) -> str:
        done.add(m.group("r"))
        style = re.search(r'\ss="\d+"', m.group("attrs"))
        return _cell_xml(m.group("r"), style.group(0) if style else "", cells[m.group("r")])

    xml = pattern.sub(typed, xml)
    missing = sorted(set(cells) - done)
    if missing:
        raise KeyError(f"no cell {', '.join(missing)} in the sheet's XML")
    return xml
