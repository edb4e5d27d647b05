"""Chat models by name: the offline policy, a scripted model, or a real model through LangChain."""

from __future__ import annotations

import os
import threading

from langchain_core.language_models import BaseChatModel

from graph.models.scripted import ScriptedModel, load_script

PROVIDERS = ("openai",)


class ModelSpecError(ValueError):
    """A model name that cannot be turned into a chat model (one line, for the user)."""


_cache: dict[str, BaseChatModel] = {}
_lock = threading.Lock()


def load_model(spec: str) -> BaseChatModel:
    """The chat model for `spec`: "policy", "scripted:<turns.json>" or "openai:<model>".

    Models are cached by spec, so a run costs no construction after the first.
    """
    spec = spec.strip()
    with _lock:
        model = _cache.get(spec)
        if model is None:
            model = _cache[spec] = _create(spec)
        return model


def _create(spec: str) -> BaseChatModel:
    """Build the model for a spec (uncached)."""
    if spec == "policy":
        from graph.models.policy import PolicyModel

        return PolicyModel()
    provider, _, name = spec.partition(":")
    if provider == "scripted" and name:
        return load_script(name)
    if provider == "openai" and name:
        return _openai(name)
    raise ModelSpecError(
        f"unknown model {spec!r}: use 'policy', 'scripted:<turns.json>' or 'openai:<model>' "
        "(any OpenAI-compatible server through OPENAI_BASE_URL)"
    )


def _openai(name: str) -> BaseChatModel:
    """A langchain-openai chat model; OPENAI_API_KEY and OPENAI_BASE_URL are honoured."""
    from langchain_openai import ChatOpenAI

    base_url = os.environ.get("OPENAI_BASE_URL") or None
    api_key = os.environ.get("OPENAI_API_KEY")
    if not api_key:
        if base_url is None:
            raise ModelSpecError(
                f"model 'openai:{name}' needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
                "OpenAI-compatible server)"
            )
        api_key = "not-needed"
    return ChatOpenAI(
        model=name,
        base_url=base_url,
        api_key=api_key,  # type: ignore[arg-type]
        temperature=0,
        max_retries=2,
        timeout=60,
    )


__all__ = ["ModelSpecError", "ScriptedModel", "load_model", "PROVIDERS"]
