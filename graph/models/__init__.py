"""Chat models by name: the offline policy, a scripted model, or a real model through LangChain."""

from __future__ import annotations

import os
import threading

from langchain_core.language_models import BaseChatModel

from graph.env import env_float
from graph.models.scripted import ScriptedModel, load_script

PROVIDERS = ("openai",)


class ModelSpecError(ValueError):
    """A model name that cannot be turned into a chat model (one line, for the user)."""


TIMEOUT_ENV = "AGENT_MODEL_TIMEOUT"
RETRIES_ENV = "AGENT_MODEL_RETRIES"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_RETRIES = 2

_cache: dict[tuple[str, ...], BaseChatModel] = {}
_lock = threading.Lock()


def load_model(spec: str) -> BaseChatModel:
    """The chat model for `spec`: "policy", "scripted:<turns.json>" or "openai:<model>".

    Models are cached by spec and by the environment they read, so a run costs no
    construction after the first.
    """
    spec = spec.strip()
    key = (spec, *(os.environ.get(name, "") for name in _ENV_KEYS))
    with _lock:
        model = _cache.get(key)
        if model is None:
            model = _cache[key] = _create(spec)
        return model


_ENV_KEYS = ("OPENAI_BASE_URL", "OPENAI_API_KEY", TIMEOUT_ENV, RETRIES_ENV)


def _env_number(name: str, default: float, low: float, high: float) -> float:
    """A number from the environment, checked against its range (a ModelSpecError otherwise)."""
    try:
        return env_float(name, default, low, high)
    except ValueError as error:
        raise ModelSpecError(str(error)) from None


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
    """A langchain-openai chat model; OPENAI_API_KEY and OPENAI_BASE_URL are honoured.

    Transient errors (429 with Retry-After, 5xx, timeouts) are retried by the OpenAI client
    with bounded exponential backoff: AGENT_MODEL_RETRIES times (default 2), each request
    waiting at most AGENT_MODEL_TIMEOUT seconds (default 60).
    """
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
        max_retries=int(_env_number(RETRIES_ENV, DEFAULT_RETRIES, 0, 10)),
        timeout=_env_number(TIMEOUT_ENV, DEFAULT_TIMEOUT_S, 0.1, 600),
    )


__all__ = ["ModelSpecError", "ScriptedModel", "load_model", "PROVIDERS"]
