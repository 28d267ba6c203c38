"""Recalculations shared by the e2e modules that define a module-scoped
``workbooks`` fixture (name -> (model, path of its written workbook))."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import gnumeric
from tests.support.libreoffice import recalculate_many


@pytest.fixture(scope="module")
def by_libreoffice(soffice, workbooks, tmp_path_factory) -> dict[str, Path]:
    """Each of the module's workbooks recalculated by LibreOffice (one soffice run)."""
    paths = [p for _, p in workbooks.values()]
    return dict(zip(workbooks, recalculate_many(paths, tmp_path_factory.mktemp("lo")), strict=True))


@pytest.fixture(scope="module")
def by_gnumeric(ssconvert, workbooks, tmp_path_factory) -> dict[str, Path]:
    """Each of the module's workbooks recalculated by Gnumeric's ssconvert."""
    d = tmp_path_factory.mktemp("gnumeric")
    return {name: gnumeric.recalculate(p, d) for name, (_, p) in workbooks.items()}
