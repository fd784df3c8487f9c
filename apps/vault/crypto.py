"""Encryption of vault values with the vault key (``METNOS_VAULT_KEY``), never ``SECRET_KEY``.

Values are Fernet tokens (AES-128-CBC + HMAC-SHA256) under a key derived
from the configured vault key with HKDF. A stored value is a :class:`Sealed`
object: it holds only the token, prints as ``<sealed>`` and compares by
token, so a model instance, a form, a serializer or an admin page that
touches it by mistake shows nothing readable. Only :func:`unseal` reads a
value; the mandate's ``resolve`` and key rotation are its only callers
(a test checks this).

A *fingerprint* of the key (an HKDF output of its own, not the key and not
the encryption key) is recorded in the database so a different key is
recognised and refused instead of showing an empty or unreadable vault.
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

from apps.vault.errors import VaultKeyMismatch, VaultUnreadable

_SALT = b"metnos.vault"
_ENCRYPTION_INFO = b"metnos.vault.fernet.v1"
_FINGERPRINT_INFO = b"metnos.vault.fingerprint.v1"
FINGERPRINT_CHARS = 32


def _derive(vault_key: str, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=info).derive(vault_key.encode("utf-8"))


@lru_cache(maxsize=4)
def _fernet(vault_key: str) -> Fernet:
    return Fernet(base64.urlsafe_b64encode(_derive(vault_key, _ENCRYPTION_INFO)))


def key_fingerprint(vault_key: str) -> str:
    """A stable, non-reversible name for a vault key (safe to store and show)."""
    return _derive(vault_key, _FINGERPRINT_INFO).hex()[:FINGERPRINT_CHARS]


def configured_vault_key() -> str:
    key = str(getattr(settings, "METNOS_VAULT_KEY", "") or "")
    if not key:
        raise VaultKeyMismatch("No vault key is configured (METNOS_VAULT_KEY); the vault cannot be opened.")
    return key


class Sealed:
    """An encrypted value as stored: the token only, never readable by printing it."""

    __slots__ = ("token",)

    def __init__(self, token: str) -> None:
        self.token = token

    def __repr__(self) -> str:
        return "<sealed>"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sealed) and other.token == self.token

    def __hash__(self) -> int:
        return hash(self.token)


def seal(plaintext: str, *, vault_key: str | None = None) -> Sealed:
    key = vault_key if vault_key is not None else configured_vault_key()
    return Sealed(_fernet(key).encrypt(plaintext.encode("utf-8")).decode("ascii"))


def unseal(sealed: Sealed, *, vault_key: str | None = None) -> str:
    """The plaintext of ``sealed``; raises :class:`VaultUnreadable` for another key's value."""
    key = vault_key if vault_key is not None else configured_vault_key()
    try:
        return _fernet(key).decrypt(sealed.token.encode("ascii")).decode("utf-8")
    except (InvalidToken, UnicodeError, ValueError):
        raise VaultUnreadable("A stored value cannot be read with the configured vault key.") from None


def can_unseal(sealed: Sealed, *, vault_key: str) -> bool:
    try:
        _fernet(vault_key).decrypt(sealed.token.encode("ascii"))
    except (InvalidToken, UnicodeError, ValueError):
        return False
    return True


def reseal(sealed: Sealed, *, old_key: str, new_key: str) -> Sealed:
    """Re-encrypt under ``new_key`` a value sealed under either key (rotation is idempotent)."""
    try:
        token = MultiFernet([_fernet(new_key), _fernet(old_key)]).rotate(sealed.token.encode("ascii"))
    except (InvalidToken, UnicodeError, ValueError):
        raise VaultUnreadable("A stored value cannot be read with the previous or the new vault key.") from None
    return Sealed(token.decode("ascii"))
