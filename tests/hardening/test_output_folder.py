"""The output folder in real deployments (issue 31): a mount point (a tmpfs, a bind
mount, what ``docker -v host:/out`` gives), subfolders the build does not own, a
read-only folder, a full disk. Each build leaves a complete set, recognised by its
manifest, and no staging folder."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from costmodel.cli import get_app
from costmodel.report.output import MANIFEST, output_set

ROOT = Path(__file__).resolve().parents[2]
app = get_app()
BUILD = ["build", "--draws", "0", "--quiet", "--lang", "en"]


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def staging(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if "staging" in p.name)


def complete(folder: Path) -> bool:
    """What ``sha256sum -c manifest.sha256`` checks: every file it lists has its hash."""
    lines = (folder / MANIFEST).read_text(encoding="utf-8").splitlines()
    for line in lines:
        digest, name = line.split("  ", 1)
        if hashlib.sha256((folder / name).read_bytes()).hexdigest() != digest:
            return False
    return bool(lines)


# ----------------------------------------------------------------------------- library


def test_the_manifest_lists_each_written_file_with_its_sha256(tmp_path):
    out = tmp_path / "out"
    with output_set(out) as stage:
        (stage / "b.txt").write_text("bee")
        (stage / "a.txt").write_text("a")
    a, b = (hashlib.sha256(t.encode()).hexdigest() for t in ("a", "bee"))
    assert (out / MANIFEST).read_text() == f"{a}  a.txt\n{b}  b.txt\n"


def test_subfolders_are_kept_in_place_not_copied(tmp_path):
    out = tmp_path / "out"
    (out / "archive").mkdir(parents=True)
    (out / "archive" / "old.xlsx").write_bytes(b"x" * 1000)
    (out / "notes.txt").write_text("mine")
    (out / "a.txt").write_text("old")
    inode = (out / "archive" / "old.xlsx").stat().st_ino
    with output_set(out) as stage:
        (stage / "a.txt").write_text("new")
    assert (out / "archive" / "old.xlsx").stat().st_ino == inode  # the same file
    assert (out / "a.txt").read_text() == "new"
    assert (out / "notes.txt").read_text() == "mine"
    assert complete(out)
    assert staging(tmp_path) == [] and hidden(out) == []


def test_a_failure_in_place_keeps_the_files_and_leaves_no_staging(tmp_path):
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)  # a subfolder: written in place
    (out / "a.txt").write_text("old")
    with pytest.raises(RuntimeError), output_set(out) as stage:
        (stage / "a.txt").write_text("new")
        raise RuntimeError("the memo failed")
    assert (out / "a.txt").read_text() == "old"
    assert hidden(out) == [] and staging(tmp_path) == []


def test_a_killed_in_place_builds_staging_folder_is_removed_by_the_next(tmp_path):
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    (out / ".costmodel-staging-dead").mkdir()
    (out / ".costmodel-staging-dead" / "model.xlsx").write_text("half")
    with output_set(out) as stage:
        (stage / "a.txt").write_text("a")
    assert hidden(out) == []


def test_a_stale_manifest_is_not_carried_into_a_swapped_set(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).write_text("0" * 64 + "  gone.txt\n")
    with output_set(out) as stage:
        (stage / "a.txt").write_text("a")
    assert (out / MANIFEST).read_text().endswith("  a.txt\n") and complete(out)


def _as_nobody(script: str) -> subprocess.CompletedProcess:
    """Run ``script`` as user ``nobody`` with an interpreter that user may run
    (``costmodel.report.output`` needs only the standard library)."""
    for exe in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        try:
            return subprocess.run(
                [exe, "-c", script],
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
                preexec_fn=lambda: (os.setgid(65534), os.setuid(65534)),
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (PermissionError, FileNotFoundError, subprocess.SubprocessError):
            continue
    pytest.skip("no Python interpreter that user nobody may run")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
@pytest.mark.parametrize("parent_mode", [0o777, 0o555])
def test_a_read_only_folder_or_parent_as_an_ordinary_user(tmp_path, parent_mode):
    """Run as ``nobody`` (root ignores permissions): a 0555 output folder in a
    writable parent is replaced and leaves no copy of the old set; in a parent the
    user cannot write, a writable folder is written in place."""
    base = Path("/tmp") / f"cm-ro-{os.getpid()}-{parent_mode:o}"
    parent, out = base / "parent", base / "parent" / "out"
    out.mkdir(parents=True)
    (out / "a.txt").write_text("old")
    for p in (base, parent, out, out / "a.txt"):
        os.chown(p, 65534, 65534)
    os.chmod(base, 0o755)
    script = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from costmodel.report.output import output_set
        out = Path({str(out)!r})
        os.chmod(out, {0o555 if parent_mode == 0o777 else 0o755})
        os.chmod(out.parent, {parent_mode})
        for _ in range(2):
            with output_set(out) as stage:
                (stage / "a.txt").write_text("new")
        """
    )
    try:
        proc = _as_nobody(script)
        assert proc.returncode == 0, proc.stderr
        assert (out / "a.txt").read_text() == "new" and complete(out)
        assert staging(parent) == [] and hidden(out) == []
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(base)], check=False)
        subprocess.run(["rm", "-rf", str(base)], check=False)


# ----------------------------------------------------------------------------- mount points


def _mount(*args: str) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount here: {proc.stderr.strip()}")


@pytest.fixture
def mounted(tmp_path):
    """A factory of mount points under tmp_path, unmounted afterwards."""
    points: list[Path] = []

    def make(kind: str, size: str = "64m") -> Path:
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            pytest.skip("mounting needs root")
        point = tmp_path / f"mnt-{kind}-{len(points)}"
        point.mkdir()
        if kind == "tmpfs":
            _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point))
        else:
            source = tmp_path / f"bind-source-{len(points)}"
            source.mkdir()
            _mount("--bind", str(source), str(point))
        points.append(point)
        return point

    yield make
    for p in reversed(points):
        subprocess.run(["umount", "-l", str(p)], check=False)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["tmpfs", "bind"])
def test_build_onto_a_mount_point_twice(mounted, kind, monkeypatch):
    """Where a folder cannot be swapped (exit 1 'Device or resource busy' before):
    both builds succeed, with a complete set and nothing hidden left behind."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    out = mounted(kind)
    (out / "keep.txt").write_text("the user's")
    runs = [CliRunner().invoke(app, [*BUILD, "-o", str(out)]) for _ in range(2)]
    for r in runs:
        assert r.exit_code == 0, r.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["keep.txt", MANIFEST, "memo.html", "model.xlsx"]
    assert complete(out) and hidden(out) == []
    assert staging(out.parent) == []


@pytest.mark.slow
def test_a_full_mount_point_gives_one_line_and_keeps_its_files(mounted, monkeypatch):
    out = mounted("tmpfs", size="100k")  # a workbook does not fit
    (out / "memo.html").write_text("previous memo")
    r = CliRunner().invoke(app, [*BUILD, "-o", str(out)])
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert f"cannot write {out}: No space left on device" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["memo.html"]
    assert (out / "memo.html").read_text() == "previous memo"


def test_a_copy_error_list_becomes_one_os_error():
    """``shutil.Error`` carries a list of (src, dst, text): the CLI's one-line message
    needs its first system error, not the list."""
    import errno
    import shutil as sh

    from costmodel.cli.app import os_error_of

    text = f"[Errno {errno.ENOSPC}] {os.strerror(errno.ENOSPC)}: '/out/b'"
    found = os_error_of(sh.Error([("/src/b", "/out/b", text)]))
    assert (found.errno, found.strerror, found.filename) == (
        errno.ENOSPC,
        os.strerror(errno.ENOSPC),
        "/out/b",
    )
