"""Eval datasets: the built-in ones and a file format a user can write.

Dataset file format (``.jsonl``, UTF-8, one JSON object a line, blank lines skipped):

- An optional first line, the header, is the object with a ``"dataset"`` key::

    {"dataset": "my_eval", "description": "one line", "corpus": "notes"}

  ``dataset`` names the dataset (letters, digits, ``_`` and ``-``; default: the file's stem),
  ``description`` is one line, and ``corpus`` names what the questions run over:

  - absent or ``null``: the built-in corpora (policy, products, notes) together;
  - a built-in corpus name (``policy``, ``products``, ``notes``) or a pooled HotpotQA corpus
    (``hotpotqa_dev``, ``hotpotqa_hard``);
  - a saved index's name (`agent index NAME PATH`);
  - a corpus file or folder (anything `corpora.load_corpus` reads), as ``PATH`` or
    ``NAME=PATH``, relative to the dataset file and inside its folder: an absolute path, or
    one that leaves the folder (``../x``, a link out), is refused, so a dataset file cannot
    make an eval read and report files from elsewhere.

- Every other line is one question::

    {"id": "q1", "question": "Who leads the team that owns Beacon?",
     "answers": ["Tomas Ekberg"], "supporting": ["d3", "d4"]}

  ``id`` (string, unique in the file), ``question`` (string) and ``answers`` (non-empty list of
  strings: an answer containing any one of them, ignoring case, is correct) are required.
  Optional: ``supporting`` (ids of the documents that support the answer, each one in the
  corpus; default none), ``must_contain`` (strings the answer must all contain as well),
  ``tools`` (the tool calls the run must make, in order, ``finish`` left out: ``["calculator"]``
  means "the calculator and nothing else"), ``corpus`` (the name of the dataset corpus the
  supporting documents come from, for routing checks), ``metadata`` (an object, kept as is)
  and ``unanswerable`` (``true`` for a question the corpus cannot answer: it has no
  ``answers``, ``supporting`` or ``must_contain``, and the right result is a decline).
  Any other key is an error, so a typo does not silently drop a field.

Every problem raises `DatasetError`, one line naming the file and line:
``my_eval.jsonl:4: duplicate id 'q1' (first on line 2)``.

Built-in datasets (`BUILTIN_DATASETS`): ``notes`` and ``seed_runs`` are files in this format
beside this module; ``hotpotqa-dev`` and ``hotpotqa-hard`` are built from the HotpotQA files in
``hotpotqa/`` by `load_hotpotqa`, which pools all paragraphs of a file into one corpus.

`Dataset`, `Question` and `DatasetError` are defined in `evals.datasets.dataset`, the HotpotQA
reader in `evals.datasets.hotpotqa`.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from corpora import BUILTIN_CORPORA, Corpus, CorpusError, check_name, load_builtin, load_corpus
from corpora.model import quoted
from evals.datasets.dataset import Dataset, DatasetError, Question, json_kind, json_lines
from evals.datasets.hotpotqa import (
    HOTPOT_CORPORA,
    HOTPOT_DATASETS,
    HOTPOT_SPLITS,
    load_hotpotqa,
    split_dataset,
)
from tools.finish import FINISH_TOOL
from tools.search_protocol import SEARCH_PREFIX

BUILTIN_DATASETS: tuple[str, ...] = (
    *("notes", "seed_runs", "hotpotqa-dev", "hotpotqa-hard"),
    *("hotpotqa-dev-tune", "hotpotqa-dev-test"),
)
"""Names `load_dataset` accepts besides a file path."""

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_TOOL_RE = re.compile(r"[a-z_][a-z0-9_]*")
_BAD_ID_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_HEADER_KEYS = frozenset({"dataset", "description", "corpus"})
_REQUIRED_KEYS = ("id", "question", "answers")
_QUESTION_KEYS = frozenset(
    {*_REQUIRED_KEYS, "supporting", "must_contain", "tools", "corpus", "metadata", "unanswerable"}
)
_ANSWER_KEYS = ("answers", "supporting", "must_contain")
"""What an unanswerable question may not have (its right result is no answer at all)."""


def load_dataset(name_or_path: str | os.PathLike[str], *, check_ids: bool = True) -> Dataset:
    """Load a built-in dataset by name (`BUILTIN_DATASETS`) or a dataset ``.jsonl`` file.

    `check_ids=False` leaves a file's supporting ids, corpora and tools unchecked against its
    corpus: the questions will run over another one (`agent eval --corpus NAME`, whose saved
    index is checked for them instead, `evals.saved_corpus.over_index`).

    A built-in name wins over a file of the same name in the working directory (write
    ``./notes`` to mean the file).

    Built-ins are cached (a Dataset is immutable); a file is read afresh every call. Raises
    DatasetError for an unknown name, a missing file or any bad content.
    """
    if isinstance(name_or_path, str) and name_or_path in BUILTIN_DATASETS:
        return _load_builtin(name_or_path)
    path = Path(name_or_path)
    text = str(name_or_path)
    try:
        kind = path.stat().st_mode
    except OSError as e:
        kind = None
        if not isinstance(e, FileNotFoundError | NotADirectoryError):
            raise DatasetError(
                f"dataset {quoted(text)}: {e.strerror or type(e).__name__}"
            ) from None
    if kind is not None and stat.S_ISREG(kind):
        return read_dataset_file(path, check_ids=check_ids)
    if kind is not None:
        raise DatasetError("not a file", path)
    if path.suffix or "/" in text or os.sep in text:
        raise DatasetError("no such file", path)
    raise DatasetError(
        f"unknown dataset {quoted(text)}: not a built-in ({', '.join(BUILTIN_DATASETS)}) "
        "and no such file"
    )


@functools.cache
def _load_builtin(name: str) -> Dataset:
    """Load and cache one of `BUILTIN_DATASETS`."""
    here = resources.files("evals.datasets")
    if name in HOTPOT_SPLITS:
        parent, start, stop, description = HOTPOT_SPLITS[name]
        return split_dataset(_load_builtin(parent), name, start, stop, description)
    if name in HOTPOT_DATASETS:
        filename, corpus_name, description = HOTPOT_DATASETS[name]
        with resources.as_file(here / "hotpotqa" / filename) as path:
            return load_hotpotqa(path, name=name, corpus_name=corpus_name, description=description)
    with resources.as_file(here / f"{name}.jsonl") as path:
        return read_dataset_file(path)


# -- the user-writable format --------------------------------------------------------------


def read_dataset_file(path: str | os.PathLike[str], *, check_ids: bool = True) -> Dataset:
    """Parse a dataset ``.jsonl`` file (format in the module docstring); DatasetError if bad.

    `check_ids` as in `load_dataset`.
    """
    p = Path(path)
    lines = list(json_lines(p))
    if not lines:
        raise DatasetError("empty dataset: no questions", p, 1)
    header: dict[str, Any] = {}
    header_line = 0
    if "dataset" in lines[0][1]:
        header_line, header = lines.pop(0)
        _check_header(header, p, header_line)
    for lineno, obj in lines:
        if "dataset" in obj:
            raise DatasetError(
                "a header (an object with 'dataset') must be the first line", p, lineno
            )
    if not lines:
        raise DatasetError("no questions after the header", p, header_line)

    name = header.get("dataset") or _name_from_stem(p)
    corpus = _resolve_corpus(header.get("corpus"), p, header_line or 1)
    corpora = [corpus] if corpus is not None else [load_builtin(n) for n in BUILTIN_CORPORA]
    known_ids = {pid for c in corpora for pid in c.texts()}
    corpus_names = [c.name for c in corpora]

    questions: list[Question] = []
    first_line: dict[str, int] = {}
    for lineno, obj in lines:
        q = _parse_question(obj, p, lineno)
        if q.id in first_line:
            raise DatasetError(
                f"duplicate id {quoted(q.id)} (first on line {first_line[q.id]})", p, lineno
            )
        first_line[q.id] = lineno
        if check_ids:
            _check_references(q, known_ids, corpus_names, p, lineno)
        questions.append(q)
    return Dataset(
        name=name,
        questions=tuple(questions),
        corpus=corpus,
        description=header.get("description", ""),
        path=str(p),
    )


def _name_from_stem(path: Path) -> str:
    """Use the file stem as the dataset name when the header gives none."""
    stem = path.name[: -len(".jsonl")] if path.name.lower().endswith(".jsonl") else path.stem
    return stem or "dataset"


def _check_header(header: Mapping[str, Any], path: Path, line: int) -> None:
    """Validate the header's keys and types."""
    unknown = sorted(set(header) - _HEADER_KEYS)
    if unknown:
        raise DatasetError(
            f"unknown header key {quoted(unknown[0])} (allowed: dataset, description, corpus)",
            path,
            line,
        )
    name = header["dataset"]
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise DatasetError(
            f"bad dataset name {quoted(name)}: use letters, digits, '_' and '-'", path, line
        )
    description = header.get("description", "")
    if not isinstance(description, str) or "\n" in description:
        raise DatasetError("'description' must be a one-line string", path, line)
    corpus = header.get("corpus")
    if corpus is not None and (not isinstance(corpus, str) or not corpus.strip()):
        raise DatasetError(
            f"'corpus' must be a corpus name or file path, or null, got {json_kind(corpus)}",
            path,
            line,
        )


def _resolve_corpus(spec: str | None, path: Path, line: int) -> Corpus | None:
    """Turn a header's ``corpus`` into a Corpus (None: the built-ins)."""
    if spec is None:
        return None
    if spec in BUILTIN_CORPORA:
        return load_builtin(spec)
    if spec in HOTPOT_CORPORA:
        corpus = _load_builtin(HOTPOT_CORPORA[spec]).corpus
        assert corpus is not None
        return corpus
    head, sep, tail = spec.partition("=")
    name: str | None = None
    target = spec
    if sep and "/" not in head and os.sep not in head:
        name, target = head, tail
    looks_like_path = bool(sep) or "/" in target or os.sep in target or Path(target).suffix
    if not looks_like_path:
        saved = _saved_corpus(spec)
        if saved is not None:
            return saved
        known = ", ".join((*BUILTIN_CORPORA, *HOTPOT_CORPORA))
        raise DatasetError(
            f"unknown corpus {quoted(spec)} (known: {known}, or a saved index; or a corpus "
            "file path relative to the dataset file, as PATH or NAME=PATH)",
            path,
            line,
        )
    corpus_path = _inside(path.parent, target)
    if corpus_path is None:
        raise DatasetError(
            f"corpus {quoted(spec)} is outside the dataset's folder: a dataset's corpus must "
            "be a file or folder beside or below it, a built-in or a saved index",
            path,
            line,
        )
    try:
        return load_corpus(corpus_path, name=name)
    except CorpusError as e:
        raise DatasetError(f"corpus {quoted(spec)}: {e}", path, line) from None


def _inside(folder: Path, target: str) -> Path | None:
    """`target` relative to `folder`, if it resolves (links followed) inside it; else None."""
    if Path(target).is_absolute():
        return None
    candidate = folder / target
    if not Path(os.path.realpath(candidate)).is_relative_to(os.path.realpath(folder)):
        return None
    return candidate


def _saved_corpus(spec: str) -> Corpus | None:
    """The passages of saved index `spec`, if there is one (its damage is a DatasetError)."""
    from graph.app.corpus_specs import indexes_dir
    from tools.index_versions import saved
    from tools.saved_indexes import open_saved

    try:
        if not saved(indexes_dir(), check_name(spec)):
            return None
    except CorpusError:
        return None
    try:
        return open_saved(indexes_dir(), spec).corpus
    except ValueError as e:
        raise DatasetError(str(e)) from None


def _string_list(obj: Mapping[str, Any], key: str, path: Path, line: int) -> tuple[str, ...]:
    """Return ``obj[key]`` as a tuple of non-empty strings, or raise naming the key."""
    value = obj[key]
    if not isinstance(value, list):
        raise DatasetError(f"{key!r} must be a list of strings, got {json_kind(value)}", path, line)
    for item in value:
        if not isinstance(item, str):
            raise DatasetError(
                f"{key!r} must be a list of strings, but holds {json_kind(item)} {quoted(item)}",
                path,
                line,
            )
        if not item.strip():
            raise DatasetError(f"{key!r} holds an empty string", path, line)
    return tuple(value)


def _parse_question(obj: Mapping[str, Any], path: Path, line: int) -> Question:
    """Validate one question line's keys and types and build the Question."""
    unknown = sorted(set(obj) - _QUESTION_KEYS)
    if unknown:
        raise DatasetError(
            f"unknown key {quoted(unknown[0])} (allowed: {', '.join(sorted(_QUESTION_KEYS))})",
            path,
            line,
        )
    unanswerable = obj.get("unanswerable", False)
    if not isinstance(unanswerable, bool):
        raise DatasetError(
            f"'unanswerable' must be true or false, got {json_kind(unanswerable)}", path, line
        )
    if unanswerable:
        given = [k for k in _ANSWER_KEYS if obj.get(k)]
        if given:
            raise DatasetError(
                f"an unanswerable question has no {given[0]!r}: its right result is a decline",
                path,
                line,
            )
    missing = [k for k in _REQUIRED_KEYS if k not in obj and not (unanswerable and k == "answers")]
    if missing:
        raise DatasetError(f"missing {', '.join(repr(k) for k in missing)}", path, line)
    qid = obj["id"]
    if not isinstance(qid, str):
        raise DatasetError(f"'id' must be a string, got {json_kind(qid)} {quoted(qid)}", path, line)
    if not qid.strip() or qid != qid.strip() or _BAD_ID_RE.search(qid):
        raise DatasetError(
            f"bad id {quoted(qid)}: non-empty, no control characters or surrounding spaces",
            path,
            line,
        )
    text = obj["question"]
    if not isinstance(text, str):
        raise DatasetError(f"'question' must be a string, got {json_kind(text)}", path, line)
    if not text.strip():
        raise DatasetError("'question' is empty", path, line)
    answers = _string_list(obj, "answers", path, line) if "answers" in obj else ()
    if not answers and not unanswerable:
        raise DatasetError(
            "'answers' is empty: give at least one accepted answer "
            '(or mark a question the corpus cannot answer "unanswerable": true)',
            path,
            line,
        )
    supporting = _string_list(obj, "supporting", path, line) if "supporting" in obj else ()
    must_contain = _string_list(obj, "must_contain", path, line) if "must_contain" in obj else ()
    tools = _string_list(obj, "tools", path, line) if obj.get("tools") is not None else None
    for tool in tools or ():
        if tool == FINISH_TOOL:
            raise DatasetError("leave 'finish' out of 'tools': every run ends with it", path, line)
        if not _TOOL_RE.fullmatch(tool):
            raise DatasetError(f"bad tool name {quoted(tool)} in 'tools'", path, line)
    corpus = obj.get("corpus")
    if corpus is not None and not isinstance(corpus, str):
        raise DatasetError(f"'corpus' must be a corpus name, got {json_kind(corpus)}", path, line)
    metadata = obj.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise DatasetError(f"'metadata' must be an object, got {json_kind(metadata)}", path, line)
    return Question(
        id=qid,
        question=text,
        answers=answers,
        supporting=supporting,
        must_contain=must_contain,
        tools=tools,
        corpus=corpus,
        metadata=metadata or {},
        unanswerable=unanswerable,
    )


def _check_references(
    q: Question, known_ids: set[str], corpus_names: Sequence[str], path: Path, line: int
) -> None:
    """Check that a question's supporting ids, corpus and search tools exist in the corpora."""
    where = "the built-in corpora" if len(corpus_names) > 1 else f"corpus {corpus_names[0]}"
    for doc_id in q.supporting:
        if doc_id not in known_ids:
            raise DatasetError(f"supporting id {quoted(doc_id)} is not in {where}", path, line)
    if q.corpus is not None and q.corpus not in corpus_names:
        raise DatasetError(
            f"question corpus {quoted(q.corpus)} is not a corpus of this dataset "
            f"({', '.join(corpus_names)})",
            path,
            line,
        )
    for tool in q.tools or ():
        if tool.startswith(SEARCH_PREFIX) and tool.removeprefix(SEARCH_PREFIX) not in corpus_names:
            raise DatasetError(
                f"tool {quoted(tool)} searches no corpus of this dataset "
                f"({', '.join(corpus_names)})",
                path,
                line,
            )


__all__ = ["BUILTIN_DATASETS", "load_dataset", "read_dataset_file"]
