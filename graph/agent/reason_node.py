"""The `reason` node: one model call per step, and the start of a new turn.

The `act` node is a ToolNode (`graph.agent.act`); `finish` is `graph.agent.finish_node`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from graph.agent.budget import LIMIT_RULE, has_room_to_finish, least_useful_limit
from graph.agent.context import Context
from graph.agent.messages import (
    asked_in,
    message_text,
    model_view,
    not_run,
    one_line,
    reject_invalid_calls,
    usage_tokens,
)
from graph.agent.prompts import describe_tools
from graph.agent.question import printable, question_problem
from graph.agent.replies import max_message_chars, vet_reply
from graph.agent.state import AgentState
from graph.agent.transcript import retrieved_by_tool
from graph.common.chat import NO_QUESTION, answer_message, open_turn, sent_question
from graph.models import load_model
from graph.models.allowlist import check_allowed
from graph.models.calls import failure_text, invoke_model

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


class ReasonNode:
    """The `reason` node: the tools the model is bound to and (optionally) a fixed model.

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

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
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

        The question is the human message a chat panel `sent`, else the `question` input. It is
        checked here for the runs that enter through the graph (`graph.agent.question`).
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


def ended_early(update: dict[str, Any], problem: str) -> dict[str, Any]:
    """A turn that ends before any model call: the error, and the answer message saying so.

    The run goes straight to END (see `route_after_reason`), so this is the whole result.
    """
    result = {**update, "error": problem, "stopped": "error"}
    return {**result, "messages": [answer_message(result)]}
