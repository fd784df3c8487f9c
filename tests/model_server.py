"""A scripted OpenAI-compatible model server on loopback, for every test that needs a model.

It is a real HTTP server (``ThreadingHTTPServer`` on ``127.0.0.1``, a random
port, a background thread) so tests exercise the real client, sockets and
timeouts. It never contacts the network. Replies are scripted in order::

    server.script({"supplier": "Acme"})                 # JSON content
    server.script("plain text", finish_reason="length")  # a truncated reply
    server.script(status=500)                            # a server error
    server.script("late", delay=2.0)                     # a slow reply
    server.script(raw_body=b"not json")                  # a broken server

and every request received is kept in ``server.requests`` (method, path,
lower-cased headers, raw body, parsed JSON) for assertions such as "this
canary appears in no request body". A chat request with nothing scripted gets
a 500 and is counted in ``server.unscripted``.

Use it as a context manager or through the ``scripted_model_server`` fixture
(import it into the test module, or list this module in ``pytest_plugins``).
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import pytest

from apps.runtime.tiers.config import ModelTier, Secret, TierName

LOOPBACK = "127.0.0.1"
MAX_REQUEST_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class ScriptedReply:
    """One scripted answer to the next chat request."""

    content: str | None
    finish_reason: str | None
    status: int
    delay: float
    raw_body: bytes | None
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    raw_body: bytes

    @property
    def json(self) -> Any:
        """The body parsed as JSON, or ``None`` if it is not JSON."""
        try:
            return json.loads(self.raw_body)
        except ValueError:
            return None

    @property
    def text(self) -> str:
        return self.raw_body.decode("utf-8", errors="replace")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # A handler still sleeping on a slow reply must not hold up stop().
    block_on_close = False
    scripted: ScriptedModelServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # Keep test output clean; requests are recorded instead.

    def _record(self) -> RecordedRequest:
        length = min(int(self.headers.get("Content-Length") or 0), MAX_REQUEST_BYTES)
        raw = self.rfile.read(length) if length else b""
        recorded = RecordedRequest(
            method=self.command,
            path=self.path,
            headers={name.lower(): value for name, value in self.headers.items()},
            raw_body=raw,
        )
        self.server.scripted._record(recorded)
        return recorded

    def _send(self, status: int, body: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # The client gave up (a timeout test); nothing to answer.

    def do_GET(self) -> None:
        self._record()
        if self.path.rstrip("/") != "/v1/models":
            self._send(404, _error_body("not found"))
            return
        model = self.server.scripted.model_id
        self._send(200, json.dumps({"object": "list", "data": [{"id": model, "object": "model"}]}).encode())

    def do_POST(self) -> None:
        recorded = self._record()
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, _error_body("not found"))
            return
        scripted = self.server.scripted
        reply = scripted._next_reply()
        if reply is None:
            self._send(500, _error_body("no scripted reply"))
            return
        if reply.delay and scripted._stopping.wait(reply.delay):
            return
        if reply.raw_body is not None:
            self._send(reply.status, reply.raw_body)
        elif reply.status != 200:
            self._send(reply.status, _error_body(f"scripted status {reply.status}"))
        else:
            self._send(200, _completion_body(reply, recorded, scripted._completion_id()))


def _error_body(message: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": "scripted_error"}}).encode()


def _completion_body(reply: ScriptedReply, request: RecordedRequest, completion_id: str) -> bytes:
    request_body = request.json if isinstance(request.json, dict) else {}
    return json.dumps(
        {
            "id": completion_id,
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": request_body.get("model", "scripted-model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content},
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": reply.prompt_tokens,
                "completion_tokens": reply.completion_tokens,
                "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            },
        }
    ).encode()


class ScriptedModelServer:
    """A loopback OpenAI-compatible server answering from a script. See the module docstring."""

    def __init__(self, *, model_id: str = "scripted-model") -> None:
        self.model_id = model_id
        self._lock = threading.Lock()
        self._replies: deque[ScriptedReply] = deque()
        self._requests: list[RecordedRequest] = []
        self._unscripted = 0
        self._completions = 0
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- Lifecycle ---

    def start(self) -> ScriptedModelServer:
        if self._server is not None:
            return self
        self._stopping.clear()
        server = _Server((LOOPBACK, 0), _Handler)
        server.scripted = self
        self._server = server
        # A short poll interval keeps stop() (and each test's teardown) quick.
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="scripted-model-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()

    # --- Addresses ---

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the scripted model server is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL, e.g. ``http://127.0.0.1:54321/v1``."""
        return f"http://{LOOPBACK}:{self.port}/v1"

    def tier(
        self,
        name: TierName = "planning",
        *,
        cloud: bool = False,
        api_key: str | None = None,
        timeout_seconds: float = 5.0,
        model: str | None = None,
    ) -> ModelTier:
        """A tier pointing at this server (``cloud=True`` to exercise cloud counting)."""
        return ModelTier(
            name=name,
            base_url=self.base_url,
            model=model or self.model_id,
            timeout_seconds=timeout_seconds,
            cloud=cloud,
            api_key=Secret(api_key) if api_key else None,
        )

    def settings_entry(self, *, cloud: bool = False, api_key: str | None = None, timeout: int = 5) -> dict[str, Any]:
        """An entry for ``settings.METNOS_MODEL_TIERS[tier]`` pointing at this server."""
        return {
            "base_url": self.base_url,
            "model": self.model_id,
            "timeout": timeout,
            "cloud": cloud,
            "api_key": api_key,
        }

    # --- Script and record ---

    def script(
        self,
        reply: str | Mapping[str, Any] | list[Any] | None = "",
        finish_reason: str | None = "stop",
        status: int = 200,
        delay: float = 0.0,
        *,
        raw_body: bytes | str | None = None,
        prompt_tokens: int = 11,
        completion_tokens: int = 7,
    ) -> None:
        """Queue the answer to the next chat request.

        ``reply`` becomes the message content: a string as is, a dict or list
        as its JSON text, ``None`` as a null content. ``status`` other than 200
        answers with an OpenAI-style error body; ``raw_body`` answers with
        exactly those bytes (and ``status``); ``delay`` waits that many seconds
        before answering.
        """
        content = reply if reply is None or isinstance(reply, str) else json.dumps(reply)
        raw = raw_body.encode() if isinstance(raw_body, str) else raw_body
        with self._lock:
            self._replies.append(
                ScriptedReply(content, finish_reason, status, delay, raw, prompt_tokens, completion_tokens)
            )

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [request for request in self.requests if request.path.rstrip("/") == "/v1/chat/completions"]

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        with self._lock:
            return len(self._replies)

    @property
    def unscripted(self) -> int:
        """Chat requests that arrived with nothing scripted (answered with 500)."""
        with self._lock:
            return self._unscripted

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_reply(self) -> ScriptedReply | None:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
            self._unscripted += 1
            return None

    def _completion_id(self) -> str:
        with self._lock:
            self._completions += 1
            return f"chatcmpl-scripted-{self._completions}"


def unused_loopback_port() -> int:
    """A loopback port nothing listens on (connections to it are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def scripted_model_server() -> Iterator[ScriptedModelServer]:
    """A running scripted model server, stopped after the test."""
    with ScriptedModelServer() as server:
        yield server
