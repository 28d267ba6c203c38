"""Generate the figure table of ``docs/assumptions.md`` from the bundled assumption files.

Every numeric leaf of the bundled default is one row (path, value, low, high, unit,
source, note), grouped by the file it is written in. The table sits between two
markers in ``docs/assumptions.md``; the prose around it is kept as written.

Regenerate it with::

    python -m costmodel.inputs.docs            # rewrites docs/assumptions.md in place
    python -m costmodel.inputs.docs --check    # exit 1 when the committed file is stale
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from costmodel.inputs.resources import default_assumptions_dir

BEGIN = "<!-- BEGIN GENERATED: python -m costmodel.inputs.docs -->"
END = "<!-- END GENERATED -->"
COMMAND = "python -m costmodel.inputs.docs"
COLUMNS = ("path", "value", "low", "high", "unit", "source", "note")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def numeric_leaves(node: Any, path: str = "") -> Iterator[dict[str, Any]]:
    """Rows for every numeric leaf under ``node``: a ``{value: ...}`` quantity or a bare number."""
    if isinstance(node, dict):
        if "value" in node and _is_number(node["value"]):
            yield {"path": path, **{k: node.get(k) for k in COLUMNS if k != "path"}}
            return
        for key, value in node.items():
            yield from numeric_leaves(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from numeric_leaves(value, f"{path}[{i}]")
    elif _is_number(node):
        yield {"path": path, "value": node}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = f"{value:.6g}" if isinstance(value, float) else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def render_table(directory: Path | None = None) -> str:
    """The generated part of ``docs/assumptions.md``: one table per file of ``directory``."""
    directory = directory or default_assumptions_dir()
    out = [
        "## Every default figure",
        "",
        f"Generated from `assumptions/default/*.yaml` by `{COMMAND}`; do not edit by hand.",
    ]
    for file in sorted(directory.glob("*.yaml")):
        rows = list(numeric_leaves(yaml.safe_load(file.read_text(encoding="utf-8")) or {}))
        if not rows:
            continue
        out += ["", f"### `{file.name}`", ""]
        out.append("| " + " | ".join(COLUMNS) + " |")
        out.append("|" + "---|" * len(COLUMNS))
        out += ["| " + " | ".join(_cell(row.get(c)) for c in COLUMNS) + " |" for row in rows]
    return "\n".join(out) + "\n"


def splice(document: str, table: str) -> str:
    """``document`` with the text between the markers replaced by ``table``.

    A document without markers gets them (and the table) appended.
    """
    block = f"{BEGIN}\n{table}{END}"
    if BEGIN in document and END in document:
        head, rest = document.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return head + block + tail
    return document.rstrip("\n") + "\n\n" + block + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default="docs/assumptions.md")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    path = Path(args.path)
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    fresh = splice(current, render_table())
    if args.check:
        if fresh != current:
            print(f"{path} is stale: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    if fresh != current:
        path.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
