"""Answer metrics beside the seed's accuracy: exact match, token F1, whole-word containment.

The usual SQuAD normalization (the HotpotQA and SQuAD evaluation scripts): lowercase, drop
punctuation, drop the articles "a", "an", "the", collapse whitespace. Each metric is the best
over the accepted answers; a None answer scores 0 on all of them.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

_ARTICLES_RE = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)
_PUNCTUATION_AS_SPACE = str.maketrans(string.punctuation, " " * len(string.punctuation))


def normalize_answer(text: str) -> str:
    """SQuAD normalization: lowercase, no punctuation, no articles, single spaces."""
    return " ".join(_words(text, _PUNCTUATION))


def _words(text: str, punctuation: Mapping[int, int | None]) -> list[str]:
    """The lowercased words of `text`, articles dropped, punctuation translated by the table."""
    return _ARTICLES_RE.sub(" ", text.lower().translate(punctuation)).split()


def exact_match(answer: str | None, gold: str) -> float:
    """1.0 when the normalized answer equals the normalized gold answer."""
    if answer is None:
        return 0.0
    return float(normalize_answer(answer) == normalize_answer(gold))


def token_f1(answer: str | None, gold: str) -> float:
    """SQuAD token F1 of the normalized answer against one gold answer.

    Two empty token lists score 1.0; one empty list scores 0.0. As in the HotpotQA script, a
    yes/no/noanswer gold is only matched exactly (F1 0 unless the answer is that word).
    """
    if answer is None:
        return 0.0
    predicted, expected = normalize_answer(answer).split(), normalize_answer(gold).split()
    special = ("yes", "no", "noanswer")
    if (" ".join(expected) in special or " ".join(predicted) in special) and predicted != expected:
        return 0.0
    if not predicted or not expected:
        return float(predicted == expected)
    common = sum((Counter(predicted) & Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def contains_word(answer: str | None, gold: str) -> float:
    """1.0 when the normalized gold answer is in the answer as whole words ("no" not in "known").

    Words are compared twice: after SQuAD normalization, and with punctuation read as spaces, so
    a gold written as code is found in code that holds it (``cache_hash=True`` in
    ``@define(cache_hash=True)``, ``cmp_using`` in ``attrs.cmp_using``), which SQuAD's removal
    of punctuation glues into other words. An empty gold answer is never contained.
    """
    if answer is None:
        return 0.0
    forms = [(_words(answer, t), _words(gold, t)) for t in (_PUNCTUATION, _PUNCTUATION_AS_SPACE)]
    return float(any(expected and holds(predicted, expected) for predicted, expected in forms))


def holds(words: list[str], part: list[str]) -> bool:
    """Whether `part` occurs in `words` as a contiguous run."""
    size = len(part)
    return any(words[i : i + size] == part for i in range(len(words) - size + 1))


def best(
    metric: Callable[[str | None, str], float], answer: str | None, golds: Iterable[str]
) -> float:
    """The best score of `metric` over the accepted answers (0.0 when there are none)."""
    return max((metric(answer, gold) for gold in golds), default=0.0)


def answer_scores(
    answer: str | None, golds: Iterable[str], short_answer: str | None = None
) -> dict[str, float]:
    """``em``, ``f1`` and ``contains_word`` of a result, each the best over `golds`.

    EM and F1 score `short_answer` when there is one, else `answer`; containment always scores
    `answer` (the sentence holds the gold answer or not).
    """
    accepted = list(golds)
    short = short_answer if short_answer else answer
    return {
        "em": best(exact_match, short, accepted),
        "f1": best(token_f1, short, accepted),
        "contains_word": best(contains_word, answer, accepted),
    }
