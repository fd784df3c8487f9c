"""REST endpoints for stored downloads: list, read, delete, and the file itself.

Downloads are created by executors through
:func:`apps.documents.downloads.download_store`, not over REST.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import FileResponse
from rest_framework import exceptions, mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.core.api import OwnedModelViewSet
from apps.documents.downloads import DownloadFileMissing, download_delete, download_open
from apps.documents.models import StoredDownload
from apps.documents.selectors import download_list


class DownloadSerializer(serializers.ModelSerializer[StoredDownload]):
    class Meta:
        model = StoredDownload
        fields = ["id", "original_name", "stored_name", "size", "sha256", "content_type", "source_origin", "created_at"]
        read_only_fields = fields


class DownloadFileGone(exceptions.APIException):
    status_code = status.HTTP_410_GONE
    default_detail = "The file of this download is no longer available."
    default_code = "download_file_missing"


class DownloadViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    OwnedModelViewSet[StoredDownload],
):
    """List, read and delete the owner's downloads; ``content/`` returns the file as an attachment."""

    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS

    serializer_class = DownloadSerializer
    list_selector = staticmethod(download_list)

    def perform_destroy(self, instance: StoredDownload) -> None:
        download_delete(download=instance)

    @action(detail=True, methods=["get"])
    def content(self, request: Request, *args: Any, **kwargs: Any) -> FileResponse:
        download = self.get_object()  # another owner's id: the same 404 as a missing one
        try:
            handle = download_open(download=download)
        except DownloadFileMissing:
            raise DownloadFileGone() from None
        response = FileResponse(
            handle,
            as_attachment=True,
            filename=download.stored_name,
            content_type=download.content_type,
        )
        # Never let a browser guess a type and render the file in Metnos's origin.
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "default-src 'none'; sandbox"
        response["Cache-Control"] = "private, no-store"
        return response
