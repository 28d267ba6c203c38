"""Placeholder charts for memo tests that read text.

Drawing a memo's charts (matplotlib) is about 90% of rendering it. A test about
text, escaping or sections that renders extra memos may replace every chart
function with a placeholder ``<svg>`` naming the chart; the shared memos, the
reproducibility test and the browser test draw real ones.
"""

from __future__ import annotations

import pytest

from costmodel.report.memo import charts

CHARTS = sorted(name for name in dir(charts) if name.endswith("_chart"))


def use_placeholder_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the test ends, every chart function returns a placeholder."""
    assert CHARTS, "no chart functions found in costmodel.report.memo.charts"
    for name in CHARTS:

        def placeholder(*args, _name=name, **kwargs) -> str:
            return f'<svg class="chart" data-placeholder="{_name}"><text>{_name}</text></svg>'

        monkeypatch.setattr(charts, name, placeholder)
