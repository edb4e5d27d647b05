"""How a session picks each run's `Context`, the one source of its model, budget and k.

Each value is the first given of: the call's, the session's, the thread's recorded one
(`graph.app.thread_settings`), the default (`graph.agent.budget`, `AGENT_MODEL` or the policy).
A session built over a chat-model *object* runs that object: its runs' `Context.model` is the
object's description, and a call naming another model is a ValueError, never silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel

from graph.agent.budget import DEFAULT_K, DEFAULT_MAX_STEPS
from graph.agent.context import Context
from graph.app.thread_settings import ThreadSettings
from graph.models import default_model_spec
from graph.models.describe import describe_model

FIXED_MODEL = (
    "this session runs a fixed chat model ({fixed}); it cannot run model {asked!r} "
    "(open a Session without a model object to choose one per run)"
)


@dataclass(frozen=True)
class SessionDefaults:
    """What a session was opened with: a model name or a fixed model object, and k."""

    model: str | None = None
    fixed_model: BaseChatModel | None = None
    k: int | None = None


def run_context(
    session: SessionDefaults,
    saved: ThreadSettings,
    *,
    model: str | None = None,
    max_steps: int | None = None,
    k: int | None = None,
) -> Context:
    """The run's one `Context`: the call's values, else the session's, thread's, defaults."""
    if max_steps is None:
        max_steps = saved.max_steps if saved.max_steps is not None else DEFAULT_MAX_STEPS
    k = next((value for value in (k, session.k, saved.k) if value is not None), DEFAULT_K)
    if session.fixed_model is not None:
        return Context(model=fixed_name(session.fixed_model, model), max_steps=max_steps, k=k)
    model = model or session.model or saved.model or default_model_spec()
    return Context(model=model, max_steps=max_steps, k=k)


def fixed_name(fixed: BaseChatModel, asked: str | None) -> str:
    """The fixed model's name for `Context.model`; a ValueError if the call `asked` another."""
    name = describe_model(fixed)
    if asked is not None and asked != name:
        raise ValueError(FIXED_MODEL.format(fixed=name, asked=asked))
    return name
