"""Statements compiled once (apps/core/compiled.py) read and write exactly what the ORM does."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.accounts.models import User
from apps.core import compiled
from apps.core.compiled import read_by_pk, update_where
from apps.runtime.models import Conversation, Turn

pytestmark = pytest.mark.django_db


def _turn(owner: User) -> Turn:
    conversation = Conversation.objects.create(owner=owner, title="t")
    return Turn.objects.create(
        owner=owner, conversation=conversation, request_text="a request with «quotes» and 'apostrophes'",
        plan={"steps": [{"tool": "x", "args": {"n": 1, "text": "é"}}]}, started_at=timezone.now(),
    )  # fmt: skip


def test_a_row_read_by_key_equals_the_orms_read_field_by_field(owner: User) -> None:
    turn = _turn(owner)
    read = read_by_pk(Turn, turn.pk)
    assert read is not None and read._state.adding is False
    expected = Turn.objects.get(pk=turn.pk)
    for field in Turn._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    assert read.plan["steps"][0]["args"] == {"n": 1, "text": "é"}  # JSON converted, not a string
    assert read.started_at is not None and timezone.is_aware(read.started_at)


def test_a_missing_row_reads_as_none(owner: User) -> None:
    assert read_by_pk(Turn, 10**9) is None


def test_a_compiled_update_changes_what_the_orm_would_and_counts_the_rows(owner: User) -> None:
    turn = _turn(owner)
    when = timezone.now() + dt.timedelta(seconds=5)
    where = {"pk": turn.pk, "status": Turn.Status.QUEUED, "owner_id": owner.pk}
    values = {"status": Turn.Status.RUNNING, "conducted_by": "host:1", "started_at": when}
    assert update_where(Turn, where=where, values=values) == 1
    # The shape was compiled (its parameters matched the ORM's), not sent through the ORM each time.
    assert isinstance(compiled._updates[(Turn, "default", tuple(sorted(where)), tuple(values))], str)
    turn.refresh_from_db()
    assert (turn.status, turn.conducted_by, turn.started_at) == (Turn.Status.RUNNING, "host:1", when)
    # The same shape again, with values that no longer match: nothing changes.
    assert update_where(Turn, where=where, values={**values, "conducted_by": "host:2"}) == 0
    turn.refresh_from_db()
    assert turn.conducted_by == "host:1"


def test_another_owners_row_is_not_updated(owner: User, second_user: User) -> None:
    turn = _turn(owner)
    where = {"pk": turn.pk, "owner_id": second_user.pk}
    assert update_where(Turn, where=where, values={"answer": "not yours"}) == 0
    turn.refresh_from_db()
    assert turn.answer == ""


def test_none_is_refused_with_a_clear_error(owner: User) -> None:
    turn = _turn(owner)
    with pytest.raises(ValueError, match="no None"):
        update_where(Turn, where={"pk": turn.pk}, values={"started_at": None})


def test_a_name_that_is_not_a_column_is_refused(owner: User) -> None:
    turn = _turn(owner)
    with pytest.raises(ValueError, match="not a column"):
        update_where(Turn, where={"pk": turn.pk}, values={"steps": 1})
