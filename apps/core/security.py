"""Security headers: Content-Security-Policy for every response, ``no-store`` for a signed-in user's.

The portal's pages load scripts and styles only from Metnos itself (vendored
under ``static/``), never inline, so the policy needs no ``unsafe-inline``.

Every answer to an authenticated request (a session or a device token) —
portal pages, the REST API, downloads of the owner's files, error answers —
carries ``Cache-Control: no-store`` and ``Pragma: no-cache``, so no browser
or proxy keeps a copy of someone's data. Static files are served by
WhiteNoise before authentication and keep their caching.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response


NO_STORE = "no-store"


class NoStoreForAuthenticatedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Set by the authentication middleware, and by DRF for a device token; absent for static files.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if NO_STORE not in response.headers.get("Cache-Control", ""):
                response.headers["Cache-Control"] = NO_STORE
            response.headers["Pragma"] = "no-cache"
        return response
