"""Read one YAML assumption file safely: bounded nesting, alias expansion and
integer literals, text keys without duplicates, numbers read as YAML 1.2 reads
them, and the file and line of every key (so that an error names them)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.paths import join_path

# ----------------------------------------------------------------------------- YAML limits

#: Deepest nesting of mappings and lists a file may have (the default uses 5).
MAX_DEPTH = 50
#: Most nodes a file may expand to, counting every alias at full size (the
#: default has about 2,000): bounds alias bombs to well under a second and a few MB.
MAX_NODES = 100_000
#: Most digits of an integer literal (larger numbers: write them as floats, 1e40).
MAX_INT_DIGITS = 30

_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_KEY_KINDS = {
    "tag:yaml.org,2002:bool": "true/false",
    "tag:yaml.org,2002:null": "null",
    _INT_TAG: "a number",
    _FLOAT_TAG: "a number",
    "tag:yaml.org,2002:timestamp": "a date",
}


class YamlLimit(Exception):
    """A YAML limit broken at ``line`` (1-based) under ``path``."""

    def __init__(self, line: int, path: str, value: str, rule: str):
        super().__init__(rule)
        self.line, self.path, self.value, self.rule = line, path, value, rule


#: Plain numbers that YAML 1.1 (PyYAML) and YAML 1.2 read differently: a leading 0
#: (octal in 1.1, decimal in 1.2), ``0x``/``0b``, and base 60 (``1:30``, a string in 1.2).
_OCTAL = re.compile(r"[-+]?0[0-7_]+")
_PREFIXED = re.compile(r"[-+]?0([xb])[0-9a-fA-F_]+")
_BASE60 = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")


def _yaml11_reading(text: str) -> str | None:
    """What YAML 1.1 reads a plain number ``text`` as, when YAML 1.2 would read it
    otherwise (None: both agree)."""
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").replace("_", "")
    if _OCTAL.fullmatch(text):
        return f"{sign * int(digits, 8)} (octal; YAML 1.2 reads {text} as {sign * int(digits)})"
    if m := _PREFIXED.fullmatch(text):
        base = {"x": (16, "hexadecimal"), "b": (2, "binary")}[m.group(1)]
        return f"{sign * int(digits[2:], base[0])} ({base[1]})"
    if _BASE60.fullmatch(text):
        total = 0.0
        for part in digits.split(":"):
            total = total * 60 + float(part)
        shown = f"{sign * total:g}" if "." in digits else str(sign * int(total))
        return f"{shown} (base 60; YAML 1.2 reads {text} as text)"
    return None


def _check_number_form(n: yaml.ScalarNode, path: str) -> None:
    """Refuse a plain number whose reading depends on the YAML version (methodology
    §2.4): ``010``, ``0x10``, ``0b10``, ``1:30`` (a quoted scalar is text, never a number)."""
    meaning = _yaml11_reading(str(n.value))
    if meaning is not None:
        raise YamlLimit(
            n.start_mark.line + 1,
            path,
            str(n.value),
            f"YAML 1.1 reads this as {meaning}; write the number in plain decimal "
            f'(or quote it, "{n.value}", if it is meant as text)',
        )


#: Reads the event stream for the depth check (libyaml's composer recurses in C,
#: so a file nested 100,000 deep would crash it before any Python check could run).
_EventLoader: Any = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def _check_depth(text: str) -> None:
    """Reject nesting deeper than :data:`MAX_DEPTH` from the event stream (no tree
    is built, so a deep file costs no recursion)."""
    depth = 0
    for event in yaml.parse(text, Loader=_EventLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlLimit(
                    event.start_mark.line + 1,
                    "",
                    "",
                    f"nested more than {MAX_DEPTH} levels deep",
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _check_tree(node: yaml.Node) -> None:
    """Reject an alias graph that expands past :data:`MAX_NODES` or refers to
    itself, integers of more than :data:`MAX_INT_DIGITS` digits, keys that YAML
    reads as something other than text, and duplicate keys."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()

    def size(n: yaml.Node, path: str) -> int:
        if id(n) in sizes:
            return sizes[id(n)]
        if id(n) in open_:
            raise YamlLimit(n.start_mark.line + 1, path, "", "an alias refers to itself")
        open_.add(id(n))
        total = 1
        if isinstance(n, yaml.MappingNode):
            seen: dict[str, int] = {}
            for k, v in n.value:
                line = k.start_mark.line + 1
                if isinstance(k, yaml.ScalarNode) and k.tag == _MERGE_TAG:
                    total += size(v, path)
                    continue
                if not isinstance(k, yaml.ScalarNode) or k.tag != _STR_TAG:
                    shown = k.value if isinstance(k, yaml.ScalarNode) else "a mapping or list"
                    kind = _KEY_KINDS.get(k.tag, "not text")
                    raise YamlLimit(
                        line,
                        join_path(path, shown) if isinstance(shown, str) else path,
                        "",
                        f"YAML reads this key as {kind}, not as a name; quote it "
                        f'("{shown}": ...) if it is meant as a name',
                    )
                key = str(k.value)
                if key in seen:
                    raise YamlLimit(
                        line,
                        join_path(path, key),
                        "",
                        f"duplicate key {key!r} (lines {seen[key]} and {line}); "
                        "each key may appear once in a mapping",
                    )
                seen[key] = line
                total += 1 + size(v, join_path(path, key))
                if total > MAX_NODES:
                    break
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                total += size(item, join_path(path, i))
                if total > MAX_NODES:
                    break
        elif n.tag in (_INT_TAG, _FLOAT_TAG) and isinstance(n, yaml.ScalarNode):
            _check_number_form(n, path)
        if n.tag == _INT_TAG and isinstance(n, yaml.ScalarNode):
            digits = sum(c.isdigit() for c in str(n.value))
            if digits > MAX_INT_DIGITS:
                raise YamlLimit(
                    n.start_mark.line + 1,
                    path,
                    str(n.value)[:20] + "...",
                    f"integer too large ({digits} digits; at most {MAX_INT_DIGITS}); "
                    "write a large number as a float, e.g. 1e40",
                )
        if total > MAX_NODES:
            raise YamlLimit(
                n.start_mark.line + 1,
                path,
                "",
                f"the file expands to more than {MAX_NODES:,} values (aliases counted at "
                "full size); is it an alias bomb?",
            )
        open_.discard(id(n))
        sizes[id(n)] = total
        return total

    size(node, "")


def _node_origins(node: yaml.Node, prefix: str, file: str, out: dict[str, str]) -> None:
    """Record ``file:line`` for every key path below ``node``."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                _node_origins(value_node, prefix, file, out)
                continue
            path = join_path(prefix, key_node.value)
            out.setdefault(path, f"{file}:{key_node.start_mark.line + 1}")
            _node_origins(value_node, path, file, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            path = join_path(prefix, i)
            out.setdefault(path, f"{file}:{item.start_mark.line + 1}")
            _node_origins(item, path, file, out)


#: libyaml's safe loader where PyYAML was built with it, else the pure-Python one;
#: both build the same data and nodes with the same marks.
_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    """The safe loader, also reading ``1e-3`` (exponent, no dot: YAML 1.2) as a number."""


YamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)


def parse_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """Parse ``text`` once: its node tree (which has the line of every key) and
    the data built from that same tree (what ``yaml.safe_load`` returns).

    Bounded: nesting deeper than :data:`MAX_DEPTH`, alias graphs expanding past
    :data:`MAX_NODES`, huge integer literals, non-text keys and duplicate keys
    raise ``YamlLimit`` before any data is built."""
    _check_depth(text)
    loader = YamlLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        _check_tree(node)
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    return node, _unshared(data)


def _unshared(x: Any) -> Any:
    """``x`` with every mapping and list its own object: a YAML alias (``*ndr``)
    builds the anchor's object once and shares it, so an override of one copy would
    change the other (``MAX_NODES`` bounds the expansion)."""
    if isinstance(x, dict):
        return {k: _unshared(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_unshared(v) for v in x]
    return x


def read_file(path: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """Parse one YAML file (safe loader); return its mapping and key origins."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AssumptionError(Problem(name, "", "", f"cannot read file: {exc}")) from exc
    try:
        node, data = parse_yaml(text)
    except YamlLimit as exc:
        raise AssumptionError(
            Problem(f"{name}:{exc.line}", exc.path, exc.value, exc.rule)
        ) from None
    except (ValueError, RecursionError) as exc:  # e.g. an int beyond Python's digit limit
        raise AssumptionError(Problem(name, "", "", f"malformed YAML: {exc}")) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{name}:{mark.line + 1}" if mark is not None else name
        problem = getattr(exc, "problem", None) or str(exc)
        raise AssumptionError(Problem(where, "", "", f"malformed YAML: {problem}")) from exc
    if data is None:
        raise AssumptionError(
            Problem(name, "", "", "file is empty: expected a mapping of sections")
        )
    if not isinstance(data, dict):
        raise AssumptionError(
            Problem(name, "", repr(data)[:60], "the file must be a mapping of sections")
        )
    origins: dict[str, str] = {}
    _node_origins(node, "", name, origins)
    return data, origins
