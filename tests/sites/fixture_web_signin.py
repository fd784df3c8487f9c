"""Sign-in behaviours of the fixture web: credentials checked by the server.

A site that signs people in has a ``credentials.json`` in its directory::

    {"username": "...", "password": "...",          # what the server accepts
     "login_page": "/login.html",                   # where /private/ sends strangers
     "account": "/private/account.html",            # where a signed-in visitor lands
     "failure": "/login-error.html",                # where a wrong password lands
     "code_page": "/code.html",                     # optional: a one-time code step
     "totp_seed": "BASE32",                         # optional: the code is this seed's TOTP
     "code_chars": "0123456789", "code_length": 6,  # optional: how codes are made
     "after_login": "site:NAME:/_/sso-return"}      # optional: single sign-on back to site NAME

Dynamic paths (all sites):

``POST /_/login[?reply=json&delay_ms=N]``
    checks the user (``username``/``email``/``user``/``login`` or the cookie
    ``/_/identify`` set) and the password (``password``/``pw``/``pass``).
    Success sets a session cookie (or, with a code step, a pending cookie and a
    fresh code) and redirects; failure redirects to the failure page. With
    ``reply=json`` it answers ``{"next": address}`` after ``delay_ms``.
``POST /_/identify?next=P``
    the first step of a two-step form: remembers the user, goes to ``P``.
``POST /_/code``
    the code step: every field whose name starts with ``code``/``d``/``otp``,
    joined in order, against the code generated at login.
``GET /_/goto-site?site=NAME&path=P``
    a redirect to another site of the fixture web (single sign-on starts).
``GET /_/maze?at=ROOM``
    six ways in of different strengths, each to another room: a search that never ends by itself.
``GET /_/sso-return?ticket=T``
    accepts a ticket issued by another site's ``after_login`` and signs in here.

Files under ``/private/`` need a valid session cookie; without one the
server redirects to the login page. Tests read ``FixtureSite.logins()`` (field
names and whether the attempt succeeded, never values) and
``FixtureSite.current_code()``.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

from apps.vault.totp import totp_code

SESSION_COOKIE = "fixture_session"
PENDING_COOKIE = "fixture_pending"
USER_COOKIE = "fixture_user"
USER_FIELDS = ("username", "email", "user", "login", "identifier")
PASSWORD_FIELDS = ("password", "pw", "pass", "passwd")
CODE_PREFIXES = ("code", "otp", "d")
MAX_DELAY_SECONDS = 30.0


@dataclass
class SignInState:
    """One site's server-side sign-in state."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    sessions: set[str] = field(default_factory=set)
    pending: set[str] = field(default_factory=set)
    code: str = ""
    logins: list[dict[str, Any]] = field(default_factory=list)


# Tickets of single sign-on, shared by every site of the process.
_TICKETS: set[str] = set()
_TICKETS_LOCK = threading.Lock()


def settings_of(root: Path) -> dict[str, Any]:
    path = root / "credentials.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def cookies_of(handler: Any) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    jar.load(handler.headers.get("Cookie") or "")
    return {name: morsel.value for name, morsel in jar.items()}


def signed_in(handler: Any) -> bool:
    state: SignInState = handler.server.signin
    with state.lock:
        return cookies_of(handler).get(SESSION_COOKIE, "") in state.sessions


def _cookie(name: str, value: str) -> str:
    return f"{name}={value}; Path=/; HttpOnly; SameSite=Lax"


def _redirect(handler: Any, to: str, cookies: tuple[str, ...] = ()) -> None:
    handler.send_response(303)
    handler.send_header("Location", to)
    handler.send_header("Content-Length", "0")
    handler.send_header("Cache-Control", "no-store")
    for cookie in cookies:
        handler.send_header("Set-Cookie", cookie)
    handler.end_headers()


def _form(body: bytes) -> list[tuple[str, str]]:
    text = body.decode("utf-8", "replace")
    if text.startswith("{"):
        try:
            return [(str(key), str(value)) for key, value in json.loads(text).items()]
        except ValueError:
            return []
    return parse_qsl(text, keep_blank_values=True)


def _first(fields: list[tuple[str, str]], names: tuple[str, ...]) -> str | None:
    return next((value for name, value in fields if name.casefold() in names), None)


def _after_login(handler: Any, settings: dict[str, Any]) -> str:
    target = str(settings.get("after_login", ""))
    if target.startswith("site:"):
        _, site, path = target.split(":", 2)
        ticket = secrets.token_hex(8)
        with _TICKETS_LOCK:
            _TICKETS.add(ticket)
        destination = handler.server.web.site(site).url(f"{path}?ticket={ticket}")
        interstitial = settings.get("interstitial")
        return f"{interstitial}?to={quote(destination, safe='')}" if interstitial else destination
    return str(settings.get("account", "/private/account.html"))


def login(handler: Any, query: dict[str, str], body: bytes) -> None:
    state: SignInState = handler.server.signin
    settings = settings_of(handler.server.root)
    fields = _form(body)
    user = _first(fields, USER_FIELDS) or cookies_of(handler).get(USER_COOKIE, "")
    password = _first(fields, PASSWORD_FIELDS) or ""
    ok = secrets.compare_digest(user, str(settings.get("username", ""))) and secrets.compare_digest(
        password, str(settings.get("password", "\0"))
    )
    with state.lock:
        state.logins.append({"ok": ok, "fields": sorted(name for name, _ in fields)})
    cookies: tuple[str, ...] = ()
    if not ok:
        target = str(settings.get("failure", "/"))
    elif settings.get("code_page"):
        token = secrets.token_hex(8)
        with state.lock:
            state.pending.add(token)
            alphabet = str(settings.get("code_chars", "0123456789"))
            state.code = "".join(secrets.choice(alphabet) for _ in range(int(settings.get("code_length", 6))))
        cookies, target = (_cookie(PENDING_COOKIE, token),), str(settings["code_page"])
    else:
        token = secrets.token_hex(8)
        with state.lock:
            state.sessions.add(token)
        cookies, target = (_cookie(SESSION_COOKIE, token),), _after_login(handler, settings)
    if query.get("reply") == "json":
        time.sleep(min(float(query.get("delay_ms", "0")) / 1000, MAX_DELAY_SECONDS))
        answer = json.dumps({"next": target} if ok else {"error": "Wrong password. Please try again."}).encode()
        headers = {"Set-Cookie": cookies[0]} if cookies else {}
        handler._send(200 if ok else 401, answer, "application/json", headers)
        return
    _redirect(handler, target, cookies)


def identify(handler: Any, query: dict[str, str], body: bytes) -> None:
    user = _first(_form(body), USER_FIELDS) or ""
    _redirect(handler, query.get("next", "/"), (_cookie(USER_COOKIE, quote(user, safe="@.")),))


def code(handler: Any, query: dict[str, str], body: bytes) -> None:
    state: SignInState = handler.server.signin
    settings = settings_of(handler.server.root)
    given = "".join(value for name, value in _form(body) if name.casefold().startswith(CODE_PREFIXES))
    pending = cookies_of(handler).get(PENDING_COOKIE, "")
    seed = settings.get("totp_seed")
    with state.lock:
        expected = totp_code(str(seed)) if seed else state.code
        ok = bool(expected) and pending in state.pending and secrets.compare_digest(given, expected)
        state.logins.append({"ok": ok, "fields": ["code"]})
        token = secrets.token_hex(8)
        if ok:
            state.pending.discard(pending)
            state.sessions.add(token)
    if ok:
        _redirect(handler, _after_login(handler, settings), (_cookie(SESSION_COOKIE, token),))
    else:
        _redirect(handler, str(settings.get("code_page", "/")) + "?error=1")


def goto_site(handler: Any, query: dict[str, str], body: bytes) -> None:
    _redirect(handler, handler.server.web.site(query.get("site", "")).url(query.get("path", "/")))


def sso_return(handler: Any, query: dict[str, str], body: bytes) -> None:
    state: SignInState = handler.server.signin
    settings = settings_of(handler.server.root)
    with _TICKETS_LOCK:
        ok = query.get("ticket", "") in _TICKETS
        _TICKETS.discard(query.get("ticket", ""))
    if not ok:
        _redirect(handler, str(settings.get("login_page", "/")))
        return
    token = secrets.token_hex(8)
    with state.lock:
        state.sessions.add(token)
    _redirect(handler, str(settings.get("account", "/private/account.html")), (_cookie(SESSION_COOKIE, token),))


def maze(handler: Any, query: dict[str, str], body: bytes) -> None:
    """A page of six ways in, each with its own strength of signal, leading to six more: never a form."""
    room = query.get("at", "0")[:80]

    def link(number: int, label: str) -> str:
        return f'<a href="/_/maze?at={room}.{number}">{label}</a>'

    page = (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Room {room}</title></head><body>"
        f'<nav aria-label="Sign in">{link(1, "Sign in")} {link(3, "Sign in today")} {link(5, "Profile")}</nav>'
        f"<main><h1>Room {room}</h1>{link(2, 'Sign in')} {link(4, 'Sign in today')} {link(6, 'Profile')}</main>"
        "</body></html>"
    )
    handler._send(200, page.encode(), "text/html; charset=utf-8")


BEHAVIOURS = {
    "maze": maze, "login": login, "identify": identify, "code": code, "goto-site": goto_site, "sso-return": sso_return,
}  # fmt: skip


def guard_private(handler: Any, path: str) -> bool:
    """Send strangers from ``/private/`` to the login page; True when the request was answered."""
    if not path.startswith("/private/") or signed_in(handler):
        return False
    _redirect(handler, str(settings_of(handler.server.root).get("login_page", "/")))
    return True
