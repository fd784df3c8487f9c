"""Turns with a planning model: proposals are validated like any plan, and counted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

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
    step = StepRecord.objects.get(turn=turn, index=1)
    assert step.tool == "find_files"
    assert step.cloud_requests == 0  # the planner's request is the turn's, not the step's: no red $ on the step
    assert REQUEST in planning_model.chat_requests[0].text


def test_a_step_that_sent_cloud_requests_shows_a_red_dollar_in_the_conversation_page(
    owner: User, purchasing: Path, planning_model: ScriptedModelServer
) -> None:
    planning_model.script(
        {"steps": [{"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}}]}
    )
    turn = _ask(owner, REQUEST)
    page = f"/conversations/{turn.conversation_id}/"
    portal = Client()
    portal.force_login(owner)
    assert 'class="cloud"' not in portal.get(page).content.decode()
    StepRecord.objects.filter(turn=turn, index=1).update(cloud_requests=2)
    shown = portal.get(page).content.decode()
    assert '<span class="cloud" title="2 request(s) to a cloud model">$</span>' in shown


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
