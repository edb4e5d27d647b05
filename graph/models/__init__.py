"""Chat models by name: the offline policy, a scripted model, or any LangChain provider's model.

Importing this package loads no LangChain (the CLI's options import it); a model is built,
and LangChain imported, when one is loaded.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from graph.models.providers import (
    PROVIDER_ENV_KEYS,
    SPEC_HELP,
    ModelSpecError,
    check_tool_calling,
    default_model_spec,
    provider_model,
)

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

_cache: dict[tuple[str, ...], BaseChatModel] = {}
_lock = threading.Lock()


def load_model(spec: str) -> BaseChatModel:
    """The chat model for `spec`: "policy", "scripted:<turns.json>" or "provider:model".

    Models are cached by spec and by the environment they read, so a run costs no
    construction after the first.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ModelSpecError(f"a model name must be non-empty text: {SPEC_HELP}")
    spec = spec.strip()
    key = (spec, *(os.environ.get(name, "") for name in PROVIDER_ENV_KEYS))
    with _lock:
        model = _cache.get(key)
        if model is None:
            model = _cache[key] = _create(spec)
        return model


def as_chat_model(model: object) -> BaseChatModel | None:
    """A chat model from a model name or a `BaseChatModel` (None stays None: chosen per run).

    Anything else is a TypeError, and a model that cannot call tools a ModelSpecError, at once.
    """
    from langchain_core.language_models import BaseChatModel

    if model is None:
        return None
    if isinstance(model, str):
        return load_model(model)
    if isinstance(model, BaseChatModel):
        check_tool_calling(model)
        return model
    raise TypeError(
        f"model must be a model name such as 'policy' or 'openai:gpt-4o-mini', or a LangChain "
        f"BaseChatModel; got {type(model).__name__}"
    )


def _create(spec: str) -> BaseChatModel:
    """Build the model for a spec (uncached): LangChain is imported only now."""
    if spec == "policy":
        from graph.models.offline.model import PolicyModel

        return PolicyModel()
    provider, _, name = spec.partition(":")
    if provider == "scripted":
        from graph.models.scripted import load_script

        if not name:
            raise ModelSpecError("a scripted model is 'scripted:<turns.json>'")
        return load_script(name)
    if not name:
        raise ModelSpecError(f"unknown model {spec!r}: {SPEC_HELP}")
    return provider_model(spec)


__all__ = [
    "ModelSpecError",
    "as_chat_model",
    "default_model_spec",
    "load_model",
]
