"""The model client against a real scripted server on loopback.

Every outcome the caller's loop relies on is typed; nothing is retried or sent
to another tier; cloud requests are counted when sent; the API key goes only
into the Authorization header.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from typing import Any

import httpx
import pytest

from apps.core.redaction import REDACTED, secrets_redacted
from apps.runtime.tiers.client import (
    ModelClient,
    ModelInvalidOutput,
    ModelRefused,
    ModelReply,
    ModelTimeout,
    ModelTruncated,
    ModelUnavailable,
    ModelUsage,
    check_schema,
    schema_mismatch,
)
from apps.runtime.tiers.config import ModelTier, Secret
from tests.model_server import ScriptedModelServer, scripted_model_server, unused_loopback_port

# Re-exported so pytest finds the fixture here (until tests/conftest.py lists
# tests.model_server as a plugin); listing it also tells linters it is used.
__all__ = ["scripted_model_server"]

CANARY_KEY = "sk-canary-Zq81TfXw3LmP0aVb"
CANARY_CREDENTIAL = "vault-canary-Hn4Wq7Rt2Kd9"
QUOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "supplier": {"type": "string"},
        "price": {"type": "number"},
        "currency": {"type": "string", "enum": ["EUR", "USD"]},
        "lines": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer"}}}},
    },
    "required": ["supplier", "price"],
    "additionalProperties": False,
}
ASK = [{"role": "user", "content": "Extract the supplier and price."}]


def chat(server: ScriptedModelServer, **tier_options: Any) -> ModelReply:
    return ModelClient(server.tier(**tier_options)).chat(ASK, response_schema=QUOTE_SCHEMA)


# --- Success --------------------------------------------------------------------


def test_schema_constrained_reply_is_parsed(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"supplier": "Acme", "price": 1250.5, "currency": "EUR", "lines": [{"qty": 2}]})
    usage = ModelUsage()

    reply = ModelClient(scripted_model_server.tier("extraction"), usage=usage).chat(
        ASK, response_schema=QUOTE_SCHEMA, schema_name="quote", max_tokens=200
    )

    assert reply.parsed == {"supplier": "Acme", "price": 1250.5, "currency": "EUR", "lines": [{"qty": 2}]}
    assert reply.tier == "extraction"
    assert reply.finish_reason == "stop"
    assert (reply.prompt_tokens, reply.completion_tokens) == (11, 7)
    assert usage.requests("extraction") == 1
    assert usage.cloud_requests == 0
    [request] = scripted_model_server.chat_requests
    assert request.json == {
        "model": "scripted-model",
        "messages": ASK,
        "stream": False,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "quote", "schema": QUOTE_SCHEMA, "strict": True},
        },
        "max_tokens": 200,
    }
    assert "authorization" not in request.headers


def test_plain_reply_without_schema_is_not_parsed(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script("Three quotes were compared.")

    reply = ModelClient(scripted_model_server.tier("summarisation")).chat(ASK)

    assert reply.content == "Three quotes were compared."
    assert reply.parsed is None
    assert "response_format" not in scripted_model_server.chat_requests[0].json
    assert "Three quotes" not in repr(reply)  # content may be personal data


# --- Invalid or incomplete output ---------------------------------------------------


def test_reply_that_is_not_json_is_invalid_output(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script("Sure! The supplier is Acme.")

    with pytest.raises(ModelInvalidOutput) as caught:
        chat(scripted_model_server)

    assert caught.value.cause == "not_json"
    assert "Acme" not in str(caught.value)


@pytest.mark.parametrize(
    ("content", "detail"),
    [
        ({"supplier": "Acme", "price": "1250 EUR"}, "$.price: expected number, got string"),
        ({"supplier": "Acme"}, "$: missing required property price"),
        ({"supplier": "Acme", "price": 1, "currency": "GBP"}, "$.currency: not one of the allowed values"),
        ({"supplier": "Acme", "price": 1, "lines": [{"qty": 1}, {"qty": 1.5}]}, "$.lines[1].qty: expected integer"),
        ({"supplier": "Acme", "price": 1, "secret_Acme_field": 1}, "$: unexpected property"),
        (["Acme", 1], "$: expected object, got array"),
    ],
)
def test_reply_that_breaks_the_schema_is_invalid_output(
    scripted_model_server: ScriptedModelServer, content: Any, detail: str
) -> None:
    scripted_model_server.script(content)

    with pytest.raises(ModelInvalidOutput) as caught:
        chat(scripted_model_server)

    assert caught.value.cause == "schema_mismatch"
    assert detail in str(caught.value)
    assert "Acme" not in str(caught.value)  # locations come from the schema, never from the reply


def test_truncated_reply_is_not_a_success(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script('{"supplier": "Ac', finish_reason="length")

    with pytest.raises(ModelTruncated) as caught:
        chat(scripted_model_server)

    assert caught.value.cause == "length"


def test_body_that_is_not_a_chat_completion_is_invalid_output(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script(raw_body="<html>gateway</html>")
    scripted_model_server.script(raw_body='{"choices": []}')

    for _ in range(2):
        with pytest.raises(ModelInvalidOutput) as caught:
            chat(scripted_model_server)
        assert caught.value.cause == "malformed_response"
        assert "gateway" not in str(caught.value)


def test_null_content_is_invalid_output(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script(None)

    with pytest.raises(ModelInvalidOutput) as caught:
        chat(scripted_model_server)

    assert caught.value.cause == "no_content"


# --- Server and network failures -----------------------------------------------------


def test_server_error_is_unavailable_and_not_retried(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script(status=500)
    scripted_model_server.script({"supplier": "Acme", "price": 1})  # would succeed if retried

    with pytest.raises(ModelUnavailable) as caught:
        chat(scripted_model_server)

    assert (caught.value.cause, caught.value.status) == ("server_error", 500)
    assert len(scripted_model_server.chat_requests) == 1
    assert scripted_model_server.pending == 1


@pytest.mark.parametrize(
    ("status", "cause"), [(401, "unauthorised"), (403, "unauthorised"), (429, "rate_limited"), (400, "rejected")]
)
def test_client_error_is_refused(scripted_model_server: ScriptedModelServer, status: int, cause: str) -> None:
    scripted_model_server.script(status=status)

    with pytest.raises(ModelRefused) as caught:
        chat(scripted_model_server)

    assert (caught.value.cause, caught.value.status) == (cause, status)
    assert str(caught.value) == f"planning model: {cause} (HTTP {status})"


def test_content_filter_is_refused(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script("", finish_reason="content_filter")

    with pytest.raises(ModelRefused) as caught:
        chat(scripted_model_server)

    assert caught.value.cause == "content_filter"


def test_connection_refused_is_unavailable_and_not_counted() -> None:
    closed = ModelTier(
        name="frontier",
        base_url=f"http://127.0.0.1:{unused_loopback_port()}/v1",
        model="m",
        timeout_seconds=5,
        cloud=True,
    )
    usage = ModelUsage()

    with pytest.raises(ModelUnavailable) as caught:
        ModelClient(closed, usage=usage).chat(ASK)

    assert caught.value.cause == "connect_failed"
    assert caught.value.sent is False
    assert usage.cloud_requests == 0  # nothing left the machine


# --- Time --------------------------------------------------------------------------


def test_slow_reply_times_out_and_stays_counted_as_a_cloud_request(
    scripted_model_server: ScriptedModelServer,
) -> None:
    scripted_model_server.script({"supplier": "Acme", "price": 1}, delay=3.0)
    usage = ModelUsage()
    client = ModelClient(scripted_model_server.tier("frontier", cloud=True, timeout_seconds=0.4), usage=usage)

    started = time.monotonic()
    with pytest.raises(ModelTimeout) as caught:
        client.chat(ASK, response_schema=QUOTE_SCHEMA)
    elapsed = time.monotonic() - started

    assert caught.value.cause == "timed_out"
    assert caught.value.sent is True
    assert usage.cloud_requests == 1
    assert usage.requests("frontier") == 1
    assert elapsed < 1.5


def test_deadline_shorter_than_the_tier_timeout_bounds_the_request(
    scripted_model_server: ScriptedModelServer,
) -> None:
    scripted_model_server.script("late", delay=3.0)
    usage = ModelUsage()
    client = ModelClient(scripted_model_server.tier("frontier", cloud=True, timeout_seconds=20), usage=usage)

    started = time.monotonic()
    with pytest.raises(ModelTimeout):
        client.chat(ASK, deadline=time.monotonic() + 0.4)

    assert time.monotonic() - started < 1.5
    assert usage.cloud_requests == 1


def test_passed_deadline_sends_nothing(scripted_model_server: ScriptedModelServer) -> None:
    usage = ModelUsage()
    client = ModelClient(scripted_model_server.tier("frontier", cloud=True), usage=usage)

    with pytest.raises(ModelTimeout) as caught:
        client.chat(ASK, deadline=time.monotonic() - 1)

    assert (caught.value.cause, caught.value.sent) == ("deadline_passed", False)
    assert scripted_model_server.requests == []
    assert usage.cloud_requests == 0


# --- Counting ------------------------------------------------------------------------


def test_requests_are_counted_per_tier_and_cloud_requests_apart(scripted_model_server: ScriptedModelServer) -> None:
    usage = ModelUsage()
    for _ in range(3):
        scripted_model_server.script("ok")
    scripted_model_server.script(status=503)

    ModelClient(scripted_model_server.tier("frontier", cloud=True), usage=usage).chat(ASK)
    ModelClient(scripted_model_server.tier("frontier", cloud=True), usage=usage).chat(ASK)
    ModelClient(scripted_model_server.tier("route_choice"), usage=usage).chat(ASK)
    with pytest.raises(ModelUnavailable):
        ModelClient(scripted_model_server.tier("frontier", cloud=True), usage=usage).chat(ASK)

    assert usage.as_json() == {"requests": {"frontier": 3, "route_choice": 1}, "cloud_requests": 3}
    assert usage.requests() == 4


def test_usage_is_thread_safe() -> None:
    usage = ModelUsage()
    cloud = ModelTier(name="frontier", base_url="https://api.example.org/v1", model="m", timeout_seconds=1, cloud=True)

    def record() -> None:
        for _ in range(500):
            usage.record_sent(cloud)

    threads = [threading.Thread(target=record) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert usage.cloud_requests == 4000
    assert usage.requests("frontier") == 4000


# --- Secrets -------------------------------------------------------------------------


def test_key_goes_only_into_the_authorization_header(
    scripted_model_server: ScriptedModelServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # A timeout the prompt answers meet even on a loaded machine; the last answer comes far later.
    client = ModelClient(scripted_model_server.tier("frontier", cloud=True, api_key=CANARY_KEY, timeout_seconds=1.5))
    scripted_model_server.script({"supplier": "Acme", "price": 1})
    scripted_model_server.script(status=401)
    scripted_model_server.script({"supplier": 5, "price": 1})
    scripted_model_server.script("late", delay=4.0)

    reply = client.chat(ASK, response_schema=QUOTE_SCHEMA)
    failures: list[Exception] = []
    for _ in range(3):
        with pytest.raises((ModelRefused, ModelInvalidOutput, ModelTimeout)) as caught:
            client.chat(ASK, response_schema=QUOTE_SCHEMA)
        failures.append(caught.value)

    assert [type(failure) for failure in failures] == [ModelRefused, ModelInvalidOutput, ModelTimeout]
    requests = scripted_model_server.chat_requests
    assert len(requests) == 4
    assert all(request.headers["authorization"] == f"Bearer {CANARY_KEY}" for request in requests)
    assert all(CANARY_KEY not in request.text for request in requests)
    assert CANARY_KEY not in repr(reply)
    for failure in failures:
        assert CANARY_KEY not in str(failure)
        assert CANARY_KEY not in repr(failure)
    assert "tier=frontier" in caplog.text  # the client does log, with the tier and status only
    assert CANARY_KEY not in caplog.text


def test_malformed_key_fails_without_quoting_it(scripted_model_server: ScriptedModelServer) -> None:
    # Settings refuse such a key; a tier built in code must not leak it either.
    broken = dataclasses.replace(scripted_model_server.tier(), api_key=Secret(f"{CANARY_KEY}\r\nX-Injected: 1"))

    with pytest.raises(ModelUnavailable) as caught:
        ModelClient(broken).chat(ASK)

    assert CANARY_KEY not in str(caught.value)
    assert scripted_model_server.requests == []


def test_withheld_credential_never_reaches_a_request_body(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script("ok")
    scripted_model_server.script("ok")
    client = ModelClient(scripted_model_server.tier("frontier", cloud=True, api_key=CANARY_KEY))
    page = f"Welcome back. Password: {CANARY_CREDENTIAL}. Your key {CANARY_KEY} is active."

    with secrets_redacted([CANARY_CREDENTIAL]):
        client.chat([{"role": "user", "content": page}, {"role": "user", "content": [{"type": "text", "text": page}]}])
    client.chat([{"role": "user", "content": "no secrets here"}])

    first, second = scripted_model_server.chat_requests
    assert CANARY_CREDENTIAL not in first.text
    assert CANARY_KEY not in first.text  # the tier's own key is always withheld
    assert first.json["messages"][0]["content"] == f"Welcome back. Password: {REDACTED}. Your key {REDACTED} is active."
    assert first.json["messages"][1]["content"][0]["text"] == first.json["messages"][0]["content"]
    assert second.json["messages"][0]["content"] == "no secrets here"


# --- Arguments and schemas --------------------------------------------------------------


def test_unsupported_schema_is_refused_before_sending(scripted_model_server: ScriptedModelServer) -> None:
    client = ModelClient(scripted_model_server.tier())

    with pytest.raises(ValueError, match="unsupported keywords: pattern"):
        client.chat(ASK, response_schema={"type": "string", "pattern": "^A"})
    with pytest.raises(ValueError, match="messages"):
        client.chat([])

    assert scripted_model_server.requests == []


def test_schema_subset_checks_types_strictly() -> None:
    check_schema(QUOTE_SCHEMA)
    assert schema_mismatch(True, {"type": "integer"}) == "$: expected integer, got boolean"
    assert schema_mismatch(3.0, {"type": "integer"}) is None
    assert schema_mismatch(1, {"enum": [True]}) == "$: not one of the allowed values"
    assert schema_mismatch(None, {"type": ["string", "null"]}) is None
    assert schema_mismatch({"x": 1}, {"type": "object", "additionalProperties": {"type": "string"}}) == (
        "$.*: expected string, got integer"
    )


# --- The scripted server itself ---------------------------------------------------------


def test_scripted_server_lists_its_model_and_answers_500_when_unscripted(
    scripted_model_server: ScriptedModelServer,
) -> None:
    models = httpx.get(f"{scripted_model_server.base_url}/models", timeout=5)
    unscripted = httpx.post(f"{scripted_model_server.base_url}/chat/completions", json={}, timeout=5)

    assert models.json()["data"][0]["id"] == "scripted-model"
    assert unscripted.status_code == 500
    assert scripted_model_server.unscripted == 1
    assert scripted_model_server.base_url.startswith("http://127.0.0.1:")
