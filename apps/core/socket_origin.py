"""The WebSocket's Origin check: the page must come from the portal's own address.

Channels' ``AllowedHostsOriginValidator`` compares host names only, so a page
served from another port (or over the other scheme) of the same host could
open the socket with the user's cookies. Here the Origin's scheme, host and
port must equal those of an origin the portal trusts: ``METNOS_PUBLIC_URL``
and ``METNOS_CSRF_TRUSTED_ORIGINS``, the ``CSRF_TRUSTED_ORIGINS`` setting,
where ``https://*.example.org`` stands for its subdomains. A missing or
opaque (``null``) Origin is refused.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]  # scheme, lower-case host, port


def parse_origin(value: str) -> Origin | None:
    """``value``'s scheme, host and port (the scheme's default port when none is written), or None."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host or parts.username or parts.password:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def origin_is_trusted(value: str | None) -> bool:
    """Whether a page from Origin ``value`` may open the socket."""
    origin = parse_origin(value) if value else None
    if origin is None:
        return False
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        trusted = parse_origin(entry)
        if trusted is None or (trusted[0], trusted[2]) != (scheme, port):
            continue
        trusted_host = trusted[1]
        if host == trusted_host or (trusted_host.startswith("*.") and host.endswith(trusted_host[1:])):
            return True
    return False


class PortalOriginValidator:
    """ASGI middleware: WebSockets from pages of the portal's own origin pass, others are refused."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        origin = next((value for name, value in scope.get("headers", ()) if name == b"origin"), None)
        text = origin.decode("latin-1") if origin is not None else None
        if origin_is_trusted(text):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
