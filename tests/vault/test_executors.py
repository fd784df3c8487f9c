"""The vault's executors in real turns: list (metadata), save (a link, never a value), delete (after consent)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.catalog import current_catalog
from apps.runtime.consent import consent_decide
from apps.runtime.models import ConsentRequest, StepRecord, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from apps.vault.executors import METADATA_FIELDS
from apps.vault.models import Credential
from tests.vault.conftest import BANK_ORIGIN, BANK_SECRET, OTHER_KEY

pytestmark = pytest.mark.django_db


def _ask(owner: User, text: str, plan: dict[str, Any] | None = None) -> Turn:
    return turn_conduct(turn=turn_submit(owner=owner, text=text, plan=plan, enqueue=False))


def _step(turn: Turn, index: int = 1) -> StepRecord:
    return StepRecord.objects.get(turn=turn, index=index)


def _confirm(owner: User, consent: ConsentRequest) -> Turn:
    """Confirm as ``owner`` and conduct the resumed turn."""
    decision = consent_decide(
        owner=owner,
        consent_id=consent.pk,
        confirm=True,
        conversation_id=consent.conversation_id,
        current_catalog_signature=current_catalog().signature,
    )
    assert decision.resumed_turn is not None
    return turn_conduct(turn=decision.resumed_turn)


def test_executors_are_in_the_catalog_with_consent_where_state_changes() -> None:
    catalog = current_catalog()
    consent = {name: catalog.manifests[name].consent.mode for name in ("credentials_list", "credentials_save",
               "credentials_delete")}  # fmt: skip
    assert consent == {"credentials_list": "none", "credentials_save": "none", "credentials_delete": "confirm"}
    # No executor of the vault can receive a secret as an argument.
    for name in consent:
        assert not {"secret", "password", "totp_seed"} & set(catalog.manifests[name].args)


@pytest.mark.parametrize(
    "request_text", ["list my credentials", "show me all my passwords", "elenca le mie credenziali"]
)
def test_list_shows_metadata_only(owner: User, bank: Credential, request_text: str) -> None:
    turn = _ask(owner, request_text)
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    items = _step(turn).result["items"]
    assert [item["label"] for item in items] == ["Bank"]
    assert set(items[0]) == set(METADATA_FIELDS)
    assert BANK_SECRET not in str(_step(turn).result)


def test_list_without_credentials_is_empty_not_failed(owner: User) -> None:
    turn = _ask(owner, "list my credentials")
    assert turn.status == Turn.Status.COMPLETED and _step(turn).outcome == "empty"


def test_list_for_one_website(owner: User, bank: Credential) -> None:
    plan = {"steps": [{"tool": "credentials_list", "args": {"origin": "https://mail.example"}}]}
    assert _step(_ask(owner, "", plan)).outcome == "empty"
    plan = {"steps": [{"tool": "credentials_list", "args": {"origin": f"{BANK_ORIGIN}/x"}}]}
    assert _step(_ask(owner, "", plan)).outcome == "success"


@pytest.mark.parametrize("request_text", ["save a password for https://bank.example/login",
                                          "salva la password per https://bank.example"])  # fmt: skip
def test_save_answers_with_a_link_to_the_vaults_form(owner: User, request_text: str) -> None:
    turn = _ask(owner, request_text)
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    value = _step(turn).result["value"]
    assert value["origin"] == BANK_ORIGIN
    assert value["form_url"].startswith("/vault/new/?origin=https%3A%2F%2Fbank.example")
    assert value["form_url"] in turn.answer
    assert not Credential.objects.exists()  # nothing is stored until the owner submits the form


def test_a_plan_cannot_carry_a_secret_to_save(owner: User) -> None:
    plan = {"steps": [{"tool": "credentials_save", "args": {"origin": BANK_ORIGIN, "password": BANK_SECRET}}]}
    turn = _ask(owner, "", plan)
    assert turn.status == Turn.Status.FAILED
    assert not Credential.objects.exists()
    assert not StepRecord.objects.filter(turn=turn).exists()


def test_save_refuses_a_bad_website(owner: User) -> None:
    turn = _ask(owner, "", {"steps": [{"tool": "credentials_save", "args": {"origin": "ftp://bank.example"}}]})
    assert _step(turn).outcome == "failed" and _step(turn).error_code == "credential_invalid"


def test_delete_asks_first_then_deletes_after_confirmation(owner: User, bank: Credential) -> None:
    turn = _ask(owner, "delete the credential Bank")
    assert turn.status == Turn.Status.AWAITING_CONFIRMATION, turn.answer
    consent = ConsentRequest.objects.get(turn=turn)
    assert consent.proposal["destination"] == "Bank" and "cannot be undone" in consent.proposal["consequences"]
    assert Credential.objects.exists()

    resumed = _confirm(owner, consent)
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert not Credential.objects.exists()
    assert _step(resumed).result["value"] == {"deleted": "Bank", "origins": [BANK_ORIGIN]}


def test_delete_of_another_owners_credential_finds_nothing(owner: User, second_user: User, bank: Credential) -> None:
    plan = {"steps": [{"tool": "credentials_delete", "args": {"credential": str(bank.pk)}}]}
    turn = _ask(second_user, "", plan)
    consent = ConsentRequest.objects.get(turn=turn)
    resumed = _confirm(second_user, consent)
    assert _step(resumed).error_code == "credential_not_found"
    assert Credential.objects.filter(pk=bank.pk).exists()


def test_changed_vault_key_fails_the_step_clearly(owner: User, bank: Credential, settings: Any) -> None:
    settings.METNOS_VAULT_KEY = OTHER_KEY
    step = _step(_ask(owner, "list my credentials"))
    assert (step.outcome, step.error_class, step.error_code) == ("failed", "permanent", "vault_key_mismatch")


def test_delete_by_website_when_one_credential_uses_it(owner: User, bank: Credential) -> None:
    turn = _ask(owner, "delete my password for https://bank.example/login")
    resumed = _confirm(owner, ConsentRequest.objects.get(turn=turn))
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert not Credential.objects.exists()
