"""Reads of browser sessions, always scoped to an owner."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.sites.models import BrowserJob, BrowserSessionLease


def web_session_list(*, owner: Any) -> QuerySet[BrowserSessionLease]:
    """The owner's browser sessions, running and waiting, in the order they were requested."""
    return owned_rows(BrowserSessionLease, owner=owner).order_by("requested_at", "id")


def web_session_get_for_owner(*, owner: Any, session_id: Any) -> BrowserSessionLease:
    """One of the owner's sessions, or the same 404 for a missing or foreign id."""
    return get_owned_or_404(web_session_list(owner=owner), pk=session_id)


def browser_job_list(*, owner: Any) -> QuerySet[BrowserJob]:
    """The owner's browser jobs, newest first."""
    return owned_rows(BrowserJob, owner=owner)


def browser_job_get_for_owner(*, owner: Any, job_id: Any) -> BrowserJob:
    return get_owned_or_404(browser_job_list(owner=owner), pk=job_id)
