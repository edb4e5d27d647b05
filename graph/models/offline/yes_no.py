"""Yes or no, read from the one sentence that states what a yes/no question asks.

The statement is the answer's sentence holding the most of the question's words (a sentence
opening with a pronoun holds its predecessor's words too, and is read with it); it must miss
at most `YES_MISSING_SHARE` of them. A word negating a question word by its prefix ("unused"
to a question about a "used" item, `unprefixed`) reads as "not" and that word, and a need
avoided as none ("avoids the need to": `unneeded`). A negation counts
only where it attaches to the question's predicate: in the clauses holding the most question
words and, in a sentence without a contrast, the clauses holding a question word those lack
(`predicate_clauses`: "X stores jobs as-is, without serializing them"), outside condition
clauses ("if the stream is not a terminal"), a "without" only where its object is something
the question asks about ("a URL without a trailing slash" denies nothing of "strict_slashes"),
and beyond the negations the question itself holds.
When the other side of a contrast, turned the other way, holds a question word the main
clauses' side lacks, that side decides if it is plainly the case asked ("Dogs are not allowed,
although assistance dogs are welcome" to "Are assistance dogs allowed?": yes), else the
sentence says both. Otherwise the answer is None rather than a guess: when the question
compares ("both", "same", "older than") and the sentence does not say so, when the sentence
restricts ("for options only") without a negation, or when a "yes" would be said of a case
the documents never name (`unstated_case`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from graph.models.offline.reading import split_statements, words
from graph.models.offline.tuning.reading import CONTINUATION_RE
from graph.models.offline.tuning.yes_no import (
    CASELESS_WORDS,
    CLAUSE_BREAK_RE,
    COMPARISON_OPENERS,
    COMPARISON_WORDS,
    CONDITION_WORDS,
    CONTRACTION_RE,
    CONTRAST_RE,
    LEADING_REPLY_RE,
    NEED_AVOIDED_RE,
    NEGATING_PREFIX_RE,
    NEGATION_EXCEPTIONS,
    NEGATIONS,
    OBJECT_NEGATIONS,
    OBJECT_WORDS,
    PRONOUN_LEADS,
    RESTRICTION_WORDS,
    REVERSIBLE_ROOTS,
    SIDE_NEW_WORDS,
    WHOLE_WORD_RE,
    WRITTEN_WORD_RE,
    YES_MISSING_SHARE,
)
from graph.models.support import question_terms
from tools.expand import stem


def yes_or_no(
    question: str, answer: Sequence[str], unseen: Collection[str] = frozenset()
) -> str | None:
    """Yes or no from `answer`'s sentences for `question`, or None when unsure.

    `unseen` holds the stems of the question's words no searched corpus holds: a "yes" is
    never read when the question has one (`unstated_case`).
    """
    terms = {stem(t) for t in question_terms(question)}
    texts = [unprefixed(unneeded(LEADING_REPLY_RE.sub("", a)), terms) for a in answer]
    statement = best_statement(texts, question, terms)
    if statement is None:
        return None
    asked = set(words(question))
    if unstated_comparison(asked, set(words(statement))):
        return None  # a comparison the sentence does not state ("both", "same", "than")
    deciding = deciding_clauses(statement, terms)
    if deciding is None:
        return None  # "X, but the default build lacks Y": the other side may be about more
    objects = None if asks_without(question) else whole_terms(question, terms)
    said = sum(_negation_count(tokens, objects) for tokens in deciding)
    held = negations(question, terms, None)
    if said > held:
        return "no"
    if said < held:
        return None  # "is X not Y?" met by "X is Y": unsure which way the question leans
    if restricts(deciding, asked):
        return None  # "supported for options only" says no to "arguments" without a "not"
    if unstated_case(terms, unseen):
        return None  # "free for open source projects" to "free for commercial projects?"
    return "yes"


def unstated_case(terms: set[str], unseen: Collection[str]) -> bool:
    """Whether a question word (of the stems `terms`) is one no searched corpus holds.

    The statement missing it may say yes of another case than the one asked ("Orrin is free
    for open source projects" to "Is Orrin free for commercial projects?" over documents that
    never say "commercial"): the documents do not state the case, and a "yes" would be a guess.
    A "no" still stands: it denies the predicate the statement and question share. A word
    that names no case ("possible", "currently": `CASELESS_WORDS`) does not count.
    """
    named = {w.lower() for w in unseen}
    cases = {w for w in named if w not in CASELESS_WORDS and not w.endswith("ly")}
    return bool(terms & {stem(w) for w in cases})


def unneeded(text: str) -> str:
    """`text` with a need it avoids read as none ("avoids the need to" as "no need to")."""
    return NEED_AVOIDED_RE.sub("no need to", text)


def unprefixed(text: str, terms: set[str]) -> str:
    """`text` with a word negating a question word by its prefix read as "not" and that word.

    "any unused item" to "Can I return a used item?" reads "any not used item"; a word the
    question itself writes ("unsupported" to "Is X unsupported?") stays as it is, and so does
    an action's undoing (`REVERSIBLE_ROOTS`: "uninstalled") or a word the text also writes
    without its prefix ("installed or uninstalled").
    """
    plain = {stem(w) for w in words(NEGATING_PREFIX_RE.sub(" ", text))}

    def read(match: re.Match[str]) -> str:
        whole, prefix, rest = match.group(0), match.group(1).lower(), match.group(2)
        root = stem(rest.lower())
        if whole.lower() in CONDITION_WORDS or stem(whole.lower()) in terms:
            return whole  # "unless" opens a condition; "unsupported" asked stays
        undone = prefix == "un" and root in REVERSIBLE_ROOTS  # "uninstalled" undoes
        if root not in terms or undone or root in plain:
            return whole
        return f"not {rest}"

    return NEGATING_PREFIX_RE.sub(read, text)


def unstated_comparison(asked: set[str], said: set[str]) -> bool:
    """Whether the question's words `asked` compare in a way the statement's `said` do not.

    Each comparison word of the question must be in the statement, but a "than" closing a
    comparison another word opens ("a different key ... than ...") is stated by that word.
    """
    return any(
        w in asked and w not in said and not asked & said & COMPARISON_OPENERS.get(w, frozenset())
        for w in COMPARISON_WORDS
    )


def best_statement(answer: Sequence[str], question: str, terms: set[str]) -> str | None:
    """The sentence holding the most question words, if it misses few enough of them.

    A sentence opening with a pronoun, or continuing a definition with no subject of its own
    ("May be given more than once.", `CONTINUATION_RE`), holds its predecessor's words too, and
    is returned with it: what the predecessor says of them is part of the statement ("Plugins
    add environments that don't need to be declared in tox.toml. This uses tox_extend_envs."
    denies that such an environment must be declared).

    The question's words are counted as written (`written_words`): "Python-Markdown" missing
    is one word missing, not two.
    """
    asked = written_words(question, terms)
    pieces = split_statements(answer)
    best, best_missing = None, len(asked) + 1
    for i, piece in enumerate(pieces):
        held = {stem(w) for w in words(piece)}
        whole = piece
        if i and ((words(piece) or [""])[0] in PRONOUN_LEADS or CONTINUATION_RE.match(piece)):
            held |= {stem(w) for w in words(pieces[i - 1])}
            whole = f"{pieces[i - 1]} {piece}"
        missing = sum(not parts <= held for parts in asked)
        if missing < best_missing:
            best, best_missing = whole, missing
    if best is None or not asked or best_missing > YES_MISSING_SHARE * len(asked):
        return None
    return best


def written_words(question: str, terms: set[str]) -> set[frozenset[str]]:
    """The question's words as written (`WRITTEN_WORD_RE`), each as its parts' stems.

    Only the stems that are question words are kept ("strict_slashes": "strict", "slash"),
    and a word with none is left out.
    """
    found = (
        frozenset(stem(p) for p in words(w)) & terms
        for w in WRITTEN_WORD_RE.findall(question.lower())
    )
    return {parts for parts in found if parts}


def clauses(text: str) -> list[list[str]]:
    """The words of each clause of `text`, each cut at a condition ("if ...", "unless ...").

    Words are lowercased, "n't" read as "not", and a name of code kept whole
    (`WHOLE_WORD_RE`: "strict_slashes" is one word, not "strict" and "slashes").
    """
    found = []
    for part in CLAUSE_BREAK_RE.split(CONTRACTION_RE.sub(r"\1 not", text.lower())):
        tokens = WHOLE_WORD_RE.findall(part)
        cut = next((i for i, w in enumerate(tokens) if w in CONDITION_WORDS), len(tokens))
        found.append(tokens[:cut])
    return found


def main_clauses(text: str, terms: set[str]) -> list[list[str]]:
    """The clauses of `text` holding the most question words (none when none holds one)."""
    found = clauses(text)
    held = [sum(stem(p) in terms for w in tokens for p in words(w)) for tokens in found]
    top = max(held, default=0)
    return [tokens for tokens, n in zip(found, held, strict=True) if top and n == top]


def negations(text: str, terms: set[str], objects: set[str] | None) -> int:
    """Negations in the clauses of `text` that hold the most question words.

    A negation heading an object ("without a trailing slash") counts only when its object
    holds one of `objects` (the question's words, names of code whole), or always when
    `objects` is None.
    """
    return sum(_negation_count(tokens, objects) for tokens in main_clauses(text, terms))


def asks_without(question: str) -> bool:
    """Whether the question holds a negation heading an object ("... without root?")."""
    return any(w in OBJECT_NEGATIONS for w in words(question))


def whole_terms(question: str, terms: set[str]) -> set[str]:
    """The stems of the question's whole words whose parts are question words."""
    return {
        stem(w)
        for w in WHOLE_WORD_RE.findall(question.lower())
        if any(stem(p) in terms for p in words(w))
    }


def deciding_clauses(text: str, terms: set[str]) -> list[list[str]] | None:
    """The clauses of `text` whose negations answer, or None when the sentence says both ways.

    The main clauses decide, unless another side of a contrast, turned the other way, holds a
    question word their side lacks (`turned_sides`). That side decides when it is plainly the
    case asked: the only such side, the sentence missing no question word, and the side adding
    at most `SIDE_NEW_WORDS` words of its own ("Dogs are not allowed, although assistance dogs
    are welcome" to "Are assistance dogs allowed?": yes; "X writes a __hash__ for you, however
    it will not do so by default" to "... by default?": no). Otherwise it may be about
    something else ("..., but the default build lacks the GUI"), and no side decides.
    """
    main = main_clauses(text, terms)
    turned = turned_sides(text, terms, main)
    if not turned:
        return main + predicate_clauses(text, terms, main)
    side = turned[0]
    new = {stem(t) for tokens in side for t in question_terms(" ".join(tokens))} - terms
    holds_all = terms <= {stem(w) for w in words(text)}
    return side if len(turned) == 1 and holds_all and len(new) <= SIDE_NEW_WORDS else None


def predicate_clauses(text: str, terms: set[str], main: list[list[str]]) -> list[list[str]]:
    """The clauses of a sentence without a contrast holding a question word the main ones lack.

    A sentence may name its subject in one clause and say what the question asks of it in
    another: "MemoryJobStore stores jobs in memory as-is, without serializing them", "... uses
    gevent natively, so it doesn't require monkey patching", "Code inside docstrings (e.g.
    doctests), will not be formatted". The clause holding the asked predicate decides with the
    main ones; one holding no word the main ones lack ("..., not the comments" to a question
    about code) says nothing of what is asked.
    """
    if CONTRAST_RE.search(text):
        return []  # the sides of a contrast are `turned_sides`' to weigh
    held = _stems(main) & terms
    return [c for c in clauses(text) if c not in main and (_stems([c]) & terms) - held]


def turned_sides(text: str, terms: set[str], main: list[list[str]]) -> list[list[list[str]]]:
    """The other sides of a contrast, turned the other way, that add a question word.

    A side of a contrast ("but", "however") negated unlike the side holding the main clauses,
    holding a question word that side lacks: "attrs writes a __hash__ for you, however it
    will not do so by default" to "does attrs write a __hash__ by default?": "default" sits
    on the side turned the other way.
    """
    sides = [clauses(side) for side in CONTRAST_RE.split(text)]
    home = next((side for side in sides if any(tokens in side for tokens in main)), None)
    if len(sides) < 2 or home is None:
        return []
    held = _stems(home) & terms
    return [
        side
        for side in sides
        if side is not home and (_stems(side) & terms) - held and _negated(side) != _negated(home)
    ]


def _stems(side: list[list[str]]) -> set[str]:
    """The stems of every word of a side's clauses (a name of code by its parts)."""
    return {stem(p) for tokens in side for w in tokens for p in words(w)}


def _negated(side: list[list[str]]) -> bool:
    """Whether any clause of a side holds a negation (`_negation_count`)."""
    return any(_negation_count(tokens, None) for tokens in side)


def _negation_count(tokens: list[str], objects: set[str] | None) -> int:
    """Negations among a clause's `tokens` (not those opening "not only"-style phrases).

    A negation heading an object (`OBJECT_NEGATIONS`) counts when `objects` is None or one of
    its next `OBJECT_WORDS` words is among them: "visiting a URL without a trailing slash
    redirects" denies nothing of "is strict_slashes enabled?".
    """
    pairs = [" ".join(tokens[i : i + 2]) for i in range(len(tokens))]
    return sum(
        w in NEGATIONS
        and pair not in NEGATION_EXCEPTIONS
        and (
            w not in OBJECT_NEGATIONS
            or objects is None
            or any(stem(o) in objects for o in tokens[i + 1 : i + 1 + OBJECT_WORDS])
        )
        for i, (w, pair) in enumerate(zip(tokens, pairs, strict=True))
    )


def restricts(deciding: list[list[str]], asked: set[str]) -> bool:
    """Whether a deciding clause limits its statement ("only", "except") unlike the question."""
    return any(
        w in RESTRICTION_WORDS and w not in asked and f"{before} {w}" not in NEGATION_EXCEPTIONS
        for tokens in deciding
        for before, w in zip(["", *tokens], tokens, strict=False)
    )
