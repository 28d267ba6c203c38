"""The layer contract of the ``costmodel`` package, checked on its source text.

Layers, lowest first: ``catalogue`` -> ``core`` -> ``inputs`` -> ``analysis`` -> ``report`` -> ``cli``.
A module may import modules of its own layer or of a lower one, never of a
higher one, and never the lazy facade ``costmodel/__init__.py`` (which can
resolve to any layer). The facade and ``__main__`` are exempt. Every import
counts, also one inside a function or under ``if TYPE_CHECKING:``.

Imports between ``costmodel`` modules form no cycle, counting every import: one
inside a function (deferred) or under ``if TYPE_CHECKING:`` ties two modules as
much as one at the top (it only hides the cycle from the interpreter).

No module uses a ``_private`` name of another ``costmodel`` module, neither
imported (``from costmodel.x import _y``) nor read from an imported module
(``x._y``).

Libraries of the writers and the command line stay out of the lower layers:
``core`` and ``inputs`` import none of :data:`NOT_BELOW_ANALYSIS`, and ``core``
reads neither YAML nor the assumption schema's library (pydantic): the engine
takes its own typed inputs, which ``inputs`` builds from validated assumptions.

:func:`check` reads files with :mod:`ast` (it imports nothing) and returns one
sentence per violation, so that the test shows all of them at once.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "costmodel"
LAYERS = ("catalogue", "core", "inputs", "analysis", "report", "cli")
EXEMPT = {PACKAGE, f"{PACKAGE}.__main__"}
NOT_BELOW_ANALYSIS = ("matplotlib", "jinja2", "xlsxwriter", "openpyxl", "typer", "rich")
#: (module, private name it may use) pairs still allowed: the workbook's per-event
#: engine parts read two engine internals until the model exposes its schedules
FORBIDDEN = {
    "catalogue": (*NOT_BELOW_ANALYSIS, "yaml", "pydantic", "pandas"),
    "inputs": NOT_BELOW_ANALYSIS,
    "core": (*NOT_BELOW_ANALYSIS, "yaml", "pydantic"),
}


@dataclass(frozen=True)
class Import:
    """One imported module name as written in ``module`` at ``line``."""

    module: str  # the importing module
    target: str  # the imported module, absolute
    line: int
    top_level: bool  # runs when the module is imported (not in a function, not TYPE_CHECKING)


def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``*.py`` below the package ``root``."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _read(reader, module: str, path: Path, known: set[str]) -> list:
    """``reader(module, is_package, source, known)`` of the file ``path``. Readers
    are cached by source text: the contract tests check many copies of the
    package, each differing from it in a file or two. A source that does not
    parse is parsed again with its file name, so that the error names the file."""
    source = path.read_text(encoding="utf-8")
    try:
        return list(reader(module, path.name == "__init__.py", source, frozenset(known)))
    except SyntaxError:
        ast.parse(source, filename=str(path))
        raise


def imports_of(module: str, path: Path, known: set[str]) -> list[Import]:
    """Every import statement in ``path`` (module name ``module``)."""
    return _read(_imports_of, module, path, known)


@functools.lru_cache(maxsize=4096)
def _imports_of(
    module: str, is_package: bool, source: str, known: frozenset[str]
) -> tuple[Import, ...]:
    tree = ast.parse(source)
    found: list[Import] = []

    def visit(node: ast.AST, top: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, node.lineno, top))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"  # `from pkg import submodule`
                found.append(Import(module, sub if sub in known else base, node.lineno, top))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for child in ast.iter_child_nodes(node):
                visit(child, False)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, top)
        else:
            for child in ast.iter_child_nodes(node):
                visit(child, top)

    visit(tree, True)
    return tuple(found)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(module: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """``(line, dotted name)`` of each ``_private`` name of another costmodel module
    that ``module`` imports (``from costmodel.x import _y``) or reads as an
    attribute of an imported module (``x._y``, ``costmodel.x._y``)."""
    return _read(_private_uses, module, path, known)


@functools.lru_cache(maxsize=4096)
def _private_uses(
    module: str, is_package: bool, source: str, known: frozenset[str]
) -> tuple[tuple[int, str], ...]:
    tree = ast.parse(source)
    modules: dict[str, str] = {}  # local name -> costmodel module it is bound to
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != PACKAGE:
                    continue
                if alias.asname:
                    modules[alias.asname] = alias.name
                else:
                    modules[PACKAGE] = PACKAGE
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            if base.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    modules[alias.asname or alias.name] = sub
                elif _private(alias.name) and base != module:
                    found.append((node.lineno, sub))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        chain, value = [], node.value
        while isinstance(value, ast.Attribute):
            chain.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id in modules:
            owner = ".".join([modules[value.id], *reversed(chain)])
            if owner in known and owner != module:
                found.append((node.lineno, f"{owner}.{node.attr}"))
    return tuple(sorted(found))


def cycles(root: Path) -> list[list[str]]:
    """The import cycles among the modules of the package ``root``, counting every
    import (top level, inside a function, under ``TYPE_CHECKING``)."""
    names = module_names(root)
    known = set(names)
    graph: dict[str, set[str]] = {m: set() for m in names}
    for module, path in names.items():
        if module in EXEMPT:
            continue
        for imp in imports_of(module, path, known):
            if imp.target in known and imp.target != module:
                graph[module].add(imp.target)
    return _cycles(graph)


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == PACKAGE and parts[1] in LAYERS else None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module, or a self-import
    (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    out.append(sorted(component))
    return out


def check(root: Path) -> list[str]:
    """Violations of the layer contract in the package whose directory is ``root``."""
    names = module_names(root)
    known = set(names)
    problems: list[str] = []
    for module, path in names.items():
        where = path.relative_to(root.parent)
        for line, name in private_uses(module, path, known):
            problems.append(
                f"{where}:{line}: {module} uses the private name {name} of another "
                "module (make it public or move it)"
            )
        layer = layer_of(module)
        if module in EXEMPT:
            continue
        if layer is None:
            problems.append(f"{where}: module {module} is in no layer (put it in one of {LAYERS})")
            continue
        for imp in imports_of(module, path, known):
            top = imp.target.split(".")[0]
            if top == PACKAGE:
                target_layer = layer_of(imp.target)
                if imp.target != PACKAGE and imp.target not in known:
                    problems.append(
                        f"{where}:{imp.line}: {module} imports {imp.target}, which is no "
                        "module of the package (moved or misspelt)"
                    )
                elif target_layer is None:
                    problems.append(
                        f"{where}:{imp.line}: {module} imports the facade {imp.target!r}; "
                        "import the module that defines the name"
                    )
                elif LAYERS.index(target_layer) > LAYERS.index(layer):
                    problems.append(
                        f"{where}:{imp.line}: {module} (layer {layer}) imports {imp.target} "
                        f"(higher layer {target_layer})"
                    )
            elif top in FORBIDDEN.get(layer, ()):
                problems.append(
                    f"{where}:{imp.line}: {module} (layer {layer}) imports {imp.target!r}, "
                    f"which layer {layer} must not use"
                )
    for component in cycles(root):
        problems.append("import cycle among: " + ", ".join(component))
    return problems
