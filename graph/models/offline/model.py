"""`PolicyModel`: the offline default, a deterministic ReAct controller as a LangChain chat model.

Every turn it reads the transcript (question, its own earlier calls, the observations) and
returns an AIMessage whose content is the Thought and which carries exactly one tool call,
decided by the first rule of the rule table that applies (`rules.RULES`):

- arithmetic goes to `calculator`, then `finish` with a sentence built from the result;
- anything else is searched: the search tool is the one whose evidence for the query is best
  (`sources`); a question with a relative clause ("the team that owns X") is answered in two
  hops, the second phrased with the bridge entity the first observation names;
- the answer is extractive: the retrieved sentence (or chain of two) that best covers the
  question, citing the passages it rests on, with a short answer when one is asked for and
  sure; a short question its passages do not cover is declined, and a weakly covered answer
  is given (the finish node marks it not confident);
- with tools that take structured arguments and no search tool, the structured controller
  (`graph.models.structured`) fills the calls from the tools' schemas.
"""

from __future__ import annotations

import hashlib
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.runtime import get_runtime

from graph.models.actions import read_transcript
from graph.models.base import InProcessChatModel
from graph.models.offline.rules import decide


class PolicyModel(InProcessChatModel):
    """A rule-based ReAct controller; `bind_tools` gives it the tools it may call."""

    @property
    def _llm_type(self) -> str:
        """The model family name LangChain records in traces."""
        return "rule-policy"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Decide the next step from the transcript."""
        question, observations = read_transcript(messages)
        action = decide(self.tools, run_budget(), question, observations)
        call_id = (
            "call_" + hashlib.sha1(f"{question}\x00{len(observations)}".encode()).hexdigest()[:16]
        )
        message = AIMessage(
            content=action.thought,
            tool_calls=[
                {"name": action.tool, "args": action.args, "id": call_id, "type": "tool_call"}
            ],
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def run_budget() -> int | None:
    """The run's step budget: ``max_steps`` of the context of the graph run this call is in.

    None when there is none (the model invoked outside a graph run, or in a graph whose context
    has no positive ``max_steps``): the policy then plans without a budget, and whoever drives
    the calls bounds them (a graph's recursion limit).
    """
    try:
        runtime = get_runtime()
    except (RuntimeError, KeyError):
        return None
    max_steps = getattr(getattr(runtime, "context", None), "max_steps", None)
    if isinstance(max_steps, int) and not isinstance(max_steps, bool) and max_steps > 0:
        return max_steps
    return None
