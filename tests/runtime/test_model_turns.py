"""Turns with a planning model: proposals are validated like any plan, and counted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from tests.model_server import ScriptedModelServer

pytestmark = pytest.mark.django_db

REQUEST = "What PDF files do I keep in Purchasing?"


@pytest.fixture
def planning_model(settings: Any, scripted_model_server: ScriptedModelServer) -> ScriptedModelServer:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry(cloud=True)}
    return scripted_model_server


def _ask(owner: User, text: str) -> Turn:
    return turn_conduct(turn=turn_submit(owner=owner, text=text, enqueue=False))


def test_request_no_form_knows_gets_a_validated_model_proposal(
    owner: User, purchasing: Path, planning_model: ScriptedModelServer
) -> None:
    planning_model.script(
        {"steps": [{"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}}]}
    )
    turn = _ask(owner, REQUEST)
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert turn.path == Turn.Path.PROPOSAL
    assert turn.cloud_requests == 1
    assert StepRecord.objects.get(turn=turn, index=1).tool == "find_files"
    assert REQUEST in planning_model.chat_requests[0].text


def test_invalid_proposals_get_bounded_new_requests_then_a_clear_refusal(
    owner: User, purchasing: Path, planning_model: ScriptedModelServer
) -> None:
    for _ in range(3):
        planning_model.script({"steps": [{"tool": "find_files", "args": {"base_path": 42}}]})
    turn = _ask(owner, REQUEST)
    assert turn.status == Turn.Status.FAILED
    assert turn.cloud_requests == 3
    assert len(planning_model.chat_requests) == 3
    assert not StepRecord.objects.filter(turn=turn).exists()
    assert turn.answer  # a sentence for the user, never the model's text
    assert "42" not in turn.answer


def test_a_proposal_cannot_smuggle_a_path_from_data(
    owner: User, purchasing: Path, planning_model: ScriptedModelServer
) -> None:
    smuggling = {
        "steps": [
            {"tool": "find_files", "args": {"base_path": "~/Purchasing"}},
            {"tool": "create_files_spreadsheet", "args": {"from_step": 1, "path": "{{step1.first.path}}"}},
        ]
    }
    for _ in range(3):
        planning_model.script(smuggling)
    turn = _ask(owner, REQUEST)
    assert turn.status == Turn.Status.FAILED
    second_request = json.dumps(planning_model.chat_requests[1].json)
    assert "provenance_refused" in second_request


def test_no_planning_model_means_no_model_call(owner: User, settings: Any) -> None:
    settings.METNOS_MODEL_TIERS = {}
    turn = _ask(owner, REQUEST)
    assert turn.status == Turn.Status.FAILED
    assert "no planning model is configured" in turn.answer
    assert turn.cloud_requests == 0
