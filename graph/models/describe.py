"""Model failures as one line that names the model and the server it talks to."""

from __future__ import annotations

import json

from langchain_core.language_models import BaseChatModel

from graph.models.deadline import ModelTimeout


def server_of(model: BaseChatModel) -> str | None:
    """The URL of the server a chat model talks to, when it says."""
    for name in ("openai_api_base", "base_url", "anthropic_api_url", "api_base"):
        value = getattr(model, name, None)
        if isinstance(value, str) and value:
            return value
    return None


def describe_model(model: BaseChatModel) -> str:
    """The model and its server, for messages: "ChatOpenAI gpt-4o at https://..."."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None)
    label = f"{type(model).__name__} {name}" if isinstance(name, str) else type(model).__name__
    server = server_of(model)
    if server is None and type(model).__name__ == "ChatOpenAI":
        server = "https://api.openai.com/v1"
    return f"{label} at {server}" if server else label


def describe_model_error(error: BaseException, model: BaseChatModel) -> str:
    """A failed model call as one line that names the model server and what went wrong."""
    text = " ".join(str(error).split())[:300]
    kind = type(error).__name__
    if isinstance(error, ModelTimeout):
        return f"{kind}: {text}"
    if isinstance(error, json.JSONDecodeError):
        reason = "its reply is not JSON"
    elif isinstance(error, IndexError | KeyError | TypeError | AttributeError):
        reason = "its reply has no usable message (no choices)"
    else:
        reason = f"{kind}: {text}" if text else kind
        return f"{reason} (model server: {describe_model(model)})"
    return f"model server {describe_model(model)}: {reason} ({kind}: {text})"
