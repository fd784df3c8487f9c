"""Operator view of long-running work: structure, states and counts, never users' content.

Titles, plans and items say what a user works on; operators see the job's
state, its phases and the error classes of its batches.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from apps.core.admin import OperatorModelAdmin
from apps.lre.models import LreBatch, LreEvent, LreJob, LrePhase


@admin.register(LreJob)
class LreJobAdmin(OperatorModelAdmin):
    list_display = ("id", "owner", "status", "revision", "batch_size", "created_at", "finished_at")
    list_select_related = ("owner",)
    list_filter = ("status",)
    search_fields = ("owner__username",)
    fields = ("owner", "status", "revision", "first_step", "batch_size", "created_at", "updated_at", "finished_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # jobs are created by a turn's hand-off


@admin.register(LreBatch)
class LreBatchAdmin(OperatorModelAdmin):
    list_display = ("id", "owner", "job", "index", "status", "attempts", "error_class", "error_code", "finished_at")
    list_select_related = ("owner",)
    list_filter = ("status", "error_class")
    search_fields = ("owner__username",)
    fields = ("owner", "job", "index", "status", "attempts", "attempts_allowed", "error_class", "error_code",
              "outcome", "started_at", "finished_at", "lease_holder", "lease_expires_at", "heartbeat_at")  # fmt: skip
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(LrePhase)
class LrePhaseAdmin(OperatorModelAdmin):
    list_display = ("id", "owner", "job", "position", "step", "tool", "per_item", "status", "total_batches")
    list_select_related = ("owner",)
    list_filter = ("status",)
    search_fields = ("owner__username",)
    fields = ("owner", "job", "position", "step", "tool", "per_item", "status", "total_batches")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(LreEvent)
class LreEventAdmin(OperatorModelAdmin):
    """A job's history: decisions and their causes, written by Metnos (no user content)."""

    list_display = ("id", "owner", "job", "batch", "kind", "attempt", "created_at")
    list_select_related = ("owner",)
    list_filter = ("kind",)
    search_fields = ("owner__username",)
    fields = ("owner", "job", "batch", "kind", "attempt", "cause", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
