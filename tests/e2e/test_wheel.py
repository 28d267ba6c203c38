"""The bundled assumptions (and templates) work from an installed wheel, not
only from a source checkout: build the wheel, install it into a fresh virtual
environment and run ``costmodel summary`` from another directory."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import costmodel as cm
from tests.paths import ROOT

pytestmark = pytest.mark.slow  # builds a wheel, creates a virtual environment


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (whl,) = out.glob("costmodel-*.whl")
    return whl


def test_wheel_contains_bundled_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "costmodel/_bundled/assumptions/default/80-tiers.yaml" in names
    assert "costmodel/_bundled/assumptions/scenarios/colocation.yaml" in names
    assert any(n.startswith("costmodel/_bundled/templates/") for n in names)


def test_installed_wheel_runs_from_elsewhere(wheel, tmp_path):
    venv = tmp_path / "venv"
    # system site packages provide the dependencies; the wheel's own costmodel wins
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "--no-deps", "--force-reinstall", "-q", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(py), "-c", "import costmodel.inputs.resources as r; print(r.default_assumptions_dir())"],
        cwd=elsewhere, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    assert str(venv) in where and "_bundled" in where
    result = subprocess.run(
        [str(venv / "bin" / "costmodel"), "summary", "--format", "json"],
        cwd=elsewhere, check=True, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    data = json.loads(result.stdout)
    s = cm.build(cm.load_assumptions()).summary()
    assert list(data) == list(s.index)
    for tier in s.index:
        assert data[tier]["npv"] == pytest.approx(s.loc[tier, "npv"], rel=1e-12)
