"""A saved index on disk: versioned folders under ``<root>/NAME/``, flipped by one rename.

Layout::

    <root>/.NAME.lock            the write lock (an exclusive ``flock``)
    <root>/NAME/CURRENT          one line: the version in use, ``v-<16 hex digits>``
    <root>/NAME/v-<hex>/         one complete index: manifest.json, passages, bm25/, dense/
    <root>/NAME/.build-PID/      a version being written (never read)

The swap (`publish`): a writer (holding `locked`) builds the new version in ``.build-PID``,
fsyncs every file, renames the folder to ``v-<digest of its manifest and a random salt>`` (a
new name every build), writes ``CURRENT`` to a temporary file, fsyncs it and `os.replace`s it
over ``CURRENT``, then fsyncs the folder. Only that replace changes what readers see, so a
SIGKILL at any instant leaves the old or the new version in place. Old versions, build
folders and the ``.NAME.tmp-*``/``.NAME.old-*`` folders of earlier releases are removed after
the flip, by the next writer, and by a reader that finds leftovers and the lock free (`tidy`);
that reader holds the lock for milliseconds, so a writer waits up to `LOCK_WAIT_S` for it.
Writers never remove the version ``CURRENT`` names, which is what lets a reader
(`tools.index_store`) tell a flip from damage.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tools.index_check import Damage, read_json

POINTER = "CURRENT"
_VERSION_RE = re.compile(r"v-[0-9a-f]{16}")
LOCK_WAIT_S = 1.0
"""How long a writer waits for the lock before refusing (readers hold it for milliseconds)."""


def indexes_root(home: Path) -> Path:
    """Where the saved indexes of a state directory live."""
    return home / "indexes"


class IndexStoreError(ValueError):
    """A saved index that cannot be built, opened or dropped (one line, for the user)."""


class DamagedIndex(IndexStoreError):
    """A saved index whose files are not what its build wrote (one line naming what)."""

    def __init__(self, name: str, what: str, source: str = "") -> None:
        path = _shown_path(source) if source else "PATH"
        super().__init__(
            f"saved index {name!r} is damaged: {what}; re-index with `agent index {name} {path}`"
        )
        self.what = what


@contextlib.contextmanager
def locked(root: Path, name: str) -> Iterator[None]:
    """Hold the exclusive write lock of index `name`; refuse if another process holds it.

    A reader tidying leftovers holds the lock for milliseconds, so a writer tries again for
    up to `LOCK_WAIT_S` before refusing.
    """
    held: list[Any] = []
    deadline = time.monotonic() + LOCK_WAIT_S
    while not _try_lock(root, name, held):
        if time.monotonic() >= deadline:
            break
        time.sleep(0.02)
    if not held:
        raise IndexStoreError(
            f"index {name!r} is being written by another process; try again when it ends"
        )
    try:
        yield
    finally:
        held[0].close()


def _try_lock(root: Path, name: str, held: list[Any]) -> bool:
    """Take the write lock without waiting; on success the open lock file is put in `held`."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(root / f".{name}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        handle = os.fdopen(fd, "r+b")  # closed by the caller (never through a planted link)
    except NotADirectoryError:
        raise IndexStoreError(f"{root}: not a folder (the saved indexes live there)") from None
    except OSError as e:
        raise IndexStoreError(f"{root}: cannot write there: {e.strerror or e}") from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return False
    held.append(handle)
    return True


def saved(root: Path, name: str) -> bool:
    """Whether `root` holds a saved index called `name` (damaged or not)."""
    folder = root / name
    return folder.is_dir() and any((folder / f).exists() for f in (POINTER, "manifest.json"))


def current_version(root: Path, name: str) -> Path:
    """The version folder ``CURRENT`` names; IndexStoreError if none, DamagedIndex if bad."""
    folder = root / name
    try:
        with open(folder / POINTER, "rb") as handle:
            raw = handle.read(64)
    except (FileNotFoundError, NotADirectoryError):
        if (folder / "manifest.json").exists():
            raise DamagedIndex(name, "saved in an older format", _legacy_source(folder)) from None
        known = ", ".join(saved_names(root)) or "none yet"
        raise IndexStoreError(
            f"no saved index {name!r} (saved: {known}); run `agent index`"
        ) from None
    except OSError as e:
        raise DamagedIndex(name, f"{POINTER} is unreadable ({e.strerror or e})") from None
    version = raw.decode("ascii", "replace").strip()
    if not _VERSION_RE.fullmatch(version):
        raise DamagedIndex(name, f"{POINTER} names no version")
    return folder / version


def publish(root: Path, name: str, build: Path) -> Path:
    """Make the finished folder `build` the current version of `name` (hold `locked`)."""
    folder = root / name
    _fsync_tree(build)
    target = folder / f"v-{_digest_of(build / 'manifest.json', salt=os.urandom(16))[:16]}"
    os.rename(build, target)  # a new name every build: a damaged twin is never kept
    _fsync(folder)
    pointer = folder / f".{POINTER}.tmp-{os.getpid()}"
    with open(pointer, "w", encoding="ascii") as handle:
        handle.write(target.name + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(pointer, folder / POINTER)
    _fsync(folder)
    return target


def build_folder(root: Path, name: str) -> Path:
    """A fresh, empty folder for the next version of `name` (hold `locked`)."""
    build = root / name / f".build-{os.getpid()}"
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    return build


def tidy(root: Path, name: str) -> None:
    """Remove what a killed or finished writer left, when no writer holds the lock."""
    held: list[Any] = []
    if not _has_leftovers(root, name) or not _try_lock(root, name, held):
        return
    try:
        remove_leftovers(root, name)
    finally:
        held[0].close()


def _has_leftovers(root: Path, name: str) -> bool:
    """Whether index `name` has anything but ``CURRENT`` and one version, or old temporaries."""
    folder = root / name
    if not saved(root, name):
        return False
    return len(list(folder.iterdir())) > 2 or any(root.glob(f".{name}.*-*"))


def remove_leftovers(root: Path, name: str) -> None:
    """Delete every version but the current one, build folders and old temporaries (locked)."""
    for stale in root.glob(f".{name}.*-*"):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)
    folder = root / name
    try:
        keep = current_version(root, name).name
    except IndexStoreError:
        keep = None
    if keep is None or not folder.is_dir():
        for build in folder.glob(".build-*") if folder.is_dir() else []:
            shutil.rmtree(build, ignore_errors=True)
        return
    for entry in folder.iterdir():
        if entry.name in (keep, POINTER):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def saved_names(root: Path) -> list[str]:
    """The names of the saved indexes under `root` (damaged ones too), sorted."""
    names = sorted(f.name for f in root.iterdir()) if root.is_dir() else []
    return [n for n in names if not n.startswith(".") and saved(root, n)]


def _legacy_source(folder: Path) -> str:
    """The source recorded by an index saved in the older, unversioned layout."""
    with contextlib.suppress(Damage):
        data = read_json(folder / "manifest.json", "manifest.json")
        if isinstance(data, dict) and isinstance(data.get("source"), str):
            return str(data["source"])
    return ""


def _shown_path(path: str, limit: int = 200) -> str:
    """A path as the repair hint shows it: quoted when needed, long ones cut in the middle."""
    quoted = shlex.quote(path)
    if len(quoted) > limit:
        return quoted[: limit // 2] + "..." + quoted[-limit // 2 :]
    return quoted


def _digest_of(path: Path, salt: bytes) -> str:
    """The sha256 hex digest of `salt` and a file's bytes."""
    digest = hashlib.sha256(salt)
    digest.update(path.read_bytes())
    return digest.hexdigest()


def _fsync(path: Path) -> None:
    """Flush a file or folder to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(folder: Path) -> None:
    """Flush every file and folder below `folder`, then `folder` itself."""
    for dirpath, _dirnames, filenames in os.walk(folder):
        for fname in filenames:
            _fsync(Path(dirpath) / fname)
        _fsync(Path(dirpath))
