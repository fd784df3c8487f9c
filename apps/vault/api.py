"""REST endpoints of the vault: add, list, read, rename and delete credentials (metadata only).

``POST /api/v1/credentials/`` takes the secret (write-only) straight from the
owner's own client; no answer ever contains a value, not even its length.
A changed vault key answers 503 ``vault_key_mismatch`` instead of an empty
or unreadable vault.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.accounts.models import request_user
from apps.core.api import OwnedCrudViewSet
from apps.vault.errors import CredentialInvalid, VaultError, VaultKeyMismatch, VaultUnreadable
from apps.vault.limits import MAX_LABEL_CHARS, MAX_ORIGIN_CHARS, MAX_ORIGINS, MAX_SECRET_CHARS, MAX_TOTP_SEED_CHARS
from apps.vault.models import Credential
from apps.vault.selectors import credential_list
from apps.vault.services import credential_delete, credential_rename, credential_save


class CredentialSerializer(serializers.ModelSerializer[Credential]):
    has_totp = serializers.BooleanField(read_only=True)

    class Meta:
        model = Credential
        fields = ["id", "label", "username", "origins", "has_totp", "created_at", "updated_at", "last_used_at"]
        read_only_fields = ["id", "username", "origins", "has_totp", "created_at", "updated_at", "last_used_at"]


class CredentialCreateSerializer(serializers.Serializer[Any]):
    # Lengths are checked by the service; these bounds only stop absurd input early.
    # "label" is also a Field attribute in the stubs; here it is the credential's name.
    label = serializers.CharField(max_length=MAX_LABEL_CHARS)  # type: ignore[assignment]
    username = serializers.CharField(max_length=MAX_LABEL_CHARS * 4, allow_blank=True, required=False, default="")
    origins = serializers.ListField(
        child=serializers.CharField(max_length=MAX_ORIGIN_CHARS), min_length=1, max_length=MAX_ORIGINS
    )
    secret = serializers.CharField(write_only=True, max_length=MAX_SECRET_CHARS, trim_whitespace=False)
    totp_seed = serializers.CharField(
        write_only=True, required=False, allow_blank=True, max_length=MAX_TOTP_SEED_CHARS, trim_whitespace=False
    )
    authorise_code_automation = serializers.BooleanField(required=False, default=False)


class CredentialRenameSerializer(serializers.Serializer[Any]):
    label = serializers.CharField(max_length=MAX_LABEL_CHARS)  # type: ignore[assignment]


class VaultUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "vault_key_mismatch"


def _api_error(error: VaultError) -> exceptions.APIException:
    if isinstance(error, VaultKeyMismatch | VaultUnreadable):
        return VaultUnavailable(detail=error.message, code=error.code)
    if isinstance(error, CredentialInvalid):
        return exceptions.ValidationError({error.field: [error.message]})
    return exceptions.APIException(detail=error.message, code=error.code)


class CredentialViewSet(OwnedCrudViewSet[Credential]):
    """The owner's credentials: add (secret write-only), list, read, rename (``label``) and delete."""

    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS  # credentials never reach a device

    serializer_class = CredentialSerializer
    list_selector = staticmethod(credential_list)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, VaultError):
            exc = _api_error(exc)
        return super().handle_exception(exc)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        payload = CredentialCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        credential = credential_save(
            owner=request_user(request),
            label=data["label"],
            origins=data["origins"],
            username=data["username"],
            secret=data["secret"],
            totp_seed=data.get("totp_seed") or None,
            authorise_code_automation=data["authorise_code_automation"],
        )
        return Response(CredentialSerializer(credential).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        credential = self.get_object()
        payload = CredentialRenameSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        renamed = credential_rename(credential=credential, label=payload.validated_data["label"])
        return Response(CredentialSerializer(renamed).data)

    def perform_destroy(self, instance: Credential) -> None:
        credential_delete(credential=instance)
