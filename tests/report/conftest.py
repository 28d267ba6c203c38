"""Fixtures of the writer tests: the bundled default's model and memos, built
once per session; ``text_only_charts`` (see tests/support/charts.py)."""

from __future__ import annotations

import pytest

import costmodel as cm
from tests.support.charts import use_placeholder_charts


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


@pytest.fixture
def text_only_charts(monkeypatch) -> None:
    """Charts are placeholders in this test."""
    use_placeholder_charts(monkeypatch)
