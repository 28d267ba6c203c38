"""Error messages print the input's text as typed (issue 55): rich markup
(``[/x]``, ``[link=...]``) and emoji codes (``:x:``, as in ``root:x:0``) are not
interpreted on any error path, and the printer itself never fails."""

from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from costmodel.cli import get_app

app = get_app()
HOSTILE = "[/x] root:x:0 [link=http://e.example]y[/link] :x:"


def run(args: list[str]):
    return CliRunner().invoke(app, args, env={"COLUMNS": "400"})


def as_typed(r, code: int) -> None:
    assert r.exit_code == code, (r.exit_code, r.stderr)
    assert "Traceback" not in r.stderr and "MarkupError" not in r.stderr
    assert "\u274c" not in r.stderr  # the emoji ':x:' would become
    assert HOSTILE in r.stderr, r.stderr
    assert r.stderr.startswith("error: ")


def test_sweep_gpus(tmp_path):
    """The review's case: '--gpus [/x]:8' crashed the printer with a MarkupError."""
    r = run(["sweep", "--tier", "thousands", "--gpus", f"{HOSTILE}:8"])
    as_typed(r, 2)


def test_sweep_tier():
    as_typed(run(["sweep", "--tier", HOSTILE]), 2)


def test_a_yaml_value(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(f'power:\n  price_per_kwh: "{HOSTILE}"\n', encoding="utf-8")
    as_typed(run(["summary", "default", str(f)]), 2)


def test_a_set_value():
    as_typed(run(["summary", "--set", f'power.price_per_kwh="{HOSTILE}"']), 2)


def test_a_workbook_cell_on_import(tmp_path):
    import openpyxl

    import costmodel as cm
    from costmodel.report.workbook.inputsmap import input_name

    book = tmp_path / "model.xlsx"
    cm.write_workbook(cm.build(cm.load_assumptions()), book)
    wb = openpyxl.load_workbook(book)
    sheet, ref = next(iter(wb.defined_names[input_name(("power", "price_per_kwh"))].destinations))
    wb[sheet][ref.replace("$", "")] = HOSTILE
    wb.save(book)
    as_typed(run(["import", str(book)]), 2)


def test_the_last_resort_printer(monkeypatch):
    """Any other exception (exit 1) is printed as text too."""
    import costmodel.inputs.loader as loader

    def boom(*a, **k):
        raise RuntimeError(HOSTILE)

    monkeypatch.setattr(loader, "load_assumptions", boom)
    r = run(["summary"])
    as_typed(r, 1)
    assert "RuntimeError: " + HOSTILE in r.stderr


def test_an_output_error_naming_the_folder(tmp_path):
    out = tmp_path / HOSTILE.replace("/", "_")
    out.mkdir()
    (out / "sub").mkdir()
    (out / "model.xlsx").mkdir()  # a folder where the workbook goes
    r = run(["build", "--draws", "0", "--quiet", "-o", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.stderr and "\u274c" not in r.stderr
    assert str(out) in r.stderr
    shutil.rmtree(out)


@pytest.mark.parametrize("text", ["[bold]b[/bold]", ":smile:", "[link=x]y"])
def test_a_result_table_prints_a_name_as_typed(text):
    """The same text in a result (the model's name in a table's title)."""
    r = run(["summary", "--set", f'name="{text}"'])
    assert r.exit_code == 0, r.stderr
    assert text in r.stdout
