"""Fixtures of the writer tests: the bundled default's model and memos, built
once per session; workbooks written once per session and case."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

import costmodel as cm


@pytest.fixture(scope="session")
def model() -> cm.Model:
    """The bundled default, built once (tests must not change it)."""
    return cm.build(cm.load_assumptions())


#: the memos' date: 2027-01-01 (``SOURCE_DATE_EPOCH``, as a reproducible build sets it)
EPOCH = "1798761600"


@pytest.fixture(scope="session")
def memos(model, tmp_path_factory) -> dict[str, str]:
    """The default's memos as ``write_memo`` writes them (no analysis given), by
    language, with real charts, dated :data:`EPOCH`."""
    d = tmp_path_factory.mktemp("memo")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return {
            lang: cm.write_memo(model, d / f"memo.{lang}.html", lang=lang).read_text("utf-8")
            for lang in ("en", "zh")
        }


@pytest.fixture(scope="session")
def written_workbook(tmp_path_factory, default_workbook) -> Callable[..., tuple[cm.Model, Path]]:
    """``get(case, make)``: the model of ``make()`` (assumptions) and its workbook,
    written (dated 2026-01-01) the first time a case is asked for; tests must not
    change the file. The case ``"default"`` (the bundled default) is the session's
    ``default_workbook``."""
    cache: dict[str, tuple[cm.Model, Path]] = {"default": default_workbook}
    folder = tmp_path_factory.mktemp("workbooks")

    def get(case: str, make: Callable[[], cm.Assumptions]) -> tuple[cm.Model, Path]:
        if case not in cache:
            model = cm.build(make())
            path = folder / f"{len(cache)}.xlsx"
            cache[case] = (model, cm.write_workbook(model, path, created=datetime(2026, 1, 1)))
        return cache[case]

    return get


@pytest.fixture(scope="session")
def analysed_workbook(model, tmp_path_factory) -> tuple[cm.Analysis, Path, openpyxl.Workbook]:
    """``(analysis, path, book)``: the default's analysis (500 draws, seed 3), the
    workbook written with it (dated 2026-01-01) and that workbook as openpyxl reads
    it (formulas); tests only read them."""
    analysis = cm.analyze(model, draws=500, seed=3)
    path = tmp_path_factory.mktemp("analysed") / "model.xlsx"
    cm.write_workbook(model, path, created=datetime(2026, 1, 1), analysis=analysis)
    return analysis, path, openpyxl.load_workbook(path)


@pytest.fixture(scope="session")
def read_workbook(default_workbook, default_book) -> Callable[[Path], openpyxl.Workbook]:
    """``read(path)``: the workbook at ``path`` as openpyxl reads it (formulas),
    read the first time it is asked for (the default's is ``default_book``); tests
    only read it."""
    cache = {default_workbook[1]: default_book}

    def read(path: Path) -> openpyxl.Workbook:
        if path not in cache:
            cache[path] = openpyxl.load_workbook(path)
        return cache[path]

    return read
