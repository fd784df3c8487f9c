"""Operators see the structure of turns — paths, steps, outcomes, timings — never users' content."""

from django.contrib import admin
from django.http import HttpRequest

from apps.core.admin import OperatorModelAdmin
from apps.runtime.models import (
    ConsentRequest,
    Conversation,
    DeviceStep,
    InputRequest,
    PlanCache,
    StepRecord,
    TraceEvent,
    Turn,
)


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


@admin.register(InputRequest)
class InputRequestAdmin(OperatorModelAdmin):
    # The prompt is the step's question to the user: their content, not the operator's.
    list_display = ("id", "owner", "turn", "step_index", "kind", "status", "created_at", "expires_at")
    list_select_related = ("owner",)
    list_filter = ("kind", "status")
    search_fields = ("owner__username",)
    fields = ("owner", "turn", "step_index", "kind", "sensitive", "status", "created_at", "expires_at", "answered_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(DeviceStep)
class DeviceStepAdmin(OperatorModelAdmin):
    # Arguments and results are the user's content: operators see structure only.
    list_display = ("id", "owner", "device", "turn", "step_index", "tool", "status", "created_at", "finished_at")
    list_select_related = ("owner", "device")
    list_filter = ("status", "tool")
    search_fields = ("owner__username",)
    fields = ("owner", "device", "turn", "step_index", "tool", "status", "created_at", "claimed_at", "finished_at",
              "expires_at")  # fmt: skip
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
