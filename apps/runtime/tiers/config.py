"""Model tiers: models chosen by function, never by commercial name.

The runtime asks for a model suited to a function — planning, extraction,
local route choice, frontier, summarisation, vision — and gets the
OpenAI-compatible endpoint configured for that tier, or nothing. There is no
fallback from one tier to another: an unconfigured tier is ``None`` and the
caller decides what that means (the embedded proposer, a deterministic path,
an incomplete collection). In particular a local tier never silently becomes a
cloud one.

Each tier is read from the environment (see :func:`parse_model_tiers`) into
the plain ``settings.METNOS_MODEL_TIERS`` dict; :func:`configured_tiers` and
:func:`tier` turn it into :class:`ModelTier` values whose API key is wrapped in
:class:`Secret`, so no repr, str, JSON projection or System > Models row ever
shows it.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

TierName = Literal["planning", "extraction", "route_choice", "frontier", "summarisation", "vision"]
TIER_NAMES: Final[tuple[TierName, ...]] = get_args(TierName)

# What each tier is for, shown on System > Models.
TIER_PURPOSES: Final[Mapping[TierName, str]] = {
    "planning": "Proposes plans for requests the declared request forms do not match.",
    "extraction": "Extracts typed entries from documents and pages.",
    "route_choice": "Chooses routes to explore on a site (local model).",
    "frontier": "Cloud model for site route choice and record recognition, when configured.",
    "summarisation": "Summarises results for the answer.",
    "vision": "Reads images and screenshots.",
}

# The spec gives 20 s per model decision; the other tiers do longer work.
DECISION_TIMEOUT_SECONDS: Final = 20
DEFAULT_TIMEOUT_SECONDS: Final = 60
TIER_DEFAULT_TIMEOUT_SECONDS: Final[Mapping[TierName, int]] = {
    name: DECISION_TIMEOUT_SECONDS if name in ("route_choice", "frontier") else DEFAULT_TIMEOUT_SECONDS
    for name in TIER_NAMES
}
MIN_TIMEOUT_SECONDS: Final = 1
MAX_TIMEOUT_SECONDS: Final = 600

ENV_PREFIX: Final = "METNOS_MODEL_"
# Longest first, so ``_API_KEY_FILE`` is not read as ``_API_KEY``.
_ENV_SUFFIXES: Final = ("_API_KEY_FILE", "_BASE_URL", "_API_KEY", "_TIMEOUT", "_MODEL", "_CLOUD")
# What a bearer token may hold; anything else would break (and be quoted by) the HTTP layer.
_HEADER_TOKEN: Final = re.compile(r"[\x21-\x7e]+")


def env_name(tier_name: TierName, suffix: str) -> str:
    """``env_name("route_choice", "BASE_URL")`` → ``METNOS_MODEL_ROUTE_CHOICE_BASE_URL``."""
    return f"{ENV_PREFIX}{tier_name.upper()}_{suffix}"


class Secret:
    """A secret value that never shows itself in repr, str or f-strings.

    ``reveal()`` is the only way to read it, so every use is greppable. It is
    deliberately not JSON-serialisable: ``json.dumps`` fails rather than leak.
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__

    def __format__(self, format_spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class ModelTier:
    """One configured tier: an OpenAI-compatible endpoint and its model.

    ``cloud`` says whether requests leave the machine (and are counted as
    cloud requests). The API key, if any, is held in :class:`Secret` and is
    excluded from repr, comparison and :meth:`as_json`.
    """

    name: TierName
    base_url: str
    model: str
    timeout_seconds: float
    cloud: bool
    api_key: Secret | None = field(default=None, repr=False, compare=False)

    @property
    def has_api_key(self) -> bool:
        return self.api_key is not None

    @property
    def host(self) -> str:
        """Host (and port, if explicit) of the base URL — what System > Models shows."""
        return urlsplit(self.base_url).netloc

    def as_json(self) -> dict[str, Any]:
        """A JSON-safe description without the API key."""
        return {
            "name": self.name,
            "base_url": self.base_url,
            "host": self.host,
            "model": self.model,
            "timeout_seconds": self.timeout_seconds,
            "cloud": self.cloud,
            "has_api_key": self.has_api_key,
        }


# --- Parsing the environment ------------------------------------------------


def is_local_host(host: str) -> bool:
    """True for loopback and private-network hosts (requests stay on premises).

    Only ``localhost`` (and ``*.localhost``) and IP literals are recognised:
    any other name might resolve anywhere, so it is treated as cloud unless
    the operator says otherwise with ``METNOS_MODEL_<TIER>_CLOUD=false``.
    """
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_private or address.is_link_local


def parse_base_url(name: str, value: str) -> str:
    """Validate an OpenAI-compatible base URL and return it without a trailing slash.

    User info, query strings and fragments are refused: credentials belong in
    ``_API_KEY`` (a secret), not in an address that is shown and logged.
    """
    from metnos_site.settings.env import EnvError

    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise EnvError(f"{name} must be an http(s) address such as http://127.0.0.1:8080/v1")
    if parts.username is not None or parts.password is not None:
        raise EnvError(f"{name} must not contain credentials; use the _API_KEY variable")
    if parts.query or parts.fragment:
        raise EnvError(f"{name} must not contain a query string or fragment")
    try:
        parts.port  # noqa: B018 - validates the port
    except ValueError:
        raise EnvError(f"{name} has an invalid port") from None
    return value.rstrip("/")


def _check_variable_names(environ: Mapping[str, str]) -> None:
    """Refuse tier variables naming an unknown tier (a typo would silently unconfigure it)."""
    from metnos_site.settings.env import EnvError

    for key in environ:
        if not key.startswith(ENV_PREFIX):
            continue
        rest = key[len(ENV_PREFIX) :]
        for suffix in _ENV_SUFFIXES:
            if rest.endswith(suffix):
                tier_part = rest[: -len(suffix)].lower()
                if tier_part not in TIER_NAMES:
                    raise EnvError(f"{key} names an unknown model tier; known tiers: {', '.join(TIER_NAMES)}")
                break


def parse_model_tiers(environ: Mapping[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Read every tier from the environment into a plain dict for settings.

    Returns ``{tier: {"base_url", "model", "timeout", "cloud", "api_key"}}``
    for configured tiers only; ``api_key`` is a :class:`Secret` or ``None``.
    A tier is configured when both ``_BASE_URL`` and ``_MODEL`` are set. Any
    other variable of a tier set without those two, a variable naming an
    unknown tier, or a malformed value raises ``EnvError`` naming the variable
    (never echoing a secret). ``environ`` defaults to ``os.environ``.
    """
    # Imported here, not at module level: the settings package imports this
    # module, and importing this module first must not re-enter settings.
    from metnos_site.settings.env import EnvError, env_bool, env_int, env_secret, env_str

    env = os.environ if environ is None else environ
    _check_variable_names(env)
    tiers: dict[str, dict[str, Any]] = {}
    for tier_name in TIER_NAMES:
        base_url = env_str(env_name(tier_name, "BASE_URL"), environ=env)
        model = env_str(env_name(tier_name, "MODEL"), environ=env)
        if base_url is None or model is None:
            stray = [
                env_name(tier_name, suffix[1:])
                for suffix in _ENV_SUFFIXES
                if env_str(env_name(tier_name, suffix[1:]), environ=env) is not None
            ]
            if stray:
                missing = " and ".join(
                    env_name(tier_name, part) for part, value in (("BASE_URL", base_url), ("MODEL", model)) if not value
                )
                raise EnvError(f"{', '.join(stray)} set but {missing} missing: the {tier_name} tier is incomplete")
            continue
        timeout = env_int(
            env_name(tier_name, "TIMEOUT"),
            TIER_DEFAULT_TIMEOUT_SECONDS[tier_name],
            minimum=MIN_TIMEOUT_SECONDS,
            maximum=MAX_TIMEOUT_SECONDS,
            environ=env,
        )
        api_key = env_secret(env_name(tier_name, "API_KEY"), environ=env)
        if api_key is not None and not _HEADER_TOKEN.fullmatch(api_key):
            raise EnvError(f"{env_name(tier_name, 'API_KEY')} must be printable ASCII without spaces")
        base_url = parse_base_url(env_name(tier_name, "BASE_URL"), base_url)
        host = urlsplit(base_url).hostname or ""
        cloud = env_bool(env_name(tier_name, "CLOUD"), not is_local_host(host), environ=env)
        tiers[tier_name] = {
            "base_url": base_url,
            "model": model,
            "timeout": timeout,
            "cloud": cloud,
            # Wrapped, so diffsettings, a debug page or a logged settings dump
            # shows asterisks; Django's error reports also mask "api_key".
            "api_key": Secret(api_key) if api_key is not None else None,
        }
    return tiers


# --- Reading the configured tiers -------------------------------------------


def _tier_from_entry(tier_name: TierName, entry: Mapping[str, Any]) -> ModelTier:
    try:
        api_key = entry.get("api_key")
        if api_key is not None and not isinstance(api_key, Secret):
            api_key = Secret(str(api_key)) if api_key else None
        return ModelTier(
            name=tier_name,
            base_url=str(entry["base_url"]).rstrip("/"),
            model=str(entry["model"]),
            timeout_seconds=float(entry.get("timeout", TIER_DEFAULT_TIMEOUT_SECONDS[tier_name])),
            cloud=bool(entry["cloud"]),
            api_key=api_key,
        )
    except (KeyError, TypeError, ValueError):
        raise ImproperlyConfigured(f"METNOS_MODEL_TIERS[{tier_name!r}] is malformed") from None


def configured_tiers() -> dict[TierName, ModelTier]:
    """The configured tiers, from ``settings.METNOS_MODEL_TIERS``, in tier order."""
    raw: Mapping[str, Mapping[str, Any]] = getattr(settings, "METNOS_MODEL_TIERS", {}) or {}
    unknown = sorted(set(raw) - set(TIER_NAMES))
    if unknown:
        raise ImproperlyConfigured(f"METNOS_MODEL_TIERS names unknown tiers: {', '.join(unknown)}")
    return {name: _tier_from_entry(name, raw[name]) for name in TIER_NAMES if name in raw}


def tier(name: TierName) -> ModelTier | None:
    """The tier configured for this function, or ``None``.

    Never a fallback: asking for ``frontier`` when only ``route_choice`` is
    configured returns ``None``. An unknown name is a programming error.
    """
    if name not in TIER_NAMES:
        raise ValueError(f"unknown model tier {name!r}; known tiers: {', '.join(TIER_NAMES)}")
    return configured_tiers().get(name)


def effective_configuration() -> list[dict[str, Any]]:
    """One row per tier, configured or not, for System > Models.

    Rows carry the tier, its purpose, whether it is configured, the base URL
    host, the model, the timeout, whether requests leave the machine, and
    ``"API key": "set"/"not set"`` — never the key itself.
    """
    configured = configured_tiers()
    rows: list[dict[str, Any]] = []
    for name in TIER_NAMES:
        current = configured.get(name)
        rows.append(
            {
                "tier": name,
                "purpose": TIER_PURPOSES[name],
                "configured": current is not None,
                "host": current.host if current else None,
                "model": current.model if current else None,
                "timeout_seconds": current.timeout_seconds if current else None,
                "cloud": current.cloud if current else None,
                "api_key": "set" if current and current.has_api_key else "not set",
            }
        )
    return rows
