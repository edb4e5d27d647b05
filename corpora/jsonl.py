"""Read a corpus ``.jsonl`` file: one passage a line, every line validated.

``{"id": str, "text": str}`` plus optional ``"title"`` (string or null) and ``"metadata"``
(object or null). Blank lines are skipped; any other key is an error (put extra fields in
``metadata``). A UTF-8 BOM is accepted. Control characters other than tab, newline and
carriage return are removed from texts and titles (a NUL in a pasted document is noise, not a
reason to refuse it). A problem raises `CorpusError` naming the file and line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from corpora.files import SkipFile, clean_text, read_regular
from corpora.model import CorpusError, Passage, check_id

_JSONL_KEYS = frozenset({"id", "text", "title", "metadata"})


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


def read_jsonl(path: Path) -> Iterator[Passage]:
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
        doc_id = check_id(obj.get("id"), path, lineno)
        text = obj.get("text")
        if text is None:
            raise CorpusError(f'missing "text" for id {doc_id!r}', path, lineno)
        if not isinstance(text, str):
            raise CorpusError(f'"text" must be a string, got {type(text).__name__}', path, lineno)
        text = clean_text(text)
        if not text.strip():
            raise CorpusError(f'empty "text" for id {doc_id!r}', path, lineno)
        title = obj.get("title")
        if title is not None and not isinstance(title, str):
            raise CorpusError(f'"title" must be a string, got {type(title).__name__}', path, lineno)
        if title is not None:
            title = clean_text(title).strip() or None
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
