"""Portal pages of the vault: list, add (the only place a password is typed), rename, delete."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.models import request_user
from apps.vault.errors import CredentialInvalid, VaultKeyMismatch, VaultUnreadable
from apps.vault.forms import CredentialForm, RenameForm
from apps.vault.limits import MAX_LABEL_CHARS
from apps.vault.selectors import credential_get_for_owner, credential_list
from apps.vault.services import credential_delete, credential_rename, credential_save

_PREFILL = ("origin", "label", "username")


def _unavailable(request: HttpRequest, error: VaultKeyMismatch | VaultUnreadable) -> HttpResponse:
    return render(request, "vault/unavailable.html", {"message": error.message}, status=503)


@login_required
@require_http_methods(["GET"])
def vault_list(request: HttpRequest) -> HttpResponse:
    try:
        credentials = list(credential_list(owner=request_user(request)))
    except (VaultKeyMismatch, VaultUnreadable) as error:
        return _unavailable(request, error)
    return render(request, "vault/list.html", {"credentials": credentials, "rename_form": RenameForm()})


@sensitive_post_parameters("secret", "totp_seed")
@sensitive_variables("form")
@login_required
@require_http_methods(["GET", "POST"])
def vault_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = CredentialForm(request.POST)
        if form.is_valid():
            try:
                credential = credential_save(
                    owner=request_user(request),
                    label=form.cleaned_data["label"],
                    origins=form.origin_list(),
                    username=form.cleaned_data["username"],
                    secret=form.cleaned_data["secret"],
                    totp_seed=form.cleaned_data["totp_seed"] or None,
                    authorise_code_automation=form.cleaned_data["authorise_code_automation"],
                )
            except CredentialInvalid as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            except (VaultKeyMismatch, VaultUnreadable) as error:
                return _unavailable(request, error)
            else:
                messages.success(request, f"Saved the credential «{credential.label}».")
                return redirect("vault:list")
    else:
        # credentials_save links here with the website, name and user name filled in.
        initial = {name: request.GET.get(name, "")[:300] for name in _PREFILL}
        form = CredentialForm(initial={**initial, "origins": initial.pop("origin")})
    return render(request, "vault/new.html", {"form": form})


@login_required
@require_POST
def vault_rename(request: HttpRequest, credential_id: int) -> HttpResponse:
    try:
        credential = credential_get_for_owner(owner=request_user(request), credential_id=credential_id)
        form = RenameForm(request.POST)
        if not form.is_valid():
            messages.error(request, f"A name must have 1 to {MAX_LABEL_CHARS} characters.")
        else:
            credential_rename(credential=credential, label=form.cleaned_data["label"])
            messages.success(request, f"Renamed to «{credential.label}».")
    except CredentialInvalid as error:
        messages.error(request, error.message)
    except (VaultKeyMismatch, VaultUnreadable) as error:
        return _unavailable(request, error)
    return redirect("vault:list")


@login_required
@require_http_methods(["GET", "POST"])
def vault_delete(request: HttpRequest, credential_id: int) -> HttpResponse:
    try:
        credential = credential_get_for_owner(owner=request_user(request), credential_id=credential_id)
        if request.method == "POST":
            label = credential.label
            credential_delete(credential=credential)
            messages.success(request, f"Deleted the credential «{label}».")
            return redirect("vault:list")
    except (VaultKeyMismatch, VaultUnreadable) as error:
        return _unavailable(request, error)
    return render(request, "vault/delete.html", {"credential": credential})
