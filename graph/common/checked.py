"""Compiled graphs that refuse, in one clear line, a run none of their nodes could serve.

The LangGraph server hands a run's input, config and context to the graph as the client sent
them. Some fail inside LangGraph or a node with a raw Python error before any node can answer:

- an input that is not an object (a bare string raises `InvalidUpdateError: Expected dict`);
- a `recursion_limit` below the least one the graph can end under (`GraphRecursionError` with
  its troubleshooting link): each graph names its own least (the flow's longest run needs 7);
- a `Command` resuming with `null` (LangGraph's own `UnboundLocalError`), or resuming a thread
  that is not paused;
- a context field of the wrong type (`system_prompt: 5` gives an `AttributeError` in a node);
- a message whose `content` is neither text nor a list of blocks (a pydantic dump).

`checked` wraps a compiled graph so these become a one-line `ValueError` naming the fix; every
other run is the graph's own. The caller says what the least limit is and how its limit is
computed (the agent's come from `graph.agent.budget`, which owns every limit).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, StateSnapshot
from langgraph.typing import StateLike

BAD_INPUT = "the input of {graph} must be an object with {fields}, not {kind}"
BAD_LIMIT = "recursion_limit must be an integer of at least {least} ({rule}), got {limit!r}"
NULL_RESUME = "cannot resume {graph} with null: send the value the pause asks for"
NOT_PAUSED = "thread {thread} of {graph} is not paused: there is nothing to resume"
BAD_CONTEXT = "context field {name!r} must be {kind}, got {got} {value}"
BAD_CONTENT = "messages[{i}].content must be text or a list of content blocks, got {got} {value}"
_SIMPLE = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


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
        check_run(self, input, config, kwargs.get("context"))
        if _resumes(input) and self.checkpointer not in (None, True, False):
            check_paused(self, self.get_state(config or {}), config)
        yield from super().stream(input, config, **kwargs)

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """`CompiledStateGraph.astream` (what the server runs), after `check_run`."""
        check_run(self, input, config, kwargs.get("context"))
        if _resumes(input) and self.checkpointer not in (None, True, False):
            check_paused(self, await self.aget_state(config or {}), config)
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
    graph: CheckedGraph[Any, Any, Any, Any],
    input: Any,
    config: RunnableConfig | None,
    context: Any = None,
) -> None:
    """Raise a one-line ValueError for an input, limit or context no run can serve."""
    if not _is_input(input):
        fields = " or ".join(_input_fields(graph)) or "its input fields"
        kind = f"a {type(input).__name__}"
        raise ValueError(BAD_INPUT.format(graph=graph.get_name(), fields=fields, kind=kind))
    commands = [input] if isinstance(input, Command) else input if isinstance(input, list) else []
    if any(command.resume is None and not command.goto and not command.update
           for command in commands):  # fmt: skip
        raise ValueError(NULL_RESUME.format(graph=graph.get_name()))
    if isinstance(input, Mapping):
        _check_messages(input.get("messages"))
    _check_context(graph, context)
    limit = (config or {}).get("recursion_limit")
    if limit is None:
        return
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < graph.least_limit:
        rule = graph.limit_rule
        raise ValueError(BAD_LIMIT.format(least=graph.least_limit, rule=rule, limit=limit))


def check_paused(
    graph: CheckedGraph[Any, Any, Any, Any], state: StateSnapshot, config: RunnableConfig | None
) -> None:
    """Raise a one-line ValueError when a resume reaches a thread with no pending interrupt."""
    if state.interrupts or any(task.interrupts for task in state.tasks):
        return
    thread = ((config or {}).get("configurable") or {}).get("thread_id")
    raise ValueError(NOT_PAUSED.format(thread=_short(thread), graph=graph.get_name()))


def _resumes(input: Any) -> bool:
    """Whether the input resumes a pause (a `Command` with a resume value)."""
    commands = [input] if isinstance(input, Command) else input if isinstance(input, list) else []
    return any(isinstance(c, Command) and c.resume is not None for c in commands)


def _check_messages(messages: Any) -> None:
    """A one-line ValueError for a message whose content no message type accepts."""
    if not isinstance(messages, list):
        return
    for i, message in enumerate(messages):
        content = message.get("content", "") if isinstance(message, Mapping) else ""
        if not isinstance(content, str | list):
            got = type(content).__name__
            raise ValueError(BAD_CONTENT.format(i=i, got=got, value=_short(content)))


def _check_context(graph: CompiledStateGraph[Any, Any, Any, Any], context: Any) -> None:
    """A one-line ValueError for a context field whose value is not of the field's simple type."""
    schema = graph.builder.context_schema
    if not isinstance(context, Mapping) or schema is None or not dataclasses.is_dataclass(schema):
        return
    hints = typing.get_type_hints(schema)
    for name, value in context.items():
        kind = hints.get(name)
        if kind not in _SIMPLE:
            continue
        fits = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            fits = True
        if not fits:
            got = type(value).__name__
            raise ValueError(
                BAD_CONTEXT.format(name=name, kind=_SIMPLE[kind], got=got, value=_short(value))
            )


def _short(value: Any) -> str:
    """A bounded repr of a value for an error line."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


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


__all__ = ["CheckedGraph", "check_paused", "check_run", "checked"]
