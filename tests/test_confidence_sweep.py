"""The bar sweep's scoring (`benchmarks/confidence_sweep.py`), on made-up rows."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from confidence_sweep import Row, confidence_cell, decline_cell, declined  # noqa: E402

from graph.models.confidence import Confidence


def row(
    support: float, *, words: int = 4, right: bool = False, off: bool = False, rival: float = 0.0
) -> Row:
    """A question answered with the decline off, its cited passages holding every word."""
    evidence = Confidence(support, support, rival)
    return Row(off, True, False, right, right, False, words, evidence, held=1.0)


def test_a_short_weakly_covered_question_is_declined_and_a_long_one_answered() -> None:
    assert declined(row(0.4), 0.51, 8) and not declined(row(0.4, words=9), 0.51, 8)
    assert not declined(row(0.6), 0.51, 8)


def test_a_question_of_nine_to_eleven_words_is_declined_only_on_thin_support() -> None:
    assert declined(row(0.2, words=9), 0.51, 8) and declined(row(0.29, words=11), 0.51, 8)
    assert not declined(row(0.35, words=10), 0.51, 8)
    assert not declined(row(0.1, words=12), 0.51, 8)  # a case told at length is answered


def test_the_decline_cell_scores_right_and_cited_and_the_off_corpus_declines() -> None:
    rows = [row(0.9, right=True), row(0.3, off=True), row(0.3, right=True)]
    # right: the covered answer and the declined off-corpus question; the baseline none
    assert decline_cell(rows, 0.51, 8) == "+0.667 1/1"


def test_the_confidence_cell_scores_wrong_confident_and_right_confident() -> None:
    rows = [row(0.9, right=True), row(0.9), row(0.8, right=True, rival=1.0), row(0.55)]
    # given: all four; wrong and confident: the second; right and confident: one of two
    assert confidence_cell(rows, 0.6, 0.1) == "0.25/0.50"


def test_a_short_question_holding_few_of_its_words_is_declined_at_the_word_share() -> None:
    few = Row(True, True, False, False, False, False, 3, Confidence(0.7, 0.7, 0.0), held=1 / 3)
    assert declined(few, 0.51, 8, 0.4) and not declined(few, 0.51, 8, 0.3)


def test_an_answer_not_giving_what_is_asked_is_never_confident_at_any_bar() -> None:
    for missing in ({"counted": False}, {"named": False}, {"identified": False}, {"called": False}):
        evidence = Confidence(0.9, 0.9, 0.0, **missing)  # type: ignore[arg-type]
        wrong = Row(False, True, False, False, False, False, 4, evidence, held=1.0)
        assert confidence_cell([wrong], 0.5, 1.0) == "0.00/0.00"
