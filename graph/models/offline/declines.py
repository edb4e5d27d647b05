"""Declining: whether the passages an answer would cite cover its question, and why not.

The `answer` rule (`graph.models.offline.rules`) asks `declines` before it answers;
`is_declined` is the check on numbers, which `benchmarks/confidence_sweep.py` scores at other
bars. The bars and their reasons are in `graph.models.offline.tuning.declining`.
"""

from __future__ import annotations

from collections.abc import Sequence

from graph.models.asked import COMPARISON_QUESTION_RE, states_quantity
from graph.models.asked_versions import unnamed_versions
from graph.models.background import rarity
from graph.models.confidence import SUPPORT_BAR
from graph.models.offline.figures import figure
from graph.models.offline.reading import Name, names, sentences
from graph.models.offline.tuning.declining import (
    DECLINE_RARE_WORD,
    DECLINE_SUPPORT,
    DECLINE_WORD_SHARE,
    FULL_BAR_WORDS,
    LONGER_DECLINE_SUPPORT,
    MEDIUM_DECLINE_SUPPORT,
    MEDIUM_QUESTION_WORDS,
    SHORT_QUESTION_WORDS,
)
from graph.models.offline.tuning.reading import WORD_RE
from graph.models.offline.turn import Turn
from graph.models.support import missing_words, question_terms, word_share


def declines(
    question: str,
    table: dict[str, float],
    cited: list[str],
    value: float,
    unknown: Sequence[str] = (),
    answer: str | None = None,
) -> str | None:
    """Why the `cited` passages do not cover `question`, or None when they do.

    A short question (`SHORT_QUESTION_WORDS`) is declined when it names what no searched
    corpus holds (`unknown`, from `unknown_names`), when it asks the version of a thing its
    cited passages never name (`graph.models.asked_versions.unnamed_versions`: "Which Python
    versions ...?" cited from a passage stating another thing's version), when its cited
    passages are below the bars (`is_declined`; the support bar by its length:
    `support_bar`), or when they are below `SUPPORT_BAR` and the `answer` they give states no
    quantity where the question asks for one (`states_quantity`: "How many workers ...?"
    answered "This runs faster."), or, at any support, when it asks by how much one thing
    differs from another and the answer states no ratio ("How much faster is X than Y?":
    `unquantified`). A question of up to `MEDIUM_QUESTION_WORDS` words is declined when its
    cited passages' support is below `MEDIUM_DECLINE_SUPPORT` (`thin_support`); a longer one
    describes a case in the asker's words. `table` is the question's `support_weights`,
    `value` the passages' support on it; otherwise an answer below `SUPPORT_BAR` is given, and
    the finish node marks it not confident.
    """
    share = word_share(table, cited)
    size = len(question_terms(question))
    if unknown and size <= SHORT_QUESTION_WORDS:
        names = ", ".join(repr(w) for w in unknown)
        return f"no searched passage holds {names}, which the question names"
    if size <= SHORT_QUESTION_WORDS and (versioned := unnamed_versions(question, cited)):
        return f"no cited passage names {versioned[0]!r}, whose version the question asks"
    lacking = missing_words(table, cited)
    if size > SHORT_QUESTION_WORDS:
        return thin_support(size, value, lacking)
    rarest = rarest_missing(lacking)
    name, bar = support_bar(size)
    bars = (SHORT_QUESTION_WORDS, bar, DECLINE_WORD_SHARE)
    if not is_declined(size, value, share, *bars, rarest, DECLINE_RARE_WORD):
        return unquantified(question, size, value, answer)
    named = ", ".join(repr(w) for w in lacking) or "a word of it (it has none to look for)"
    why = (
        f"support {figure(value, bar)} < {name} {bar:.2f}"
        if value < bar
        else f"words held {figure(share, DECLINE_WORD_SHARE)} < DECLINE_WORD_SHARE "
        f"{DECLINE_WORD_SHARE:.2f}"
    )
    return (
        f"{why} for {size} question words (<= SHORT_QUESTION_WORDS {SHORT_QUESTION_WORDS}); "
        f"no cited passage holds {named} (rarest {figure(rarest, DECLINE_RARE_WORD)} >= "
        f"DECLINE_RARE_WORD {DECLINE_RARE_WORD:.2f})"
    )


def thin_support(size: int, value: float, lacking: Sequence[str]) -> str | None:
    """Why a question of a few more words than a short one is declined, or None.

    It is when it has at most `MEDIUM_QUESTION_WORDS` meaningful words and its cited passages
    give it support below `MEDIUM_DECLINE_SUPPORT`: a question of nine to eleven words still
    names what it asks, and passages holding under 30% of its weight are about something
    else. A longer one is answered at any support.
    """
    if size > MEDIUM_QUESTION_WORDS or value >= MEDIUM_DECLINE_SUPPORT:
        return None
    named = ", ".join(repr(w) for w in lacking) or "a word of it (it has none to look for)"
    return (
        f"support {figure(value, MEDIUM_DECLINE_SUPPORT)} < MEDIUM_DECLINE_SUPPORT "
        f"{MEDIUM_DECLINE_SUPPORT:.2f} for {size} question words (<= MEDIUM_QUESTION_WORDS "
        f"{MEDIUM_QUESTION_WORDS}); no cited passage holds {named}"
    )


def support_bar(size: int) -> tuple[str, float]:
    """The support bar for a short question of `size` meaningful words, and its name.

    `DECLINE_SUPPORT` up to `FULL_BAR_WORDS` words; `LONGER_DECLINE_SUPPORT` past them: the
    more words a question spends, the more of them a passage answering it in its own words
    may lack.
    """
    if size <= FULL_BAR_WORDS:
        return "DECLINE_SUPPORT", DECLINE_SUPPORT
    return "LONGER_DECLINE_SUPPORT", LONGER_DECLINE_SUPPORT


def unquantified(question: str, size: int, value: float, answer: str | None) -> str | None:
    """Why a short question's `answer` below `SUPPORT_BAR` does not answer it, or None.

    It does not when the question asks for a quantity and the answer states none
    (`graph.models.asked.states_quantity`); a question asking by how much one thing differs
    from another (`COMPARISON_QUESTION_RE`) is not answered by a passage that says only that it
    differs, at any support. None too when no answer is given to check.
    """
    compared = COMPARISON_QUESTION_RE.search(question) is not None
    if answer is None or size > SHORT_QUESTION_WORDS or (value >= SUPPORT_BAR and not compared):
        return None
    if states_quantity(question, answer):
        return None
    if compared:
        return (
            f"{size} question words (<= SHORT_QUESTION_WORDS {SHORT_QUESTION_WORDS}) ask by how "
            "much one thing differs from another, and the answer states no ratio or share"
        )
    return (
        f"support {figure(value, SUPPORT_BAR)} < SUPPORT_BAR {SUPPORT_BAR:.2f} for {size} "
        f"question words (<= SHORT_QUESTION_WORDS {SHORT_QUESTION_WORDS}), and the answer "
        "states no quantity where the question asks for one"
    )


def rarest_missing(lacking: Sequence[str]) -> float:
    """The highest rarity in general text (`background.rarity`) of the words `lacking`.

    1.0 when none is lacking: a question with no word to look for has nothing common to excuse.
    """
    return max((rarity(word) for word in lacking), default=1.0)


def is_declined(
    size: int,
    value: float,
    share: float,
    short: int,
    bar: float,
    least_words: float,
    rarest: float = 1.0,
    rare: float = 0.0,
) -> bool:
    """Whether a question of `size` meaningful words is declined at these bars.

    Its cited passages give it support `value` and hold `share` of its words (counted), and the
    rarest word they lack has rarity `rarest` in general text. Only a short question (at most
    `short` words) is declined: when `value` is below `bar` or `share` below `least_words`, and
    `rarest` reaches `rare` (the policy's bars: `SHORT_QUESTION_WORDS`, the support bar for the
    question's length from `support_bar`, `DECLINE_WORD_SHARE`, `DECLINE_RARE_WORD`;
    `benchmarks/confidence_sweep.py` scores others, one support bar for every length).
    Lacking only common words ("take place", "kind") is how passages answer in other words.
    """
    return size <= short and rarest >= rare and not (value >= bar and share >= least_words)


def unknown_names(turn: Turn) -> list[str]:
    """The words of the question's names that no searched corpus holds in any form.

    A name is a capitalised span past the first word of a sentence of the question
    (`reading.names`: "Which Flask version ...", "... to a HAR file"). A word of it with a
    capital letter ("iPod", "HAR"; not "delimited" of "YAML-delimited") and no weight over
    the search tools (`Turn.weight`: 0 only when every tool has term statistics and none
    holds the word or a word of its stem) names something the corpora are not about.
    """
    found = [
        w
        for said in sentences(turn.question)
        for n in names(said)
        for part in WORD_RE.findall(whole_words(said, n))
        if not part.islower()
        for w in question_terms(part)
    ]
    return [w for w in dict.fromkeys(found) if any(c.isalpha() for c in w) and not turn.weight(w)]


def whole_words(text: str, name: Name) -> str:
    """The words of `text` a name's span starts or ends inside, whole ("iPod", not "Pod")."""
    start, end = name.start, name.end
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return text[start:end]
