"""``costmodel import WORKBOOK.xlsx [-o OVERLAY.yaml] [--base PATH ...]``: an
investor's edits of a costmodel workbook back as a scenario overlay (see
:mod:`costmodel.report.importer`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from costmodel.cli.app import app, err, guard, out, usage_error, write_text


@app.command("import")
def import_cmd(
    workbook: Annotated[Path, typer.Argument(help="A workbook written by costmodel build.")],
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write the overlay to this file (default: stdout)."),
    ] = None,
    base: Annotated[
        list[str] | None,
        typer.Option(
            "--base",
            metavar="PATH",
            help="Assumption files or directories to compare with, merged in order "
            "(repeatable; default: the files the workbook's Cover names).",
        ),
    ] = None,
) -> None:
    """Read the inputs changed in WORKBOOK and write them as an overlay on the base:
    each with its range, unit and source, noted 'changed in WORKBOOK on DATE (was X)'.
    A value outside its rule stops with exit 2 and nothing is written; cells whose
    formula was replaced by a number are listed, not imported."""

    def run() -> None:
        from costmodel.report import output as files
        from costmodel.report.format import counted
        from costmodel.report.importer import import_workbook, overlay_header
        from costmodel.report.overlay_yaml import overlay_text, shown

        if not workbook.is_file():
            usage_error(f"{workbook}: no such file")
        if output is not None and output.is_dir():
            usage_error(f"-o {output}: is a directory; give a file name, e.g. {output}/edits.yaml")
        overlay, report = import_workbook(workbook, base=base or None)
        for w in report.warnings:
            err().print(f"warning: {w}", markup=False, highlight=False, soft_wrap=True)
        text = overlay_text(overlay, overlay_header(report))
        say = err() if output is None else out()
        for c in report.changes:
            was = "linked " + shown(c.was) if c.linked else shown(c.was)
            say.print(
                f"{c.cell}  {c.path}: {was} -> {shown(c.value)}",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        if not report.changes:
            say.print(
                f"{workbook.name}: no input differs from the base", highlight=False, soft_wrap=True
            )
        if output is None:
            write_text(text)
        else:
            files.write_text(output, text)
            wrote = f"wrote {output} ({counted(len(report.changes), 'input')})"
            out().print(wrote, highlight=False, soft_wrap=True)

    guard(run)
