"""A process killed in the middle of a turn leaves it truthful: interrupted, never success."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.turns import turn_submit, turns_reconcile_interrupted
from tests.conftest import REPO_ROOT, _database_url_for_children

WAIT_SECONDS = 60


def _start_conductor(
    how: str, owner: User, plan: dict[str, Any], env: dict[str, str], folder: Path
) -> subprocess.Popen[bytes]:
    """A process conducting ``plan`` for ``owner``: the operator CLI inline, or the worker's task."""
    if how == "cli":
        plan_file = folder / "plan.json"
        plan_file.write_text(json.dumps(plan), encoding="utf-8")
        command = ["manage.py", "metnos", "plan", "--user", owner.username, str(plan_file)]
    else:
        # Recorded here, claimed and conducted there: exactly what a worker does with a delivered turn.
        turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
        script = f"from apps.runtime.tasks import run_turn; run_turn({turn.pk}, {owner.pk})"
        command = ["manage.py", "shell", "-c", script]
    return subprocess.Popen(
        [sys.executable, *command], cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["cli", "worker"])
def test_killed_conductor_leaves_an_interrupted_turn_with_completed_steps_visible(
    owner: User, tmp_path: Path, how: str
) -> None:
    from django.conf import settings

    (Path(settings.FILES_ROOT) / str(owner.pk) / "Inbox").mkdir(parents=True, exist_ok=True)
    (Path(settings.FILES_ROOT) / str(owner.pk) / "Inbox" / "a.txt").write_text("hello", encoding="utf-8")
    marker = tmp_path / "started"
    plan = {
        "steps": [
            {"tool": "find_files", "args": {"base_path": "~/Inbox"}},
            {"tool": "probe_wait", "args": {"marker": str(marker)}},
            {"tool": "find_files", "args": {"base_path": "~/Inbox"}},
        ]
    }
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": _database_url_for_children(),
        "METNOS_TEST_PROBE_EXECUTORS": "true",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    process = _start_conductor(how, owner, plan, env, tmp_path)
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
    # Everything about the running step was written before its effect could happen.
    assert [step["tool"] for step in (turn.plan or {})["steps"]] == ["find_files", "probe_wait", "find_files"]
    assert turn.plan_digest and turn.conducted_by
    written = list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("kind", "data"))
    assert [kind for kind, _ in written] == [
        "path.chosen", "plan.accepted", "step.started", "step.finished", "step.started",
    ]  # fmt: skip
    assert written[-1][1] == {"step": 2, "tool": "probe_wait"}
    ended = turns_reconcile_interrupted()

    assert [t.pk for t in ended] == [turn.pk]
    turn.refresh_from_db()
    assert turn.status == Turn.Status.INTERRUPTED
    steps = {record.index: record for record in StepRecord.objects.filter(turn=turn)}
    assert steps[1].outcome == "success"
    assert steps[2].outcome == "failed"
    assert steps[2].error_class == "unknown"
    assert steps[3].outcome == "skipped"
    assert "unknown" in turn.answer
    sequences = list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, 7))  # the reconciliation's turn.finished follows, without a gap
    # Running the reconciliation again changes nothing.
    assert turns_reconcile_interrupted() == []


@pytest.mark.django_db
def test_a_live_conductor_is_left_alone(owner: User) -> None:
    from apps.runtime.lifecycle import conductor_identity
    from apps.runtime.models import Conversation

    conversation = Conversation.objects.create(owner=owner)
    turn = Turn.objects.create(
        owner=owner, conversation=conversation, request_text="x", status=Turn.Status.RUNNING,
        conducted_by=conductor_identity(),
    )  # fmt: skip
    assert turns_reconcile_interrupted() == []
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RUNNING


@pytest.mark.django_db
def test_a_turn_waiting_for_input_whose_conductor_died_is_interrupted_and_its_question_withdrawn(
    owner: User,
) -> None:
    import datetime as dt
    import socket

    from django.utils import timezone

    from apps.runtime.models import Conversation, InputRequest

    # A process that has certainly ended: its pid is free once it was waited for.
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait(timeout=20)
    conversation = Conversation.objects.create(owner=owner)
    turn = Turn.objects.create(
        owner=owner, conversation=conversation, request_text="sign in", status=Turn.Status.AWAITING_INPUT,
        conducted_by=f"{socket.gethostname()}:{finished.pid}", plan={"steps": [{"tool": "find_files", "args": {}}]},
    )  # fmt: skip
    question = InputRequest.objects.create(
        owner=owner, turn=turn, conversation=conversation, step_index=1, kind="otp", prompt="Code?",
        expires_at=timezone.now() + dt.timedelta(minutes=5),
    )  # fmt: skip

    assert [ended.pk for ended in turns_reconcile_interrupted()] == [turn.pk]
    turn.refresh_from_db()
    question.refresh_from_db()
    assert turn.status == Turn.Status.INTERRUPTED
    assert question.status == InputRequest.Status.CANCELLED  # nobody is waiting for the answer any more
