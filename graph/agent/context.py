"""Run settings, chosen per run through the graph's context (`context_schema`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.agent.budget import DEFAULT_K, DEFAULT_MAX_STEPS, check_k, check_max_steps
from graph.agent.prompts import SYSTEM_PROMPT
from graph.models.providers import default_model_spec


@dataclass(kw_only=True)
class Context:
    """Settings for one run; `configurable` is left for `thread_id`."""

    model: str = field(
        default_factory=default_model_spec,
        metadata={
            "description": 'The chat model: "policy" (offline, deterministic) or "provider:model" '
            'such as "openai:gpt-4o-mini" (default: $AGENT_MODEL, else "policy"; a server '
            "allows only $AGENT_ALLOWED_MODELS)."
        },
    )
    max_steps: int = field(
        default=DEFAULT_MAX_STEPS,
        metadata={"description": "The step budget: the most model calls a turn may make."},
    )
    k: int = field(
        default=DEFAULT_K,
        metadata={
            "description": "Passages each search returns (the act node sets it on every "
            "search tool, whatever k the tool was built with)."
        },
    )
    system_prompt: str = field(
        default=SYSTEM_PROMPT,
        metadata={"description": "The system prompt for chat models; {tools} lists the tools."},
    )

    def __post_init__(self) -> None:
        """Reject settings no run can honour, with one clear line."""
        check_max_steps(self.max_steps)
        check_k(self.k)
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError("model must be a non-empty string such as 'policy'")
