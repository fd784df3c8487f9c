"""Reads of accounts data, always scoped to an owner."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import HttpRequest
from rest_framework.exceptions import NotAuthenticated

from apps.accounts.models import Device, User
from apps.core.tenancy import owned_rows


def device_list(*, owner: User | AnonymousUser) -> QuerySet[Device]:
    return owned_rows(Device, owner=owner)


def request_owner(request: HttpRequest) -> User:
    """The signed-in user a request acts for; an anonymous request is refused (401), never served."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAuthenticated
    return user
