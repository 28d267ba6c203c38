"""A build's files replace the previous set all together or not at all (issue 16)."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from costmodel.report.output import MANIFEST, output_set

ROOT = Path(__file__).resolve().parents[2]


def fingerprints(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".staging-" in p.name or p.suffix == ".tmp")


# ----------------------------------------------------------------------------- library


def test_new_folder_is_created_whole(tmp_path):
    with output_set(tmp_path / "out") as stage:
        (stage / "a.txt").write_text("a")
        assert not (tmp_path / "out").exists()
    assert fingerprints(tmp_path / "out").keys() == {"a.txt", MANIFEST}
    assert leftovers(tmp_path) == []


def test_failure_keeps_the_previous_set(tmp_path):
    out = tmp_path / "out"
    with output_set(out) as stage:
        (stage / "a.txt").write_text("old a")
        (stage / "b.txt").write_text("old b")
    before = fingerprints(out)
    with pytest.raises(RuntimeError), output_set(out) as stage:
        (stage / "a.txt").write_text("new a")
        raise RuntimeError("the memo failed")
    assert fingerprints(out) == before
    assert leftovers(tmp_path) == []


def test_files_the_build_does_not_write_are_kept(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "a.txt").write_text("old")
    with output_set(out) as stage:
        (stage / "a.txt").write_text("new")
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "a.txt").read_text() == "new"


def test_a_symlinked_folder_stays_a_symlink(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    with output_set(tmp_path / "link") as stage:
        (stage / "a.txt").write_text("a")
    assert (tmp_path / "link").is_symlink()
    assert (real / "a.txt").read_text() == "a"
    assert leftovers(tmp_path) == []


def test_a_killed_builds_staging_folder_is_removed_by_the_next(tmp_path):
    (tmp_path / ".out.staging-dead").mkdir()
    (tmp_path / ".out.staging-dead" / "model.xlsx").write_text("half")
    with output_set(tmp_path / "out") as stage:
        (stage / "a.txt").write_text("a")
    assert leftovers(tmp_path) == []


def test_builds_into_one_folder_take_turns(tmp_path):
    """Two writers: each set is written whole, one after the other."""
    out = tmp_path / "out"
    inside = []

    def write(tag: str) -> None:
        with output_set(out) as stage:
            inside.append(tag)
            assert len(inside) == 1, "two builds staged at once"
            for name in ("a", "b", "c"):
                (stage / name).write_text(tag)
                time.sleep(0.05)
            inside.remove(tag)

    threads = [threading.Thread(target=write, args=(t,)) for t in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({p.read_text() for p in out.iterdir() if p.name != MANIFEST}) == 1


# ----------------------------------------------------------------------------- the CLI

BUILD = ["-m", "costmodel", "build", "--draws", "0"]


def _env() -> dict[str, str]:
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", PYTHONPATH=str(ROOT))
    env.pop("COVERAGE_PROCESS_START", None)
    return env


def _build(out: Path, price: str, wait: bool = True) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, *BUILD, "-o", str(out), "--set", f"power.price_per_kwh={price}"],
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    if wait:
        assert proc.wait(timeout=600) == 0, proc.stderr.read().decode()
    return proc


@pytest.fixture(scope="module")
def sets(tmp_path_factory) -> tuple[dict[str, str], dict[str, str], float, Path]:
    """Fingerprints of the old set (price 0.5) and the new set (price 0.9), how
    long a build takes, and the folder of the old set."""
    base = tmp_path_factory.mktemp("sets")
    _build(base / "old", "0.5")
    start = time.perf_counter()
    _build(base / "new", "0.9")
    seconds = time.perf_counter() - start
    old, new = fingerprints(base / "old"), fingerprints(base / "new")
    assert old.keys() == new.keys() and old != new
    return old, new, seconds, base / "old"


@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.3, 0.7, 0.85, 0.92, 0.97, 1.0, 1.05])
def test_sigkill_leaves_the_old_set_or_the_new(sets, tmp_path, fraction):
    old, new, seconds, old_folder = sets
    out = tmp_path / "out"
    shutil.copytree(old_folder, out)  # the set a build at price 0.5 wrote
    assert fingerprints(out) == old
    proc = _build(out, "0.9", wait=False)
    time.sleep(seconds * fraction)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    now = fingerprints(out)
    assert now in (old, new), f"mixed set after a kill at {fraction:.0%} of a build"
    assert not [n for n in now if n.endswith(".tmp") or n.startswith(".")]
    _build(out, "0.9")  # the next build clears what the killed one left beside
    assert fingerprints(out) == new
    assert leftovers(tmp_path) == []


@pytest.mark.slow
def test_two_concurrent_builds_do_not_interleave(sets, tmp_path):
    old, new, _, _ = sets
    out = tmp_path / "out"
    procs = [_build(out, "0.5", wait=False), _build(out, "0.9", wait=False)]
    for p in procs:
        assert p.wait(timeout=900) == 0, p.stderr.read().decode()
    assert fingerprints(out) in (old, new)
    assert leftovers(tmp_path) == []
