"""System > Capabilities and Models, and the operator CLI."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from apps.accounts.models import User
from apps.runtime.models import Turn
from tests.runtime.conftest import QUOTES_REQUEST

pytestmark = pytest.mark.django_db

CANARY_KEY = "sk-CANARY-model-key-5b1e"


def test_capabilities_page_lists_the_catalog(owner: User, client: Client) -> None:
    client.force_login(owner)
    page = client.get("/system/capabilities/").content.decode()
    for name in ("find_files", "read_files", "extract_entries", "create_files_spreadsheet", "delete_files",
                 "undo_last_turn"):  # fmt: skip
        assert name in page
    assert "asks for confirmation" in page


def test_models_page_shows_the_effective_configuration_but_never_a_key(
    owner: User, client: Client, settings: Any
) -> None:
    from apps.runtime.tiers.config import parse_model_tiers

    settings.METNOS_MODEL_TIERS = parse_model_tiers(
        {
            "METNOS_MODEL_PLANNING_BASE_URL": "http://127.0.0.1:9/v1",
            "METNOS_MODEL_PLANNING_MODEL": "local-planner",
            "METNOS_MODEL_PLANNING_API_KEY": CANARY_KEY,
        }
    )
    client.force_login(owner)
    page = client.get("/system/models/").content.decode()
    assert "local-planner" in page
    assert "planning" in page and "vision" in page
    assert CANARY_KEY not in page
    assert "set" in page


def test_disabled_executor_leaves_the_catalog_and_its_plans(owner: User, purchasing: Path, settings: Any) -> None:
    from apps.runtime.catalog import current_catalog
    from apps.runtime.turns import turn_conduct, turn_submit

    before = current_catalog().signature
    settings.METNOS_DISABLED_EXECUTORS = ["read_files"]
    assert current_catalog().signature != before
    assert current_catalog().manifest("read_files") is None
    turn = turn_conduct(turn=turn_submit(owner=owner, text=QUOTES_REQUEST, enqueue=False))
    assert turn.status == Turn.Status.FAILED
    assert "read_files" in turn.answer
    assert not (purchasing / "summary.xlsx").exists()


def test_cli_catalog_prints_json_with_signatures() -> None:
    out = StringIO()
    call_command("metnos", "catalog", stdout=out)
    catalog = json.loads(out.getvalue())
    assert catalog["signature"]
    assert {entry["name"] for entry in catalog["executors"]} >= {"find_files", "undo_last_turn"}


def test_cli_ask_prints_events_and_exits_by_outcome(owner: User, purchasing: Path) -> None:
    out = StringIO()
    call_command("metnos", "ask", "--user", owner.username, QUOTES_REQUEST, stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    assert lines[0]["type"] == "turn.started"
    assert lines[-1]["status"] == "completed"
    with pytest.raises(SystemExit) as exited:
        call_command("metnos", "ask", "--user", owner.username, "book a flight", stdout=StringIO())
    assert exited.value.code == 1
    with pytest.raises(SystemExit) as exited:
        call_command("metnos", "ask", "--user", owner.username, "delete the pdf files in the Purchasing folder",
                     stdout=StringIO())  # fmt: skip
    assert exited.value.code == 4


def test_cli_plan_rejects_an_unreadable_file(owner: User, tmp_path: Path) -> None:
    from django.core.management.base import CommandError

    bad = tmp_path / "plan.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="cannot read the plan file"):
        call_command("metnos", "plan", "--user", owner.username, str(bad))
