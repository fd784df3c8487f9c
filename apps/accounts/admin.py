"""Operator views of users and devices: metadata only, never token material."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.http import HttpRequest

from apps.accounts.models import Device, User
from apps.core.admin import OperatorModelAdmin, is_operator

if TYPE_CHECKING:
    _UserAdmin = DjangoUserAdmin[User]
else:  # generic only to the type checker
    _UserAdmin = DjangoUserAdmin


@admin.register(User)
class UserAdmin(_UserAdmin):
    list_display = ("username", "email", "is_staff", "is_superuser", "is_active", "last_login")
    # Executors withdrawn from this user: names from the catalog, never the user's content.
    fieldsets = (*DjangoUserAdmin.fieldsets, ("Capabilities", {"fields": ("disabled_executors",)}))  # type: ignore[misc]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_operator(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request)


@admin.register(Device)
class DeviceAdmin(OperatorModelAdmin):
    list_display = ("name", "owner", "token_prefix", "created_at", "last_seen_at")
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username", "token_prefix")
    fields = ("owner", "name", "token_prefix", "created_at", "last_seen_at")
    readonly_fields = ("owner", "token_prefix", "created_at", "last_seen_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Devices are paired by their owner, which shows the token once.
        return False
