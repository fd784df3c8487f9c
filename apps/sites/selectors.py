"""Reads of browser sessions, always scoped to an owner."""

from __future__ import annotations

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.tenancy import owned_rows
from apps.sites.models import BrowserJob, BrowserSessionLease


def web_session_list(*, owner: User) -> QuerySet[BrowserSessionLease]:
    """The owner's browser sessions, running and waiting, in the order they were requested."""
    return owned_rows(BrowserSessionLease, owner=owner).order_by("requested_at", "id")


def browser_job_list(*, owner: User) -> QuerySet[BrowserJob]:
    """The owner's browser jobs, newest first."""
    return owned_rows(BrowserJob, owner=owner)
