"""Transcripts rendered in the seed's trace format (Step N / Thought / Action / Observation).

The live run and `agent replay` both print through `render_step` and `render_result`, so a
replayed thread reads exactly as it did when it ran.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from graph.agent.grounding import doubt
from graph.agent.messages import message_text
from graph.agent.transcript import hits_of, is_search_call
from graph.app.terminal import safe_text
from graph.common.chat import ANSWER_DOUBT, is_answer_message
from tools.finish import FINISH_TOOL

INDENT = "    "


def render_goal(question: str) -> list[str]:
    """The header line of a turn."""
    return [f"GOAL: {question}", ""]


def render_action(call: dict[str, Any]) -> str:
    """`tool("arg")` for one-argument tools, `tool(a="x", b=[...])` otherwise."""
    args = call.get("args") or {}
    if call["name"] == FINISH_TOOL:
        answer = _quote(args.get("answer", ""))
        cited = args.get("citations") or []
        return f"finish({answer}, citations={_quote(cited)})" if cited else f"finish({answer})"
    if len(args) == 1:
        return f"{call['name']}({_quote(next(iter(args.values())))})"
    return f"{call['name']}({', '.join(f'{k}={_quote(v)}' for k, v in args.items())})"


def render_observation(message: ToolMessage) -> list[str]:
    """The Observation lines: one per search hit (with its score), or the tool's text."""
    hits = hits_of(message)
    if hits:
        lines = [
            f"[{h['id']}] {_one_line(str(h.get('text', '')))} (score={h.get('score', 0):.2f})"
            for h in hits
        ]
    else:
        lines = str(message.content).splitlines() or [""]
    pad = INDENT + " " * len("Observation: ")
    return [f"{INDENT}Observation: {lines[0]}", *(pad + line for line in lines[1:])]


def render_step(number: int, message: AIMessage, results: Sequence[ToolMessage]) -> list[str]:
    """One step: the Thought, each Action and, when the tool ran, its Observation."""
    lines = [f"  Step {number}", f"{INDENT}Thought: {_one_line(message_text(message))}"]
    by_id = {result.tool_call_id: result for result in results}
    for call in message.tool_calls:
        lines.append(f"{INDENT}Action: {render_action(dict(call))}")
        result = by_id.get(str(call["id"]))
        if result is not None and call["name"] != FINISH_TOOL:
            lines.extend(render_observation(result))
    for invalid in message.invalid_tool_calls:  # not run: the model was told why
        lines.append(f"{INDENT}Action: {invalid.get('name') or '?'}(...) (not run)")
        result = by_id.get(str(invalid.get("id")))
        if result is not None:
            lines.extend(render_observation(result))
    return lines


def count_retrievals(messages: Sequence[AnyMessage]) -> int:
    """Searches that ran (repeats and failures do not count).

    A search is a ``search...`` call with a query, or any tool returning a list of hits (an MCP
    server's search tool).
    """
    calls = {
        str(call["id"]): dict(call)
        for message in messages
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    }
    return sum(
        1
        for message in messages
        if isinstance(message, ToolMessage)
        and message.status != "error"
        and (
            is_search_call(calls.get(message.tool_call_id, {}))
            or isinstance(message.artifact, list)
        )
    )


def render_result(result: dict[str, Any], turn: Sequence[AnyMessage]) -> list[str]:
    """The closing lines: the answer (or why there is none) and the step count."""
    steps = result.get("steps", 0)
    footer = f"  ({steps} step{'s' * (steps != 1)}, {_plural(count_retrievals(turn), 'retrieval')})"
    stopped = result.get("stopped")
    if stopped == "budget":
        head = [
            f"  STOPPED: the step budget ran out after {_plural(steps, 'model call')}; no answer."
        ]
    elif stopped == "error":
        head = [f"  ERROR: {result.get('error')}"]
    elif stopped == "no_answer":
        head = ["  NO ANSWER: the passages found do not cover the question"]
        if result.get("citations"):  # nothing cited covers nothing: no "support 0.00" to show
            head[0] += f" (support {float(result.get('support') or 0.0):.2f})"
    else:
        head = [f"  ANSWER: {result.get('answer')}"]
        if result.get("short_answer"):
            head.append(f"  SHORT ANSWER: {result['short_answer']}")
        if result.get("citations"):
            head.append(f"  CITATIONS: {', '.join(result['citations'])}")
        if result.get("unsupported"):
            head.append(f"  UNSUPPORTED: {', '.join(result['unsupported'])} (never retrieved)")
        head.extend(render_support(result))
        head.extend(render_grounding(result))
    return ["", *head, footer]


def render_support(result: dict[str, Any]) -> list[str]:
    """The SUPPORT line: the share of the question the citations cover, and if it is trusted."""
    if "support" not in result:
        return []  # a result stored before support existed
    verdict = "confident" if result.get("confident") else "NOT CONFIDENT"
    if result.get("confident") and not result.get("citations"):
        return ["  SUPPORT: nothing cited; the answer is computed (confident)"]
    reasons = [safe_text(r, one_line=True) for r in result.get("doubts") or []]
    if reasons and not result.get("confident"):
        verdict += f": {'; '.join(reasons)}"
    elif doubt(result) == "answer":
        verdict += f": {ANSWER_DOUBT}"
    return [
        f"  SUPPORT: {float(result.get('support') or 0.0):.2f} of the question's weight is in"
        f" the cited passages ({verdict})"
    ]


def render_grounding(result: dict[str, Any]) -> list[str]:
    """The GROUNDED line: how much of the answer its cited passages say, or why it is not."""
    if result.get("ungrounded"):
        return ["  UNGROUNDED: the answer cites no passage, though the corpora hold some on this"]
    grounded = result.get("grounded")
    if grounded is None or not result.get("citations"):
        return []
    return [f"  GROUNDED: {grounded:.2f} of the answer's content words are in the cited passages"]


def iter_turns(messages: Sequence[AnyMessage]) -> Iterator[list[AnyMessage]]:
    """The transcript split into turns, each starting at its question."""
    turn: list[AnyMessage] = []
    for message in messages:
        if isinstance(message, HumanMessage) and turn:
            yield turn
            turn = []
        turn.append(message)
    if turn:
        yield turn


def render_turn(turn: Sequence[AnyMessage], result: dict[str, Any] | None) -> list[str]:
    """A whole stored turn: goal, steps and, when given, the result lines."""
    question = next((message_text(m) for m in turn if isinstance(m, HumanMessage)), "")
    lines = render_goal(question)
    results = [m for m in turn if isinstance(m, ToolMessage)]
    for number, message in enumerate(model_steps(turn), start=1):
        lines.extend(render_step(number, message, results))
    if result is not None:
        lines.extend(render_result(result, turn))
    return lines


def model_steps(turn: Sequence[AnyMessage]) -> list[AIMessage]:
    """The model's AI messages of a turn (its steps), without the answer message closing it."""
    return [m for m in turn if isinstance(m, AIMessage) and not is_answer_message(m)]


def _quote(value: Any) -> str:
    """A value as JSON (strings in double quotes), non-ASCII kept readable."""
    if isinstance(value, list):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _one_line(text: str) -> str:
    """Whitespace collapsed to single spaces."""
    return " ".join(text.split())


def _plural(count: int, word: str) -> str:
    """`1 retrieval`, `2 retrievals`."""
    return f"{count} {word}{'s' * (count != 1)}"
