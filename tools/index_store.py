"""Saved indexes: ``<root>/NAME/`` with a manifest, the passages, BM25 arrays and vectors.

This module opens, lists and drops them and owns their lock; `tools.index_build` writes them.
`open_index` opens one in milliseconds (everything memory-mapped; passages parsed on demand).
A writer holds an exclusive ``flock`` on ``.NAME.lock``, so a second writer (or a drop during
a write) is refused with one line.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpora import check_name
from tools.bm25 import BM25
from tools.dense import DenseIndex
from tools.retrievers import IndexedCorpus
from tools.stored_corpus import StoredCorpus, StoredPassages

FORMAT = "agentic-rag-index"
VERSION = 1


class IndexStoreError(ValueError):
    """A saved index that cannot be built, opened or dropped (one line, for the user)."""


@dataclass(frozen=True)
class IndexInfo:
    """One saved index, as `agent corpora` lists it."""

    name: str
    retriever: str
    files: int
    passages: int
    size: int
    built: str
    source: str


def indexes_root(home: Path) -> Path:
    """Where the saved indexes of a state directory live."""
    return home / "indexes"


@contextlib.contextmanager
def locked(root: Path, name: str) -> Iterator[None]:
    """Hold the exclusive write lock of index `name`; refuse if another process holds it."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".{name}.lock", "a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexStoreError(
                f"index {name!r} is being written by another process; try again when it ends"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest of a saved index, or None if there is none or it is not ours."""
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(data, dict) and data.get("format") == FORMAT and data.get("version") == VERSION
    return data if ok else None


def saved(root: Path, name: str) -> bool:
    """Whether `root` holds a saved index called `name`."""
    return read_manifest(root / name) is not None


def open_index(root: Path, name: str) -> IndexedCorpus:
    """Open saved index `name` (memory-mapped); IndexStoreError naming what is wrong."""
    check_name(name)
    folder = root / name
    manifest = read_manifest(folder)
    if manifest is None:
        known = ", ".join(i.name for i in list_indexes(root)) or "none yet"
        raise IndexStoreError(f"no saved index {name!r} (saved: {known}); run `agent index`")
    try:
        bm25 = BM25.load(folder / "bm25")
        dense = DenseIndex.load(folder / "dense") if manifest["retriever"] != "bm25" else None
        passages = StoredPassages(folder)
    except ValueError as e:
        raise IndexStoreError(f"saved index {name!r} is damaged: {e}") from None
    corpus = StoredCorpus(name, passages, bm25.doc_ids, str(manifest.get("description", "")))
    return IndexedCorpus(corpus, bm25, dense, str(manifest["retriever"]))


def list_indexes(root: Path) -> list[IndexInfo]:
    """Every saved index under `root`, by name."""
    infos = []
    for folder in sorted(root.iterdir()) if root.is_dir() else []:
        manifest = read_manifest(folder) if not folder.name.startswith(".") else None
        if manifest is None:
            continue
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
        infos.append(
            IndexInfo(
                folder.name,
                str(manifest["retriever"]),
                len(manifest.get("files", {})),
                int(manifest.get("passages", 0)),
                size,
                str(manifest.get("built", "")),
                str(manifest.get("source", "")),
            )
        )
    return infos


def drop_index(root: Path, name: str) -> None:
    """Remove saved index `name` (refused while another process writes it)."""
    check_name(name)
    if read_manifest(root / name) is None:
        raise IndexStoreError(f"no saved index {name!r}")
    with locked(root, name):
        retired = root / f".{name}.dropped-{os.getpid()}"
        (root / name).rename(retired)
        shutil.rmtree(retired, ignore_errors=True)
    (root / f".{name}.lock").unlink(missing_ok=True)
