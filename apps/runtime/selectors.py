"""Reads of runtime data, always scoped to an owner."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.runtime.models import Conversation


def conversation_list(*, owner: Any) -> QuerySet[Conversation]:
    return owned_rows(Conversation, owner=owner)


def conversation_get_for_owner(*, owner: Any, conversation_id: Any) -> Conversation:
    return get_owned_or_404(conversation_list(owner=owner), pk=conversation_id)
