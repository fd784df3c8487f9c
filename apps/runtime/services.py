"""Writes of runtime data."""

from __future__ import annotations

from apps.accounts.models import User
from apps.runtime.models import Conversation


def conversation_create(*, owner: User, title: str = "") -> Conversation:
    conversation = Conversation(owner=owner, title=title.strip())
    conversation.full_clean()
    conversation.save()
    return conversation


def conversation_rename(*, conversation: Conversation, title: str) -> Conversation:
    conversation.title = title.strip()
    conversation.full_clean()
    conversation.save(update_fields=["title", "updated_at"])
    return conversation


def conversation_delete(*, conversation: Conversation) -> None:
    conversation.delete()
