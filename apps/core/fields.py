"""Model fields whose values are always storable (see :mod:`apps.core.storable`).

Every text and JSON column of the project's models uses one of these (a
house test checks it): a value holding NUL or a lone surrogate is written
with them replaced instead of failing its whole record, whatever the store
(SQLite or PostgreSQL) and whichever way it is written (``save``,
``update``, ``bulk_create``). Rows written before are cleaned as they are
read, so a page or an API answer can always encode them.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Expression

from apps.core.storable import needs_storable, storable_text, storable_value, stored_json_text_needs_storable


def _text_in(value: Any) -> Any:
    return storable_text(value)[0] if isinstance(value, str) else value


class _StorableText:
    """What the text fields below add to Django's: written and read with NUL and lone surrogates replaced."""

    def get_prep_value(self, value: Any) -> Any:
        return _text_in(super().get_prep_value(value))  # type: ignore[misc]

    def from_db_value(self, value: Any, expression: Expression, connection: BaseDatabaseWrapper) -> Any:
        return _text_in(value)


class StorableTextField(_StorableText, models.TextField):  # type: ignore[type-arg]
    """A ``TextField`` that stores NUL and lone surrogates replaced."""


class StorableCharField(_StorableText, models.CharField):  # type: ignore[type-arg]
    """A ``CharField`` that stores NUL and lone surrogates replaced."""


class StorableJSONField(models.JSONField):
    """A ``JSONField`` whose strings (keys too) are stored with NUL and lone surrogates replaced."""

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        return storable_value(value)[0] if needs_storable(value) else value

    def from_db_value(self, value: Any, expression: Expression, connection: BaseDatabaseWrapper) -> Any:
        if isinstance(value, str) and stored_json_text_needs_storable(value):
            return storable_value(super().from_db_value(value, expression, connection))[0]
        return super().from_db_value(value, expression, connection)
