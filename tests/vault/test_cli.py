"""``metnos vault``: secrets only from standard input; metadata-only output; clear exit codes.

The last test changes the instance data directory for a real process: the
new directory brings a newly generated vault key, and the vault refuses
(exit 5) instead of showing an empty vault or starting a second store.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.accounts.models import User
from apps.vault.cli import EXIT_INVALID, EXIT_KEY_MISMATCH, EXIT_NOT_FOUND
from apps.vault.crypto import unseal
from apps.vault.models import Credential
from tests.conftest import REPO_ROOT, _database_url_for_children
from tests.vault.conftest import BANK_ORIGIN, BANK_SECRET, OTHER_KEY

pytestmark = pytest.mark.django_db


def _metnos(*args: str, stdin: str = "", monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    call_command("metnos", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def test_add_reads_the_secret_from_standard_input(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _metnos(
        "vault", "add", "--user", "owner", "--origin", f"{BANK_ORIGIN}/login", "--username", "ada",
        stdin=BANK_SECRET + "\n", monkeypatch=monkeypatch,
    )  # fmt: skip
    assert lines[0]["added"]["label"] == "bank.example" and lines[0]["added"]["origins"] == [BANK_ORIGIN]
    assert BANK_SECRET not in json.dumps(lines)
    assert unseal(Credential.objects.get(owner=owner).secret) == BANK_SECRET


def test_add_with_an_authorised_seed(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    _metnos(
        "vault", "add", "--user", "owner", "--origin", BANK_ORIGIN, "--username", "ada", "--label", "Bank",
        "--with-totp-seed", stdin=f"{BANK_SECRET}\nJBSWY3DPEHPK3PXP\n", monkeypatch=monkeypatch,
    )  # fmt: skip
    assert Credential.objects.get().has_totp


@pytest.mark.parametrize("extra", [["--password", BANK_SECRET], [f"--secret={BANK_SECRET}"], [BANK_SECRET]])
def test_a_secret_given_as_an_argument_is_refused_unseen(
    owner: User, extra: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["vault", "add", "--user", "owner", "--origin", BANK_ORIGIN, "--username", "ada", *extra]
    with pytest.raises((SystemExit, CommandError)) as refused:
        _metnos(*args, stdin="", monkeypatch=monkeypatch)
    error = refused.value
    code = error.code if isinstance(error, SystemExit) else getattr(error, "returncode", None)
    assert code == EXIT_INVALID
    captured = capsys.readouterr()
    assert BANK_SECRET not in captured.out + captured.err + str(refused.value)
    assert not Credential.objects.exists()


def test_list_and_delete(owner: User, bank: Credential, monkeypatch: pytest.MonkeyPatch) -> None:
    listed = _metnos("vault", "list", "--user", "owner", monkeypatch=monkeypatch)
    assert [(item["label"], item["username"]) for item in listed] == [("Bank", "ada@example.org")]
    assert BANK_SECRET not in json.dumps(listed)
    assert _metnos("vault", "delete", "--user", "owner", "--credential", "bank", monkeypatch=monkeypatch) == [
        {"deleted": {"id": bank.pk, "label": "Bank"}}
    ]
    assert not Credential.objects.exists()


def test_exit_codes(owner: User, bank: Credential, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    with pytest.raises(CommandError) as missing_user:
        _metnos("vault", "list", "--user", "nobody", monkeypatch=monkeypatch)
    assert missing_user.value.returncode == EXIT_NOT_FOUND
    with pytest.raises(CommandError) as missing:
        _metnos("vault", "delete", "--user", "owner", "--credential", "Nothing", monkeypatch=monkeypatch)
    assert missing.value.returncode == EXIT_NOT_FOUND
    with pytest.raises(CommandError) as empty:
        _metnos("vault", "add", "--user", "owner", "--origin", BANK_ORIGIN, "--username", "a", "--label", "X",
                stdin="\n", monkeypatch=monkeypatch)  # fmt: skip
    assert empty.value.returncode == EXIT_INVALID and "(secret)" in str(empty.value)
    settings.METNOS_VAULT_KEY = OTHER_KEY
    with pytest.raises(CommandError) as mismatch:
        _metnos("vault", "check", monkeypatch=monkeypatch)
    assert mismatch.value.returncode == EXIT_KEY_MISMATCH


def test_rotate_key_reads_the_previous_key_from_standard_input(
    owner: User, bank: Credential, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    previous = settings.METNOS_VAULT_KEY
    settings.METNOS_VAULT_KEY = OTHER_KEY
    rotated = _metnos("vault", "rotate-key", stdin=previous + "\n", monkeypatch=monkeypatch)
    assert rotated[0]["reencrypted_credentials"] == 1 and previous not in json.dumps(rotated)
    assert _metnos("vault", "check", monkeypatch=monkeypatch)[0]["vault"] == "readable"
    assert unseal(Credential.objects.get().secret) == BANK_SECRET


def _vault_list_in_a_process(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "manage.py", "metnos", "vault", "list", "--user", "owner"]
    return subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.django_db(transaction=True)
def test_a_new_data_directory_does_not_select_a_new_store(owner: User, tmp_path: Path) -> None:
    from apps.vault.services import credential_save

    credential_save(owner=owner, label="Bank", origins=[BANK_ORIGIN], username="ada", secret=BANK_SECRET)
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="metnos_site.settings", DATABASE_URL=_database_url_for_children())
    env.pop("DEBUG", None)

    same_key = _vault_list_in_a_process(env)
    assert same_key.returncode == 0, same_key.stderr
    assert json.loads(same_key.stdout.splitlines()[0])["label"] == "Bank"

    # Another data directory: its own generated keys, the same database.
    moved = dict(env, METNOS_DATA_DIR=str(tmp_path / "new-data"))
    moved.pop("METNOS_VAULT_KEY")
    subprocess.run([sys.executable, "-m", "metnos_site.bootstrap"], cwd=REPO_ROOT, env=moved, check=True, timeout=60)
    assert (tmp_path / "new-data" / "secrets" / "vault_key").exists()
    refused = _vault_list_in_a_process(moved)
    assert refused.returncode == EXIT_KEY_MISMATCH, refused.stderr
    assert "not the key this vault was encrypted with" in refused.stderr
    assert refused.stdout == "" and BANK_SECRET not in refused.stderr
    assert Credential.objects.count() == 1
