"""The `reason` node: one model call per step, and the start of a new turn.

The `act` node is a ToolNode (`graph.agent.act`); `finish` is `graph.agent.finish_node`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, SystemMessage
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
from graph.agent.prompts import SYSTEM_PROMPT, describe_tools
from graph.agent.question import printable, question_problem
from graph.agent.replies import max_message_chars, vet_reply
from graph.agent.state import AgentState
from graph.agent.transcript import retrieved_by_tool
from graph.common.chat import NO_QUESTION, answer_message, open_turn, sent_question
from graph.models import load_model
from graph.models.allowlist import check_allowed
from graph.models.calls import failure_text, invoke_model
from tools.search_protocol import corpus_of

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
MUST_SEARCH = "any"
"""The `tool_choice` that makes a model call one of the tools it is bound to (LangChain maps it
to each provider's word: OpenAI's "required", Anthropic's "any")."""
NO_SEARCH_TOOL = "require_search is set but the agent has no search tool"
UNKNOWN_CORPORA = "unknown corpus {names}: this agent searches {known}"


class ReasonNode:
    """The `reason` node: the tools the model is bound to and (optionally) a fixed model.

    Without a fixed model, each run's context names one: any model when `any_model` (the CLI
    and the Python API), else only the allowed ones (a server's untrusted clients).
    """

    def __init__(
        self,
        tools: Sequence[BaseTool],
        model: BaseChatModel | None = None,
        any_model: bool = False,
        system_prompt: str = SYSTEM_PROMPT,
    ) -> None:
        self.tools = list(tools)
        self.model = model
        self.any_model = any_model
        self.system_prompt = system_prompt
        self._bound: dict[tuple[int, tuple[str, ...], str | None], Any] = {}

    def chat_model(self, context: Context) -> BaseChatModel:
        """The run's chat model: the fixed one, or the (allowed) one the context names."""
        if self.model is not None:
            return self.model
        return load_model(context.model if self.any_model else check_allowed(context.model))

    def run_tools(self, context: Context) -> list[BaseTool]:
        """The tools this run may call: all, or only the searches of the corpora it names.

        A ValueError names the corpora the context asks for that no search tool covers.
        """
        if context.corpora is None:
            return self.tools
        known = {corpus_of(tool) for tool in self.tools} - {None}
        unknown = [name for name in context.corpora if name not in known]
        if unknown:
            listed = ", ".join(sorted(str(name) for name in known)) or "no corpus"
            raise ValueError(UNKNOWN_CORPORA.format(names=", ".join(unknown), known=listed))
        return [t for t in self.tools if corpus_of(t) in (None, *context.corpora)]

    def bound_model(
        self, model: BaseChatModel, tools: Sequence[BaseTool], must_search: bool = False
    ) -> Runnable[Any, BaseMessage]:
        """The chat model bound to `tools` (once per model and tool set).

        With `must_search`, only the search tools, with `tool_choice` set so that the model
        must call one of them.
        """
        choice = MUST_SEARCH if must_search else None
        if must_search:
            tools = [tool for tool in tools if corpus_of(tool) is not None]
            if not tools:
                raise ValueError(NO_SEARCH_TOOL)
        key = (id(model), tuple(tool.name for tool in tools), choice)
        cached = self._bound.get(key)
        if cached is None or cached[0] is not model:
            bound = (
                model.bind_tools(tools, tool_choice=choice) if choice else model.bind_tools(tools)
            )
            cached = (model, bound)
            self._bound[key] = cached
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
            transcript, opening = open_turn(messages, update.pop("asked"), not_run)
        steps = (0 if new_turn else state.get("steps", 0)) + 1
        model: BaseChatModel | None = None
        try:
            limit = max_message_chars()
            tools = self.run_tools(context)
            model = self.chat_model(context)
            bound = self.bound_model(model, tools, context.require_search and steps == 1)
            response = invoke_model(model, bound, self.model_input(context, tools, transcript))
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

    def model_input(
        self, context: Context, tools: Sequence[BaseTool], transcript: Sequence[AnyMessage]
    ) -> list[AnyMessage]:
        """What the model is sent: the system prompt (never stored), then the transcript.

        The prompt is the run's (`Context.system_prompt`) or the graph's, `{tools}` filled in;
        a system message stored by an older version of this graph is left out.
        """
        template = context.system_prompt or self.system_prompt
        prompt = SystemMessage(template.replace("{tools}", describe_tools(tools)))
        kept = [message for message in transcript if not isinstance(message, SystemMessage)]
        return [prompt, *model_view(kept)]

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
