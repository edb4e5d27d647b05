"""HotpotQA as eval datasets: every paragraph of a file pooled into one corpus.

`load_hotpotqa` reads the IRCoT ``.jsonl`` format or the original HotpotQA ``.json`` list;
`ParagraphPool` gives the pooled paragraphs stable ids. `HOTPOT_DATASETS` names the built-in
HotpotQA datasets (the files under ``hotpotqa/``) that `evals.datasets.load_dataset` loads.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpora import Corpus, Passage
from evals.datasets.dataset import Dataset, DatasetError, Question, json_kind, json_lines

HOTPOT_DATASETS: dict[str, tuple[str, str, str]] = {
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
"""Built-in HotpotQA dataset name -> (file under hotpotqa/, corpus name, description)."""
HOTPOT_SPLITS: dict[str, tuple[str, int, int, str]] = {
    "hotpotqa-dev-tune": (
        "hotpotqa-dev",
        0,
        250,
        "HotpotQA dev questions 1-250 (file order), the split the policy's rules and weights "
        "are chosen on: in-sample, not a fair score",
    ),
    "hotpotqa-dev-test": (
        "hotpotqa-dev",
        250,
        500,
        "HotpotQA dev questions 251-500 (file order), held out: nothing in the policy is "
        "chosen on them",
    ),
}
"""Held-out splits: name -> (parent dataset, first index, end index, description).

A split keeps its parent's whole pooled corpus, so retrieval is exactly as hard as on the
parent; only the questions are divided, by their order in the file (deterministic)."""


def split_dataset(parent: Dataset, name: str, start: int, stop: int, description: str) -> Dataset:
    """Questions ``start``..``stop - 1`` of `parent` (file order), over the parent's corpus."""
    return Dataset(
        name=name,
        questions=parent.questions[start:stop],
        corpus=parent.corpus,
        description=description,
        path=parent.path,
    )


HOTPOT_CORPORA: dict[str, str] = {corpus: ds for ds, (_f, corpus, _d) in HOTPOT_DATASETS.items()}
"""Pooled HotpotQA corpus name -> the built-in dataset it comes from."""

_BAD_TITLE_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")


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
        questions = [_ircot_question(obj, pool, _Where(p, line)) for line, obj in json_lines(p)]
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
        raise at.error(f"{key!r} must be {json_kind(kind())}, got {json_kind(value)}")
    return value


def _checked_title(title: object, at: _Where) -> str:
    """Return a paragraph title usable as a cited id (the agent cites ``[id]``), or raise."""
    if not isinstance(title, str):
        raise at.error(f"a paragraph title must be a string, got {json_kind(title)}")
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
            raise at.error(f"a context must be an object, got {json_kind(ctx)}")
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
        raise DatasetError(f"expected a JSON list of questions, got {json_kind(data)}", path)
    for i, obj in enumerate(data):
        at = _Where(path, item=i)
        if not isinstance(obj, dict):
            raise at.error(f"expected an object, got {json_kind(obj)}")
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
