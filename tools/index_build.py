"""Build a saved index from a ``.jsonl`` file, a document or a folder (`corpora.documents`).

Run again, `build_index` re-reads only files whose size, modification time or content changed,
reuses the passages and vectors of the others, and drops deleted files. Under the index's
exclusive lock (`tools.index_versions.locked`) it writes a new version folder, records the
sha256 of every part in the manifest, and makes it current with one atomic replace
(`tools.index_versions.publish`), so a reader never sees half an index and a SIGKILL at any
point leaves the old or the new one. A damaged old index is not reused: it is rebuilt from
the source. A built-in corpus name (``policy``) is refused: ``--corpus policy`` means the
built-in.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from corpora import BUILTIN_CORPORA, CorpusError, check_name, describe, load_corpus
from corpora.documents import read_chunks, scan_folder, skip_summary
from corpora.files import SkipFile, read_regular
from corpora.loader import passages_of
from tools.bm25 import BM25
from tools.dense import DenseIndex, normalize
from tools.index_check import part_digests
from tools.index_store import FORMAT, VERSION, read_version
from tools.index_versions import (
    IndexStoreError,
    build_folder,
    locked,
    publish,
    remove_leftovers,
)
from tools.retrievers import check_retriever, default_encoder
from tools.stored_corpus import StoredPassages, passage_record, write_passages

Progress = Callable[[int, int, str], None]
"""Called with (files done, files in all, current file) while a folder is read."""


@dataclass
class BuildSummary:
    """What one `build_index` did."""

    name: str
    retriever: str
    read: int = 0
    unchanged: int = 0
    removed: int = 0
    passages: int = 0
    embedded: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        """The one summary line the ``index`` command prints."""
        files = "file" if self.read + self.unchanged == 1 else "files"
        parts = [
            f"indexed {self.name} ({self.retriever}): {self.read + self.unchanged} {files} "
            f"({self.read} read, {self.unchanged} unchanged)",
            f"{self.passages} passage{'' if self.passages == 1 else 's'}",
            skip_summary(self.skipped),
        ]
        if self.removed:
            parts.append(f"{self.removed} removed")
        return ", ".join(parts) + f", {self.seconds:.1f} s"


def build_index(
    root: Path,
    name: str,
    source: Path,
    retriever: str = "bm25",
    *,
    encoder: Any = None,
    progress: Progress | None = None,
) -> BuildSummary:
    """Build or refresh index `name` from `source`; see the module docstring."""
    check_name(name)
    if name in BUILTIN_CORPORA:
        raise IndexStoreError(
            f"{name!r} is the name of a built-in corpus (--corpus {name} means the built-in); "
            "choose another name"
        )
    check_retriever(retriever)
    started = time.perf_counter()
    if not source.exists():
        raise CorpusError("no such file or folder", source)
    with locked(root, name):
        remove_leftovers(root, name)
        old, old_dir = _reusable(root, name)
        summary = BuildSummary(name, retriever)
        records, files = _collect(source, old, old_dir, summary, progress)
        if not records:
            raise CorpusError(f"nothing to index ({skip_summary(summary.skipped)})", source)
        tmp = build_folder(root, name)
        try:
            _write(tmp, name, source, retriever, records, files, old, old_dir, encoder, summary)
            publish(root, name, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        remove_leftovers(root, name)
    summary.passages = len(records)
    summary.seconds = time.perf_counter() - started
    return summary


def _reusable(root: Path, name: str) -> tuple[dict[str, Any] | None, Path]:
    """The current version's manifest and folder, when it is sound enough to reuse."""
    try:
        version = read_version(root, name)
    except IndexStoreError:  # none yet, or damaged: build from scratch
        return None, root / name
    return version.manifest, version.folder


def _collect(
    source: Path,
    old: dict[str, Any] | None,
    old_dir: Path,
    summary: BuildSummary,
    progress: Progress | None,
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Passage records and file entries, reusing the old index's for unchanged files."""
    previous: dict[str, dict[str, Any]] = dict((old or {}).get("files", {}))
    old_passages = StoredPassages(old_dir) if old else None
    if source.is_dir():
        scan = scan_folder(source)
        candidates, summary.skipped = scan.files, list(scan.skipped)
    else:
        candidates = [(source.name, source)]
    records: list[dict[str, Any]] = []
    files: dict[str, dict[str, Any]] = {}
    for done, (rel, path) in enumerate(candidates, start=1):
        if progress is not None:
            progress(done, len(candidates), rel)
        entry, new = _file_records(rel, path, previous.get(rel), old_passages, summary)
        if entry is not None:
            files[rel] = entry
            records += new
    summary.removed = len(set(previous) - set(files) - {rel for rel, _ in summary.skipped})
    return records, files


def _file_records(
    rel: str,
    path: Path,
    before: dict[str, Any] | None,
    old_passages: StoredPassages | None,
    summary: BuildSummary,
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """One file's manifest entry and passage records (reused when its content is the same)."""
    try:
        stat = path.stat()
    except OSError:
        summary.skipped.append((rel, "unreadable"))
        return None, []
    if before and old_passages is not None and _same_stat(before, stat):
        summary.unchanged += 1
        return before, _old_records(old_passages, before)
    try:
        data = read_regular(path)
    except SkipFile as e:
        summary.skipped.append((rel, e.reason))
        return None, []
    digest = hashlib.sha256(data).hexdigest()
    entry = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": digest}
    if before and old_passages is not None and before.get("sha256") == digest:
        summary.unchanged += 1
        return {**before, **entry}, _old_records(old_passages, before)
    try:
        if path.suffix.lower() == ".jsonl":
            passages = list(load_corpus(path, name="source").passages)
        else:
            passages = passages_of(rel, read_chunks(path, rel, data), path)
    except SkipFile as e:
        summary.skipped.append((rel, e.reason))
        return None, []
    summary.read += 1
    records = [passage_record(p, rel) for p in passages]
    return {**entry, "first": -1, "count": len(records)}, records


def _same_stat(before: dict[str, Any], stat: os.stat_result) -> bool:
    """Whether size and modification time are what the manifest recorded."""
    return before.get("size") == stat.st_size and before.get("mtime_ns") == stat.st_mtime_ns


def _old_records(old: StoredPassages, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The saved passage records of one unchanged file."""
    first, count = int(entry["first"]), int(entry["count"])
    return [old.record(i) for i in range(first, first + count)]


def _write(
    tmp: Path,
    name: str,
    source: Path,
    retriever: str,
    records: list[dict[str, Any]],
    files: dict[str, dict[str, Any]],
    old: dict[str, Any] | None,
    old_dir: Path,
    encoder: Any,
    summary: BuildSummary,
) -> None:
    """Write passages, BM25, vectors (for dense and hybrid) and the manifest into `tmp`."""
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise CorpusError(f"duplicate passage id {dup!r}", source)
    position = 0
    for entry in files.values():
        entry.update(first=position)
        position += int(entry["count"])
    write_passages(tmp, records)
    texts = {r["id"]: (f"{r['title']}. {r['text']}" if r["title"] else r["text"]) for r in records}
    BM25(texts).save(tmp / "bm25")
    if retriever != "bm25":
        _write_vectors(tmp, texts, old, old_dir, encoder, summary)
    passages = StoredPassages(tmp)
    parts = part_digests(tmp)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "retriever": retriever,
        "source": str(source.resolve()),
        "built": datetime.now(UTC).isoformat(timespec="seconds"),
        "passages": len(records),
        "description": describe(passages),
        "files": files,
        "skipped": summary.skipped,
        "parts": parts,
    }
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")


def _write_vectors(
    tmp: Path,
    texts: dict[str, str],
    old: dict[str, Any] | None,
    old_dir: Path,
    encoder: Any,
    summary: BuildSummary,
) -> None:
    """Dense vectors for every passage, reusing the old index's for unchanged texts."""
    reuse: dict[str, np.ndarray] = {}
    model = getattr(encoder, "name", "")
    if old and (old_dir / "dense").exists():
        previous = DenseIndex.load(old_dir / "dense")
        model = model or previous.model
        old_texts = StoredPassages(old_dir)
        for i, doc_id in enumerate(previous.doc_ids):
            record = old_texts.record(i)
            text = f"{record['title']}. {record['text']}" if record["title"] else record["text"]
            if texts.get(doc_id) == text:
                reuse[doc_id] = np.asarray(previous.vectors[i])
    missing = [doc_id for doc_id in texts if doc_id not in reuse]
    dimension = next(iter(reuse.values())).shape[0] if reuse else 0
    if missing:
        encoder = encoder if encoder is not None else default_encoder()
        model = getattr(encoder, "name", "")
        fresh = normalize(encoder.encode([texts[i] for i in missing]))
        dimension = fresh.shape[1]
        reuse.update(zip(missing, fresh, strict=True))
    summary.embedded = len(missing)
    vectors = np.zeros((len(texts), dimension), dtype=np.float32)
    for row, doc_id in enumerate(texts):
        vectors[row] = reuse[doc_id]
    DenseIndex(list(texts), vectors, model).save(tmp / "dense")  # model: also when all reused
