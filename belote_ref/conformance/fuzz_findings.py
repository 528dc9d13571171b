"""A fuzz run's findings as they are made: shrunk disagreements told apart by shape, and their
fixture files written at once, never through a symlink nor over a file this run did not write.

Shards shrink their disagreements as they find them and hand each one over with its fixture
(:class:`Findings`). Two disagreements that shrink to the same shape are one finding; the finding
shows the one of the lowest situation number, so that the findings of ``--jobs J`` are those of one
job whatever order the shards' disagreements arrive in. A finding's file is written as soon as the
finding is made (:class:`FindingFiles`), and written again only when a disagreement of a lower
number, from another shard, takes its place.

Writing a file. A new finding's file is created with ``O_CREAT | O_EXCL | O_NOFOLLOW``: a path that
exists in any form (a file, a symlink, even one that points nowhere) is never opened. When it exists,
holding exactly the text this finding would write, the finding is taken as written (the same run
again). Otherwise the file is somebody's (an edited finding, another run's, a link the user made)
and the finding goes to the first free name ``<id>-2.yaml``, ``<id>-3.yaml``, ..., its id renamed
with it so that the folder never holds two fixtures of one id. A file this run wrote is replaced
(a new file renamed over it) only while it is a regular file holding what this run wrote.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_ref.conformance.fmt import format_fixture
from belote_ref.core.errors import BeloteRefError

__all__ = ["Disagreement", "Finding", "FindingFiles", "Findings", "check_out_folder"]

MAX_NAMES = 1000
"""How many names ``<id>-N.yaml`` are tried before a finding is refused a file."""


@dataclass
class Disagreement:
    """One situation whose answer differs from the reference engine's, before or after shrinking."""

    index: int
    kind: str
    given: Mapping[str, Any]
    ruleset_id: str
    params: Mapping[str, Any]
    expected: Any
    outcome: str
    got: Any
    message: str
    differences: list[str]
    steps: int = 0
    shape: str = ""
    shrink_calls: int = 0


@dataclass
class Finding:
    """A distinct shrunk disagreement: the one of the lowest situation number of its shape, how many
    shrank to it, its fixture, and where the fixture was written (None: not written)."""

    disagreement: Disagreement
    count: int
    fixture: dict[str, Any]
    path: Path | None = None
    indices: set[int] = field(default_factory=set)


class Findings:
    """The distinct findings of a run, kept as shrunk disagreements arrive (in any order, a
    disagreement possibly twice when a shard was run again). ``on_change(finding)`` is called when a
    finding is new or shows another disagreement (a lower-numbered one of its shape)."""

    def __init__(self, on_change: Callable[[Finding], None] | None = None) -> None:
        self.on_change = on_change
        self._by_shape: dict[str, Finding] = {}

    def add(self, disagreement: Disagreement, fixture: dict[str, Any] | None) -> None:
        """Take a shrunk disagreement; ``fixture`` is its fixture when its shard built one (for the
        first disagreement of each shape the shard shrank), else None."""
        finding = self._by_shape.get(disagreement.shape)
        if finding is None:
            if fixture is None:
                # A shard builds the fixture of the first of each shape it shrinks, and this one's
                # first, of a lower number, has always been handed over before it.
                return
            finding = self._by_shape[disagreement.shape] = Finding(disagreement, 0, fixture)
            changed = True
        else:
            changed = fixture is not None and disagreement.index < finding.disagreement.index
            if changed and fixture is not None:
                finding.disagreement, finding.fixture = disagreement, fixture
        finding.indices.add(disagreement.index)
        finding.count = len(finding.indices)
        if changed and self.on_change is not None:
            self.on_change(finding)

    def ordered(self) -> list[Finding]:
        """The findings in the order of their situations."""
        return sorted(self._by_shape.values(), key=lambda finding: finding.disagreement.index)


def check_out_folder(folder: Path) -> None:
    """Refuse (a usage error) an ``--out`` that is not a folder and cannot be made one: an existing
    file, or a path under a file; checked before the run, so that no finding is lost at its end."""
    if folder.exists() and not folder.is_dir():
        raise BeloteRefError(f"--out {folder}: not a folder", code="usage")
    ancestor = folder
    while not ancestor.exists():
        if ancestor.parent == ancestor:
            break
        ancestor = ancestor.parent
    if ancestor.exists() and not ancestor.is_dir():
        raise BeloteRefError(f"--out {folder}: {ancestor} is not a folder", code="usage")
    if ancestor.exists() and not os.access(ancestor, os.W_OK | os.X_OK):
        raise BeloteRefError(f"--out {folder}: {ancestor} is not writable", code="usage")


class FindingFiles:
    """Writes each finding's fixture in ``folder`` (made when the first finding is written) as
    described in the module docstring. ``refused`` lists the findings that got no file, each with
    why, in one line."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: dict[Path, str] = {}  # the files this run wrote, with their text
        self.refused: list[str] = []

    def write(self, finding: Finding) -> None:
        """Write (or write again) ``finding``'s fixture and set ``finding.path``."""
        base_id = str(finding.fixture["id"])  # as the shard built it: a fresh fixture at each change
        if finding.path is not None and self._replace_own(finding, finding.path):
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._refuse(finding, f"{self.folder}: cannot make the folder: {error.strerror}")
            return
        for number in range(1, MAX_NAMES + 1):
            fixture_id = base_id if number == 1 else f"{base_id}-{number}"
            fixture = {**finding.fixture, "id": fixture_id}
            text = format_fixture(fixture)
            path = self.folder / f"{fixture_id}.yaml"
            try:
                self._create(path, text)
            except FileExistsError:
                if self._holds(path, text):
                    self._taken(finding, fixture, path, text)
                    return
                continue
            except OSError as error:
                self._refuse(finding, f"{path}: cannot write: {error.strerror}")
                return
            self._taken(finding, fixture, path, text)
            return
        self._refuse(finding, f"{self.folder}: {MAX_NAMES} files named {base_id}*.yaml already; finding not written")

    def _taken(self, finding: Finding, fixture: dict[str, Any], path: Path, text: str) -> None:
        finding.fixture, finding.path = fixture, path
        self.written[path] = text

    def _refuse(self, finding: Finding, why: str) -> None:
        finding.path = None
        self.refused.append(why)

    def _replace_own(self, finding: Finding, path: Path) -> bool:
        """Write ``finding`` again over the file this run wrote at ``path``, if it is still that."""
        own = self.written.get(path)
        if own is None or not self._holds(path, own):
            return False
        fixture = {**finding.fixture, "id": path.stem}
        text = format_fixture(fixture)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            self._create(temporary, text)
            os.replace(temporary, path)  # a rename replaces the entry: nothing is followed
        except OSError:
            temporary.unlink(missing_ok=True)
            return False
        self._taken(finding, fixture, path, text)
        return True

    @staticmethod
    def _create(path: Path, text: str) -> None:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)

    @staticmethod
    def _holds(path: Path, text: str) -> bool:
        """Whether ``path`` is a regular file (not a link) holding exactly ``text``."""
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOENT, errno.EACCES, errno.ENXIO):
                return False
            raise
        with os.fdopen(descriptor, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return False
            data = stream.read(len(text.encode("utf-8")) + 1)
        return data == text.encode("utf-8")
