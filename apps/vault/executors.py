"""Executors of the vault: ``credentials_list``, ``credentials_save`` and ``credentials_delete``.

None of them ever reads a value. ``credentials_save`` takes no secret at
all: a plan is text that passes through planners, caches, traces and
models, so a password in it would be a password in all of those. The
executor checks the website and answers with a link to the vault's own form,
prefilled with the website, name and user name; the owner types the
password there, over the portal's authenticated, CSRF-protected page, and
only the vault stores it. ``credentials_delete`` changes state, so it asks
for confirmation first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlencode

from django.urls import reverse

from apps.runtime.executor import ExecutionContext, StepError, StepResult
from apps.runtime.manifests import ArgSpec, ConsentSpec, Manifest, RequestForm, RequestFrame, ResultShape
from apps.vault.errors import CredentialInvalid, CredentialNotFound, VaultError
from apps.vault.limits import MAX_LABEL_CHARS, MAX_ORIGIN_CHARS, MAX_USERNAME_CHARS
from apps.vault.origins import normalise_origin
from apps.vault.selectors import credential_find, credential_list, credential_metadata, credentials_for_origin
from apps.vault.services import credential_delete

METADATA_FIELDS: Final = ("id", "label", "username", "origins", "has_totp", "created_at", "last_used_at")


def _failed(error: VaultError) -> StepResult:
    return StepResult(outcome="failed", error=StepError("permanent", error.code, error.message))


def _text(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    return value.strip() if isinstance(value, str) else ""


CREDENTIALS_LIST_MANIFEST: Final = Manifest(
    name="credentials_list",
    purpose="List your saved credentials: names, user names and websites, never passwords.",
    args={
        "origin": ArgSpec(type="string", max_length=MAX_ORIGIN_CHARS, description="Only credentials for this website."),
    },
    result=ResultShape(kind="collection", fields=METADATA_FIELDS),
    request_frames=(
        RequestFrame(
            actions=frozenset({"list", "obtain", "read"}),
            subject="credential",
            optional=("origin",),
            plan=({"tool": "credentials_list", "args": {"origin": "{origin}"}},),
        ),
    ),
    request_forms=(
        RequestForm(
            language="en",
            template="(list|show) [me] [all] my (credentials|passwords|saved passwords|logins)",
            slots={},
            plan=({"tool": "credentials_list", "args": {}},),
        ),
        RequestForm(
            language="it",
            template="(elenca|mostra|mostrami) [tutte] le mie (credenziali|password)",
            slots={},
            plan=({"tool": "credentials_list", "args": {}},),
        ),
    ),
)


class CredentialsListExecutor:
    manifest: Manifest = CREDENTIALS_LIST_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        """Metadata of the owner's credentials (optionally for one website); never a value."""
        origin = _text(args, "origin")
        try:
            rows = (
                credentials_for_origin(owner=context.owner, origin=origin)
                if origin
                else list(credential_list(owner=context.owner))
            )
        except VaultError as error:
            return _failed(error)
        items = tuple(credential_metadata(row) for row in rows)
        if not items:
            where = f" for {origin}" if origin else ""
            return StepResult(outcome="empty", summary=f"You have no saved credentials{where}.")
        count = len(items)
        noun = "credential" if count == 1 else "credentials"
        return StepResult(outcome="success", items=items, summary=f"You have {count} saved {noun}.")


CREDENTIALS_SAVE_MANIFEST: Final = Manifest(
    name="credentials_save",
    purpose="Prepare a new credential for a website; you type the password in the vault's own form.",
    args={
        "origin": ArgSpec(
            type="string",
            required=True,
            max_length=MAX_ORIGIN_CHARS,
            description="The website, e.g. https://example.org.",
        ),
        "label": ArgSpec(type="string", max_length=MAX_LABEL_CHARS, description="A name for the credential."),
        "username": ArgSpec(type="string", max_length=MAX_USERNAME_CHARS, description="The user name on the website."),
    },
    result=ResultShape(kind="value", fields=("form_url", "origin", "label")),
    request_frames=(
        RequestFrame(
            actions=frozenset({"save_credential"}),
            subject="credential",
            needs=("origin",),
            optional=("label", "username"),
            plan=(
                {
                    "tool": "credentials_save",
                    "args": {"origin": "{origin}", "label": "{label}", "username": "{username}"},
                },
            ),
        ),
    ),
    request_forms=(
        RequestForm(
            language="en",
            template="(save|store|add) [a|my|the] (password|credential|login) (for|on) {site}",
            slots={"site": "text"},
            plan=({"tool": "credentials_save", "args": {"origin": "{site}"}},),
        ),
        RequestForm(
            language="it",
            template="(salva|memorizza|aggiungi) [la|una|la mia] (password|credenziale) (per|di|su) {site}",
            slots={"site": "text"},
            plan=({"tool": "credentials_save", "args": {"origin": "{site}"}},),
        ),
    ),
)


class CredentialsSaveExecutor:
    manifest: Manifest = CREDENTIALS_SAVE_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        """A link to the vault's form, prefilled; nothing is stored until the owner submits it there."""
        try:
            origin = normalise_origin(_text(args, "origin"), field="origin")
        except CredentialInvalid as error:
            return _failed(error)
        label = " ".join(_text(args, "label").split())[:MAX_LABEL_CHARS] or origin.split("://", 1)[1]
        query = {"origin": origin, "label": label}
        username = _text(args, "username")
        if username:
            query["username"] = username[:MAX_USERNAME_CHARS]
        form_url = f"{reverse('vault:new')}?{urlencode(query)}"
        return StepResult(
            outcome="success",
            value={"form_url": form_url, "origin": origin, "label": label},
            notices=("Metnos never takes a password from a request: type it only in the vault's form.",),
            summary=f"To save the credential for {origin}, open {form_url} and enter the password there.",
        )


CREDENTIALS_DELETE_MANIFEST: Final = Manifest(
    name="credentials_delete",
    purpose="Delete one of your saved credentials. This cannot be undone.",
    args={
        "credential": ArgSpec(
            type="string",
            required=True,
            max_length=MAX_LABEL_CHARS,
            sensitive="authorisation",
            accepts_step_values=False,
            description="The credential's name or id.",
        ),
    },
    result=ResultShape(kind="value", fields=("deleted", "origins")),
    consent=ConsentSpec(mode="confirm", shows=("action", "purpose", "destination", "consequences")),
    request_frames=(
        RequestFrame(
            actions=frozenset({"delete"}),
            subject="credential",
            needs=("credential",),
            plan=({"tool": "credentials_delete", "args": {"credential": "{credential}"}},),
        ),
        # "delete my password for https://bank.example": the credential of that website.
        RequestFrame(
            actions=frozenset({"delete"}),
            subject="credential",
            needs=("origin",),
            plan=({"tool": "credentials_delete", "args": {"credential": "{origin}"}},),
        ),
    ),
    request_forms=(
        RequestForm(
            language="en",
            template="(delete|remove|forget) [the|my] (credential|password|login) [for] {credential}",
            slots={"credential": "text"},
            plan=({"tool": "credentials_delete", "args": {"credential": "{credential}"}},),
        ),
        RequestForm(
            language="it",
            template="(elimina|cancella|rimuovi) [la] (credenziale|password) [di|per] {credential}",
            slots={"credential": "text"},
            plan=({"tool": "credentials_delete", "args": {"credential": "{credential}"}},),
        ),
    ),
)


class CredentialsDeleteExecutor:
    manifest: Manifest = CREDENTIALS_DELETE_MANIFEST

    def consent_proposal(self, args: Mapping[str, Any]) -> dict[str, str]:
        """What the confirmation shows: which credential goes, and that it cannot be undone."""
        return {
            "action": "Delete a saved credential",
            "purpose": "You asked to delete this credential from the vault.",
            "destination": _text(args, "credential") or "—",
            "consequences": "Metnos can no longer sign in with it; it cannot be undone.",
        }

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        """Delete the named credential of the owner (after the owner confirmed)."""
        try:
            credential = credential_find(owner=context.owner, reference=_text(args, "credential"))
            label, origins, credential_id = credential.label, list(credential.origins), credential.pk
            credential_delete(credential=credential)
        except (CredentialNotFound, VaultError) as error:
            return _failed(error)
        return StepResult(
            outcome="success",
            value={"deleted": label, "origins": origins},
            effects=({"kind": "credential_deleted", "credential_id": credential_id},),
            summary=f"Deleted the credential «{label}».",
        )


def vault_executors() -> tuple[CredentialsListExecutor, CredentialsSaveExecutor, CredentialsDeleteExecutor]:
    return CredentialsListExecutor(), CredentialsSaveExecutor(), CredentialsDeleteExecutor()
