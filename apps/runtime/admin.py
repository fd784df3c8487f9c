"""Operators see conversation metadata, not their content."""

from django.contrib import admin

from apps.core.admin import OperatorModelAdmin
from apps.runtime.models import Conversation


@admin.register(Conversation)
class ConversationAdmin(OperatorModelAdmin):
    list_display = ("id", "owner", "created_at", "updated_at")
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    fields = ("owner", "created_at", "updated_at")
    readonly_fields = ("owner", "created_at", "updated_at")

    def has_add_permission(self, request: object) -> bool:
        # Conversations are created by their owner in the portal.
        return False
