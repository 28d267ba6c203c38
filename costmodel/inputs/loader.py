"""Load assumption files: read each (safely: :mod:`~costmodel.inputs.yamlfile`),
deep-merge, apply overrides, validate.

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
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from costmodel.inputs.advice import implausible, name_year, shadowed
from costmodel.inputs.designs import design_problems, resolve_designs
from costmodel.inputs.dimensions import convert_units, fx_rates
from costmodel.inputs.errors import AssumptionError, AssumptionWarning, Problem, UnitNote
from costmodel.inputs.fields import field_marks, is_fraction_path
from costmodel.inputs.forms import percent
from costmodel.inputs.paths import join_path, key_path, split_path
from costmodel.inputs.quantity import Quantity
from costmodel.inputs.resources import (
    EXAMPLE_PREFIX,
    SCENARIO_PREFIX,
    default_assumptions_dir,
    example_dir,
    scenario_path,
)
from costmodel.inputs.rules import check_consistency
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.suggest import (
    DEFAULT_WORD,
    NAMED_ENTRIES,
    did_you_mean,
    overlay_hint,
    unknown_entry_hint,
)
from costmodel.inputs.textpolicy import text_problems
from costmodel.inputs.yamlfile import YamlLimit, parse_yaml, read_file

PathArg = str | PathLike[str]


@dataclass
class Source:
    """The merged raw assumptions and where each dotted path came from."""

    data: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # dotted path -> "file:line"
    files: list[str] = field(default_factory=list)
    #: dotted paths of named entries (``tiers.NAME``) that an override created
    created: list[str] = field(default_factory=list)
    #: dotted path -> its (low, high) before an override widened them
    before: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    #: values converted from another unit or currency by the last validation
    notes: list[Problem] = field(default_factory=list)

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
    files in name order; the word ``default`` is the bundled default directory,
    ``example:NAME`` the bundled example model NAME (e.g. ``example:us-neocloud``)
    and ``scenario:NAME`` the bundled scenario overlay NAME (``scenario:greenfield``,
    listed by ``costmodel scenarios``)."""
    out: list[Path] = []
    for p in paths:
        path = default_assumptions_dir() if str(p) == DEFAULT_WORD else Path(p)
        try:
            if str(p).startswith(EXAMPLE_PREFIX):
                path = example_dir(str(p).removeprefix(EXAMPLE_PREFIX))
            elif str(p).startswith(SCENARIO_PREFIX):
                path = scenario_path(str(p).removeprefix(SCENARIO_PREFIX))
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
        elif (
            isinstance(value, dict)
            and isinstance(base.get(key), dict)
            and not other_form(base[key], value)
        ):
            if path in new_origin:
                origin.setdefault(path, new_origin[path])
            restated_quote(base[key], value, origin, path)
            merge_into(base[key], value, origin, new_origin, path)
        else:
            _drop_under(origin, path)
            base[key] = copy.deepcopy(value)
            for k, v in new_origin.items():
                if k == path or k.startswith(path + ".") or k.startswith(path + "["):
                    origin[k] = v


def restated_quote(
    old: dict[str, Any], new: Mapping[str, Any], origin: dict[str, str], path: str
) -> None:
    """A later file that writes the ``value`` of a quote (a quantity with ``as_of``,
    methodology §30) without an ``as_of`` of its own states a price at the model's
    start: the earlier ``as_of`` (the month the earlier figure was observed) is
    dropped from ``old``, and so are the ``low`` and ``high`` the later file does
    not write (they were that quote's range). A ``low`` or ``high`` written alone
    keeps the quote and its month; ``--set`` edits the quote's value in place."""
    if "as_of" not in old or "value" not in new or "as_of" in new:
        return
    for k in ("as_of", *(b for b in ("low", "high") if b not in new)):
        old.pop(k, None)
        _drop_under(origin, f"{path}.{k}")


def other_form(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Whether ``new`` gives an input in another form than ``old``: one a number's
    mapping ``{value: ...}``, the other a mapping by key (a rent by cooling,
    methodology §28.3). The later file's form then replaces the earlier one whole
    (merged key by key they made a mapping of neither form); ``{low: ...}`` over
    ``{value: ...}`` is the same form and merges."""
    number_keys = set(Quantity.model_fields)
    if ("value" in old) == ("value" in new):
        return False
    keyed = new if "value" in old else old
    return bool(set(keyed) - number_keys)


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
    except YamlLimit as exc:
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
            if i == 1 and keys[0] in NAMED_ENTRIES:
                src.created.append(key_path(*keys[:2]))
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
    if percent(value) is not None and is_fraction_path(keys):
        value = percent(value)  # 60% of a fraction: 0.6, before the range is widened
    elif percent(value) is not None and field_marks(keys) is not None:
        shown = value.strip()
        rule = f"must be a number: a percentage ({shown}) is read only where a fraction is asked"
        raise AssumptionError(Problem("--set", path, repr(value), rule))
    current = node.get(last)
    if isinstance(current, dict) and "value" not in current and not isinstance(value, dict):
        keys = ", ".join(map(str, current))
        first = next(iter(current), "KEY")
        rule = f"{path} is a mapping of {keys}: set one, e.g. --set {path}.{first}={value}"
        raise AssumptionError(Problem("--set", path, repr(value), rule))
    if isinstance(current, dict) and "value" in current and not isinstance(value, dict):
        src.before.setdefault(path, (current.get("low"), current.get("high")))
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


def _locate(src: Source, path: str, rule: str) -> tuple[str, str]:
    """Where a problem of a ``{value: ...}`` mapping points (the line of its
    ``value``, or of the ``low``/``high`` a range rule names) and its rule. When a
    range rule's bound and value come from different files (merged key by key,
    methodology §2.1), the rule also names where the value was set."""
    key = rule.split(" ", 1)[0] if rule.startswith(("low ", "high ")) else "value"
    where = src.where(f"{path}.{key}" if f"{path}.{key}" in src.origin else path)
    value = src.origin.get(f"{path}.value", "")
    bound = src.origin.get(f"{path}.{key}", "") if key != "value" else ""
    if bound and value and bound.rsplit(":", 1)[0] != value.rsplit(":", 1)[0]:
        rule += (
            f" (the value comes from {value}: files merge a quantity key by key, "
            "so a file that restates a value should give its low and high too)"
        )
    return where, rule


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
        where, shown = _locate(src, path, rule)
        problems.append(Problem(where, path, value, shown))
    return problems


def validate(src: Source) -> Assumptions:
    """Validate merged data into :class:`Assumptions` or raise :class:`AssumptionError`;
    units are checked and converted first (methodology §2.8; the conversions in
    ``src.notes``)."""
    currency = src.data.get("currency")
    if isinstance(currency, str):
        errors, src.notes = convert_units(
            src.data, currency, fx_rates(src.data.get("fx")), src.where
        )
        if errors:
            raise AssumptionError(errors)
    text = [Problem(src.where(p), p, v, r) for p, v, r in text_problems(src.data)]
    text += [Problem(src.where(p), p, v, r) for p, v, r in design_problems(src.data)]
    try:
        model = Assumptions.model_validate(resolve_designs(src.data))
    except ValidationError as exc:
        found = problems_from_validation(exc, src)
        raise AssumptionError(text + unknown_entry_hint(found, src.data, src.created)) from None
    model._source = src  # the rules read which parts a tier takes from its design
    problems = text + [
        Problem(src.where(path), path, value, rule)
        for path, value, rule in check_consistency(model)
    ]
    if problems:
        raise AssumptionError(problems)
    return model


def advise(
    src: Source, a: Assumptions, overrides: Mapping[str, Any] | None, first_file: int = 0
) -> list[Problem]:
    """The advice on a load (methodology §2.6): overrides a tier, its design or its
    site shadows, and values far outside their documented range among the inputs
    of the files from ``src.files[first_file]`` on and of ``overrides``."""
    given = {}
    for path, value in (overrides or {}).items():
        try:
            given[key_path(*split_path(path))] = value
        except ValueError:
            continue
    new_files = set(src.files[first_file:])

    def fresh(path: str) -> bool:
        if path in given:
            return True
        return src.where(path).rsplit(":", 1)[0] in new_files

    return (
        shadowed(src.data, src.origin, given)
        + implausible(src.data, src.where, fresh, src.before, a.currency)
        + name_year(src.data, src.where, fresh)
    )


def deliver(
    advice: list[Problem], strict: bool, notes: list[Problem] | None = None, stacklevel: int = 3
) -> None:
    """``advice`` as :class:`AssumptionWarning` s, or with ``strict`` as one
    :class:`AssumptionError`; ``notes`` (conversions of units) as :class:`UnitNote` s."""
    if strict and advice:
        raise AssumptionError(advice)
    for problem in notes or []:
        warnings.warn(UnitNote(problem), stacklevel=stacklevel)
    for problem in advice:
        warnings.warn(AssumptionWarning(problem), stacklevel=stacklevel)


def load_assumptions(
    *paths: PathArg, overrides: Mapping[str, Any] | None = None, strict: bool = False
) -> Assumptions:
    """Load, merge and validate assumption files.

    With no ``paths`` the bundled default directory is used; otherwise exactly
    the given files/directories are merged, in order (a directory: its ``*.yaml``
    files by name). ``overrides`` maps dotted paths to values (applied last, as
    ``--set``).

    Parameters
    ----------
    *paths : str or os.PathLike
        Files or directories, merged in order; none: the bundled default.
    overrides : mapping of str to value, optional
        Dotted path -> value, applied after the files.
    strict : bool, default False
        Raise the advice (an override a tier shadows, a value far outside its
        documented range) as an :class:`AssumptionError` instead of warning.

    Returns
    -------
    Assumptions
        The validated, merged assumptions (their files in :func:`assumption_files`).

    Raises
    ------
    AssumptionError
        Naming the file, the dotted path, the value and the rule of each problem.

    Examples
    --------
    >>> import costmodel as cm
    >>> folder = cm.example_dir("by-hand")
    >>> a = cm.load_assumptions(folder)
    >>> list(a.tiers), a.power.price_per_kwh.value, a.power.price_per_kwh.unit
    (['small', 'large'], 1.0, 'CNY/kWh')
    >>> half = cm.load_assumptions(folder, overrides={"power.price_per_kwh": 0.5})
    >>> half.power.price_per_kwh.value
    0.5
    >>> a = cm.load_assumptions(folder, overrides={"operations.utilization": "60%"})
    >>> a.operations.utilization.value
    0.6
    >>> cm.load_assumptions(folder, overrides={"operations.utilization": 7})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    costmodel.inputs.errors.AssumptionError: invalid assumptions:
      --set: operations.utilization = 7: must be a fraction between 0 and 1 (written 7, ...
    """
    use = list(paths) if paths else [default_assumptions_dir()]
    src = merge_sources(use, overrides)
    try:
        a = validate(src)
    except AssumptionError as exc:
        raise AssumptionError(overlay_hint(exc.problems, src.files)) from None
    deliver(advise(src, a, overrides), strict, src.notes)
    return a


def assumption_files(a: Assumptions) -> list[str]:
    """The files an :class:`Assumptions` object was loaded from (empty if built in code).

    Parameters
    ----------
    a : Assumptions

    Returns
    -------
    list of str
        The paths, in the order they were merged.

    Examples
    --------
    >>> import costmodel as cm
    >>> from pathlib import Path
    >>> files = cm.assumption_files(cm.load_assumptions(cm.example_dir("by-hand")))
    >>> [Path(f).name for f in files]
    ['model.yaml']
    """
    return list(a._source.files) if a._source is not None else []


def layer(
    a: Assumptions,
    *paths: PathArg,
    overrides: Mapping[str, Any] | None = None,
    strict: bool = False,
) -> Assumptions:
    """``a`` with more files merged on top (in order) and then ``overrides``,
    validated again: how a scenario overlay is applied to a base.

    Parameters
    ----------
    a : Assumptions
        The base.
    *paths : str or os.PathLike
        Overlay files or directories, merged on ``a`` in order.
    overrides : mapping of str to value, optional
        Dotted path -> value, applied last.
    strict : bool, default False
        Raise the advice on the overlays and overrides as an error (see
        :func:`load_assumptions`) instead of warning.

    Returns
    -------
    Assumptions
        Its files are ``a``'s followed by ``paths``.

    Examples
    --------
    >>> import costmodel as cm
    >>> from pathlib import Path
    >>> from costmodel.inputs.resources import scenarios_dir
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> loan = cm.layer(a, scenarios_dir() / "bank-loan.yaml")
    >>> a.financing is None, loan.financing.debt_share.value
    (True, 0.6)
    >>> Path(cm.assumption_files(loan)[-1]).name
    'bank-loan.yaml'
    """
    base = a._source if a._source is not None else Source(data=a.model_dump(exclude_none=True))
    src = Source(copy.deepcopy(base.data), dict(base.origin), list(base.files), list(base.created))
    first = len(src.files)
    out = validate(merge_sources(paths, overrides, src))
    deliver(advise(src, out, overrides, first), strict, src.notes)
    return out


def with_overrides(
    a: Assumptions, overrides: Mapping[str, Any], strict: bool = False
) -> Assumptions:
    """A new :class:`Assumptions` with ``overrides`` applied to ``a``'s merged data
    (same rules as ``--set``), validated again.

    Parameters
    ----------
    a : Assumptions
        Loaded assumptions (left unchanged).
    overrides : mapping of str to value
        Dotted path -> value; a ranged input keeps its unit, source and range.
    strict : bool, default False
        Raise the advice on the overrides as an error instead of warning.

    Returns
    -------
    Assumptions

    Examples
    --------
    >>> import costmodel as cm
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> b = cm.with_overrides(a, {"tiers.small.gpus": 64})
    >>> a.tiers["small"].gpus, b.tiers["small"].gpus
    (16, 64)
    """
    return layer(a, overrides=overrides, strict=strict)


def fingerprint(a: Assumptions) -> str:
    """SHA-256 of the canonical JSON of the validated, merged assumptions: equal
    for equal inputs whatever files they came from (the workbook's Cover and the
    memo carry it).

    Parameters
    ----------
    a : Assumptions

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> import costmodel as cm
    >>> folder = cm.example_dir("by-hand")
    >>> a = cm.load_assumptions(folder)
    >>> len(cm.fingerprint(a)), cm.fingerprint(a) == cm.fingerprint(cm.load_assumptions(folder))
    (64, True)
    >>> cm.fingerprint(cm.with_overrides(a, {"power.price_per_kwh": 0.5})) == cm.fingerprint(a)
    False
    """
    text = json.dumps(
        a.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
