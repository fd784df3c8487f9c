"""The extraction tier behind extract_entries, against a real scripted model server.

The adapter asks only for the missing fields, with a response schema, sends
the document cut to a bound, raises typed errors (the executor keeps its
deterministic result) and exists only when the extraction tier is configured.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from apps.accounts.models import User
from apps.core.redaction import secrets_redacted
from apps.runtime.executor import ExecutionContext
from apps.runtime.executors.records import ExtractEntriesExecutor
from apps.runtime.extraction.model import (
    EXTRACTION_MAX_CHARS,
    configured_model_extractor,
    extraction_response_schema,
    model_extractor_for_tier,
)
from apps.runtime.tiers.client import ModelRefused, ModelTruncated, ModelUnavailable, ModelUsage
from tests.model_server import ScriptedModelServer

CANARY = "CANARY-S3CRET-123"
# The rules find the price (a label/value line) but no supplier: there is no label
# and the letterhead names no company the rules recognise.
QUOTE = "Offer for office chairs\nDelivery within 10 days\nTotal: 1.250,00 EUR\nOffer made by Sedie Rossi\n"


def request_body(server: ScriptedModelServer, index: int = 0) -> dict[str, Any]:
    body = server.chat_requests[index].json
    assert isinstance(body, dict)
    return body


def user_message(server: ScriptedModelServer, index: int = 0) -> str:
    return str(request_body(server, index)["messages"][-1]["content"])


def test_returns_values_for_the_missing_fields(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"supplier": " Sedie Rossi ", "delivery_date": None})
    usage = ModelUsage()
    extractor = model_extractor_for_tier(scripted_model_server.tier("extraction", cloud=True), usage=usage)

    values = extractor(QUOTE, ["supplier", "delivery_date"])

    assert values == {"supplier": "Sedie Rossi", "delivery_date": None}
    assert usage.requests("extraction") == 1
    assert usage.cloud_requests == 1
    body = request_body(scripted_model_server)
    assert body["response_format"]["json_schema"]["schema"] == {
        "type": "object",
        "properties": {"supplier": {"type": ["string", "null"]}, "delivery_date": {"type": ["string", "null"]}},
        "required": ["supplier", "delivery_date"],
        "additionalProperties": False,
    }
    assert body["response_format"]["json_schema"]["strict"] is True
    asked = user_message(scripted_model_server)
    assert asked.startswith("Fields: supplier, delivery_date\n")
    assert QUOTE in asked
    assert "(all of it)" in asked


def test_request_carries_the_document_trimmed_to_max_chars(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"supplier": None})
    head = "H" * 100
    text = head + "TAIL-NEVER-SENT" + "t" * 500
    extractor = model_extractor_for_tier(scripted_model_server.tier("extraction"), max_chars=100)

    assert extractor(text, ["supplier"]) == {"supplier": None}

    asked = user_message(scripted_model_server)
    assert f"<<<DOCUMENT\n{head}\nDOCUMENT>>>" in asked
    assert f"the first 100 of its {len(text)} characters" in asked
    assert "TAIL-NEVER-SENT" not in scripted_model_server.chat_requests[0].text


def test_default_bound(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"supplier": None})
    text = "a" * EXTRACTION_MAX_CHARS + "b" * 10

    model_extractor_for_tier(scripted_model_server.tier("extraction"))(text, ["supplier"])

    assert "b" not in user_message(scripted_model_server).split("<<<DOCUMENT\n", 1)[1].split("\nDOCUMENT>>>")[0]


def test_no_fields_sends_nothing(scripted_model_server: ScriptedModelServer) -> None:
    assert model_extractor_for_tier(scripted_model_server.tier("extraction"))(QUOTE, []) == {}
    assert scripted_model_server.chat_requests == []


@pytest.mark.parametrize(
    ("script", "error"),
    [
        ({"status": 500}, ModelUnavailable),
        ({"status": 401}, ModelRefused),
        ({"reply": {"supplier": "Sedie"}, "finish_reason": "length"}, ModelTruncated),
    ],
)
def test_model_errors_are_raised_without_retrying(
    scripted_model_server: ScriptedModelServer, script: dict[str, Any], error: type[Exception]
) -> None:
    scripted_model_server.script(**script)
    scripted_model_server.script({"supplier": "Sedie Rossi"})
    extractor = model_extractor_for_tier(scripted_model_server.tier("extraction"))

    with pytest.raises(error):
        extractor(QUOTE, ["supplier"])

    assert len(scripted_model_server.chat_requests) == 1


def test_withheld_values_never_reach_the_model(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"supplier": None})
    extractor = model_extractor_for_tier(scripted_model_server.tier("extraction"))

    with secrets_redacted([CANARY]):
        extractor(f"{QUOTE}Portal password: {CANARY}\n", ["supplier"])

    assert CANARY not in scripted_model_server.chat_requests[0].text


# --- Through extract_entries ----------------------------------------------------------


def run_extract(extractor: Any, fields: list[str]) -> Any:
    executor = ExtractEntriesExecutor(model_extractor=extractor)
    documents = [{"address": "Purchasing/quote.txt", "outcome": "read", "text": QUOTE}]
    return executor.run(
        ExecutionContext(owner=User(username="extraction"), turn_id=None, step_index=3),
        {"from_step": documents, "fields": fields},
    )


def test_extract_entries_asks_only_for_what_the_rules_missed(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"supplier": "Sedie Rossi"})

    result = run_extract(model_extractor_for_tier(scripted_model_server.tier("extraction")), ["supplier", "price"])

    assert result.outcome == "success"
    [entry] = result.items
    assert (entry["supplier"], entry["price"], entry["currency"]) == ("Sedie Rossi", "1250.00", "EUR")
    assert entry["evidence"]["supplier"]["method"] == "model"
    schema = request_body(scripted_model_server)["response_format"]["json_schema"]["schema"]
    assert schema == extraction_response_schema(["supplier"])  # the price was found without the model


def test_extract_entries_keeps_the_deterministic_result_when_the_model_fails(
    scripted_model_server: ScriptedModelServer,
) -> None:
    scripted_model_server.script(status=503)

    result = run_extract(model_extractor_for_tier(scripted_model_server.tier("extraction")), ["supplier", "price"])

    assert result.outcome == "partial"
    [entry] = result.items
    assert (entry["supplier"], entry["price"]) == (None, "1250.00")
    assert any("extraction model gave no usable answer" in notice for notice in result.notices)


# --- Configuration --------------------------------------------------------------------


def test_no_extractor_unless_the_extraction_tier_is_configured(
    settings: SettingsWrapper, scripted_model_server: ScriptedModelServer
) -> None:
    settings.METNOS_MODEL_TIERS = {}
    assert configured_model_extractor() is None

    # Other tiers configured: still none, never a fallback.
    settings.METNOS_MODEL_TIERS = {
        "planning": scripted_model_server.settings_entry(),
        "frontier": scripted_model_server.settings_entry(cloud=True),
    }
    assert configured_model_extractor() is None


def test_configured_extractor_asks_the_extraction_tier(
    settings: SettingsWrapper, scripted_model_server: ScriptedModelServer
) -> None:
    settings.METNOS_MODEL_TIERS = {"extraction": scripted_model_server.settings_entry()}
    scripted_model_server.script({"supplier": "Sedie Rossi"})

    extractor = configured_model_extractor()

    assert extractor is not None
    assert extractor(QUOTE, ["supplier"]) == {"supplier": "Sedie Rossi"}
    assert request_body(scripted_model_server)["model"] == scripted_model_server.model_id
