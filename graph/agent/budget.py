"""The step budget, enforced through LangGraph's recursion limit.

A turn is `reason` (a model call), then `act` and `reason` again for every tool round, then
`finish`: `max_steps` model calls take at most `2 * max_steps` supersteps. LangGraph runs a path
of N nodes only under a recursion limit of at least N + 1 (the last node must still see one
remaining step), so the limit is `2 * max_steps + 1`; the router reads `remaining_steps` and
goes to `finish` while `finish` still fits.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

STEPS_PER_TOOL_ROUND = 2
"""Supersteps one more tool round costs: `act`, then `reason` again."""


def recursion_limit_for(max_steps: int) -> int:
    """The recursion limit that lets a turn make `max_steps` model calls and then finish."""
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    return STEPS_PER_TOOL_ROUND * max_steps + 1


def can_take_another_round(remaining_steps: int) -> bool:
    """Whether `act`, another `reason` and `finish` still fit under the recursion limit.

    `remaining_steps` is what the node deciding sees; the last node to run must see at least 1.
    """
    return remaining_steps >= STEPS_PER_TOOL_ROUND + 2


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
    return remaining_steps >= 2
