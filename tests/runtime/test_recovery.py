"""Recovery rules: claims, expired confirmations, requeue at start, autopath and undo edges."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from apps.accounts.models import User
from apps.runtime.lifecycle import conductor_identity, turn_claim
from apps.runtime.models import ConsentRequest, Conversation, StepRecord, TraceEvent, Turn
from apps.runtime.paths.choice import generalise
from apps.runtime.turns import consents_expire, turn_conduct, turn_submit
from tests.conftest import WorkerHandle
from tests.runtime.conftest import QUOTES_REQUEST

pytestmark = pytest.mark.django_db


def _ask(owner: User, text: str) -> Turn:
    return turn_conduct(turn=turn_submit(owner=owner, text=text, enqueue=False))


def test_a_turn_is_claimed_once(owner: User) -> None:
    turn = turn_submit(owner=owner, text="hello", enqueue=False)
    assert turn_claim(turn_id=turn.pk, owner_id=owner.pk)
    assert not turn_claim(turn_id=turn.pk, owner_id=owner.pk)


def test_a_claim_says_who_conducts_and_since_when(owner: User) -> None:
    turn = turn_submit(owner=owner, text="hello", enqueue=False)
    assert turn_claim(turn_id=turn.pk, owner_id=owner.pk)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RUNNING
    assert turn.conducted_by == conductor_identity()  # a claimed turn whose process dies is found
    assert turn.started_at is not None


def test_a_claimed_turn_is_read_whole_with_its_owner(owner: User, django_assert_num_queries: Any) -> None:
    turn = turn_submit(owner=owner, text="hello", enqueue=False)
    claimed = turn_claim(turn_id=turn.pk, owner_id=owner.pk)
    assert claimed is not None
    with django_assert_num_queries(0):  # the conductor needs the owner at once: read with the claim
        assert claimed.owner.username == owner.username
        assert claimed.conversation_id == turn.conversation_id
    fresh = Turn.objects.get(pk=turn.pk)
    for field in Turn._meta.concrete_fields:
        assert getattr(claimed, field.attname) == getattr(fresh, field.attname), field.name


def test_another_owner_cannot_claim(owner: User, second_user: User) -> None:
    turn = turn_submit(owner=owner, text="hello", enqueue=False)
    assert not turn_claim(turn_id=turn.pk, owner_id=second_user.pk)


def test_expired_confirmation_ends_its_turn(owner: User, purchasing: Path) -> None:
    turn = _ask(owner, "delete the pdf files in the Purchasing folder")
    ConsentRequest.objects.filter(turn=turn).update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    assert consents_expire(owner=owner) == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.DECLINED
    assert "expired" in turn.answer
    assert len(list(purchasing.glob("*.pdf"))) == 3


@pytest.mark.django_db(transaction=True)
def test_worker_start_requeues_turns_the_embedded_queue_lost(
    owner: User, settings: Any, background_worker: WorkerHandle
) -> None:
    from apps.runtime.turns import turns_recover_on_worker_start

    settings.EMBEDDED_SERVICES = True
    lost = turn_submit(owner=owner, text="book a flight", enqueue=False)  # as if its queue died
    done = Turn.objects.create(owner=owner, conversation=Conversation.objects.create(owner=owner), request_text="x",
                               status=Turn.Status.COMPLETED, answer="kept")  # fmt: skip
    turns_recover_on_worker_start()
    deadline = time.monotonic() + 60
    while not Turn.objects.get(pk=lost.pk).is_finished and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Turn.objects.get(pk=lost.pk).status == Turn.Status.FAILED  # conducted: no capability for flights
    assert Turn.objects.get(pk=done.pk).answer == "kept"


def test_autopath_never_turns_executor_names_into_slots() -> None:
    plan = {"steps": [{"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}},
                      {"tool": "read_files", "args": {"from_step": 1}}]}  # fmt: skip
    general = generalise("find and read the files in the Purchasing folder", plan)
    assert general is not None
    _, general_plan, _ = general
    assert [step["tool"] for step in general_plan["steps"]] == ["find_files", "read_files"]
    assert "{" in general_plan["steps"][0]["args"]["base_path"]


@pytest.mark.parametrize(
    "personal", ["*mario.rossi@example.org*", "https://example.org/private", "IT60X0542811101000000123456"]
)
def test_a_personal_value_after_a_slot_still_stops_generalisation(personal: str) -> None:
    # The argument that becomes a slot comes first: the value after it must still be seen.
    plan = {"steps": [{"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": personal}}]}
    assert generalise("find the pdf files in the Purchasing folder", plan) is None


def test_an_autopath_that_does_not_fit_falls_back_to_request_forms(owner: User, purchasing: Path) -> None:
    _ask(owner, "find the pdf files in the Purchasing folder")
    turn = _ask(owner, "read the pdf files in the Purchasing folder")
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    tools = StepRecord.objects.filter(turn=turn).order_by("index").values_list("tool", flat=True)
    assert list(tools) == ["find_files", "read_files"]


def test_an_undo_that_reverted_nothing_does_not_hide_the_turn(owner: User, purchasing: Path) -> None:
    _ask(owner, QUOTES_REQUEST)
    summary = purchasing / "summary.xlsx"
    original = summary.read_bytes()
    summary.write_bytes(b"changed")
    assert _ask(owner, "undo the last turn").status == Turn.Status.FAILED
    assert not TraceEvent.objects.filter(kind="turn.undone").exists()
    summary.write_bytes(original)
    assert _ask(owner, "undo the last turn").status == Turn.Status.COMPLETED
    assert not summary.exists()
