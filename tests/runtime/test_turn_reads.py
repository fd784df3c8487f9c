"""Reading turns: a few queries whatever the number of turns, and a read never writes.

The conversation page and the REST turn list show each turn with its steps,
its pending confirmation and its pending question. Both read them through one
prefetching selector, so their number of queries does not grow with the number
of turns; and neither expires a confirmation while serving a GET (the
schedule does, ``apps.runtime.consents_expire``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.runtime.models import ConsentRequest, Conversation, InputRequest, StepRecord, Turn
from tests.conftest import api_client_for

pytestmark = pytest.mark.django_db

STEPS_PER_TURN = 3
FEW_TURNS, MANY_TURNS = 1, 10


def _waiting_turn(owner: User, conversation: Conversation, *, expires_in: dt.timedelta) -> Turn:
    """A turn as the pages show it: steps with files, an old decision, a pending confirmation and question."""
    turn = Turn.objects.create(
        owner=owner,
        conversation=conversation,
        request_text="delete the pdf files",
        status=Turn.Status.AWAITING_CONFIRMATION,
    )
    for index in range(1, STEPS_PER_TURN + 1):
        StepRecord.objects.create(
            owner=owner, turn=turn, index=index, tool="find_files", outcome=StepRecord.Outcome.SUCCESS,
            summary=f"step {index}", files=[{"path": f"Purchasing/{index}.pdf", "size": 1}], cloud_requests=index % 2,
        )  # fmt: skip
    now = timezone.now()
    for decision, expires_at in [
        (ConsentRequest.Decision.DECLINED, now + dt.timedelta(minutes=5)),
        (ConsentRequest.Decision.PENDING, now + expires_in),
    ]:
        ConsentRequest.objects.create(
            owner=owner, turn=turn, conversation=conversation, step_index=STEPS_PER_TURN, tool="delete_files",
            plan_digest="d", catalog_signature="s", proposal={"action": "delete 3 files"}, decision=decision,
            expires_at=expires_at,
        )  # fmt: skip
    for status in [InputRequest.Status.ANSWERED, InputRequest.Status.PENDING]:
        InputRequest.objects.create(
            owner=owner, turn=turn, conversation=conversation, step_index=1, kind=InputRequest.Kind.OTP,
            prompt="The code we sent you", status=status, expires_at=now + dt.timedelta(minutes=5),
        )  # fmt: skip
    return turn


def _conversation_with(owner: User, turns: int, *, expires_in: dt.timedelta = dt.timedelta(minutes=5)) -> Conversation:
    conversation = Conversation.objects.create(owner=owner, title="Purchasing")
    for _ in range(turns):
        _waiting_turn(owner, conversation, expires_in=expires_in)
    return conversation


def _browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _queries(get: Any, path: str) -> int:
    get(path)  # warm caches (the session, the catalog) so both reads count only their own work
    with CaptureQueriesContext(connection) as captured:
        response = get(path)
    assert response.status_code == 200, response.content[:500]
    return len(captured.captured_queries)


def _page_queries(owner: User, turns: int) -> int:
    conversation = _conversation_with(owner, turns)
    return _queries(_browser(owner).get, f"/conversations/{conversation.pk}/")


def _list_queries(owner: User, turns: int) -> int:
    Turn.objects.filter(owner=owner).delete()
    _conversation_with(owner, turns)
    return _queries(api_client_for(owner).get, "/api/v1/turns/")


def test_conversation_page_queries_do_not_grow_with_its_turns(owner: User) -> None:
    few, many = _page_queries(owner, FEW_TURNS), _page_queries(owner, MANY_TURNS)
    assert many == few, f"{FEW_TURNS} turn(s): {few} queries; {MANY_TURNS} turns: {many}"


def test_turn_list_queries_do_not_grow_with_the_turns(owner: User) -> None:
    few, many = _list_queries(owner, FEW_TURNS), _list_queries(owner, MANY_TURNS)
    assert many == few, f"{FEW_TURNS} turn(s): {few} queries; {MANY_TURNS} turns: {many}"


def test_the_pages_show_what_the_prefetch_read(owner: User) -> None:
    conversation = _conversation_with(owner, 2)
    page = _browser(owner).get(f"/conversations/{conversation.pk}/").content.decode()
    assert page.count('class="consent"') == 2 and page.count('class="question"') == 2
    assert page.count(">Purchasing/3.pdf</a>") == 2
    listed = api_client_for(owner).get("/api/v1/turns/").json()["results"]
    pending = ConsentRequest.objects.filter(decision=ConsentRequest.Decision.PENDING).order_by("turn_id")
    assert sorted(turn["pending_consent"]["id"] for turn in listed) == [consent.pk for consent in pending]
    assert [[step["index"] for step in turn["steps"]] for turn in listed] == [[1, 2, 3]] * 2


def _rows(owner: User) -> list[tuple[Any, ...]]:
    consents = ConsentRequest.objects.filter(owner=owner).order_by("pk").values_list("pk", "decision", "decided_at")
    turns = Turn.objects.filter(owner=owner).order_by("pk").values_list("pk", "status", "answer", "finished_at")
    return [*consents, *turns]


def _reads(owner: User, conversation: Conversation, turn: Turn) -> list[tuple[Any, str]]:
    return [
        (_browser(owner).get, f"/conversations/{conversation.pk}/"),
        (api_client_for(owner).get, "/api/v1/turns/"),
        (api_client_for(owner).get, f"/api/v1/turns/{turn.pk}/"),
        (api_client_for(owner).get, f"/api/v1/turns/{turn.pk}/trace/"),
    ]


def test_reading_a_turn_past_its_confirmation_deadline_changes_no_row(owner: User) -> None:
    conversation = _conversation_with(owner, 1, expires_in=-dt.timedelta(minutes=1))
    turn = Turn.objects.get(conversation=conversation)
    before = _rows(owner)
    for get, path in _reads(owner, conversation, turn):
        assert get(path).status_code == 200, path
        assert _rows(owner) == before, f"GET {path} wrote"
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.AWAITING_CONFIRMATION


def test_a_confirmation_past_its_deadline_is_shown_expired(owner: User) -> None:
    conversation = _conversation_with(owner, 1, expires_in=-dt.timedelta(minutes=1))
    page = _browser(owner).get(f"/conversations/{conversation.pk}/").content.decode()
    assert 'class="consent expired"' in page and 'class="confirm"' not in page
    listed = api_client_for(owner).get("/api/v1/turns/").json()["results"]
    assert listed[0]["pending_consent"]["expired"] is True


def test_another_owners_turns_are_not_prefetched(owner: User, second_user: User) -> None:
    _conversation_with(second_user, 2)
    assert api_client_for(owner).get("/api/v1/turns/").json()["results"] == []


def test_a_new_turn_answers_with_no_steps(owner: User) -> None:
    client: APIClient = api_client_for(owner)
    body = client.post("/api/v1/turns/", {"text": "hello"}, format="json").json()
    assert body["status"] == "queued" and body["steps"] == [] and body["pending_consent"] is None


def test_the_schedule_expires_a_due_confirmation_and_ends_its_turn(owner: User) -> None:
    from apps.runtime.tasks import consents_expire_due

    due = Turn.objects.get(conversation=_conversation_with(owner, 1, expires_in=-dt.timedelta(seconds=1)))
    waiting = Turn.objects.get(conversation=_conversation_with(owner, 1))
    consents_expire_due()
    due.refresh_from_db()
    assert due.status == Turn.Status.DECLINED and "expired" in due.answer
    assert due.consents.get(decision=ConsentRequest.Decision.EXPIRED).decided_at is not None
    assert due.trace.filter(kind="turn.finished", data__status="declined").exists()
    waiting.refresh_from_db()
    assert waiting.status == Turn.Status.AWAITING_CONFIRMATION
    assert waiting.consents.filter(decision=ConsentRequest.Decision.PENDING).exists()


def test_a_decision_past_the_deadline_is_refused_before_the_schedule_runs(owner: User) -> None:
    conversation = _conversation_with(owner, 1, expires_in=-dt.timedelta(seconds=1))
    consent = ConsentRequest.objects.get(conversation=conversation, decision=ConsentRequest.Decision.PENDING)
    answer = api_client_for(owner).post(
        f"/api/v1/consents/{consent.pk}/decision/", {"confirm": True, "conversation": conversation.pk}, format="json"
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "consent_expired"
    assert Turn.objects.get(pk=consent.turn_id).status == Turn.Status.DECLINED
    assert not Turn.objects.filter(resumed_from_id=consent.turn_id).exists()  # nothing resumed
