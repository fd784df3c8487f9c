"""A canary secret saved in the vault appears in no channel Metnos has.

It is saved three ways (the portal form, REST, the CLI's standard input),
listed everywhere listings exist, and used by a turn whose executors leak it
on purpose. Then every channel is scanned: logs, live events, trace and step
records, the answer, REST answers, portal and admin pages, CLI output,
exception texts and reprs, executor results, model request bodies, and the
database column itself.
"""

from __future__ import annotations

import io
import json
import logging
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core import serializers
from django.core.management import call_command
from django.db import connection
from django.test import Client

from apps.runtime.executor import ExecutionContext, StepResult, build_catalog, registered_executors
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.tiers.client import ModelClient
from apps.runtime.trace import observe_turn_events
from apps.runtime.turns import turn_conduct, turn_submit
from apps.vault.errors import VaultError
from apps.vault.mandates import mandate_resolve, vault_mandate_for_plan
from apps.vault.models import Credential, VaultKey
from tests.conftest import Cast, api_client_for
from tests.model_server import ScriptedModelServer
from tests.vault.conftest import OTHER_KEY, SignInProbe

pytestmark = pytest.mark.django_db

CANARY = "CANARY-vault-9d41e7"
SEED_CANARY = "MFRGGZDFMZTWQ2LK"  # a base32 seed, also a canary


class CrashingSignIn:
    manifest = Manifest(
        name="crashing_sign_in",
        purpose="Test only: resolves a credential, then raises with it in the message.",
        args={"url": ArgSpec(type="string", required=True, sensitive="authorisation"),
              "credential": ArgSpec(type="string", sensitive="authorisation")},
        result=ResultShape(kind="none"),
        capabilities=frozenset({"credentials.use"}),
    )  # fmt: skip

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        resolved = mandate_resolve(context.mandate, credential=args["credential"], origin=args["url"])
        raise RuntimeError(f"exploded holding {resolved.secret} and {resolved.one_time_code()}")


def _save_everywhere(cast: Cast, monkeypatch: pytest.MonkeyPatch, outputs: list[str]) -> None:
    portal = Client()
    portal.force_login(cast.owner)
    saved = portal.post(
        "/vault/new/",
        {"label": "Energy", "origins": "https://energy.example", "username": "ada", "secret": CANARY,
         "totp_seed": SEED_CANARY, "authorise_code_automation": "on"},
        follow=True,
    )  # fmt: skip
    outputs.append(saved.content.decode())
    api = api_client_for(cast.owner)
    created = api.post(
        "/api/v1/credentials/",
        {"label": "Energy (API)", "origins": ["https://api.energy.example"], "username": "ada", "secret": CANARY},
        format="json",
    )
    outputs.append(created.content.decode())
    monkeypatch.setattr(sys, "stdin", io.StringIO(CANARY + "\n"))
    out = io.StringIO()
    call_command("metnos", "vault", "add", "--user", "owner", "--origin", "https://cli.energy.example",
                 "--username", "ada", "--label", "Energy (CLI)", stdout=out)  # fmt: skip
    outputs.append(out.getvalue())
    assert Credential.objects.filter(owner=cast.owner).count() == 3


def _every_listing(cast: Cast, monkeypatch: pytest.MonkeyPatch, outputs: list[str]) -> None:
    api = api_client_for(cast.owner)
    credentials = list(Credential.objects.filter(owner=cast.owner))
    outputs.append(api.get("/api/v1/credentials/").content.decode())
    for credential in credentials:
        outputs.append(api.get(f"/api/v1/credentials/{credential.pk}/").content.decode())
    portal = Client()
    portal.force_login(cast.owner)
    outputs.append(portal.get("/vault/").content.decode())
    outputs.append(portal.get(f"/vault/{credentials[0].pk}/delete/").content.decode())
    outputs.append(
        portal.post("/vault/new/", {"label": "Bad", "origins": "ftp://x", "secret": CANARY}).content.decode()
    )
    for user in (cast.operator, cast.superuser):
        admin = Client()
        admin.force_login(user)
        for model in (Credential, VaultKey):
            base = f"/{django_settings.ADMIN_PATH}vault/{model._meta.model_name}/"
            outputs.append(admin.get(base).content.decode())
            for row in model.objects.all():
                page = admin.get(f"{base}{row.pk}/change/")
                assert page.status_code == 200
                outputs.append(page.content.decode())
    out = io.StringIO()
    call_command("metnos", "vault", "list", "--user", "owner", stdout=out)
    call_command("metnos", "vault", "check", stdout=out)
    outputs.append(out.getvalue())


def _turn_using_the_canary(cast: Cast, server: ScriptedModelServer, events: list[Any]) -> Turn:
    catalog = build_catalog(
        {**registered_executors(), "sign_in_probe": SignInProbe(ModelClient(server.tier("route_choice"))),
         "crashing_sign_in": CrashingSignIn()}
    )  # fmt: skip
    plan = {"steps": [
        {"tool": "credentials_list", "args": {}},
        {"tool": "sign_in_probe", "args": {"url": "https://energy.example/login", "credential": "Energy"}},
        {"tool": "crashing_sign_in", "args": {"url": "https://energy.example", "credential": "Energy"}},
    ]}  # fmt: skip
    turn = turn_submit(owner=cast.owner, text="sign in to my energy account", plan=plan, enqueue=False)
    mandate = vault_mandate_for_plan(owner=cast.owner, turn_id=turn.pk, plan=plan, catalog=catalog)
    with observe_turn_events(events.append):
        turn = turn_conduct(turn=turn, catalog=catalog, mandate=mandate)
    assert CANARY in mandate.secrets() and SEED_CANARY in mandate.secrets()  # it really was used
    assert CANARY not in repr(mandate)
    return turn


def _exception_texts(cast: Cast, settings: Any) -> list[str]:
    texts = []
    mandate = vault_mandate_for_plan(owner=cast.owner, turn_id=0, plan={"steps": []}, catalog=build_catalog({}))
    for attempt in (
        lambda: mandate.resolve("Energy", "https://energy.example"),
        lambda: mandate_resolve(mandate, credential="Energy", origin="https://elsewhere.example"),
    ):
        with pytest.raises(VaultError) as refused:
            attempt()
        texts.append(f"{refused.value!r} {refused.value}")
    settings.METNOS_VAULT_KEY = OTHER_KEY
    api = api_client_for(cast.owner)
    texts.append(api.get("/api/v1/credentials/").content.decode())
    with pytest.raises(VaultError) as mismatch:
        from apps.vault.selectors import credential_list

        credential_list(owner=cast.owner)
    texts.append(f"{mismatch.value!r} {mismatch.value}")
    return texts


def test_canary_secret_appears_nowhere(
    cast: Cast,
    scripted_model_server: ScriptedModelServer,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    caplog.set_level(logging.DEBUG)
    scripted_model_server.script({"choice": "Sign in"})
    outputs: list[str] = []
    _save_everywhere(cast, monkeypatch, outputs)
    _every_listing(cast, monkeypatch, outputs)
    events: list[Any] = []
    turn = _turn_using_the_canary(cast, scripted_model_server, events)

    # The executors really ran with the value: a model request went out, the crash happened.
    assert len(scripted_model_server.chat_requests) == 1
    crashed = StepRecord.objects.get(turn=turn, index=3)
    assert crashed.outcome == "failed" and "RuntimeError" in crashed.error_message
    assert "[redacted]" in StepRecord.objects.get(turn=turn, index=2).summary

    records = serializers.serialize(
        "json",
        [*Turn.objects.filter(pk=turn.pk), *StepRecord.objects.filter(turn=turn),
         *TraceEvent.objects.filter(turn=turn), *Credential.objects.all(), *VaultKey.objects.all()],
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("SELECT label, username, origins, secret, totp_seed FROM vault_credential")
        columns = json.dumps(cursor.fetchall())
    credential = Credential.objects.filter(owner=cast.owner).get(label="Energy")
    reprs = f"{credential!r} {credential} {credential.secret!r} {credential.totp_seed} {vars(credential)}"
    exceptions = _exception_texts(cast, settings)

    channels = {
        "log": caplog.text,
        "live events": json.dumps(events, default=str),
        "turn, steps and trace": records,
        "answer": turn.answer,
        "model request body": "".join(request.raw_body.decode() for request in scripted_model_server.requests),
        "REST, portal, admin and CLI output": "\n".join(outputs),
        "database columns": columns,
        "reprs": reprs,
        "exception texts": "\n".join(exceptions),
    }
    for secret in (CANARY, SEED_CANARY):
        leaks = [name for name, text in channels.items() if secret in text]
        assert not leaks, f"{secret} leaked into: {leaks}"
