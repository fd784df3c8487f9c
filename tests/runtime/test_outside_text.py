"""Text from the outside world never hangs a turn (issue 15, finding 1).

A document holding U+0000, or a file name that is not valid UTF-8, used to
make the database refuse the step's record: the turn stayed ``running`` for
ever and its API answered 500. Every store now takes such text with the
characters replaced and a notice saying so; a record that still cannot be
written fails its step with a typed error; whatever breaks, the turn ends;
and a database's message never reaches the logs. These run on SQLite in the
embedded pass and on PostgreSQL in the services pass, where the refusals
were found.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from django.db import DataError, connection
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.core.storable import storable_text
from apps.runtime.boundary import RECORD_UNWRITABLE
from apps.runtime.executor import ExecutionContext, StepResult, build_catalog, registered_executors
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from tests.conftest import api_client_for

pytestmark = pytest.mark.django_db(transaction=True)

CANARY = "canary-doc-5x2"


def _conducted(owner: User, request: str) -> Turn:
    return turn_conduct(turn=turn_submit(owner=owner, text=request, enqueue=False))


def _api_reads(owner: User, turn: Turn) -> None:
    client: APIClient = api_client_for(owner)
    detail = client.get(f"/api/v1/turns/{turn.pk}/")
    assert detail.status_code == 200, detail.content[:300]
    listing = client.get("/api/v1/turns/")
    assert listing.status_code == 200, listing.content[:300]
    detail.content.decode("utf-8")  # encodable: no lone surrogate left in any answer


def test_a_document_holding_nul_is_read_and_the_turn_ends(owner: User, root: Path) -> None:
    folder = root / "Notes"
    folder.mkdir()
    (folder / "a.txt").write_text(f"Total {CANARY}\x00 due\x00 now", encoding="utf-8")

    turn = _conducted(owner, "read the txt files in the Notes folder")

    assert turn.status in (Turn.Status.COMPLETED, Turn.Status.PARTIAL), turn.answer
    record = StepRecord.objects.get(turn=turn, tool="read_files")
    assert record.outcome in (StepRecord.Outcome.SUCCESS, StepRecord.Outcome.PARTIAL)
    stored = str(record.result)
    assert "\x00" not in stored and f"Total {CANARY}\ufffd due" in stored
    assert any("could not be stored as they were" in notice for notice in record.notices)
    _api_reads(owner, turn)


def test_a_file_name_that_is_not_utf8_is_listed_escaped(owner: User, root: Path) -> None:
    folder = root / "Inbox"
    folder.mkdir()
    try:
        with open(os.path.join(os.fsencode(folder), b"caf\xe9-" + CANARY.encode() + b".txt"), "wb") as file:
            file.write(b"hello")
    except OSError:
        pytest.skip("this file system refuses names that are not valid UTF-8")

    turn = _conducted(owner, "find the txt files in the Inbox folder")

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    record = StepRecord.objects.get(turn=turn, tool="find_files")
    assert [item["name"] for item in record.result["items"]] == [f"caf\\xe9-{CANARY}.txt"]
    assert any("could not be stored as they were" in notice for notice in record.notices)
    _api_reads(owner, turn)


class _Unstorable:
    """A value no JSON store can take: a result holding it cannot be recorded."""

    def __repr__(self) -> str:
        return f"<{CANARY}>"


class _ProducesUnstorable:
    manifest = Manifest(
        name="probe_unstorable",
        purpose="test executor: returns a result that cannot be stored",
        args={"label": ArgSpec("string", False, max_length=50)},
        result=ResultShape("value", ("thing",)),
    )

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="success", value={"thing": _Unstorable()}, summary="made a thing")


def test_a_result_that_cannot_be_stored_fails_its_step_and_the_turn_ends(
    owner: User, caplog: pytest.LogCaptureFixture
) -> None:
    catalog = build_catalog({**registered_executors(), "probe_unstorable": _ProducesUnstorable()})
    turn = turn_submit(owner=owner, text="", plan={"steps": [{"tool": "probe_unstorable", "args": {}}]}, enqueue=False)
    with caplog.at_level(logging.INFO):
        turn = turn_conduct(turn=turn, catalog=catalog)

    assert turn.status == Turn.Status.FAILED, turn.answer
    record = StepRecord.objects.get(turn=turn)
    assert (record.outcome, record.error_class, record.error_code) == ("failed", "unknown", RECORD_UNWRITABLE)
    assert TraceEvent.objects.filter(turn=turn, kind="turn.finished").exists()
    assert CANARY not in caplog.text
    _api_reads(owner, turn)


def test_a_crash_inside_the_conductor_still_ends_the_turn(
    owner: User, root: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever breaks after a step ran (here the database refuses the plan cache), the turn ends, truthfully."""
    (root / "Inbox").mkdir()

    def refuse(**_: Any) -> None:
        raise DataError(f'invalid byte sequence for encoding "UTF8": 0x00 near "{CANARY}"')

    monkeypatch.setattr("apps.runtime.turns.plan_cache_store", refuse)
    with caplog.at_level(logging.INFO):
        turn = _conducted(owner, "find the txt files in the Inbox folder")

    assert turn.status == Turn.Status.INTERRUPTED
    assert "unexpected error" in turn.answer
    assert TraceEvent.objects.filter(turn=turn, kind="turn.finished").exists()
    assert CANARY not in caplog.text
    assert "DataError" in caplog.text


def test_a_database_error_is_logged_by_its_kind_only(caplog: pytest.LogCaptureFixture) -> None:
    """A real refusal of the database (on PostgreSQL it quotes the value) never reaches a log record."""
    logger = logging.getLogger("apps.runtime.probe")
    with caplog.at_level(logging.INFO):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT CAST(%s AS INTEGER) + undefined_column", [CANARY])
        except Exception as error:
            logger.exception("reading failed")
            logger.warning("reading failed again: %s", error)
    assert "reading failed" in caplog.text
    assert CANARY not in caplog.text
    assert "text withheld" in caplog.text


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("plain", "plain"),
        ("a\x00b", "a\ufffdb"),
        ("caf\udce9", "caf\\xe9"),
        ("lone \ud800 high", "lone \ufffd high"),
        ("emoji 😀 stays", "emoji 😀 stays"),
    ],
)
def test_storable_text_replaces_only_what_no_store_takes(raw: str, stored: str) -> None:
    assert storable_text(raw)[0] == stored


def test_rows_written_directly_are_stored_and_read_cleanly(owner: User) -> None:
    """The storable fields take such text however it is written (create, update) and on either database."""
    turn = turn_submit(owner=owner, text=f"about {CANARY}", enqueue=False)
    Turn.objects.filter(pk=turn.pk).update(answer=f"x\x00{CANARY}\udcff", plan={"k\x00": ["v\ud800"]})
    turn.refresh_from_db()
    assert turn.answer == f"x\ufffd{CANARY}\\xff"
    assert turn.plan == {"k\ufffd": ["v\ufffd"]}
    TraceEvent.objects.create(owner=owner, turn=turn, sequence=99, kind="probe", content={"value": "a\x00"})
    assert TraceEvent.objects.get(turn=turn, sequence=99).content == {"value": "a\ufffd"}
