"""The `reason` and `finish` nodes (the `act` node is a ToolNode: see `graph.agent.act`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    ToolCall,
    ToolMessage,
)
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from graph.agent.budget import LIMIT_RULE, has_room_to_finish, least_useful_limit
from graph.agent.context import Context
from graph.agent.grounding import grounding
from graph.agent.prompts import describe_tools, fence_hits
from graph.agent.replies import max_message_chars, vet_reply
from graph.agent.state import AgentState
from graph.agent.transcript import FINISH_TOOL, all_ids, current_turn, hits_of, retrieved_by_tool
from graph.common.chat import NO_QUESTION, answer_message, open_turn, sent_question
from graph.models import load_model
from graph.models.allowlist import check_allowed
from graph.models.calls import failure_text, invoke_model
from tools.finish import normalize_citations

MAX_QUESTION_CHARS = 20_000
NOT_RUN = "Not run: {reason}."
INVALID_CALL = (
    "Error: the call to {name} could not be read ({error}); its arguments must be a JSON "
    "object matching the tool's schema, got: {args}"
)
NOT_RUN_BESIDE_INVALID = "another call in the same reply could not be read; call it again"
EMPTY_CONTENT = "(calling {names})"
FINISHED = "Finished."
TOO_LOW_LIMIT = (
    "the recursion limit leaves no room for a step and the finish; pass a recursion_limit "
    f"of at least {least_useful_limit()} ({LIMIT_RULE} for max_steps model calls)"
)
NEW_TURN: dict[str, Any] = {
    "answer": None,
    "citations": [],
    "unsupported": [],
    "stopped": None,
    "error": None,
    "retrieved": {},
    "tokens": 0,
    "steps": 0,
}
"""What a new turn resets."""
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
CITATION_RE = re.compile(r"\[([^\[\]\s]{1,200})\]")


class Agent:
    """The tools and (optionally) a fixed model; its methods are the graph's nodes.

    Without a fixed model, each run's context names one: any model when `any_model` (the CLI
    and the Python API), else only the allowed ones (a server's untrusted clients).
    """

    def __init__(
        self, tools: Sequence[BaseTool], model: BaseChatModel | None = None, any_model: bool = False
    ) -> None:
        self.tools = list(tools)
        self.model = model
        self.any_model = any_model
        self._bound: dict[int, tuple[BaseChatModel, Runnable[Any, BaseMessage]]] = {}

    def chat_model(self, context: Context) -> BaseChatModel:
        """The run's chat model: the fixed one, or the (allowed) one the context names."""
        if self.model is not None:
            return self.model
        return load_model(context.model if self.any_model else check_allowed(context.model))

    def bound_model(self, model: BaseChatModel) -> Runnable[Any, BaseMessage]:
        """The chat model bound to the tools (bound once per model)."""
        cached = self._bound.get(id(model))
        if cached is None or cached[0] is not model:
            cached = (model, model.bind_tools(self.tools))
            self._bound[id(model)] = cached
        return cached[1]

    def reason(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Call the model on the transcript: one Thought and one tool call per turn.

        A new turn's question is `question`, or the last human message a chat panel sent.
        """
        context = runtime.context if isinstance(runtime.context, Context) else Context()
        messages = state.get("messages", [])
        sent = sent_question(messages)
        new_turn = (
            sent is not None
            or not messages
            or state.get("stopped") is not None
            or asked_in(messages) != printable(str(state.get("question")))
        )
        opening: list[BaseMessage] = []
        transcript: list[AnyMessage] = list(messages)
        update: dict[str, Any] = {}
        if new_turn:
            update, problem = self.start_turn(state, sent)
            if problem is not None:
                return ended_early(update, problem)
            prompt = context.system_prompt.replace("{tools}", describe_tools(self.tools))
            transcript, opening = open_turn(messages, update.pop("asked"), prompt, not_run)
        steps = (0 if new_turn else state.get("steps", 0)) + 1
        model: BaseChatModel | None = None
        try:
            limit = max_message_chars()
            model = self.chat_model(context)
            response = invoke_model(model, self.bound_model(model), model_view(transcript))
            response = vet_reply(response, limit)
        except GraphBubbleUp:
            raise
        except Exception as error:  # a failing model ends the turn, with the reason kept
            error_text = failure_text(error, model) or one_line(error)
            return {**update, "messages": opening, "steps": steps, "error": error_text}
        tokens = (state.get("tokens", 0) if not new_turn else 0) + usage_tokens(response)
        return {
            **update,
            "messages": [*opening, response, *reject_invalid_calls(response)],
            "steps": steps,
            "tokens": tokens,
            "retrieved": {} if new_turn else retrieved_by_tool(messages),
        }

    def start_turn(
        self, state: AgentState, sent: HumanMessage | None
    ) -> tuple[dict[str, Any], str | None]:
        """What a new turn resets, with its question message under `asked`, or why it can't start.

        The question is the human message a chat panel `sent`, else the `question` input.
        """
        update: dict[str, Any] = dict(NEW_TURN)
        question = message_text(sent) if sent is not None else state.get("question")
        if sent is not None:
            update["question"] = printable(message_text(sent))
        if question is None:
            return update, NO_QUESTION
        problem = question_problem(question)
        remaining = state.get("remaining_steps")
        if problem is None and remaining is not None and not has_room_to_finish(remaining):
            problem = TOO_LOW_LIMIT
        if problem is None:
            sent_id = sent.id if sent is not None else None
            update["asked"] = HumanMessage(printable(question), id=sent_id)
        return update, problem

    def finish(self, state: AgentState) -> dict[str, Any]:
        """Build the run's result, close any tool call left open, and say the answer in chat.

        The turn ends on an AI message with the answer and its citations (a model that answered
        in plain text already wrote it), or on one saying why there is no answer.
        """
        turn = current_turn(state.get("messages", []))
        retrieved = retrieved_by_tool(turn)
        last = turn[-1] if turn else None
        result: dict[str, Any] = {
            "retrieved": retrieved,
            "answer": None,
            "citations": [],
            "unsupported": [],
        }
        closing: list[AnyMessage] = []
        if state.get("error"):
            result["stopped"] = "error"
            closing = [*close_calls(last, f"the run stopped on an error: {state['error']}")]
        elif isinstance(last, AIMessage) and finish_call(last) is not None:
            call = finish_call(last)
            assert call is not None
            answer, cited = read_finish_args(call.get("args"))
            result.update(answer=answer, stopped="answer")
            result.update(split_citations(cited, all_ids(retrieved)))
            closing = [ToolMessage(FINISHED, name=FINISH_TOOL, tool_call_id=call["id"])]
            closing += close_calls(last, "finish was called", skip=call["id"])
        elif isinstance(last, AIMessage) and not last.tool_calls:
            text = message_text(last).strip()
            result.update(answer=text or None, stopped="answer")
            result.update(split_citations(CITATION_RE.findall(text), all_ids(retrieved)))
        else:
            result["stopped"] = "budget"
            closing = [*close_calls(last, "the step budget is exhausted")]
        result.update(grounding(result, turn, str(state.get("question") or ""), self.tools))
        if result["stopped"] == "answer" and result["answer"] and not closing:
            return {**result, "messages": []}  # the model's own message is what a chat shows
        said = answer_message({**result, "error": state.get("error"), "steps": state.get("steps")})
        return {**result, "messages": [*closing, said]}


def ended_early(update: dict[str, Any], problem: str) -> dict[str, Any]:
    """A turn that ends before any model call: the error, and the answer message saying so.

    The run goes straight to END (see `route_after_reason`), so this is the whole result.
    """
    result = {**update, "error": problem, "stopped": "error"}
    return {**result, "messages": [answer_message(result)]}


def reject_invalid_calls(response: BaseMessage) -> list[ToolMessage]:
    """Error tool messages for tool calls the model garbled (arguments that are not JSON).

    They go back to the model like any tool error, so it can correct itself next step; the
    reply's other calls are answered as not run, so no call is left without a reply.
    """
    if not isinstance(response, AIMessage):
        return []
    errors = [
        ToolMessage(
            INVALID_CALL.format(
                name=call.get("name") or "?",
                error=call.get("error") or "",
                args=str(call.get("args") or "")[:200],
            ),
            name=call.get("name") or "invalid",
            tool_call_id=call.get("id") or f"invalid-{index}",
            status="error",
        )
        for index, call in enumerate(response.invalid_tool_calls)
    ]
    if not errors:
        return []
    return [*errors, *(not_run(call, NOT_RUN_BESIDE_INVALID) for call in response.tool_calls)]


def printable(text: str) -> str:
    """`text` with control characters (other than newline and tab) turned into spaces."""
    return CONTROL_RE.sub(" ", text)


def asked_in(messages: Sequence[AnyMessage]) -> str | None:
    """The question of the transcript's current turn (None before the first)."""
    turn = current_turn(messages)
    if turn and isinstance(turn[0], HumanMessage):
        return message_text(turn[0])
    return None


def question_problem(question: Any) -> str | None:
    """Why a question cannot be asked (one line), or None when it can."""
    if not isinstance(question, str):
        return f"the question must be text, got {type(question).__name__}"
    if not question.strip():
        return "the question is empty"
    if len(question) > MAX_QUESTION_CHARS:
        return f"the question is {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}"
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:
        return "the question is not valid UTF-8 text"
    if "\x00" in question:
        return "the question contains a NUL character"
    return None


def model_view(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """The transcript as a model sees it.

    Search results are fenced as <document> data, and an AI message that only calls tools
    gets a short text, since langchain-openai sends an empty one as `null`.
    """
    view: list[AnyMessage] = []
    for message in messages:
        if isinstance(message, AIMessage) and not message.content:
            calls = [*message.tool_calls, *message.invalid_tool_calls]
            if calls:  # strict servers reject the null content an empty string becomes
                names = ", ".join(str(call.get("name")) for call in calls)
                message = message.model_copy(update={"content": EMPTY_CONTENT.format(names=names)})
        if isinstance(message, ToolMessage) and isinstance(message.artifact, list):
            hits = hits_of(message)
            if hits or message.status != "error":
                message = message.model_copy(update={"content": fence_hits(hits)})
        view.append(message)
    return view


def finish_call(message: AIMessage) -> dict[str, Any] | None:
    """The message's call to `finish`, if it made one."""
    for call in message.tool_calls:
        if call["name"] == FINISH_TOOL:
            return dict(call)
    return None


def read_finish_args(args: Any) -> tuple[str | None, list[str]]:
    """The answer and the cited ids from `finish` arguments, tolerating loose shapes."""
    args = args if isinstance(args, dict) else {}
    answer = args.get("answer")
    answer = str(answer).strip() if answer is not None else ""
    cited = args.get("citations") or []
    if isinstance(cited, str):
        cited = [part for part in re.split(r"[,\s]+", cited) if part]
    if not isinstance(cited, list):
        cited = [cited]
    return (answer or None), normalize_citations(str(item) for item in cited)


def split_citations(cited: Sequence[str], retrieved: set[str]) -> dict[str, list[str]]:
    """Cited ids split into those the run retrieved and those it never saw (deduplicated)."""
    unique = list(dict.fromkeys(cited))
    return {
        "citations": [doc_id for doc_id in unique if doc_id in retrieved],
        "unsupported": [doc_id for doc_id in unique if doc_id not in retrieved],
    }


def close_calls(
    message: AnyMessage | None, reason: str, skip: str | None = None
) -> list[ToolMessage]:
    """Tool messages answering the calls that will never run, so the transcript stays valid."""
    if not isinstance(message, AIMessage):
        return []
    return [not_run(call, reason) for call in message.tool_calls if call["id"] != skip]


def not_run(call: ToolCall, reason: str) -> ToolMessage:
    """The error tool message for a call that was not run, and why."""
    return ToolMessage(
        NOT_RUN.format(reason=reason), name=call["name"], tool_call_id=call["id"], status="error"
    )


def message_text(message: BaseMessage) -> str:
    """The text of a message whose content may be a string or a list of blocks."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        block.get("text", "") if isinstance(block, dict) else str(block) for block in content
    )


def usage_tokens(message: BaseMessage) -> int:
    """Total tokens the model reported for this call (0 if it reports none)."""
    usage = getattr(message, "usage_metadata", None)
    return int(usage.get("total_tokens", 0)) if usage else 0


def one_line(error: BaseException) -> str:
    """An exception as one short line: its type and first words."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__
