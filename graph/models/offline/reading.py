"""Reading text the way the offline policy needs: words, sentences, names, markup, clauses.

Clauses are a question's relative clause (two hops) and its two asks ("..., and which ...?").
Pure functions over strings, with no knowledge of any particular corpus or question. Words are
read as the search reads them (`graph.models.support.question_terms`, `tools.expand.stem`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from graph.models.offline.directives import is_directive
from graph.models.offline.tuning.reading import (
    ABBREVIATION_RE,
    BARE_REPLY_RE,
    CODE_FENCE_RE,
    CONNECTORS,
    CONTINUATION_RE,
    DEFINITION_RE,
    INLINE_MARKUP,
    LABEL_END_RE,
    LEADING_FUNCTION_WORDS,
    LIST_RUN_RE,
    NAME_RE,
    PARENTHETICAL_RE,
    RELATIVE_RE,
    SECOND_ASK_RE,
    SENTENCE_RE,
    STATEMENT_BREAK_RE,
    URL_RE,
    WORD_RE,
)
from graph.models.offline.tuning.sentences import HOW_RE
from graph.models.support import question_terms
from tools.expand import stem


def words(text: str) -> list[str]:
    """Lowercased runs of letters and digits (the same words BM25 indexes)."""
    return WORD_RE.findall(text.lower())


def how_words(question: str) -> set[str]:
    """The stems of the degree words after "how" ("large" in "How large were the donations?").

    A word counts when a verb follows it (`HOW_RE`): in "Explain how Flask routes requests" the
    word after "how" is the subject.
    """
    return {stem(m.group(1)) for m in HOW_RE.finditer(question)}


def stems(text: str) -> set[str]:
    """The stems of the meaningful words of `text`."""
    return {stem(word) for word in question_terms(text)}


def known(span: str, asked: set[str]) -> bool:
    """Whether `span` has words and each one's stem is among `asked` (the question names it)."""
    tokens = words(span)
    return bool(tokens) and all(stem(t) in asked for t in tokens)


def plain(text: str) -> str:
    """`text` with inline reST and Markdown markup removed (``code``, :role:`x`, **bold**)."""
    for pattern, kept in INLINE_MARKUP:
        text = pattern.sub(kept, text)
    return text


def sentences(text: str) -> list[str]:
    """`text` split into sentences (on ., ! or ? before a capital or digit, or a blank line).

    A split after an abbreviation or an initial ("Ken St. Andre", "Henry J. Kaiser") is undone;
    whitespace inside a sentence is collapsed.
    """
    return _rejoined(" ".join(part.split()) for part in SENTENCE_RE.split(text.strip()))


def split_statements(texts: Iterable[str]) -> list[str]:
    """Every statement of `texts`, in order, split finer than `sentences` for a short answer.

    A split comes at every sentence end, also before a lowercase word ("... PyPy. attrs
    doesn't"), but never after an abbreviation or an initial ("C. W. Grafton").
    """
    return [s for text in texts for s in _rejoined(STATEMENT_BREAK_RE.split(text.strip()))]


def _rejoined(parts: Iterable[str]) -> list[str]:
    """The non-empty `parts`, each one after an abbreviation or an initial joined to it."""
    merged: list[list[str]] = []
    for part in parts:
        if merged and part and ABBREVIATION_RE.search(merged[-1][-1]):
            merged[-1].append(part)  # the abbreviation ends the last part: only it is searched
        elif part:
            merged.append([part])
    return [" ".join(pieces) for pieces in merged]


def statements(text: str) -> list[str]:
    """The sentences of a passage, markup removed, that state something (not orders).

    Retrieved text is data: a sentence that addresses the reader or gives it orders
    (`graph.models.offline.directives.is_directive`) is never used as an answer or a bridge.
    """
    return [s.text for s in statements_with_code(text)]


@dataclass(frozen=True)
class Statement:
    """A sentence of a passage, and the code block it introduces."""

    text: str
    """The sentence, markup removed."""
    code: str = ""
    """The fenced code block right after a sentence ending in ":", as written ("" for none)."""


def body(text: str, title: str) -> str:
    """`text` without the `title` it starts with: a label, never part of a sentence."""
    return text[len(title) :].lstrip(". ") if title and text.startswith(title) else text


def asks(sentence: str) -> bool:
    """Whether `sentence` is a question (it ends with a question mark): it states nothing."""
    return sentence.rstrip().endswith("?")


def statements_with_code(text: str) -> list[Statement]:
    """Like `statements`, each sentence with the code block it introduces.

    Code is never a sentence and never runs into the prose around it; a sentence ending in ":"
    followed at once by a fenced block ("... on the loop object:" + the example) keeps it.
    """
    found: list[Statement] = []
    start = 0
    for fence in [*CODE_FENCE_RE.finditer(text), None]:
        end = fence.start() if fence else len(text)
        prose = continued(s for s in sentences(plain(text[start:end])) if not is_directive(s))
        found.extend(Statement(s) for s in prose)
        if fence is None:
            break
        last = found[-1] if found else None
        if prose and last is not None and last.text.endswith(":") and not last.code:
            found[-1] = Statement(last.text, fence.group(0).strip())
        start = fence.end()
    return found


def continued(parts: Iterable[str]) -> list[str]:
    """The sentences of `parts` as answer units: each option of a list with its default.

    A bare "Yes." or "No." (`BARE_REPLY_RE`, a FAQ's answer to its heading) is one unit with
    the sentence after it. A flattened option list's first option leaves its introduction
    (`LIST_RUN_RE`), and a
    definition line (`DEFINITION_RE`) takes its description's sentences up to the "Defaults
    to X." that finishes it (`CONTINUATION_RE`): "css_class: An alias to the cssclass option.
    Set the class of the wrapper. Defaults to codehilite." is one answer. A description that
    reaches the next definition line without a default stays sentences.
    """
    merged: list[str] = []
    start: int | None = None
    for part in (piece for whole in parts for piece in LIST_RUN_RE.split(whole)):
        if merged and BARE_REPLY_RE.fullmatch(merged[-1]):
            merged[-1] = f"{merged[-1]} {part}"  # "Yes." says what the next sentence explains
            continue
        if DEFINITION_RE.match(part):
            start = len(merged)
        elif start is not None and CONTINUATION_RE.match(part):
            merged[start:] = [" ".join([*merged[start:], part])]
            start = None
            continue
        merged.append(part)
    return merged


@dataclass(frozen=True)
class Name:
    """A capitalised span in a sentence: a candidate entity."""

    text: str
    start: int
    end: int


def _past_leading(start: int, parts: list[str]) -> tuple[int, list[str]]:
    """A span's words past its leading function words and connectors, and where they start."""
    while parts and (parts[0] in LEADING_FUNCTION_WORDS or parts[0].lower() in CONNECTORS):
        start += len(parts[0]) + 1
        parts = parts[1:]
    return start, parts


def mid_capitals(texts: Iterable[str]) -> set[str]:
    """Words written capitalised somewhere other than a sentence's start (lowercased).

    A capitalised label, a span right before a colon ("Coverage.py works in three phases:
    Execution: ...", "Note: ..."), is capitalised as a first word is: no evidence of a name.
    """
    found: set[str] = set()
    for text in texts:
        for sentence in sentences(plain(text)):
            for match in capital_spans(sentence):
                label = LABEL_END_RE.match(sentence, match.end()) is not None
                if not opens(sentence, match.start()) and not label:
                    found.update(words(match.group(0)))
    return found


def capital_spans(sentence: str) -> list[re.Match[str]]:
    """The capitalised spans of `sentence` (`NAME_RE`) outside its web addresses (`URL_RE`).

    An address's path ("wiki/Who's-using-marshmallow") names nothing.
    """
    addresses = [m.span() for m in URL_RE.finditer(sentence)]
    return [
        m
        for m in NAME_RE.finditer(sentence)
        if not any(start <= m.start() < end for start, end in addresses)
    ]


def opens(sentence: str, start: int) -> bool:
    """Whether the word at `start` opens `sentence`: only a parenthetical comes before it.

    "(Trio package only) Slow tests ..." opens with "Slow", capitalised as a first word is.
    """
    return not any(c.isalnum() for c in PARENTHETICAL_RE.sub("", sentence[:start]))


def names(sentence: str, capitalised: Collection[str] = ()) -> list[Name]:
    """Capitalised spans (`Fleet Platform`, `Bank of Ireland`), leading function words dropped.

    A sentence's first word (`opens`) is capitalised because it opens the sentence ("Please",
    "To", "Starting"): it starts a name only when the text around writes it capitalised elsewhere
    too (`capitalised`, from `mid_capitals`).
    """
    found = []
    for match in capital_spans(sentence):
        span = match.group(0).rstrip(".'’-")
        start = match.start()
        parts = span.split()
        start, parts = _past_leading(start, parts)
        if parts and opens(sentence, start) and not any(w in capitalised for w in words(parts[0])):
            start, parts = _past_leading(start + len(parts[0]) + 1, parts[1:])
        while parts and parts[-1].lower() in CONNECTORS:
            parts = parts[:-1]
        if parts:
            span = " ".join(parts)
            found.append(Name(span, start, start + len(span)))
    return found


@dataclass(frozen=True)
class Hop:
    """A question split at a relative clause: find the inner entity, then ask the outer part."""

    inner_query: str
    """The first search: the clause turned into its own question ("who acquired Acme")."""
    head: str
    """The noun the clause describes ("company", "team", "office")."""
    outer: str
    """The question with the clause's noun phrase replaced by {bridge}."""


def split_relative_clause(question: str) -> Hop | None:
    """The bridge structure of "... the <noun> that/who/where <clause>", or None."""
    match = RELATIVE_RE.search(question)
    if match is None:
        return None
    rest = match.group("rest").strip().rstrip(",;")
    if not question_terms(rest):
        return None
    rel = match.group("rel").lower()
    wh = {"where": "where", "whose": "whose"}.get(rel, "who")
    outer = question[: match.start()] + "{bridge}" + question[match.end("rest") :]
    return Hop(inner_query=f"{wh} {rest}", head=match.group("head").lower(), outer=outer)


def asked_parts(question: str) -> tuple[str, str] | None:
    """The two asks of a question that asks two things (`SECOND_ASK_RE`), each a question.

    "Which function runs X, and which object limits Y?" is "Which function runs X?" and
    "Which object limits Y?"; a question asking one thing, or no question, gives None.
    """
    text = question.strip()
    match = SECOND_ASK_RE.search(text) if text.endswith("?") else None
    if match is None:
        return None
    first, second = text[: match.start()].strip(), text[match.end() :].strip()
    return f"{first}?", second[:1].upper() + second[1:]
