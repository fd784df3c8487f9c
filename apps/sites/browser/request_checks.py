"""The one check every browser request passes: mandate, scheme, address, outside hosts.

Navigations of a page's main frame — the first page, links, popups and new
tabs alike — must go to an authorized website. Sub-resources and frames may
come from the authorized websites, or from outside hosts as
``METNOS_SITES_OUTSIDE_REQUESTS`` says. Every host must resolve only to
allowed addresses (:mod:`apps.sites.browser.network`). A request that passes has its
host approved at the session's guard proxy, which is what lets the browser
connect at all. The authorized websites are approved when the session opens
(:meth:`RequestChecker.approve_websites`), so a redirect between them — a
single sign-on hop — reaches one the session has not visited yet.

A refusal is recorded as a counter named from closed sets —
``<kind>.<reason>[.<comparison>]`` — never with the address or page data.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from apps.sites.browser.guard_proxy import GuardProxy
from apps.sites.browser.network import AddressRefusal, AddressRefused, IPAddress, NetworkGuard
from apps.sites.browser.websites import AuthorizedWebsites, InvalidOrigin, Origin, origin_of

RequestKind = Literal["navigation", "redirect", "subresource"]
RequestRefusal = Literal["scheme", "not_authorized", "outside_host", "session_ended"] | AddressRefusal

# Names resolve again at the proxy when the browser connects; this cache only
# spares a lookup per sub-resource.
_RESOLUTION_CACHE_SECONDS = 30.0
# Navigations that are harmless wherever they happen.
HARMLESS_NAVIGATIONS = frozenset({"about:blank"})


@dataclass(frozen=True)
class Refusal:
    kind: RequestKind
    reason: RequestRefusal
    comparison: str | None = None

    @property
    def counter(self) -> str:
        return ".".join(part for part in (self.kind, self.reason, self.comparison) if part)


class RequestChecker:
    """Decides each request of one session and keeps the refusal counters."""

    def __init__(self, *, websites: AuthorizedWebsites, guard: NetworkGuard, proxy: GuardProxy) -> None:
        self.websites = websites
        self._guard = guard
        self._proxy = proxy
        self._lock = threading.Lock()
        self._refusals: Counter[str] = Counter()
        self._resolved: dict[str, tuple[float, list[IPAddress]]] = {}
        self.ended = threading.Event()

    def check(self, url: str, kind: RequestKind) -> Refusal | None:
        """``None`` when the request may go (and its host is approved), else the refusal, counted."""
        refusal = self._decide(url, kind)
        if refusal is not None:
            self.count(refusal)
        return refusal

    def approve_websites(self) -> None:
        """Approve every authorized website at the proxy, after the checks a navigation passes.

        Chromium follows redirects without asking the route check, and the proxy
        lets through only approved hosts: without this, a single sign-on redirect
        to an authorized website not visited yet would be refused. A website
        refused here (its name resolves to a refused address) stays unapproved
        and is refused, and counted, when something actually asks for it.
        """
        for origin in sorted(self.websites.origins):
            self._decide(f"{origin}/", "navigation")

    def count(self, refusal: Refusal) -> None:
        with self._lock:
            self._refusals[refusal.counter] += 1

    def refusals(self) -> dict[str, int]:
        """Refusals of this session: request checks plus connections the proxy refused."""
        with self._lock:
            counts = Counter(self._refusals)
        for reason, number in self._proxy.refusals().items():
            counts[f"connection.{reason}"] += number
        return dict(counts)

    def _decide(self, url: str, kind: RequestKind) -> Refusal | None:
        if self.ended.is_set():
            return Refusal(kind, "session_ended")
        if kind != "subresource" and url in HARMLESS_NAVIGATIONS:
            return None
        try:
            origin = origin_of(url)
        except InvalidOrigin:
            return Refusal(kind, "scheme")
        if origin.scheme not in ("http", "https"):
            return Refusal(kind, "scheme")
        authorized = origin in self.websites.origins
        if kind != "subresource" and not authorized:
            return Refusal(kind, "not_authorized", self.websites.compare(url))
        try:
            addresses = self._resolve(origin.host)
        except AddressRefused as refused:
            return Refusal(kind, refused.reason)
        if not authorized and not self._outside_allowed(addresses):
            return Refusal(kind, "outside_host")
        self._approve(origin)
        return None

    def _outside_allowed(self, addresses: list[IPAddress]) -> bool:
        policy = self._guard.outside_requests
        if policy == "any":
            return True
        return policy == "opened" and self._guard.all_opened(addresses)

    def _approve(self, origin: Origin) -> None:
        self._proxy.approve(origin.host, origin.port)

    def _resolve(self, host: str) -> list[IPAddress]:
        now = time.monotonic()
        with self._lock:
            cached = self._resolved.get(host)
        if cached is not None and now - cached[0] < _RESOLUTION_CACHE_SECONDS:
            return cached[1]
        addresses = self._guard.resolve(host)
        with self._lock:
            self._resolved[host] = (now, addresses)
        return addresses
