"""Sweep the decline and confidence bars on the tune sets, from one run with the decline off.

Every question of every tune set (`benchmarks.answer_quality.TUNE_SETS`) is asked as that
benchmark asks it (the offline policy, k=3, 6 steps), with `DECLINE_SUPPORT`,
`DECLINE_WORD_SHARE` and `MEDIUM_DECLINE_SUPPORT` set to 0 so the policy declines on coverage
only below `LONGER_DECLINE_SUPPORT` (seven and eight words), and the finish node's
evidence is recorded for each answer: its `support`, the answer's own coverage, the best rival
sentence's, the rivals tied with it, the question words it holds and whether it states a
quantity asked (`graph.models.confidence.Confidence`), the share of the question's words the
cited passages hold, the rarity of the rarest word they lack and the question's meaningful
words. The bars then decide, through the policy's own checks (`declines.is_declined`,
`confidence.is_confident`), what is declined and what is confident, so each grid point is
scored without rerunning:

- the decline grids (`DECLINE_SUPPORT` x `SHORT_QUESTION_WORDS`, then `DECLINE_WORD_SHARE` x
  `DECLINE_SUPPORT`, then `DECLINE_RARE_WORD` x `DECLINE_SUPPORT`, the other knobs at their
  values): per set, right and cited against the baseline (`evals.baselines.quote_baseline`) and
  the off-corpus questions declined;
- the confidence grids (`SUPPORT_BAR` x `RIVAL_MARGIN`, then `RIVAL_TIES` x
  `ANSWER_WORD_SHARE`, with the current decline and the other two knobs at their values): per
  set, wrong but confident (of the answers given) and right confident (of the right answers).

The figures are those of `benchmarks/answer_quality.py` (same definitions); the current values
are marked with `*`. Usage: python benchmarks/confidence_sweep.py [--sets jinja,click] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import graph.agent.grounding as grounding  # noqa: E402
import graph.models.offline.declines as declines  # noqa: E402
from benchmarks.answer_quality import (  # noqa: E402
    TUNE_SETS,
    cites_support,
    is_right,
    policy_answerer,
)
from evals.baselines import quote_baseline  # noqa: E402
from evals.datasets import load_dataset  # noqa: E402
from graph.models import confidence, support  # noqa: E402
from graph.models.offline.tuning import declining  # noqa: E402

DECLINE_GRID = ((0.45, 0.5, 0.51, 0.52, 0.55, 0.6), (6, 7, 8, 9, 10, 99))
WORD_GRID = ((0.0, 0.3, 0.4, 0.5, 0.55, 0.67), (0.5, 0.51, 0.55))
RARE_GRID = ((0.0, 0.4, 0.45, 0.5, 0.52, 0.54, 0.6), (0.51, 0.55))
CONFIDENCE_GRID = ((0.5, 0.55, 0.57, 0.58, 0.6, 0.65), (0.05, 0.1, 0.15, 0.2, 1.0))
TIES_GRID = ((2, 3, 99), (0.0, 0.3, 0.4, 0.5))


@dataclass(frozen=True)
class Row:
    """One question's answer with the decline off, and what the bars are decided on."""

    unanswerable: bool
    answered: bool
    computed: bool
    right: bool
    right_cited: bool
    baseline_right_cited: bool
    words: int
    evidence: confidence.Confidence
    held: float = 0.0
    """The share of the question's words (counted) the cited passages hold (0.0 unmeasured, as
    `word_share` of no passage)."""
    rarest: float = 1.0
    """The rarity in general text of the rarest question word the cited passages lack
    (`declines.rarest_missing`; 1.0 when none is lacking)."""


def collect(name: str, limit: int | None) -> list[Row]:
    """Every question of one set answered with the decline off, with its evidence."""
    dataset = load_dataset(TUNE_SETS[name])
    questions = dataset.questions[:limit] if limit else dataset.questions
    seen: dict[str, confidence.Confidence] = {}
    held: dict[str, float] = {}
    rarest: dict[str, float] = {}
    measure = grounding.confidence

    def recording(
        question: str,
        answer: str,
        cited: Sequence[str],
        retrieved: Sequence[str],
        weight: support.Weight,
    ) -> confidence.Confidence:
        seen[question] = measure(question, answer, cited, retrieved, weight)
        table = support.support_weights(question, weight)
        held[question] = support.word_share(table, cited)
        rarest[question] = declines.rarest_missing(support.missing_words(table, cited))
        return seen[question]

    grounding.confidence = recording  # type: ignore[assignment]
    try:
        ask = policy_answerer(dataset, 6, 3)
        rows = []
        for question in questions:
            result = ask(question)
            base = quote_baseline(dataset, question.question)
            rows.append(
                Row(
                    question.unanswerable,
                    bool(result.get("answer")),
                    bool(result.get("answer")) and not result.get("citations"),
                    is_right(question, result) and not question.unanswerable,
                    is_right(question, result) and cites_support(question, result),
                    is_right(question, base) and cites_support(question, base),
                    len(support.question_terms(question.question)),
                    seen.get(question.question, confidence.Confidence(0.0, 0.0, 0.0)),
                    held.get(question.question, 0.0),
                    rarest.get(question.question, 1.0),
                )
            )
        return rows
    finally:
        grounding.confidence = measure


def declined(
    row: Row,
    bar: float,
    short: int,
    share: float = declining.DECLINE_WORD_SHARE,
    rare: float = declining.DECLINE_RARE_WORD,
) -> bool:
    """Whether the policy declines `row` at these bars (or declined it anyway).

    A question of more than `short` words is declined as the policy's `declines.thin_support`
    declines it (below `MEDIUM_DECLINE_SUPPORT`, up to `MEDIUM_QUESTION_WORDS` words).
    """
    if not row.answered:
        return True
    if row.computed:
        return False
    support = row.evidence.support
    if row.words > short:
        return declines.thin_support(row.words, support, ()) is not None
    return declines.is_declined(row.words, support, row.held, short, bar, share, row.rarest, rare)


def decline_cell(
    rows: Sequence[Row],
    bar: float,
    short: int,
    share: float = declining.DECLINE_WORD_SHARE,
    rare: float = declining.DECLINE_RARE_WORD,
) -> str:
    """Right and cited against the baseline, and off-corpus questions declined."""
    out = [declined(r, bar, short, share, rare) for r in rows]
    right = sum(
        gone if r.unanswerable else r.right_cited and not gone
        for r, gone in zip(rows, out, strict=True)
    )
    base = sum(r.baseline_right_cited for r in rows)
    off = [gone for r, gone in zip(rows, out, strict=True) if r.unanswerable]
    return f"{(right - base) / len(rows):+.3f}" + (f" {sum(off)}/{len(off)}" if off else "")


def confidence_cell(
    rows: Sequence[Row],
    bar: float,
    margin: float,
    ties: int = confidence.RIVAL_TIES,
    words: float = confidence.ANSWER_WORD_SHARE,
) -> str:
    """Wrong but confident of the answers given / right confident of the right answers."""
    given = [
        r
        for r in rows
        if not declined(r, declining.DECLINE_SUPPORT, declining.SHORT_QUESTION_WORDS)
    ]

    def sure(r: Row) -> bool:
        e = r.evidence
        if r.computed or not (e.counted and e.named and e.identified and e.called):
            return r.computed  # what is asked not given (a quantity, someone, a name): never
        return confidence.is_confident(
            e.support,
            e.answer,
            e.rival,
            bar,
            margin,
            ties=e.ties,
            words=e.words,
            most_ties=ties,
            least_words=words,
        )

    wrong = sum(sure(r) and not r.right for r in given) / max(len(given), 1)
    right = [r for r in given if r.right]
    return f"{wrong:.2f}/{sum(map(sure, right)) / max(len(right), 1):.2f}"


def grid(
    sets: dict[str, list[Row]],
    axes: tuple[tuple[float, ...], tuple[float, ...]],
    current: tuple[float, float],
    cell: Callable[[Sequence[Row], Any, Any], str],
) -> str:
    """One line a grid point: the two values (current ones starred), then each set's cell."""
    lines = ["| a | b | " + " | ".join(sets) + " |", "|---|---|" + "---|" * len(sets)]
    for a in axes[0]:
        for b in axes[1]:
            star = "*" if (a, b) == current else ""
            cells = " | ".join(cell(rows, a, b) for rows in sets.values())
            lines.append(f"| {a}{star} | {b}{star} | {cells} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Run each set once with the decline off and print the four grids."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", help=f"comma-separated, of: {', '.join(TUNE_SETS)}")
    parser.add_argument("--limit", type=int, help="only the first N questions of each set")
    args = parser.parse_args(argv)
    names = args.sets.split(",") if args.sets else list(TUNE_SETS)
    if unknown := [n for n in names if n not in TUNE_SETS]:
        parser.error(f"unknown set {unknown[0]!r}")
    declines.DECLINE_SUPPORT = declines.DECLINE_WORD_SHARE = 0.0  # answer every question it can
    declines.MEDIUM_DECLINE_SUPPORT = 0.0
    try:
        sets = {name: collect(name, args.limit) for name in names}
    finally:
        declines.DECLINE_SUPPORT = declining.DECLINE_SUPPORT
        declines.DECLINE_WORD_SHARE = declining.DECLINE_WORD_SHARE
        declines.MEDIUM_DECLINE_SUPPORT = declining.MEDIUM_DECLINE_SUPPORT
    short, bar = declining.SHORT_QUESTION_WORDS, declining.DECLINE_SUPPORT
    print(
        "Decline: a = DECLINE_SUPPORT, b = SHORT_QUESTION_WORDS; right+cited - baseline, off-corpus"
    )
    print(grid(sets, DECLINE_GRID, (bar, float(short)), decline_cell))
    print("\nDecline: a = DECLINE_WORD_SHARE, b = DECLINE_SUPPORT; as above")
    share = declining.DECLINE_WORD_SHARE
    print(grid(sets, WORD_GRID, (share, bar), lambda rows, a, b: decline_cell(rows, b, short, a)))
    print("\nDecline: a = DECLINE_RARE_WORD, b = DECLINE_SUPPORT; as above")
    rare = declining.DECLINE_RARE_WORD
    print(
        grid(
            sets, RARE_GRID, (rare, bar), lambda rows, a, b: decline_cell(rows, b, short, share, a)
        )
    )
    print("\nConfidence: a = SUPPORT_BAR, b = RIVAL_MARGIN; wrong+conf / right conf")
    bars = (confidence.SUPPORT_BAR, confidence.RIVAL_MARGIN)
    print(grid(sets, CONFIDENCE_GRID, bars, confidence_cell))
    print("\nConfidence: a = RIVAL_TIES, b = ANSWER_WORD_SHARE; as above")
    held = (float(confidence.RIVAL_TIES), confidence.ANSWER_WORD_SHARE)
    print(grid(sets, TIES_GRID, held, lambda rows, a, b: confidence_cell(rows, *bars, a, b)))


if __name__ == "__main__":
    main()
