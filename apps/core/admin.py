"""The operator's view of the admin.

Operators (staff) see every registered model read-only: metadata for running
the service, never secrets or users' content — each ModelAdmin lists only the
fields that are safe to show. Changes remain with superusers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest


def is_operator(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and getattr(user, "is_staff", False))


def is_superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


class OperatorViewMixin:
    """Grants operators read-only access; changes stay with superusers."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_operator(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_operator(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)


if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
else:  # generic only to the type checker
    _ModelAdmin = admin.ModelAdmin


class OperatorModelAdmin(OperatorViewMixin, _ModelAdmin):
    pass


def _grant_operator_view(model: type[Any]) -> None:
    """Re-register a third-party ModelAdmin with the operator's read-only access."""
    current = admin.site._registry.get(model)
    if current is None:
        return
    admin.site.unregister(model)
    admin_class = type(f"Operator{type(current).__name__}", (OperatorViewMixin, type(current)), {})
    admin.site.register(model, admin_class)


def _register_third_party_models() -> None:
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django.contrib.auth.models import Group

    for model in (Group, AccessAttempt, AccessLog, AccessFailureLog):
        _grant_operator_view(model)


_register_third_party_models()


def _register_outbox() -> None:
    from apps.core.models import OutboxMessage

    class OutboxMessageAdmin(OperatorModelAdmin):
        """Background work waiting for the broker, or sent and not yet started: what a stuck queue leaves."""

        list_display = ("id", "task_name", "created_at", "attempts", "sent_at", "started_at", "next_attempt_at",
                        "last_error")  # fmt: skip
        list_filter = ("task_name",)
        fields = (*list_display, "args")
        readonly_fields = fields

        def has_add_permission(self, request: HttpRequest) -> bool:
            return False  # written only with the work it starts (apps/core/outbox.py)

    admin.site.register(OutboxMessage, OutboxMessageAdmin)


_register_outbox()
