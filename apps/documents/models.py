"""Stored downloads: files saved for an owner, with their metadata."""

from __future__ import annotations

from django.db import models

from apps.core.fields import StorableCharField
from apps.core.tenancy import OwnedModel

SOURCE_ORIGIN_MAX_CHARS = 300


class StoredDownload(OwnedModel):
    """A file saved in the owner's downloads folder (``DOWNLOADS_ROOT/<owner id>/``).

    ``stored_name`` is the file's name inside that folder (sanitised and
    de-duplicated); ``original_name`` is the sanitised name it was given.
    ``source_origin`` keeps only the scheme and host of where it came from,
    never a path or query string (which may carry tokens). Rows are written by
    :func:`apps.documents.downloads.download_store` only.
    """

    original_name = StorableCharField(max_length=255)
    stored_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    content_type = StorableCharField(max_length=127)
    source_origin = StorableCharField(max_length=SOURCE_ORIGIN_MAX_CHARS, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects: models.Manager[StoredDownload] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "stored_name"], name="documents_download_unique_stored_name"),
        ]

    def __str__(self) -> str:
        return f"Download {self.pk}"
