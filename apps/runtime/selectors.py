"""Reads of runtime data, always scoped to an owner."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.runtime.models import Conversation, StepRecord, TraceEvent, Turn


def conversation_list(*, owner: Any) -> QuerySet[Conversation]:
    return owned_rows(Conversation, owner=owner)


def conversation_get_for_owner(*, owner: Any, conversation_id: Any) -> Conversation:
    return get_owned_or_404(conversation_list(owner=owner), pk=conversation_id)


def turn_list(*, owner: Any, conversation: Conversation | None = None) -> QuerySet[Turn]:
    turns = owned_rows(Turn, owner=owner)
    return turns.filter(conversation=conversation) if conversation is not None else turns


def turn_get_for_owner(*, owner_id: int, turn_id: Any) -> Turn:
    """The turn and its owner in one read, for a task that was handed the owner's id."""
    return get_owned_or_404(Turn.objects.filter(owner_id=owner_id).select_related("owner"), pk=turn_id)


def step_records_for_turn(*, owner: Any, turn: Turn) -> QuerySet[StepRecord]:
    return owned_rows(StepRecord, owner=owner).filter(turn=turn).order_by("index")


def trace_for_turn(*, owner: Any, turn: Turn) -> QuerySet[TraceEvent]:
    return owned_rows(TraceEvent, owner=owner).filter(turn=turn).order_by("sequence")
