"""Load passage corpora: the built-in ones and a user's own `.jsonl` file or folder.

Input formats:

- ``.jsonl``: one JSON object a line, ``{"id": str, "text": str}`` plus optional
  ``"title"`` (string or null) and ``"metadata"`` (object or null). Blank lines are skipped;
  any other key is an error (put extra fields in ``metadata``). A UTF-8 BOM is accepted.
- a folder: every document below it (``.txt``, ``.md``, ``.rst``, ``.html``, ``.pdf``), read
  and split by `corpora.documents` in sorted path order, each passage titled by its path and
  heading path. The id is the POSIX path relative to the folder (``path#N`` when the file gives
  several passages). A file that cannot be read is skipped, never fatal: the corpus lists it
  in ``skipped`` with the reason (unsupported type, empty, unreadable, not UTF-8, not a
  regular file).
- a single document file: the same as a folder holding only that file, except that a file
  that cannot be read is an error.

Text hygiene: control characters other than tab, newline and carriage return are removed
from texts and titles (a NUL in a pasted document is noise, not a reason to refuse it).
Ids are stricter, because the agent cites them verbatim from ``[id] text`` lines: an id
must be a non-empty string without control characters, square brackets or surrounding
whitespace.

Every problem raises `CorpusError`, whose message is one line naming the file and, where
one exists, the line: ``notes.jsonl:7: duplicate id 'd1' (first on line 2)``.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from corpora.documents import (
    Chunk,
    SkipFile,
    read_chunks,
    read_regular,
    scan_folder,
    supported,
)

BUILTIN_CORPORA: tuple[str, ...] = ("policy", "products", "notes")
"""Names of the corpora shipped in ``corpora/data``."""

MAX_NAME_LENGTH = 57
"""Longest corpus name: ``search_<name>`` must fit a 64-character tool name."""

_NAME_RE = re.compile(r"[a-z][a-z0-9_]*")
_STRIP_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_BAD_ID_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")
_WORD_RE = re.compile(r"[^\W_]+")
_JSONL_KEYS = frozenset({"id", "text", "title", "metadata"})
_FILE_SUFFIXES = (".txt", ".md", ".markdown", ".rst", ".html", ".htm", ".pdf")
_STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers him his how i if in into is it its
    itself just me more most my no nor not now of off on once only or other our ours out
    over own same she should so some such than that the their theirs them then there these
    they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours""".split()
)


class CorpusError(ValueError):
    """A corpus that cannot be loaded; ``str(e)`` is one line ``<file>:<line>: <problem>``.

    ``path`` and ``line`` are kept as attributes; either may be None (a problem with the
    whole file has no line, a problem with a spec or a name has no file).
    """

    def __init__(
        self, message: str, path: str | os.PathLike[str] | None = None, line: int | None = None
    ) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.problem = _one_line(message)
        where = "" if self.path is None else self.path + ("" if line is None else f":{line}")
        super().__init__(f"{where}: {self.problem}" if where else self.problem)


@dataclass(frozen=True)
class Passage:
    """One retrievable unit of a corpus, cited by its ``id``."""

    id: str
    text: str
    title: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Corpus:
    """A named, non-empty collection of passages with unique ids."""

    name: str
    passages: tuple[Passage, ...]
    description: str = ""
    skipped: tuple[tuple[str, str], ...] = field(default=(), compare=False, hash=False)
    """Files of the source folder that were not read: ``(relative path, reason)``."""
    _by_id: Mapping[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        """Check the name and the ids, and index passages by id."""
        check_name(self.name)
        object.__setattr__(self, "passages", tuple(self.passages))
        if not self.passages:
            raise CorpusError(f"corpus {self.name!r} has no passages")
        by_id: dict[str, int] = {}
        for i, passage in enumerate(self.passages):
            if passage.id in by_id:
                raise CorpusError(f"corpus {self.name!r} has duplicate id {passage.id!r}")
            by_id[passage.id] = i
        object.__setattr__(self, "_by_id", by_id)

    def texts(self) -> dict[str, str]:
        """Map id -> indexed text (see `indexed_text`)."""
        return {p.id: indexed_text(p) for p in self.passages}

    def get(self, doc_id: str) -> Passage:
        """Return the passage with this id; KeyError if there is none."""
        return self.passages[self._by_id[doc_id]]

    def __len__(self) -> int:
        """Return the number of passages."""
        return len(self.passages)


def indexed_text(passage: Passage) -> str:
    """The text a passage is indexed and shown by: ``title + ". " + text``, or just text."""
    return f"{passage.title}. {passage.text}" if passage.title else passage.text


def check_name(name: str) -> str:
    """Return ``name`` if it is a valid corpus name, else raise CorpusError."""
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise CorpusError(
            f"bad corpus name {name!r}: use lowercase letters, digits and '_', "
            "starting with a letter"
        )
    if len(name) > MAX_NAME_LENGTH:
        raise CorpusError(f"bad corpus name {name!r}: longer than {MAX_NAME_LENGTH} characters")
    return name


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
        passages = list(_read_jsonl(p))
        if not passages:
            raise CorpusError("empty corpus: no JSON lines in this file", p)
    elif supported(p):
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


def describe(passages: Iterable[Passage], n_terms: int = 6) -> str:
    """One line for a tool description: ``"N passages; frequent topics: a, b, c"``.

    Topics are the words (no stopwords, no numbers, at least 3 letters) with the highest
    ``document frequency * ln(1 + N / document frequency)``: words that recur across
    passages without being in all of them. Ties go to the alphabetically first word.
    """
    passages = list(passages)
    df: Counter[str] = Counter()
    for p in passages:
        words = _WORD_RE.findall(f"{p.title or ''} {p.text}".lower())
        df.update({w for w in words if len(w) >= 3 and not w.isdigit() and w not in _STOPWORDS})
    n = len(passages)
    ranked = sorted(df, key=lambda w: (-df[w] * math.log(1 + n / df[w]), w))
    unit = "passage" if n == 1 else "passages"
    if not ranked:
        return f"{n} {unit}"
    return f"{n} {unit}; frequent topics: {', '.join(ranked[:n_terms])}"


def _one_line(text: str) -> str:
    """Collapse all whitespace (newlines included) so a message stays on one line."""
    return " ".join(str(text).split())


def _clean(text: str) -> str:
    """Remove control characters other than tab, newline and carriage return."""
    return _STRIP_RE.sub("", text)


def _read_bytes_utf8(path: Path) -> str:
    """Read a whole regular file as UTF-8 (BOM dropped); CorpusError naming the bad byte's line."""
    try:
        data = read_regular(path)
    except SkipFile as e:
        raise CorpusError(f"cannot read file: {e.detail or e.reason}", path) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise CorpusError(
            f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})", path, line
        ) from None


def _check_id(value: object, path: Path, line: int | None) -> str:
    """Return a valid passage id or raise CorpusError for this line."""
    if value is None:
        raise CorpusError('missing "id"', path, line)
    if not isinstance(value, str):
        raise CorpusError(
            f'"id" must be a string, got {type(value).__name__} {value!r}', path, line
        )
    if not value.strip():
        raise CorpusError('empty "id"', path, line)
    if value != value.strip() or _BAD_ID_RE.search(value):
        raise CorpusError(
            f"bad id {value!r}: no control characters, square brackets or surrounding spaces",
            path,
            line,
        )
    return value


def _read_jsonl(path: Path) -> Iterator[Passage]:
    """Yield the passages of a ``.jsonl`` file, validating every line."""
    first_line: dict[str, int] = {}
    for lineno, raw in enumerate(_read_bytes_utf8(path).split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise CorpusError(f"malformed JSON: {e.msg} (column {e.colno})", path, lineno) from None
        except RecursionError:
            raise CorpusError("malformed JSON: nested too deeply", path, lineno) from None
        if not isinstance(obj, dict):
            raise CorpusError(f"expected a JSON object, got {type(obj).__name__}", path, lineno)
        unknown = sorted(set(obj) - _JSONL_KEYS)
        if unknown:
            raise CorpusError(
                f"unknown key {unknown[0]!r} (allowed: id, text, title, metadata)", path, lineno
            )
        doc_id = _check_id(obj.get("id"), path, lineno)
        text = obj.get("text")
        if text is None:
            raise CorpusError(f'missing "text" for id {doc_id!r}', path, lineno)
        if not isinstance(text, str):
            raise CorpusError(f'"text" must be a string, got {type(text).__name__}', path, lineno)
        text = _clean(text)
        if not text.strip():
            raise CorpusError(f'empty "text" for id {doc_id!r}', path, lineno)
        title = obj.get("title")
        if title is not None and not isinstance(title, str):
            raise CorpusError(f'"title" must be a string, got {type(title).__name__}', path, lineno)
        if title is not None:
            title = _clean(title).strip() or None
        metadata = obj.get("metadata")
        if metadata is not None and not isinstance(metadata, dict):
            raise CorpusError(
                f'"metadata" must be an object, got {type(metadata).__name__}', path, lineno
            )
        if doc_id in first_line:
            raise CorpusError(
                f"duplicate id {doc_id!r} (first on line {first_line[doc_id]})", path, lineno
            )
        first_line[doc_id] = lineno
        yield Passage(id=doc_id, text=text, title=title, metadata=metadata or {})


def _read_folder(root: Path) -> tuple[list[Passage], list[tuple[str, str]]]:
    """The passages of every readable document below ``root``, and the files skipped."""
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
    try:
        return passages_of(rel, read_chunks(path, rel), path)
    except SkipFile as e:
        if e.reason == "empty":
            raise CorpusError("empty corpus: the file has no text", path) from None
        raise CorpusError(str(e), path, e.line) from None


def passages_of(rel: str, chunks: list[Chunk], path: Path | None = None) -> list[Passage]:
    """Give a file's chunks their ids: ``rel`` for one chunk, ``rel#1``.. for several."""
    doc_id = _check_id(rel, path or Path(rel), None)
    passages = []
    for n, chunk in enumerate(chunks, start=1):
        meta = dict(chunk.metadata)
        if len(chunks) > 1:
            meta.update(part=n, parts=len(chunks))
        part_id = doc_id if len(chunks) == 1 else f"{doc_id}#{n}"
        passages.append(Passage(id=part_id, text=chunk.text, title=chunk.title, metadata=meta))
    return passages
