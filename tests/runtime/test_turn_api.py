"""The REST interface of turns and consent, with a real background worker."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.runtime.models import ConsentRequest, Conversation, Turn
from tests.conftest import WorkerHandle, api_client_for
from tests.runtime.conftest import QUOTES_REQUEST
from tests.runtime.quotes import write_quotes

WAIT_SECONDS = 60


def wait_until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def worker_purchasing(owner: User) -> Iterator[Path]:
    """Quotes in the owner's real files root, which the worker process also sees."""
    root = Path(settings.FILES_ROOT) / str(owner.pk)
    folder = root / "Purchasing"
    folder.mkdir(parents=True, exist_ok=True)
    write_quotes(folder)
    yield folder
    shutil.rmtree(root, ignore_errors=True)


def _turn(pk: int) -> Turn:
    return Turn.objects.get(pk=pk)


@pytest.mark.django_db(transaction=True)
def test_request_returns_at_once_and_the_worker_conducts_the_turn(
    background_worker: WorkerHandle, owner: User, worker_purchasing: Path
) -> None:
    response = api_client_for(owner).post("/api/v1/turns/", {"text": QUOTES_REQUEST}, format="json")
    assert response.status_code == 202, response.content
    turn_id = response.json()["id"]
    assert wait_until(lambda: _turn(turn_id).is_finished), _turn(turn_id).status
    body = api_client_for(owner).get(f"/api/v1/turns/{turn_id}/").json()
    assert body["status"] == "completed", body["answer"]
    assert [step["tool"] for step in body["steps"]][-1] == "create_files_spreadsheet"
    produced = body["steps"][-1]["files"][0]["path"]
    download = api_client_for(owner).get("/api/v1/files/", {"path": produced})
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment")
    trace = api_client_for(owner).get(f"/api/v1/turns/{turn_id}/trace/").json()
    assert trace[0]["kind"] == "path.chosen"


@pytest.mark.django_db(transaction=True)
def test_confirmation_over_rest_is_bound_to_owner_and_conversation(
    background_worker: WorkerHandle, owner: User, second_user: User, worker_purchasing: Path
) -> None:
    client = api_client_for(owner)
    turn_id = client.post(
        "/api/v1/turns/", {"text": "delete the pdf files in the Purchasing folder"}, format="json"
    ).json()["id"]
    assert wait_until(lambda: _turn(turn_id).status == Turn.Status.AWAITING_CONFIRMATION)
    pending = client.get(f"/api/v1/turns/{turn_id}/").json()["pending_consent"]
    consent_id, conversation_id = pending["id"], _turn(turn_id).conversation_id

    intruder = api_client_for(second_user).post(
        f"/api/v1/consents/{consent_id}/decision/", {"confirm": True, "conversation": conversation_id}, format="json"
    )
    assert intruder.status_code == 404
    elsewhere = Conversation.objects.create(owner=owner)
    wrong_place = client.post(
        f"/api/v1/consents/{consent_id}/decision/", {"confirm": True, "conversation": elsewhere.pk}, format="json"
    )
    assert wrong_place.status_code == 409
    assert wrong_place.json()["error"]["code"] == "consent_other_conversation"
    missing_conversation = client.post(f"/api/v1/consents/{consent_id}/decision/", {"confirm": True}, format="json")
    assert missing_conversation.status_code == 400
    assert len(list(worker_purchasing.glob("*.pdf"))) == 3

    confirmed = client.post(
        f"/api/v1/consents/{consent_id}/decision/", {"confirm": True, "conversation": conversation_id}, format="json"
    )
    assert confirmed.status_code == 200
    resumed_id = confirmed.json()["resumed_turn"]
    assert wait_until(lambda: _turn(resumed_id).is_finished)
    assert _turn(resumed_id).status == Turn.Status.COMPLETED, _turn(resumed_id).answer
    assert list(worker_purchasing.glob("*.pdf")) == []
    assert ConsentRequest.objects.get(pk=consent_id).consumed_at is not None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "status"),
    [({"text": ""}, 400), ({"text": "x" * 4001}, 400), ({}, 400), ({"text": "hi", "conversation": "abc"}, 400)],
)
def test_bad_turn_requests_get_typed_errors(owner: User, payload: dict[str, object], status: int) -> None:
    response = api_client_for(owner).post("/api/v1/turns/", payload, format="json")
    assert response.status_code == status
    assert response.json()["error"]["code"] == "invalid"


@pytest.mark.django_db
def test_another_owners_conversation_is_a_404(owner: User, second_user: User) -> None:
    theirs = Conversation.objects.create(owner=second_user)
    response = api_client_for(owner).post("/api/v1/turns/", {"text": "hi", "conversation": theirs.pk}, format="json")
    assert response.status_code == 404
    assert not Turn.objects.filter(owner=owner).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["../etc/passwd", "/etc/passwd", "Purchasing/../../x", "nothing-here.xlsx"])
def test_file_download_stays_inside_the_owners_files(owner: User, path: str) -> None:
    assert api_client_for(owner).get("/api/v1/files/", {"path": path}).status_code == 404


@pytest.mark.django_db
def test_anonymous_cannot_download_files() -> None:
    assert APIClient().get("/api/v1/files/", {"path": "x"}).status_code in (401, 403)
