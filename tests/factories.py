"""Generic row building for owned models, so sweeps cover new models automatically.

``build_owned_row(model, owner)`` fills every required field with a plausible
value; models whose rows need more care register a factory in
``OWNED_ROW_FACTORIES``.
"""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from apps.accounts.services import device_pair
from apps.core.tenancy import OwnedModel

OWNED_ROW_FACTORIES: dict[str, Callable[[Any], models.Model]] = {
    "accounts.Device": lambda owner: device_pair(owner=owner, name="Sweep phone").device,
}


def _unique_text(max_length: int | None) -> str:
    text = f"sweep-{uuid.uuid4().hex}"
    return text[: max_length or len(text)]


def _value_for(field: models.Field[Any, Any], owner: Any) -> Any:
    if field.choices:
        return field.choices[0][0]
    if isinstance(field, models.ForeignKey | models.OneToOneField):
        related = field.related_model
        assert isinstance(related, type)
        if related._meta.label == settings.AUTH_USER_MODEL:
            return owner
        if issubclass(related, OwnedModel):
            return build_owned_row(related, owner)
        raise NotImplementedError(f"register a factory for {field.model._meta.label}.{field.name}")
    if isinstance(field, models.EmailField):
        return f"{uuid.uuid4().hex[:10]}@example.org"
    if isinstance(field, models.URLField):
        return "https://example.org/"
    if isinstance(field, models.CharField | models.TextField | models.SlugField):
        return _unique_text(field.max_length)
    if isinstance(field, models.BooleanField):
        return False
    if isinstance(field, models.DecimalField):
        return decimal.Decimal("1")
    if isinstance(field, models.IntegerField | models.FloatField):
        return 1
    if isinstance(field, models.DateTimeField):
        return timezone.now()
    if isinstance(field, models.DateField):
        return dt.date(2026, 1, 1)
    if isinstance(field, models.UUIDField):
        return uuid.uuid4()
    if isinstance(field, models.JSONField):
        return {}
    raise NotImplementedError(f"register a factory for {field.model._meta.label}.{field.name}")


def build_owned_row(model: type[models.Model], owner: Any) -> models.Model:
    label = model._meta.label
    if label in OWNED_ROW_FACTORIES:
        return OWNED_ROW_FACTORIES[label](owner)
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.has_default() or field.null or getattr(field, "auto_now", False):
            continue
        if getattr(field, "auto_now_add", False):
            continue
        if field.blank and not isinstance(field, models.ForeignKey):
            continue
        values[field.name] = _value_for(field, owner)
    values["owner"] = owner
    return model._default_manager.create(**values)
