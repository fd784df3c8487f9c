"""Users and the devices they pair with Metnos."""

from __future__ import annotations

from typing import Any, Literal

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.http import HttpRequest

from apps.core.fields import StorableCharField, StorableJSONField
from apps.core.tenancy import OwnedModel

Role = Literal["user", "operator", "superuser"]


class User(AbstractUser):
    """A Metnos user.

    Roles: ``user`` (the portal and their own data), ``operator`` (staff: the
    Django admin with metadata, never secrets or users' content) and
    ``superuser``.
    """

    # Executors an operator has withdrawn from this user (names from the catalog): the
    # invocation boundary admits none of them for this owner, whatever the plan says.
    disabled_executors = StorableJSONField(default=list, blank=True)

    @property
    def role(self) -> Role:
        if self.is_superuser:
            return "superuser"
        if self.is_staff:
            return "operator"
        return "user"


class Device(OwnedModel):
    """A device paired to one owner; it calls the REST API with its own token.

    The token is shown once at pairing; only a readable prefix and a hash are
    stored.
    """

    name = StorableCharField(max_length=120)
    token_prefix = models.CharField(max_length=16, unique=True, editable=False)
    token_hash = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects: models.Manager[Device] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.token_prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class NotSignedIn(PermissionError):
    """An interface needed a signed-in user and had none."""


def request_user(request: HttpRequest | Any) -> User:
    """The signed-in user of a request (views behind authentication only)."""
    user = request.user
    if not isinstance(user, User):
        raise NotSignedIn("this view requires a signed-in user")
    return user
