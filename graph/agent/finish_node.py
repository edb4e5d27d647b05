"""The `finish` node: the run's result from the transcript, and the answer said in chat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graph.agent.context import Context
from graph.agent.grounding import doubt, grounding
from graph.agent.messages import (
    CITATION_RE,
    close_calls,
    finish_call,
    message_text,
    read_finish_args,
    split_citations,
)
from graph.agent.state import AgentState
from graph.agent.transcript import all_ids, current_turn, is_search_call, retrieved_by_tool
from graph.common.chat import answer_message
from tools.finish import FINISH_TOOL

FINISHED = "Finished."


class FinishNode:
    """The `finish` node over the agent's tools (their corpora ground the answer).

    `run_tools` narrows them to the ones a run may call (`ReasonNode.run_tools`: a context's
    `corpora`), so a run's support is measured over the corpora it searched, the same on a
    server holding more corpora as in process.
    """

    def __init__(
        self,
        tools: Sequence[BaseTool],
        run_tools: Callable[[Context], Sequence[BaseTool]] | None = None,
    ) -> None:
        self.tools = list(tools)
        self.run_tools = run_tools

    def grounding_tools(self, runtime: Runtime[Context] | None) -> Sequence[BaseTool]:
        """The tools whose corpora ground this run's answer (all, or the run's narrowed set)."""
        context = getattr(runtime, "context", None)
        if self.run_tools is None or not isinstance(context, Context):
            return self.tools
        try:
            return self.run_tools(context)
        except ValueError:  # an unknown corpus: the reason node already ended the run on it
            return self.tools

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Build the run's result, close any tool call left open, and say the answer in chat.

        The turn ends on an AI message with the answer and its citations (a model that answered
        confidently in plain text already wrote it), marked when it is not confident, or on one
        saying why there is no answer (for a decline, what was searched). An answer that is not
        confident keeps its sentence but no ``short_answer``: a short answer is given only when
        sure (issue 19). Of the short answers that went with answers not confident, 7 of 35 were
        right on the tune sets and 8 of 20 on the held-out hotpotqa-dev-test.
        """
        turn = current_turn(state.get("messages", []))
        retrieved = retrieved_by_tool(turn)
        last = turn[-1] if turn else None
        result: dict[str, Any] = {
            "retrieved": retrieved,
            "answer": None,
            "short_answer": None,
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
            args = read_finish_args(call.get("args"))
            result.update(answer=args.answer, short_answer=args.short_answer)
            result["stopped"] = "answer" if args.answer else "no_answer"
            result.update(split_citations(args.citations, all_ids(retrieved)))
            closing = [ToolMessage(FINISHED, name=FINISH_TOOL, tool_call_id=call["id"])]
            closing += close_calls(last, "finish was called", skip=call["id"])
        elif isinstance(last, AIMessage) and not last.tool_calls:
            text = message_text(last).strip()
            result.update(answer=text or None, stopped="answer")
            result.update(split_citations(CITATION_RE.findall(text), all_ids(retrieved)))
        else:
            result["stopped"] = "budget"
            closing = [*close_calls(last, "the step budget is exhausted")]
        question = str(state.get("question") or "")
        result.update(grounding(result, turn, question, self.grounding_tools(runtime)))
        if not result["confident"]:
            result["short_answer"] = None  # a short answer only when sure
        if result["stopped"] == "answer" and result["confident"] and not closing:
            return {**result, "messages": []}  # the model's own message is what a chat shows
        said = answer_message(
            {
                **result,
                "error": state.get("error"),
                "steps": state.get("steps"),
                "searched": searched(turn),
                "doubt": doubt(result),
            }
        )
        return {**result, "messages": [*closing, said]}


def searched(turn: Sequence[AnyMessage]) -> list[str]:
    """The turn's searches as ``tool "query"``, in order, repeats dropped."""
    done = [
        f'{call["name"]} "{call["args"]["query"]}"'
        for message in turn
        if isinstance(message, AIMessage)
        for call in message.tool_calls
        if is_search_call(call)
    ]
    return list(dict.fromkeys(done))
