"""Operators see the structure of turns — paths, steps, outcomes, timings — never users' content."""

from django.contrib import admin

from apps.core.admin import OperatorModelAdmin
from apps.runtime.models import ConsentRequest, Conversation, PlanCache, StepRecord, TraceEvent, Turn


class StructureOnlyAdmin(OperatorModelAdmin):
    def has_add_permission(self, request: object) -> bool:
        # These rows are written by the runtime, never by hand.
        return False


@admin.register(Conversation)
class ConversationAdmin(StructureOnlyAdmin):
    list_display = ("id", "owner", "created_at", "updated_at")
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    fields = ("owner", "created_at", "updated_at")
    readonly_fields = fields


@admin.register(Turn)
class TurnAdmin(StructureOnlyAdmin):
    list_display = ("id", "owner", "status", "path", "created_at", "finished_at", "cloud_requests")
    list_filter = ("status", "path")
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    fields = ("owner", "conversation", "status", "path", "plan_digest", "catalog_signature", "resumed_from",
              "cloud_requests", "created_at", "started_at", "finished_at")  # fmt: skip
    readonly_fields = fields


@admin.register(StepRecord)
class StepRecordAdmin(StructureOnlyAdmin):
    list_display = ("turn", "index", "tool", "outcome", "error_class", "error_code", "started_at", "finished_at")
    list_filter = ("outcome", "error_class", "tool")
    fields = ("owner", "turn", "index", "tool", "outcome", "error_class", "error_code", "started_at", "finished_at")
    readonly_fields = fields


@admin.register(TraceEvent)
class TraceEventAdmin(StructureOnlyAdmin):
    list_display = ("turn", "sequence", "kind", "at")
    list_filter = ("kind",)
    fields = ("owner", "turn", "sequence", "kind", "data", "at")
    readonly_fields = fields


@admin.register(ConsentRequest)
class ConsentRequestAdmin(StructureOnlyAdmin):
    list_display = ("id", "owner", "tool", "step_index", "decision", "created_at", "expires_at", "consumed_at")
    list_filter = ("decision", "tool")
    fields = ("owner", "turn", "tool", "step_index", "decision", "created_at", "expires_at", "decided_at",
              "consumed_at")  # fmt: skip
    readonly_fields = fields


@admin.register(PlanCache)
class PlanCacheAdmin(StructureOnlyAdmin):
    list_display = ("id", "owner", "kind", "confirmed", "uses", "last_used_at")
    list_filter = ("kind", "confirmed")
    fields = ("owner", "kind", "confirmed", "uses", "executor_signatures", "created_at", "last_used_at")
    readonly_fields = fields
