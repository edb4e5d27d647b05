"""What a dataset is (`Dataset` of `Question`), the error loading one raises, and JSON lines.

`DatasetError` is one line naming the file and line. `json_lines` and `json_kind` are shared by
the dataset file format (`evals.datasets.loader`) and the HotpotQA reader
(`evals.datasets.hotpotqa`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpora import BUILTIN_CORPORA, Corpus, load_builtin


class DatasetError(ValueError):
    """A dataset that cannot be loaded; ``str(e)`` is one line ``<file>:<line>: <problem>``."""

    def __init__(
        self, message: str, path: str | os.PathLike[str] | None = None, line: int | None = None
    ) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.problem = " ".join(str(message).split())
        where = "" if self.path is None else self.path + ("" if line is None else f":{line}")
        super().__init__(f"{where}: {self.problem}" if where else self.problem)


@dataclass(frozen=True)
class Question:
    """One eval question with what counts as a right answer and which documents support it."""

    id: str
    question: str
    answers: tuple[str, ...]
    supporting: tuple[str, ...] = ()
    must_contain: tuple[str, ...] = ()
    tools: tuple[str, ...] | None = None
    corpus: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    unanswerable: bool = False
    """The corpus cannot answer this question: the right result is a decline (no answer)."""

    def as_tuple(self) -> tuple[str, list[str], list[str]]:
        """Return the seed's ``(question, answers, supporting_doc_ids)`` triple."""
        return (self.question, list(self.answers), list(self.supporting))


@dataclass(frozen=True)
class Dataset:
    """A named list of questions and the corpus they run over (None: the built-in corpora)."""

    name: str
    questions: tuple[Question, ...]
    corpus: Corpus | None = None
    description: str = ""
    path: str | None = None
    """The file the questions came from, if any."""

    def __len__(self) -> int:
        """Return the number of questions."""
        return len(self.questions)

    def triples(self) -> list[tuple[str, list[str], list[str]]]:
        """Return every question as the seed's triple, in order (the input of `evaluate`)."""
        return [q.as_tuple() for q in self.questions]

    def corpora(self) -> list[Corpus]:
        """Return the corpora the agent searches: this dataset's, or the three built-ins."""
        if self.corpus is not None:
            return [self.corpus]
        return [load_builtin(name) for name in BUILTIN_CORPORA]

    def get(self, question_id: str) -> Question:
        """Return the question with this id; KeyError if there is none."""
        for q in self.questions:
            if q.id == question_id:
                return q
        raise KeyError(question_id)


def json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; DatasetError if one is not an object."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DatasetError(f"cannot read file: {e.strerror or e}", path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise DatasetError(f"not UTF-8 text (byte 0x{data[e.start]:02x})", path, line) from None
    for lineno, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise DatasetError(
                f"malformed JSON: {e.msg} (column {e.colno})", path, lineno
            ) from None
        except RecursionError:
            raise DatasetError("malformed JSON: nested too deeply", path, lineno) from None
        if not isinstance(obj, dict):
            raise DatasetError(f"expected a JSON object, got {json_kind(obj)}", path, lineno)
        yield lineno, obj


def json_kind(value: object) -> str:
    """Name a JSON value's type the way a user wrote it."""
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)
