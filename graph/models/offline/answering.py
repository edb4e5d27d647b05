"""The extractive answer: the retrieved sentence that best covers the question, and its ids."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graph.models.offline.actions import Hit
from graph.models.offline.bridges import Bridge
from graph.models.offline.reading import names, statements, stems, words
from graph.models.offline.tuning import (
    ANSWER_KIND_FOUND,
    ANSWER_LAST_HOP,
    ANSWER_NAMES_BRIDGE,
    ANSWER_TOP_RANK,
    KNOWN_NAME_SHARE,
    NUMBER_WORDS,
)
from tools.expand import stem


@dataclass(frozen=True)
class Answer:
    """The extractive answer: a sentence from a retrieved passage, and the ids it rests on."""

    text: str
    citations: list[str]


def expected_type_found(sentence: str, kind: str, question: str) -> bool:
    """Whether a sentence holds the kind of answer asked for, beyond what the question says."""
    asked = {stem(word) for word in words(question)}
    if kind == "number":
        return any(
            (any(c.isdigit() for c in w) or w in NUMBER_WORDS) and stem(w) not in asked
            for w in words(sentence)
        )
    if kind == "name":
        return any(
            sum(stem(t) in asked for t in words(n.text)) < KNOWN_NAME_SHARE * len(words(n.text))
            for n in names(sentence)
        )
    return True


def is_title_line(sentence: str, hit: Hit) -> bool:
    """Whether a "sentence" is only the passage's title ("Title." starts an indexed text)."""
    title = str(hit.get("title") or "").strip()
    return bool(title) and sentence.rstrip(".").strip() == title.rstrip(".")


def with_the_missing_part(sentence: str, passage: list[str], kind: str, known: str) -> str:
    """The sentence, completed from its passage when it lacks the kind of answer asked for.

    "Orion sends invoices." answers "who maintains Orion?" only with the passage's next
    sentence, "It is maintained by the Ledger team.": the two are joined in passage order.
    """
    if expected_type_found(sentence, kind, known):
        return sentence
    start = passage.index(sentence) if sentence in passage else len(passage)
    for other in passage[start + 1 :] + passage[:start]:
        if expected_type_found(other, kind, known):
            pair = [sentence, other] if passage.index(other) > start else [other, sentence]
            return " ".join(pair)
    return sentence


def compose_answer(
    question: str,
    kind: str,
    searches: Sequence[Sequence[Hit]],
    bridge: Bridge | None,
    asked: str | None = None,
) -> Answer | None:
    """The best-supported sentence among everything retrieved, with its citations.

    `question` is what the answer must cover (for a two-hop question, its outer part with the
    bridge filled in); `asked` is the question as the user wrote it, whose names, like the
    bridge's, are not an answer.
    """
    target = stems(question) | (stems(bridge.name) if bridge else set())
    known = " ".join(part for part in (asked, question, bridge.name if bridge else "") if part)
    best: tuple[tuple[float, ...], str, str] | None = None
    passages: dict[str, list[str]] = {}
    last = len(searches) - 1
    for hop, hits in enumerate(searches):
        for rank, hit in enumerate(hits):
            passages[str(hit["id"])] = [
                sentence
                for sentence in statements(str(hit.get("text", "")))
                if not is_title_line(sentence, hit)
            ]
            for position, sentence in enumerate(passages[str(hit["id"])]):
                overlap = len(stems(sentence) & target)
                if overlap == 0:
                    continue
                score = (
                    overlap
                    + ANSWER_KIND_FOUND * expected_type_found(sentence, kind, known)
                    + (ANSWER_LAST_HOP if hop == last else 0.0)
                    + (ANSWER_TOP_RANK if rank == 0 else 0.0)
                    + (
                        ANSWER_NAMES_BRIDGE
                        if bridge and bridge.name.lower() in sentence.lower()
                        else 0.0
                    ),
                    -hop,
                    -rank,
                    -position,
                )
                if best is None or score > best[0]:
                    best = (score, sentence, str(hit["id"]))
    if best is None:
        return None
    _, sentence, doc_id = best
    citations = [doc_id]
    text = with_the_missing_part(sentence, passages[doc_id], kind, known)
    if bridge is not None and bridge.doc_id != doc_id:
        citations.insert(0, bridge.doc_id)
        if bridge.name.split()[0].lower() not in sentence.lower():
            text = f"{bridge.sentence} {sentence}"
    return Answer(text=text, citations=citations)
