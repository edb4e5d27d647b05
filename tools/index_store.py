"""Saved indexes: versioned folders under ``<root>/NAME/``, swapped by one atomic rename.

Layout::

    <root>/.NAME.lock            the write lock (an exclusive ``flock``)
    <root>/NAME/CURRENT          one line: the version in use, ``v-<16 hex digits>``
    <root>/NAME/v-<hex>/         one complete index: manifest.json, passages, bm25/, dense/
    <root>/NAME/.build-PID/      a version being written (never read)

The swap (`publish`): a writer builds the new version in ``.build-PID``, fsyncs every file,
renames the folder to ``v-<digest of its manifest and a random salt>`` (a new name every
build), writes ``CURRENT`` to a temporary file,
fsyncs it and `os.replace`s it over ``CURRENT``, then fsyncs the folder. Only that replace
changes what readers see, so a SIGKILL at any instant leaves the old or the new version in
place. Old versions, build folders and the ``.NAME.tmp-*``/``.NAME.old-*`` folders of
earlier releases are removed after the flip, by the next writer, and by a reader that finds
the lock free (`tidy`).

A reader (`open_index`) reads ``CURRENT`` once and opens that version as a unit: the
manifest is checked (`tools.index_check`), then every part against the digest the manifest
records, then the arrays are memory-mapped (a map outlives the file's removal) and their
offsets checked. When that fails and ``CURRENT`` has changed meanwhile, a writer flipped and
removed the version being read: the reader opens the new one. A failure while ``CURRENT``
still names the version is real (writers remove only versions no longer current) and is
`DamagedIndex`: "saved index NAME is
damaged: WHAT; re-index with `agent index NAME PATH`"; `list_indexes` lists such an index as
damaged and `tools.index_build.build_index` rebuilds it from its source.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from corpora import check_name
from tools.bm25 import BM25
from tools.dense import DenseIndex
from tools.index_check import Damage, check_manifest, check_offsets, check_parts, read_json
from tools.retrievers import IndexedCorpus
from tools.stored_corpus import StoredCorpus, StoredPassages

FORMAT = "agentic-rag-index"
VERSION = 2
POINTER = "CURRENT"
_VERSION_RE = re.compile(r"v-[0-9a-f]{16}")
_OPEN_ATTEMPTS = 5
LOCK_WAIT_S = 1.0
"""How long a writer waits for the lock before refusing (readers hold it for milliseconds)."""
_T = TypeVar("_T")


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


@dataclass(frozen=True)
class IndexInfo:
    """One saved index, as `agent corpora` lists it (`damaged` says what is wrong, if any)."""

    name: str
    retriever: str
    files: int
    passages: int
    size: int
    built: str
    source: str
    damaged: str = ""


@dataclass(frozen=True)
class Version:
    """One opened version folder of a saved index and its checked manifest."""

    folder: Path
    manifest: dict[str, Any]


def indexes_root(home: Path) -> Path:
    """Where the saved indexes of a state directory live."""
    return home / "indexes"


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
        handle = open(root / f".{name}.lock", "a+b")  # noqa: SIM115 (closed by the caller)
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
        known = ", ".join(_saved_names(root)) or "none yet"
        raise IndexStoreError(
            f"no saved index {name!r} (saved: {known}); run `agent index`"
        ) from None
    except OSError as e:
        raise DamagedIndex(name, f"{POINTER} is unreadable ({e.strerror or e})") from None
    version = raw.decode("ascii", "replace").strip()
    if not _VERSION_RE.fullmatch(version):
        raise DamagedIndex(name, f"{POINTER} names no version")
    return folder / version


def read_version(root: Path, name: str) -> Version:
    """The checked current version of index `name` (manifest and part digests verified)."""
    return _retried(root, name, lambda folder: _checked(name, folder))


def open_index(root: Path, name: str) -> IndexedCorpus:
    """Open saved index `name` as one version (memory-mapped); IndexStoreError saying why."""
    check_name(name)
    with contextlib.suppress(IndexStoreError):
        tidy(root, name)
    return _opened(root, name)[1]


def _opened(root: Path, name: str) -> tuple[Version, IndexedCorpus]:
    """The current version of `name`, checked and memory-mapped."""

    def check_and_load(folder: Path) -> tuple[Version, IndexedCorpus]:
        version = _checked(name, folder)
        return version, _loaded(name, version)

    return _retried(root, name, check_and_load)


def _retried(root: Path, name: str, step: Callable[[Path], _T]) -> _T:
    """`step` on the current version folder, again on the new one if a writer flipped meanwhile.

    A failure counts only if ``CURRENT`` still names the same version afterwards: writers
    remove only versions that are no longer current, so that one is really damaged.
    """
    for _ in range(_OPEN_ATTEMPTS):
        folder = current_version(root, name)
        try:
            return step(folder)
        except (DamagedIndex, FileNotFoundError) as e:
            if current_version(root, name) != folder:
                continue
            if isinstance(e, DamagedIndex):
                raise
            raise DamagedIndex(name, f"{folder.name} is missing") from None
    raise IndexStoreError(f"saved index {name!r} is being rewritten; try again when it ends")


def _checked(name: str, folder: Path) -> Version:
    """Check one version folder's manifest and the digests of its parts."""
    if not folder.is_dir():
        raise FileNotFoundError(folder)
    source = ""
    try:
        manifest = read_json(folder / "manifest.json", "manifest.json")
        source = str(manifest.get("source", "")) if isinstance(manifest, dict) else ""
        check_manifest(manifest, name, FORMAT, VERSION)
        check_parts(folder, manifest["parts"])
    except Damage as e:
        raise DamagedIndex(name, str(e), source) from None
    return Version(folder, manifest)


def _loaded(name: str, version: Version) -> IndexedCorpus:
    """Memory-map the parts of a checked version and check their offsets."""
    folder, manifest = version.folder, version.manifest
    try:
        bm25 = BM25.load(folder / "bm25")
        dense = DenseIndex.load(folder / "dense") if manifest["retriever"] != "bm25" else None
        passages = StoredPassages(folder)
        check_offsets(folder, int(manifest["passages"]), len(bm25.doc_ids))
        if dense is not None and list(dense.doc_ids) != list(bm25.doc_ids):
            raise Damage("dense/ids.json does not match the BM25 ids")
    except (Damage, ValueError, KeyError, TypeError, IndexError, OSError) as e:
        raise DamagedIndex(name, " ".join(str(e).split()), _source(version)) from None
    corpus = StoredCorpus(name, passages, bm25.doc_ids, str(manifest["description"]))
    return IndexedCorpus(corpus, bm25, dense, str(manifest["retriever"]))


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


def list_indexes(root: Path) -> list[IndexInfo]:
    """Every saved index under `root`, by name; a damaged one says what is wrong."""
    infos = []
    for name in _saved_names(root):
        folder = root / name
        try:
            version, _ = _opened(root, name)
        except DamagedIndex as e:
            infos.append(IndexInfo(folder.name, "damaged", 0, 0, 0, "", "", e.what))
            continue
        except IndexStoreError:
            continue
        manifest = version.manifest
        size = sum(f.stat().st_size for f in version.folder.rglob("*") if f.is_file())
        infos.append(
            IndexInfo(
                folder.name,
                str(manifest["retriever"]),
                len(manifest["files"]),
                int(manifest["passages"]),
                size,
                str(manifest["built"]),
                str(manifest["source"]),
            )
        )
    return infos


def drop_index(root: Path, name: str) -> None:
    """Remove saved index `name`, damaged or not (refused while another process writes it)."""
    check_name(name)
    if not saved(root, name):
        raise IndexStoreError(f"no saved index {name!r}")
    with locked(root, name):
        retired = root / f".{name}.dropped-{os.getpid()}"
        (root / name).rename(retired)
        shutil.rmtree(retired, ignore_errors=True)
    (root / f".{name}.lock").unlink(missing_ok=True)


def _saved_names(root: Path) -> list[str]:
    """The names of the saved indexes under `root` (damaged ones too), sorted."""
    names = sorted(f.name for f in root.iterdir()) if root.is_dir() else []
    return [n for n in names if not n.startswith(".") and saved(root, n)]


def _source(version: Version) -> str:
    """The source folder a version was built from."""
    return str(version.manifest.get("source", ""))


def _legacy_source(folder: Path) -> str:
    """The source recorded by an index saved in the older, unversioned layout."""
    with contextlib.suppress(Damage):
        data = read_json(folder / "manifest.json", "manifest.json")
        if isinstance(data, dict) and isinstance(data.get("source"), str):
            return str(data["source"])
    return ""


def _shown_path(path: str, limit: int = 200) -> str:
    """A path as the repair hint shows it: quoted when needed, long ones cut in the middle."""
    import shlex

    quoted = shlex.quote(path)
    if len(quoted) > limit:
        return quoted[: limit // 2] + "..." + quoted[-limit // 2 :]
    return quoted


def _digest_of(path: Path, salt: bytes) -> str:
    """The sha256 hex digest of `salt` and a file's bytes."""
    import hashlib

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
