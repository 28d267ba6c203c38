"""Where the bundled assumption files and templates are.

In an installed wheel they are package data under ``costmodel/_bundled``; in a
source checkout (or an editable install) they are the repository's top-level
``assumptions/`` and ``templates/`` directories.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # costmodel/


def _bundled(name: str) -> Path:
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled {name!r} directory not found next to {_PACKAGE}")


def assumptions_dir() -> Path:
    """The bundled ``assumptions/`` directory (``default/`` and ``scenarios/``)."""
    return _bundled("assumptions")


def default_assumptions_dir() -> Path:
    """The bundled default model: a directory of YAML files merged in name order."""
    return assumptions_dir() / "default"


def scenarios_dir() -> Path:
    """The bundled scenario overlays."""
    return assumptions_dir() / "scenarios"


#: Prefix of a path argument that names a bundled example model (``example:us-neocloud``).
EXAMPLE_PREFIX = "example:"


def examples_dir() -> Path:
    """The bundled example models, one directory each (``assumptions/examples/``)."""
    return assumptions_dir() / "examples"


def example_names() -> list[str]:
    """The names of the bundled example models."""
    root = examples_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def example_dir(name: str) -> Path:
    """The directory of the bundled example model ``name`` (e.g. ``us-neocloud``).

    Parameters
    ----------
    name : str
        A folder of ``examples/`` (shipped in the wheel).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import costmodel as cm
    >>> folder = cm.example_dir("us-neocloud")
    >>> folder.name, (folder / "00-model.yaml").is_file()
    ('us-neocloud', True)
    """
    path = examples_dir() / name
    if name not in example_names():
        known = ", ".join(example_names()) or "none"
        raise FileNotFoundError(f"no bundled example {name!r} (bundled examples: {known})")
    return path


def glossary_path() -> Path:
    """The memo's glossary of Chinese finance terms (``docs/glossary/glossary.yaml``)."""
    for candidate in (_PACKAGE / "_bundled" / "glossary", _PACKAGE.parent / "docs" / "glossary"):
        if candidate.is_dir():
            return candidate / "glossary.yaml"
    raise FileNotFoundError(f"bundled glossary not found next to {_PACKAGE}")


def templates_dir() -> Path:
    """The bundled Jinja2 templates of the memo."""
    return _bundled("templates")
