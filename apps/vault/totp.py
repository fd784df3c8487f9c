"""Time-based one-time codes (RFC 6238) from a seed the owner authorised for automation."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import time

from apps.vault.errors import CredentialInvalid
from apps.vault.limits import MAX_TOTP_SEED_CHARS, TOTP_DIGITS, TOTP_PERIOD_SECONDS


def normalise_totp_seed(seed: str) -> str:
    """The seed as canonical base32 (spaces removed, upper case); refuses anything else."""
    cleaned = "".join(seed.split()).upper().rstrip("=")
    if not cleaned or len(cleaned) > MAX_TOTP_SEED_CHARS:
        raise CredentialInvalid("totp_seed", f"A code seed must have 1 to {MAX_TOTP_SEED_CHARS} characters.")
    try:
        _seed_bytes(cleaned)
    except (binascii.Error, ValueError):
        raise CredentialInvalid("totp_seed", "A code seed must be base32 (letters A to Z and digits 2 to 7).") from None
    return cleaned


def _seed_bytes(seed: str) -> bytes:
    return base64.b32decode(seed + "=" * (-len(seed) % 8), casefold=True)


def totp_code(seed: str, *, at: float | None = None) -> str:
    counter = int((time.time() if at is None else at) // TOTP_PERIOD_SECONDS)
    digest = hmac.new(_seed_bytes(seed), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(number % 10**TOTP_DIGITS).zfill(TOTP_DIGITS)
