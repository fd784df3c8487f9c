"""Consent replay: only the owner, for the same conversation, plan and catalog, before expiry."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.http import Http404
from django.utils import timezone

from apps.accounts.models import User
from apps.runtime.consent import ConsentRefused, consent_decide
from apps.runtime.executor import build_catalog
from apps.runtime.models import ConsentRequest, Conversation, StepRecord, Turn
from apps.runtime.turns import turn_conduct, turn_submit

pytestmark = pytest.mark.django_db

DELETE_REQUEST = "delete the pdf files in the Purchasing folder"


def _awaiting(owner: User) -> tuple[Turn, ConsentRequest]:
    turn = turn_conduct(turn=turn_submit(owner=owner, text=DELETE_REQUEST, enqueue=False))
    assert turn.status == Turn.Status.AWAITING_CONFIRMATION, turn.answer
    return turn, ConsentRequest.objects.get(turn=turn)


def _decide(
    owner: User, consent: ConsentRequest, *, confirm: bool = True, conversation: int | None = None
) -> Turn | None:
    decision = consent_decide(
        owner=owner,
        consent_id=consent.pk,
        confirm=confirm,
        conversation_id=consent.conversation_id if conversation is None else conversation,
        current_catalog_signature=build_catalog().signature,
    )
    return decision.resumed_turn


def _pdfs(folder: Path) -> int:
    return len(list(folder.glob("*.pdf")))


def test_step_needing_confirmation_stops_before_its_effect(owner: User, purchasing: Path) -> None:
    turn, consent = _awaiting(owner)
    assert _pdfs(purchasing) == 3
    assert consent.proposal["action"] == "Delete 3 files"
    assert "quote1.pdf" in consent.proposal["destination"]
    assert "cannot undo" in consent.proposal["consequences"]
    assert StepRecord.objects.get(turn=turn, index=1).outcome == "success"
    assert not StepRecord.objects.filter(turn=turn, index=2).exists()


def test_confirmation_resumes_in_a_new_linked_turn_without_repeating_steps(owner: User, purchasing: Path) -> None:
    turn, consent = _awaiting(owner)
    resumed = _decide(owner, consent)
    assert resumed is not None and resumed.pk != turn.pk
    assert resumed.resumed_from_id == turn.pk
    assert resumed.conversation_id == turn.conversation_id
    resumed = turn_conduct(turn=resumed)
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert _pdfs(purchasing) == 0
    consent.refresh_from_db()
    assert consent.consumed_at is not None
    turn.refresh_from_db()
    assert turn.status == Turn.Status.HANDED_OFF


def test_another_user_cannot_answer(owner: User, second_user: User, purchasing: Path) -> None:
    _, consent = _awaiting(owner)
    with pytest.raises(Http404):
        _decide(second_user, consent)
    assert _pdfs(purchasing) == 3
    consent.refresh_from_db()
    assert consent.decision == ConsentRequest.Decision.PENDING


def test_answer_from_another_conversation_is_refused(owner: User, purchasing: Path) -> None:
    _, consent = _awaiting(owner)
    elsewhere = Conversation.objects.create(owner=owner, title="elsewhere")
    with pytest.raises(ConsentRefused) as refused:
        _decide(owner, consent, conversation=elsewhere.pk)
    assert refused.value.reason == "other_conversation"
    assert _pdfs(purchasing) == 3


def test_edited_plan_cannot_be_resumed(owner: User, purchasing: Path) -> None:
    turn, consent = _awaiting(owner)
    Turn.objects.filter(pk=turn.pk).update(
        plan={"steps": [{"tool": "delete_files", "args": {"paths": ["~/Purchasing/quote1.pdf"]}}]},
        plan_digest="0" * 64,
    )
    with pytest.raises(ConsentRefused) as refused:
        _decide(owner, consent)
    assert refused.value.reason == "plan_changed"
    assert _pdfs(purchasing) == 3


def test_old_confirmation_cannot_be_used_twice(owner: User, purchasing: Path) -> None:
    _, consent = _awaiting(owner)
    first = _decide(owner, consent)
    assert first is not None
    with pytest.raises(ConsentRefused) as refused:
        _decide(owner, consent)
    assert refused.value.reason == "already_decided"
    assert Turn.objects.filter(resumed_from=consent.turn).count() == 1
    assert _pdfs(purchasing) == 3  # the resumed turn has not run yet


def test_expired_confirmation_is_refused(owner: User, purchasing: Path) -> None:
    _, consent = _awaiting(owner)
    ConsentRequest.objects.filter(pk=consent.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(ConsentRefused) as refused:
        _decide(owner, consent)
    assert refused.value.reason == "expired"
    consent.refresh_from_db()
    assert consent.decision == ConsentRequest.Decision.EXPIRED
    assert _pdfs(purchasing) == 3


def test_changed_catalog_refuses_the_confirmation(owner: User, purchasing: Path) -> None:
    _, consent = _awaiting(owner)
    with pytest.raises(ConsentRefused) as refused:
        consent_decide(
            owner=owner, consent_id=consent.pk, confirm=True, conversation_id=consent.conversation_id,
            current_catalog_signature="another-catalog",
        )  # fmt: skip
    assert refused.value.reason == "catalog_changed"
    assert _pdfs(purchasing) == 3


def test_declining_ends_the_turn_with_no_effect(owner: User, purchasing: Path) -> None:
    turn, consent = _awaiting(owner)
    assert _decide(owner, consent, confirm=False) is None
    turn.refresh_from_db()
    assert turn.status == Turn.Status.DECLINED
    assert _pdfs(purchasing) == 3


def test_a_resumed_turn_without_its_approval_asks_again(owner: User, purchasing: Path) -> None:
    _, consent = _awaiting(owner)
    resumed = _decide(owner, consent)
    assert resumed is not None
    ConsentRequest.objects.filter(pk=consent.pk).update(consumed_at=timezone.now())  # approval already used
    resumed = turn_conduct(turn=resumed)
    assert resumed.status == Turn.Status.AWAITING_CONFIRMATION
    assert _pdfs(purchasing) == 3
