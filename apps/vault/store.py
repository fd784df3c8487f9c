"""The store and its key: one encrypted store, never silently replaced.

The fingerprint of the key that encrypted the store is recorded in the
database (:class:`~apps.vault.models.VaultKey`) on the first save. Every
vault operation first checks that the configured key is that key. A
different key — because ``METNOS_VAULT_KEY`` changed, or because a new data
directory brought a newly generated key while the database stayed — is
refused with :class:`~apps.vault.errors.VaultKeyMismatch` instead of
showing an empty vault or starting a new one. Rotation
(:func:`vault_key_rotate`) re-encrypts every value under the configured key
and records its fingerprint.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from apps.vault.crypto import can_unseal, configured_vault_key, key_fingerprint, reseal
from apps.vault.errors import VaultError, VaultKeyMismatch
from apps.vault.models import Credential, VaultKey

# The store has one key record; a fixed id makes concurrent first saves agree.
_KEY_RECORD_ID = 1

MISMATCH_MESSAGE = (
    "The configured vault key is not the key this vault was encrypted with, so its credentials cannot be used. "
    "Restore the previous METNOS_VAULT_KEY (or the data directory's secrets/vault_key), "
    "or run `metnos vault rotate-key` with the previous key."
)


def vault_key_check() -> None:
    """Raise :class:`VaultKeyMismatch` unless the configured key is the store's key."""
    key = configured_vault_key()
    record = VaultKey.objects.filter(pk=_KEY_RECORD_ID).first()
    if record is not None:
        if not hmac.compare_digest(record.fingerprint, key_fingerprint(key)):
            raise VaultKeyMismatch(MISMATCH_MESSAGE)
        return
    # No record yet (a store from before fingerprints, or rows written
    # directly): a value the key cannot read is as telling as a fingerprint.
    sample = Credential.objects.order_by("pk").values_list("secret", flat=True).first()
    if sample is not None and not can_unseal(sample, vault_key=key):
        raise VaultKeyMismatch(MISMATCH_MESSAGE)


def vault_key_ensure() -> None:
    """Check the key, and record its fingerprint if the store has none yet (called before writes)."""
    vault_key_check()
    VaultKey.objects.get_or_create(pk=_KEY_RECORD_ID, defaults={"fingerprint": key_fingerprint(configured_vault_key())})


def vault_key_fingerprint() -> str | None:
    record = VaultKey.objects.filter(pk=_KEY_RECORD_ID).first()
    return record.fingerprint if record is not None else None


@dataclass(frozen=True)
class Rotation:
    credentials: int
    fingerprint: str


class RotationRefused(VaultError):
    code = "rotation_refused"


@transaction.atomic
def vault_key_rotate(*, previous_key: str) -> Rotation:
    """Re-encrypt every stored value under the configured key, reading it with ``previous_key``.

    All or nothing (one transaction). Running it again after a success
    changes nothing. The previous key must be the one whose fingerprint the
    store recorded; values neither key can read stop the rotation.
    """
    new_key = configured_vault_key()
    previous_key = previous_key.strip()
    if not previous_key:
        raise RotationRefused("Give the previous vault key.")
    new_fingerprint = key_fingerprint(new_key)
    record = VaultKey.objects.select_for_update().filter(pk=_KEY_RECORD_ID).first()
    if record is not None and record.fingerprint not in (key_fingerprint(previous_key), new_fingerprint):
        raise VaultKeyMismatch("The previous key given is not the key this vault was encrypted with.")
    count = 0
    for row in Credential.objects.select_for_update().only("id", "secret", "totp_seed").order_by("pk"):
        changes = {"secret": reseal(row.secret, old_key=previous_key, new_key=new_key)}
        if row.totp_seed is not None:
            changes["totp_seed"] = reseal(row.totp_seed, old_key=previous_key, new_key=new_key)
        Credential.objects.filter(pk=row.pk).update(**changes)
        count += 1
    VaultKey.objects.update_or_create(
        pk=_KEY_RECORD_ID, defaults={"fingerprint": new_fingerprint, "rotated_at": timezone.now()}
    )
    return Rotation(credentials=count, fingerprint=new_fingerprint)
