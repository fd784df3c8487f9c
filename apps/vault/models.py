"""The vault's rows: each owner's credentials, and the fingerprint of the key that encrypts them."""

from __future__ import annotations

from django.db import models

from apps.core.fields import StorableCharField, StorableJSONField
from apps.core.tenancy import OwnedModel
from apps.vault.crypto import FINGERPRINT_CHARS, Sealed
from apps.vault.fields import OptionalSealedField, SealedField
from apps.vault.limits import MAX_LABEL_CHARS, MAX_USERNAME_CHARS


class Credential(OwnedModel):
    """A sign-in for some websites: label, username and origins are metadata; the rest is sealed.

    ``secret`` and ``totp_seed`` are encrypted with the vault key and read
    only by a turn's mandate (:mod:`apps.vault.mandates`) at execution time.
    A TOTP seed is stored only when the owner explicitly authorised Metnos to
    generate sign-in codes from it.
    """

    label = StorableCharField(max_length=MAX_LABEL_CHARS)
    username = StorableCharField(max_length=MAX_USERNAME_CHARS, blank=True)
    # Canonical origins ("https://host[:port]"), see apps.vault.origins.
    origins = StorableJSONField(default=list)
    secret = SealedField()
    totp_seed = OptionalSealedField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects: models.Manager[Credential] = models.Manager()

    class Meta:
        ordering = ["label", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "label"], name="vault_credential_label_per_owner")]

    def __str__(self) -> str:
        return f"credential {self.pk}"

    @property
    def has_totp(self) -> bool:
        return isinstance(self.totp_seed, Sealed | str) and bool(self.totp_seed)


class VaultKey(models.Model):
    """The one row naming the key the store is encrypted with (its fingerprint, never the key)."""

    fingerprint = models.CharField(max_length=FINGERPRINT_CHARS)
    recorded_at = models.DateTimeField(auto_now_add=True)
    rotated_at = models.DateTimeField(null=True, blank=True)

    objects: models.Manager[VaultKey] = models.Manager()

    class Meta:
        verbose_name = "vault key"

    def __str__(self) -> str:
        return f"vault key {self.fingerprint[:8]}…"
