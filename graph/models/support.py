"""Support: how much of a question the passages an answer cites cover, and the bar for trusting it.

The one owner of the measure and its threshold: the offline policy declines below the bar
(`graph.models.offline`), and the finish node marks every run's answer, a real model's too,
``confident`` or not (`graph.agent.finish_node`).

The question is read as the search tool reads a query: `tools.bm25_tokens.tokenize`, with
`FUNCTION_WORDS` dropped. Each word weighs its idf in the searched corpora
(`SearchSource.term_weight`, the best over the tools: `graph.models.tool_weight`); a word an
index lacks weighs as the indexed words sharing its stem, as `tools.expand` expands it.
A word no corpus holds in any form cannot be covered: it weighs as the question's rarest
indexed word times the larger of two shares. `unseen_share` grows with the passages searched
(a corpus of `UNSEEN_FULL_AT` passages lacking a word says the question is about something else);
`graph.models.background.rarity` is the word's rarity in general text (a five-passage corpus
lacks most words of any question: lacking "long" says little, lacking "password" a lot). A word is
covered when a cited passage holds a word with the same stem (`tools.expand.stem`).
``support`` is the covered share of the weight.

An answer is ``confident`` (`is_confident`) when its support reaches `SUPPORT_BAR`, no
retrieved sentence it does not use covers `RIVAL_MARGIN` more of the question than the answer
itself does (`answer_coverage`: its own words, the cited sentence it is drawn from with the one
before it, and the cited passages of a chain it names; `rival_coverage`: the best other
retrieved sentence), fewer than `RIVAL_TIES` of those cover as much as it does (`rival_ties`),
and its texts hold `ANSWER_WORD_SHARE` of the question's words, counted (`word_share`). The
offline policy declines a short question (`SHORT_QUESTION_WORDS`) below lower bars
(`graph.models.offline.tuning.declining`: `DECLINE_SUPPORT`, `DECLINE_WORD_SHARE`), naming its
`missing_words`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from graph.models.background import rarity
from tools.bm25_tokens import tokenize
from tools.expand import stem

SUPPORT_BAR = 0.58
"""Support at or above which an answer may be confident (below it, it is kept, not confident).

Chosen on the tune sets (`benchmarks/confidence_sweep.py`: the policy's answers with its
decline off, every bar scored; figures with `RIVAL_MARGIN`, `RIVAL_TIES` and
`ANSWER_WORD_SHARE`): 0.6 leaves 89% of attrs' right answers confident (an answer citing 0.58
of its question), 0.58 keeps 93% with the same wrong-but-confident share on every documentation
set (jinja 13%, click 3%, attrs 9%, pages 7%; squad 14% instead of 13%, hotpotqa-dev-tune 46%
instead of 45%); 0.55 lets a 0.56 answer of pages' be confident and wrong (pages 10%) and more
of squad's (15%) and codes_tune's (29% instead of 25%)."""

RIVAL_MARGIN = 0.15
"""How much more of the question's weight a retrieved sentence the answer does not use may
cover than the answer before the answer is not confident: another sentence says more about the
question, so the answer is likely the wrong one (or a real model's words miss the question).

Chosen with `SUPPORT_BAR` on `benchmarks/confidence_sweep.py` after the answer-sentence and
short-answer changes: 0.05 and 0.1 leave 88% of jinja's right answers confident, 0.15 keeps 92%
with the same wrong-but-confident share on every set (jinja 13%, click 3%, attrs 12%, pages 13%,
squad 14%); 0.2 changes nothing more, and no margin (1.0) lets click's wrong-but-confident rise
to 6% and attrs' to 15%."""

RIVAL_TIES = 2
"""How many retrieved sentences the answer does not use may cover as much of the question as
the answer before it is not confident: the words it shares with the question are in several
places, so they do not single it out (a corpus about a museum holds "museum" in many sentences,
and none of them says who founded it).

Chosen on the sweep with `SUPPORT_BAR` and `RIVAL_MARGIN`: 2 leaves the right answers confident
on every documentation set and squad, and lowers wrong-but-confident on pages (10% to 7%),
squad (14.6% to 14.2%) and hotpotqa-dev-tune (48.5% to 46.4%), for one right answer of
hotpotqa-dev-tune; 3 changes nothing from no limit on pages."""

ANSWER_WORD_SHARE = 0.3
"""The share of the question's meaningful words, counted (`word_share`), the answer's texts
(`answer_texts`) must hold to be confident: an answer holding one heavy word of five ("enabled"
of "Is order enabled by default in attrs.define?") answers something else.

Chosen on the sweep: 0.3 and 0.4 make one more wrong answer of attrs not confident (12% to 9%)
and change no right answer's confidence on the documentation sets; 0.5 costs jinja's (92% to
88% of right answers confident), attrs' (93% to 89%) and squad's."""

SENTENCE_END_RE = re.compile(r"(?<=[.!?:])\s+|\n\s*")
"""Where a passage's sentences end, for `rival_coverage` and `answer_coverage`: after ., !, ?
or : followed by space, and at a line break (a heading, a list item)."""

SOURCE_SHARE = 0.6
"""The share of an answer's content words a cited sentence must hold to be the sentence the
answer is drawn from (a short answer's "30 days" in "accepted within 30 days"): most of them
(both of two, two of three, three of five); with fewer the answer says something else.

Only a real model's answer depends on it (an extract holds all its words); not tuned."""

FUNCTION_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom whose why will with would you your yours yourself
    yourselves s t whats what's much many also one""".split()
)
"""Words that carry no meaning a match should count (question words included)."""

UNSEEN_FULL_AT = 100
"""Passages searched from which a question word they all lack weighs in full (see above)."""

Weight = Callable[[str], float]
"""A question word's weight (its idf in the searched corpora); 0.0 for a word none holds."""


def question_terms(text: str) -> list[str]:
    """The words of `text` that carry meaning, tokenized as the search does, in order, unique."""
    return list(dict.fromkeys(t for t in tokenize(text) if t not in FUNCTION_WORDS))


def stems_of(texts: Iterable[str]) -> set[str]:
    """The stems of every token of `texts`."""
    return {stem(token) for text in texts for token in tokenize(text)}


def weights(question: str, weight: Weight, unseen: float = 0.0) -> dict[str, float]:
    """Each meaningful word of `question` and its weight.

    A word no corpus holds weighs the rarest indexed word's weight (all of them 1.0 when none is
    indexed) times the larger of `unseen` and its rarity in general text (`background.rarity`:
    a corpus lacking "password" says more than one lacking "long"); with `unseen` 0 it is left
    out.
    """
    raw = {term: max(weight(term), 0.0) for term in question_terms(question)}
    top = max(raw.values(), default=0.0) or 1.0
    table = {
        term: value or (max(unseen, rarity(term)) * top if unseen > 0 else 0.0)
        for term, value in raw.items()
    }
    return {term: value for term, value in table.items() if value > 0}


def unseen_share(weight: Weight) -> float:
    """How much a word no searched corpus holds counts, from 0 to 1.

    The passages searched over `UNSEEN_FULL_AT`, at most 1 (1 when the count is unknown, as
    for a remote search).
    """
    passages = getattr(weight, "passages", None)
    if not isinstance(passages, int):
        return 1.0
    return min(1.0, passages / UNSEEN_FULL_AT)


def support(question: str, passages: Sequence[str], weight: Weight) -> float:
    """The share of `question`'s weight whose words `passages` hold (0.0 for no passage)."""
    return covered(weights(question, weight, unseen_share(weight)), passages)


def coverage(question: str, passages: Sequence[str], weight: Weight) -> float:
    """Like `support`, but of the words some corpus holds only: what a search can still find.

    1.0 when the corpora hold none of the question's words.
    """
    table = weights(question, weight)
    return covered(table, passages) if table else 1.0


def covered(table: dict[str, float], passages: Sequence[str]) -> float:
    """The share of the weight in `table` whose words `passages` hold."""
    total = sum(table.values())
    if not passages or total <= 0:
        return 0.0
    have = stems_of(passages)
    return sum(value for term, value in table.items() if stem(term) in have) / total


def word_share(table: dict[str, float], passages: Sequence[str]) -> float:
    """The share of the words of `table`, counted, not weighed, that `passages` hold.

    0.0 for no word or no passage: a heavy word held does not hide two others missing.
    """
    if not table or not passages:
        return 0.0
    have = stems_of(passages)
    return sum(stem(term) in have for term in table) / len(table)


@dataclass(frozen=True)
class Confidence:
    """What `confident` is decided on, each a share of the question's weight.

    The cited passages' `support`, the `answer`'s own coverage (`answer_coverage`), the best
    `rival` sentence's (`rival_coverage`), how many rivals cover as much as the answer (`ties`,
    `rival_ties`) and the share of the question's words the answer's texts hold (`words`).
    """

    support: float
    answer: float
    rival: float
    ties: int = 0
    words: float = 1.0

    @property
    def confident(self) -> bool:
        """Support at the bar, no rival clearly ahead or tied too often, enough words held."""
        return is_confident(self.support, self.answer, self.rival, ties=self.ties, words=self.words)


def is_confident(
    value: float,
    answer: float = 1.0,
    rival: float = 0.0,
    bar: float = SUPPORT_BAR,
    margin: float = RIVAL_MARGIN,
    *,
    ties: int = 0,
    words: float = 1.0,
    most_ties: int = RIVAL_TIES,
    least_words: float = ANSWER_WORD_SHARE,
) -> bool:
    """Whether support `value` reaches `bar` and the answer is singled out and on the question.

    `rival` is not `margin` above `answer`, fewer than `most_ties` rivals cover as much as the
    answer, and its texts hold `least_words` of the question's words.
    """
    return value >= bar and rival - answer < margin and ties < most_ties and words >= least_words


def confidence(
    question: str, answer: str, cited: Sequence[str], retrieved: Sequence[str], weight: Weight
) -> Confidence:
    """The `Confidence` of `answer` to `question`, citing `cited`, after `retrieved` was read."""
    table = weights(question, weight, unseen_share(weight))
    source = source_sentences(answer, cited)
    said = answer_coverage(table, answer, cited, source)
    return Confidence(
        covered(table, cited),
        said,
        rival_coverage(table, answer, source, retrieved),
        rival_ties(table, answer, source, retrieved, said),
        word_share(table, answer_texts(table, answer, cited, source)),
    )


def sentences(text: str) -> list[str]:
    """The sentences of `text` (`SENTENCE_END_RE`), stripped, blank ones dropped."""
    return [part.strip() for part in SENTENCE_END_RE.split(text) if part.strip()]


def source_sentences(answer: str, cited: Sequence[str]) -> list[str]:
    """The cited sentence the answer quotes or restates and the one before it; [] for none.

    The source holds the largest share of the answer's content words, at least `SOURCE_SHARE`
    (the first of equals); the sentence before it is where a pronoun of it points ("The Atlas
    scheduler ... . It is owned by the Fleet Platform team.").
    """
    wanted = {stem(term) for term in question_terms(answer)}
    best: tuple[float, list[str]] = (0.0, [])
    for text in cited if wanted else ():
        parts = sentences(text)
        for at, sentence in enumerate(parts):
            held = len(wanted & stems_of([sentence])) / len(wanted)
            if held > best[0]:
                best = (held, parts[max(at - 1, 0) : at + 1])
    return best[1] if best[0] >= SOURCE_SHARE else []


def answer_texts(
    table: dict[str, float], answer: str, cited: Sequence[str], source: Sequence[str]
) -> list[str]:
    """What the answer says: its own words, and the cited sentences it is drawn from.

    When it is drawn from cited sentences (`source_sentences`), those and each other cited
    passage of a chain: one naming a word of the answer the question (the words of `table`)
    does not, as a bridge passage names the answer's subject.
    """
    if not source:
        return [answer]
    asked = {stem(term) for term in table}
    news = {stem(term) for term in question_terms(answer)} - asked
    links = [text for text in cited if source[-1] not in text and news & stems_of([text])]
    return [answer, *source, *links]


def answer_coverage(
    table: dict[str, float], answer: str, cited: Sequence[str], source: Sequence[str]
) -> float:
    """The share of the weight in `table` the answer's texts (`answer_texts`) cover."""
    return covered(table, answer_texts(table, answer, cited, source))


def rival_sentences(answer: str, source: Sequence[str], retrieved: Sequence[str]) -> list[str]:
    """The distinct retrieved sentences the answer does not use, in order."""
    return list(
        dict.fromkeys(
            sentence
            for text in retrieved
            for sentence in sentences(text)
            if sentence not in source and sentence not in answer
        )
    )


def rival_coverage(
    table: dict[str, float], answer: str, source: Sequence[str], retrieved: Sequence[str]
) -> float:
    """The most of the weight in `table` one retrieved sentence the answer does not use covers.

    0.0 when every retrieved sentence is the answer's (or nothing was retrieved).
    """
    rivals = rival_sentences(answer, source, retrieved)
    return max((covered(table, [sentence]) for sentence in rivals), default=0.0)


def rival_ties(
    table: dict[str, float],
    answer: str,
    source: Sequence[str],
    retrieved: Sequence[str],
    level: float,
) -> int:
    """How many retrieved sentences the answer does not use cover `level` of `table` or more."""
    rivals = rival_sentences(answer, source, retrieved)
    values = (covered(table, [sentence]) for sentence in rivals)
    return sum(value >= level or math.isclose(value, level) for value in values)


def missing_words(question: str, passages: Sequence[str], weight: Weight) -> list[str]:
    """The words of `question` no passage holds, heaviest first (question order among equals)."""
    table = weights(question, weight, unseen_share(weight))
    have = stems_of(passages)
    return sorted((t for t in table if stem(t) not in have), key=lambda t: -table[t])
