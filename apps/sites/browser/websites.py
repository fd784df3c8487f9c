"""Authorized websites: the origins a browser session may navigate to.

A turn's mandate names the origins its credential may be used on; a plan may
declare the one site it works on. Either way the session receives an
:class:`AuthorizedWebsites` and checks every navigation, popup and new tab
against it. An origin is compared exactly: scheme, host and port.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from apps.runtime.executor import Mandate

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
# A WebSocket belongs to the website of the same host and security.
_WEB_SCHEME = {"ws": "http", "wss": "https"}

# How a refused address compares with the authorized origins: a closed set,
# so a refusal record says "same host, other port" without naming either.
OriginComparison = Literal["same_host_other_port", "same_host_other_scheme", "other_host"]


class InvalidOrigin(ValueError):
    """Not an http(s) address with a host."""


@dataclass(frozen=True, order=True)
class Origin:
    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if self.port == _DEFAULT_PORTS[self.scheme]:
            return f"{self.scheme}://{host}"
        return f"{self.scheme}://{host}:{self.port}"


def origin_of(url: str) -> Origin:
    """The origin of an http(s) or ws(s) address; :class:`InvalidOrigin` otherwise."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
        host = parts.hostname
    except ValueError:
        raise InvalidOrigin("not a valid address") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not host:
        raise InvalidOrigin("not a website address")
    try:
        host = host.encode("idna").decode("ascii").lower().rstrip(".")
    except UnicodeError:
        raise InvalidOrigin("unusable host name") from None
    scheme = _WEB_SCHEME.get(scheme, scheme)
    return Origin(scheme, host, port if port is not None else _DEFAULT_PORTS[scheme])


@dataclass(frozen=True)
class AuthorizedWebsites:
    """The origins a session may navigate to; empty authorizes nothing."""

    origins: frozenset[Origin]

    @classmethod
    def of(cls, addresses: Iterable[str]) -> AuthorizedWebsites:
        """From addresses or origins, e.g. a mandate's ``authorised_origins`` or a plan's site."""
        return cls(frozenset(origin_of(address) for address in addresses))

    @classmethod
    def from_mandate(cls, mandate: Mandate) -> AuthorizedWebsites:
        """The origins a turn's mandate grants credentials on; none for a turn without a mandate."""
        return cls.of(mandate.authorised_origins)

    def allows(self, url: str) -> bool:
        try:
            return origin_of(url) in self.origins
        except InvalidOrigin:
            return False

    def compare(self, url: str) -> OriginComparison:
        """How ``url`` misses the authorized origins (meaningful only when it does)."""
        try:
            origin = origin_of(url)
        except InvalidOrigin:
            return "other_host"
        same_host = [allowed for allowed in self.origins if allowed.host == origin.host]
        if any(allowed.scheme == origin.scheme for allowed in same_host):
            return "same_host_other_port"
        return "same_host_other_scheme" if same_host else "other_host"

    def hosts(self) -> frozenset[tuple[str, int]]:
        return frozenset((origin.host, origin.port) for origin in self.origins)

    def __str__(self) -> str:
        return ", ".join(str(origin) for origin in sorted(self.origins))
