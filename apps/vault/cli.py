"""``metnos vault add|list|delete|check|rotate-key``: the vault for operators and scripts.

A secret (or the previous vault key) is read from standard input — a hidden
prompt on a terminal, the first line of a pipe — and never from an argument,
where it would stay in shell histories and process listings. Output is JSON,
metadata only.

Exit codes: 0 done, 2 bad usage or invalid input, 3 no such user or
credential, 5 the configured vault key cannot read the store.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import CommandError

from apps.core.cli import register_subcommand
from apps.vault.errors import CredentialInvalid, CredentialNotFound, VaultError, VaultKeyMismatch, VaultUnreadable

EXIT_INVALID = 2
EXIT_NOT_FOUND = 3
EXIT_KEY_MISMATCH = 5


class _RefuseSecretArgument(argparse.Action):
    """``--password VALUE`` and the like: refused without repeating the value."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> NoReturn:
        parser.exit(
            EXIT_INVALID,
            f"{parser.prog}: error: a secret is never taken from an argument; "
            "pipe it on standard input or type it at the prompt\n",
        )


def _refuse_secret_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--password", "--secret", "--totp-seed", action=_RefuseSecretArgument, help=argparse.SUPPRESS)
    # Stray words could be a secret typed on the command line: refuse them unseen.
    parser.add_argument("unexpected", nargs="*", help=argparse.SUPPRESS)


def _configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="vault_action", required=True, parser_class=argparse.ArgumentParser)
    add = actions.add_parser("add", help="Add a credential; the secret is read from standard input.")
    add.add_argument("--user", required=True)
    add.add_argument("--origin", action="append", required=True, help="A website it may be used on (repeatable).")
    add.add_argument("--username", required=True)
    add.add_argument("--label", help="A name for it (default: the first website's host).")
    add.add_argument(
        "--with-totp-seed",
        action="store_true",
        help="Also read a one-time code seed (second line) and authorise generating codes from it.",
    )
    _refuse_secret_arguments(add)
    listing = actions.add_parser("list", help="List a user's credentials (metadata only).")
    listing.add_argument("--user", required=True)
    delete = actions.add_parser("delete", help="Delete a user's credential by name or id.")
    delete.add_argument("--user", required=True)
    delete.add_argument("--credential", required=True)
    actions.add_parser("check", help="Check that the configured vault key can read the store.")
    rotate = actions.add_parser(
        "rotate-key", help="Re-encrypt every value under the configured key; the previous key is read from stdin."
    )
    rotate.add_argument("--previous-key-file", type=Path, help="Read the previous key from this file instead.")
    _refuse_secret_arguments(rotate)


def _user(username: str) -> Any:
    from apps.accounts.models import User

    try:
        return User.objects.get(username=username, is_active=True)
    except User.DoesNotExist:
        raise CommandError(f"no active user {username!r}", returncode=EXIT_NOT_FOUND) from None


def _read_hidden_lines(prompts: Sequence[str]) -> list[str]:
    """One value per prompt: hidden prompts on a terminal, else successive lines of standard input."""
    if sys.stdin.isatty():
        return [getpass.getpass(prompt) for prompt in prompts]
    return [sys.stdin.readline().rstrip("\r\n") for _ in prompts]


def _fail(error: VaultError) -> NoReturn:
    if isinstance(error, VaultKeyMismatch | VaultUnreadable):
        raise CommandError(error.message, returncode=EXIT_KEY_MISMATCH)
    if isinstance(error, CredentialNotFound):
        raise CommandError(error.message, returncode=EXIT_NOT_FOUND)
    field = f" ({error.field})" if isinstance(error, CredentialInvalid) else ""
    raise CommandError(f"{error.message}{field}", returncode=EXIT_INVALID)


def _add(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.vault.selectors import credential_metadata
    from apps.vault.services import credential_save

    owner = _user(options.user)
    prompts = ["Password: ", "One-time code seed: "] if options.with_totp_seed else ["Password: "]
    values = _read_hidden_lines(prompts)
    label = options.label or options.origin[0].split("://", 1)[-1].split("/", 1)[0]
    credential = credential_save(
        owner=owner,
        label=label,
        origins=options.origin,
        username=options.username,
        secret=values[0],
        totp_seed=values[1] if options.with_totp_seed else None,
        authorise_code_automation=options.with_totp_seed,
    )
    write(json.dumps({"added": credential_metadata(credential)}))
    return 0


def _list(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.vault.selectors import credential_list, credential_metadata

    for credential in credential_list(owner=_user(options.user)):
        write(json.dumps(credential_metadata(credential)))
    return 0


def _delete(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.vault.selectors import credential_find
    from apps.vault.services import credential_delete

    credential = credential_find(owner=_user(options.user), reference=options.credential)
    deleted = {"id": credential.pk, "label": credential.label}
    credential_delete(credential=credential)
    write(json.dumps({"deleted": deleted}))
    return 0


def _check(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.vault.store import vault_key_check, vault_key_fingerprint

    vault_key_check()
    write(json.dumps({"vault": "readable", "fingerprint": vault_key_fingerprint()}))
    return 0


def _rotate(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.vault.store import vault_key_rotate

    if options.previous_key_file is not None:
        try:
            previous = options.previous_key_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read the previous key file ({type(error).__name__})", returncode=2) from None
    else:
        previous = _read_hidden_lines(["Previous vault key: "])[0]
    rotation = vault_key_rotate(previous_key=previous)
    write(json.dumps({"reencrypted_credentials": rotation.credentials, "fingerprint": rotation.fingerprint}))
    return 0


_ACTIONS: dict[str, Callable[[argparse.Namespace, Callable[[str], Any]], int]] = {
    "add": _add,
    "list": _list,
    "delete": _delete,
    "check": _check,
    "rotate-key": _rotate,
}


@register_subcommand(
    "vault", help="Add, list and delete credentials; check or rotate the vault key.", configure=_configure
)
def vault(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    if getattr(options, "unexpected", None):
        raise CommandError("unexpected arguments (not shown; a secret is read from standard input)", returncode=2)
    try:
        return _ACTIONS[options.vault_action](options, write)
    except VaultError as error:
        _fail(error)
