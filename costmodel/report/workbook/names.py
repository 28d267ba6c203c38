"""Text from assumption files made safe for the places in a workbook where
Excel would read it as something else: defined names and chart text.

- :func:`name_keys`: one defined-name part per tier, unique without regard to
  case (``a-b`` and ``a_b`` differ) and short enough that ``prefix_key`` stays
  within Excel's 255 characters.
- :func:`chart_text`: a chart title or series name that XlsxWriter would take
  for a cell reference (``Big!H800``, ``+cmd|' /C calc'!A0``) kept as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Excel's longest defined name.
MAX_NAME = 255

#: What XlsxWriter reads as a reference in a chart name or title
#: (``xlsxwriter.chart.Chart._process_names``).
_REFERENCE = re.compile(r"^=?[^!]+!\$?[A-Z]+\$?\d+")


def name_keys(names: Iterable[str], prefix_len: int = 40) -> dict[str, str]:
    """A defined-name part per name: letters, digits and ``_`` only, starting with
    a letter, unique ignoring case, at most ``MAX_NAME - prefix_len - 1`` long
    (a later one that collides gets ``_2``, ``_3``...)."""
    limit = MAX_NAME - prefix_len - 1
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        base = re.sub(r"[^A-Za-z0-9_]", "_", name)
        base = base if base[:1].isalpha() else f"t_{base}"
        base = base[:limit]
        key, n = base, 2
        while key.lower() in used:
            suffix = f"_{n}"
            key = base[: limit - len(suffix)] + suffix
            n += 1
        used.add(key.lower())
        out[name] = key
    return out


def chart_text(text: str) -> str:
    """``text`` as a chart title or series name that XlsxWriter writes as text:
    where it would read it as a cell reference, a zero-width space after the
    first ``!`` breaks the reference (the text looks the same)."""
    if _REFERENCE.match(text):
        return text.replace("!", "!\u200b", 1)
    return text
