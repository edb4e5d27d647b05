"""The answer-quality benchmark's scoring and its retrieve-and-quote baseline, on made-up data."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from answer_quality import is_right, retrieved_ids, score  # noqa: E402

from evals.baselines import covering_sentence, index_for, quote_baseline, sentences_of
from evals.datasets import Question, load_dataset

PAGES = [
    {
        "id": "kiln",
        "text": "The kiln room is on the second floor. Kilns are fired every Tuesday. "
        "The kiln reaches 1200 degrees Celsius.",
    },
    {"id": "glaze", "text": "Glazes are mixed by Ines Okafor. Glaze buckets are kept sealed."},
    {"id": "wheel", "text": "The studio has six pottery wheels. Wheels are cleaned daily."},
]


def studio(tmp_path: Path, questions: list[dict[str, object]]) -> Path:
    """A dataset file over a made-up pottery-studio corpus."""
    (tmp_path / "pages.jsonl").write_text("\n".join(json.dumps(p) for p in PAGES) + "\n")
    header = {"dataset": "studio", "corpus": "studio=pages.jsonl"}
    lines = [json.dumps(header), *(json.dumps(q) for q in questions)]
    path = tmp_path / "studio.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_sentences_split_at_ends_followed_by_a_capital_or_digit() -> None:
    assert sentences_of("It runs at 3.5 volts. Then it stops! 2 more? yes.") == [
        "It runs at 3.5 volts.",
        "Then it stops!",
        "2 more? yes.",
    ]
    assert sentences_of("no end at all") == ["no end at all"]


def test_the_baseline_quotes_the_sentence_covering_most_question_weight(tmp_path: Path) -> None:
    dataset = load_dataset(studio(tmp_path, [{"id": "q", "question": "x", "answers": ["y"]}]))
    result = quote_baseline(dataset, "How often are kilns fired?")
    assert result["answer"] == "Kilns are fired every Tuesday."
    assert result["citations"] == ["kiln"]
    assert result["short_answer"] is None and result["stopped"] == "answer"
    # "kiln" is in two sentences; "room" and "floor" pick the first one
    index = index_for(dataset)
    text = PAGES[0]["text"]
    assert covering_sentence(index, "Where is the kiln room?", text) == (
        "The kiln room is on the second floor."
    )
    nothing = quote_baseline(dataset, "zebra quantum")
    assert nothing["answer"] is None and nothing["stopped"] == "no_answer"


def q(**fields: object) -> Question:
    """A question with defaults for what the test does not care about."""
    base: dict[str, object] = {"id": "q", "question": "?", "answers": ("x",)}
    return Question(**{**base, **fields})  # type: ignore[arg-type]


def test_right_means_a_gold_answer_held_and_for_unanswerable_a_decline() -> None:
    fact = q(answers=("Ines Okafor",), supporting=("glaze",))
    assert is_right(fact, {"answer": "Glazes are mixed by Ines Okafor.", "citations": []})
    assert not is_right(fact, {"answer": "Glazes are kept sealed.", "citations": ["glaze"]})
    assert not is_right(fact, {"answer": None, "citations": []})
    off = q(answers=(), unanswerable=True)
    assert is_right(off, {"answer": None, "stopped": "no_answer"})
    assert not is_right(off, {"answer": "Kilns are fired every Tuesday."})
    yes_no = q(answers=("no", "not sealed"))
    sentence = "Buckets are not sealed."
    assert is_right(yes_no, {"answer": sentence, "short_answer": "no"})
    assert not is_right(yes_no, {"answer": sentence, "short_answer": "Yes"})  # contradicts
    # the bare "no" of a yes/no gold does not count inside a sentence ("not" holds it)
    assert not is_right(yes_no, {"answer": "Kilns are not fired on Sundays."})
    assert is_right(yes_no, {"answer": "Nope.", "short_answer": "no"})
    assert is_right(yes_no, {"answer": "No"})  # a bare answer that is the gold word
    # gold answers count as whole words: "1" is not in "10 bar"
    assert not is_right(q(answers=("1",)), {"answer": "It holds 10 bar."})
    assert is_right(q(answers=("1",)), {"answer": "It exits with code 1."})


def test_score_counts_each_figure_on_its_own_denominator() -> None:
    questions = [
        q(id="a", answers=("Tuesday",), supporting=("kiln",)),
        q(id="b", answers=("six",), supporting=("wheel",)),
        q(id="c", answers=("Ines Okafor",), supporting=("glaze",)),
        q(id="d", answers=(), unanswerable=True),
    ]
    results = [
        # right and cited, with a short answer that is exact
        {
            "answer": "Kilns are fired every Tuesday.",
            "short_answer": "Tuesday",
            "citations": ["kiln"],
            "confident": True,
        },
        # right but citing the wrong passage; no confident field (counts as confident)
        {"answer": "The studio has six pottery wheels.", "citations": ["kiln"]},
        # wrong and not confident
        {"answer": "Glaze buckets are kept sealed.", "citations": ["glaze"], "confident": False},
        # off-corpus question declined
        {"answer": None, "citations": [], "stopped": "no_answer"},
    ]
    s = score(questions, results, seconds=1.0)
    assert s.n == 4
    assert s.contains == pytest.approx(2 / 3)  # of the 3 answerable
    assert s.right_cited == pytest.approx(2 / 4)  # a, and the decline of d
    assert s.em == pytest.approx(1 / 3)  # only a's short answer is exact
    assert s.declined == pytest.approx(1 / 4)
    assert s.wrong_confident == 0.0  # of the 3 answers, the wrong one said it was unsure
    assert s.right_confident == 1.0
    assert (s.off_declined, s.off_total) == (1, 1)


def test_the_dump_lists_each_retrieved_id_once_in_search_order() -> None:
    found = {"search_a": ["kiln", "glaze"], "search_b": ["wheel", "kiln"]}
    assert retrieved_ids({"retrieved": found}) == ["kiln", "glaze", "wheel"]
    assert retrieved_ids({"answer": None}) == []
