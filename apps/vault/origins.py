"""Website origins: the exact scheme, host and port a credential may be used on."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from apps.vault.errors import CredentialInvalid
from apps.vault.limits import MAX_ORIGIN_CHARS, MAX_ORIGINS

_DEFAULT_PORTS = {"http": 80, "https": 443}
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$")


def normalise_origin(text: str, *, field: str = "origins") -> str:
    """``https://example.org/login?x`` → ``https://example.org``; a non-default port is kept.

    Raises :class:`CredentialInvalid` for anything that is not an http(s)
    address with a host. Addresses carrying a user or password are refused:
    the vault, not a URL, holds credentials.
    """
    candidate = text.strip()
    if not candidate or len(candidate) > MAX_ORIGIN_CHARS:
        raise CredentialInvalid(field, f"A website address must have 1 to {MAX_ORIGIN_CHARS} characters.")
    try:
        parts = urlsplit(candidate)
        port = parts.port
        host = parts.hostname
    except ValueError:
        raise CredentialInvalid(field, "A website address is not valid.") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise CredentialInvalid(field, "A website address must start with https:// or http://.")
    if parts.username is not None or parts.password is not None:
        raise CredentialInvalid(field, "A website address must not contain a user name or password.")
    if not host:
        raise CredentialInvalid(field, "A website address needs a host name.")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise CredentialInvalid(field, "A website address has a host name that cannot be used.") from None
    if ":" in host:
        host = f"[{host}]"
    elif not _HOST.match(host):
        raise CredentialInvalid(field, "A website address has a host name that cannot be used.")
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def normalise_origins(values: list[str] | tuple[str, ...], *, field: str = "origins") -> list[str]:
    """The distinct origins of ``values`` in their order; at least one, at most :data:`MAX_ORIGINS`."""
    origins = list(dict.fromkeys(normalise_origin(value, field=field) for value in values if value.strip()))
    if not origins:
        raise CredentialInvalid(field, "Name at least one website the credential may be used on.")
    if len(origins) > MAX_ORIGINS:
        raise CredentialInvalid(field, f"A credential may name at most {MAX_ORIGINS} websites.")
    return origins
