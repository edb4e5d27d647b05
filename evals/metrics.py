"""Eval metrics: the seed-004 `evaluate`, per-run records and their summary.

`evaluate(results, questions)` is the seed's function: ``results[i]`` is a run's result dict
(``answer``, ``citations``, ``unsupported``, ``steps``, ``stopped``, ...) for
``questions[i] = (question, answers, supporting_doc_ids)``.

A `RunRecord` is one row of an eval's ``results.jsonl``: what the run did for one question plus
the per-run figures (``correct``, ``retrieval_recall``, latency, tokens). `make_record` builds one
from a run result; `summarize` turns a list of them into the table people compare.

Conventions, the same everywhere in this module:

- An answer is correct when it contains any accepted answer, compared case-insensitively
  (``str.casefold``); a ``None`` answer is wrong.
- Recall over supporting documents is micro-averaged: supporting documents are summed over all
  questions, and a document cited (or retrieved) several times counts once.
- A question with no supporting documents contributes nothing to a micro recall; if *no*
  question has any, the recall is 1.0 (nothing to find, nothing missed). The same holds for the
  per-run `retrieval_recall`.
- Empty input is an error (`ValueError`): a metric over zero runs has no meaningful value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NotRequired, Protocol, TypedDict

import numpy as np

from evals.answer_metrics import answer_scores
from tools.finish import FINISH_TOOL

_REQUIRED_RESULT_KEYS: tuple[str, ...] = ("answer", "citations", "unsupported", "steps")


class QuestionLike(Protocol):
    """What `make_record` needs from a dataset question (`evals.datasets.Question` fits)."""

    @property
    def id(self) -> str:
        """Stable question id."""
        ...

    @property
    def question(self) -> str:
        """The question text."""
        ...

    @property
    def answers(self) -> Sequence[str]:
        """Accepted answers: containing any one of them is correct."""
        ...

    @property
    def supporting(self) -> Sequence[str]:
        """Ids of the documents that support the answer."""
        ...

    @property
    def must_contain(self) -> Sequence[str]:
        """Strings that must all appear in the answer too (may be empty)."""
        ...

    @property
    def tools(self) -> Sequence[str] | None:
        """Tool calls the run must make, in order, ``finish`` excluded; None: no requirement."""
        ...


class RunRecord(TypedDict):
    """One question's row in ``results.jsonl``."""

    question_id: str
    """The dataset's id for the question."""
    question: str
    """The question text."""
    answer: str | None
    """The run's final answer; None when it stopped without one."""
    short_answer: NotRequired[str | None]
    """The run's short answer (what EM and F1 score when set)."""
    citations: list[str]
    """Cited document ids that the run actually retrieved."""
    unsupported: list[str]
    """Cited document ids that the run never retrieved."""
    retrieved: list[str]
    """Distinct document ids retrieved at any step, in first-seen order."""
    supporting: list[str]
    """The question's supporting document ids (copied here so a row is self-contained)."""
    steps: int
    """Model calls made."""
    stopped: str
    """Why the run ended ("answer", "budget", ...)."""
    latency_s: float
    """Wall-clock seconds for the run."""
    thread_id: str
    """The checkpointed thread holding the run's transcript."""
    correct: bool
    """`is_correct` of the answer against the question's accepted answers."""
    retrieval_recall: float
    """`retrieval_recall` of ``retrieved`` against ``supporting``."""
    em: float
    """Exact match with the best accepted answer (SQuAD normalization)."""
    f1: float
    """Token F1 with the best accepted answer."""
    contains_word: float
    """1.0 when the answer holds an accepted answer as whole words."""
    grounded: float
    """Share of the answer's content words found in the passages it cites (0 citing nothing)."""
    support: NotRequired[float]
    """Share of the question's idf weight the cited passages cover."""
    confident: NotRequired[bool]
    """Whether the run's answer is trusted (`graph.models.confidence.is_confident`, or computed)."""
    tokens: NotRequired[int | None]
    """Total tokens the model reported for the run; absent or None when it reported none."""
    tool_calls: NotRequired[list[str]]
    """Names of the tools the run called, in order, ``finish`` excluded."""
    tools_ok: NotRequired[bool]
    """Whether ``tool_calls`` matched the question's required tools (only when it has some)."""
    error: NotRequired[str]
    """Why the run failed, when it stopped on an error."""


def answer_contains(answer: str | None, accepted: Iterable[str]) -> bool:
    """Return True when `answer` contains any of `accepted`, ignoring case; None is never right."""
    if answer is None:
        return False
    folded = answer.casefold()
    return any(a.casefold() in folded for a in accepted)


def is_correct(
    answer: str | None, answers: Iterable[str], must_contain: Iterable[str] = ()
) -> bool:
    """Return True when `answer` contains any of `answers` and every string of `must_contain`.

    Case is ignored throughout; a None answer is wrong. With an empty `must_contain` this is
    exactly the seed's accuracy rule (`answer_contains`).
    """
    if not answer_contains(answer, answers):
        return False
    assert answer is not None  # answer_contains is False for None
    folded = answer.casefold()
    return all(m.casefold() in folded for m in must_contain)


def tools_match(called: Sequence[str], required: Sequence[str]) -> bool:
    """Return True when the run's tool calls (``finish`` excluded) are exactly `required`, in order.

    Exact, so "calculator only, no retrieval" is ``["calculator"]`` and "search twice" is two
    entries.
    """
    return [c for c in called if c != FINISH_TOOL] == list(required)


def retrieval_recall(retrieved_ids: Iterable[str], supporting: Iterable[str]) -> float:
    """Return the share of distinct `supporting` ids that appear in `retrieved_ids`.

    1.0 when there are no supporting ids (nothing to find). Order and repeats don't matter.
    """
    gold = set(supporting)
    if not gold:
        return 1.0
    return len(gold & set(retrieved_ids)) / len(gold)


def micro_recall(found: Iterable[Iterable[str]], supporting: Iterable[Iterable[str]]) -> float:
    """Return micro recall: supporting ids found, summed over questions, over all supporting ids.

    `found[i]` and `supporting[i]` belong to question i (the caller checks the lengths match).
    Each question's ids are de-duplicated; 1.0 when no question has supporting ids.
    """
    hits = total = 0
    for got, gold in zip(found, supporting, strict=True):
        gold_set = set(gold)
        total += len(gold_set)
        hits += len(gold_set & set(got))
    return hits / total if total else 1.0


def _check_result(label: str, result: Mapping[str, Any]) -> None:
    """Raise ValueError naming `label` if `result` lacks a key that `evaluate` reads."""
    missing = [k for k in _REQUIRED_RESULT_KEYS if k not in result]
    if missing:
        raise ValueError(f"{label} has no {', '.join(repr(k) for k in missing)}")


def evaluate(
    results: Sequence[Mapping[str, Any]],
    questions: Sequence[tuple[str, Sequence[str], Sequence[str]]],
) -> dict[str, float]:
    """Score runs against their questions, as seed 004 specifies.

    `results[i]` is a run's result dict for ``questions[i] = (question, answers,
    supporting_doc_ids)``. Returns:

    - ``accuracy``: share of answers containing any accepted answer (case-insensitive; None is
      wrong);
    - ``citation_recall``: supporting documents found in the results' ``citations`` (each cited
      document counted once per question), over all supporting documents, summed over
      questions; 1.0 if there are none. Only ``citations`` count: an ``unsupported`` citation
      was never retrieved, so it is not credited even when it names a supporting document;
    - ``unsupported_rate``: share of results with a non-empty ``unsupported`` list;
    - ``mean_steps``: mean of ``steps`` over all results;

    and beside the seed's four (`evals.answer_metrics`, SQuAD normalization, each the best over
    the accepted answers, None scoring 0):

    - ``em``: mean exact match; ``f1``: mean token F1; ``contains_word``: share of answers
      containing an accepted answer as whole words;
    - ``grounded``: mean of the results' ``grounded`` (share of the answer's content words in
      the passages it cites); a result without one counts 0.

    Raises ValueError when the lengths differ, when there are no results, or when a result lacks
    ``answer``, ``citations``, ``unsupported`` or ``steps``.
    """
    if len(results) != len(questions):
        raise ValueError(f"{len(results)} results for {len(questions)} questions: lengths differ")
    if not results:
        raise ValueError("no results to evaluate")
    for i, result in enumerate(results):
        _check_result(f"results[{i}]", result)
    n = len(results)
    pairs = zip(results, questions, strict=True)
    correct = sum(answer_contains(r["answer"], q[1]) for r, q in pairs)
    recall = micro_recall((r["citations"] for r in results), (q[2] for q in questions))
    unsupported = sum(bool(r["unsupported"]) for r in results)
    steps = sum(int(r["steps"]) for r in results)
    scores = [
        answer_scores(r["answer"], q[1], r.get("short_answer"))
        for r, q in zip(results, questions, strict=True)
    ]
    return {
        "accuracy": correct / n,
        "citation_recall": recall,
        "unsupported_rate": unsupported / n,
        "mean_steps": steps / n,
        **{key: sum(s[key] for s in scores) / n for key in ("em", "f1", "contains_word")},
        "grounded": sum(float(r.get("grounded") or 0.0) for r in results) / n,
    }


def make_record(
    question: QuestionLike,
    result: Mapping[str, Any],
    *,
    retrieved: Iterable[str],
    latency_s: float,
    thread_id: str,
    tokens: int | None = None,
    tool_calls: Sequence[str] | None = None,
) -> RunRecord:
    """Build the `RunRecord` for one run of `question`.

    `result` is the run's result dict (``answer``, ``citations``, ``unsupported``, ``steps``,
    ``stopped``); `retrieved` every document id the run retrieved at any step (repeats are
    dropped, first-seen order kept). ``correct`` uses the question's ``answers`` and
    ``must_contain``; ``tools_ok`` is set only when both `tool_calls` and the question's
    ``tools`` are given. For a question marked ``unanswerable`` (`evals.datasets.Question`) the
    right result is no answer: a decline is correct and scores 1.0 on every answer metric.
    """
    _check_result(f"the result for question {question.id!r}", result)
    seen = list(dict.fromkeys(retrieved))
    scores = answer_scores(result["answer"], question.answers, result.get("short_answer"))
    correct = is_correct(result["answer"], question.answers, question.must_contain)
    if getattr(question, "unanswerable", False):
        correct = result["answer"] is None
        scores = dict.fromkeys(scores, float(correct))
    record: RunRecord = {
        "question_id": question.id,
        "question": question.question,
        "answer": result["answer"],
        "short_answer": result.get("short_answer"),
        "citations": list(result["citations"]),
        "unsupported": list(result["unsupported"]),
        "retrieved": seen,
        "supporting": list(question.supporting),
        "steps": int(result["steps"]),
        "stopped": str(result.get("stopped", "")),
        "latency_s": float(latency_s),
        "thread_id": thread_id,
        "correct": correct,
        "retrieval_recall": retrieval_recall(seen, question.supporting),
        "em": scores["em"],
        "f1": scores["f1"],
        "contains_word": scores["contains_word"],
        "grounded": float(result.get("grounded") or 0.0),
        "support": float(result.get("support") or 0.0),
        "confident": bool(result.get("confident", result["answer"] is not None)),
    }
    if tokens is not None:
        record["tokens"] = int(tokens)
    if tool_calls is not None:
        record["tool_calls"] = list(tool_calls)
        if question.tools is not None:
            record["tools_ok"] = tools_match(tool_calls, question.tools)
    return record


def summarize(records: Sequence[RunRecord]) -> dict[str, float | int | None]:
    """Return the metrics table for a list of run records.

    Keys:

    - ``n``: number of records;
    - ``accuracy``: share of records with ``correct`` (which also applies ``must_contain``);
    - ``citation_recall``, ``unsupported_rate``, ``mean_steps``: as in `evaluate`;
    - ``retrieval_recall``: micro recall of ``retrieved`` over ``supporting`` (summed over
      questions, like `evals.baselines.single_shot_recall_at_budgets`, so the two compare
      directly);
    - ``mean_retrieval_recall``: mean of the per-record ``retrieval_recall`` (equal to the micro
      figure when every question has the same number of supporting documents);
    - ``mean_retrieved``: mean number of distinct documents retrieved per question;
    - ``latency_p50_s``, ``latency_p95_s``: percentiles of ``latency_s`` (linear interpolation);
    - ``tokens_total``: sum of ``tokens`` over the records that report it, None if none do;
    - ``tokens_reported``: how many records report ``tokens``;
    - ``tools_ok_rate``: share of ``tools_ok`` among records that carry it, None if none do;
    - ``em``, ``f1``, ``contains_word``, ``grounded``: means over the records (a record written
      before these existed counts 0).

    Raises ValueError when `records` is empty.
    """
    if not records:
        raise ValueError("no records to summarize")
    n = len(records)
    base = evaluate(
        [dict(r) for r in records],
        [(r["question"], [], r["supporting"]) for r in records],
    )
    latencies = np.asarray([r["latency_s"] for r in records], dtype=np.float64)
    tokens = [t for r in records if (t := r.get("tokens")) is not None]
    tools_ok = [r["tools_ok"] for r in records if "tools_ok" in r]
    return {
        "n": n,
        "accuracy": sum(r["correct"] for r in records) / n,
        "citation_recall": base["citation_recall"],
        "unsupported_rate": base["unsupported_rate"],
        "mean_steps": base["mean_steps"],
        "retrieval_recall": micro_recall(
            (r["retrieved"] for r in records), (r["supporting"] for r in records)
        ),
        "mean_retrieval_recall": sum(r["retrieval_recall"] for r in records) / n,
        "mean_retrieved": sum(len(set(r["retrieved"])) for r in records) / n,
        "latency_p50_s": float(np.percentile(latencies, 50)),
        "latency_p95_s": float(np.percentile(latencies, 95)),
        "tokens_total": sum(tokens) if tokens else None,
        "tokens_reported": len(tokens),
        "tools_ok_rate": sum(tools_ok) / len(tools_ok) if tools_ok else None,
        **{key: _mean(records, key) for key in ("em", "f1", "contains_word", "grounded")},
    }


def _mean(records: Sequence[RunRecord], key: str) -> float:
    """The mean of a numeric record field; a record without it counts 0."""
    values: list[Any] = [dict(r).get(key) for r in records]
    return sum(float(v or 0.0) for v in values) / len(values)
