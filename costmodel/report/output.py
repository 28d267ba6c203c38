"""Write output files atomically: to a temporary file in the same directory,
then rename, so a failure never leaves a half-written file behind; and a set of
files (a build's workbook and memos) as one, with :func:`output_set` (docs: the
README's "The output folder")."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success it replaces ``path``,
    on error it is removed and ``path`` is left as it was."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_path, 0o666 & ~umask)  # mkstemp creates 0600; outputs are ordinary files
        os.replace(tmp_path, target)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def write_with(path: str | os.PathLike[str], writer: Callable[[Path], None]) -> Path:
    """Call ``writer(tmp_path)`` and move the result to ``path`` atomically."""
    with atomic_path(path) as tmp:
        writer(tmp)
    return Path(path)


# ----------------------------------------------------------------------------- output sets

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap directories ``a`` and ``b`` in one step (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(a))


def _staging_prefix(target: Path) -> str:
    return f".{target.name}.staging-"


#: The staging folder of a build written inside the output folder (in place).
INSIDE_PREFIX = ".costmodel-staging-"
#: Written last: the SHA-256 of every file of the set (``sha256sum -c`` reads it).
MANIFEST = "manifest.sha256"


def _writable(path: Path) -> bool:
    """Whether files can be created and removed in ``path``: the real test is
    the write itself, this only chooses the way that can work."""
    return os.access(path, os.W_OK | os.X_OK)


def _mount_points() -> set[str]:
    """The mount points of this process (``/proc/self/mountinfo``, where a bind
    mount shows even on the same file system); empty where there is none."""
    try:
        text = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    points = set()
    for line in text.splitlines():
        fields = line.split(" ")
        if len(fields) > 4:
            points.add(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4]))
    return points


def _swappable(target: Path) -> bool:
    """Whether ``target`` can be replaced by a folder staged beside it: not a mount
    point, in a folder this process can write, holding no subfolder (a subfolder is
    not the build's to copy or move)."""
    if os.path.ismount(target) or str(target) in _mount_points():
        return False
    if not _writable(target.parent):
        return False
    return not any(
        p.is_dir() and not p.is_symlink()
        for p in target.iterdir()
        if not p.name.startswith(INSIDE_PREFIX)
    )


def _remove_tree(path: Path) -> None:
    """Remove ``path`` and everything in it, a read-only folder (a 0555 output
    folder swapped out) included: a folder that refuses is made writable first."""

    def retry(func: Callable[..., object], name: str, _exc: object) -> None:
        parent = os.path.dirname(name)
        try:
            os.chmod(parent, stat.S_IRWXU)
            if os.path.isdir(name) and not os.path.islink(name):
                os.chmod(name, stat.S_IRWXU)
            func(name)
        except OSError:
            pass  # as much as can be removed is removed

    if path.is_symlink() or not path.exists():
        path.unlink(missing_ok=True)
        return
    with suppress(OSError):
        os.chmod(path, stat.S_IRWXU)
    shutil.rmtree(path, onerror=retry)


def _manifest(stage: Path) -> None:
    """``stage/manifest.sha256``: ``<sha256>  <name>`` for each file the build wrote."""
    lines = []
    for f in sorted(stage.iterdir()):
        if f.is_file() and f.name != MANIFEST:
            digest = hashlib.sha256()
            with f.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
            lines.append(f"{digest.hexdigest()}  {f.name}\n")
    (stage / MANIFEST).write_text("".join(lines), encoding="utf-8")


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class PreviousSetNotRestored(OSError):
    """A write in place failed part-way and the previous files could not all be put
    back: ``kept`` is the folder that still holds them (it is not removed)."""

    def __init__(self, cause: OSError, kept: Path, names: list[str]):
        super().__init__(cause.errno, cause.strerror, cause.filename)
        self.kept = kept
        self.names = names


#: The folder, inside a staging folder, of the previous files a write in place replaces.
PREVIOUS = ".previous"


def _in_the_way(stage: Path, target: Path) -> None:
    """Refuse, before anything of ``target`` is touched, an output name that is a
    folder there (a file cannot replace a folder in one step, nor should it)."""
    for f in sorted(stage.iterdir()):
        dest = target / f.name
        if f.name != PREVIOUS and dest.is_dir() and not dest.is_symlink():
            raise IsADirectoryError(
                errno.EISDIR, "a folder is where an output file goes", str(dest)
            )


def _replace_in_place(stage: Path, target: Path) -> None:
    """Move the staged files into ``target`` one at a time, each replacing its old
    file in one step: the manifest is removed first and written last, so a folder
    whose manifest is present and matches its files holds a complete set.

    Before anything is touched, an output name held by a folder is refused and each
    file about to be replaced is kept aside (a hard link in ``stage/.previous``, a
    copy where links fail); if a step fails, the files already moved in are taken
    out again and the kept ones put back, so ``target`` holds exactly its previous
    files. If even that fails, :class:`PreviousSetNotRestored` names the folder
    that still holds them."""
    _in_the_way(stage, target)
    new = sorted(
        (f for f in stage.iterdir() if f.name != PREVIOUS),
        key=lambda p: (p.name == MANIFEST, p.name),
    )
    kept = stage / PREVIOUS
    kept.mkdir()
    previous: list[str] = []
    for f in new:
        old = target / f.name
        if old.exists() or old.is_symlink():
            try:
                os.link(old, kept / f.name, follow_symlinks=False)
            except OSError:
                shutil.copy2(old, kept / f.name, follow_symlinks=False)
            previous.append(f.name)
    moved: list[str] = []
    try:
        (target / MANIFEST).unlink(missing_ok=True)
        _fsync_dir(target)
        for f in new:
            os.replace(f, target / f.name)
            moved.append(f.name)
        _fsync_dir(target)
    except BaseException as exc:
        _restore(target, kept, moved, previous, exc)
        raise


def _restore(
    target: Path, kept: Path, moved: list[str], previous: list[str], exc: BaseException
) -> None:
    """Undo a write in place: remove the files moved in that were not there before,
    put back the kept ones (the manifest included)."""
    failed: list[str] = []
    for name in set(moved) | ({MANIFEST} & set(previous)):
        try:
            if name in previous:
                os.replace(kept / name, target / name)
            else:
                (target / name).unlink(missing_ok=True)
        except OSError:
            failed.append(name)
    _fsync_dir(target)
    if failed:
        home = target / f"previous-files-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        try:  # out of the staging folder, which is removed
            os.rename(kept, home)
        except OSError:
            home = kept
        cause = exc if isinstance(exc, OSError) else OSError(errno.EIO, str(exc))
        raise PreviousSetNotRestored(cause, home, sorted(failed)) from exc


@contextmanager
def _lock(target: Path) -> Iterator[None]:
    """An exclusive lock held by the builds into ``target``: ``flock`` on its parent
    directory (no lock file to leave behind; the kernel drops it when a process dies)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(target.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


@contextmanager
def output_set(directory: str | os.PathLike[str]) -> Iterator[Path]:
    """Write a set of files as one: yield an empty staging folder; when the block
    succeeds, the files it wrote and :data:`MANIFEST` (their SHA-256, written last)
    replace the previous set. Files of ``directory`` the block does not write, and
    its subfolders, are kept and not copied.

    - A new folder, or one whose parent this process can write and which holds no
      subfolder: staged beside ``directory`` (``.NAME.staging-*``), the previous
      files the block did not write hard-linked in, and swapped with ``directory``
      in one step. A reader sees the old set or the new, never a mix.
    - A mount point (a tmpfs, ``docker -v host:/out``; a folder cannot be moved
      off it), a folder in a parent this process cannot write, or one with
      subfolders: staged inside it (``.costmodel-staging-*``), then the manifest is
      removed, each file replaced in one step (old or new, never half-written),
      and the manifest written last. Part-way a reader can see some new files
      beside old ones and no manifest; the set is complete when ``sha256sum -c
      manifest.sha256`` passes.

    If the block fails, ``directory`` keeps its previous files and the staging
    folder is removed; one left by a killed build is removed by the next build into
    the same folder. Builds into one folder take turns (a lock on the parent
    folder). Where the system cannot swap two folders in one step (not Linux), the
    files are moved in one at a time as in place.
    """
    target = Path(directory).resolve()  # a symlinked folder: swap where it points
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(f"{target} exists and is not a directory")
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
    with _lock(target):
        for stale in [
            *target.parent.glob(_staging_prefix(target) + "*"),
            *(target.glob(INSIDE_PREFIX + "*") if target.is_dir() else ()),
        ]:
            _remove_tree(stale)  # left by a killed build
        swap = not target.exists() or _swappable(target)
        where = target.parent if swap else target
        prefix = _staging_prefix(target) if swap else INSIDE_PREFIX
        stage = Path(tempfile.mkdtemp(prefix=prefix, dir=where))
        try:
            yield stage
            _manifest(stage)
            if not swap:
                _replace_in_place(stage, target)
            elif not target.exists():
                os.chmod(stage, 0o777 & ~_umask())
                os.rename(stage, target)
            else:
                _swap(stage, target)
        except PreviousSetNotRestored as exc:
            if exc.kept.is_relative_to(stage):  # it holds the previous files: kept
                stage = exc.kept.parent / "nothing-to-remove"
            raise
        finally:
            _remove_tree(stage)


def _swap(stage: Path, target: Path) -> None:
    """Hard-link (or copy) the files of ``target`` the build did not write into
    ``stage`` (a stale manifest excepted), then exchange the two folders."""
    os.chmod(stage, stat.S_IMODE(target.stat().st_mode))
    for old in target.iterdir():  # keep what this build does not write
        new = stage / old.name
        if new.exists() or new.is_symlink() or old.name.startswith(INSIDE_PREFIX):
            continue
        try:
            os.link(old, new, follow_symlinks=False)
        except OSError:
            shutil.copy2(old, new, follow_symlinks=False)
    try:
        swapped = _exchange(stage, target)
    except OSError as exc:
        if exc.errno not in (errno.EBUSY, errno.EXDEV, errno.EPERM, errno.EACCES):
            raise
        swapped = False  # a mount point /proc did not show: one file at a time
    if not swapped:
        _replace_in_place(stage, target)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def source_date_epoch() -> int | None:
    """``SOURCE_DATE_EPOCH`` (reproducible builds: the date written into outputs),
    or None if unset or empty. Raises ``ValueError`` naming the variable if it is
    not a whole number of seconds since 1970 within the years 1970-9999."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) >= 253402300800:  # 10000-01-01
        raise ValueError(
            f"SOURCE_DATE_EPOCH={raw[:40]!r}: must be a whole number of seconds since "
            "1970-01-01 UTC (e.g. 1700000000), or unset"
        )
    return int(raw)
