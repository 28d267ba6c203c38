"""Load assumption files: read YAML safely, deep-merge, apply overrides, validate.

Merging (methodology §2.1): mappings merge key by key, recursively; anything else replaces
what was there. An override ``dotted.path=value`` that targets a value written as
a ``{value: ...}`` mapping replaces only its ``value`` and keeps range and source.

Every leaf remembers the file and line it came from, so that an error names the
file, the line, the dotted path, the value and the rule.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.paths import join_path, key_path, split_path
from costmodel.inputs.resources import EXAMPLE_PREFIX, default_assumptions_dir, example_dir
from costmodel.inputs.rules import check_consistency
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.suggest import DEFAULT_WORD, did_you_mean, overlay_hint
from costmodel.inputs.textpolicy import text_problems

PathArg = str | PathLike[str]


@dataclass
class Source:
    """The merged raw assumptions and where each dotted path came from."""

    data: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # dotted path -> "file:line"
    files: list[str] = field(default_factory=list)

    def where(self, path: str) -> str:
        """File (and line) of ``path`` or of its nearest ancestor that has one; of a
        ``{value: ...}`` mapping, the line of its ``value`` (which an overlay may have
        set while the mapping began in an earlier file)."""
        if f"{path}.value" in self.origin:
            return self.origin[f"{path}.value"]
        key = path
        while key:
            if key in self.origin:
                return self.origin[key]
            cut = max(key.rfind("."), key.rfind("["))
            key = key[:cut] if cut > 0 else ""
        return ", ".join(self.files) or "<no files>"


# ----------------------------------------------------------------------------- reading


def expand_paths(paths: Iterable[PathArg]) -> list[Path]:
    """Files to merge, in order: a directory contributes its ``*.yaml``/``*.yml``
    files in name order; the word ``default`` is the bundled default directory and
    ``example:NAME`` the bundled example model NAME (e.g. ``example:us-neocloud``)."""
    out: list[Path] = []
    for p in paths:
        path = default_assumptions_dir() if str(p) == DEFAULT_WORD else Path(p)
        if str(p).startswith(EXAMPLE_PREFIX):
            try:
                path = example_dir(str(p).removeprefix(EXAMPLE_PREFIX))
            except FileNotFoundError as exc:
                raise AssumptionError(Problem(str(p), "", "", str(exc))) from None
        if path.is_dir():
            files = sorted([*path.glob("*.yaml"), *path.glob("*.yml")], key=lambda f: f.name)
            if not files:
                raise AssumptionError(Problem(str(path), "", "", "directory has no *.yaml files"))
            out.extend(files)
        elif path.is_file():
            out.append(path)
        else:
            raise AssumptionError(Problem(str(path), "", "", "no such file or directory"))
    return out


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


class _Limit(Exception):
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
        raise _Limit(
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
                raise _Limit(
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
            raise _Limit(n.start_mark.line + 1, path, "", "an alias refers to itself")
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
                    raise _Limit(
                        line,
                        join_path(path, shown) if isinstance(shown, str) else path,
                        "",
                        f"YAML reads this key as {kind}, not as a name; quote it "
                        f'("{shown}": ...) if it is meant as a name',
                    )
                key = str(k.value)
                if key in seen:
                    raise _Limit(
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
                raise _Limit(
                    n.start_mark.line + 1,
                    path,
                    str(n.value)[:20] + "...",
                    f"integer too large ({digits} digits; at most {MAX_INT_DIGITS}); "
                    "write a large number as a float, e.g. 1e40",
                )
        if total > MAX_NODES:
            raise _Limit(
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
    raise ``_Limit`` before any data is built."""
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
    except _Limit as exc:
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


# ----------------------------------------------------------------------------- merging


def _drop_under(origin: dict[str, str], path: str) -> None:
    for key in [
        k for k in origin if k == path or k.startswith(path + ".") or k.startswith(path + "[")
    ]:
        del origin[key]


def merge_into(
    base: dict[str, Any],
    new: Mapping[str, Any],
    origin: dict[str, str],
    new_origin: Mapping[str, str],
    prefix: str = "",
) -> None:
    """Deep-merge ``new`` into ``base`` in place: mappings merge key by key,
    anything else replaces; ``null`` in place of a mapping removes it (a tier)."""
    for key, value in new.items():
        path = join_path(prefix, key)
        if value is None and isinstance(base.get(key), dict):
            del base[key]
            _drop_under(origin, path)
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            if path in new_origin:
                origin.setdefault(path, new_origin[path])
            merge_into(base[key], value, origin, new_origin, path)
        else:
            _drop_under(origin, path)
            base[key] = copy.deepcopy(value)
            for k, v in new_origin.items():
                if k == path or k.startswith(path + ".") or k.startswith(path + "["):
                    origin[k] = v


def parse_override(text: str) -> tuple[str, Any]:
    """``"power.price_per_kwh=0.5"`` -> ``("power.price_per_kwh", 0.5)``; the
    value is read as a YAML scalar (numbers, true/false, strings)."""
    if "=" not in text:
        raise AssumptionError(
            Problem("--set", text, "", "expected dotted.path=value, e.g. power.price_per_kwh=0.5")
        )
    path, raw = text.split("=", 1)
    if raw.lstrip()[:1] in ("@", "`"):
        raise AssumptionError(
            Problem(
                "--set",
                path.strip(),
                raw[:40],
                f"YAML reserves {raw.lstrip()[0]} at the start of a value; quote it: "
                f"--set '{path.strip()}=\"{raw.strip()[:40]}\"'",
            )
        )
    try:
        value = parse_yaml(raw)[1] if raw.strip() else ""
    except _Limit as exc:
        raise AssumptionError(Problem("--set", path, raw[:40], exc.rule)) from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise AssumptionError(Problem("--set", path, raw[:40], f"malformed value: {exc}")) from None
    return path.strip(), value


def apply_override(src: Source, path: str, value: Any) -> None:
    """Set ``path`` to ``value``; if the target is a ``{value: ...}`` mapping and
    ``value`` is not a mapping, replace only its ``value`` (keeping unit, source
    and range; a value outside ``[low, high]`` widens the range to include it)."""
    try:
        keys = split_path(path)
    except ValueError as exc:
        raise AssumptionError(
            Problem("--set", path, repr(value), f'{exc}; quote a key with dots: tiers."v1.5".gpus')
        ) from None
    if not all(keys):
        raise AssumptionError(Problem("--set", path, repr(value), "empty key in dotted path"))
    path = key_path(*keys)
    node: Any = src.data
    for i, key in enumerate(keys[:-1]):
        nxt = node.get(key) if isinstance(node, dict) else None
        if nxt is None:
            nxt = {}
            node[key] = nxt
            src.origin[key_path(*keys[: i + 1])] = "--set"
        if not isinstance(nxt, dict):
            where = key_path(*keys[: i + 1])
            raise AssumptionError(
                Problem(
                    "--set", path, repr(value), f"{where} is not a mapping, cannot set a key in it"
                )
            )
        node = nxt
    last = keys[-1]
    where = "--set"
    current = node.get(last)
    if isinstance(current, dict) and "value" not in current and not isinstance(value, dict):
        keys = ", ".join(map(str, current))
        first = next(iter(current), "KEY")
        rule = f"{path} is a mapping of {keys}: set one, e.g. --set {path}.{first}={value}"
        raise AssumptionError(Problem("--set", path, repr(value), rule))
    if isinstance(current, dict) and "value" in current and not isinstance(value, dict):
        current["value"] = value
        src.origin[f"{path}.value"] = where
        _widen_range(current, value)
    else:  # a copy: later overrides below this path must not change the caller's mapping
        node[last] = copy.deepcopy(value)
        _drop_under(src.origin, path)
    src.origin[path] = where


def _widen_range(q: dict[str, Any], value: Any) -> None:
    """An override outside the mapping's ``[low, high]`` widens the range to
    include it (the base case must lie inside the range it is varied over)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    low, high = q.get("low"), q.get("high")
    if isinstance(low, int | float) and value < low:
        q["low"] = value
    if isinstance(high, int | float) and value > high:
        q["high"] = value


def merge_sources(
    paths: Iterable[PathArg], overrides: Mapping[str, Any] | None = None, src: Source | None = None
) -> Source:
    """Read and merge ``paths`` (files or directories) into ``src`` (a new, empty
    source by default), then apply ``overrides``."""
    src = src if src is not None else Source()
    for file in expand_paths(paths):
        data, origins = read_file(file)
        src.files.append(str(file))
        merge_into(src.data, data, src.origin, origins)
    for path, value in (overrides or {}).items():
        apply_override(src, path, value)
    return src


# ----------------------------------------------------------------------------- validating


def _dotted(loc: tuple[Any, ...]) -> str:
    """A pydantic error location as a dotted path; a list item by its index
    (``tiers.tens.stages.0.month``, the one path style of every message)."""
    out = ""
    for part in loc:
        if not isinstance(part, int) and str(part).startswith(("function-", "constrained-")):
            continue
        out = join_path(out, part)
    return out


def _render(value: Any) -> str:
    if isinstance(value, dict) and "value" in value:
        value = value["value"]
    text = (
        json.dumps(value, ensure_ascii=False, default=str)
        if not isinstance(value, str)
        else repr(value)
    )
    return text if len(text) <= 80 else text[:77] + "..."


_RULES = {
    "missing": "required but missing",
    "extra_forbidden": "unknown key (check the spelling; see `costmodel schema`)",
    "float_type": "must be a number",
    "int_type": "must be a whole number",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "dict_type": "must be a mapping",
    "list_type": "must be a list",
    "model_type": "must be a mapping",
    "too_short": "must not be empty",
    "finite_number": "must be a finite number",
}


def _lookup(data: Any, path: str) -> Any:
    """The raw value at a dotted path (``a.b[2].c``), or None."""
    node = data
    try:
        parts = split_path(path)
    except ValueError:
        return None
    for part in parts:
        if part.isdigit() and isinstance(node, list):
            idx = int(part)
            node = node[idx] if idx < len(node) else None
        else:
            node = node.get(part) if isinstance(node, dict) else None
    return node


def _where_in_quantity(src: Source, path: str, rule: str) -> str:
    """Point at the ``value``/``low``/``high`` line of a ``{value: ...}`` mapping."""
    key = rule.split(" ", 1)[0] if rule.startswith(("low ", "high ")) else "value"
    return src.where(f"{path}.{key}" if f"{path}.{key}" in src.origin else path)


_PYDANTIC_WORDING = (
    "literal_error",
    "greater_than_equal",
    "less_than_equal",
    "greater_than",
    "less_than",
)


def problems_from_validation(exc: ValidationError, src: Source) -> list[Problem]:
    problems = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        path = _dotted(err["loc"])
        if path.endswith(".value") and not isinstance(_lookup(src.data, path[:-6]), dict):
            path = path[:-6]  # a bare number was read as {value: number}
        kind = err["type"]
        value = "" if kind == "missing" else _render(err.get("input"))
        rule = _RULES.get(kind) or err["msg"].removeprefix("Value error, ")
        if kind == "extra_forbidden":
            rule = did_you_mean(Assumptions, err["loc"], rule)
        if kind in _PYDANTIC_WORDING:
            rule = err["msg"].replace("Input should be", "must be")
        elif kind == "string_pattern_mismatch":
            rule = "must be a month written YYYY-MM"
        key = (path, rule)
        if key in seen:  # a union of number types reports each branch
            continue
        seen.add(key)
        problems.append(Problem(_where_in_quantity(src, path, rule), path, value, rule))
    return problems


def validate(src: Source) -> Assumptions:
    """Validate merged data into :class:`Assumptions` or raise :class:`AssumptionError`."""
    text = [Problem(src.where(p), p, v, r) for p, v, r in text_problems(src.data)]
    try:
        model = Assumptions.model_validate(src.data)
    except ValidationError as exc:
        raise AssumptionError(text + problems_from_validation(exc, src)) from None
    problems = text + [
        Problem(src.where(path), path, value, rule)
        for path, value, rule in check_consistency(model)
    ]
    if problems:
        raise AssumptionError(problems)
    model._source = src
    return model


def load_assumptions(*paths: PathArg, overrides: Mapping[str, Any] | None = None) -> Assumptions:
    """Load, merge and validate assumption files.

    With no ``paths`` the bundled default directory is used; otherwise exactly
    the given files/directories are merged, in order. ``overrides`` maps dotted
    paths to values (applied last). Raises :class:`AssumptionError`.
    """
    use = list(paths) if paths else [default_assumptions_dir()]
    src = merge_sources(use, overrides)
    try:
        return validate(src)
    except AssumptionError as exc:
        raise AssumptionError(overlay_hint(exc.problems, src.files)) from None


def assumption_files(a: Assumptions) -> list[str]:
    """The files an :class:`Assumptions` object was loaded from (empty if built in code)."""
    return list(a._source.files) if a._source is not None else []


def layer(
    a: Assumptions, *paths: PathArg, overrides: Mapping[str, Any] | None = None
) -> Assumptions:
    """``a`` with more files merged on top (in order) and then ``overrides``,
    validated again: how a scenario overlay is applied to a base."""
    base = a._source if a._source is not None else Source(data=a.model_dump(exclude_none=True))
    src = Source(copy.deepcopy(base.data), dict(base.origin), list(base.files))
    return validate(merge_sources(paths, overrides, src))


def with_overrides(a: Assumptions, overrides: Mapping[str, Any]) -> Assumptions:
    """A new :class:`Assumptions` with ``overrides`` applied to ``a``'s merged data
    (same rules as ``--set``), validated again."""
    return layer(a, overrides=overrides)


def fingerprint(a: Assumptions) -> str:
    """SHA-256 of the canonical JSON of the validated, merged assumptions."""
    text = json.dumps(
        a.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
