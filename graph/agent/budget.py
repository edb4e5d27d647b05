"""The step budget and every limit derived from it: defaults, ranges, recursion limits.

This module is the one owner of those numbers: `Context` checks its fields here, the CLI builds
its `--max-steps` / `--k` ranges from these constants, and every recursion limit the agent, a
resumed run, the router or a server check needs is one of the functions below.

A turn is `reason` (a model call), then `act` and `reason` again for every tool round, then
`finish`: `max_steps` model calls take at most `2 * max_steps` supersteps. LangGraph runs a path
of N nodes only under a recursion limit of at least N + 1 (the last node must still see one
remaining step), so the limit is `2 * max_steps + 1`; the router reads `remaining_steps` and
goes to `finish` while `finish` still fits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

from tools.search_settings import MAX_K, MIN_K

DEFAULT_MAX_STEPS = 6
"""Model calls a turn may make when the run names no budget."""
MIN_STEPS = 1
"""The smallest step budget: one model call."""
MAX_STEPS = 100
"""The largest step budget a run may ask for."""

STEPS_PER_TOOL_ROUND = 2
"""Supersteps one more tool round costs: `act`, then `reason` again."""
LEAST_RECURSION_LIMIT = 2
"""The lowest limit under which any graph can run a node and still end (LangGraph's floor)."""
IN_FLIGHT_STEPS = 3
"""Extra supersteps a run continued mid-step needs: the pending task, `reason` and `finish`."""
ROUTER_STEPS = 3
"""Supersteps the router adds around the graph it calls (route, the call, the record)."""
FINISH_ROOM = 2
"""Remaining steps a `reason` must see so that `finish` can still run after it."""
LIMIT_RULE = f"{STEPS_PER_TOOL_ROUND} * max_steps + 1"
"""The agent's recursion-limit formula, as the error messages state it."""


def check_max_steps(max_steps: Any) -> int:
    """`max_steps` if it is a budget a run can honour, else a one-line ValueError."""
    if not isinstance(max_steps, int) or isinstance(max_steps, bool):
        raise ValueError(f"max_steps must be an integer, got {max_steps!r}")
    if not MIN_STEPS <= max_steps <= MAX_STEPS:
        raise ValueError(f"max_steps must be between {MIN_STEPS} and {MAX_STEPS}, got {max_steps}")
    return max_steps


def check_k(k: Any) -> int:
    """`k` if it is a passage count a search can return, else a one-line ValueError."""
    if not isinstance(k, int) or isinstance(k, bool) or not MIN_K <= k <= MAX_K:
        raise ValueError(f"k must be an integer between {MIN_K} and {MAX_K}, got {k!r}")
    return k


def recursion_limit_for(max_steps: int) -> int:
    """The recursion limit that lets a turn make `max_steps` model calls and then finish."""
    if max_steps < MIN_STEPS:
        raise ValueError(f"max_steps must be at least {MIN_STEPS}, got {max_steps}")
    return STEPS_PER_TOOL_ROUND * max_steps + 1


def steps_left(max_steps: int, steps_done: int) -> int:
    """Model calls a turn may still make after `steps_done` of its `max_steps` (may be < 0)."""
    return max_steps - steps_done


def continue_limit(steps_left: int) -> int:
    """The recursion limit for a run continued from a checkpoint taken inside a step.

    The step in flight may still owe its `act` (or a saved write); then `steps_left` more tool
    rounds and the `finish` must fit. With nothing left the run can still finish.
    """
    return STEPS_PER_TOOL_ROUND * max(steps_left, 0) + IN_FLIGHT_STEPS


def router_limit(flow_limit: int, max_steps: int) -> int:
    """The router's recursion limit: room for the longer of the flow and the agent, plus its own."""
    return max(flow_limit, recursion_limit_for(max_steps)) + ROUTER_STEPS


def least_useful_limit() -> int:
    """The lowest recursion limit under which the agent can make one model call and finish."""
    return recursion_limit_for(MIN_STEPS)


def can_take_another_round(remaining_steps: int) -> bool:
    """Whether `act`, another `reason` and `finish` still fit under the recursion limit.

    `remaining_steps` is what the node deciding sees; the last node to run must see at least 1.
    """
    return remaining_steps >= STEPS_PER_TOOL_ROUND + FINISH_ROOM


def run_config(max_steps: int, thread_id: str | None = None, **extra: Any) -> RunnableConfig:
    """A config with the recursion limit for `max_steps` and, optionally, a thread id."""
    config: RunnableConfig = {"recursion_limit": recursion_limit_for(max_steps)}
    if thread_id is not None:
        config["configurable"] = {"thread_id": thread_id}
    config.update(extra)  # type: ignore[typeddict-item]
    return config


def has_room_to_finish(remaining_steps: int) -> bool:
    """Whether a `reason` seeing `remaining_steps` can still be followed by `finish`.

    With a recursion limit of 1 or 2 it cannot: `reason` then ends the turn itself.
    """
    return remaining_steps >= FINISH_ROOM
