"""The disk fills up while a spreadsheet is written: the step fails saying so, and no partial file is left."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import RUN_TURN_TASK, turn_submit
from tests.faults.conftest import Stack, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

TURN_SECONDS = 60
DISK_BYTES = 256 * 1024


@pytest.fixture
def small_disk(owner: User) -> Iterator[Path]:
    """The owner's files on a file system of their own, 256 KiB in all (a tmpfs)."""
    folder = Path(settings.FILES_ROOT) / str(owner.pk)
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"a small file system could not be mounted here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_fails_the_spreadsheet_step_and_leaves_no_partial_file(
    owner: User, stack: Stack, fault_table: Any, small_disk: Path
) -> None:
    data = small_disk / "Data"
    data.mkdir()
    for index in range(40):
        (data / f"report-{index:02}-{'x' * 60}.txt").write_text("figures", encoding="utf-8")
    # Fill the disk, leaving less than any spreadsheet needs.
    filler = small_disk / "filler.bin"
    try:
        with open(filler, "wb", buffering=0) as handle:
            while True:
                handle.write(b"\0" * 1024)
    except OSError:
        pass  # full
    plan = {"steps": [
        {"tool": "find_files", "args": {"base_path": "~/Data", "pattern": "*.txt"}},
        {"tool": "create_files_spreadsheet", "args": {"from_step": 1, "path": "~/Data/reports.xlsx"}},
    ]}  # fmt: skip
    stack.start_worker()
    with transaction.atomic():
        turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
        OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[turn.pk, owner.pk], next_attempt_at=timezone.now())
    began = time.monotonic()
    assert wait_for(lambda: Turn.objects.get(pk=turn.pk).is_finished, TURN_SECONDS), stack.log("worker")[-2000:]
    ended = Turn.objects.get(pk=turn.pk)
    step = StepRecord.objects.get(turn=ended, index=2)
    assert step.outcome == StepRecord.Outcome.FAILED, (step.outcome, step.summary)
    assert ended.status in (Turn.Status.FAILED, Turn.Status.PARTIAL)
    assert "space" in step.error_message.lower(), step.error_message
    leftovers = sorted(path.name for path in data.iterdir() if not path.name.endswith(".txt"))
    assert leftovers == []  # neither the spreadsheet nor its temporary file
    fault_table("disk full while writing a spreadsheet", f"step failed ({step.error_code}), no partial file",
                time.monotonic() - began)  # fmt: skip
