"""The bundled assumptions (and templates) work from an installed wheel, not
only from a source checkout: build the wheel, install it into a fresh virtual
environment and run ``costmodel summary`` from another directory."""

from __future__ import annotations

import json
import os
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
    assert "costmodel/_bundled/assumptions/scenarios/greenfield.yaml" in names
    assert any(n.startswith("costmodel/_bundled/templates/") for n in names)
    assert "costmodel/_bundled/glossary/glossary.yaml" in names  # the memo's zh terms
    for page in ("page.html.j2", "options.html.j2", "serve.js", "serve.css"):  # costmodel serve
        assert f"costmodel/_bundled/templates/serve/{page}" in names


def site_dirs() -> list[str]:
    """The site-packages directories this interpreter imports from: its
    virtualenv's (if it runs in one), the base's, the user's."""
    names = ("site-packages", "dist-packages")
    return [p for p in sys.path if Path(p).name in names and Path(p).is_dir()]


def nested_venv(venv: Path) -> Path:
    """A fresh virtualenv whose dependencies are those of the running interpreter.

    ``python -m venv --system-site-packages`` would see only the *base*
    interpreter's packages: run inside a virtualenv, the nested one would lack
    pandas and the rest. A ``.pth`` file adds this interpreter's site
    directories after the nested one's own, so the wheel installed there wins
    over any costmodel they hold (an editable install included)."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    own = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    lines = [f"import site; site.addsitedir({d!r})" for d in site_dirs()]
    (Path(own) / "zz_outer_site.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return py


def test_installed_wheel_runs_from_elsewhere(wheel, tmp_path):
    venv = tmp_path / "venv"
    py = nested_venv(venv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the wheel, not a checkout
    subprocess.run(
        [str(py), "-m", "pip", "install", "--no-deps", "--force-reinstall", "-q", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(py), "-c", "import costmodel.inputs.resources as r; print(r.default_assumptions_dir())"],
        cwd=elsewhere, env=env, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    assert str(venv) in where and "_bundled" in where
    result = subprocess.run(
        [str(venv / "bin" / "costmodel"), "summary", "--format", "json"],
        cwd=elsewhere, env=env, check=True, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    data = json.loads(result.stdout)
    s = cm.build(cm.load_assumptions()).summary()
    assert list(data) == list(s.index)
    for tier in s.index:
        # the JSON carries the currency to 3 decimals (0.0005 in 2e7 is 2.5e-11)
        assert data[tier]["npv"] == pytest.approx(s.loc[tier, "npv"], rel=1e-9)
