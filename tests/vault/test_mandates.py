"""The mandate: only the credential and origins a running turn was granted resolve, and they are withheld."""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import NoMandate, build_catalog
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from apps.vault.errors import CredentialNotAuthorised
from apps.vault.mandates import GrantRefusal, VaultMandate, mandate_resolve, vault_mandate_for_plan
from apps.vault.models import Credential
from apps.vault.services import credential_save
from apps.vault.totp import totp_code
from tests.vault.conftest import BANK_ORIGIN, BANK_SECRET, SignInProbe, probe_plan

pytestmark = pytest.mark.django_db

CATALOG = build_catalog({"sign_in_probe": SignInProbe()})


def _turn(owner: User, plan: dict[str, Any], *, running: bool = True) -> Turn:
    turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
    if running:
        turn.status = Turn.Status.RUNNING
        turn.save(update_fields=["status"])
    return turn


def _mandate(owner: User, plan: dict[str, Any], *, running: bool = True) -> VaultMandate:
    turn = _turn(owner, plan, running=running)
    return vault_mandate_for_plan(owner=owner, turn_id=turn.pk, plan=plan, catalog=CATALOG)


def test_plan_naming_label_and_origin_grants_exactly_that(owner: User, bank: Credential) -> None:
    mandate = _mandate(owner, probe_plan("https://bank.example/login?next=/bills"))
    assert [(grant.credential_id, grant.origins) for grant in mandate.grants] == [(bank.pk, frozenset({BANK_ORIGIN}))]
    assert mandate.authorised_origins == frozenset({BANK_ORIGIN})
    assert mandate.allows("credentials.use") and not mandate.allows("files.write")
    assert mandate.secrets() == ()  # nothing is read before execution

    resolved = mandate.resolve("Bank", "https://BANK.example:443/account")
    assert (resolved.username, resolved.secret, resolved.origin) == ("ada@example.org", BANK_SECRET, BANK_ORIGIN)
    assert mandate.secrets() == (BANK_SECRET,)
    assert BANK_SECRET not in repr(resolved) and BANK_SECRET not in repr(mandate)
    bank.refresh_from_db()
    assert bank.last_used_at is not None


def test_plan_naming_only_the_website_grants_the_one_credential_for_it(owner: User, bank: Credential) -> None:
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN, credential=None))
    assert [grant.credential_id for grant in mandate.grants] == [bank.pk]
    assert mandate.resolve(bank.pk, BANK_ORIGIN).secret == BANK_SECRET


@pytest.mark.parametrize(
    ("plan", "code"),
    [
        (probe_plan("https://elsewhere.example"), "origin_not_allowed"),
        (probe_plan(BANK_ORIGIN, credential="Unknown"), "credential_not_found"),
        (probe_plan("{{step1.url}}"), "no_origin"),
        (probe_plan(BANK_ORIGIN, credential="{{step1.label}}"), "credential_not_literal"),
        (probe_plan("ftp://bank.example"), "invalid_origin"),
        (probe_plan("https://elsewhere.example", credential=None), "no_credential_for_origin"),
    ],
)
def test_access_that_is_not_unambiguous_is_not_granted(
    owner: User, bank: Credential, plan: dict[str, Any], code: str
) -> None:
    mandate = _mandate(owner, plan)
    assert mandate.grants == ()
    assert mandate.refusals == (GrantRefusal(1, code),)
    assert not mandate.allows("credentials.use")


def test_two_credentials_for_one_website_need_a_name(owner: User, bank: Credential) -> None:
    credential_save(owner=owner, label="Bank (joint)", origins=[BANK_ORIGIN], username="joint", secret="joint-pw")
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN, credential=None))
    assert mandate.refusals == (GrantRefusal(1, "ambiguous_credential"),)


def test_steps_of_executors_without_credentials_authorise_nothing(owner: User, bank: Credential) -> None:
    plan = {"steps": [{"tool": "credentials_list", "args": {"origin": BANK_ORIGIN}}]}
    from apps.vault.executors import vault_executors

    catalog = build_catalog({executor.manifest.name: executor for executor in vault_executors()})
    turn = _turn(owner, plan)
    mandate = vault_mandate_for_plan(owner=owner, turn_id=turn.pk, plan=plan, catalog=catalog)
    assert mandate.grants == () and mandate.refusals == ()


@pytest.mark.parametrize(
    ("credential", "origin"),
    [
        ("Bank", "http://bank.example"),  # another scheme
        ("Bank", "https://bank.example:8443"),  # another port
        ("Bank", "https://www.bank.example"),  # another host
        ("Bank", "https://bank.example.evil.example"),
        ("Bank", "not a url"),
        ("Nothing", BANK_ORIGIN),
    ],
)
def test_resolve_refuses_anything_but_a_granted_origin(
    owner: User, bank: Credential, credential: str, origin: str
) -> None:
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN))
    with pytest.raises(CredentialNotAuthorised) as refused:
        mandate.resolve(credential, origin)
    assert BANK_SECRET not in str(refused.value)
    assert mandate.secrets() == ()


def test_credential_stored_but_not_granted_is_refused(owner: User, bank: Credential) -> None:
    mail = credential_save(owner=owner, label="Mail", origins=["https://mail.example"], username="a", secret="mail-pw")
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN))
    with pytest.raises(CredentialNotAuthorised):
        mandate.resolve(mail.pk, "https://mail.example")


def test_another_owners_credential_is_refused_like_a_missing_one(
    owner: User, second_user: User, bank: Credential
) -> None:
    theirs = credential_save(owner=second_user, label="Bank", origins=[BANK_ORIGIN], username="b", secret="theirs")
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN))
    with pytest.raises(CredentialNotAuthorised) as foreign:
        mandate.resolve(theirs.pk, BANK_ORIGIN)
    with pytest.raises(CredentialNotAuthorised) as missing:
        mandate.resolve(theirs.pk + 1000, BANK_ORIGIN)
    assert str(foreign.value) == str(missing.value)


def test_mandate_resolves_nothing_once_its_turn_is_not_running(owner: User, bank: Credential) -> None:
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN), running=False)
    with pytest.raises(CredentialNotAuthorised):
        mandate.resolve("Bank", BANK_ORIGIN)


def test_origins_removed_from_the_credential_since_planning_are_refused(owner: User, bank: Credential) -> None:
    mandate = _mandate(owner, probe_plan(BANK_ORIGIN))
    Credential.objects.filter(pk=bank.pk).update(origins=["https://bank-new.example"])
    with pytest.raises(CredentialNotAuthorised):
        mandate.resolve("Bank", BANK_ORIGIN)


def test_only_a_vault_mandate_resolves(owner: User, bank: Credential) -> None:
    with pytest.raises(CredentialNotAuthorised):
        mandate_resolve(NoMandate(), credential="Bank", origin=BANK_ORIGIN)


def test_one_time_codes_only_from_an_authorised_seed(owner: User, bank: Credential) -> None:
    seed = "JBSWY3DPEHPK3PXP"
    credential_save(
        owner=owner,
        label="Energy",
        origins=["https://energy.example"],
        username="ada",
        secret="energy-pw",
        totp_seed=seed,
        authorise_code_automation=True,
    )
    plan = {"steps": [*probe_plan(BANK_ORIGIN)["steps"], *probe_plan("https://energy.example", "Energy")["steps"]]}
    mandate = _mandate(owner, plan)
    with pytest.raises(CredentialNotAuthorised):
        mandate.resolve("Bank", BANK_ORIGIN).one_time_code()
    energy = mandate.resolve("Energy", "https://energy.example")
    code = energy.one_time_code()
    assert code == totp_code(seed) and len(code) == 6
    assert {seed, code, "energy-pw"} <= set(mandate.secrets())


def test_turn_runs_a_credential_step_only_with_its_mandate(owner: User, bank: Credential) -> None:
    from apps.runtime.executor import NoMandate

    probe = SignInProbe()
    catalog = build_catalog({"sign_in_probe": probe})
    plan = probe_plan(f"{BANK_ORIGIN}/login")

    without = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
    refused = turn_conduct(turn=without, catalog=catalog, mandate=NoMandate())
    assert refused.status == Turn.Status.FAILED and probe.resolved == []

    elsewhere = probe_plan("https://elsewhere.example/login")
    not_granted = turn_conduct(turn=turn_submit(owner=owner, text="", plan=elsewhere, enqueue=False), catalog=catalog)
    assert not_granted.status == Turn.Status.FAILED and probe.resolved == []

    # The conductor builds the vault's mandate from the plan by itself.
    turn = turn_conduct(turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False), catalog=catalog)
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert [resolved.secret for resolved in probe.resolved] == [BANK_SECRET]
    record = StepRecord.objects.get(turn=turn, index=1)
    assert BANK_SECRET not in record.summary and "[redacted]" in record.summary
