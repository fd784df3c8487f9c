"""Writes of the vault: save, rename and delete credentials (the owner comes from the caller)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.views.decorators.debug import sensitive_variables

from apps.accounts.models import User
from apps.vault.crypto import seal
from apps.vault.errors import CredentialInvalid
from apps.vault.limits import MAX_LABEL_CHARS, MAX_SECRET_CHARS, MAX_USERNAME_CHARS
from apps.vault.models import Credential
from apps.vault.origins import normalise_origins
from apps.vault.store import vault_key_check, vault_key_ensure
from apps.vault.totp import normalise_totp_seed

_FORBIDDEN_SECRET_CHARS = frozenset("\x00\r\n")


def _clean_label(*, owner: User, label: str, exclude_id: int | None = None) -> str:
    cleaned = " ".join(label.split())
    if not cleaned or len(cleaned) > MAX_LABEL_CHARS:
        raise CredentialInvalid("label", f"A name must have 1 to {MAX_LABEL_CHARS} characters.")
    clash = Credential.objects.filter(owner_id=owner.pk, label__iexact=cleaned)
    if exclude_id is not None:
        clash = clash.exclude(pk=exclude_id)
    if clash.exists():
        raise CredentialInvalid("label", "You already have a credential with this name.")
    return cleaned


def _clean_username(username: str) -> str:
    cleaned = username.strip()
    if len(cleaned) > MAX_USERNAME_CHARS:
        raise CredentialInvalid("username", f"A user name may have at most {MAX_USERNAME_CHARS} characters.")
    return cleaned


def _clean_secret(secret: str) -> str:
    if not secret or not secret.strip():
        raise CredentialInvalid("secret", "The password is empty.")
    if len(secret) > MAX_SECRET_CHARS:
        raise CredentialInvalid("secret", f"A password may have at most {MAX_SECRET_CHARS} characters.")
    if any(char in _FORBIDDEN_SECRET_CHARS for char in secret):
        raise CredentialInvalid("secret", "A password cannot contain line breaks or NUL characters.")
    return secret


@sensitive_variables()
@transaction.atomic
def credential_save(
    *,
    owner: User,
    label: str,
    origins: Sequence[str],
    username: str,
    secret: str,
    totp_seed: str | None = None,
    authorise_code_automation: bool = False,
) -> Credential:
    """Store a new credential for ``owner``, encrypted under the vault key.

    A TOTP seed is kept only with the owner's explicit authorisation to
    generate sign-in codes from it. Raises :class:`CredentialInvalid` (naming
    the field, never echoing a value) or ``VaultKeyMismatch``.
    """
    vault_key_ensure()
    seed = None
    if totp_seed is not None and totp_seed.strip():
        if not authorise_code_automation:
            raise CredentialInvalid(
                "authorise_code_automation", "A code seed is kept only if you authorise Metnos to generate codes."
            )
        seed = normalise_totp_seed(totp_seed)
    # Sealed before the row exists, so the returned instance never holds a value.
    credential = Credential(
        owner=owner,
        label=_clean_label(owner=owner, label=label),
        username=_clean_username(username),
        origins=normalise_origins(list(origins)),
        secret=seal(_clean_secret(secret)),
        totp_seed=seal(seed) if seed is not None else None,
    )
    try:
        with transaction.atomic():
            credential.save()
    except IntegrityError:
        raise CredentialInvalid("label", "You already have a credential with this name.") from None
    return credential


def credential_rename(*, credential: Credential, label: str) -> Credential:
    vault_key_check()
    credential.label = _clean_label(owner=credential.owner, label=label, exclude_id=credential.pk)
    try:
        with transaction.atomic():
            credential.save(update_fields=["label", "updated_at"])
    except IntegrityError:
        raise CredentialInvalid("label", "You already have a credential with this name.") from None
    return credential


def credential_delete(*, credential: Credential) -> None:
    vault_key_check()
    credential.delete()


def credential_mark_used(*, credential: Credential) -> None:
    credential.last_used_at = timezone.now()
    Credential.objects.filter(pk=credential.pk).update(last_used_at=credential.last_used_at)
