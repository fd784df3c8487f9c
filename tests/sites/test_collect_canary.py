"""The vault's password reaches only the field it is typed into, through a whole signed-in collection.

A canary password is saved in the vault for the fixture site, and
``metnos ask`` runs "collect all invoices from 2026 from <url> into a
spreadsheet" from a page whose route to the bills only a model can choose
(the scripted model server is the route-choice tier), so a model request is
made after the password was resolved. The website did receive the password
(its sign-in succeeded); then every channel is scanned for it: the CLI's
output (live events and answer), log records, the trace, step records,
every database row, the model requests, the spreadsheet, and every file
under the data folder (page copies, downloads, browser data, files).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core import serializers

from apps.documents.files import owner_files_root
from apps.runtime.models import StepRecord, TraceEvent, Turn
from tests.model_server import ScriptedModelServer
from tests.sites.collect_e2e_support import (
    BILLS_2026,
    PASSWORD,
    SHEET,
    SITE,
    metnos_ask,
    request_en,
    save_credential,
    spreadsheet_rows,
    spreadsheet_text,
)
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _every_row() -> str:
    models = [model for model in django_apps.get_models() if model._meta.app_label not in {"contenttypes"}]
    return "".join(serializers.serialize("json", model._default_manager.all()) for model in models)


def _files_holding(folder: Path, needle: bytes) -> list[str]:
    """Files under ``folder`` whose bytes hold ``needle`` (the data folder: database, copies, downloads, …)."""
    holding = []
    for path in folder.rglob("*"):
        try:
            if path.is_file() and needle in path.read_bytes():
                holding.append(str(path))
        except FileNotFoundError:
            continue  # a temporary file that went away meanwhile
    return holding


def test_the_password_appears_in_no_channel_of_a_signed_in_collection(
    owner: Any,
    fixture_web: FixtureWeb,
    settings: Any,
    scripted_model_server: ScriptedModelServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    site = fixture_web.fresh(SITE)
    settings.METNOS_MODEL_TIERS = {"route_choice": scripted_model_server.settings_entry()}
    scripted_model_server.script({"choice": 1})  # "Paperwork", the hub's way to the bills
    for _ in range(3):
        scripted_model_server.script({"choice": -1})
    save_credential(owner, site)

    asked = metnos_ask(owner, request_en(site.url("/private/welcome.html")))

    assert asked.final["status"] == "completed", asked.printed
    assert [attempt["ok"] for attempt in site.logins()] == [True]  # the password did reach the website
    assert [row["identifier_number"] for row in spreadsheet_rows(owner)] == BILLS_2026
    model_requests = [request.text for request in scripted_model_server.requests]
    assert any("Paperwork" in text for text in model_requests)  # a model was asked, after signing in
    turn = Turn.objects.get(pk=asked.final["turn"])
    channels = {
        "cli output (live events, answer)": asked.printed,
        "logs": "\n".join(record.getMessage() + repr(record.__dict__) for record in caplog.records),
        "trace": json.dumps(list(TraceEvent.objects.filter(turn=turn).values("kind", "data", "content")), default=str),
        "steps": json.dumps(list(StepRecord.objects.filter(turn=turn).values()), default=str),
        "answer": turn.answer,
        "database": _every_row(),
        "model requests": "\n".join(model_requests),
        "spreadsheet": spreadsheet_text(owner_files_root(owner=owner) / SHEET),
    }
    for name, text in channels.items():
        assert PASSWORD not in text, f"the password leaked into {name}"
    assert TraceEvent.objects.filter(turn=turn, kind="sign_in.audit").exists()
    assert TraceEvent.objects.filter(turn=turn, kind="collect.audit").exists()
    # Every file of the data folder: obstruction page copies (DATA_DIR/obstructions), downloads, browser data
    # (encrypted), the owner's files and the database file itself.
    assert _files_holding(Path(settings.DATA_DIR), PASSWORD.encode()) == []
