"""The mandate: which credentials a turn may use, on which websites, resolved only at execution time.

A :class:`VaultMandate` is bound to one owner and one turn, and holds
*grants*: a credential id and the exact origins (scheme, host, port) the
turn was authorised to use it on. :meth:`VaultMandate.resolve` is the only
way to read a stored value. It answers only while the turn is running, only
for a granted credential on a granted origin that the credential still
lists, and it registers each value it hands out in :meth:`secrets` — and in
the running step's redaction — so the boundary keeps it out of records,
events, logs and model requests.

:func:`vault_mandate_for_plan` builds the mandate for a turn from its plan.
The plan names only the access a step needs — the credential's label or id
(``credential``) and the website (``origin`` or ``url``) — never a value.
Only literal arguments authorise: a value produced by another step (a
reference) never chooses a credential or a website.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from django.views.decorators.debug import sensitive_variables

from apps.accounts.models import User
from apps.core.redaction import secret_register
from apps.runtime.executor import Catalog, Mandate
from apps.vault.crypto import unseal
from apps.vault.errors import CredentialInvalid, CredentialNotAuthorised, CredentialNotFound, VaultError
from apps.vault.origins import normalise_origin
from apps.vault.selectors import credential_find, credentials_for_origin
from apps.vault.services import credential_mark_used
from apps.vault.store import vault_key_check
from apps.vault.totp import totp_code

CREDENTIALS_USE: Final = "credentials.use"
# The arguments by which a step that uses credentials names its access.
CREDENTIAL_ARG: Final = "credential"
ORIGIN_ARGS: Final = ("origin", "url")

_NOT_AUTHORISED = "This turn is not authorised to use that credential on that website."


@dataclass(frozen=True)
class CredentialGrant:
    """One credential and the origins this turn may use it on."""

    credential_id: int
    origins: frozenset[str]


@dataclass(frozen=True)
class GrantRefusal:
    """A step whose access could not be granted, and why (a closed code, no values)."""

    step: int
    code: str


class ResolvedCredential:
    """A credential handed to the browser component for one origin. Prints without its values."""

    __slots__ = ("_mandate", "_seed", "credential_id", "origin", "secret", "username")

    def __init__(
        self, *, mandate: VaultMandate, credential_id: int, origin: str, username: str, secret: str, seed: str | None
    ) -> None:
        self._mandate = mandate
        self._seed = seed
        self.credential_id = credential_id
        self.origin = origin
        self.username = username
        self.secret = secret

    def __repr__(self) -> str:
        return f"<ResolvedCredential {self.credential_id} for {self.origin}>"

    @property
    def has_totp(self) -> bool:
        return self._seed is not None

    def one_time_code(self) -> str:
        """The current TOTP code; only for credentials whose owner authorised code automation."""
        if self._seed is None:
            raise CredentialNotAuthorised("This credential has no authorised code automation.")
        code = totp_code(self._seed)
        self._mandate._withhold(code)
        return code


class VaultMandate:
    """The credentials one turn of one owner may use (see the module docstring)."""

    def __init__(
        self,
        *,
        owner: User,
        turn_id: int,
        grants: Iterable[CredentialGrant] = (),
        refusals: Iterable[GrantRefusal] = (),
    ) -> None:
        self.owner = owner
        self.turn_id = turn_id
        merged: dict[int, frozenset[str]] = {}
        for grant in grants:
            merged[grant.credential_id] = merged.get(grant.credential_id, frozenset()) | grant.origins
        self._grants = merged
        self.refusals = tuple(refusals)
        self._resolved: list[str] = []

    def __repr__(self) -> str:
        return f"<VaultMandate turn={self.turn_id} grants={len(self._grants)} resolved={len(self._resolved)}>"

    @property
    def grants(self) -> tuple[CredentialGrant, ...]:
        return tuple(CredentialGrant(credential_id, origins) for credential_id, origins in sorted(self._grants.items()))

    @property
    def authorised_origins(self) -> frozenset[str]:
        """Every origin a grant of this turn covers (for the browser component's website checks)."""
        return frozenset().union(*self._grants.values())

    def allows(self, capability: str) -> bool:
        return capability == CREDENTIALS_USE and bool(self._grants)

    def secrets(self) -> tuple[str, ...]:
        return tuple(self._resolved)

    def _withhold(self, value: str) -> None:
        if value and value not in self._resolved:
            self._resolved.append(value)
        # The step that resolves runs inside the boundary's redaction block,
        # which was opened before this value was known.
        secret_register(value)

    def _turn_is_running(self) -> bool:
        from apps.runtime.models import Turn

        return Turn.objects.filter(pk=self.turn_id, owner_id=self.owner.pk, status=Turn.Status.RUNNING).exists()

    @sensitive_variables("secret", "seed")
    def resolve(self, credential: int | str, origin: str) -> ResolvedCredential:
        """The credential's username and secret for ``origin``, if this running turn was granted exactly that.

        Raises :class:`CredentialNotAuthorised` otherwise (also for another
        owner's or a missing credential, alike), ``VaultKeyMismatch`` or
        ``VaultUnreadable``. Messages never carry a value.
        """
        try:
            wanted = normalise_origin(origin, field="origin")
            row = credential_find(owner=self.owner, reference=credential)
        except (CredentialInvalid, CredentialNotFound):
            raise CredentialNotAuthorised(_NOT_AUTHORISED) from None
        granted = self._grants.get(row.pk, frozenset())
        if wanted not in granted or wanted not in row.origins or not self._turn_is_running():
            raise CredentialNotAuthorised(_NOT_AUTHORISED)
        secret = unseal(row.secret)
        self._withhold(secret)
        seed = unseal(row.totp_seed) if row.totp_seed is not None else None
        if seed is not None:
            self._withhold(seed)
        credential_mark_used(credential=row)
        return ResolvedCredential(
            mandate=self, credential_id=row.pk, origin=wanted, username=row.username, secret=secret, seed=seed
        )


def mandate_resolve(mandate: Mandate, *, credential: int | str, origin: str) -> ResolvedCredential:
    """What an executor calls with ``context.mandate``: refuses unless it is a vault mandate that grants this."""
    if not isinstance(mandate, VaultMandate):
        raise CredentialNotAuthorised(_NOT_AUTHORISED)
    return mandate.resolve(credential, origin)


def _steps(plan: Any) -> list[tuple[str, Mapping[str, Any]]]:
    raw = plan.as_json() if hasattr(plan, "as_json") else plan
    steps = raw.get("steps", []) if isinstance(raw, Mapping) else []
    return [
        (str(step.get("tool", "")), step.get("args") or {})
        for step in steps
        if isinstance(step, Mapping) and isinstance(step.get("args") or {}, Mapping)
    ]


def _literal(value: Any) -> str | None:
    # A reference ({{stepN.x}}, {"from_step": N}) is another step's output: never an authorisation.
    if isinstance(value, str) and "{{" not in value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _grant_for_step(owner: User, args: Mapping[str, Any]) -> CredentialGrant | str:
    origin_text = next((_literal(args.get(name)) for name in ORIGIN_ARGS if args.get(name) is not None), None)
    if origin_text is None:
        return "no_origin"
    try:
        origin = normalise_origin(origin_text, field="origin")
    except CredentialInvalid:
        return "invalid_origin"
    reference = args.get(CREDENTIAL_ARG)
    if reference is not None:
        literal = _literal(reference)
        if literal is None:
            return "credential_not_literal"
        try:
            row = credential_find(owner=owner, reference=literal)
        except CredentialNotFound:
            return "credential_not_found"
        if origin not in row.origins:
            return "origin_not_allowed"
        return CredentialGrant(row.pk, frozenset({origin}))
    # Only the kind of access was named: the owner's one credential for this website.
    candidates = credentials_for_origin(owner=owner, origin=origin)
    if len(candidates) != 1:
        return "no_credential_for_origin" if not candidates else "ambiguous_credential"
    return CredentialGrant(candidates[0].pk, frozenset({origin}))


def vault_mandate_for_plan(*, owner: User, turn_id: int, plan: Any, catalog: Catalog) -> VaultMandate:
    """The mandate for a turn: a grant for each step with ``credentials.use`` whose access is unambiguous.

    Steps of other executors authorise nothing. A step whose access cannot be
    granted gets a :class:`GrantRefusal` (its step and a code) and no grant;
    the boundary then refuses it, or ``resolve`` does.
    """
    grants: list[CredentialGrant] = []
    refusals: list[GrantRefusal] = []
    needing = [
        (index, args)
        for index, (tool, args) in enumerate(_steps(plan), start=1)
        if (manifest := catalog.manifest(tool)) is not None and CREDENTIALS_USE in manifest.capabilities
    ]
    if needing:
        try:
            vault_key_check()
        except VaultError as error:
            return VaultMandate(
                owner=owner, turn_id=turn_id, refusals=[GrantRefusal(index, error.code) for index, _ in needing]
            )
    for index, args in needing:
        outcome = _grant_for_step(owner, args)
        if isinstance(outcome, CredentialGrant):
            grants.append(outcome)
        else:
            refusals.append(GrantRefusal(index, outcome))
    return VaultMandate(owner=owner, turn_id=turn_id, grants=grants, refusals=refusals)
