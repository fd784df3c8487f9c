"""Operator view of stored downloads: metadata only, never names or file content."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.core.admin import OperatorModelAdmin
from apps.documents.downloads import download_delete
from apps.documents.models import StoredDownload


@admin.register(StoredDownload)
class StoredDownloadAdmin(OperatorModelAdmin):
    # File names can say what a document is about: they are users' content.
    list_display = ("id", "owner", "content_type", "size", "source_origin", "created_at")
    list_select_related = ("owner",)
    list_filter = ("content_type",)
    search_fields = ("owner__username",)
    fields = ("owner", "content_type", "size", "sha256", "source_origin", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Downloads are stored by executors through download_store, with their file.
        return False

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        download_delete(download=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for download in queryset:
            download_delete(download=download)
