"""Tenancy: every owned row has a required owner and is read through its owner.

Interfaces (views, consumers, tasks, admin actions for users) reach owned rows
only through selectors built on :func:`owned_rows` and
:func:`get_owned_or_404`, which answer the same 404 whether the row is missing
or belongs to someone else, so ids of other owners' rows leak nothing.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.http import Http404

OwnedT = TypeVar("OwnedT", bound="OwnedModel")


class OwnedObjectNotFound(Http404):
    """Raised alike for a missing row and for another owner's row."""


class OwnedModel(models.Model):
    """Abstract base for every row that belongs to one user."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=True,
    )
    owner_id: int

    class Meta:
        abstract = True


def owned_rows(model: type[OwnedT], *, owner: AbstractBaseUser | AnonymousUser | None) -> models.QuerySet[OwnedT]:
    """All rows of ``model`` that belong to ``owner`` (none for anonymous users)."""
    if owner is None or not owner.is_authenticated:
        return model._default_manager.none()
    return model._default_manager.filter(owner_id=owner.pk)


def get_owned_or_404(queryset: models.QuerySet[OwnedT], **lookup: Any) -> OwnedT:
    """One row of an already owner-scoped queryset, or the same 404 as for a missing row."""
    try:
        return queryset.get(**lookup)
    except (queryset.model.DoesNotExist, ValueError, TypeError):
        # ValueError/TypeError: a malformed id is simply not one of the owner's rows.
        raise OwnedObjectNotFound(f"No {queryset.model._meta.verbose_name} matches the given query.") from None


def owned_models() -> list[type[OwnedModel]]:
    """Every concrete owned model installed now (used by the tenancy sweep and docs)."""
    from django.apps import apps

    return [
        model
        for model in apps.get_models()
        if issubclass(model, OwnedModel) and not model._meta.abstract and not model._meta.proxy
    ]
