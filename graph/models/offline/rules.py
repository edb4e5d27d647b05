"""The offline policy's rule table: one tool call per turn, the first rule that applies decides.

`RULES` is the table, in order. Each rule is a small function of the `Turn` (the question, what
the turn has observed, the tools, the budget left) returning an `Action` or None, and its
Thought names the rule and the numbers that decided (``follow_up: coverage 0.62 < COVERED
0.80; lead 'Beacon': its sentence holds 0.62 >= LEAD_SENTENCE_SHARE 0.80 x 0.62: search
'Beacon retention'``). The last rule always answers, or declines (a ``finish`` call with no
answer) when the passages it would cite do not cover the question (`declines`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from graph.models.actions import Action, Observation
from graph.models.confidence import SUPPORT_BAR
from graph.models.offline.answering import Answer, combined, compose_answer, joined
from graph.models.offline.arithmetic import format_value
from graph.models.offline.declines import declines, unknown_names
from graph.models.offline.figures import figure
from graph.models.offline.reading import mid_capitals, words
from graph.models.offline.scoring import Scorer
from graph.models.offline.short_answers import question_kind, short_answer
from graph.models.offline.tuning.search import (
    COVERED,
    DEEPER_READ_COVERAGE,
    FORMS_MIN_WORDS,
    LEAD_SENTENCE_SHARE,
    MAX_UNMATCHED_TERMS,
    ONE_SEARCH_LEFT,
)
from graph.models.offline.turn import (
    Lead,
    Turn,
    brought_something_new,
    content_words,
    find_bridge,
    finite_forms,
    new_name,
    past_title,
    written_capitalised,
)
from graph.models.structured.controller import StructuredController
from graph.models.structured.schemas import structured_tools
from graph.models.support import covered, question_terms, support_weights, weights
from tools.calculator import CALCULATOR_TOOL
from tools.expand import stem
from tools.finish import FINISH_TOOL

Rule = Callable[[Turn], Action | None]


def finish(
    thought: str, answer: str | None, citations: list[str], short: str | None = None
) -> Action:
    """A call to `finish`; no answer is a decline (`tools.finish`)."""
    args: dict[str, Any] = {"answer": answer, "citations": citations}
    if short:
        args["short_answer"] = short
    return Action(thought, FINISH_TOOL, args)


def decline(thought: str) -> Action:
    """A call to `finish` with no answer."""
    return finish(thought, None, [])


def search(turn: Turn, thought: str, query: str) -> Action:
    """A call to the search tool with the best evidence for `query`."""
    tool = turn.route(query)
    return Action(f"{thought} in {tool.collection}", tool.name, {"query": query})


def compute(turn: Turn) -> Action | None:
    """Arithmetic goes to the calculator, once."""
    if turn.arithmetic is None or any(o.tool == CALCULATOR_TOOL for o in turn.observations):
        return None
    thought = "compute: the question is arithmetic, not a lookup; use the calculator"
    return Action(thought, CALCULATOR_TOOL, {"expression": turn.arithmetic.expression})


def answer_computed(turn: Turn) -> Action | None:
    """The calculator's value, formatted as the answer."""
    done = [o for o in turn.observations if o.tool == CALCULATOR_TOOL]
    if turn.arithmetic is None or not done:
        return None
    value = format_value(done[-1].content, turn.arithmetic.currency) if done[-1].ok else None
    if value is None:  # the calculator's error is the answer: it is what the tool said
        said = f"I could not compute this: {done[-1].content}"
        return finish(f"answer_computed: the calculator failed: {done[-1].content!r}", said, [])
    text = turn.arithmetic.template.format(value=value)
    return finish(f"answer_computed: the calculator gave {value}", text, [])


def fill_schemas(turn: Turn) -> Action | None:
    """Tools with structured arguments and no search tool: the structured controller decides."""
    if turn.sources or not structured_tools(turn.tools):
        return None
    return StructuredController(turn.tools).decide(turn.question, turn.observations)


def no_search_tool(turn: Turn) -> Action | None:
    """Nothing to search with: decline."""
    if turn.sources:
        return None
    return decline("no_search_tool: no tool can look this up; decline")


def last_call(turn: Turn) -> Action | None:
    """With one call left, answer from what was found."""
    if turn.left is None or turn.left > 1:
        return None
    return answer(turn, f"last_call: {turn.left} call left")


def first_search(turn: Turn) -> Action | None:
    """Search the question's words, or a two-hop question's inner clause first."""
    if turn.searches:
        return None
    if turn.hop is not None and (turn.left is None or turn.left > ONE_SEARCH_LEFT):
        inner = turn.hop.inner_query
        return search(turn, f"first_search: two hops; first find {inner!r}", inner)
    room = turn.left is None or turn.left > ONE_SEARCH_LEFT
    if turn.parts is not None and room and (first := " ".join(content_words(turn.parts[0]))):
        return search(turn, f"first_search: two asks; first {first!r}", first)
    query = " ".join(content_words(turn.question)) or turn.question
    thought = f"first_search: {len(query.split())} question words"
    forms = held_forms(turn, query) if len(query.split()) >= FORMS_MIN_WORDS else []
    if forms:
        thought += f" and {', '.join(map(repr, forms))} (the verb as a statement writes it)"
        query = " ".join([query, *forms])
    return search(turn, thought, query)


def held_forms(turn: Turn, query: str) -> list[str]:
    """The finite forms of the question's closing verb (`finite_forms`) the search tool holds.

    Only a tool with a BM25 index can tell (`doc_freq`); a foreign or remote search, which
    weighs every word alike, is asked the question's words alone.
    """
    index = getattr(turn.route(query), "index", None)
    if index is None:
        return []
    asked = set(query.lower().split())
    return [f for f in finite_forms(turn.question) if f not in asked and index.doc_freq(f) > 0]


def second_hop(turn: Turn) -> Action | None:
    """After a two-hop question's first search, search its bridge with the rest of the question."""
    if turn.hop is None or len(turn.searches) != 1 or not turn.hits:
        return None
    bridge = find_bridge(turn)
    if bridge is None:
        return None
    outer = turn.hop.outer.replace("{bridge}", " ")
    known = set(words(bridge.name))
    query = " ".join([bridge.name, *(w for w in content_words(outer) if w.lower() not in known)])
    clause = f"clause coverage {bridge.coverage:.2f}"
    return search(turn, f"second_hop: bridge {bridge.name!r} ({clause}); search {query!r}", query)


def second_part(turn: Turn) -> Action | None:
    """After a two-ask question's first search, search its second ask.

    The query is the second ask's words and the names the first ask writes capitalised, which
    its "it" stands for ("..., and how do I make it run my lifespan handler?").
    """
    if turn.parts is None or len(turn.searches) != 1:
        return None
    first, second = turn.parts
    own = content_words(second)
    held = {w.lower() for w in own}
    named = written_capitalised(first)
    names = [w for w in content_words(first) if w.lower() not in held and stem(w.lower()) in named]
    query = " ".join([*names, *own])
    if not own or " ".join(query.casefold().split()) in turn.tried():
        return None
    return search(turn, f"second_part: the second ask; search {query!r}", query)


def follow_up(turn: Turn) -> Action | None:
    """The retrieved text covers too little of the question: search what is missing.

    The query leads with `follow_lead`'s name; with no lead worth following, the missing words
    are paraphrase ("unless told otherwise") and the rule passes (read_deeper reads on).
    """
    if not turn.searches or not brought_something_new(turn.searches):
        return None
    value = turn.coverage()
    if value >= COVERED:
        return None
    have = {stem(w) for h in turn.hits for w in words(str(h.get("text", "")))}
    table = weights(turn.question, turn.weight)  # words no corpus holds cannot be searched
    missing = sorted((t for t in table if stem(t) not in have), key=lambda t: -table[t])
    missing = missing[:MAX_UNMATCHED_TERMS]
    found = follow_lead(turn, missing, value) if missing else None
    if found is None:
        return None
    lead, why = found
    query = " ".join(([lead.name] if lead else []) + missing)
    if " ".join(query.casefold().split()) in turn.tried():
        return None
    thought = f"follow_up: coverage {figure(value, COVERED)} < COVERED {COVERED:.2f}; {why}"
    return search(turn, f"{thought}: search {query!r}", query)


def follow_lead(turn: Turn, missing: list[str], value: float) -> tuple[Lead | None, str] | None:
    """What a follow-up leads with, and why; None when nothing is worth following.

    A new name of a sentence holding `LEAD_SENTENCE_SHARE` of what the retrieved text covers
    (`value`): the entity the found part of the question is about, whose other hop the missing
    words are. Else, when a missing word is one the question writes capitalised (a name no
    passage holds), the best new name, if any. With neither (an incidental name, such as a table
    row's "Replaces", beside missing paraphrase words), None.
    """
    lead = new_name(turn)
    if lead is not None and lead.coverage >= LEAD_SENTENCE_SHARE * value:
        why = (
            f"lead {lead.name!r}: its sentence holds {lead.coverage:.2f} >= "
            f"LEAD_SENTENCE_SHARE {LEAD_SENTENCE_SHARE:.2f} x {value:.2f}"
        )
        return lead, why
    named = [t for t in missing if stem(t) in written_capitalised(turn.question)]
    if not named:
        return None
    return lead, f"the question names {named[0]!r}, which no passage holds"


def read_deeper(turn: Turn) -> Action | None:
    """The next page of the first query's ranking, while the question is not yet covered."""
    if not turn.searches:
        return None
    first = turn.searches[0]
    query = first.args.get("query")
    same = [s for s in turn.searches if s.tool == first.tool and s.args.get("query") == query]
    value = turn.coverage()
    if not same[-1].hits or value >= DEEPER_READ_COVERAGE:
        return None
    page = max(int(s.args.get("page", 1)) for s in same) + 1
    thought = (
        f"read_deeper: coverage {figure(value, DEEPER_READ_COVERAGE)} < "
        f"{DEEPER_READ_COVERAGE:.2f}; page {page} of {query!r}"
    )
    return Action(thought, first.tool, {"query": query, "page": page})


def answer(turn: Turn, why: str = "answer") -> Action:
    """Finish with the best-covering sentence(s), or decline (`declines`).

    A two-hop question's answer covers its outer part with the bridge filled in, and cites the
    bridge's passage too (its sentence first when the answer does not name the bridge).
    """
    if not turn.searches:
        return decline(f"{why}: nothing was searched; decline")
    texts = [str(h.get("text", "")) for h in turn.hits]
    kind = turn.kind
    bridge = find_bridge(turn) if turn.hop else None
    target = turn.question
    if turn.hop and bridge:
        target = turn.hop.outer.replace("{bridge}", bridge.name)
    known = " ".join([turn.question, bridge.name if bridge else ""])
    capitalised = mid_capitals([*texts, turn.question])
    scorer = Scorer(target, kind, turn.weight, known, capitalised, turn.question)
    chosen = (both_asks(turn, capitalised) if turn.parts else None) or compose_answer(
        scorer, turn.hits
    )
    if chosen is None:
        return decline(f"{why}: no retrieved sentence holds a question word; decline")
    shown, citations = list(chosen.shown), list(chosen.citations)
    if bridge is not None and bridge.doc_id not in citations and not chosen.whole:
        citations.insert(0, bridge.doc_id)
        if words(bridge.name)[0] not in words(" ".join(chosen.sentences)):
            shown.insert(0, bridge.sentence)
    by_id = {str(h["id"]): str(h.get("text", "")) for h in turn.hits}
    cited = [by_id[d] for d in citations if d in by_id]
    table = support_weights(turn.question, turn.weight)
    value = covered(table, cited)
    text = joined(shown)
    stated = joined(chosen.shown[chosen.context :])  # what "this" points back at states nothing
    refusal = declines(turn.question, table, cited, value, unknown_names(turn), stated)
    score = f"{chosen.score:.2f} from {', '.join(citations)}"
    if refusal:
        return decline(f"{why}: {refusal}; best sentence score {score}; decline")
    short = short_for(turn, chosen, known)
    said = f"; short answer {short!r} ({kind})" if short else f"; no short answer (kind {kind})"
    support = (
        f"support {figure(value, SUPPORT_BAR)} {'>=' if value >= SUPPORT_BAR else '<'} SUPPORT_BAR"
    )
    thought = f"{why}: {support} {SUPPORT_BAR:.2f}; sentence score {score}{said}"
    return finish(thought, text, citations, short)


def short_for(turn: Turn, chosen: Answer, known: str) -> str | None:
    """The short answer in `chosen`'s sentences (`short_answers.short_answer`), if any.

    None for a two-ask question: one short answer would answer half of it. A sentence's first
    word is a name only when the passages write it capitalised mid-sentence past their titles:
    a heading ("guide.md > Permissions") is a label, no evidence of a name. A question word
    no searched corpus holds (weight 0) keeps a yes/no question from a "yes".
    """
    if turn.parts is not None:
        return None
    written = mid_capitals([*map(past_title, turn.hits), turn.question])
    weight = turn.weight  # one ToolWeight for every word
    unseen = {t for t in question_terms(turn.question) if weight(t) <= 0}
    return short_answer(turn.question, turn.kind, chosen.sentences, known, written, unseen)


def both_asks(turn: Turn, capitalised: set[str]) -> Answer | None:
    """A two-ask question's answer: each ask's best sentence(s), the first ask's first."""
    assert turn.parts is not None
    found = []
    for part in turn.parts:
        scorer = Scorer(part, question_kind(part), turn.weight, turn.question, capitalised, part)
        if (one := compose_answer(scorer, turn.hits)) is not None:
            found.append(one)
    return combined(found) if found else None


RULES: tuple[Rule, ...] = (
    compute,
    answer_computed,
    fill_schemas,
    no_search_tool,
    last_call,
    first_search,
    second_hop,
    second_part,
    follow_up,
    read_deeper,
    answer,
)
"""The rule table, in order: the first rule returning an action decides the step."""


def decide(
    tools: Sequence[Any], max_steps: int | None, question: str, observations: list[Observation]
) -> Action:
    """The next step for `question`: the action of the first rule that applies."""
    left = None if max_steps is None else max_steps - len(observations)
    turn = Turn(question, observations, list(tools), left)
    for rule in RULES:
        action = rule(turn)
        if action is not None:
            return action
    raise AssertionError("the last rule always answers")  # pragma: no cover
