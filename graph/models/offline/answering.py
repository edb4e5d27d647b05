"""The answer: the sentence, or the two sentences of a chain, that best cover the question.

Every sentence of every retrieved passage (markup removed, orders dropped; a question the
passage asks states nothing and is none: `asks`) gets its score against the question
(`scoring.Scorer`) plus what its place adds (`bonus`: the sentence before it when it points
back, its passage's rank when the search scored it, so unscored remote results are ranked by
the policy's own term weighting alone). A second sentence joins the best ones when
the two make a chain (`linked`: a name word both hold, "Acme was acquired by Globex." + "Globex
earbuds carry a 2-year warranty.", or the next sentence of its passage; never for a yes/no
question), each brings what the other lacks (`adds`), the pair adds more than `PAIR_COST`, and
it covers no less of the question than the best sentence when that one holds a candidate of the
kind asked for. The answer carries the next sentence when that draws its conclusion
("Therefore, ...": `concluded`), and the sentence before when it points back at that one
("This is ...": `antecedent`). A sentence ending in ":" carries the code block it
introduces, as written, and a passage's first sentence shows the thing of code its heading
names in front of it ("message_after_copy: A message to be printed ..."), which it defines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from graph.models.actions import Hit
from graph.models.offline.reading import asks, body, names, statements_with_code, words
from graph.models.offline.scoring import Scorer
from graph.models.offline.tuning.names import POSSESSIVE_RE
from graph.models.offline.tuning.reading import CONNECTORS
from graph.models.offline.tuning.sentences import (
    ANAPHOR_WEIGHT,
    ANAPHORS,
    CONSEQUENCES,
    PAIR_COST,
    PAIRED,
    RANK_WEIGHT,
    TERM_HEADING_RE,
)
from tools.expand import stem


@dataclass(frozen=True)
class Sentence:
    """One retrieved sentence and where it came from."""

    text: str
    doc_id: str
    passage: int
    """The passage's first-seen order in the turn."""
    position: int
    """The sentence's order in its passage."""
    code: str = ""
    """The code block the sentence introduces (`reading.Statement.code`)."""
    rank: float = 0.0
    """Its passage's place in the rankings: 1 / (1 + passages seen before it), 0 unscored."""
    term: str = ""
    """The thing of code its passage's heading names, when the sentence opens the passage and
    does not name it (`TERM_HEADING_RE`: a reference entry's first sentence defines it)."""
    answers: str = ""
    """The question its passage's heading asks, when the sentence is the passage's first
    statement (a FAQ's "How do I report a bug?" over "Open an issue on the tracker ...")."""

    @property
    def shown(self) -> str:
        """The sentence as the answer shows it: after the term it defines, with its code."""
        text = f"{self.term}: {self.text}" if self.term else self.text
        return f"{text}\n\n{self.code}" if self.code else text


@dataclass(frozen=True)
class Answer:
    """The chosen sentences (in passage order), the ids they cite, and why they won."""

    sentences: list[str]
    citations: list[str]
    score: float
    shown: list[str]
    """The sentences as the answer shows them (each with the code it introduces)."""
    whole: bool = False
    """Whether the sentences cover the question as asked rather than a two-hop reading of it
    (its bridge then needs no citing)."""
    context: int = 0
    """How many of the first sentences are shown only as what the next one points back at
    (`antecedent`): the statement is the rest."""

    @property
    def text(self) -> str:
        """The answer as the passages write it."""
        return joined(self.shown)


def combined(answers: Sequence[Answer]) -> Answer:
    """Several asks' answers as one: their sentences in order, each once, and every citation."""
    sentences: list[str] = []
    shown: list[str] = []
    citations: list[str] = []
    for one in answers:
        sentences += [s for s in one.sentences if s not in sentences]
        shown += [s for s in one.shown if s not in shown]
        citations += [c for c in one.citations if c not in citations]
    score = min(one.score for one in answers)
    return Answer(sentences, citations, score, shown, context=answers[0].context)


def joined(pieces: Sequence[str]) -> str:
    """Sentences as one answer: a space apart, or a blank line when one carries code."""
    return ("\n\n" if any("\n" in p for p in pieces) else " ").join(pieces)


def retrieved_sentences(hits: Sequence[Hit]) -> tuple[list[Sentence], dict[str, str]]:
    """Every statement of every distinct passage (past its title: `body`), and its text, by id.

    A question a passage asks ("Can you import it?", "Is your company using it?") states
    nothing, so it is no answer and is left out (`asks`).

    A passage's `Sentence.rank` is 1 / (1 + the passages first seen before it) when the hit
    carries a retrieval score, else 0: an unscored hit's place says nothing. The first statement
    under a heading that asks a question answers it (`Sentence.answers`): `compose` weighs it
    even when only the heading holds the question's words (a FAQ; no tune answer moved).
    """
    found: list[Sentence] = []
    texts: dict[str, str] = {}
    for hit in hits:
        doc_id = str(hit["id"])
        if doc_id in texts:
            continue
        texts[doc_id] = str(hit.get("text", ""))
        title = str(hit.get("title") or "").strip().rstrip(".")
        order = len(texts) - 1
        rank = 1 / (1 + order) if scored(hit) else 0.0
        heading = term_heading(title)
        question = title.rsplit(" > ", 1)[-1].strip() if title.endswith("?") else ""
        for position, said in enumerate(statements_with_code(body(texts[doc_id], title))):
            if not asks(said.text):
                term = heading if position == 0 and heading.lower() not in said.text.lower() else ""
                answers, question = question, ""  # the first statement answers the heading
                found.append(
                    Sentence(said.text, doc_id, order, position, said.code, rank, term, answers)
                )
    return found, texts


def term_heading(title: str) -> str:
    """The title's last heading when it names a thing of code (`TERM_HEADING_RE`), else "".

    A title without a heading is the file's path ("testclient.md"), no term.
    """
    _, _, headings = title.partition(" > ")
    last = headings.rsplit(" > ", 1)[-1].strip()
    return last if last and TERM_HEADING_RE.fullmatch(last) else ""


def scored(hit: Hit) -> bool:
    """Whether the search scored `hit` (a positive retrieval score)."""
    value = hit.get("score")
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def compose_answer(scorer: Scorer, hits: Sequence[Hit]) -> Answer | None:
    """The best-covering sentence, or chain of two, among `hits`; None when none matches.

    A two-hop question's outer part with the bridge filled in is one reading of it; the
    question as asked is the other, and the better-scoring answer wins (a sentence answering
    the whole question needs no chain, and a wrong bridge misleads the outer reading).
    """
    best = compose(scorer, hits)
    if scorer.asked_text == scorer.question:
        return best
    other = compose(scorer.whole(), hits)
    alone = other is not None and len(other.sentences) == 1
    if other is not None and alone and (best is None or other.score > best.score):
        return replace(other, whole=True)
    return best


def compose(scorer: Scorer, hits: Sequence[Hit]) -> Answer | None:
    """The best-covering sentence, or chain of two, for one reading of the question.

    A chain covering less of the question than the best single sentence, when that sentence
    holds a candidate of the kind asked for, never replaces it: its score comes from its two
    sentences' best window and proximity ("A notable alumnus is ... Wieschaus." + "..., the Rev.
    John Jenkins." over "Other notable alumni include ... astronaut Jim Wetherbee.").
    """
    found, texts = retrieved_sentences(hits)
    singles = [s for s in found if scorer.coverage(f"{s.answers} {s.text}") > 0]
    if not singles:
        return None
    before = {(s.doc_id, s.position + 1): s.text for s in found}
    extra = {id(s): bonus(scorer, s, before.get((s.doc_id, s.position), "")) for s in singles}
    alone = {id(s): bonus(scorer, s, "") for s in singles}
    values = {id(s): scorer.score([s.text], [texts[s.doc_id]]) + extra[id(s)] for s in singles}
    ranked = sorted(singles, key=lambda s: (-values[id(s)], s.passage, s.position))
    best = ranked[0]
    best_score = values[id(best)]
    floor = scorer.coverage(best.text) if scorer.has_kind(best.text) else 0.0
    chosen: list[Sentence] = [best]
    for first in ranked[:PAIRED]:
        for second in singles:
            if second is first or not linked(first, second, scorer):
                continue
            if not (adds(scorer, first, second) and adds(scorer, second, first)):
                continue
            pair = sorted((first, second), key=lambda s: (s.passage, s.position))
            if scorer.coverage(" ".join(s.text for s in pair)) < floor:
                continue  # less of the question than the best sentence, which has the kind
            docs = list(dict.fromkeys(s.doc_id for s in pair))
            value = (
                scorer.score([s.text for s in pair], [texts[d] for d in docs])
                + max(extra[id(s)] if i == 0 else alone[id(s)] for i, s in enumerate(pair))
                - PAIR_COST
            )
            if value > best_score:
                best_score, chosen = value, pair
    stated = concluded(chosen, found)
    chosen = antecedent(stated, found)
    sentences = [s.text for s in chosen]
    return Answer(
        sentences=sentences,
        citations=list(dict.fromkeys(s.doc_id for s in chosen)),
        score=best_score,
        shown=[s.shown for s in chosen],
        context=len(chosen) - len(stated),
    )


def antecedent(chosen: list[Sentence], found: Sequence[Sentence]) -> list[Sentence]:
    """The chosen sentences with the one before the first when that one points back at it.

    A sentence opening with one of `ANAPHORS` ("This is a reasonable default if you aren't
    sure.", "They never expire.") says what it says of the sentence before, whose words its
    score already counted (`bonus`): shown alone, the answer would not say what "this" is.
    """
    before = neighbour(found, chosen[0], -1)
    if before is None or before in chosen or opening(chosen[0]) not in ANAPHORS:
        return chosen
    return [before, *chosen]


def concluded(chosen: list[Sentence], found: Sequence[Sentence]) -> list[Sentence]:
    """The chosen sentences with the next one when that draws their conclusion.

    A sentence opening with one of `CONSEQUENCES` ("Therefore, no additional libraries are
    required.", "Therefore it returns a lazy proxy.") is part of the statement before it:
    what that statement means for the question.
    """
    after = neighbour(found, chosen[-1], 1)
    return [*chosen, after] if after is not None and opening(after) in CONSEQUENCES else chosen


def neighbour(found: Sequence[Sentence], sentence: Sentence, step: int) -> Sentence | None:
    """The sentence `step` places from `sentence` in its passage, if it was retrieved."""
    place = (sentence.doc_id, sentence.position + step)
    return next((s for s in found if (s.doc_id, s.position) == place), None)


def opening(sentence: Sentence) -> str:
    """The first word of a sentence, lowercased ("" for none)."""
    return (words(sentence.text) or [""])[0]


def adds(scorer: Scorer, one: Sentence, other: Sentence) -> bool:
    """Whether `one` brings a pair something `other` lacks.

    That is a question word or a candidate of the kind asked for: a sentence adding neither
    would only ride on the other's score (its rank, its proximity).
    """
    if scorer.added(one.text, other.text) > 0:
        return True
    return scorer.has_kind(one.text) and not scorer.has_kind(other.text)


def bonus(scorer: Scorer, sentence: Sentence, previous: str) -> float:
    """What a sentence's place adds to its score.

    Its passage's rank (`RANK_WEIGHT`), and, when it opens with one of `ANAPHORS`, the weight
    the sentence before it adds (`ANAPHOR_WEIGHT`): a sentence that does not point back stands
    on its own words.
    """
    value = RANK_WEIGHT * sentence.rank
    if opening(sentence) in ANAPHORS:
        value += ANAPHOR_WEIGHT * scorer.added(previous, sentence.text)
    return value


def linked(first: Sentence, second: Sentence, scorer: Scorer) -> bool:
    """Whether two sentences make a chain.

    They do when the second is next to the first in its passage, or when both hold a word of a
    name that is new to the question; never for a yes/no question, which one statement answers
    (a second passage sharing a name, "Python" of "the Python standard library" and
    "Python-Markdown's tests", had joined a sentence saying nothing of the question).
    """
    if scorer.kind == "yesno":
        return False
    if first.doc_id == second.doc_id:
        return abs(first.position - second.position) == 1
    return bool(name_words(first.text, scorer) & name_words(second.text, scorer))


def name_words(text: str, scorer: Scorer) -> set[str]:
    """The words of the names in `text` that the question does not hold.

    A possessive ending (`POSSESSIVE_RE`: "Chopin's" and "Apple's" share no "s"), a lowercase
    word joining a name's words (`CONNECTORS`: "Winnie the Pooh", "Michałowski and Samson")
    and a number ("Since 2009", "Asphalt 4") name nothing on their own, so two sentences
    sharing only those are no chain.
    """
    found = {
        w
        for n in names(text, scorer.capitalised)
        for part in n.text.split()
        for w in words(POSSESSIVE_RE.sub("", part))
    }
    return {
        w
        for w in found
        if stem(w) not in scorer.in_question and w not in CONNECTORS and not w.isdigit()
    }
