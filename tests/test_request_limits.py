"""What a request may carry: bounded JSON, a bounded body, bounded pages, no `.json` duplicates.

Each refusal is a typed 4xx in the project's error shape, never a 500
(issue 15, finding 6). The bounds are the named constants of
``apps/core/limits.py``.
"""

from __future__ import annotations

import json
from io import BytesIO
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client, RequestFactory
from rest_framework.exceptions import ParseError

from apps.accounts.models import Device, User
from apps.accounts.services import device_pair
from apps.core.api import OwnedModelViewSet, exception_handler
from apps.core.json_input import JsonRefused, StrictJSONParser, json_loads_strict
from apps.core.limits import MAX_JSON_DEPTH, MAX_JSON_INTEGER, MAX_PAGE_SIZE, request_body_limit
from apps.runtime.models import Conversation, DeviceStep
from apps.runtime.turns import turn_submit
from apps.sites.models import HandoffPanel
from tests.conftest import api_client_for
from tests.factories import build_owned_row
from tests.test_tenancy_sweep import _concrete_path, _owned_model_of, api_routes

pytestmark = pytest.mark.django_db

DEEP = "[" * 10_000 + "]" * 10_000


def _portal(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    assert "Traceback" not in body["error"]["message"]
    return dict(body["error"])


# --- JSON: nesting, numbers, text ------------------------------------------------


def test_json_nested_10000_deep_is_a_typed_400_on_the_api(owner: User) -> None:
    response = api_client_for(owner).generic("POST", "/api/v1/turns/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert _error(response)["code"] == "json_too_deep"


def test_json_nested_10000_deep_is_a_typed_400_on_the_handoff_command(owner: User) -> None:
    panel = build_owned_row(HandoffPanel, owner)
    response = _portal(owner).post(f"/web/handoff/{panel.pk}/command/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert _error(response)["code"] == "json_too_deep"


def test_an_infinite_coordinate_in_a_handoff_command_is_a_400(owner: User) -> None:
    panel = build_owned_row(HandoffPanel, owner)
    body = '{"kind": "click", "x": 1e999, "y": 1}'
    response = _portal(owner).post(f"/web/handoff/{panel.pk}/command/", body, content_type="application/json")
    assert response.status_code == 400
    assert _error(response)["code"] == "json_number_out_of_range"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"name": NaN}', "json_not_a_number"),
        ('{"name": -Infinity}', "json_not_a_number"),
        ('{"name": 1e999}', "json_number_out_of_range"),
        (f'{{"name": {MAX_JSON_INTEGER + 1}}}', "json_number_out_of_range"),
        ('{"name": ' + "9" * 5000 + "}", "json_number_out_of_range"),
        ('{"name": "\\ud800"}', "json_invalid_text"),
        ('{"\\udfff": "phone"}', "json_invalid_text"),
        ('{"name": "a\\u0000b"}', "json_invalid_text"),
        ('{"name": "\xff"}', "json_invalid_text"),  # sent as latin-1 bytes: not UTF-8
        ('{"name": ' + "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1) + "}", "json_too_deep"),
        ('{"name": "phone"', "parse_error"),
    ],
)
def test_json_metnos_does_not_read_is_a_typed_400_and_changes_nothing(owner: User, body: str, code: str) -> None:
    data = body.encode("latin-1" if "\xff" in body else "utf-8")
    response = api_client_for(owner).generic("POST", "/api/v1/devices/", data, "application/json")  # type: ignore[arg-type]
    assert response.status_code == 400
    assert _error(response)["code"] == code
    assert not Device.objects.filter(owner=owner).exists()


def test_the_json_bounds_are_inclusive() -> None:
    nested = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert json_loads_strict(nested) is not None
    assert json_loads_strict(f"[{MAX_JSON_INTEGER}, -{MAX_JSON_INTEGER}, 1.5e308]") == [
        MAX_JSON_INTEGER,
        -MAX_JSON_INTEGER,
        1.5e308,
    ]
    assert json_loads_strict('"\\ud83d\\ude00 è"') == "😀 è"  # a surrogate pair is one character
    with pytest.raises(JsonRefused) as refused:
        json_loads_strict("[" + nested + "]")
    assert refused.value.code == "json_too_deep"


def test_a_lone_surrogate_in_a_device_result_is_refused_and_not_stored(owner: User) -> None:
    paired = device_pair(owner=owner, name="Phone")
    turn = turn_submit(owner=owner, text="list my photos", enqueue=False)
    step = DeviceStep.objects.create(
        owner=owner, device=paired.device, turn=turn, step_index=1, tool="list_photos", executor_signature="x",
        status=DeviceStep.Status.CLAIMED, expires_at=turn.created_at.replace(year=turn.created_at.year + 1),
    )  # fmt: skip
    phone = Client(HTTP_AUTHORIZATION=f"Bearer {paired.token}")
    body = '{"outcome": "success", "summary": "\\ud800"}'
    response = phone.post(f"/api/v1/device-steps/{step.pk}/result/", body, content_type="application/json")
    assert response.status_code == 400
    assert _error(response)["code"] == "json_invalid_text"
    step.refresh_from_db()
    assert step.status == DeviceStep.Status.CLAIMED and step.result == {}


# --- The size of a body ---------------------------------------------------------


def _too_large_json() -> str:
    return json.dumps({"text": "x" * (request_body_limit() or 0)})


def test_a_body_over_the_limit_is_a_413_on_the_api(owner: User) -> None:
    response = api_client_for(owner).generic("POST", "/api/v1/turns/", _too_large_json(), "application/json")
    assert response.status_code == 413
    assert _error(response)["code"] == "request_too_large"
    assert "2.5 MB" in _error(response)["message"]


def test_a_body_over_the_limit_is_a_413_on_the_handoff_command(owner: User) -> None:
    panel = build_owned_row(HandoffPanel, owner)
    url = f"/web/handoff/{panel.pk}/command/"
    response = _portal(owner).post(url, _too_large_json(), content_type="application/json")
    assert response.status_code == 413
    assert _error(response)["code"] == "request_too_large"


def test_a_form_over_the_limit_is_a_413_page(owner: User) -> None:
    body = "label=" + "x" * (request_body_limit() or 0)
    response = _portal(owner).post("/vault/new/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert b"larger than Metnos accepts" in response.content


def test_a_body_read_past_the_limit_is_a_413_wherever_it_is_read(owner: User) -> None:
    from apps.core.request_body import RequestBodyLimitMiddleware

    # A body without a declared length is measured as Django reads it: RequestDataTooBig.
    api = exception_handler(RequestDataTooBig("too big"), {})
    assert api.status_code == 413 and api.data["error"]["code"] == "request_too_large"
    request = RequestFactory().post("/web/handoff/1/command/", "{}", content_type="application/json")
    portal = RequestBodyLimitMiddleware(lambda request: None).process_exception(request, RequestDataTooBig())  # type: ignore[arg-type, return-value]
    assert portal is not None and portal.status_code == 413
    with pytest.raises(RequestDataTooBig):
        StrictJSONParser().parse(BytesIO(b" " * ((request_body_limit() or 0) + 1)))
    with pytest.raises(ParseError):
        StrictJSONParser().parse(BytesIO(DEEP.encode()))


# --- Pages ----------------------------------------------------------------------


def test_a_huge_limit_is_lowered_to_the_maximum_page_size(owner: User) -> None:
    Conversation.objects.bulk_create(Conversation(owner=owner, title=f"c{n}") for n in range(MAX_PAGE_SIZE + 5))
    response = api_client_for(owner).get("/api/v1/conversations/?limit=99999999999999999999")
    assert response.status_code == 200
    assert response.json()["count"] == MAX_PAGE_SIZE + 5
    assert len(response.json()["results"]) == MAX_PAGE_SIZE


@pytest.mark.parametrize(
    "query",
    [
        "limit=99999999999999999999",
        "limit=" + "9" * 5000,
        "limit=abc",
        "limit=-1",
        "limit=0",
        "limit=1e3",
        "offset=99999999999999999999",
        "offset=-5",
        "offset=" + "9" * 5000,
        "limit=99999999999999999999&offset=99999999999999999999",
    ],
)
def test_odd_limits_and_offsets_never_answer_5xx_on_any_list(owner: User, query: str) -> None:
    client = api_client_for(owner)
    failures = []
    for route in api_routes():
        if route.is_detail or route.actions.get("get") != "list":
            continue
        if issubclass(route.view_class, OwnedModelViewSet):
            build_owned_row(_owned_model_of(route, owner), owner)  # a list with rows: the page is really cut
        response = client.get(f"{_concrete_path(route, 1)}?{query}")
        if response.status_code >= 500:
            failures.append(f"GET {route.name}?{query[:40]} answered {response.status_code}")
    assert not failures, failures


# --- Format suffixes ----------------------------------------------------------------


def test_the_api_has_no_format_suffix_routes() -> None:
    from django.urls import get_resolver

    from tests.test_tenancy_sweep import _walk

    suffixed = [path for path, _ in _walk(get_resolver().url_patterns) if "(?P<format>" in path]
    assert not suffixed, suffixed


def test_every_route_with_a_json_suffix_answers_a_json_404(owner: User) -> None:
    client = api_client_for(owner)
    failures = []
    for route in api_routes():
        pk = 1
        if issubclass(route.view_class, OwnedModelViewSet):
            pk = build_owned_row(_owned_model_of(route, owner), owner).pk
        path = _concrete_path(route, pk).rstrip("/")
        for method in route.actions:
            for url in (f"{path}.json", f"{path}.json/"):
                response = getattr(client, method)(url, {}, format="json")
                typed = method == "head" or response.json()["error"]["code"] == "not_found"  # HEAD has no body
                if response.status_code != 404 or not typed:
                    failures.append(f"{method.upper()} {url} answered {response.status_code}")
    assert not failures, failures


def test_options_is_a_405_on_every_route_never_a_500(owner: User) -> None:
    # DRF's self-description asked views without a serializer for one (the consent decision: a 500).
    client = api_client_for(owner)
    answers = {route.name: client.options(_concrete_path(route, 1)).status_code for route in api_routes()}
    assert set(answers.values()) == {405}, answers
