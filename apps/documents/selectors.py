"""Reads of stored downloads, always scoped to an owner."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.documents.models import StoredDownload


def download_list(*, owner: User) -> QuerySet[StoredDownload]:
    """The owner's stored downloads, newest first (none for an anonymous user)."""
    return owned_rows(StoredDownload, owner=owner)


def download_get_for_owner(*, owner: User, download_id: Any) -> StoredDownload:
    """One of the owner's downloads, or the same 404 for a missing or foreign id."""
    return get_owned_or_404(download_list(owner=owner), pk=download_id)
