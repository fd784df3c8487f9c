"""``metnos plan`` refuses a hostile or invalid plan file before storing anything.

Deep nesting, huge numbers, NaN, lone surrogates, text that is not UTF-8 and a
plan the catalog refuses each give one line on stderr and exit code 2 — never
a traceback, never a turn or conversation row (issue 15, finding 6).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.accounts.models import User
from apps.core.limits import MAX_JSON_INTEGER
from apps.runtime.models import Conversation, Turn
from apps.runtime.plans.api import MAX_PLAN_BYTES
from tests.conftest import REPO_ROOT, _database_url_for_children, api_client_for

FIND = '{"steps": [{"tool": "find_files", "args": {"base_path": "~", "pattern": %s}}]}'
DEEP = '{"steps": [{"tool": "find_files", "args": {"base_path": "~", "pattern": ' + "[" * 10_000 + "]" * 10_000 + "}}]}"

HOSTILE_FILES: dict[str, bytes] = {
    "deep nesting": DEEP.encode(),
    "huge integer": (FIND % ("1" + "0" * 30)).encode(),
    "integer past the bound": (FIND % (MAX_JSON_INTEGER + 1)).encode(),
    "huge float": (FIND % "1e999").encode(),
    "NaN": (FIND % "NaN").encode(),
    "Infinity": (FIND % "-Infinity").encode(),
    "lone surrogate": (FIND % '"\\ud800.pdf"').encode(),
    "NUL character": (FIND % '"a\\u0000.pdf"').encode(),
    "not UTF-8": (FIND % '"\xff.pdf"').encode("latin-1"),
    "encoded surrogate": (FIND % '"\ud800.pdf"').encode("utf-8", "surrogatepass"),
    "not JSON": b"{not json",
    "not an object": b"[1, 2]",
    "unknown executor": b'{"steps": [{"tool": "no_such_executor", "args": {}}]}',
    "wrong argument type": (FIND % "42").encode(),
    "newline in a tool name": b'{"steps": [{"tool": "find\\nfiles", "args": {}}]}',
    "too large": b'{"steps": []}' + b" " * MAX_PLAN_BYTES,
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(HOSTILE_FILES))
def test_a_refused_plan_file_is_one_line_exit_2_and_no_row(owner: User, tmp_path: Path, case: str) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_bytes(HOSTILE_FILES[case])
    with pytest.raises(CommandError) as refused:
        call_command("metnos", "plan", "--user", owner.username, str(plan_file), stdout=StringIO())
    assert refused.value.returncode == 2
    message = str(refused.value)
    assert message and "\n" not in message and "Traceback" not in message
    assert not Turn.objects.exists()
    assert not Conversation.objects.exists()


@pytest.mark.django_db
def test_a_plan_file_with_an_undecodable_name_is_stored_readably(owner: User, root: Path, tmp_path: Path) -> None:
    plan_file = Path(os.fsdecode(bytes(tmp_path) + b"/plan-\xff.json"))
    plan_file.write_text(json.dumps({"steps": [{"tool": "find_files", "args": {"base_path": "~"}}]}))
    with contextlib.suppress(SystemExit):  # the outcome of the plan does not matter here
        call_command("metnos", "plan", "--user", owner.username, str(plan_file), stdout=StringIO())
    turn = Turn.objects.get(owner=owner)
    assert turn.request_text == "plan from plan-\ufffd.json"
    assert api_client_for(owner).get("/api/v1/turns/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_command_line_prints_no_traceback_for_a_deep_plan(owner: User, tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(DEEP, encoding="utf-8")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": _database_url_for_children()}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "metnos", "plan", "--user", owner.username, str(plan_file)],
        cwd=REPO_ROOT, env=env, capture_output=True, timeout=120,
    )  # fmt: skip
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert [line for line in stderr.splitlines() if line.strip()] == [
        "CommandError: cannot read the plan file: The JSON nests deeper than 64 levels of arrays and objects."
    ]
    assert not Turn.objects.exists()
