"""Shared fixtures."""

from __future__ import annotations

import os
import shutil

import pytest


def require_tool(name: str, package: str) -> str:
    """Path of an external program; skip (outside CI) or fail (in CI) if absent."""
    exe = shutil.which(name)
    if exe:
        return exe
    message = f"{name} not installed (Debian package {package}); .ci/run installs it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def soffice() -> str:
    return require_tool("soffice", "libreoffice-calc-nogui")


@pytest.fixture(scope="session")
def ssconvert() -> str:
    return require_tool("ssconvert", "gnumeric")


@pytest.fixture(scope="session")
def default_workbook(tmp_path_factory):
    """``(model, path)``: the bundled default built once and its workbook written
    once (dated 2026-01-01) for the session; tests must not change either."""
    from datetime import datetime

    import costmodel as cm

    model = cm.build(cm.load_assumptions())
    path = tmp_path_factory.mktemp("default-workbook") / "model.xlsx"
    return model, cm.write_workbook(model, path, created=datetime(2026, 1, 1))


@pytest.fixture(scope="session")
def default_book(default_workbook):
    """The default's workbook as openpyxl reads it (formulas), read once; tests
    only read it."""
    import openpyxl

    return openpyxl.load_workbook(default_workbook[1])


@pytest.fixture(scope="session")
def default_values(default_workbook):
    """The default's workbook with the cached values (``data_only``), read once;
    tests only read it."""
    import openpyxl

    return openpyxl.load_workbook(default_workbook[1], data_only=True)


@pytest.fixture(scope="session")
def recalc(tmp_path_factory):
    """The session's LibreOffice and Gnumeric recalculations
    (:class:`tests.support.recalc.Recalc`); ask for ``soffice`` or ``ssconvert``
    too, so that a missing program skips (or fails in CI)."""
    from tests.support.recalc import Recalc

    return Recalc(tmp_path_factory.mktemp("recalc"))


@pytest.fixture
def engine_calls(monkeypatch) -> list[int]:
    """The variant count of each engine call (``variants.run_tier``) made after the
    fixture is requested, in order."""
    import numpy as np

    import costmodel.core.variants as variants

    calls: list[int] = []
    real = variants.run_tier

    def counting(values, config):
        calls.append(max(int(np.size(v)) for v in values.arrays()))
        return real(values, config)

    monkeypatch.setattr(variants, "run_tier", counting)
    return calls
