"""Device tokens: ``mtd_<prefix>_<secret>``, stored as prefix + SHA-256 hash.

The secret part has 256 bits of randomness, so a fast hash is enough (no
password stretching needed) and comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

TOKEN_SCHEME = "mtd"  # noqa: S105 - a public marker, not a secret
PREFIX_LENGTH = 8


@dataclass(frozen=True)
class IssuedToken:
    prefix: str
    token: str
    token_hash: str


class MalformedToken(ValueError):
    """The presented value is not a Metnos device token."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token() -> IssuedToken:
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    token = f"{TOKEN_SCHEME}_{prefix}_{secrets.token_urlsafe(32)}"
    return IssuedToken(prefix=prefix, token=token, token_hash=hash_token(token))


def token_prefix(token: str) -> str:
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != TOKEN_SCHEME or len(parts[1]) != PREFIX_LENGTH or not parts[2]:
        raise MalformedToken("not a Metnos device token")
    return parts[1]


def token_matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored_hash)
