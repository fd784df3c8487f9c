"""A fixture web: small websites served by a real HTTP server on 127.0.0.1.

Each directory under ``tests/sites/web/`` is one website with its own origin
(its own port), so "another origin" is a real cross-origin navigation. Pages
are static files; the behaviours a page needs from a server are the dynamic
paths under ``/_/`` that every site answers:

``/_/delay?ms=N&type=T&body=B``
    answers ``body`` after ``ms`` milliseconds (data a page is still loading).
``/_/hold?s=N``
    keeps the request open ``s`` seconds, sending nothing (long polling).
``/_/stream?s=N``
    an event stream that sends a comment line every second for ``s`` seconds.
``/_/redirect?to=URL&status=302``
    redirects anywhere, another origin or a private address included.
``/_/press?control=NAME`` (GET or POST)
    records that a control was pressed; pages call it from their buttons.
``/_/echo`` (POST)
    records a submitted form (field names only are kept for assertions that
    must not see values; tests that need values read ``submissions``).
``/_/pdf?name=N&lines=A|B|C``
    a small real PDF showing one line per ``|``-separated text, sent as an
    attachment named ``N`` (documents a collection downloads).

Sign-in behaviours (``/_/login``, ``/_/identify``, ``/_/code``,
``/_/goto-site``, ``/_/sso-return``) and the ``/private/`` area that needs a
session cookie are described in :mod:`tests.sites.fixture_web_signin`.

Tests read what happened with :meth:`FixtureSite.presses`,
:meth:`FixtureSite.requests` and :meth:`FixtureSite.submissions`.
"""

from __future__ import annotations

import json
import mimetypes
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.sites import fixture_web_signin

WEB_ROOT = Path(__file__).parent / "web"
MAX_HOLD_SECONDS = 60.0


@dataclass
class _Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: list[tuple[str, str]] = field(default_factory=list)
    presses: list[str] = field(default_factory=list)
    submissions: list[dict[str, list[str]]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    server: _SiteServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the per-site log keeps what tests need."""

    def do_GET(self) -> None:
        self._answer("GET", b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._answer("POST", self.rfile.read(min(length, 1_000_000)))

    def _answer(self, method: str, body: bytes) -> None:
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        log = self.server.log
        with log.lock:
            log.requests.append((method, parts.path))
        if parts.path.startswith("/_/"):
            self._dynamic(parts.path[3:], query, body)
        elif fixture_web_signin.guard_private(self, parts.path):
            return
        else:
            self._static(parts.path)

    def _send(self, status: int, content: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(content)

    def _static(self, path: str) -> None:
        relative = path.lstrip("/") or "index.html"
        if relative.endswith("/"):
            relative += "index.html"
        root = self.server.root.resolve()
        target = (root / relative).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            self._send(404, b"<!doctype html><title>Not found</title><h1>Not found</h1>", "text/html; charset=utf-8")
            return
        content_type = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type in {"application/javascript", "application/json"}:
            content_type += "; charset=utf-8"
        self._send(200, target.read_bytes(), content_type)

    def _dynamic(self, name: str, query: dict[str, str], body: bytes) -> None:
        log = self.server.log
        if name == "delay":
            time.sleep(min(float(query.get("ms", "0")) / 1000, MAX_HOLD_SECONDS))
            self._send(200, query.get("body", "").encode(), query.get("type", "text/plain; charset=utf-8"))
        elif name == "hold":
            self._hold(float(query.get("s", "30")))
        elif name == "stream":
            self._stream(float(query.get("s", "30")))
        elif name == "redirect":
            status = int(query.get("status", "302"))
            self._send(status, b"", "text/plain", {"Location": query.get("to", "/")})
        elif name == "press":
            with log.lock:
                log.presses.append(query.get("control", ""))
            self._send(200, b"{}", "application/json")
        elif name == "pdf":
            self._pdf(query)
        elif name == "echo":
            with log.lock:
                log.submissions.append(parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True))
            self._send(200, b"<!doctype html><title>Received</title><p>Received.</p>", "text/html; charset=utf-8")
        elif name in fixture_web_signin.BEHAVIOURS:
            fixture_web_signin.BEHAVIOURS[name](self, query, body)
        else:
            self._send(404, b"unknown behaviour", "text/plain")

    def _pdf(self, query: dict[str, str]) -> None:
        from tests.runtime.quotes import pdf_with_lines

        lines = tuple(line for line in query.get("lines", "").split("|") if line)
        name = query.get("name", "document.pdf").replace('"', "")
        with self.server.log.lock:
            self.server.log.presses.append(f"pdf:{name}")
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        self._send(200, pdf_with_lines(lines), "application/pdf", disposition)

    def _hold(self, seconds: float) -> None:
        deadline = time.monotonic() + min(seconds, MAX_HOLD_SECONDS)
        while time.monotonic() < deadline and not self.server.stopping.is_set():
            time.sleep(0.05)
        self._send(200, b"{}", "application/json")

    def _stream(self, seconds: float) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        deadline = time.monotonic() + min(seconds, MAX_HOLD_SECONDS)
        try:
            while time.monotonic() < deadline and not self.server.stopping.is_set():
                self.wfile.write(b": still here\n\n")
                self.wfile.flush()
                time.sleep(1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


class _SiteServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = root
        self.log = _Log()
        self.stopping = threading.Event()
        self.signin = fixture_web_signin.SignInState()
        self.web: Any = None  # the FixtureWeb it belongs to, for redirects to sibling sites


@dataclass
class FixtureSite:
    """One website of the fixture web, with its own origin."""

    name: str
    server: _SiteServer

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return self.origin + (path if path.startswith("/") else "/" + path)

    def presses(self) -> list[str]:
        with self.server.log.lock:
            return list(self.server.log.presses)

    def requests(self) -> list[tuple[str, str]]:
        with self.server.log.lock:
            return list(self.server.log.requests)

    def submissions(self) -> list[dict[str, list[str]]]:
        with self.server.log.lock:
            return [dict(submission) for submission in self.server.log.submissions]

    def logins(self) -> list[dict[str, Any]]:
        """Sign-in attempts the server checked: field names and whether they succeeded, never values."""
        with self.server.signin.lock:
            return [dict(attempt) for attempt in self.server.signin.logins]

    def current_code(self) -> str:
        """The one-time code the server generated at the last successful password check."""
        with self.server.signin.lock:
            return self.server.signin.code

    def forget(self) -> None:
        """Clear the logs, so a test sees only its own traffic."""
        with self.server.log.lock:
            self.server.log.requests.clear()
            self.server.log.presses.clear()
            self.server.log.submissions.clear()
        with self.server.signin.lock:
            self.server.signin.logins.clear()
            self.server.signin.sessions.clear()


class FixtureWeb:
    """Every site under ``tests/sites/web/``, each started on first use."""

    def __init__(self, root: Path = WEB_ROOT) -> None:
        self._root = root
        self._sites: dict[str, FixtureSite] = {}
        self._lock = threading.Lock()

    def site(self, name: str) -> FixtureSite:
        with self._lock:
            if name not in self._sites:
                directory = self._root / name
                if not directory.is_dir():
                    raise LookupError(f"no fixture website {name!r} under {self._root}")
                server = _SiteServer(directory)
                server.web = self
                threading.Thread(target=server.serve_forever, name=f"fixture-web-{name}", daemon=True).start()
                self._sites[name] = FixtureSite(name, server)
            site = self._sites[name]
        return site

    def fresh(self, name: str) -> FixtureSite:
        """The site ``name`` with its logs cleared, for a test that reads only its own traffic."""
        site = self.site(name)
        site.forget()
        return site

    def names(self) -> list[str]:
        return sorted(path.name for path in self._root.iterdir() if path.is_dir())

    def close(self) -> None:
        with self._lock:
            for site in self._sites.values():
                site.server.stopping.set()
                site.server.shutdown()
                site.server.server_close()
            self._sites.clear()


def serve_fixture_web() -> Iterator[FixtureWeb]:
    web = FixtureWeb()
    try:
        yield web
    finally:
        web.close()


def as_json(value: object) -> str:
    """A value for ``/_/delay?body=``: pages that fetch JSON use it."""
    return json.dumps(value, separators=(",", ":"))


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
