"""The planner sees the scratchpad's projection in practice: a resumed turn planned anew, through turn_conduct.

Its one real caller (``apps/runtime/paths/replanning.py``): when the guards refuse a
resumed plan and a planning model is configured, the model is asked again
with the explicitly truncated projection of the results the turn would have
inherited. The canary rules of ``test_canary.py`` apply: a secret in those
results reaches no model request.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.models import PlanCache, StepRecord, Turn
from tests.model_server import ScriptedModelServer
from tests.runtime.test_canary import CANARY
from tests.runtime.test_replanning import (
    SCANS,
    TABLE_PLAN,
    TABLE_REQUEST,
    BusyArchiver,
    resume_turn,
    suspended_turn,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def planning_model(settings: Any, scripted_model_server: ScriptedModelServer) -> ScriptedModelServer:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry(cloud=True)}
    return scripted_model_server


def test_a_resumed_plan_planned_anew_shows_the_planner_the_truncated_projection_never_a_secret(
    owner: User, root: Path, planning_model: ScriptedModelServer
) -> None:
    suspended, catalog = suspended_turn(owner, root, BusyArchiver())
    planning_model.script(TABLE_PLAN)

    resumed = resume_turn(owner, suspended, catalog)

    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert (resumed.path, resumed.resumed_from_id) == (Turn.Path.PROPOSAL, suspended.pk)
    [asked] = planning_model.chat_requests
    user = asked.json["messages"][1]["content"]
    assert TABLE_REQUEST in user  # the request the plan answers, not "continue"
    assert "[requested_tool_missing]" in user and "create_files_spreadsheet" in user
    assert "Results of the steps that already ran in this turn" in user
    shown = json.loads(user.split("cannot reference these results.\n", 1)[1].split("\n\n", 1)[0])
    found = next(step for step in shown if step["step"] == 1)
    assert (found["tool"], found["total_items"], found["truncated"]) == ("find_scans", SCANS, True)
    assert 0 < found["shown_items"] < SCANS
    assert "scan-0000.pdf" in user
    assert f"scan-{SCANS - 1:04d}.pdf" not in asked.text  # the whole collection stays in the scratchpad
    assert "more characters]" in user
    assert CANARY not in asked.raw_body.decode()
    assert "[redacted]" in user  # the secret was in the results, and stayed out
    assert all(CANARY not in request.text for request in planning_model.requests)
    # The new plan runs whole: nothing of the suspended plan is inherited under its step numbers.
    assert [record.tool for record in StepRecord.objects.filter(turn=resumed).order_by("index")] == [
        "find_files",
        "create_files_spreadsheet",
    ]
    assert (root / "Archive" / "summary.xlsx").exists()
    # A plan is not remembered under "continue".
    assert not PlanCache.objects.filter(owner=owner, request_key="continue").exists()
