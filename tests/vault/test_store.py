"""One encrypted store under its own key: never plaintext at rest, never silently replaced, rotatable."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from apps.accounts.models import User
from apps.vault.crypto import Sealed, key_fingerprint, seal, unseal
from apps.vault.errors import CredentialInvalid, VaultKeyMismatch, VaultUnreadable
from apps.vault.models import Credential, VaultKey
from apps.vault.origins import normalise_origin
from apps.vault.selectors import credential_list
from apps.vault.services import credential_save
from apps.vault.store import RotationRefused, vault_key_check, vault_key_rotate
from apps.vault.totp import normalise_totp_seed, totp_code
from tests.vault.conftest import BANK_ORIGIN, BANK_SECRET, OTHER_KEY

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


def _raw_columns(credential: Credential) -> tuple[str, str | None]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT secret, totp_seed FROM vault_credential WHERE id = %s", [credential.pk])
        secret, seed = cursor.fetchone()
    return secret, seed


def test_values_are_encrypted_at_rest_with_the_vault_key_not_the_secret_key(owner: User) -> None:
    credential = credential_save(
        owner=owner,
        label="Energy",
        origins=["https://energy.example"],
        username="ada",
        secret=BANK_SECRET,
        totp_seed="JBSW Y3DP EHPK 3PXP",
        authorise_code_automation=True,
    )
    assert isinstance(credential.secret, Sealed) and isinstance(credential.totp_seed, Sealed)
    secret_column, seed_column = _raw_columns(credential)
    assert BANK_SECRET not in secret_column and seed_column is not None and "JBSW" not in seed_column
    stored = Credential.objects.get(pk=credential.pk)
    assert isinstance(stored.secret, Sealed) and str(stored.secret) == repr(stored.secret) == "<sealed>"
    assert unseal(stored.secret, vault_key=settings.METNOS_VAULT_KEY) == BANK_SECRET
    with pytest.raises(VaultUnreadable):
        unseal(stored.secret, vault_key=settings.SECRET_KEY)
    assert VaultKey.objects.get().fingerprint == key_fingerprint(settings.METNOS_VAULT_KEY)
    assert settings.METNOS_VAULT_KEY not in VaultKey.objects.get().fingerprint


def test_a_different_key_is_refused_rather_than_showing_an_empty_vault(
    owner: User, bank: Credential, settings: Any
) -> None:
    settings.METNOS_VAULT_KEY = OTHER_KEY
    with pytest.raises(VaultKeyMismatch) as refused:
        credential_list(owner=owner)
    assert "rotate-key" in str(refused.value)
    with pytest.raises(VaultKeyMismatch):
        credential_save(owner=owner, label="New", origins=["https://new.example"], username="", secret="x")
    assert Credential.objects.count() == 1 and VaultKey.objects.count() == 1


def test_a_store_without_a_fingerprint_is_recognised_by_its_values(
    owner: User, bank: Credential, settings: Any
) -> None:
    VaultKey.objects.all().delete()
    settings.METNOS_VAULT_KEY = OTHER_KEY
    with pytest.raises(VaultKeyMismatch):
        vault_key_check()


def test_rotation_re_encrypts_every_value_under_the_new_key(owner: User, bank: Credential, settings: Any) -> None:
    old_key = settings.METNOS_VAULT_KEY
    old_column = _raw_columns(bank)[0]
    settings.METNOS_VAULT_KEY = OTHER_KEY

    with pytest.raises(VaultKeyMismatch):
        vault_key_rotate(previous_key="not-the-previous-key-" + "x" * 20)
    rotation = vault_key_rotate(previous_key=old_key)
    assert rotation.credentials == 1 and rotation.fingerprint == key_fingerprint(OTHER_KEY)

    vault_key_check()
    stored = Credential.objects.get(pk=bank.pk)
    assert _raw_columns(bank)[0] != old_column
    assert unseal(stored.secret) == BANK_SECRET
    with pytest.raises(VaultUnreadable):
        unseal(stored.secret, vault_key=old_key)
    assert VaultKey.objects.get().rotated_at is not None
    # Running it again changes nothing.
    assert vault_key_rotate(previous_key=old_key).credentials == 1
    assert unseal(Credential.objects.get(pk=bank.pk).secret) == BANK_SECRET


def test_rotation_needs_a_previous_key(settings: Any) -> None:
    with pytest.raises(RotationRefused):
        vault_key_rotate(previous_key="  ")


def test_only_the_mandate_and_rotation_unseal_values() -> None:
    """``resolve`` is the only way to read a value: no other module calls ``unseal``."""
    callers = set()
    for path in (REPO / "apps").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in {"unseal", "reseal"}:
                    callers.add(str(path.relative_to(REPO)))
    assert callers == {"apps/vault/mandates.py", "apps/vault/store.py"}


@pytest.mark.parametrize(
    ("given", "origin"),
    [
        ("https://Bank.Example/login?next=/", "https://bank.example"),
        ("https://bank.example:443", "https://bank.example"),
        ("http://bank.example:80/", "http://bank.example"),
        ("https://bank.example:8443/x", "https://bank.example:8443"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),
    ],
)
def test_origins_are_scheme_host_and_port(given: str, origin: str) -> None:
    assert normalise_origin(given) == origin


@pytest.mark.parametrize(
    "given",
    ["", "bank.example", "ftp://bank.example", "https://user:pw@bank.example", "https://", "https://a b.example"],
)
def test_bad_origins_are_refused_with_a_typed_error(given: str) -> None:
    with pytest.raises(CredentialInvalid) as refused:
        normalise_origin(given)
    assert refused.value.field == "origins"
    if "pw" in given:
        assert "pw@" not in str(refused.value)


def test_totp_matches_rfc_6238() -> None:
    # RFC 6238 appendix B, SHA-1 seed "12345678901234567890", 6 digits.
    seed = normalise_totp_seed("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    assert totp_code(seed, at=59) == "287082"
    assert totp_code(seed, at=1111111109) == "081804"
    with pytest.raises(CredentialInvalid):
        normalise_totp_seed("not base32 !")


def test_a_seed_is_kept_only_with_explicit_authorisation(owner: User) -> None:
    with pytest.raises(CredentialInvalid) as refused:
        credential_save(
            owner=owner, label="E", origins=[BANK_ORIGIN], username="", secret="pw", totp_seed="JBSWY3DPEHPK3PXP"
        )
    assert refused.value.field == "authorise_code_automation"
    assert not Credential.objects.exists()


def test_sealing_twice_gives_different_tokens() -> None:
    assert seal("same") != seal("same")
