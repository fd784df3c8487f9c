"""``metnos propose`` and ``POST /api/v1/plans/propose/``: the plan a request would get, and nothing runs."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.runtime.models import Conversation, StepRecord, TraceEvent, Turn
from apps.runtime.turns import MAX_REQUEST_CHARS
from tests.conftest import api_client_for

pytestmark = pytest.mark.django_db

REQUEST = "find the pdf files in the Purchasing folder"
PLAN = {"steps": [{"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}}]}


def _nothing_ran() -> None:
    assert not Turn.objects.exists() and not StepRecord.objects.exists() and not TraceEvent.objects.exists()


def _propose(*args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("metnos", "propose", *args, stdout=out)
        code = 0
    except SystemExit as exited:
        code = int(exited.code or 0)
    except CommandError as refused:  # what the command line prints on stderr, exit code included
        code = refused.returncode
    return code, out.getvalue()


def test_the_command_prints_the_plan_and_runs_nothing(owner: User) -> None:
    code, printed = _propose("--user", owner.username, REQUEST)
    assert code == 0
    assert json.loads(printed) == {"path": "proposal", "plan": PLAN, "reason": "request form of find_files",
                                   "refusal": None}  # fmt: skip
    _nothing_ran()


def test_the_command_says_why_there_is_no_plan(owner: User) -> None:
    code, printed = _propose("--user", owner.username, "book me a flight to Lisbon")
    assert code == 1
    answer = json.loads(printed)
    assert answer["plan"] is None and answer["path"] == "none" and answer["reason"]
    _nothing_ran()


@pytest.mark.parametrize("text", ["", "   ", "x" * (MAX_REQUEST_CHARS + 1)])
def test_the_command_refuses_an_empty_or_over_long_request(owner: User, text: str) -> None:
    code, printed = _propose("--user", owner.username, text)
    assert code == 2 and printed == ""
    _nothing_ran()


def test_the_endpoint_answers_the_plan_and_runs_nothing(owner: User) -> None:
    response = api_client_for(owner).post("/api/v1/plans/propose/", {"text": REQUEST}, format="json")
    assert response.status_code == 200
    assert response.json()["plan"] == PLAN
    _nothing_ran()


@pytest.mark.parametrize("body", [{"text": ""}, {"text": "   "}, {"text": "x" * (MAX_REQUEST_CHARS + 1)}, {}])
def test_the_endpoint_refuses_bad_input_with_a_clear_400(owner: User, body: dict[str, Any]) -> None:
    response = api_client_for(owner).post("/api/v1/plans/propose/", body, format="json")
    assert response.status_code == 400
    assert "text" in json.dumps(response.json())
    _nothing_ran()


def test_another_users_conversation_is_a_404(owner: User, second_user: User) -> None:
    theirs = Conversation.objects.create(owner=second_user, title="theirs")
    body = {"text": REQUEST, "conversation": theirs.pk}
    assert api_client_for(owner).post("/api/v1/plans/propose/", body, format="json").status_code == 404
    mine = Conversation.objects.create(owner=owner, title="mine")
    body["conversation"] = mine.pk
    assert api_client_for(owner).post("/api/v1/plans/propose/", body, format="json").status_code == 200


def test_a_device_token_and_a_stranger_are_refused(owner: User, outsider: APIClient) -> None:
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Bearer {device_pair(owner=owner, name='Phone').token}")
    assert device.post("/api/v1/plans/propose/", {"text": REQUEST}, format="json").status_code == 403
    assert outsider.post("/api/v1/plans/propose/", {"text": REQUEST}, format="json").status_code in (401, 403)
