"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests.

Each request consumes the next script entry:
    {"tool": name, "args": {...} or "raw string", "content": "thought"}   a tool call
    {"answer": "text"}                                                    a plain answer
    {"status": 429, "headers": {"Retry-After": "0"}}                      an HTTP error
    {"hang": seconds}                                                     no reply in time
    {"body": {...}} or {"raw": "text"}                                    this exact 200 body
    {"drip": seconds, "answer": "text"}                                   the body 1 byte at a time
Like llama.cpp's server, it is strict: an assistant message with null content gets a 400.
A request with `"stream": true` gets the same reply as server-sent chunks (the content a
word at a time, then the tool call), as a real streaming server sends it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeOpenAI:
    """The script, the requests seen, and the server's base URL."""

    def __init__(self, script: list[dict[str, Any]]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.base_url = ""
        self._lock = threading.Lock()

    def next_entry(self, body: dict[str, Any]) -> dict[str, Any]:
        """Record a request and take the next entry (a 500 when the script is used up)."""
        with self._lock:
            self.requests.append(body)
            if not self.script:
                return {"status": 500, "message": "script exhausted"}
            return self.script.pop(0)


def completion(entry: dict[str, Any], index: int) -> dict[str, Any]:
    """A chat.completion body for a tool-call or answer entry."""
    message: dict[str, Any] = {"role": "assistant", "content": entry.get("content")}
    finish = "stop"
    if "tool" in entry:
        args = entry.get("args", {})
        arguments = args if isinstance(args, str) else json.dumps(args)
        message["tool_calls"] = [
            {
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": entry["tool"], "arguments": arguments},
            }
        ]
        finish = "tool_calls"
    else:
        message["content"] = entry.get("answer", "")
    return {
        "id": f"chatcmpl-{index}",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def stream_chunks(body: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """The `chat.completion.chunk`s of a streamed reply: content word by word, then tool call."""
    choice = body["choices"][0]
    message, finish = choice["message"], choice["finish_reason"]
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    words = (message.get("content") or "").split(" ")
    deltas += [{"content": w + (" " if i < len(words) - 1 else "")} for i, w in enumerate(words)]
    deltas += [
        {"tool_calls": [dict(call, index=i)]}
        for i, call in enumerate(message.get("tool_calls") or [])
    ]
    head = {
        "id": f"chatcmpl-{index}",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake",
    }
    chunks = [dict(head, choices=[{"index": 0, "delta": d, "finish_reason": None}]) for d in deltas]
    chunks.append(dict(head, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]))
    chunks.append(dict(head, choices=[], usage=body["usage"]))
    return chunks


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output quiet
            return

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
            self._send_bytes(status, json.dumps(body).encode(), headers)

        def _send_bytes(
            self, status: int, data: bytes, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _drip(self, body: dict[str, Any], every_s: float) -> None:
            """Send the headers, then the body one byte every `every_s` seconds."""
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                for index in range(len(data)):
                    self.wfile.write(data[index : index + 1])
                    self.wfile.flush()
                    time.sleep(every_s)
            except OSError:  # the client gave up: that is the point
                return

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            if not self.path.endswith("/chat/completions"):
                self._send(404, {"error": {"message": "not found"}}, {})
                return
            for message in body.get("messages", []):
                if message.get("role") == "assistant" and message.get("content") is None:
                    fake.requests.append(body)
                    self._send(
                        400, {"error": {"message": "assistant content must not be null"}}, {}
                    )
                    return
            entry = fake.next_entry(body)
            if "hang" in entry:
                time.sleep(entry["hang"])
                return
            if "drip" in entry:
                self._drip(completion(entry, len(fake.requests)), float(entry["drip"]))
                return
            if "raw" in entry or "body" in entry:
                raw = entry.get("raw")
                data = raw.encode() if isinstance(raw, str) else json.dumps(entry["body"]).encode()
                self._send_bytes(200, data)
                return
            if "status" in entry:
                error = {
                    "error": {
                        "message": entry.get("message", "scripted error"),
                        "type": "server_error",
                    }
                }
                self._send(entry["status"], error, entry.get("headers", {}))
                return
            reply = completion(entry, len(fake.requests))
            if body.get("stream"):
                self._send_stream(stream_chunks(reply, len(fake.requests)))
                return
            self._send(200, reply, {})

        def _send_stream(self, chunks: list[dict[str, Any]]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")

    return Handler


@contextmanager
def fake_openai(script: list[dict[str, Any]]) -> Iterator[FakeOpenAI]:
    """Serve `script` on a free 127.0.0.1 port for the duration of the block."""
    fake = FakeOpenAI(script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
