"""The vault's portal forms. Secret inputs are never rendered back into a page."""

from __future__ import annotations

from django import forms

from apps.vault.limits import MAX_LABEL_CHARS, MAX_ORIGIN_CHARS, MAX_ORIGINS, MAX_SECRET_CHARS, MAX_TOTP_SEED_CHARS


class CredentialForm(forms.Form):
    label = forms.CharField(max_length=MAX_LABEL_CHARS, label="Name")
    origins = forms.CharField(
        max_length=MAX_ORIGINS * (MAX_ORIGIN_CHARS + 1),
        label="Websites (one per line)",
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    username = forms.CharField(max_length=MAX_LABEL_CHARS * 4, required=False, label="User name")
    secret = forms.CharField(
        max_length=MAX_SECRET_CHARS,
        strip=False,
        label="Password",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )
    totp_seed = forms.CharField(
        max_length=MAX_TOTP_SEED_CHARS,
        required=False,
        strip=False,
        label="One-time code seed (optional)",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )
    authorise_code_automation = forms.BooleanField(
        required=False, label="I authorise Metnos to generate sign-in codes from this seed"
    )

    def origin_list(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["origins"].splitlines() if line.strip()]


class RenameForm(forms.Form):
    label = forms.CharField(max_length=MAX_LABEL_CHARS, label="New name")
