"""Checks that a saved index's version folder is what its build wrote, before anything is used.

The manifest (`check_manifest`) must have every field with its type; the parts it lists
(`check_parts`) must be regular files whose sha256 is the one recorded at build time
(`part_digests`), so a part edited, truncated or copied from another index is refused; and
the offsets (`check_offsets`) must start at 0, grow strictly and end at the size of what they
index. Every failure raises `Damage`, one line saying what is wrong. Only `check_offsets`
imports numpy, so asking whether a name is a saved index (`tools.index_versions`) loads none.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools.search_settings import RETRIEVERS

MANIFEST = "manifest.json"
REQUIRED_PARTS = ("passages.jsonl", "passage_offsets.npy", "bm25/params.json")
"""Parts every version has; dense and hybrid ones also have ``dense/``."""

if TYPE_CHECKING:
    import numpy as np

_PART_RE = re.compile(r"[a-z0-9_]+(/[a-z0-9_]+)?\.(npy|json|jsonl)")
_DIGEST_RE = re.compile(r"[0-9a-f]{64}")
_MAX_MANIFEST = 256 * 1024 * 1024


class Damage(ValueError):
    """What is wrong with a version folder, in one line."""


def read_json(path: Path, what: str) -> Any:
    """The JSON value of a small regular file; Damage if missing, not regular or not JSON."""
    data = _read_regular(path, what)
    try:
        return json.loads(data)
    except ValueError:
        raise Damage(f"{what} is not valid JSON") from None


def check_manifest(manifest: Any, name: str, fmt: str, version: int) -> None:
    """Every field a reader uses is there with its type; Damage naming the first one not."""
    if not isinstance(manifest, dict):
        raise Damage(f"{MANIFEST} is not an object")
    if manifest.get("format") != fmt or manifest.get("version") != version:
        raise Damage(f"{MANIFEST} is not a version {version} {fmt} manifest")
    for key, kind in (
        ("name", str),
        ("retriever", str),
        ("source", str),
        ("built", str),
        ("description", str),
        ("passages", int),
        ("files", dict),
        ("skipped", list),
        ("parts", dict),
    ):
        if not isinstance(manifest.get(key), kind) or isinstance(manifest.get(key), bool):
            raise Damage(f"{MANIFEST} field {key!r} is missing or not a {kind.__name__}")
    if manifest["name"] != name:
        raise Damage(f"{MANIFEST} names another index")
    if manifest["retriever"] not in RETRIEVERS:
        raise Damage(f"{MANIFEST} names an unknown retriever")
    if manifest["passages"] < 1:
        raise Damage(f"{MANIFEST} counts no passages")
    _check_files(manifest["files"], manifest["passages"])
    if not all(_is_pair(item) for item in manifest["skipped"]):
        raise Damage(f"{MANIFEST} field 'skipped' is not a list of [file, reason]")
    _check_part_names(manifest["parts"], manifest["retriever"])


def _check_files(files: dict[str, Any], passages: int) -> None:
    """Each file entry's fields, and its passages a slice of the passages, in order."""
    position = 0
    for entry in files.values():
        if not isinstance(entry, dict):
            raise Damage(f"{MANIFEST} has a file entry that is not an object")
        for key in ("size", "mtime_ns", "first", "count"):
            if not isinstance(entry.get(key), int) or isinstance(entry.get(key), bool):
                raise Damage(f"{MANIFEST} has a file entry without an integer {key!r}")
        if not isinstance(entry.get("sha256"), str):
            raise Damage(f"{MANIFEST} has a file entry without its 'sha256'")
        if entry["first"] != position or entry["count"] < 1:
            raise Damage(f"{MANIFEST} file entries do not tile the passages")
        position += entry["count"]
    if files and position != passages:
        raise Damage(f"{MANIFEST} file entries do not add up to its passages")


def _is_pair(item: Any) -> bool:
    """Whether `item` is ``[str, str]``."""
    return isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)


def _check_part_names(parts: dict[str, Any], retriever: str) -> None:
    """Part names are plain relative paths with sha256 digests; the required ones are there."""
    for part, digest in parts.items():
        if not _PART_RE.fullmatch(part) or not isinstance(digest, str):
            raise Damage(f"{MANIFEST} lists a bad part name")
        if not _DIGEST_RE.fullmatch(digest):
            raise Damage(f"{MANIFEST} has a bad digest for {part}")
    required = (*REQUIRED_PARTS, *(("dense/ids.json",) if retriever != "bm25" else ()))
    for part in required:
        if part not in parts:
            raise Damage(f"{MANIFEST} does not list {part}")


def part_digests(folder: Path) -> dict[str, str]:
    """The sha256 of every file below `folder` but the manifest, by relative POSIX path."""
    digests = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel != MANIFEST:
            digests[rel] = _digest(path, rel)
    return digests


def check_parts(folder: Path, parts: dict[str, str]) -> None:
    """Every listed part is a regular file with its recorded digest."""
    for part, digest in parts.items():
        if _digest(folder / part, part) != digest:
            raise Damage(f"{part} does not match its digest (edited or replaced)")


def check_offsets(folder: Path, passages: int, ids: int) -> None:
    """The passage, id and vocabulary offsets start at 0, grow strictly and end in range."""
    import numpy as np

    if ids != passages:
        raise Damage(f"{MANIFEST} counts {passages} passages but the BM25 index holds {ids}")
    size = (folder / "passages.jsonl").stat().st_size
    _offsets(np.load(folder / "passage_offsets.npy", mmap_mode="r"), passages, size, "passage")
    for kind, count in (("doc_id", ids), ("vocab", None)):
        data = np.load(folder / "bm25" / f"{kind}_bytes.npy", mmap_mode="r")
        offsets = np.load(folder / "bm25" / f"{kind}_offsets.npy", mmap_mode="r")
        _offsets(offsets, count, len(data), kind)
    indptr = np.load(folder / "bm25" / "indptr.npy", mmap_mode="r")
    postings = np.load(folder / "bm25" / "postings_doc.npy", mmap_mode="r")
    if len(indptr) and (int(indptr[0]) != 0 or np.any(np.diff(indptr) < 0)):
        raise Damage("bm25/indptr.npy is not monotonic from 0")
    if len(postings) and (int(postings.min()) < 0 or int(postings.max()) >= ids):
        raise Damage("bm25/postings_doc.npy points past the documents")


def _offsets(offsets: np.ndarray, count: int | None, size: int, kind: str) -> None:
    """One offsets array: ``count + 1`` integers from 0, strictly growing, ending at `size`."""
    import numpy as np

    what = f"{kind} offsets"
    if offsets.ndim != 1 or offsets.dtype.kind not in "iu" or len(offsets) < 1:
        raise Damage(f"{what} are not a list of integers")
    if count is not None and len(offsets) != count + 1:
        raise Damage(f"{what} count {len(offsets) - 1} entries, not {count}")
    if int(offsets[0]) != 0 or np.any(np.diff(offsets) <= 0) or int(offsets[-1]) != size:
        raise Damage(f"{what} are not monotonic and in range (shifted or edited)")


def _digest(path: Path, what: str) -> str:
    """The sha256 of a regular file (never followed through a link)."""
    fd = _open_regular(path, what)
    with os.fdopen(fd, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _read_regular(path: Path, what: str) -> bytes:
    """A small regular file's bytes, opened without following a link; Damage otherwise."""
    fd = _open_regular(path, what)
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(_MAX_MANIFEST + 1)
    if len(data) > _MAX_MANIFEST:
        raise Damage(f"{what} is too large")
    return data


def _open_regular(path: Path, what: str) -> int:
    """A read-only descriptor of a regular file (not a link, pipe or device); Damage if not."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise Damage(f"{what} is missing") from None
    except OSError as e:
        raise Damage(f"{what} cannot be opened ({e.strerror or e})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Damage(f"{what} is not a regular file")
    return fd
