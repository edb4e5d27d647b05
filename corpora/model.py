"""What a corpus is: `Passage`, `Corpus`, the rules for names and ids, `CorpusError`.

A corpus is a named, non-empty collection of passages with unique ids. Names are lowercase
identifiers short enough for a ``search_<name>`` tool. Ids are stricter than text, because the
agent cites them verbatim from ``[id] text`` lines: an id must be a non-empty string without
control characters, square brackets or surrounding whitespace.

Every problem raises `CorpusError`, whose message is one line naming the file and, where
one exists, the line: ``notes.jsonl:7: duplicate id 'd1' (first on line 2)``.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_NAME_LENGTH = 57
"""Longest corpus name: ``search_<name>`` must fit a 64-character tool name."""

_NAME_RE = re.compile(r"[a-z][a-z0-9_]*")
_BAD_ID_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")
_WORD_RE = re.compile(r"[^\W_]+")
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


def check_id(value: object, path: Path, line: int | None) -> str:
    """Return a valid passage id or raise CorpusError for this line."""
    if value is None:
        raise CorpusError('missing "id"', path, line)
    if not isinstance(value, str):
        raise CorpusError(
            f'"id" must be a string, got {type(value).__name__} {value!r}', path, line
        )
    if not value.strip():
        raise CorpusError('empty "id"', path, line)
    if not valid_id(value):
        raise CorpusError(
            f"bad id {value!r}: no control characters, square brackets or surrounding spaces",
            path,
            line,
        )
    return value


def valid_id(value: str) -> bool:
    """Whether `value` can be a passage id (no control characters, brackets or outer spaces)."""
    return bool(value.strip()) and value == value.strip() and not _BAD_ID_RE.search(value)


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


def quoted(value: object, limit: int = 60) -> str:
    """`value`'s repr for an error line, cut after `limit` characters saying how long it was."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return repr(value)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def _one_line(text: str) -> str:
    """Collapse all whitespace (newlines included) so a message stays on one line."""
    return " ".join(str(text).split())
