"""Reads of accounts data, always scoped to an owner."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from apps.accounts.models import Device, User
from apps.core.tenancy import owned_rows


def device_list(*, owner: User | AnonymousUser) -> QuerySet[Device]:
    return owned_rows(Device, owner=owner)
