"""The agent in a chat panel: a question sent as messages, the answer as the last AI message.

Studio's chat view and Agent Chat UI send `{"messages": [...]}`: the last human message is the
question and the earlier turns are the conversation so far. Whichever way a question came, a
finished turn ends on an AI message holding the answer in plain text with its citations
(`... [pol-1]`), or saying why there is none, so a chat panel always shows the outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolCall,
    ToolMessage,
)
from langgraph.graph.message import REMOVE_ALL_MESSAGES

FINAL_ANSWER = "final_answer"
"""The `response_metadata` flag of the AI message that closes a turn (not a model step)."""
NO_QUESTION = (
    'no question: send {"question": "..."} or {"messages": [{"role": "user", "content": "..."}]}'
)
NO_ANSWER = "No answer: {why}."
BUDGET_SPENT = "the step budget ran out after {steps} model calls"
DECLINED = "what {searched} found does not cover the question"
NOTHING_SEARCHED = "nothing was searched"
NOT_CONFIDENT = "(not confident: the cited passages cover {support:.0%} of the question)"
ANSWER_DOUBT = (
    "other retrieved sentences cover as much of the question, or the answer holds little of it"
    " (or no quantity, no one, no name, no default or no version of the thing named where one"
    " is asked)"
)
"""Why an answer is in doubt itself, not its support: the chat message's and the trace's words."""
NOT_CONFIDENT_ANSWER = f"(not confident: {ANSWER_DOUBT})"
Closer = Callable[[ToolCall, str], ToolMessage]
"""Builds the error tool message for a call that will never run, given the reason."""


def sent_question(messages: Sequence[AnyMessage]) -> HumanMessage | None:
    """The human message a chat client just sent: the transcript ends on it, unanswered.

    A turn the agent ran always ends on an AI or tool message, so a trailing human message can
    only be new input.
    """
    if messages and isinstance(messages[-1], HumanMessage):
        return messages[-1]
    return None


def open_turn(
    messages: Sequence[AnyMessage],
    question: HumanMessage,
    close: Closer,
) -> tuple[list[AnyMessage], list[BaseMessage]]:
    """The transcript a new turn starts from, and the `messages` update that makes it so.

    `question` is the turn's human message: a new one to append, or (from a chat panel) a copy
    of the last stored one with the same id, which replaces it in place. Every earlier tool
    call is answered before the question. No system prompt is stored: the `reason` node adds
    it to each model call. The update only appends (or replaces the sent question by id); a
    stored history with calls left open before its last question is rewritten.
    """
    stored = list(messages)
    sent = bool(stored) and stored[-1].id is not None and stored[-1].id == question.id
    earlier = stored[:-1] if sent else stored
    wanted = answer_open_calls([*earlier, question], close)
    if not all(a is b for a, b in zip(wanted, earlier, strict=False)):  # calls left open earlier
        return wanted, [RemoveMessage(id=REMOVE_ALL_MESSAGES), *wanted]
    added: list[BaseMessage] = [*wanted[len(earlier) :]]
    if sent and len(added) > 1:  # replies go before the sent question: move it after them
        moved = question.model_copy(update={"id": None})
        return [*wanted[:-1], moved], [RemoveMessage(id=str(question.id)), *added[:-1], moved]
    return wanted, added


def answer_open_calls(messages: Sequence[AnyMessage], close: Closer) -> list[AnyMessage]:
    """`messages` with a "not run" reply before each question for every call left unanswered."""
    out: list[AnyMessage] = []
    open_calls: dict[str, ToolCall] = {}
    for message in messages:
        if isinstance(message, HumanMessage) and open_calls:
            out.extend(close(call, "a new question was asked") for call in open_calls.values())
            open_calls = {}
        if isinstance(message, AIMessage):
            open_calls.update({str(call["id"]): call for call in message.tool_calls})
        elif isinstance(message, ToolMessage):
            open_calls.pop(message.tool_call_id, None)
        out.append(message)
    return out


def answer_message(result: Mapping[str, Any]) -> AIMessage:
    """The AI message that closes a turn: the answer with its citations, or why there is none.

    An answer that is not ``confident`` says why: the checks it failed (``result["doubts"]``),
    else (a result stored before those were kept) its support, or (``result["doubt"]`` is
    ``"answer"``) that other retrieved sentences cover as much of the question or the answer
    holds little of it (`graph.models.confidence.is_confident`); a decline
    (``no_answer``) names the searches (``result["searched"]``) whose passages did not cover it.
    """
    answer = result.get("answer")
    if result.get("stopped") == "answer" and answer:
        missing = [c for c in result.get("citations") or [] if f"[{c}]" not in answer]
        reasons = [str(r) for r in result.get("doubts") or []]
        doubt = (
            []
            if result.get("confident", True)
            else [f"(not confident: {'; '.join(reasons)})"]
            if reasons
            else [NOT_CONFIDENT_ANSWER]
            if result.get("doubt") == "answer"
            else [NOT_CONFIDENT.format(support=float(result.get("support") or 0.0))]
        )
        text = " ".join([answer, *(f"[{c}]" for c in missing), *doubt])
    elif result.get("stopped") == "no_answer":
        searched = list(result.get("searched") or [])
        why = DECLINED.format(searched=", ".join(searched)) if searched else NOTHING_SEARCHED
        text = NO_ANSWER.format(why=why)
    elif result.get("stopped") == "budget":
        text = NO_ANSWER.format(why=BUDGET_SPENT.format(steps=result.get("steps", 0)))
    else:
        text = NO_ANSWER.format(why=str(result.get("error") or "the run stopped").rstrip("."))
    return closing_message(text)


def closing_message(text: str) -> AIMessage:
    """An AI message that closes a turn with `text` (flagged, so traces don't count it a step)."""
    return AIMessage(text, response_metadata={FINAL_ANSWER: True})


def is_answer_message(message: BaseMessage) -> bool:
    """Whether `message` is the closing answer of a turn (not a model step)."""
    return isinstance(message, AIMessage) and bool(message.response_metadata.get(FINAL_ANSWER))
