"""Typed vault errors. Messages name fields and reasons, never a value."""

from __future__ import annotations


class VaultError(Exception):
    """Base of every vault refusal; ``code`` is stable, ``message`` is for people."""

    code = "vault_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CredentialInvalid(VaultError):
    """Input for a credential that the vault does not accept."""

    code = "credential_invalid"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class CredentialNotFound(VaultError):
    """No credential of this owner matches (the same for a missing or a foreign one)."""

    code = "credential_not_found"


class VaultKeyMismatch(VaultError):
    """The configured vault key cannot read the store (the key changed, or the data directory did)."""

    code = "vault_key_mismatch"


class VaultUnreadable(VaultError):
    """A stored value cannot be decrypted with the configured key."""

    code = "vault_unreadable"


class CredentialNotAuthorised(VaultError):
    """The turn's mandate does not cover this credential on this origin."""

    code = "credential_not_authorised"
