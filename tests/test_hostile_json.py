"""Hostile JSON to every endpoint that takes JSON: a typed 4xx, never a 5xx (issue 15, finding 6).

The endpoints come from the URL resolver: every DRF route, with each method
its view allows, and every portal view marked with
:func:`apps.core.request_body.reads_json`. A route or view added later is
covered without editing this file. Each is called as the signed-in owner
(session) and, for the API, as the owner's paired device (bearer token), with
generated bodies: deep nesting, huge numbers, NaN and Infinity, lone
surrogates, text that is not UTF-8, huge strings, wrong types, arrays where
objects belong, and objects with the fields the endpoints read holding any of
those. Examples are few per endpoint (the suite must stay fast); the
generators lean on the cases that broke before.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.db import models
from django.test import Client
from django.urls import get_resolver
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.core.api import OwnedModelViewSet
from apps.core.limits import MAX_JSON_DEPTH, MAX_JSON_INTEGER, request_body_limit
from apps.runtime.models import DeviceStep
from apps.runtime.turns import turn_submit
from apps.sites.models import HandoffPanel
from tests.factories import build_owned_row
from tests.test_tenancy_sweep import _walk

pytestmark = pytest.mark.django_db

BODY_METHODS = ("post", "put", "patch")
OTHER_METHODS = ("get", "delete", "options")
EXAMPLES_WITH_A_BODY = 25
EXAMPLES_OTHERWISE = 3  # the body is not read; a few calls check that it is ignored safely


# --- The endpoints -------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    pattern: str
    methods: tuple[str, ...]
    view: Any  # the DRF view class, or the portal view function
    api: bool

    @property
    def name(self) -> str:
        return "/" + re.sub(r"(^|/)\^", r"\1", self.pattern).replace("/$", "/").removesuffix("$")


def json_endpoints() -> list[Endpoint]:
    endpoints = []
    for pattern, callback in _walk(get_resolver().url_patterns):
        if pattern.startswith((settings.ADMIN_PATH, "test-probe/")):
            continue
        view_class = getattr(callback, "cls", None)
        if view_class is not None and issubclass(view_class, APIView):
            actions = getattr(callback, "actions", None)
            methods = list(actions) if actions else [m.lower() for m in view_class().allowed_methods]
            allowed = tuple(m for m in (*BODY_METHODS, *OTHER_METHODS) if m in methods or m == "options")
            endpoints.append(Endpoint(pattern, allowed, view_class, api=True))
        elif getattr(callback, "reads_json", False):
            # A portal view does not list its methods; each is tried (405 is an answer too).
            endpoints.append(Endpoint(pattern, (*BODY_METHODS, *OTHER_METHODS), callback, api=False))
    return endpoints


ENDPOINTS = json_endpoints()


def test_the_walk_finds_the_endpoints_that_take_json() -> None:
    names = {(endpoint.name, method) for endpoint in ENDPOINTS for method in endpoint.methods}
    assert ("/api/v1/turns/", "post") in names
    assert ("/api/v1/device-steps/(?P<pk>[^/.]+)/result/", "post") in names
    assert ("/web/handoff/<int:panel_id>/command/", "post") in names
    as_device = {str(case.id) for case in CASES if str(case.id).endswith("as device")}
    assert "POST /api/v1/device-steps/(?P<pk>[^/.]+)/result/ as device" in as_device
    assert "POST /api/v1/turns/ as device" in as_device


def test_every_portal_view_that_reads_a_body_says_so() -> None:
    # A portal view reading JSON without the mark would escape this sweep (and the strict reader).
    unmarked = []
    for pattern, callback in _walk(get_resolver().url_patterns):
        if getattr(callback, "cls", None) is not None or pattern.startswith(settings.ADMIN_PATH):
            continue
        try:
            source = inspect.getsource(inspect.unwrap(callback))
        except (OSError, TypeError):
            continue
        reads = "request.body" in source or "json_body(" in source or "json.loads" in source
        if reads and not getattr(callback, "reads_json", False):
            unmarked.append(pattern)
    assert not unmarked, f"portal views reading a body without @reads_json: {unmarked}"


# --- The bodies ----------------------------------------------------------------------

# The fields the endpoints read, so generated objects reach their serializers and services.
FIELDS = (
    "text", "conversation", "name", "title", "label", "username", "origins", "secret", "totp_seed",
    "authorise_code_automation", "confirm", "value", "kind", "x", "y", "dy", "outcome", "items", "error",
    "notices", "summary", "fields", "id", "pk", "steps", "tool", "args",
)  # fmt: skip
HOSTILE_TEXT = (
    "\ud800", "\udfff", "a\ud83d", "\x00", "a\x00b", "😀", "è İ ß", "\u202eevil", "{{step1.items}}", "~/../../etc",
    "9" * 30, "-1", "0", "1e999", "NaN", "", " ", "x" * 5000, "<script>", "true", "null", "[]", "{}",
    "click", "scroll", "refresh", "success", "failed",
)  # fmt: skip

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, MAX_JSON_INTEGER, -MAX_JSON_INTEGER, MAX_JSON_INTEGER + 1, 10**30, 2**31, 2**53 + 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(HOSTILE_TEXT),
)
values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(FIELDS) | st.text(), children, max_size=4)
    ),
    max_leaves=12,
)
objects = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)


def _dump(value: Any, ascii_only: bool) -> bytes:
    # NaN and Infinity as Python writes them; lone surrogates escaped, or raw (not UTF-8 at all).
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def _nested(depth: int, kind: str) -> bytes:
    if kind == "array":
        return b"[" * depth + b"]" * depth
    return b'{"steps": ' * depth + b"1" + b"}" * depth


huge = (request_body_limit() or 2_621_440) + 10
raw_bodies = st.one_of(
    st.builds(
        _nested, st.sampled_from([MAX_JSON_DEPTH + 1, 1_000, 10_000, 100_000]), st.sampled_from(["array", "object"])
    ),
    st.sampled_from(
        [
            b"NaN", b"-Infinity", b'{"text": NaN}', b'{"conversation": 1e999}', b'{"x": -1e999, "y": 1}',
            b'{"text": "hi", "conversation": ' + b"9" * 5000 + b"}", b"1" * 10_000, b'{"text": "\\ud800"}',
            b'{"value": "\xff\xfe"}', b'{"summary": "\xed\xa0\x80"}', b"\xef\xbb\xbf{}", b"", b"{", b"[1,]",
            b'"just text"', b"42", b"null", b"true", b"[]", b'[{"text": "hi"}]', b'{"text": "a\\u0000"}',
            b'{"text": "' + b"x" * 500_000 + b'"}', b'{"text": "' + b"x" * huge + b'"}', b"[" + b"0," * 200_000 + b"0]",
        ]
    ),
)  # fmt: skip
bodies = st.one_of(
    st.builds(_dump, objects, st.booleans()),
    st.builds(_dump, values, st.booleans()),
    raw_bodies,
)


# --- The calls -----------------------------------------------------------------------


@dataclass
class Callers:
    """The owner's clients and the rows the endpoints act on, rebuilt when an example deleted them."""

    owner: User
    session: Client
    device: Client
    device_row: Any
    rows: dict[str, models.Model]

    def row(self, key: str, build: Callable[[], models.Model]) -> models.Model:
        row = self.rows.get(key)
        if row is None or not type(row)._default_manager.filter(pk=row.pk).exists():
            row = self.rows[key] = build()
        return row


def _claimed_step(callers: Callers) -> DeviceStep:
    turn = turn_submit(owner=callers.owner, text="list my photos", enqueue=False)
    return DeviceStep.objects.create(
        owner=callers.owner, device=callers.device_row, turn=turn, step_index=1, tool="list_photos",
        executor_signature="x", status=DeviceStep.Status.CLAIMED,
        expires_at=turn.created_at.replace(year=turn.created_at.year + 1),
    )  # fmt: skip


def _path(endpoint: Endpoint, callers: Callers) -> str:
    path = endpoint.name
    if endpoint.api and issubclass(endpoint.view, OwnedModelViewSet) and "(?P<pk>" in path:
        model = endpoint.view.list_selector(owner=callers.owner).model
        if model is DeviceStep:  # the device's own step, taken: its result is really read
            row = callers.row(endpoint.pattern, lambda: _claimed_step(callers))
        else:
            row = callers.row(endpoint.pattern, lambda: build_owned_row(model, callers.owner))
        path = path.replace("(?P<pk>[^/.]+)", str(row.pk))
    if "<int:panel_id>" in path:
        panel = callers.row("panel", lambda: build_owned_row(HandoffPanel, callers.owner))
        path = path.replace("<int:panel_id>", str(panel.pk))
    # Other parts of a path (a batch of a job, a decision) get a plausible value.
    return re.sub(r"\(\?P<\w+>[^)]*\)|<(?:\w+:)?\w+>", "1", path)


def _check(response: Any, where: str) -> None:
    assert response.status_code < 500, f"{where} answered {response.status_code}: {response.content[:300]!r}"
    if response.status_code in (400, 413) and response.get("Content-Type", "").startswith("application/json"):
        error = response.json().get("error")
        assert isinstance(error, dict) and {"code", "message"} <= set(error), f"{where}: {response.content[:300]!r}"


def _credentials(endpoint: Endpoint, method: str) -> tuple[str, ...]:
    # A device's bodies go where its view lets a device in (``device_access``: the device steps, a
    # turn sent from a device); everywhere else a device is refused before any body is read.
    device_access: frozenset[str] = getattr(getattr(endpoint.view, "cls", endpoint.view), "device_access", frozenset())
    device = endpoint.api and method in BODY_METHODS and bool(device_access)
    return ("session", "device") if device else ("session",)


CASES = [
    pytest.param(endpoint, method, credentials, id=f"{method.upper()} {endpoint.name} as {credentials}")
    for endpoint in ENDPOINTS
    for method in endpoint.methods
    for credentials in _credentials(endpoint, method)
]


def test_a_patch_of_a_device_without_a_name_is_not_a_5xx(callers: Callers) -> None:
    device = device_pair(owner=callers.owner, name="Tablet").device
    response = callers.session.generic("PATCH", f"/api/v1/devices/{device.pk}/", b"{}", content_type="application/json")
    assert response.status_code < 500


@pytest.fixture
def callers(owner: User) -> Callers:
    session = Client()
    session.force_login(owner)
    paired = device_pair(owner=owner, name="Phone")
    device = Client(HTTP_AUTHORIZATION=f"Bearer {paired.token}")
    return Callers(owner=owner, session=session, device=device, device_row=paired.device, rows={})


@pytest.mark.parametrize(("endpoint", "method", "credentials"), CASES)
def test_hostile_json_never_gets_a_5xx(callers: Callers, endpoint: Endpoint, method: str, credentials: str) -> None:
    examples = EXAMPLES_WITH_A_BODY if method in BODY_METHODS else EXAMPLES_OTHERWISE
    client = callers.session if credentials == "session" else callers.device

    @hypothesis_settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(body=bodies)
    def call(body: bytes) -> None:
        path = _path(endpoint, callers)
        response = client.generic(method.upper(), path, body, content_type="application/json")
        _check(response, f"{method.upper()} {path}")

    call()
