"""PostgreSQL restarted in the middle of a step: the turn still ends, truthfully, and runs nothing twice.

The worker uses a cluster of this test alone, restarted with every
connection cut while a step waits at its gate. Reads go through ``psql``
against that cluster: the test's own database is another one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.faults.conftest import PostgresCluster, Stack, fault_environment, wait_for

pytestmark = pytest.mark.services

TURN_SECONDS = 90
ENDED = ("completed", "partial", "failed", "interrupted", "declined", "handed_off")

SETUP = """
import json
from django.utils import timezone
from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.runtime.turns import RUN_TURN_TASK, turn_submit
owner = User.objects.create_user(username="fault-owner", password="fault-password-1234")
turn = turn_submit(owner=owner, text="", plan=json.loads({plan!r}), enqueue=False)
OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[turn.pk, owner.pk], next_attempt_at=timezone.now())
print(turn.pk)
"""


def _manage(stack: Stack, cluster: PostgresCluster, *args: str) -> str:
    env = fault_environment(stack.redis, stack.prefix, DATABASE_URL=cluster.url)
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def _psql(cluster: PostgresCluster, sql: str) -> str:
    result = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "-d", "metnos", "-tAc", sql],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return result.stdout.strip()


def test_a_database_restart_mid_step_still_ends_the_turn(
    stack: Stack, postgres_cluster: PostgresCluster, fault_table: Any, tmp_path: Path
) -> None:
    marker, gate = tmp_path / "started", tmp_path / "gate"
    plan = {"steps": [{"tool": "probe_gate", "args": {"marker": str(marker), "gate": str(gate)}}]}
    _manage(stack, postgres_cluster, "migrate", "--noinput")
    turn_id = int(_manage(stack, postgres_cluster, "shell", "-c", SETUP.format(plan=json.dumps(plan))).split()[-1])
    stack.start_worker(probe_executors=True, database_url=postgres_cluster.url)
    assert wait_for(marker.exists, TURN_SECONDS), stack.log("worker")[-3000:]
    began = time.monotonic()
    postgres_cluster.restart()  # every connection the worker holds is cut mid-step
    gate.write_text("open", encoding="utf-8")

    def status() -> str:
        return _psql(postgres_cluster, f"SELECT status FROM runtime_turn WHERE id = {turn_id}")  # noqa: S608 - an int

    assert wait_for(lambda: status() in ENDED, TURN_SECONDS, step=0.5), (status(), stack.log("worker")[-3000:])
    steps = _psql(
        postgres_cluster,
        f"SELECT index, outcome, error_code FROM runtime_steprecord WHERE turn_id = {turn_id}",  # noqa: S608 - an int
    )
    assert len(steps.splitlines()) == 1, steps  # the step was recorded once, never run again
    fault_table("PostgreSQL restarted mid-step", f"turn ended {status()}; step {steps}", time.monotonic() - began)
