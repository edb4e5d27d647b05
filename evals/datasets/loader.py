"""Eval datasets: the built-in ones and a file format a user can write.

Dataset file format (``.jsonl``, UTF-8, one JSON object a line, blank lines skipped):

- An optional first line, the header, is the object with a ``"dataset"`` key::

    {"dataset": "my_eval", "description": "one line", "corpus": "notes"}

  ``dataset`` names the dataset (letters, digits, ``_`` and ``-``; default: the file's stem),
  ``description`` is one line, and ``corpus`` names what the questions run over:

  - absent or ``null``: the built-in corpora (policy, products, notes) together;
  - a built-in corpus name (``policy``, ``products``, ``notes``) or a pooled HotpotQA corpus
    (``hotpotqa_dev``, ``hotpotqa_hard``);
  - a corpus file or folder (anything `corpora.load_corpus` reads), as ``PATH`` or
    ``NAME=PATH``, relative to the dataset file.

- Every other line is one question::

    {"id": "q1", "question": "Who leads the team that owns Beacon?",
     "answers": ["Tomas Ekberg"], "supporting": ["d3", "d4"]}

  ``id`` (string, unique in the file), ``question`` (string) and ``answers`` (non-empty list of
  strings: an answer containing any one of them, ignoring case, is correct) are required.
  Optional: ``supporting`` (ids of the documents that support the answer, each one in the
  corpus; default none), ``must_contain`` (strings the answer must all contain as well),
  ``tools`` (the tool calls the run must make, in order, ``finish`` left out: ``["calculator"]``
  means "the calculator and nothing else"), ``corpus`` (the name of the dataset corpus the
  supporting documents come from, for routing checks) and ``metadata`` (an object, kept as is).
  Any other key is an error, so a typo does not silently drop a field.

Every problem raises `DatasetError`, one line naming the file and line:
``my_eval.jsonl:4: duplicate id 'q1' (first on line 2)``.

Built-in datasets (`BUILTIN_DATASETS`): ``notes`` and ``seed_runs`` are files in this format
beside this module; ``hotpotqa-dev`` and ``hotpotqa-hard`` are built from the HotpotQA files in
``hotpotqa/`` by `load_hotpotqa`, which pools all paragraphs of a file into one corpus.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from corpora import BUILTIN_CORPORA, Corpus, CorpusError, Passage, load_builtin, load_corpus

BUILTIN_DATASETS: tuple[str, ...] = ("notes", "seed_runs", "hotpotqa-dev", "hotpotqa-hard")
"""Names `load_dataset` accepts besides a file path."""

_HOTPOT: dict[str, tuple[str, str, str]] = {
    # dataset name: (file under hotpotqa/, corpus name, description)
    "hotpotqa-dev": (
        "dev_500.jsonl",
        "hotpotqa_dev",
        "500 HotpotQA dev questions (distractor setting, IRCoT subsample), all their "
        "paragraphs pooled into one corpus",
    ),
    "hotpotqa-hard": (
        "distractor_100.json",
        "hotpotqa_hard",
        "100 hard HotpotQA distractor-setting questions, all their paragraphs pooled into "
        "one corpus",
    ),
}
HOTPOT_CORPORA: dict[str, str] = {corpus: ds for ds, (_f, corpus, _d) in _HOTPOT.items()}
"""Pooled HotpotQA corpus name -> the built-in dataset it comes from."""

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_TOOL_RE = re.compile(r"[a-z_][a-z0-9_]*")
_BAD_ID_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_BAD_TITLE_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")
_HEADER_KEYS = frozenset({"dataset", "description", "corpus"})
_REQUIRED_KEYS = ("id", "question", "answers")
_QUESTION_KEYS = frozenset(
    {*_REQUIRED_KEYS, "supporting", "must_contain", "tools", "corpus", "metadata"}
)


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


def load_dataset(name_or_path: str | os.PathLike[str]) -> Dataset:
    """Load a built-in dataset by name (`BUILTIN_DATASETS`) or a dataset ``.jsonl`` file.

    A built-in name wins over a file of the same name in the working directory (write
    ``./notes`` to mean the file).

    Built-ins are cached (a Dataset is immutable); a file is read afresh every call. Raises
    DatasetError for an unknown name, a missing file or any bad content.
    """
    if isinstance(name_or_path, str) and name_or_path in BUILTIN_DATASETS:
        return _load_builtin(name_or_path)
    path = Path(name_or_path)
    if path.is_file():
        return read_dataset_file(path)
    if path.exists():
        raise DatasetError("not a file", path)
    text = str(name_or_path)
    if path.suffix or "/" in text or os.sep in text:
        raise DatasetError("no such file", path)
    raise DatasetError(
        f"unknown dataset {text!r}: not a built-in ({', '.join(BUILTIN_DATASETS)}) and no such file"
    )


@functools.cache
def _load_builtin(name: str) -> Dataset:
    """Load and cache one of `BUILTIN_DATASETS`."""
    here = resources.files("evals.datasets")
    if name in _HOTPOT:
        filename, corpus_name, description = _HOTPOT[name]
        with resources.as_file(here / "hotpotqa" / filename) as path:
            return load_hotpotqa(path, name=name, corpus_name=corpus_name, description=description)
    with resources.as_file(here / f"{name}.jsonl") as path:
        return read_dataset_file(path)


# -- the user-writable format --------------------------------------------------------------


def read_dataset_file(path: str | os.PathLike[str]) -> Dataset:
    """Parse a dataset ``.jsonl`` file (format in the module docstring); DatasetError if bad."""
    p = Path(path)
    lines = list(_json_lines(p))
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
                f"duplicate id {q.id!r} (first on line {first_line[q.id]})", p, lineno
            )
        first_line[q.id] = lineno
        _check_references(q, known_ids, corpus_names, p, lineno)
        questions.append(q)
    return Dataset(
        name=name,
        questions=tuple(questions),
        corpus=corpus,
        description=header.get("description", ""),
        path=str(p),
    )


def _json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
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
            raise DatasetError(f"expected a JSON object, got {_kind(obj)}", path, lineno)
        yield lineno, obj


def _kind(value: object) -> str:
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


def _name_from_stem(path: Path) -> str:
    """Use the file stem as the dataset name when the header gives none."""
    stem = path.name[: -len(".jsonl")] if path.name.lower().endswith(".jsonl") else path.stem
    return stem or "dataset"


def _check_header(header: Mapping[str, Any], path: Path, line: int) -> None:
    """Validate the header's keys and types."""
    unknown = sorted(set(header) - _HEADER_KEYS)
    if unknown:
        raise DatasetError(
            f"unknown header key {unknown[0]!r} (allowed: dataset, description, corpus)", path, line
        )
    name = header["dataset"]
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise DatasetError(
            f"bad dataset name {name!r}: use letters, digits, '_' and '-'", path, line
        )
    description = header.get("description", "")
    if not isinstance(description, str) or "\n" in description:
        raise DatasetError("'description' must be a one-line string", path, line)
    corpus = header.get("corpus")
    if corpus is not None and (not isinstance(corpus, str) or not corpus.strip()):
        raise DatasetError(
            f"'corpus' must be a corpus name or file path, or null, got {_kind(corpus)}", path, line
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
        known = ", ".join((*BUILTIN_CORPORA, *HOTPOT_CORPORA))
        raise DatasetError(
            f"unknown corpus {spec!r} (known: {known}; or a corpus file path relative to "
            "the dataset file, as PATH or NAME=PATH)",
            path,
            line,
        )
    corpus_path = Path(target) if Path(target).is_absolute() else path.parent / target
    try:
        return load_corpus(corpus_path, name=name)
    except CorpusError as e:
        raise DatasetError(f"corpus {spec!r}: {e}", path, line) from None


def _string_list(obj: Mapping[str, Any], key: str, path: Path, line: int) -> tuple[str, ...]:
    """Return ``obj[key]`` as a tuple of non-empty strings, or raise naming the key."""
    value = obj[key]
    if not isinstance(value, list):
        raise DatasetError(f"{key!r} must be a list of strings, got {_kind(value)}", path, line)
    for item in value:
        if not isinstance(item, str):
            raise DatasetError(
                f"{key!r} must be a list of strings, but holds {_kind(item)} {item!r}", path, line
            )
        if not item.strip():
            raise DatasetError(f"{key!r} holds an empty string", path, line)
    return tuple(value)


def _parse_question(obj: Mapping[str, Any], path: Path, line: int) -> Question:
    """Validate one question line's keys and types and build the Question."""
    unknown = sorted(set(obj) - _QUESTION_KEYS)
    if unknown:
        raise DatasetError(
            f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_QUESTION_KEYS))})",
            path,
            line,
        )
    missing = [k for k in _REQUIRED_KEYS if k not in obj]
    if missing:
        raise DatasetError(f"missing {', '.join(repr(k) for k in missing)}", path, line)
    qid = obj["id"]
    if not isinstance(qid, str):
        raise DatasetError(f"'id' must be a string, got {_kind(qid)} {qid!r}", path, line)
    if not qid.strip() or qid != qid.strip() or _BAD_ID_RE.search(qid):
        raise DatasetError(
            f"bad id {qid!r}: non-empty, no control characters or surrounding spaces", path, line
        )
    text = obj["question"]
    if not isinstance(text, str):
        raise DatasetError(f"'question' must be a string, got {_kind(text)}", path, line)
    if not text.strip():
        raise DatasetError("'question' is empty", path, line)
    answers = _string_list(obj, "answers", path, line)
    if not answers:
        raise DatasetError("'answers' is empty: give at least one accepted answer", path, line)
    supporting = _string_list(obj, "supporting", path, line) if "supporting" in obj else ()
    must_contain = _string_list(obj, "must_contain", path, line) if "must_contain" in obj else ()
    tools = _string_list(obj, "tools", path, line) if obj.get("tools") is not None else None
    for tool in tools or ():
        if tool == "finish":
            raise DatasetError("leave 'finish' out of 'tools': every run ends with it", path, line)
        if not _TOOL_RE.fullmatch(tool):
            raise DatasetError(f"bad tool name {tool!r} in 'tools'", path, line)
    corpus = obj.get("corpus")
    if corpus is not None and not isinstance(corpus, str):
        raise DatasetError(f"'corpus' must be a corpus name, got {_kind(corpus)}", path, line)
    metadata = obj.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise DatasetError(f"'metadata' must be an object, got {_kind(metadata)}", path, line)
    return Question(
        id=qid,
        question=text,
        answers=answers,
        supporting=supporting,
        must_contain=must_contain,
        tools=tools,
        corpus=corpus,
        metadata=metadata or {},
    )


def _check_references(
    q: Question, known_ids: set[str], corpus_names: Sequence[str], path: Path, line: int
) -> None:
    """Check that a question's supporting ids, corpus and search tools exist in the corpora."""
    where = "the built-in corpora" if len(corpus_names) > 1 else f"corpus {corpus_names[0]}"
    for doc_id in q.supporting:
        if doc_id not in known_ids:
            raise DatasetError(f"supporting id {doc_id!r} is not in {where}", path, line)
    if q.corpus is not None and q.corpus not in corpus_names:
        raise DatasetError(
            f"question corpus {q.corpus!r} is not a corpus of this dataset "
            f"({', '.join(corpus_names)})",
            path,
            line,
        )
    for tool in q.tools or ():
        if tool.startswith("search_") and tool[len("search_") :] not in corpus_names:
            raise DatasetError(
                f"tool {tool!r} searches no corpus of this dataset ({', '.join(corpus_names)})",
                path,
                line,
            )


# -- HotpotQA --------------------------------------------------------------------------------


class ParagraphPool:
    """Pools paragraphs into passages with stable ids: the title, ``title#2``... on a clash.

    A paragraph whose title and text both match one already added is the same passage. The
    first paragraph with a title gets the title as its id; a later one with the same title but
    different text gets ``title#2``, then ``title#3``, and so on (skipping an id already taken).
    """

    def __init__(self) -> None:
        self._ids: dict[tuple[str, str], str] = {}
        self._taken: set[str] = set()
        self._per_title: dict[str, int] = {}
        self.passages: list[Passage] = []

    def add(self, title: str, text: str) -> str:
        """Return the id of this paragraph, adding it if it is new."""
        key = (title, text)
        if key in self._ids:
            return self._ids[key]
        n = self._per_title.get(title, 0) + 1
        candidate = title if n == 1 else f"{title}#{n}"
        while candidate in self._taken:
            n += 1
            candidate = f"{title}#{n}"
        self._per_title[title] = n
        self._ids[key] = candidate
        self._taken.add(candidate)
        self.passages.append(Passage(id=candidate, text=text, title=title))
        return candidate


def load_hotpotqa(
    path: str | os.PathLike[str], *, name: str, corpus_name: str, description: str = ""
) -> Dataset:
    """Build a dataset from a HotpotQA file, all its paragraphs pooled into one corpus.

    ``.jsonl`` is the IRCoT format (``question_id``, ``question_text``,
    ``answers_objects[].spans``, ``contexts[]`` of ``title``, ``paragraph_text``,
    ``is_supporting``); ``.json`` is the original HotpotQA list (``id``, ``question``,
    ``answer``, ``supporting_facts.title``, ``context.title`` / ``context.sentences``, the
    sentences of a paragraph joined as they are). Paragraph ids follow `ParagraphPool`; a
    passage's title is the paragraph title and its text the paragraph, so the indexed text is
    ``title + ". " + paragraph``. A question's supporting documents are its supporting
    paragraphs, in context order (IRCoT) or supporting-fact order (original).
    """
    p = Path(path)
    pool = ParagraphPool()
    if p.suffix.lower() == ".jsonl":
        questions = [_ircot_question(obj, pool, _Where(p, line)) for line, obj in _json_lines(p)]
    else:
        questions = list(_original_questions(p, pool))
    if not questions:
        raise DatasetError("empty dataset: no questions", p, 1)
    seen: dict[str, int] = {}
    for i, q in enumerate(questions, start=1):
        if q.id in seen:
            raise DatasetError(
                f"duplicate question id {q.id!r} (questions {seen[q.id]} and {i})", p
            )
        seen[q.id] = i
    n = len(pool.passages)
    corpus_description = (
        f"{n:,} Wikipedia paragraphs pooled from the contexts of {len(questions)} "
        f"HotpotQA questions ({p.name})"
    )
    corpus = Corpus(name=corpus_name, passages=tuple(pool.passages), description=corpus_description)
    return Dataset(
        name=name,
        questions=tuple(questions),
        corpus=corpus,
        description=description or corpus_description,
        path=str(p),
    )


@dataclass(frozen=True)
class _Where:
    """Where a problem in a HotpotQA file is: the file, and a line or an item index."""

    path: Path
    line: int | None = None
    item: int | None = None

    def error(self, message: str) -> DatasetError:
        """Return a DatasetError for `message` at this place."""
        prefix = "" if self.item is None else f"item {self.item}: "
        return DatasetError(prefix + message, self.path, self.line)


def _need(obj: Mapping[str, Any], key: str, kind: type, at: _Where) -> Any:
    """Return ``obj[key]`` if present and of `kind`, else raise DatasetError at `at`."""
    if key not in obj:
        raise at.error(f"missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind):
        raise at.error(f"{key!r} must be {_kind(kind())}, got {_kind(value)}")
    return value


def _checked_title(title: object, at: _Where) -> str:
    """Return a paragraph title usable as a cited id (the agent cites ``[id]``), or raise."""
    if not isinstance(title, str):
        raise at.error(f"a paragraph title must be a string, got {_kind(title)}")
    if not title.strip() or title != title.strip() or _BAD_TITLE_RE.search(title):
        raise at.error(f"title {title!r} cannot be a document id")
    return title


def _ircot_question(obj: Mapping[str, Any], pool: ParagraphPool, at: _Where) -> Question:
    """Build one question (and pool its paragraphs) from an IRCoT-format line."""
    qid = _need(obj, "question_id", str, at)
    text = _need(obj, "question_text", str, at)
    answers: list[str] = []
    for ans in _need(obj, "answers_objects", list, at):
        spans = ans.get("spans", []) if isinstance(ans, dict) else []
        answers.extend(s for s in spans if isinstance(s, str) and s.strip() and s not in answers)
    if not answers:
        raise at.error(f"question {qid!r} has no answer spans")
    supporting: list[str] = []
    for ctx in _need(obj, "contexts", list, at):
        if not isinstance(ctx, dict):
            raise at.error(f"a context must be an object, got {_kind(ctx)}")
        title = _checked_title(ctx.get("title"), at)
        doc_id = pool.add(title, _need(ctx, "paragraph_text", str, at))
        if ctx.get("is_supporting") is True and doc_id not in supporting:
            supporting.append(doc_id)
    return Question(id=qid, question=text, answers=tuple(answers), supporting=tuple(supporting))


def _original_questions(path: Path, pool: ParagraphPool) -> Iterator[Question]:
    """Yield the questions (pooling paragraphs) of an original-format HotpotQA ``.json`` list."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except OSError as e:
        raise DatasetError(f"cannot read file: {e.strerror or e}", path) from None
    except UnicodeDecodeError:
        raise DatasetError("not UTF-8 text", path) from None
    except json.JSONDecodeError as e:
        raise DatasetError(f"malformed JSON: {e.msg} (column {e.colno})", path, e.lineno) from None
    if not isinstance(data, list):
        raise DatasetError(f"expected a JSON list of questions, got {_kind(data)}", path)
    for i, obj in enumerate(data):
        at = _Where(path, item=i)
        if not isinstance(obj, dict):
            raise at.error(f"expected an object, got {_kind(obj)}")
        context = _need(obj, "context", dict, at)
        titles = _need(context, "title", list, at)
        sentences = _need(context, "sentences", list, at)
        if len(titles) != len(sentences):
            raise at.error(f"context has {len(titles)} titles for {len(sentences)} paragraphs")
        by_title: dict[str, str] = {}
        for title, sents in zip(titles, sentences, strict=True):
            if not isinstance(sents, list) or not all(isinstance(x, str) for x in sents):
                raise at.error("a context paragraph must be a list of sentence strings")
            doc_id = pool.add(_checked_title(title, at), "".join(sents))
            by_title.setdefault(title, doc_id)
        supporting: list[str] = []
        for title in _need(_need(obj, "supporting_facts", dict, at), "title", list, at):
            if title not in by_title:
                raise at.error(f"supporting title {title!r} is not in the question's context")
            if by_title[title] not in supporting:
                supporting.append(by_title[title])
        answer = _need(obj, "answer", str, at)
        if not answer.strip():
            raise at.error("empty 'answer'")
        yield Question(
            id=_need(obj, "id", str, at),
            question=_need(obj, "question", str, at),
            answers=(answer,),
            supporting=tuple(supporting),
            metadata={k: obj[k] for k in ("type", "level") if k in obj},
        )
