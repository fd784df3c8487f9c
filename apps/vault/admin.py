"""Operator views of the vault: structure only — never a value, not even a masked length.

Labels, user names and websites are the owner's content, so operators see
only who owns how many websites' credentials and when they were used.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from apps.core.admin import OperatorModelAdmin
from apps.vault.models import Credential, VaultKey

_CREDENTIAL_FIELDS = ("owner", "website_count", "has_totp", "created_at", "updated_at", "last_used_at")


@admin.register(Credential)
class CredentialAdmin(OperatorModelAdmin):
    list_display = ("id", *_CREDENTIAL_FIELDS)
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    fields = _CREDENTIAL_FIELDS
    readonly_fields = _CREDENTIAL_FIELDS

    @admin.display(description="websites")
    def website_count(self, credential: Credential) -> int:
        return len(credential.origins)

    @admin.display(boolean=True, description="code automation")
    def has_totp(self, credential: Credential) -> bool:
        return credential.has_totp

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Credentials are added by their owner, in the vault's own form.
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(VaultKey)
class VaultKeyAdmin(OperatorModelAdmin):
    list_display = ("fingerprint", "recorded_at", "rotated_at")
    fields = ("fingerprint", "recorded_at", "rotated_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Deleting the record would let another key start a second store over this one.
        return False
