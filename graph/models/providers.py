"""Chat models from any LangChain provider, through `langchain.chat_models.init_chat_model`.

A spec is "provider:model" ("openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest",
"ollama:llama3.1"). A missing provider package or API key is one `ModelSpecError` line naming
what to install or set; so is a model that cannot call tools.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

from graph.common.env import env_float

MODEL_ENV = "AGENT_MODEL"
DEFAULT_MODEL = "policy"
TIMEOUT_ENV = "AGENT_MODEL_TIMEOUT"
RETRIES_ENV = "AGENT_MODEL_RETRIES"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_RETRIES = 2
SPEC_HELP = (
    "use 'policy', 'scripted:<turns.json>' or 'provider:model' such as 'openai:gpt-4o-mini' "
    "(openai, anthropic, google_genai, ollama, groq, mistralai, ...)"
)


class ModelSpecError(ValueError):
    """A model name that cannot be turned into a chat model (one line, for the user)."""


@dataclass(frozen=True)
class Provider:
    """What a provider needs: its LangChain package, the extra installing it, its API key."""

    module: str
    """The import name of the LangChain integration (`langchain_anthropic`)."""
    package: str
    """Its name on PyPI (`langchain-anthropic`)."""
    extra: str
    """The optional extra of this project that installs it."""
    key_env: str | None
    """The environment variable holding the API key (None: no key needed)."""


KNOWN_PROVIDERS: dict[str, Provider] = {
    "openai": Provider("langchain_openai", "langchain-openai", "openai", "OPENAI_API_KEY"),
    "anthropic": Provider(
        "langchain_anthropic", "langchain-anthropic", "anthropic", "ANTHROPIC_API_KEY"
    ),
    "google_genai": Provider(
        "langchain_google_genai", "langchain-google-genai", "google-genai", "GOOGLE_API_KEY"
    ),
    "ollama": Provider("langchain_ollama", "langchain-ollama", "ollama", None),
    "groq": Provider("langchain_groq", "langchain-groq", "groq", "GROQ_API_KEY"),
    "mistralai": Provider(
        "langchain_mistralai", "langchain-mistralai", "mistralai", "MISTRAL_API_KEY"
    ),
}
"""Providers with an extra in pyproject.toml; any other init_chat_model provider works too."""

PROVIDER_ENV_KEYS = (
    "OPENAI_BASE_URL",
    *(p.key_env for p in KNOWN_PROVIDERS.values() if p.key_env),
    TIMEOUT_ENV,
    RETRIES_ENV,
)
"""The environment a provider model is built from (a change means a new model)."""


def default_model_spec() -> str:
    """The model runs use when none is named: `$AGENT_MODEL`, else the offline policy."""
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def model_timeout_s() -> float:
    """Seconds one model call may take in all, retries included (`AGENT_MODEL_TIMEOUT`)."""
    return _env_number(TIMEOUT_ENV, DEFAULT_TIMEOUT_S, 0.1, 600)


def model_retries() -> int:
    """How often a failed model request is retried (`AGENT_MODEL_RETRIES`)."""
    return int(_env_number(RETRIES_ENV, DEFAULT_RETRIES, 0, 10))


def normalize_provider(provider: str) -> str:
    """The provider's init_chat_model name ("google-genai" is "google_genai")."""
    return provider.strip().lower().replace("-", "_")


def is_configured(provider: str) -> bool:
    """Whether this server can call `provider`: its package is installed and its key is set."""
    known = KNOWN_PROVIDERS.get(normalize_provider(provider))
    if known is None or importlib.util.find_spec(known.module) is None:
        return False
    if known.key_env is None:
        return False  # a keyless provider (a local server) is allowed only when listed
    if known.key_env == "OPENAI_API_KEY" and os.environ.get("OPENAI_BASE_URL"):
        return True
    return bool(os.environ.get(known.key_env))


def provider_model(spec: str) -> BaseChatModel:
    """The chat model for "provider:model", or a ModelSpecError naming what is missing."""
    provider, _, name = spec.partition(":")
    provider, name = normalize_provider(provider), name.strip()
    if not provider or not name:
        raise ModelSpecError(f"unknown model {spec!r}: {SPEC_HELP}")
    known = KNOWN_PROVIDERS.get(provider)
    if known is not None:
        _check_installed(spec, known)
        kwargs = _openai_kwargs(spec) if provider == "openai" else _key_kwargs(spec, known)
    else:
        kwargs = {}
    model = _init(spec, name, provider, kwargs)
    check_tool_calling(model)
    return model


def check_tool_calling(model: BaseChatModel) -> None:
    """Refuse a chat model that cannot bind tools (its `bind_tools` is LangChain's stub)."""
    from langchain_core.language_models import BaseChatModel

    if type(model).bind_tools is BaseChatModel.bind_tools:
        raise ModelSpecError(
            f"the chat model {type(model).__name__} cannot call tools (it has no bind_tools); "
            "the agent needs a model with tool calling"
        )


def _init(spec: str, name: str, provider: str, kwargs: dict[str, Any]) -> BaseChatModel:
    """`init_chat_model`, with its errors turned into one line."""
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(name, model_provider=provider, **kwargs)
    except ImportError as error:
        raise ModelSpecError(f"model {spec!r}: {' '.join(str(error).split())}") from None
    except ValueError as error:
        if "provider" in str(error):
            raise ModelSpecError(
                f"unknown model {spec!r}: {provider!r} is not a provider LangChain knows; "
                f"{SPEC_HELP}"
            ) from None
        raise ModelSpecError(f"model {spec!r}: {' '.join(str(error).split())[:300]}") from None
    except Exception as error:  # a client refusing its settings (e.g. no credentials)
        text = " ".join(str(error).split())[:300]
        raise ModelSpecError(f"model {spec!r}: {type(error).__name__}: {text}") from None


def _check_installed(spec: str, provider: Provider) -> None:
    """A ModelSpecError naming the package to install when the provider's is missing."""
    if importlib.util.find_spec(provider.module) is None:
        raise ModelSpecError(
            f"model {spec!r} needs the {provider.package} package: "
            f"pip install 'agentic-rag[{provider.extra}]' (or pip install {provider.package})"
        )


def _key_kwargs(spec: str, provider: Provider) -> dict[str, Any]:
    """Check the provider's API key is set; the settings every known provider takes."""
    if provider.key_env and not os.environ.get(provider.key_env):
        raise ModelSpecError(
            f"model {spec!r} needs {provider.key_env}: set it in the environment or in .env"
        )
    return {"temperature": 0}


def _openai_kwargs(spec: str) -> dict[str, Any]:
    """OpenAI settings: OPENAI_API_KEY and OPENAI_BASE_URL, bounded retries and timeout.

    Transient errors (429 with Retry-After, 5xx, timeouts) are retried by the OpenAI client
    with bounded exponential backoff, AGENT_MODEL_RETRIES times; the whole call, retries
    included, is bounded by AGENT_MODEL_TIMEOUT (see `graph.models.deadline`).
    """
    from graph.models.deadline import bounded_http_client

    base_url = os.environ.get("OPENAI_BASE_URL") or None
    api_key = os.environ.get("OPENAI_API_KEY")
    if not api_key:
        if base_url is None:
            raise ModelSpecError(
                f"model {spec!r} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
                "OpenAI-compatible server): set it in the environment or in .env"
            )
        api_key = "not-needed"
    timeout = model_timeout_s()
    return {
        "base_url": base_url,
        "api_key": api_key,
        "temperature": 0,
        "max_retries": model_retries(),
        "timeout": timeout,
        "http_client": bounded_http_client(timeout),
    }


def _env_number(name: str, default: float, low: float, high: float) -> float:
    """A number from the environment, checked against its range (a ModelSpecError otherwise)."""
    try:
        return env_float(name, default, low, high)
    except ValueError as error:
        raise ModelSpecError(str(error)) from None
