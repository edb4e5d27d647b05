"""Run settings, chosen per run through the graph's context (`context_schema`).

`Context` is where a run's settings are validated, once: every caller (the CLI, `Session`, a
server run's context) builds one, and nothing below checks them again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.runnables import RunnableConfig

from corpora import check_name
from graph.agent.budget import DEFAULT_MAX_STEPS, check_k, check_max_steps, run_config
from graph.models.providers import default_model_spec
from tools.search_settings import DEFAULT_K


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
    system_prompt: str | None = field(
        default=None,
        metadata={
            "description": "The system prompt for chat models; {tools} lists the tools "
            "(default: the one the graph was built with). It is sent with each model call, "
            "never stored in the thread."
        },
    )
    require_search: bool = field(
        default=False,
        metadata={
            "description": "Make the turn's first model call a search: the search tools are "
            "bound with tool_choice set, so the model must call one."
        },
    )
    corpora: list[str] | None = field(
        default=None,
        metadata={
            "description": "Search only these of the graph's corpora, by name (default: all). "
            "A name, never a path: the corpora are the ones the server was started with."
        },
    )

    def __post_init__(self) -> None:
        """Reject settings no run can honour, with one clear line."""
        check_max_steps(self.max_steps)
        check_k(self.k)
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError("model must be a non-empty string such as 'policy'")
        if self.system_prompt is not None and not isinstance(self.system_prompt, str):
            raise ValueError("system_prompt must be text")
        if not isinstance(self.require_search, bool):
            raise ValueError(f"require_search must be true or false, got {self.require_search!r}")
        if self.corpora is not None:
            self.corpora = check_corpus_names(self.corpora)

    def run_config(self, thread_id: str | None = None) -> RunnableConfig:
        """The config this run needs: the recursion limit for `max_steps`, and the thread."""
        return run_config(self.max_steps, thread_id)


def check_corpus_names(names: object) -> list[str]:
    """`names` if it is a list of corpus names (not paths), else a one-line ValueError."""
    if not isinstance(names, list | tuple) or not names:
        raise ValueError("corpora must be a non-empty list of corpus names")
    return [check_name(name) for name in names]  # CorpusError is a ValueError
