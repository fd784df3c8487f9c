"""A step asks the user mid-turn: bound to user, turn and conversation; the answer is stored nowhere."""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from apps.accounts.models import User
from apps.runtime.executor import InputAnswer, InputSpec
from apps.runtime.models import Conversation, InputRequest, TraceEvent, Turn
from apps.runtime.trace import TurnRecorder
from apps.runtime.user_input import input_requester
from tests.conftest import api_client_for
from tests.test_background import wait_until

pytestmark = pytest.mark.django_db(transaction=True)
CANARY_CODE = "CANARY-OTP-731904"


def _running_turn(owner: User) -> Turn:
    conversation = Conversation.objects.create(owner=owner)
    return Turn.objects.create(
        owner=owner, conversation=conversation, request_text="sign in", status=Turn.Status.RUNNING
    )


def _ask_in_background(turn: Turn, spec: InputSpec) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def step() -> None:
        try:
            recorder = TurnRecorder(turn)
            request_input, answered = input_requester(recorder=recorder, step_index=2, cancelled=threading.Event())
            outcome["answer"] = request_input(spec)
            outcome["answered"] = list(answered)
        finally:
            connection.close()

    thread = threading.Thread(target=step)
    thread.start()
    return thread, outcome


def _pending(turn: Turn) -> InputRequest | None:
    return InputRequest.objects.filter(turn=turn, status=InputRequest.Status.PENDING).first()


def test_the_answer_reaches_the_waiting_step_and_is_stored_nowhere(owner: User) -> None:
    turn = _running_turn(owner)
    thread, outcome = _ask_in_background(turn, InputSpec(kind="otp", prompt="Enter the code sent by SMS"))
    assert wait_until(lambda: _pending(turn) is not None)
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.AWAITING_INPUT
    question = _pending(turn)
    assert question is not None

    listed = api_client_for(owner).get("/api/v1/input-requests/").json()["results"]
    assert [item["prompt"] for item in listed] == ["Enter the code sent by SMS"]
    answer = api_client_for(owner).post(
        f"/api/v1/input-requests/{question.pk}/answer/",
        {"value": CANARY_CODE, "conversation": turn.conversation_id},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    thread.join(timeout=10)

    assert outcome["answer"] == InputAnswer("answered", CANARY_CODE)
    assert outcome["answered"] == [CANARY_CODE]  # the boundary redacts these from what the step records
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RUNNING
    stored = [str(row) for row in InputRequest.objects.values()] + [str(row) for row in TraceEvent.objects.values()]
    assert stored and not any(CANARY_CODE in row for row in stored)
    assert CANARY_CODE not in answer.content.decode()
    kinds = list(TraceEvent.objects.filter(turn=turn).values_list("kind", flat=True))
    assert kinds == ["input.requested", "input.closed"]


def test_only_the_same_user_and_conversation_can_answer(owner: User, second_user: User) -> None:
    turn = _running_turn(owner)
    thread, outcome = _ask_in_background(turn, InputSpec(kind="otp", prompt="Code?", timeout_seconds=5))
    assert wait_until(lambda: _pending(turn) is not None)
    question = _pending(turn)
    assert question is not None
    url = f"/api/v1/input-requests/{question.pk}/answer/"

    stranger = api_client_for(second_user).post(
        url, {"value": "1", "conversation": turn.conversation_id}, format="json"
    )
    assert stranger.status_code == 404
    other = Conversation.objects.create(owner=owner)
    wrong = api_client_for(owner).post(url, {"value": "1", "conversation": other.pk}, format="json")
    assert wrong.status_code == 409 and wrong.json()["error"]["code"] == "input_other_conversation"
    empty = api_client_for(owner).post(url, {"value": "  ", "conversation": turn.conversation_id}, format="json")
    assert empty.status_code == 400

    thread.join(timeout=15)  # nobody answered: the question expires
    assert outcome["answer"] == InputAnswer("expired", None)
    late = api_client_for(owner).post(url, {"value": "1", "conversation": turn.conversation_id}, format="json")
    assert late.status_code == 409 and late.json()["error"]["code"] == "input_not_pending"


def test_a_declined_question_ends_the_wait_without_a_value(owner: User) -> None:
    turn = _running_turn(owner)
    thread, outcome = _ask_in_background(turn, InputSpec(kind="otp", prompt="Code?"))
    assert wait_until(lambda: _pending(turn) is not None)
    question = _pending(turn)
    assert question is not None
    declined = api_client_for(owner).post(
        f"/api/v1/input-requests/{question.pk}/decline/", {"conversation": turn.conversation_id}, format="json"
    )
    assert declined.status_code == 200
    thread.join(timeout=10)
    assert outcome["answer"] == InputAnswer("declined", None)


def test_an_expired_question_cannot_be_answered(owner: User) -> None:
    turn = _running_turn(owner)
    question = InputRequest.objects.create(
        owner=owner,
        turn=turn,
        conversation=turn.conversation,
        step_index=1,
        kind="otp",
        prompt="Code?",
        expires_at=timezone.now() - dt.timedelta(seconds=1),
    )
    answer = api_client_for(owner).post(
        f"/api/v1/input-requests/{question.pk}/answer/",
        {"value": "1", "conversation": turn.conversation_id},
        format="json",
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "input_expired"


class AsksForACode:
    """Test executor: asks for a one-time code, then (carelessly) repeats it in its result."""

    from apps.runtime.manifests import ArgSpec as _ArgSpec
    from apps.runtime.manifests import Manifest as _Manifest
    from apps.runtime.manifests import ResultShape as _ResultShape

    manifest = _Manifest(
        name="asks_for_code",
        purpose="Test only: ask the user for a one-time code.",
        args={"site": _ArgSpec(type="string", required=True)},
        result=_ResultShape(kind="value", fields=("echo",)),
    )

    def run(self, context: Any, args: Any) -> Any:
        from apps.runtime.executor import StepResult

        answer = context.request_input(InputSpec(kind="otp", prompt=f"Code for {args['site']}?"))
        if answer.status != "answered":
            return StepResult(outcome="empty", summary=f"no code ({answer.status})")
        return StepResult(outcome="success", value={"echo": answer.value}, summary=f"used code {answer.value}")


def test_a_turn_waits_for_the_code_and_records_no_trace_of_it(owner: User) -> None:
    from apps.runtime.executor import build_catalog
    from apps.runtime.models import StepRecord
    from apps.runtime.turns import turn_conduct, turn_submit

    plan = {"steps": [{"tool": "asks_for_code", "args": {"site": "example"}}]}
    turn = turn_submit(owner=owner, text="sign in to example", plan=plan, enqueue=False)
    catalog = build_catalog({"asks_for_code": AsksForACode()})
    result: dict[str, Turn] = {}

    def conduct() -> None:
        try:
            result["turn"] = turn_conduct(turn=turn, catalog=catalog)
        finally:
            connection.close()

    thread = threading.Thread(target=conduct)
    thread.start()
    assert wait_until(lambda: _pending(turn) is not None)
    question = _pending(turn)
    assert question is not None
    answer = api_client_for(owner).post(
        f"/api/v1/input-requests/{question.pk}/answer/",
        {"value": CANARY_CODE, "conversation": turn.conversation_id},
        format="json",
    )
    assert answer.status_code == 200
    thread.join(timeout=20)

    finished = result["turn"]
    assert finished.status == Turn.Status.COMPLETED, finished.answer
    record = StepRecord.objects.get(turn=turn)
    assert "used code" in record.summary
    everything = " ".join(
        [finished.answer, str(StepRecord.objects.filter(turn=turn).values()), str(TraceEvent.objects.values())]
    )
    assert CANARY_CODE not in everything


def test_a_choice_is_answered_with_one_of_its_numbers_and_only_by_its_user(owner: User, second_user: User) -> None:
    turn = _running_turn(owner)
    options = ("Log in — Personal banking", "Log in — Business banking")
    spec = InputSpec(kind="choice", prompt="Which way in is for your account?", sensitive=False, choices=options)
    thread, outcome = _ask_in_background(turn, spec)
    assert wait_until(lambda: _pending(turn) is not None)
    question = _pending(turn)
    assert question is not None
    listed = api_client_for(owner).get("/api/v1/input-requests/").json()["results"]
    assert [(item["kind"], item["choices"]) for item in listed] == [("choice", list(options))]
    url = f"/api/v1/input-requests/{question.pk}/answer/"

    stranger = api_client_for(second_user).post(
        url, {"value": "1", "conversation": turn.conversation_id}, format="json"
    )
    assert stranger.status_code == 404
    outside = api_client_for(owner).post(url, {"value": "3", "conversation": turn.conversation_id}, format="json")
    assert outside.status_code == 400 and outside.json()["error"]["code"] == "input_not_a_choice"
    chosen = api_client_for(owner).post(url, {"value": "2", "conversation": turn.conversation_id}, format="json")
    assert chosen.status_code == 200, chosen.json()
    thread.join(timeout=10)

    assert outcome["answer"] == InputAnswer("answered", "2")
    assert outcome["answered"] == []  # a choice is not sensitive: nothing to withhold
