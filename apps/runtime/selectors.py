"""Reads of runtime data, always scoped to an owner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch, QuerySet

from apps.accounts.models import Device, User
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.runtime.models import ConsentRequest, Conversation, InputRequest, StepRecord, TraceEvent, Turn

# Where the prefetching selectors leave what the pages show of each turn.
_STEPS, _PENDING_CONSENTS, _PENDING_QUESTIONS = "shown_steps", "shown_pending_consents", "shown_pending_questions"


def conversation_list(*, owner: User | AnonymousUser) -> QuerySet[Conversation]:
    return owned_rows(Conversation, owner=owner)


def conversation_get_for_owner(*, owner: User, conversation_id: Any) -> Conversation:
    return get_owned_or_404(conversation_list(owner=owner), pk=conversation_id)


def conversation_get_for_device(*, device: Device, conversation_id: Any) -> Conversation:
    """One of ``device``'s own conversations; the owner's others answer the same 404 as a missing one."""
    return get_owned_or_404(conversation_list(owner=device.owner).filter(device=device), pk=conversation_id)


def turn_list(*, owner: User | AnonymousUser, conversation: Conversation | None = None) -> QuerySet[Turn]:
    turns = owned_rows(Turn, owner=owner)
    return turns.filter(conversation=conversation) if conversation is not None else turns


def turn_get_for_owner(*, owner_id: int, turn_id: Any) -> Turn:
    """The turn and its owner in one read, for a task that was handed the owner's id."""
    return get_owned_or_404(Turn.objects.filter(owner_id=owner_id).select_related("owner"), pk=turn_id)


def trace_for_turn(*, owner: User, turn: Turn) -> QuerySet[TraceEvent]:
    return owned_rows(TraceEvent, owner=owner).filter(turn=turn).order_by("sequence")


def _with_details(turns: QuerySet[Turn], *, owner: User | AnonymousUser) -> QuerySet[Turn]:
    """``turns`` with their steps, pending confirmations and pending questions: three queries, however many turns."""
    return turns.prefetch_related(
        Prefetch("steps", queryset=owned_rows(StepRecord, owner=owner).order_by("index"), to_attr=_STEPS),
        Prefetch(
            "consents",
            queryset=owned_rows(ConsentRequest, owner=owner)
            .filter(decision=ConsentRequest.Decision.PENDING)
            .order_by("-id"),
            to_attr=_PENDING_CONSENTS,
        ),
        Prefetch(
            "input_requests",
            queryset=owned_rows(InputRequest, owner=owner)
            .filter(status=InputRequest.Status.PENDING)
            .order_by("-created_at", "-id"),
            to_attr=_PENDING_QUESTIONS,
        ),
    )


def turn_list_with_details(*, owner: User | AnonymousUser) -> QuerySet[Turn]:
    """The owner's turns as the REST API lists and shows them (read each with :func:`turn_details`)."""
    return _with_details(turn_list(owner=owner), owner=owner)


def turn_list_for_device_with_details(*, device: Device) -> QuerySet[Turn]:
    """The turns of ``device``'s own conversations, as :func:`turn_list_with_details` shows them.

    A device token follows what it asked for, never the owner's other conversations.
    """
    owner = device.owner
    return _with_details(turn_list(owner=owner).filter(conversation__device=device), owner=owner)


def conversation_turns_with_details(*, owner: User, conversation: Conversation) -> QuerySet[Turn]:
    """A conversation's turns, oldest first, as its page shows them (read each with :func:`turn_details`).

    The owner comes with each turn: the page's verification-panel link reads it.
    """
    turns = turn_list(owner=owner, conversation=conversation).select_related("owner").order_by("created_at", "id")
    return _with_details(turns, owner=owner)


@dataclass(frozen=True)
class TurnDetails:
    steps: list[StepRecord]
    consent: ConsentRequest | None  # the latest pending confirmation; it may be past its deadline
    question: InputRequest | None  # the latest pending question


def turn_details(turn: Turn) -> TurnDetails:
    """What a prefetching selector read of ``turn``; raises ``AttributeError`` for a turn read otherwise."""
    consents: list[ConsentRequest] = getattr(turn, _PENDING_CONSENTS)
    questions: list[InputRequest] = getattr(turn, _PENDING_QUESTIONS)
    return TurnDetails(
        steps=getattr(turn, _STEPS),
        consent=consents[0] if consents else None,
        question=questions[0] if questions else None,
    )
