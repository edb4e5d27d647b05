"""When to search again, and with what words: the follow-up hop of the offline policy.

After the planned searches, the policy looks at what the retrieved text still lacks. A name the
question mentions that no retrieved passage is about is searched for by itself (comparison
questions: "X or Y"); otherwise, if the question's specific words are not yet covered, the next
query joins the words still unmatched to the best new name the last search found (the bridge).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graph.models.offline.actions import Hit
from graph.models.offline.bridges import find_bridge
from graph.models.offline.reading import content_terms, names, stems
from graph.models.offline.tuning import COVERED, MAX_UNMATCHED_TERMS, QUESTION_WORDS, STOPWORDS
from tools.expand import stem


def question_names(question: str) -> list[str]:
    """Names the question mentions, without a leading question or function word."""
    found = []
    for name in names(question):
        parts = name.text.split()
        while parts and (parts[0].lower() in STOPWORDS or parts[0].lower() in QUESTION_WORDS):
            parts = parts[1:]
        if parts:
            found.append(" ".join(parts))
    return found


def is_about(name: str, hits: Sequence[Hit]) -> bool:
    """Whether some retrieved passage is about `name`: titled after it, or (untitled) naming it."""
    wanted = name.lower()
    for hit in hits:
        title = str(hit.get("title") or "").lower()
        if title:
            if wanted in title or title.split(" (")[0] in wanted:
                return True
        elif wanted in str(hit.get("text", "")).lower():
            return True
    return False


def coverage(question: str, hits: Sequence[Hit], idf: Callable[[str], float]) -> float:
    """The idf-weighted share of the question's words that the retrieved text contains."""
    have = set().union(*(stems(str(hit.get("text", ""))) for hit in hits)) if hits else set()
    weights = {term: idf(term) for term in content_terms(question)}
    total = sum(weights.values())
    if total <= 0:
        return 1.0
    return sum(w for term, w in weights.items() if stem(term) in have) / total


def follow_up(
    question: str,
    searches: Sequence[Sequence[Hit]],
    idf: Callable[[str], float],
    tried: set[str],
) -> tuple[str, str] | None:
    """(query, thought) for one more search, or None when what was found covers the question.

    `tried` holds the normalized queries already run, which are never proposed again.
    """
    hits = [hit for found in searches for hit in found]
    for name in question_names(question):
        if not is_about(name, hits) and _fresh(name, tried):
            return name, f"Nothing retrieved is about {name} yet; search for it."
    if coverage(question, hits, idf) >= COVERED:
        return None
    have = set().union(*(stems(str(hit.get("text", ""))) for hit in hits)) if hits else set()
    unmatched = sorted(
        (term for term in content_terms(question) if stem(term) not in have and idf(term) > 0),
        key=lambda term: -idf(term),
    )[:MAX_UNMATCHED_TERMS]
    last = next((found for found in reversed(searches) if found), [])
    titles = {str(hit.get("title", "")).lower() for hit in hits}
    bridge = find_bridge(last, question, "", question, titles) if last else None
    words = ([bridge.name] if bridge else []) + unmatched
    query = " ".join(words)
    if not unmatched or not _fresh(query, tried):
        return None
    lead = f"{bridge.name} may be the link" if bridge else "Part of the question is unanswered"
    return query, f"{lead}; search for what is still missing: {', '.join(unmatched)}."


def _fresh(query: str, tried: set[str]) -> bool:
    """Whether a query has not been run yet (same words, ignoring case and spacing)."""
    return " ".join(query.casefold().split()) not in tried
