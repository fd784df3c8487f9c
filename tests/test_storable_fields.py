"""Every column that can hold text from the outside world stores it safely (apps/core/fields.py).

A text or JSON column of the project's models is one of the storable fields;
so is every free-text ``CharField`` (one without choices) except the
identifiers Metnos writes itself, listed here with why.
"""

from __future__ import annotations

from django.apps import apps
from django.db import models

from apps.core.fields import StorableCharField, StorableJSONField, StorableTextField
from apps.vault.fields import SealedField

# (model label, field): values Metnos makes itself — hashes, codes, names of its own parts.
INTERNAL_CHAR_FIELDS = {
    ("accounts.Device", "token_prefix"), ("accounts.Device", "token_hash"),
    ("documents.StoredDownload", "stored_name"), ("documents.StoredDownload", "sha256"),
    ("lre.LrePhase", "tool"), ("lre.LreBatch", "error_class"), ("lre.LreBatch", "error_code"),
    ("lre.LreBatch", "outcome"), ("lre.LreBatch", "lease_holder"),
    ("runtime.Turn", "plan_digest"), ("runtime.Turn", "catalog_signature"), ("runtime.Turn", "conducted_by"),
    ("runtime.StepRecord", "tool"), ("runtime.StepRecord", "error_class"), ("runtime.StepRecord", "error_code"),
    ("runtime.TraceEvent", "kind"),
    ("runtime.ConsentRequest", "tool"), ("runtime.ConsentRequest", "plan_digest"),
    ("runtime.ConsentRequest", "catalog_signature"),
    ("runtime.DeviceStep", "tool"), ("runtime.DeviceStep", "executor_signature"),
    ("metnos_sites.BrowserSessionLease", "holder"), ("metnos_sites.BrowserJob", "kind"),
    ("metnos_sites.BrowserJob", "outcome"), ("metnos_sites.BrowserJob", "reason"),
    ("metnos_sites.BrowserJob", "holder"), ("metnos_sites.HandoffPanel", "reason"),
    ("metnos_sites.HandoffPanel", "last_check"),
    ("vault.VaultKey", "fingerprint"),
    ("core.OutboxMessage", "task_name"), ("core.OutboxMessage", "last_error"),
    # Django's own user columns: its forms and validators refuse NUL, the username has its own rules.
    ("accounts.User", "password"), ("accounts.User", "username"), ("accounts.User", "first_name"),
    ("accounts.User", "last_name"), ("accounts.User", "email"),
}  # fmt: skip


def _project_fields() -> list[tuple[str, models.Field]]:  # type: ignore[type-arg]
    return [
        (model._meta.label, field)
        for model in apps.get_models()
        if model.__module__.startswith("apps.")
        for field in model._meta.concrete_fields
    ]


def test_every_text_and_json_column_is_storable() -> None:
    plain = [
        f"{label}.{field.name}"
        for label, field in _project_fields()
        # A sealed field holds the vault's ciphertext, which Metnos writes itself.
        if (isinstance(field, models.TextField) and not isinstance(field, StorableTextField | SealedField))
        or (isinstance(field, models.JSONField) and not isinstance(field, StorableJSONField))
    ]
    assert plain == [], "use apps.core.fields' storable fields for these columns"


def test_every_free_text_char_column_is_storable_or_internal() -> None:
    free_text = [
        f"{label}.{field.name}"
        for label, field in _project_fields()
        if isinstance(field, models.CharField)
        and not isinstance(field, StorableCharField)
        and not field.choices
        and (label, field.name) not in INTERNAL_CHAR_FIELDS
    ]
    assert free_text == [], "a free-text column: StorableCharField, or list it as internal with the reason"
    listed = {(label, field.name) for label, field in _project_fields()}
    assert listed >= INTERNAL_CHAR_FIELDS, "an internal field listed here no longer exists"
