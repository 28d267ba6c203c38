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
