"""Asking the user in the middle of a step, and answering.

A step that needs something only the user has (a one-time code) calls
``context.request_input``. The waiting side (:func:`input_requester`) records
an :class:`InputRequest` bound to the user, the turn and its conversation,
marks the turn ``awaiting_input``, tells the user's browsers, and waits —
without spending the step's work budget — until the user answers, declines,
or the request expires. The answering side (:func:`input_answer`) accepts a
reply only from the same user, for the same conversation, while the request
is pending and unexpired.

The answer is never stored in the database, a trace or an event: it passes
through the cache (shared by web and workers) for the moment between the
reply and the waiting step, which takes it and deletes it. A sensitive answer
is withheld from models and logs for the rest of the step and redacted from
what the step records.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.accounts.models import User
from apps.core.events import TurnEvent
from apps.core.polling import Backoff
from apps.core.redaction import secret_register
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.runtime.executor import InputAnswer, InputSpec
from apps.runtime.lifecycle import turn_resume_after_input, turn_suspend_for_input
from apps.runtime.models import InputRequest, Turn
from apps.runtime.trace import TurnRecorder

MAX_ANSWER_CHARS = 200
MAX_CHOICES = 12
MIN_WAIT_SECONDS, MAX_WAIT_SECONDS = 5.0, 30 * 60.0


class InputRefused(Exception):
    """An answer that cannot be accepted; ``reason`` is a stable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _cache_key(request: InputRequest) -> str:
    return f"metnos:input:{request.pk}"


def _wait_seconds(spec: InputSpec) -> float:
    return min(max(spec.timeout_seconds, MIN_WAIT_SECONDS), MAX_WAIT_SECONDS)


def input_requester(
    *, recorder: TurnRecorder, step_index: int, cancelled: threading.Event
) -> tuple[Callable[[InputSpec], InputAnswer], list[str]]:
    """The ``request_input`` of a step of ``recorder``'s turn, and the list its sensitive answers are added to.

    The list is for redaction. The step's questions are recorded through the
    turn's recorder (which writes them at once while the step runs).
    """
    answered: list[str] = []

    def request_input(spec: InputSpec) -> InputAnswer:
        answer = _ask_and_wait(recorder, step_index, spec, cancelled)
        if answer.value is not None and spec.sensitive:
            answered.append(answer.value)
            secret_register(answer.value)
        return answer

    return request_input, answered


def _ask_and_wait(recorder: TurnRecorder, step_index: int, spec: InputSpec, cancelled: threading.Event) -> InputAnswer:
    turn = recorder.turn
    # One transaction: whoever sees the question also sees the turn waiting for it.
    with transaction.atomic():
        request = _create_request(turn, step_index, spec)
        turn_suspend_for_input(turn=turn, recorder=recorder)
    recorder.record("input.requested", {"step": step_index, "kind": spec.kind, "input_id": request.pk})
    event: TurnEvent = {"type": "turn.input_requested", "step": step_index, "input_id": request.pk, "kind": spec.kind,
             "prompt": request.prompt, "sensitive": spec.sensitive, "choices": list(request.choices)}  # fmt: skip
    recorder.publish(event)
    try:
        status = _wait(request, cancelled)
        value = cache.get(_cache_key(request)) if status == InputRequest.Status.ANSWERED else None
        if status == InputRequest.Status.ANSWERED and value is None:
            status = InputRequest.Status.EXPIRED  # the reply outlived its moment in the cache
    finally:
        cache.delete(_cache_key(request))
        turn_resume_after_input(turn=turn, recorder=recorder)
    recorder.record("input.closed", {"step": step_index, "input_id": request.pk, "status": status})
    return InputAnswer(status, value)  # type: ignore[arg-type]


def _create_request(turn: Turn, step_index: int, spec: InputSpec) -> InputRequest:
    return InputRequest.objects.create(
        owner_id=turn.owner_id,
        turn=turn,
        conversation_id=turn.conversation_id,
        step_index=step_index,
        kind=spec.kind,
        prompt=spec.prompt[:300],
        choices=[str(choice)[:200] for choice in spec.choices[:MAX_CHOICES]],
        sensitive=spec.sensitive,
        expires_at=timezone.now() + dt.timedelta(seconds=_wait_seconds(spec)),
    )


def _wait(request: InputRequest, cancelled: threading.Event) -> str:
    backoff = Backoff(cancelled)
    while True:
        status = InputRequest.objects.filter(pk=request.pk).values_list("status", flat=True).first()
        if status != InputRequest.Status.PENDING:
            return status or InputRequest.Status.CANCELLED
        if cancelled.is_set():
            InputRequest.objects.filter(pk=request.pk, status=InputRequest.Status.PENDING).update(
                status=InputRequest.Status.CANCELLED
            )
            return InputRequest.Status.CANCELLED
        if timezone.now() >= request.expires_at:
            InputRequest.objects.filter(pk=request.pk, status=InputRequest.Status.PENDING).update(
                status=InputRequest.Status.EXPIRED
            )
            continue  # read the final status: an answer may have won the race
        backoff.pause()


def input_request_list(*, owner: User) -> QuerySet[InputRequest]:
    return owned_rows(InputRequest, owner=owner)


def _pending(owner: User, input_id: Any, conversation_id: int | None) -> InputRequest:
    request = get_owned_or_404(input_request_list(owner=owner), pk=input_id)
    if conversation_id is not None and request.conversation_id != conversation_id:
        raise InputRefused("other_conversation", "This question belongs to another conversation.")
    if request.status != InputRequest.Status.PENDING:
        raise InputRefused("not_pending", f"This question is already {request.status}.")
    if timezone.now() >= request.expires_at:
        raise InputRefused("expired", "This question has expired; ask again.")
    return request


def input_answer(*, owner: User, input_id: Any, value: str, conversation_id: int | None) -> InputRequest:
    """Deliver the user's answer to the waiting step (another user's question is a 404)."""
    request = _pending(owner, input_id, conversation_id)
    value = value.strip()
    if not value or len(value) > MAX_ANSWER_CHARS:
        raise InputRefused("invalid_answer", f"The answer must be 1 to {MAX_ANSWER_CHARS} characters.")
    if request.kind == InputRequest.Kind.CHOICE and value not in {
        str(number) for number in range(1, len(request.choices) + 1)
    }:
        raise InputRefused("not_a_choice", f"Choose one of the options, 1 to {len(request.choices)}.")
    remaining = (request.expires_at - timezone.now()).total_seconds()
    cache.set(_cache_key(request), value, timeout=max(1, int(remaining) + 5))
    with transaction.atomic():
        taken = InputRequest.objects.filter(pk=request.pk, status=InputRequest.Status.PENDING).update(
            status=InputRequest.Status.ANSWERED, answered_at=timezone.now()
        )
    if not taken:
        cache.delete(_cache_key(request))
        raise InputRefused("not_pending", "This question was closed meanwhile.")
    request.refresh_from_db()
    return request


def input_decline(*, owner: User, input_id: Any, conversation_id: int | None) -> InputRequest:
    request = _pending(owner, input_id, conversation_id)
    InputRequest.objects.filter(pk=request.pk, status=InputRequest.Status.PENDING).update(
        status=InputRequest.Status.DECLINED, answered_at=timezone.now()
    )
    request.refresh_from_db()
    return request
