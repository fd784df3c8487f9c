"""A process killed in the middle of a turn leaves it truthful: interrupted, never success."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from apps.accounts.models import User
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import turns_reconcile_interrupted
from tests.conftest import REPO_ROOT, _database_url_for_children

WAIT_SECONDS = 60


@pytest.mark.django_db(transaction=True)
def test_killed_conductor_leaves_an_interrupted_turn_with_completed_steps_visible(owner: User, tmp_path: Path) -> None:
    from django.conf import settings

    (Path(settings.FILES_ROOT) / str(owner.pk) / "Inbox").mkdir(parents=True, exist_ok=True)
    (Path(settings.FILES_ROOT) / str(owner.pk) / "Inbox" / "a.txt").write_text("hello", encoding="utf-8")
    marker = tmp_path / "started"
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "steps": [
                    {"tool": "find_files", "args": {"base_path": "~/Inbox"}},
                    {"tool": "probe_wait", "args": {"marker": str(marker)}},
                    {"tool": "find_files", "args": {"base_path": "~/Inbox"}},
                ]
            }
        ),
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": _database_url_for_children(),
        "METNOS_TEST_PROBE_EXECUTORS": "true",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    process = subprocess.Popen(
        [sys.executable, "manage.py", "metnos", "plan", "--user", owner.username, str(plan)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while not marker.exists():
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            assert time.monotonic() < deadline, "the step never started"
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=20)

    turn = Turn.objects.get(owner=owner)
    assert turn.status == Turn.Status.RUNNING  # nobody has looked yet
    ended = turns_reconcile_interrupted()

    assert [t.pk for t in ended] == [turn.pk]
    turn.refresh_from_db()
    assert turn.status == Turn.Status.INTERRUPTED
    steps = {record.index: record for record in StepRecord.objects.filter(turn=turn)}
    assert steps[1].outcome == "success"
    assert steps[2].outcome == "failed"
    assert steps[2].error_class == "unknown"
    assert 3 not in steps or steps[3].outcome in ("pending", "skipped")
    assert "unknown" in turn.answer
    # Running the reconciliation again changes nothing.
    assert turns_reconcile_interrupted() == []


@pytest.mark.django_db
def test_a_live_conductor_is_left_alone(owner: User) -> None:
    from apps.runtime.models import Conversation
    from apps.runtime.turns import conductor_identity

    conversation = Conversation.objects.create(owner=owner)
    turn = Turn.objects.create(
        owner=owner, conversation=conversation, request_text="x", status=Turn.Status.RUNNING,
        conducted_by=conductor_identity(),
    )  # fmt: skip
    assert turns_reconcile_interrupted() == []
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RUNNING
