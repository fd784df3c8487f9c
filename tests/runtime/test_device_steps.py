"""Steps that run on a paired device cross the same boundary: placement from the manifest, results checked."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.runtime.executor import Catalog, ExecutionContext, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import Conversation, DeviceStep, StepRecord, TraceEvent, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from tests.conftest import api_client_for
from tests.test_background import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


class PhotosOnDevice:
    """Test executor that lists photos where they live: on the phone (or, for "both", on the server too)."""

    def __init__(self, placement: str = "device", capabilities: frozenset[str] = frozenset({"files.read"})) -> None:
        self.manifest = Manifest(
            name="list_photos",
            purpose="Test only: list the photos of an album.",
            args={"album": ArgSpec(type="string", required=True)},
            result=ResultShape(kind="collection", fields=("name",)),
            capabilities=capabilities,
            placement=placement,  # type: ignore[arg-type]
        )
        self.ran_on_server = 0

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        self.ran_on_server += 1
        return StepResult(outcome="success", items=({"name": "server.jpg"},))


def _device_client(owner: User, name: str = "Phone") -> tuple[Any, APIClient]:
    paired = device_pair(owner=owner, name=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {paired.token}")
    return paired.device, client


def _conduct_in_background(turn: Turn, catalog: Catalog) -> tuple[threading.Thread, dict[str, Turn]]:
    done: dict[str, Turn] = {}

    def conduct() -> None:
        try:
            done["turn"] = turn_conduct(turn=turn, catalog=catalog)
        finally:
            connection.close()

    thread = threading.Thread(target=conduct)
    thread.start()
    return thread, done


PLAN = {"steps": [{"tool": "list_photos", "args": {"album": "Holidays"}}]}


def test_a_device_step_is_sent_taken_and_answered_by_the_device(owner: User) -> None:
    device, phone = _device_client(owner)
    executor = PhotosOnDevice()
    conversation = Conversation.objects.create(owner=owner, device=device)
    turn = turn_submit(owner=owner, text="list my holiday photos", plan=PLAN, conversation=conversation, enqueue=False)
    thread, done = _conduct_in_background(turn, build_catalog({"list_photos": executor}))

    assert wait_until(lambda: DeviceStep.objects.filter(turn=turn).exists())
    [sent] = phone.get("/api/v1/device-steps/?status=pending").json()["results"]
    assert sent["tool"] == "list_photos" and sent["arguments"] == {"album": "Holidays"}
    assert phone.post(f"/api/v1/device-steps/{sent['id']}/claim/").status_code == 200
    assert phone.post(f"/api/v1/device-steps/{sent['id']}/claim/").status_code == 409  # taken once
    answer = {"outcome": "success", "items": [{"name": "beach.jpg"}, {"name": "hill.jpg"}], "summary": "2 photos"}
    assert phone.post(f"/api/v1/device-steps/{sent['id']}/result/", answer, format="json").status_code == 200
    thread.join(timeout=20)

    finished = done["turn"]
    assert finished.status == Turn.Status.COMPLETED, finished.answer
    assert executor.ran_on_server == 0
    record = StepRecord.objects.get(turn=turn)
    assert [item["name"] for item in record.result["items"]] == ["beach.jpg", "hill.jpg"]
    assert "step.sent_to_device" in TraceEvent.objects.filter(turn=turn).values_list("kind", flat=True)


def test_a_malformed_answer_is_a_contract_violation(owner: User) -> None:
    device, phone = _device_client(owner)
    conversation = Conversation.objects.create(owner=owner, device=device)
    turn = turn_submit(owner=owner, text="photos", plan=PLAN, conversation=conversation, enqueue=False)
    thread, done = _conduct_in_background(turn, build_catalog({"list_photos": PhotosOnDevice()}))
    assert wait_until(lambda: DeviceStep.objects.filter(turn=turn).exists())
    step = DeviceStep.objects.get(turn=turn)
    phone.post(f"/api/v1/device-steps/{step.pk}/claim/")
    claimed_success_with_error = {"outcome": "success", "error": {"error_class": "permanent", "code": "x"}}
    phone.post(f"/api/v1/device-steps/{step.pk}/result/", claimed_success_with_error, format="json")
    thread.join(timeout=20)
    record = StepRecord.objects.get(turn=turn)
    assert record.outcome == "failed" and record.error_code == "device_result_invalid"
    assert done["turn"].status == Turn.Status.FAILED


def test_a_step_nobody_takes_expires_as_recoverable(owner: User, settings: Any) -> None:
    settings.METNOS_DEVICE_STEP_TIMEOUT = 1
    device, _ = _device_client(owner)
    conversation = Conversation.objects.create(owner=owner, device=device)
    turn = turn_submit(owner=owner, text="photos", plan=PLAN, conversation=conversation, enqueue=False)
    finished = turn_conduct(turn=turn, catalog=build_catalog({"list_photos": PhotosOnDevice()}))
    record = StepRecord.objects.get(turn=turn)
    assert (record.error_class, record.error_code) == ("recoverable", "device_unavailable")
    assert finished.status == Turn.Status.FAILED
    assert DeviceStep.objects.get(turn=turn).status == DeviceStep.Status.EXPIRED


def test_placement_comes_from_the_manifest_and_the_conversation(owner: User) -> None:
    only_device = PhotosOnDevice("device")
    turn = turn_conduct(
        turn=turn_submit(owner=owner, text="photos", plan=PLAN, enqueue=False),
        catalog=build_catalog({"list_photos": only_device}),
    )
    assert turn.status == Turn.Status.FAILED and "paired device" in turn.answer and only_device.ran_on_server == 0

    either = PhotosOnDevice("both")
    turn = turn_conduct(
        turn=turn_submit(owner=owner, text="photos", plan=PLAN, enqueue=False),
        catalog=build_catalog({"list_photos": either}),
    )
    assert turn.status == Turn.Status.COMPLETED and either.ran_on_server == 1
    assert not DeviceStep.objects.exists()


def test_credentials_never_go_to_a_device(owner: User) -> None:
    device, _ = _device_client(owner)
    conversation = Conversation.objects.create(owner=owner, device=device)
    secretive = PhotosOnDevice("device", frozenset({"credentials.use"}))
    turn = turn_conduct(
        turn=turn_submit(owner=owner, text="photos", plan=PLAN, conversation=conversation, enqueue=False),
        catalog=build_catalog({"list_photos": secretive}),
    )
    assert turn.status == Turn.Status.FAILED and "never leave the server" in turn.answer
    assert not DeviceStep.objects.exists()


def test_only_the_device_it_was_sent_to_can_take_a_step(owner: User, second_user: User) -> None:
    device, _ = _device_client(owner)
    _, other_phone = _device_client(second_user, "Their phone")
    _, second_own_device = _device_client(owner, "Tablet")
    conversation = Conversation.objects.create(owner=owner, device=device)
    turn = turn_submit(owner=owner, text="photos", plan=PLAN, conversation=conversation, enqueue=False)
    step = DeviceStep.objects.create(
        owner=owner, device=device, turn=turn, step_index=1, tool="list_photos", executor_signature="x",
        expires_at=turn.created_at.replace(year=turn.created_at.year + 1),
    )  # fmt: skip
    assert other_phone.post(f"/api/v1/device-steps/{step.pk}/claim/").status_code == 404
    assert second_own_device.post(f"/api/v1/device-steps/{step.pk}/claim/").status_code == 404
    browser = api_client_for(owner)
    assert browser.get(f"/api/v1/device-steps/{step.pk}/").status_code == 200  # the owner may read it
    assert browser.post(f"/api/v1/device-steps/{step.pk}/claim/").status_code == 403  # but only a device runs it
    assert DeviceStep.objects.get(pk=step.pk).status == DeviceStep.Status.PENDING


def test_a_request_from_a_device_makes_it_the_conversations_device(owner: User) -> None:
    device, phone = _device_client(owner)
    answer = phone.post("/api/v1/turns/", {"text": "list my holiday photos"}, format="json")
    assert answer.status_code == 202
    turn = Turn.objects.get(pk=answer.json()["id"])
    assert turn.conversation.device_id == device.pk


def test_unpairing_the_device_ends_the_step_sent_to_it(owner: User) -> None:
    from apps.accounts.services import device_revoke

    device, phone = _device_client(owner)
    conversation = Conversation.objects.create(owner=owner, device=device)
    turn = turn_submit(owner=owner, text="photos", plan=PLAN, conversation=conversation, enqueue=False)
    thread, done = _conduct_in_background(turn, build_catalog({"list_photos": PhotosOnDevice()}))
    assert wait_until(lambda: DeviceStep.objects.filter(turn=turn).exists())
    device_revoke(device=device)
    thread.join(timeout=20)
    record = StepRecord.objects.get(turn=turn)
    assert (record.outcome, record.error_class, record.error_code) == ("failed", "unknown", "device_revoked")
    assert done["turn"].status == Turn.Status.FAILED
    assert phone.get("/api/v1/device-steps/").status_code == 401
