"""The session's spreadsheet recalculations: LibreOffice and Gnumeric (independent
engines, not code under test) recalculate the workbooks the e2e tests write.

:class:`Recalc` takes a batch of workbooks: LibreOffice recalculates a batch in
one ``soffice`` start (the start costs about a second of CPU, more on a busy
machine), Gnumeric runs ``ssconvert`` on two files at a time. Each workbook is
recalculated once per engine however many tests ask for it, and the results of
one batch never overwrite another's. The ``recalc`` fixture in
``tests/conftest.py`` is the one instance of a session; the e2e modules use it
(through ``by_libreoffice`` and ``by_gnumeric`` in ``tests/e2e/conftest.py``, or
directly for the workbooks they edit).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.support import gnumeric
from tests.support.libreoffice import recalculate_many


class Recalc:
    """Recalculated copies of workbooks, written below ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._done: dict[tuple[str, Path, int, int], Path] = {}
        self._batches = itertools.count()

    @staticmethod
    def _key(engine: str, source: Path) -> tuple[str, Path, int, int]:
        """A workbook as it is now: a file written again is recalculated again."""
        stat = source.stat()
        return engine, source, stat.st_mtime_ns, stat.st_size

    def _folder(self, engine: str) -> Path:
        return self.root / f"{engine}-{next(self._batches)}"

    def libreoffice(self, sources: Iterable[Path]) -> list[Path]:
        """Each of ``sources`` opened, recalculated and saved as xlsx by LibreOffice;
        those not yet recalculated in one ``soffice`` start per distinct file name
        (LibreOffice names its output after the source)."""
        keys = [self._key("libreoffice", Path(s).resolve()) for s in sources]
        todo = list(dict.fromkeys(k for k in keys if k not in self._done))
        while todo:
            batch, names, rest = [], set(), []
            for k in todo:
                (rest if k[1].name in names else batch).append(k)
                names.add(k[1].name)
            outs = recalculate_many([k[1] for k in batch], self._folder("lo"))
            self._done.update(zip(batch, outs, strict=True))
            todo = rest
        return [self._done[k] for k in keys]

    def gnumeric(self, sources: Iterable[Path]) -> list[Path]:
        """Each of ``sources`` recalculated by Gnumeric's ``ssconvert --recalc``, two
        at a time."""
        keys = [self._key("gnumeric", Path(s).resolve()) for s in sources]
        todo = list(dict.fromkeys(k for k in keys if k not in self._done))
        folders = [self._folder("gnumeric") for _ in todo]
        with ThreadPoolExecutor(max_workers=2) as pool:
            outs = list(pool.map(gnumeric.recalculate, [k[1] for k in todo], folders))
        self._done.update(zip(todo, outs, strict=True))
        return [self._done[k] for k in keys]
