from dataclasses import dataclass, field
from typing import Any

import pytest

from evals.metrics import (
    RunRecord,
    answer_contains,
    evaluate,
    is_correct,
    make_record,
    micro_recall,
    retrieval_recall,
    summarize,
    tools_match,
)


def run(
    answer: str | None,
    citations: list[str],
    unsupported: list[str] | None = None,
    steps: int = 2,
    stopped: str = "answer",
) -> dict[str, Any]:
    return {
        "answer": answer,
        "citations": citations,
        "unsupported": unsupported or [],
        "steps": steps,
        "stopped": stopped,
    }


QUESTIONS = [
    ("Who leads the team that owns Atlas?", ["Priya Raman"], ["d1", "d2"]),
    ("How many retries?", ["three", "3"], ["d8"]),
    ("Who leads Beacon's team?", ["Tomas Ekberg"], ["d3", "d4"]),
    ("Which docks?", ["Voltline"], ["d2", "d5"]),
]


def test_evaluate_hand_computed() -> None:
    results = [
        # correct (case differs), cites d1 twice and d2 -> 2 of 2 supporting cited
        run("It is PRIYA RAMAN.", ["d1", "d1", "d2"], steps=3),
        # correct via the second accepted answer, no citations -> 0 of 1
        run("Atlas retries 3 times", [], steps=2),
        # budget ran out: None is wrong; cites d3 but also an unsupported d4
        run(None, ["d3"], unsupported=["d4"], steps=6, stopped="budget"),
        # wrong answer; cites a non-supporting doc and d5; an unsupported d9
        run("Ampere Works", ["d6", "d5"], unsupported=["d9", "d9"], steps=4),
    ]
    metrics = evaluate(results, QUESTIONS)
    # the seed's four metrics, then the answer and grounding metrics, in that order
    assert list(metrics) == [
        *("accuracy", "citation_recall", "unsupported_rate", "mean_steps"),
        *("em", "f1", "contains_word", "grounded"),
    ]
    # accuracy: questions 1 and 2 right, 3 (None) and 4 wrong -> 2/4
    assert metrics["accuracy"] == pytest.approx(2 / 4)
    # citation recall, micro: supporting docs 2 + 1 + 2 + 2 = 7; cited d1, d2 | - | d3 | d5 = 4.
    # The unsupported d4 does not count: it was never retrieved.
    assert metrics["citation_recall"] == pytest.approx(4 / 7)
    # unsupported rate: results 3 and 4 have unsupported citations -> 2/4
    assert metrics["unsupported_rate"] == pytest.approx(2 / 4)
    # mean steps: (3 + 2 + 6 + 4) / 4
    assert metrics["mean_steps"] == pytest.approx(15 / 4)


def test_evaluate_all_perfect_and_all_empty() -> None:
    perfect = [run(q[1][0], list(q[2]), steps=1) for q in QUESTIONS]
    assert evaluate(perfect, QUESTIONS) == {
        "accuracy": 1.0,
        "citation_recall": 1.0,
        "unsupported_rate": 0.0,
        "mean_steps": 1.0,
        **{"em": 1.0, "f1": 1.0, "contains_word": 1.0, "grounded": 0.0},  # no grounded given
    }
    empty = [run(None, [], steps=6, stopped="budget") for _ in QUESTIONS]
    assert evaluate(empty, QUESTIONS) == {
        "accuracy": 0.0,
        "citation_recall": 0.0,
        "unsupported_rate": 0.0,
        "mean_steps": 6.0,
        **{"em": 0.0, "f1": 0.0, "contains_word": 0.0, "grounded": 0.0},
    }


def test_evaluate_no_supporting_docs_is_full_recall() -> None:
    questions: list[tuple[str, list[str], list[str]]] = [("What is 18% of $250?", ["$45.00"], [])]
    metrics = evaluate([run("$45.00", [])], questions)
    assert metrics["citation_recall"] == 1.0
    assert metrics["accuracy"] == 1.0


def test_evaluate_accepts_tuples_and_extra_keys() -> None:
    result = run("three", ("d8",))  # type: ignore[arg-type]
    result["retrieved"] = ["d8", "d1"]
    metrics = evaluate((result,), (("q", ("three",), ("d8",)),))
    assert metrics["accuracy"] == 1.0
    assert metrics["citation_recall"] == 1.0


def test_evaluate_errors() -> None:
    with pytest.raises(ValueError, match="3 results for 4 questions"):
        evaluate([run("x", [])] * 3, QUESTIONS)
    with pytest.raises(ValueError, match="no results"):
        evaluate([], [])
    bad = run("x", [])
    del bad["unsupported"]
    with pytest.raises(ValueError, match=r"results\[0\] has no 'unsupported'"):
        evaluate([bad], QUESTIONS[:1])


def test_answer_rules() -> None:
    assert answer_contains("Voltline builds them", ["voltLINE"])
    assert not answer_contains(None, ["x"])
    assert not answer_contains("anything", [])
    assert answer_contains("STRASSE", ["straße"])  # casefold, not just lower
    assert is_correct("Globex: a 2-year warranty", ["2-year"], ["globex"])
    assert not is_correct("a 2-year warranty", ["2-year"], ["Globex"])
    assert not is_correct("Globex", ["2-year"], ["Globex"])
    assert not is_correct(None, ["x"], [])


def test_tools_match() -> None:
    assert tools_match(["search_products", "search_products", "finish"], ["search_products"] * 2)
    assert not tools_match(["search_products"], ["search_products"] * 2)
    assert tools_match(["calculator"], ["calculator"])
    assert not tools_match(["search_policy", "calculator"], ["calculator"])
    assert tools_match([], [])


def test_retrieval_and_micro_recall() -> None:
    assert retrieval_recall(["d1", "d9", "d1"], ["d1", "d2"]) == 0.5
    assert retrieval_recall([], ["d1"]) == 0.0
    assert retrieval_recall(["d1"], []) == 1.0
    assert retrieval_recall(["d2", "d1"], ["d1", "d2", "d2"]) == 1.0
    # micro: (1 + 0 + 2) / (2 + 1 + 2)
    found = [["d1"], [], ["d3", "d4", "d3"]]
    gold = [["d1", "d2"], ["d8"], ["d3", "d4"]]
    assert micro_recall(found, gold) == pytest.approx(3 / 5)
    assert micro_recall([[]], [[]]) == 1.0


@dataclass(frozen=True)
class Q:
    id: str
    question: str
    answers: tuple[str, ...]
    supporting: tuple[str, ...]
    must_contain: tuple[str, ...] = ()
    tools: tuple[str, ...] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def test_make_record() -> None:
    q = Q(
        "a", "warranty?", ("2-year",), ("prod-1", "prod-3"), ("Globex",), ("search_products",) * 2
    )
    rec = make_record(
        q,
        run("Globex; 2-year warranty", ["prod-1", "prod-3"], steps=3),
        retrieved=["prod-1", "prod-2", "prod-1", "prod-3"],
        latency_s=0.25,
        thread_id="t-1",
        tokens=120,
        tool_calls=["search_products", "search_products", "finish"],
    )
    assert rec["retrieved"] == ["prod-1", "prod-2", "prod-3"]
    assert rec["correct"] is True
    assert rec["retrieval_recall"] == 1.0
    assert rec["tokens"] == 120
    assert rec["tools_ok"] is True
    assert rec["supporting"] == ["prod-1", "prod-3"]
    assert rec["stopped"] == "answer"

    plain = make_record(
        Q("b", "?", ("x",), ("d1",)), run(None, []), retrieved=[], latency_s=1, thread_id="t"
    )
    assert plain["correct"] is False
    assert plain["retrieval_recall"] == 0.0
    assert "tokens" not in plain and "tool_calls" not in plain and "tools_ok" not in plain
    with pytest.raises(ValueError, match="question 'b' has no 'answer'"):
        make_record(Q("b", "?", ("x",), ()), {}, retrieved=[], latency_s=0, thread_id="t")


def record(
    qid: str,
    correct: bool,
    citations: list[str],
    retrieved: list[str],
    supporting: list[str],
    latency: float,
    steps: int = 2,
    unsupported: list[str] | None = None,
    tokens: int | None = None,
) -> RunRecord:
    rec: RunRecord = {
        "question_id": qid,
        "question": f"question {qid}",
        "answer": "x" if correct else None,
        "citations": citations,
        "unsupported": unsupported or [],
        "retrieved": retrieved,
        "supporting": supporting,
        "steps": steps,
        "stopped": "answer",
        "latency_s": latency,
        "thread_id": f"t-{qid}",
        "correct": correct,
        "retrieval_recall": retrieval_recall(retrieved, supporting),
    }
    if tokens is not None:
        rec["tokens"] = tokens
    return rec


def test_summarize_hand_computed() -> None:
    records = [
        record("1", True, ["d1"], ["d1", "d2", "d7"], ["d1", "d2"], 1.0, steps=3, tokens=100),
        record("2", False, [], ["d9"], ["d8"], 2.0, steps=6, unsupported=["d8"]),
        record("3", True, ["d3"], ["d3"], ["d3", "d4"], 3.0, steps=2, tokens=50),
        record("4", True, ["d5"], ["d5", "d2", "d5"], ["d2", "d5"], 4.0, steps=1),
    ]
    s = summarize(records)
    assert s["n"] == 4
    assert s["accuracy"] == pytest.approx(3 / 4)
    # cited supporting: d1 | - | d3 | d5 = 3 of 2 + 1 + 2 + 2 = 7
    assert s["citation_recall"] == pytest.approx(3 / 7)
    assert s["unsupported_rate"] == pytest.approx(1 / 4)
    assert s["mean_steps"] == pytest.approx(12 / 4)
    # retrieved supporting: 2 | 0 | 1 | 2 = 5 of 7 (micro); per question 1, 0, .5, 1 (macro)
    assert s["retrieval_recall"] == pytest.approx(5 / 7)
    assert s["mean_retrieval_recall"] == pytest.approx(2.5 / 4)
    # distinct retrieved: 3, 1, 1, 2
    assert s["mean_retrieved"] == pytest.approx(7 / 4)
    # latencies 1, 2, 3, 4: p50 = 2.5; p95 = 3 + 0.85 * (4 - 3) (linear interpolation)
    assert s["latency_p50_s"] == pytest.approx(2.5)
    assert s["latency_p95_s"] == pytest.approx(3.85)
    assert s["tokens_total"] == 150
    assert s["tokens_reported"] == 2
    assert s["tools_ok_rate"] is None


def test_summarize_without_tokens_and_empty() -> None:
    s = summarize([record("1", True, [], [], [], 0.5)])
    assert s["tokens_total"] is None
    assert s["tokens_reported"] == 0
    assert s["retrieval_recall"] == 1.0
    assert s["latency_p50_s"] == s["latency_p95_s"] == 0.5
    with pytest.raises(ValueError, match="no records"):
        summarize([])


def test_summarize_tools_ok_rate() -> None:
    recs = [record("1", True, [], [], [], 1.0), record("2", True, [], [], [], 1.0)]
    recs[0]["tools_ok"] = True
    recs[1]["tools_ok"] = False
    assert summarize(recs)["tools_ok_rate"] == 0.5
