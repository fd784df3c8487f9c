"""Reads of the vault: metadata only, always scoped to an owner, always behind the key check."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.vault.errors import CredentialInvalid, CredentialNotFound
from apps.vault.models import Credential
from apps.vault.origins import normalise_origin
from apps.vault.store import vault_key_check


def credential_list(*, owner: User) -> QuerySet[Credential]:
    """The owner's credentials; refuses (``VaultKeyMismatch``) rather than list a store the key cannot read."""
    vault_key_check()
    return owned_rows(Credential, owner=owner)


def credential_get_for_owner(*, owner: User, credential_id: Any) -> Credential:
    return get_owned_or_404(credential_list(owner=owner), pk=credential_id)


def credential_find(*, owner: User, reference: str | int) -> Credential:
    """A credential by id, label (case-insensitive) or website; the same refusal for missing and foreign ones."""
    rows = credential_list(owner=owner)
    text = str(reference).strip()
    found = rows.filter(pk=int(text)).first() if text.isdigit() else None
    if found is None and text:
        matches = list(rows.filter(label__iexact=text)[:2])
        found = matches[0] if len(matches) == 1 else None
    if found is None and "://" in text:
        # "the password for https://bank.example": the one credential for that website.
        try:
            by_origin = credentials_for_origin(owner=owner, origin=text)
        except CredentialInvalid:
            by_origin = []
        found = by_origin[0] if len(by_origin) == 1 else None
    if found is None:
        raise CredentialNotFound("No credential of yours has that name.")
    return found


def credentials_for_origin(*, owner: User, origin: str) -> list[Credential]:
    """The owner's credentials that may be used on ``origin`` (exact scheme, host and port)."""
    wanted = normalise_origin(origin, field="origin")
    return [credential for credential in credential_list(owner=owner) if wanted in credential.origins]


def credential_metadata(credential: Credential) -> dict[str, Any]:
    """What any listing may show: never a value, not even its length."""
    return {
        "id": credential.pk,
        "label": credential.label,
        "username": credential.username,
        "origins": list(credential.origins),
        "has_totp": credential.has_totp,
        "created_at": credential.created_at.isoformat() if credential.created_at else None,
        "last_used_at": credential.last_used_at.isoformat() if credential.last_used_at else None,
    }
