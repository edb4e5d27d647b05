"""Transient-failure injection for tests: a tool that times out or is rate-limited N times.

``flaky(target, failures=2, kind="rate_limit")`` wraps a LangChain tool (or any callable) so
that its first ``failures`` calls raise (``TimeoutError`` or ``RateLimited``, a 429) without
reaching the target, and every later call behaves exactly like the target. ``calls`` counts
every call, failed or not.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, Literal, TypeVar

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import ConfigDict, PrivateAttr

FaultKind = Literal["timeout", "rate_limit"]
R = TypeVar("R")


class RateLimited(Exception):
    """A 429 Too Many Requests from a service; transient, worth one retry."""

    status_code = 429

    def __init__(self, message: str = "429 Too Many Requests", retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def make_fault(kind: FaultKind, name: str, call: int) -> Exception:
    """Build the exception for failed call number ``call`` (1-based) of ``name``."""
    if kind == "timeout":
        return TimeoutError(f"{name} timed out (injected fault, call {call})")
    if kind == "rate_limit":
        return RateLimited(f"{name}: 429 Too Many Requests (injected fault, call {call})")
    raise ValueError(f"unknown fault kind {kind!r}; expected 'timeout' or 'rate_limit'")


class _Counter:
    """Counts calls and decides, under a lock, whether this call fails."""

    def __init__(self, failures: int, kind: FaultKind, name: str) -> None:
        if failures < 0:
            raise ValueError(f"failures must be >= 0, got {failures}")
        make_fault(kind, name, 0)  # reject an unknown kind now, not on the first call
        self.failures = failures
        self.kind: FaultKind = kind
        self.name = name
        self.calls = 0
        self._lock = threading.Lock()

    def tick(self) -> None:
        """Count one call; raise the injected fault while failures remain."""
        with self._lock:
            self.calls += 1
            call = self.calls
        if call <= self.failures:
            raise make_fault(self.kind, self.name, call)


class FlakyTool(BaseTool):
    """A LangChain tool that fails ``failures`` times, then delegates to ``inner``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseTool
    """The tool that answers once the injected failures are used up."""
    _counter: _Counter = PrivateAttr()

    def __init__(self, inner: BaseTool, failures: int = 1, kind: FaultKind = "timeout") -> None:
        super().__init__(
            name=inner.name,
            description=inner.description,
            args_schema=inner.args_schema,
            response_format=inner.response_format,
            inner=inner,
        )
        self._counter = _Counter(failures, kind, inner.name)

    @property
    def calls(self) -> int:
        """Calls made so far, failed ones included."""
        return self._counter.calls

    @property
    def failures(self) -> int:
        """How many calls fail before the tool behaves normally."""
        return self._counter.failures

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Fail while injected failures remain, else invoke the wrapped tool."""
        self._counter.tick()
        return self.inner.invoke(input, config, **kwargs)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Async twin of ``invoke``."""
        self._counter.tick()
        return await self.inner.ainvoke(input, config, **kwargs)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        """Unused: ``invoke`` is overridden; kept because BaseTool requires it."""
        raise NotImplementedError("FlakyTool is called through invoke/ainvoke")


class FlakyCallable(Generic[R]):
    """A plain callable that fails ``failures`` times, then delegates to ``inner``."""

    def __init__(
        self, inner: Callable[..., R], failures: int = 1, kind: FaultKind = "timeout"
    ) -> None:
        self.inner = inner
        self._counter = _Counter(failures, kind, getattr(inner, "__name__", repr(inner)))

    @property
    def calls(self) -> int:
        """Calls made so far, failed ones included."""
        return self._counter.calls

    @property
    def failures(self) -> int:
        """How many calls fail before the callable behaves normally."""
        return self._counter.failures

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        """Fail while injected failures remain, else call the wrapped callable."""
        self._counter.tick()
        return self.inner(*args, **kwargs)


def flaky(
    target: BaseTool | Callable[..., Any], failures: int = 1, kind: FaultKind = "timeout"
) -> FlakyTool | FlakyCallable[Any]:
    """Wrap a tool or callable so its first ``failures`` calls raise a transient error."""
    if isinstance(target, BaseTool):
        return FlakyTool(target, failures=failures, kind=kind)
    if callable(target):
        return FlakyCallable(target, failures=failures, kind=kind)
    raise TypeError(f"cannot wrap {type(target).__name__}: not a tool or a callable")


__all__ = [
    "FaultKind",
    "FlakyCallable",
    "FlakyTool",
    "RateLimited",
    "flaky",
    "make_fault",
]
