"""Load passage corpora: the built-in ones and a user's own `.jsonl` file, document or folder.

Input formats:

- ``.jsonl``: one JSON object a line (`corpora.jsonl`).
- a folder: every document below it (``.txt``, ``.md``, ``.rst``, ``.html``, ``.pdf``), read
  and split by `corpora.documents` in sorted path order, each passage titled by its path and
  heading path. The id is the POSIX path relative to the folder (``path#N`` when the file gives
  several passages). A file that cannot be read is skipped, never fatal: the corpus lists it
  in ``skipped`` with the reason (unsupported type, empty, unreadable, not UTF-8, not a
  regular file, a link out of the folder, a bad file name: see `corpora.documents`, imported
  only when a document is read, so the built-in ``.jsonl`` corpora do not load the parsers).
- a single document file: the same as a folder holding only that file, except that a file
  that cannot be read is an error.

What a corpus is, and the rules for its name and ids, are in `corpora.model`. Every problem
raises `CorpusError`, one line naming the file and, where one exists, the line.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from corpora.jsonl import read_jsonl
from corpora.model import (
    MAX_NAME_LENGTH,
    Corpus,
    CorpusError,
    Passage,
    check_id,
    check_name,
    describe,
)

if TYPE_CHECKING:
    from corpora.documents import Chunk

BUILTIN_CORPORA: tuple[str, ...] = ("policy", "products", "notes")
"""Names of the corpora shipped in ``corpora/data``."""

_FILE_SUFFIXES = (".txt", ".md", ".markdown", ".rst", ".html", ".htm", ".pdf")


def name_from_path(path: str | os.PathLike[str]) -> str:
    """Derive a corpus name from a file or folder stem (``My Notes-2024.md``: ``my_notes_2024``)."""
    p = Path(path)
    stem = p.resolve().name if p.name in ("", ".", "..") else p.name
    for suffix in (".jsonl", *_FILE_SUFFIXES):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    name = re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")
    name = re.sub(r"^[^a-z]+", "", name)[:MAX_NAME_LENGTH].rstrip("_")
    if not name:
        raise CorpusError(f"cannot derive a corpus name from {str(path)!r}; give one as NAME=PATH")
    return name


def load_corpus(path: str | os.PathLike[str], name: str | None = None) -> Corpus:
    """Load a user corpus from a ``.jsonl`` file, a ``.txt``/``.md`` file or a folder.

    ``name`` defaults to the sanitized file or folder stem. The description is generated
    from the passages (see `describe`). Raises CorpusError on any bad input.
    """
    p = Path(path)
    name = check_name(name) if name is not None else name_from_path(p)
    if not p.exists():
        raise CorpusError("no such file or folder", p)
    skipped: list[tuple[str, str]] = []
    if p.is_dir():
        passages, skipped = _read_folder(p)
        if not passages:
            raise CorpusError(
                f"empty corpus: no readable documents in this folder ({_why(skipped)})", p
            )
    elif p.suffix.lower() == ".jsonl":
        passages = list(read_jsonl(p))
        if not passages:
            raise CorpusError("empty corpus: no JSON lines in this file", p)
    elif _supported(p):
        passages = _read_document(p, p.name)
    else:
        raise CorpusError(
            f"unsupported file type {p.suffix or '(none)'!r}: use .jsonl, "
            f"{', '.join(_FILE_SUFFIXES)} or a folder",
            p,
        )
    return Corpus(
        name=name,
        passages=tuple(passages),
        description=describe(passages),
        skipped=tuple(skipped),
    )


def parse_corpus_spec(spec: str) -> Corpus:
    """Load the corpus named by a CLI spec: ``NAME=PATH``, or just ``PATH``.

    The text before the first ``=`` is a name only when it holds no path separator, so
    ``data/a=b.jsonl`` is read as a path.
    """
    head, sep, tail = spec.partition("=")
    if sep and "/" not in head and os.sep not in head:
        if not tail:
            raise CorpusError(f"corpus spec {spec!r} has no path after '='")
        return load_corpus(tail, name=check_name(head))
    if not spec.strip():
        raise CorpusError("empty corpus spec: expected NAME=PATH")
    return load_corpus(spec)


@functools.cache
def load_builtin(name: str) -> Corpus:
    """Load one of `BUILTIN_CORPORA` (cached: a Corpus is immutable)."""
    if name not in BUILTIN_CORPORA:
        raise CorpusError(
            f"unknown built-in corpus {name!r} (choose from {', '.join(BUILTIN_CORPORA)})"
        )
    data = resources.files("corpora") / "data"
    descriptions = json.loads((data / "corpora.json").read_text(encoding="utf-8"))
    with resources.as_file(data / f"{name}.jsonl") as path:
        corpus = load_corpus(path, name=name)
    return replace(corpus, description=descriptions[name])


def _supported(path: Path) -> bool:
    """Whether `corpora.documents` reads this type of file (imported only for documents)."""
    from corpora.documents import supported

    return supported(path)


def _read_folder(root: Path) -> tuple[list[Passage], list[tuple[str, str]]]:
    """The passages of every readable document below ``root``, and the files skipped."""
    from corpora.documents import read_chunks, scan_folder
    from corpora.files import SkipFile

    scan = scan_folder(root, onerror=_raise_walk_error)
    passages: list[Passage] = []
    skipped = list(scan.skipped)
    for rel, full in scan.files:
        try:
            passages += passages_of(rel, read_chunks(full, rel), full)
        except SkipFile as e:
            skipped.append((rel, e.reason))
    return passages, sorted(skipped)


def _why(skipped: list[tuple[str, str]]) -> str:
    """What the folder held instead of documents, for the empty-corpus error."""
    from corpora.documents import skip_summary

    return skip_summary(skipped) if skipped else "no files"


def _raise_walk_error(error: OSError) -> None:
    """Turn an unreadable folder met by os.walk into a CorpusError."""
    raise CorpusError(f"cannot read folder: {error.strerror or error}", error.filename)


def _read_document(path: Path, rel: str) -> list[Passage]:
    """The passages of one document given on its own; a file that gives none is an error."""
    from corpora.documents import read_chunks
    from corpora.files import SkipFile

    try:
        return passages_of(rel, read_chunks(path, rel), path)
    except SkipFile as e:
        if e.reason == "empty":
            raise CorpusError("empty corpus: the file has no text", path) from None
        raise CorpusError(str(e), path, e.line) from None


def passages_of(rel: str, chunks: list[Chunk], path: Path | None = None) -> list[Passage]:
    """Give a file's chunks their ids: ``rel`` for one chunk, ``rel#1``.. for several."""
    doc_id = check_id(rel, path or Path(rel), None)
    passages = []
    for n, chunk in enumerate(chunks, start=1):
        meta = dict(chunk.metadata)
        if len(chunks) > 1:
            meta.update(part=n, parts=len(chunks))
        part_id = doc_id if len(chunks) == 1 else f"{doc_id}#{n}"
        passages.append(Passage(id=part_id, text=chunk.text, title=chunk.title, metadata=meta))
    return passages
