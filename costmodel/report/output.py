"""Write output files atomically: to a temporary file in the same directory,
then rename, so a failure never leaves a half-written file behind; and a set of
files (a build's workbook and memos) as one, with :func:`output_set`."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    """Write a set of files as one: yield an empty staging folder beside
    ``directory``; when the block succeeds, the staging folder (plus any files of
    ``directory`` the block did not write) replaces ``directory`` in one step.

    If the block fails, or the process is killed, ``directory`` keeps its previous
    files and no file in it is touched. Builds into one folder take turns (a lock
    on the parent folder). A staging folder left by a killed build is removed by
    the next build into the same folder. Where the system cannot swap two folders
    in one step (not Linux), the files are moved in one at a time instead.
    """
    target = Path(directory).resolve()  # a symlinked folder: swap where it points
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(f"{target} exists and is not a directory")
    with _lock(target):
        for stale in target.parent.glob(_staging_prefix(target) + "*"):
            shutil.rmtree(stale, ignore_errors=True)  # left by a killed build
        stage = Path(tempfile.mkdtemp(prefix=_staging_prefix(target), dir=target.parent))
        try:
            yield stage
            if not target.exists():
                os.chmod(stage, 0o777 & ~_umask())
                os.rename(stage, target)
                return
            os.chmod(stage, stat.S_IMODE(target.stat().st_mode))
            for old in target.iterdir():  # keep what this build does not write
                new = stage / old.name
                if new.exists() or new.is_symlink():
                    continue
                if old.is_dir() and not old.is_symlink():
                    shutil.copytree(old, new, symlinks=True)
                else:
                    try:
                        os.link(old, new, follow_symlinks=False)
                    except OSError:
                        shutil.copy2(old, new, follow_symlinks=False)
            if not _exchange(stage, target):
                for f in stage.iterdir():
                    os.replace(f, target / f.name)
        finally:
            shutil.rmtree(stage, ignore_errors=True)


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
