"""``costmodel import`` of a hostile workbook (issue 55): a bad cell is refused
naming its sheet and cell (exit 2), a zip bomb is refused naming the part and the
limit before anything is unpacked, and the Cover cannot choose which file of the
machine is read, nor have it quoted back."""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.report import xlsx_limits
from costmodel.report.workbook.inputsmap import input_name

app = get_app()


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> tuple[Path, str, str]:
    """The default's workbook, the zip member of its Inputs sheet and the cell of
    power.price_per_kwh."""
    import openpyxl

    path = tmp_path_factory.mktemp("import") / "model.xlsx"
    cm.write_workbook(cm.build(cm.load_assumptions()), path)
    wb = openpyxl.load_workbook(path, read_only=True)
    sheet, ref = next(iter(wb.defined_names[input_name(("power", "price_per_kwh"))].destinations))
    assert sheet == "Inputs"
    with zipfile.ZipFile(path) as z:
        member = xlsx_limits.sheet_parts(z)[sheet]
    return path, member, ref.replace("$", "")


def rewrite(src: Path, dst: Path, edits: dict[str, object]) -> Path:
    """A copy of ``src`` with members replaced: bytes, or a function of the old text."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            edit = edits.get(info.filename)
            if callable(edit):
                data = edit(data.decode()).encode()
            elif edit is not None:
                data = edit
            zout.writestr(info, data)
    return dst


def with_cell(src: Path, dst: Path, member: str, ref: str, cell: str) -> Path:
    def edit(xml: str) -> str:
        out, n = re.subn(rf'<c r="{ref}"[^>]*?(/>|>.*?</c>)', cell, xml, count=1)
        assert n == 1
        return out

    return rewrite(src, dst, {member: edit})


def run(*args: str):
    return CliRunner().invoke(app, ["import", *args], env={"COLUMNS": "300"})


def refused(r, *phrases: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert "Traceback" not in r.output
    text = " ".join(r.stderr.split())
    for p in phrases:
        assert p in text, text
    return text


@pytest.mark.parametrize(
    ("cell", "rule"),
    [
        ("<v>NaN</v>", "not a number a spreadsheet writes"),
        ("<v>INF</v>", "not a number a spreadsheet writes"),
        ("<v>-Infinity</v>", "not a number a spreadsheet writes"),
        ("<v>1e309</v>", "not a number a spreadsheet writes"),
        ("<v>" + "9" * 100_000 + "</v>", "100,000 characters"),
        ('<v t="x">0x1F</v>', "not a number a spreadsheet writes"),
    ],
)
def test_a_number_no_spreadsheet_writes(book, tmp_path, cell, rule):
    src, member, ref = book
    bad = with_cell(src, tmp_path / "bad.xlsx", member, ref, f'<c r="{ref}" s="23">{cell}</c>')
    refused(run(str(bad)), f"bad.xlsx Inputs!{ref}", rule)


@pytest.mark.parametrize(
    ("cell", "rule"),
    [
        ('t="b"><v>7</v>', "not a boolean"),
        ('t="s"><v>99999999</v>', "not an index into the workbook's"),
        ('t="d"><v>99999-13-01</v>', "not a date"),
    ],
)
def test_a_cell_of_another_type(book, tmp_path, cell, rule):
    src, member, ref = book
    bad = with_cell(src, tmp_path / "bad.xlsx", member, ref, f'<c r="{ref}" s="23" {cell}</c>')
    refused(run(str(bad)), f"Inputs!{ref}", rule)


def test_a_date_serial_of_1e12(book, tmp_path):
    """A number formatted as a date is a day count from 1900: 1e12 is no date
    (openpyxl itself fails on it with an OverflowError)."""
    src, member, ref = book
    with zipfile.ZipFile(src) as z:
        styles = z.read("xl/styles.xml").decode()
    n = int(re.search(r'<cellXfs count="(\d+)">', styles).group(1))
    date_xf = (
        '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    )
    styles = styles.replace(f'<cellXfs count="{n}">', f'<cellXfs count="{n + 1}">')
    styles = styles.replace("</cellXfs>", date_xf + "</cellXfs>")
    mid = rewrite(src, tmp_path / "mid.xlsx", {"xl/styles.xml": styles.encode()})
    bad = with_cell(
        mid, tmp_path / "bad.xlsx", member, ref, f'<c r="{ref}" s="{n}"><v>1e12</v></c>'
    )
    with pytest.raises(OverflowError):  # what the reader did with it before
        from openpyxl.utils.datetime import from_excel

        from_excel(1e12)
    refused(run(str(bad)), f"Inputs!{ref}", "a date serial outside 0..2,958,465")
    ok = with_cell(mid, tmp_path / "ok.xlsx", member, ref, f'<c r="{ref}" s="{n}"><v>45000</v></c>')
    assert xlsx_limits.scan_cells(ok)  # a real date serial passes the scan


def test_a_price_of_1e308_is_reported_at_its_cell(book, tmp_path):
    """The review's case named a deleted temporary file instead of the cell."""
    src, member, ref = book
    bad = with_cell(
        src, tmp_path / "bad.xlsx", member, ref, f'<c r="{ref}" s="23"><v>1e308</v></c>'
    )
    text = refused(run(str(bad)), f"bad.xlsx Inputs!{ref}: power.price_per_kwh", "too large")
    assert "overlay.yaml" not in text and "costmodel-import-" not in text


def test_a_zip_bomb_is_refused_naming_the_part_and_the_limit(book, tmp_path):
    """A part that unpacks to more than the limit (here 80 MB of spaces, 80 kB
    packed) is refused from the zip's directory, before anything is unpacked."""
    src, _, _ = book
    with zipfile.ZipFile(src) as z:
        victim = xlsx_limits.sheet_parts(z)["Cover"]
    payload = b"<worksheet>" + b" " * (80 * 1024 * 1024) + b"</worksheet>"
    bomb = rewrite(src, tmp_path / "bomb.xlsx", {victim: payload})
    del payload
    assert bomb.stat().st_size < 3 * 1024 * 1024
    start = time.perf_counter()
    text = refused(run(str(bomb)), f"part {victim} unpacks to 80 MB", "limit of 64 MB per part")
    assert time.perf_counter() - start < 10
    assert "zip bomb" in text


def test_parts_together_above_the_total_limit(book, tmp_path, monkeypatch):
    src, _, _ = book
    monkeypatch.setattr(xlsx_limits, "MAX_TOTAL_BYTES", 2 * 1024 * 1024)
    refused(run(str(src)), "its parts unpack to", "above the limit of 2 MB")


def test_not_a_zip(tmp_path):
    f = tmp_path / "x.xlsx"
    f.write_text("root:x:0:0:root:/root:/bin/bash\n")
    refused(run(str(f)), "x.xlsx", "not an .xlsx file")


@pytest.mark.parametrize(
    "name",
    [
        "/etc/passwd",
        "../../../../../../etc/passwd",
        "bundled ../..: etc/passwd",
        "bundled default: ../../../../../../etc/passwd",
        "bundled /etc: passwd",
        "/proc/self/environ",
        "00-model.yaml",  # beside the workbook: the base is given with --base
    ],
)
def test_the_cover_cannot_choose_a_file_of_this_machine(book, tmp_path, name):
    src, _, _ = book
    (tmp_path / "00-model.yaml").write_text("secret: root:x:0\n")

    def edit(xml: str) -> str:
        return xml.replace("<t>bundled default: 00-model.yaml</t>", f"<t>{escape(name)}</t>", 1)

    bad = rewrite(src, tmp_path / "cover.xlsx", {"xl/sharedStrings.xml": edit})
    text = refused(run(str(bad)), "cover.xlsx Cover", "not a bundled assumption file", "--base")
    assert "root:" not in text and "secret" not in text  # nothing of the file is quoted


def test_the_base_given_with_base_is_used(book, tmp_path):
    from costmodel.inputs.resources import default_assumptions_dir

    src, _, _ = book

    def edit(xml: str) -> str:
        return xml.replace("<t>bundled default: 00-model.yaml</t>", "<t>/etc/passwd</t>", 1)

    bad = rewrite(src, tmp_path / "cover.xlsx", {"xl/sharedStrings.xml": edit})
    r = run(str(bad), "--base", str(default_assumptions_dir()))
    assert r.exit_code == 0, r.output
    assert "no input differs from the base" in r.stderr
