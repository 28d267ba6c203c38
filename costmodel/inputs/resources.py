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


#: Prefix of a path argument that names a bundled scenario overlay (``scenario:greenfield``).
SCENARIO_PREFIX = "scenario:"

#: the longest description :func:`scenario_description` gives
DESCRIPTION_CHARS = 110


def scenario_names() -> list[str]:
    """The names of the bundled scenario overlays (their file names without ``.yaml``)."""
    root = scenarios_dir()
    return sorted(p.stem for p in root.glob("*.yaml")) if root.is_dir() else []


def scenario_path(name: str) -> Path:
    """The file of the bundled scenario ``name`` (``greenfield``: ``greenfield.yaml``).

    Parameters
    ----------
    name : str
        A scenario of :func:`scenario_names` (``.yaml`` may be given).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> from costmodel.inputs.resources import scenario_path
    >>> scenario_path("greenfield").name
    'greenfield.yaml'
    >>> scenario_path("greenfeld")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileNotFoundError: no bundled scenario 'greenfeld'; did you mean 'greenfield'? ...
    """
    from costmodel.inputs.suggest import name_hint

    stem = name.removesuffix(".yaml")
    if stem not in scenario_names():
        hint = name_hint(stem, scenario_names()).removesuffix(";")
        raise FileNotFoundError(f"no bundled scenario {name!r}{hint} (see `costmodel scenarios`)")
    return scenarios_dir() / f"{stem}.yaml"


def scenario_description(path: Path) -> str:
    """One line on what an overlay changes: the first sentence of its header
    comment, after ``NAME.yaml --`` (cut at a word, with ``...``, beyond
    :data:`DESCRIPTION_CHARS` characters)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    text = ""
    for line in lines:  # wrapped Chinese joins without a space
        cjk = text[-1:] >= "\u3000" and line[:1] >= "\u3000"
        text = text + line if cjk or not text else f"{text} {line}"
    if " -- " in text:
        text = text.split(" -- ", 1)[1]
    end = text.find(". ")
    text = text[: end + 1] if end >= 0 else text
    if len(text) > DESCRIPTION_CHARS:
        text = text[: DESCRIPTION_CHARS - 3].rsplit(" ", 1)[0].rstrip(",;:") + "..."
    return text


def glossary_path() -> Path:
    """The memo's glossary of Chinese finance terms (``docs/glossary/glossary.yaml``)."""
    for candidate in (_PACKAGE / "_bundled" / "glossary", _PACKAGE.parent / "docs" / "glossary"):
        if candidate.is_dir():
            return candidate / "glossary.yaml"
    raise FileNotFoundError(f"bundled glossary not found next to {_PACKAGE}")


def templates_dir() -> Path:
    """The bundled Jinja2 templates of the memo."""
    return _bundled("templates")
