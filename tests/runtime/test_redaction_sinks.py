"""The runtime's sinks keep no part of a turn's secrets, however the secrets overlap and are encoded.

The sinks are model request bodies (the model client) and, through a whole
turn, the step records, the trace, the live events, the answer and the log
lines written while the step runs. A leaky executor repeats a text that
embeds the turn's secrets (raw, URL-encoded, JSON- and HTML-escaped) in every
channel it has.

* Plain: with the secrets ``hunter2`` and ``hunter2-long``, no ``-long``
  survives anywhere.
* Property (hypothesis, cases from ``tests/redaction_cases.py``): no sink's
  output holds any form of any secret.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from apps.accounts.models import User
from apps.core.redaction import REDACTED, secrets_redacted
from apps.runtime.executor import ExecutionContext, NoMandate, StepError, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.tiers.client import ModelClient
from apps.runtime.trace import observe_turn_events
from apps.runtime.turns import turn_conduct, turn_submit
from tests.model_server import ScriptedModelServer
from tests.redaction_cases import Case, captured_log, cases, leaks, strings_in

API_KEY_CANARY = "sk-canary-Rd7Qx2Lm9Vb4"
logger = logging.getLogger("tests.runtime.redaction_sinks")


@pytest.fixture(scope="module")
def model_server() -> Iterator[ScriptedModelServer]:
    """One scripted model server for every example of a module's tests."""
    with ScriptedModelServer() as server:
        yield server


# --- The model client -------------------------------------------------------------


def request_body_strings(server: ScriptedModelServer, text: str, secrets: tuple[str, ...]) -> list[str]:
    """What the model is sent when a message and a content part carry ``text`` while ``secrets`` are active."""
    server.script("ok")
    client = ModelClient(server.tier("route_choice", api_key=API_KEY_CANARY))
    with secrets_redacted(secrets):
        client.chat([{"role": "user", "content": text}, {"role": "user", "content": [{"type": "text", "text": text}]}])
    return list(strings_in(json.loads(server.chat_requests[-1].raw_body)))


def test_overlapping_secrets_never_reach_a_request_body(model_server: ScriptedModelServer) -> None:
    sent = request_body_strings(model_server, f"pw=hunter2-long key={API_KEY_CANARY}", ("hunter2", "hunter2-long"))

    assert f"pw={REDACTED} key={REDACTED}" in sent
    assert not any("hunter2" in text or "-long" in text or API_KEY_CANARY in text for text in sent)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_no_request_body_holds_any_form_of_a_secret(model_server: ScriptedModelServer, case: Case) -> None:
    for text in request_body_strings(model_server, case.text, case.secrets):
        assert leaks(text, (*case.secrets, API_KEY_CANARY)) == [], text


# --- A whole turn -----------------------------------------------------------------


class LeakyMandate(NoMandate):
    def __init__(self, secrets: tuple[str, ...]) -> None:
        self._secrets = secrets

    def allows(self, capability: str) -> bool:
        return capability == "credentials.use"

    def secrets(self) -> tuple[str, ...]:
        return self._secrets


class LeakyExecutor:
    """Repeats a text that embeds the turn's secrets in every channel it has, then fails with it."""

    manifest = Manifest(
        name="leaky_step",
        purpose="Test only: repeats a text holding the turn's secrets everywhere.",
        args={"site": ArgSpec(type="string", required=True)},
        result=ResultShape(kind="collection", fields=("site", "note")),
        capabilities=frozenset({"credentials.use"}),
    )

    def __init__(self, server: ScriptedModelServer, text: str) -> None:
        self.server, self.text = server, text

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        logger.warning("leaking %s and %r", self.text, self.text)
        try:
            raise ValueError(self.text)
        except ValueError:
            logger.exception("trouble")
        self.server.script("ok")
        ModelClient(self.server.tier("route_choice")).chat([{"role": "user", "content": self.text}])
        return StepResult(
            outcome="failed",
            error=StepError("permanent", "leaky", self.text),
            items=({"site": args["site"], "note": self.text},),
            effects=({"undo": self.text},),
            notices=(self.text,),
            summary=self.text,
        )


def turn_outputs(owner: User, server: ScriptedModelServer, text: str, secrets: tuple[str, ...]) -> list[str]:
    """Every string a turn whose steps leak ``text`` leaves behind, sent or recorded."""
    catalog = build_catalog({"leaky_step": LeakyExecutor(server, text)})
    plan = {"steps": [{"tool": "leaky_step", "args": {"site": "https://energy.example"}}]}
    events: list[Any] = []
    with captured_log() as log, observe_turn_events(events.append):
        turn = turn_conduct(
            turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False),
            catalog=catalog,
            mandate=LeakyMandate(secrets),
        )
    steps = StepRecord.objects.filter(turn=turn).values(
        "error_message", "summary", "notices", "result_preview", "result", "effects"
    )
    trace = TraceEvent.objects.filter(turn=turn).values("data", "content")
    return [
        turn.answer,
        log.getvalue(),
        *strings_in(json.loads(server.chat_requests[-1].raw_body)),
        *strings_in(events),
        *strings_in(list(steps)),
        *strings_in(list(trace)),
    ]


@pytest.mark.django_db
def test_overlapping_secrets_leave_no_part_in_a_turn(owner: User, model_server: ScriptedModelServer) -> None:
    outputs = turn_outputs(owner, model_server, "pw=hunter2-long", ("hunter2", "hunter2-long"))

    assert any(REDACTED in output for output in outputs)
    assert not any("hunter2" in output or "-long" in output for output in outputs)
    assert Turn.objects.get(owner=owner).status == Turn.Status.FAILED


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=cases())
def test_no_turn_record_holds_any_form_of_a_secret(owner: User, model_server: ScriptedModelServer, case: Case) -> None:
    for output in turn_outputs(owner, model_server, case.text, case.secrets):
        assert leaks(output, case.secrets) == [], output
