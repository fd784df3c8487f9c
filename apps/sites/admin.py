"""Operator view of browser sessions: slots and timings only, never what a session visits."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from apps.core.admin import OperatorModelAdmin
from apps.sites.models import BrowserJob, BrowserSessionLease, HandoffPanel, SignedInPage


@admin.register(BrowserSessionLease)
class BrowserSessionLeaseAdmin(OperatorModelAdmin):
    list_display = ("id", "owner", "slot", "holder", "requested_at", "started_at", "expires_at", "close_requested")
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    fields = list_display
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Leases are taken by sessions through apps.sites.browser.slots.
        return False


@admin.register(BrowserJob)
class BrowserJobAdmin(OperatorModelAdmin):
    # Parameters and results are the owner's data (addresses, page titles): never shown.
    list_display = ("id", "owner", "kind", "status", "outcome", "reason", "requested_at", "finished_at")
    list_select_related = ("owner",)
    list_filter = ("kind", "status", "outcome")
    search_fields = ("owner__username",)
    # Which worker holds a running job and when it last said so: what an operator needs for a stuck job.
    fields = (*list_display, "holder", "heartbeat_at", "cancel_requested", "refusals", "started_at", "deadline")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(HandoffPanel)
class HandoffPanelAdmin(OperatorModelAdmin):
    # Metadata only: statuses and closed codes, never the page, its image or the verified result.
    list_display = ("id", "owner", "status", "reason", "last_check", "created_at", "expires_at", "closed_at")
    list_select_related = ("owner",)
    list_filter = ("status",)
    search_fields = ("owner__username",)
    fields = (*list_display, "turn", "step_index", "credentials_submitted", "resumed_turn", "result_taken_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Panels are opened by the sign-in step through apps.sites.handoff.panels.
        return False


@admin.register(SignedInPage)
class SignedInPageAdmin(OperatorModelAdmin):
    # That a turn kept where it signed in, and when: the website and the page are the owner's data.
    list_display = ("id", "owner", "created_at")
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    fields = list_display
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Kept by the sign-in step through apps.sites.browser.landing.
        return False
