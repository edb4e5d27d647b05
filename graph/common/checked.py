"""Compiled graphs that refuse, in one clear line, a run none of their nodes could serve.

The LangGraph server hands a run's input and config to the graph as the client sent them. Two
kinds fail inside LangGraph before any node can answer: an input that is not an object (a bare
string raises `InvalidUpdateError: Expected dict`) and a `recursion_limit` below the least one
the graph can end under (below 2, one superstep and no room to end: `GraphRecursionError` even
for a one-node graph). `checked` wraps a compiled graph so these become a `ValueError` naming the
fix; every other run is the graph's own. The caller says what the least limit is and how its
limit is computed (the agent's come from `graph.agent.budget`, which owns every limit).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command
from langgraph.typing import StateLike

BAD_INPUT = "the input of {graph} must be an object with {fields}, not {kind}"
BAD_LIMIT = "recursion_limit must be an integer of at least {least} ({rule}), got {limit!r}"


S = TypeVar("S", bound=StateLike)
C = TypeVar("C", bound=StateLike | None)
I = TypeVar("I", bound=StateLike)  # noqa: E741
O = TypeVar("O", bound=StateLike)  # noqa: E741


class CheckedGraph(CompiledStateGraph[S, C, I, O], Generic[S, C, I, O]):
    """A compiled state graph that checks the input and the recursion limit of every run."""

    def __init__(self, *, least_limit: int, limit_rule: str, **attrs: Any) -> None:
        """The compiled graph's `attrs`, and the least `recursion_limit` a run may pass.

        `limit_rule` says how a good limit is computed, for the error message. Both are kept
        as attributes, so `copy` (and `with_config`, which the server calls) keeps them.
        """
        super().__init__(**attrs)
        self.least_limit = least_limit
        self.limit_rule = limit_rule

    def stream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Any]:
        """`CompiledStateGraph.stream`, after `check_run` (so `invoke` is checked too)."""
        check_run(self, input, config)
        yield from super().stream(input, config, **kwargs)

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """`CompiledStateGraph.astream` (what the server runs), after `check_run`."""
        check_run(self, input, config)
        async for chunk in super().astream(input, config, **kwargs):
            yield chunk


def checked(
    graph: CompiledStateGraph[S, C, I, O], *, least_limit: int, limit_rule: str
) -> CheckedGraph[S, C, I, O]:
    """`graph` as a CheckedGraph (the same attributes, as `Pregel.copy` makes them).

    A run whose `recursion_limit` is below `least_limit` is refused, the message quoting
    `limit_rule` (how the graph's limit is computed).
    """
    attrs = {key: value for key, value in graph.__dict__.items() if key != "__orig_class__"}
    return CheckedGraph(least_limit=least_limit, limit_rule=limit_rule, **attrs)


def check_run(
    graph: CheckedGraph[Any, Any, Any, Any], input: Any, config: RunnableConfig | None
) -> None:
    """Raise a one-line ValueError for an input or a recursion limit no run can serve."""
    if not _is_input(input):
        fields = " or ".join(_input_fields(graph)) or "its input fields"
        kind = f"a {type(input).__name__}"
        raise ValueError(BAD_INPUT.format(graph=graph.get_name(), fields=fields, kind=kind))
    limit = (config or {}).get("recursion_limit")
    if limit is None:
        return
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < graph.least_limit:
        rule = graph.limit_rule
        raise ValueError(BAD_LIMIT.format(least=graph.least_limit, rule=rule, limit=limit))


def _is_input(input: Any) -> bool:
    """Whether LangGraph can take `input`: nothing (resume), an object, or Commands."""
    if input is None or isinstance(input, Mapping | Command):
        return True
    return (
        isinstance(input, Sequence)
        and not isinstance(input, str)
        and bool(input)
        and all(isinstance(item, Command) for item in input)
    )


def _input_fields(graph: CompiledStateGraph[Any, Any, Any, Any]) -> list[str]:
    """The names of the graph's input fields, quoted, in declaration order."""
    schema = graph.builder.input_schema
    return [f'"{name}"' for name in getattr(schema, "__annotations__", {})]


__all__ = ["CheckedGraph", "check_run", "checked"]
