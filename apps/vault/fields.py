"""``SealedField``: a database column holding a vault value encrypted.

Assign a plain ``str`` to encrypt it on save; read back a :class:`Sealed`
(the token only). Nothing is decrypted when a row is loaded, so listing
credentials never holds a value in memory and a wrong key cannot turn a
listing into an empty or broken vault. The field has no form field, so no
ModelForm or admin page can render it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import models

from apps.vault.crypto import Sealed, seal

if TYPE_CHECKING:
    # For the type checker: a plain str may be assigned, a Sealed is read back.
    _SealedBase = models.Field[str | Sealed, Sealed]
else:
    _SealedBase = models.TextField


class SealedField(_SealedBase):
    description = "A value encrypted with the vault key"

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Sealed | None:
        return None if value is None else Sealed(value)

    def to_python(self, value: Any) -> Any:
        # A plain string stays plain until it is saved (then it is sealed).
        return value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        if isinstance(value, Sealed):
            return value.token
        if isinstance(value, str):
            return seal(value).token
        raise TypeError(f"a sealed field takes a str or Sealed value, not {type(value).__name__}")

    def value_to_string(self, obj: models.Model) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else str(self.get_prep_value(value))

    def formfield(self, **kwargs: Any) -> None:
        return None


if TYPE_CHECKING:
    _OptionalSealedBase = models.Field[str | Sealed | None, Sealed | None]
else:
    _OptionalSealedBase = SealedField


class OptionalSealedField(_OptionalSealedBase):
    """A :class:`SealedField` that may be empty (``NULL``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("null", True)
        kwargs.setdefault("blank", True)
        super().__init__(*args, **kwargs)
