"""EM, token F1 and whole-word containment (SQuAD normalization), and `grounded`, in
`evaluate`, in each run record and in `summarize`; every expected value computed by hand."""

from __future__ import annotations

from typing import Any

import pytest

from evals.answer_metrics import (
    answer_scores,
    contains_word,
    exact_match,
    normalize_answer,
    token_f1,
)
from evals.datasets import Question
from evals.metrics import evaluate, make_record, summarize


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("The Lantern Bridge!", "lantern bridge"),
        ("  an  Apple, a pear; the   plum. ", "apple pear plum"),
        ("Theatre of Anna", "theatre of anna"),  # "the" inside a word stays
        ("", ""),
    ],
)
def test_squad_normalization(text: str, normalized: str) -> None:
    assert normalize_answer(text) == normalized


@pytest.mark.parametrize(
    ("answer", "gold", "em", "f1", "word"),
    [
        ("The Lantern Bridge.", "lantern bridge", 1.0, 1.0, 1.0),  # articles, case, punctuation
        ("the Lantern Bridge in Vell", "Lantern Bridge", 0.0, 2 / 3, 1.0),  # P 2/4, R 2/2
        ("Vell", "Lantern Bridge", 0.0, 0.0, 0.0),
        ("yes", "yes", 1.0, 1.0, 1.0),
        ("Yes.", "no", 0.0, 0.0, 0.0),
        ("It is known", "no", 0.0, 0.0, 0.0),  # "no" is not a word of "known"
        ("no, it is not", "no", 0.0, 0.0, 1.0),  # yes/no gold: F1 only on an exact answer
        ("", "Lantern Bridge", 0.0, 0.0, 0.0),  # empty answer
        (None, "Lantern Bridge", 0.0, 0.0, 0.0),  # no answer at all
        ("the", "a", 1.0, 1.0, 0.0),  # both normalize to nothing; nothing to contain
    ],
)
def test_each_metric_by_hand(
    answer: str | None, gold: str, em: float, f1: float, word: float
) -> None:
    assert exact_match(answer, gold) == em
    assert token_f1(answer, gold) == pytest.approx(f1)
    assert contains_word(answer, gold) == word


def result(answer: str | None, grounded: float | None = None) -> dict[str, Any]:
    """A run result as the agent returns it."""
    out: dict[str, Any] = {"answer": answer, "citations": [], "unsupported": [], "steps": 2}
    if grounded is not None:
        out["grounded"] = grounded
    return out


def test_evaluate_adds_the_new_fields_best_over_gold_answers() -> None:
    questions = [
        ("q1", ["Ida Marr", "Marr"], []),  # second gold matches exactly
        ("q2", ["yes"], []),
        ("q3", ["four hundred", "400"], []),
        ("q4", ["Vell"], []),
    ]
    results = [
        result("Marr", 1.0),  # em 1 (2nd gold), f1 1, word 1
        result("known", 0.5),  # seed accuracy counts "no"-like substrings; here gold is yes: 0
        result("about 400 boats", 0.0),  # em 0, f1 best = 2*(1/3)(1)/(4/3) = 0.5, word 1
        result(None),  # all 0, grounded missing -> 0
    ]
    metrics = evaluate(results, questions)
    assert metrics["em"] == pytest.approx(1 / 4)
    assert metrics["f1"] == pytest.approx((1.0 + 0.0 + 0.5 + 0.0) / 4)
    assert metrics["contains_word"] == pytest.approx(2 / 4)
    assert metrics["grounded"] == pytest.approx((1.0 + 0.5 + 0.0 + 0.0) / 4)
    assert metrics["accuracy"] == pytest.approx(2 / 4)  # the seed's rule is unchanged


def test_the_seed_accuracy_and_whole_words_disagree_where_they_should() -> None:
    metrics = evaluate([result("It is now known")], [("q", ["no"], [])])
    assert metrics["accuracy"] == 1.0  # seed 004: "contains", case-insensitive
    assert metrics["contains_word"] == 0.0 and metrics["em"] == 0.0


def test_records_and_summary_carry_the_fields() -> None:
    q1 = Question(id="a", question="Who built the Lantern Bridge?", answers=("Ida Marr",))
    q2 = Question(id="b", question="Is Vell a port?", answers=("yes",))
    r1 = make_record(q1, result("Ida Marr.", 0.75), retrieved=[], latency_s=0.1, thread_id="t")
    r2 = make_record(q2, result("Vell is a port"), retrieved=[], latency_s=0.1, thread_id="t")
    assert (r1["em"], r1["f1"], r1["contains_word"], r1["grounded"]) == (1.0, 1.0, 1.0, 0.75)
    assert (r2["em"], r2["f1"], r2["contains_word"], r2["grounded"]) == (0.0, 0.0, 0.0, 0.0)
    summary = summarize([r1, r2])
    assert summary["em"] == 0.5 and summary["f1"] == 0.5 and summary["grounded"] == 0.375


def test_hotpotqa_style_tables_lead_with_em_f1_and_retrieval_the_seed_ones_with_accuracy() -> None:
    from evals.report_data import metrics_for

    hotpot = [key for key, _ in metrics_for("hotpotqa-dev-test")]
    seed = [key for key, _ in metrics_for("notes")]
    assert hotpot[:4] == ["n", "em", "f1", "retrieval_recall"]
    assert seed[:2] == ["n", "accuracy"]
    assert sorted(hotpot) == sorted(seed) and {"em", "f1", "contains_word", "grounded"} <= set(seed)


def test_em_and_f1_score_the_short_answer_and_containment_the_sentence() -> None:
    sentence = "The Lantern Bridge was designed by Ida Marr in 1931."
    scores = answer_scores(sentence, ["Ida Marr"], short_answer="Ida Marr")
    assert scores == {"em": 1.0, "f1": 1.0, "contains_word": 1.0}
    without = answer_scores(sentence, ["Ida Marr"])
    assert without["em"] == 0.0 and without["contains_word"] == 1.0 and without["f1"] < 1.0
    wrong = answer_scores(sentence, ["Ida Marr"], short_answer="1931")
    assert wrong["em"] == 0.0 and wrong["contains_word"] == 1.0


@pytest.mark.parametrize(
    ("answer", "gold", "held"),
    [
        ("To cache hash codes, pass @frame(cache_codes=True).", "cache_codes=True", 1.0),
        ("The kettle.brew_tea helper makes tea.", "brew_tea", 1.0),
        ("Pass brew=True to brew.", "brew_tea", 0.0),  # a part of the code is not the code
        ("Call kettle.brewtea() instead.", "brew_tea", 0.0),  # nor the code glued together
        ("It is known to work.", "no", 0.0),  # punctuation as spaces keeps whole words
    ],
)
def test_containment_finds_a_gold_written_as_code_inside_code(
    answer: str, gold: str, held: float
) -> None:
    assert contains_word(answer, gold) == held
