"""A failure at any point of writing an output set leaves the folder exactly as it
was (names, bytes, modes), or the new set complete; never a mix, never fewer files,
and the CLI's message says which (issue 55). Each step of both ways of writing
(the swap of two folders and the file-by-file replacement in place) is made to
fail in turn."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from costmodel.cli import get_app
from costmodel.report import output
from costmodel.report.output import MANIFEST, PreviousSetNotRestored, output_set
from tests.hardening.test_output_folder import _as_nobody

app = get_app()


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder``: kind, mode and bytes (or link target)."""
    seen = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        if p.is_symlink():
            body: object = os.readlink(p)
        elif p.is_dir():
            body = None
        else:
            body = hashlib.sha256(p.read_bytes()).hexdigest()
        seen[str(p.relative_to(folder))] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), body)
    return seen


def hidden_leftovers(parent: Path, folder: Path) -> list[str]:
    return sorted(
        str(p)
        for p in [*parent.iterdir(), *folder.iterdir()]
        if p.name.startswith(".") and ("staging" in p.name or p.suffix == ".tmp")
    )


def prepare(tmp_path: Path, mode: str) -> Path:
    """An output folder holding a previous set, a file the build does not write,
    a symlink, and (in place) a subfolder, which is what makes a build write in place."""
    out = tmp_path / "out"
    with output_set(out) as stage:
        (stage / "a.txt").write_text("old a")
        (stage / "b.txt").write_text("old b")
    (out / "notes.txt").write_text("the user's")
    os.chmod(out / "notes.txt", 0o640)
    (out / "link").symlink_to("notes.txt")
    if mode == "in place":
        (out / "sub").mkdir()
        (out / "sub" / "x").write_text("kept")
    return out


def write_new(out: Path) -> None:
    with output_set(out) as stage:
        (stage / "a.txt").write_text("new a")
        (stage / "b.txt").write_text("new b")
        (stage / "c.txt").write_text("new c")


#: the steps whose failure is injected: system calls and the module's own steps
STEPS = ("replace", "link", "rename", "unlink", "mkdir", "copy2", "_exchange", "_manifest")


def _count_calls(monkeypatch, mode: str) -> dict[str, int]:
    counts = dict.fromkeys(STEPS, 0)
    for name in STEPS:
        owner, real = _owner(name)

        def counting(*a, _n=name, _real=real, **k):
            counts[_n] += 1
            return _real(*a, **k)

        monkeypatch.setattr(owner, name, counting)
    return counts


def _owner(name: str):
    if name.startswith("_"):
        return output, getattr(output, name)
    if name == "copy2":
        return shutil, shutil.copy2
    return os, getattr(os, name)


def _modes() -> list[str]:
    return ["swap", "swap, one file at a time", "in place"]


def _setup_mode(monkeypatch, mode: str) -> None:
    if mode == "swap, one file at a time":  # a system that cannot exchange two folders
        monkeypatch.setattr(output, "_exchange", lambda a, b: False)


def _cases() -> list[tuple[str, str, int]]:
    """(mode, step, k): the k-th call of step fails; k over every call a build makes."""
    import tempfile

    cases = []
    for mode in _modes():
        with pytest.MonkeyPatch.context() as mp, tempfile.TemporaryDirectory() as d:
            out = prepare(Path(d), mode)
            _setup_mode(mp, mode)
            counts = _count_calls(mp, mode)
            write_new(out)
        cases += [(mode, step, k) for step, n in counts.items() for k in range(1, n + 1)]
    return cases


CASES = _cases()


def test_every_way_of_writing_makes_calls_to_fail():
    modes = {m for m, _, _ in CASES}
    assert modes == set(_modes())
    for mode in modes:  # the file-by-file ways replace each file
        steps = {s for m, s, _ in CASES if m == mode}
        assert "replace" in steps or "_exchange" in steps, mode


@pytest.mark.parametrize(("mode", "step", "k"), CASES, ids=[f"{m}-{s}-{k}" for m, s, k in CASES])
def test_a_failure_at_any_step_keeps_the_previous_set_or_completes_the_new(
    tmp_path, monkeypatch, mode, step, k
):
    out = prepare(tmp_path, mode)
    before = snapshot(out)
    _setup_mode(monkeypatch, mode)
    owner, real = _owner(step)
    calls = {"n": 0}

    def failing(*a, **kw):
        calls["n"] += 1
        if calls["n"] == k:
            raise OSError(errno.EIO, "injected failure", str(a[0]) if a else None)
        return real(*a, **kw)

    monkeypatch.setattr(owner, step, failing)
    try:
        write_new(out)
    except OSError as exc:
        assert "injected failure" in str(exc)
        assert not isinstance(exc, PreviousSetNotRestored)
        assert snapshot(out) == before, f"the folder changed after a failed {step} #{k}"
    else:  # the step failed and the module took another way (a copy, one file at a time)
        assert (out / "c.txt").read_text() == "new c"
        assert (out / "a.txt").read_text() == "new a"
        assert (out / "notes.txt").read_text() == "the user's"
        listed = (out / MANIFEST).read_text().splitlines()
        assert [line.split("  ")[1] for line in listed] == ["a.txt", "b.txt", "c.txt"]
    monkeypatch.undo()
    assert hidden_leftovers(tmp_path, out) == []


@pytest.mark.parametrize("mode", _modes())
def test_a_folder_where_an_output_goes_touches_nothing(tmp_path, monkeypatch, mode):
    out = prepare(tmp_path, mode)
    shutil.rmtree(out / "sub", ignore_errors=True)
    (out / "b.txt").unlink()
    (out / "b.txt").mkdir()  # a folder where an output goes: always written in place
    before = snapshot(out)
    _setup_mode(monkeypatch, mode)
    with pytest.raises(IsADirectoryError, match="a folder is where an output file goes"):
        write_new(out)
    assert snapshot(out) == before
    assert hidden_leftovers(tmp_path, out) == []


def test_when_the_previous_files_cannot_be_put_back_they_are_kept_and_named(tmp_path, monkeypatch):
    out = prepare(tmp_path, "in place")
    old_a = (out / "a.txt").read_bytes()
    real = os.replace
    calls = {"n": 0}

    def failing_from_the_second(*a, **kw):
        calls["n"] += 1
        if calls["n"] >= 2:
            raise OSError(errno.EIO, "injected failure", str(a[0]))
        return real(*a, **kw)

    monkeypatch.setattr(os, "replace", failing_from_the_second)
    with pytest.raises(PreviousSetNotRestored) as info:
        write_new(out)
    monkeypatch.undo()
    kept = info.value.kept
    assert kept.parent == out and kept.name.startswith("previous-files-")
    assert (kept / "a.txt").read_bytes() == old_a  # the replaced file is not lost
    assert info.value.names == ["a.txt", MANIFEST]  # replaced, and removed first
    assert (kept / MANIFEST).exists()


# ----------------------------------------------------------------------------- the CLI

BUILD = ["build", "--draws", "0", "--quiet"]


@pytest.fixture(scope="module")
def built_set(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("built") / "out"
    r = CliRunner().invoke(app, [*BUILD, "-o", str(out)], env={"SOURCE_DATE_EPOCH": "1700000000"})
    assert r.exit_code == 0, r.stderr
    return out


@pytest.mark.parametrize("name", ["model.xlsx", "memo.zh.html", MANIFEST])
def test_build_with_a_folder_named_like_an_output(built_set, tmp_path, name):
    """The review's case: a folder named model.xlsx replaced memo.html and
    memo.zh.html and removed the manifest while saying nothing was written."""
    out = tmp_path / "out"
    shutil.copytree(built_set, out)
    (out / name).unlink()
    (out / name).mkdir()
    before = snapshot(out)
    r = CliRunner().invoke(app, [*BUILD, "-o", str(out)], env={"SOURCE_DATE_EPOCH": "1"})
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    message = " ".join(r.stderr.split())
    assert f"a folder is where an output file goes ({out / name})" in message
    assert f"nothing was written, and {out} keeps the files it had" in message
    assert snapshot(out) == before  # the message is true
    assert hidden_leftovers(tmp_path, out) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_file_the_user_cannot_replace(tmp_path):
    """As ``nobody`` in a sticky folder (like /tmp), a file owned by another user
    cannot be replaced: the write fails at that file and the files replaced before
    it are put back."""
    base = Path("/tmp") / f"cm-sticky-{os.getpid()}"
    out = base / "out"
    try:
        (out / "sub").mkdir(parents=True)  # a subfolder: written in place
        for name in ("a.txt", "b.txt", MANIFEST):
            (out / name).write_text(f"old {name}")
        os.chmod(base, 0o755)
        for name in ("a.txt", MANIFEST):
            os.chown(out / name, 65534, 65534)
        os.chmod(out, 0o1777)  # root's, like /tmp; b.txt stays root's: nobody cannot replace it
        before = snapshot(out)
        script = textwrap.dedent(
            f"""
            from pathlib import Path
            from costmodel.report.output import output_set
            with output_set(Path({str(out)!r})) as stage:
                for name in ("a.txt", "b.txt", "c.txt"):
                    (stage / name).write_text("new")
            """
        )
        proc = _as_nobody(script)
        assert proc.returncode == 1 and "PermissionError" in proc.stderr
        assert snapshot(out) == before
        assert hidden_leftovers(base, out) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)
