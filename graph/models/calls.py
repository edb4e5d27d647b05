"""Calling the run's chat model: in-process models directly, remote ones under one deadline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, BaseMessage
from langchain_core.runnables import Runnable

from graph.models.base import InProcessChatModel
from graph.models.deadline import call_within
from graph.models.describe import describe_model, describe_model_error
from graph.models.providers import model_timeout_s


def invoke_model(
    model: BaseChatModel, bound: Runnable[Any, BaseMessage], messages: Sequence[AnyMessage]
) -> BaseMessage:
    """`bound` (the model with its tools) on `messages`; a remote model gets AGENT_MODEL_TIMEOUT.

    In-process models (the policy, scripted and callable models) answer at once, so they run
    on the caller's thread without a deadline.
    """
    if isinstance(model, InProcessChatModel):
        return bound.invoke(list(messages))
    return call_within(
        lambda: bound.invoke(list(messages)), model_timeout_s(), describe_model(model)
    )


def failure_text(error: BaseException, model: BaseChatModel | None) -> str | None:
    """One line naming the model server for a remote model's failure (None for the others)."""
    if model is None or isinstance(model, InProcessChatModel):
        return None
    return describe_model_error(error, model)
