"""How far a run's answer rests on its passages: `grounded`, `ungrounded`, `support`, `confident`.

- `groundedness` is the share of the answer's content words found in the passages it cites: 0
  for an answer citing nothing, 1 when every content word is there. It says the answer is
  quoted from its citations, not that it answers: any extract of a cited passage scores 1.0.
- ``support`` is the share of the question's idf weight the cited passages cover, read with the
  search tool's analyzer (`graph.models.support`); ``confident`` is support at or above the
  bar with the answer singled out and on the question: no retrieved sentence it does not use
  covering clearly more of the question than the answer's own texts, fewer than `RIVAL_TIES`
  covering as much, and enough of the question's words held (`graph.models.confidence`), or an
  answer computed by the calculator that searched nothing. ``doubts`` says which of those checks
  an answer failed, with its figures; `doubt` names whether the support or the answer itself is
  what it missed.
- `corpora_hold` tells whether a question had passages to cite at all (the search tools'
  own evidence, words expanded as a search expands them), so an uncited answer to such a
  question is marked ``ungrounded``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage

from graph.agent.transcript import hits_of, is_search_call
from graph.models.confidence import SUPPORT_BAR, confidence, doubts
from graph.models.support import question_terms, stems_of, support
from graph.models.tool_weight import tool_weight
from tools.calculator import CALCULATOR_TOOL
from tools.expand import stem

ANSWERABLE_COVERAGE = 0.5
"""Support the best passage of some corpus must give a question for the corpora to be able to
answer it (so an uncited answer to it is flagged)."""


VERDICTS = frozenset({"yes", "no"})
"""A yes/no answer's verdict is a judgement on the cited passages, not a word they must hold."""


def groundedness(answer: str | None, cited_texts: Iterable[str]) -> float:
    """Share of `answer`'s content words found in `cited_texts`; 0.0 when nothing is cited.

    An answer with no content words besides a verdict ("yes", "no") that cites something is
    fully grounded; a None or blank answer is 0.0.
    """
    texts = list(cited_texts)
    if not answer or not answer.strip() or not texts:
        return 0.0
    wanted = [stem(word) for word in question_terms(answer) if word not in VERDICTS]
    if not wanted:
        return 1.0
    have = stems_of(texts)
    return sum(term in have for term in wanted) / len(wanted)


def retrieved_texts(turn: Sequence[AnyMessage]) -> dict[str, str]:
    """The text of each passage the turn's tool results carried, by id, in first-seen order."""
    texts: dict[str, str] = {}
    for message in turn:
        if isinstance(message, ToolMessage):
            for hit in hits_of(message):
                texts.setdefault(str(hit["id"]), str(hit.get("text", "")))
    return texts


def corpora_hold(question: str, tools: Sequence[Any]) -> bool:
    """Whether some search tool's best passage for `question` gives it `ANSWERABLE_COVERAGE`.

    The passage is the tool's own `evidence` (the query expanded as its search expands it);
    a tool that cannot look ahead (a remote or foreign search, judged by its description)
    is not asked.
    """
    weight = tool_weight(tools)
    for tool in tools:
        evidence = getattr(tool, "evidence", None)
        if not callable(evidence) or not question_terms(question):
            continue
        found = evidence(question)
        if found.found and found.score > 0:
            if support(question, [found.text], weight) >= ANSWERABLE_COVERAGE:
                return True
    return False


def computed(turn: Sequence[AnyMessage]) -> bool:
    """Whether the turn ran the calculator successfully and searched nothing."""
    calls = {
        str(call["id"]): dict(call)
        for message in turn
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    }
    ran = [
        calls.get(m.tool_call_id, {})
        for m in turn
        if isinstance(m, ToolMessage) and m.status != "error"
    ]
    return any(c.get("name") == CALCULATOR_TOOL for c in ran) and not any(
        is_search_call(c) for c in calls.values()
    )


def grounding(
    result: dict[str, Any], turn: Sequence[AnyMessage], question: str, tools: Sequence[Any]
) -> dict[str, Any]:
    """The run result's ``grounded``, ``ungrounded``, ``support``, ``confident`` and ``doubts``.

    ``doubts`` says why an answer is not confident, each failed check with its figures
    (`graph.models.confidence.doubts`); [] for a confident answer or none.
    """
    answer, citations = result.get("answer"), list(result.get("citations") or [])
    found = retrieved_texts(turn)
    texts = [found[doc_id] for doc_id in citations if doc_id in found]
    read = list(found.values())
    judged = confidence(question, answer or "", texts, read, tool_weight(tools))
    uncited = bool(answer) and not citations
    calculated = uncited and computed(turn)  # rests on the calculator, not on a passage
    confident = bool(answer) and (judged.confident or calculated)
    return {
        "grounded": groundedness(answer, texts),
        "ungrounded": uncited and not calculated and corpora_hold(question, tools),
        "support": round(judged.support, 4) if answer else 0.0,
        "confident": confident,
        "doubts": doubts(judged) if answer and not confident else [],
    }


def doubt(result: dict[str, Any]) -> str | None:
    """Why an answer is not confident: ``"support"`` or ``"answer"``; None when it is.

    ``"support"``: its citations cover less than `SUPPORT_BAR` of the question; ``"answer"``:
    the answer itself is in doubt (`graph.models.confidence.is_confident`: a retrieved sentence
    it does not use covers more of the question, `RIVAL_TIES` or more cover as much, or it holds
    few of the question's words). None too when there is no answer.
    """
    if not result.get("answer") or result.get("confident", True):
        return None
    return "support" if float(result.get("support") or 0.0) < SUPPORT_BAR else "answer"
