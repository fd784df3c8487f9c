"""Reads of accounts data, always scoped to an owner."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.accounts.models import Device
from apps.core.tenancy import owned_rows


def device_list(*, owner: Any) -> QuerySet[Device]:
    return owned_rows(Device, owner=owner)
