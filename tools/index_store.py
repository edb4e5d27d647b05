"""Saved indexes opened, listed and dropped; their layout and swap are `tools.index_versions`.

A reader (`open_index`) reads ``CURRENT`` once and opens that version as a unit: the
manifest is checked (`tools.index_check`), then every part against the digest the manifest
records, then the arrays are memory-mapped (a map outlives the file's removal) and their
offsets checked. When that fails and ``CURRENT`` has changed meanwhile, a writer flipped and
removed the version being read: the reader opens the new one. A failure while ``CURRENT``
still names the version is real (writers remove only versions no longer current) and is
`DamagedIndex`: "saved index NAME is damaged: WHAT; re-index with `agent index NAME PATH`".
`list_indexes` lists such an index as damaged, `drop_index` removes it, and
`tools.index_build.build_index` rebuilds it from its source.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from corpora import check_name
from tools.bm25 import BM25
from tools.dense import DenseIndex
from tools.index_check import Damage, check_manifest, check_offsets, check_parts, read_json
from tools.index_versions import (
    DamagedIndex,
    IndexStoreError,
    current_version,
    locked,
    saved,
    saved_names,
    tidy,
)
from tools.retrievers import IndexedCorpus
from tools.stored_corpus import StoredCorpus, StoredPassages

FORMAT = "agentic-rag-index"
VERSION = 2
_OPEN_ATTEMPTS = 5
_T = TypeVar("_T")


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


def list_indexes(root: Path) -> list[IndexInfo]:
    """Every saved index under `root`, by name; a damaged one says what is wrong."""
    infos = []
    for name in saved_names(root):
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


def _source(version: Version) -> str:
    """The source folder a version was built from."""
    return str(version.manifest.get("source", ""))
