"""Recalculations shared by the e2e modules that define a module-scoped
``workbooks`` fixture (name -> (model, path of its written workbook)), through the
session's ``recalc`` (tests/support/recalc.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def by_libreoffice(soffice, recalc, workbooks) -> dict[str, Path]:
    """Each of the module's workbooks recalculated by LibreOffice (one soffice run)."""
    return dict(zip(workbooks, recalc.libreoffice(p for _, p in workbooks.values()), strict=True))


@pytest.fixture(scope="module")
def by_gnumeric(ssconvert, recalc, workbooks) -> dict[str, Path]:
    """Each of the module's workbooks recalculated by Gnumeric's ssconvert."""
    return dict(zip(workbooks, recalc.gnumeric(p for _, p in workbooks.values()), strict=True))
