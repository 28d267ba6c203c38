"""What the page's buttons download, built from its current state: the overlay of
the inputs moved (the writer of ``costmodel import``,
:mod:`costmodel.report.overlay_yaml`, each change noted ``changed in the what-if
page on DATE (was X)``), the workbook and the memo (the writers of ``costmodel
build``, through a temporary folder for the workbook)."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from costmodel.analysis.bundle import analyze
from costmodel.inputs.loader import fingerprint
from costmodel.inputs.model import build, require_finite
from costmodel.inputs.paths import split_path
from costmodel.inputs.provenance import changed_note
from costmodel.report.memoapi import render_memo
from costmodel.report.overlay_yaml import base_value, cell_value, entry, overlay_text, place, shown
from costmodel.report.web.session import Session

#: the name the notes give the page
PAGE_NAME = "the what-if page"


def scenario_yaml(
    session: Session, overrides: Mapping[str, Any], today: dt.date | None = None
) -> str:
    """The overlay of ``overrides`` (validated first, as every request is) on the
    session's base: each moved input in the mapping form with its range, unit and
    source kept and the note ``changed in the what-if page on DATE (was X)``."""
    session.assumptions(overrides)  # a bad value stops here, with the CLI's message
    base = session.base
    date = (today or dt.date.today()).isoformat()
    overlay: dict[str, Any] = {}
    for path, raw in session.moved(overrides).items():
        keys = tuple(split_path(path))
        was = base_value(base, keys)
        was = getattr(was, "value", was)
        new = cell_value(keys, raw)
        note = changed_note(PAGE_NAME, date, shown(was))
        place(overlay, base, keys, entry(keys, new, base_value(base, keys), note))
    header = [
        f"Inputs moved in the what-if page of costmodel serve on {date}.",
        f"Base: {', '.join(Path(f).name for f in session.files) or '(given in code)'}; "
        f"fingerprint {fingerprint(base)}.",
        "Layer it on the base: costmodel summary BASE... THIS.yaml",
    ]
    return overlay_text(overlay, header)


def workbook_bytes(session: Session, overrides: Mapping[str, Any]) -> bytes:
    """The investor workbook of the current state, as ``costmodel build`` writes it
    (with the deterministic analysis: tornado and break-even)."""
    from costmodel.report.workbook.book import write_workbook

    model = build(session.assumptions(overrides))
    require_finite(model)
    with tempfile.TemporaryDirectory(prefix="costmodel-serve-") as d:
        path = write_workbook(model, Path(d) / "model.xlsx", analysis=analyze(model, draws=0))
        return path.read_bytes()


def memo_html(session: Session, overrides: Mapping[str, Any], lang: str) -> str:
    """The memo of the current state in ``lang``, as ``costmodel build`` writes it
    without Monte Carlo draws."""
    model = build(session.assumptions(overrides))
    require_finite(model)
    return render_memo(model, lang, analysis=analyze(model, draws=0))
