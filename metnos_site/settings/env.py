"""Small typed parsers for settings read from the environment.

Each parser fails loudly with :class:`EnvError` naming the variable and what
was wrong, so a mistyped deployment never starts with a silently wrong value.
Secrets may come from ``NAME_FILE`` (the path of a file holding the value).
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


class EnvError(ImproperlyConfigured):
    """A malformed or missing environment value."""


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    env = os.environ if environ is None else environ
    value = env.get(name)
    if value is None:
        return None
    value = value.strip()
    return value or None


def env_str(name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None) -> str | None:
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """Accept only true/false words; anything else is a configuration error."""
    value = _raw(name, environ)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise EnvError(f"{name} must be one of {sorted(TRUE_WORDS)} or {sorted(FALSE_WORDS)}, got {value!r}")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None:
        return default
    if not _WHOLE_NUMBER.fullmatch(value):
        raise EnvError(f"{name} must be a whole number, got {value!r}")
    number = int(value, 10)
    if minimum is not None and number < minimum:
        raise EnvError(f"{name} must be at least {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise EnvError(f"{name} must be at most {maximum}, got {number}")
    return number


def env_list(name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_networks(
    name: str, *, environ: Mapping[str, str] | None = None
) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """A comma-separated list of IP networks such as ``127.0.0.0/8,::1/128``."""
    networks = []
    for item in env_list(name, environ=environ):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise EnvError(f"{name} must list IP networks like 127.0.0.0/8, got {item!r}") from None
    return networks


def env_path(name: str, default: Path, *, environ: Mapping[str, str] | None = None) -> Path:
    value = _raw(name, environ)
    if value is None:
        return default
    path = Path(value).expanduser()
    if not path.is_absolute():
        raise EnvError(f"{name} must be an absolute path, got {value!r}")
    return path


def env_secret(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """Read a secret from ``NAME`` or from the file named by ``NAME_FILE`` (not both).

    The error messages never contain the secret itself.
    """
    direct = _raw(name, environ)
    file_name = _raw(f"{name}_FILE", environ)
    if direct is not None and file_name is not None:
        raise EnvError(f"set either {name} or {name}_FILE, not both")
    if file_name is None:
        return direct
    path = Path(file_name)
    try:
        content = path.read_text(encoding="utf-8").strip()
    # The messages leave out the path: an operator who pasted the secret itself
    # into NAME_FILE must not see it echoed into logs.
    except FileNotFoundError:
        raise EnvError(f"{name}_FILE points to a missing file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise EnvError(f"{name}_FILE could not be read ({type(error).__name__})") from None
    if not content:
        raise EnvError(f"{name}_FILE points to an empty file")
    return content


@dataclass(frozen=True)
class DatabaseUrl:
    engine: str
    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""
    options: tuple[tuple[str, str], ...] = ()


_POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "pgsql"})


def parse_database_url(name: str, value: str) -> DatabaseUrl:
    """Parse ``postgresql://user:pass@host:port/db?opt=v`` or ``sqlite:////abs/path.db``."""
    parts = urlsplit(value)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # Only the absolute form sqlite:////abs/path: a relative path would
        # depend on the working directory and silently select another database.
        path = unquote(parts.path)
        if parts.netloc or not path.startswith("//") or len(path) < 3:
            raise EnvError(f"{name} needs an absolute database file path, e.g. sqlite:////srv/metnos/db.sqlite3")
        return DatabaseUrl(engine="django.db.backends.sqlite3", name=path[1:])
    if scheme in _POSTGRES_SCHEMES:
        database = unquote(parts.path.lstrip("/"))
        if not database:
            raise EnvError(f"{name} needs a database name, e.g. postgresql://metnos@127.0.0.1:5432/metnos")
        try:
            port = parts.port
        except ValueError:
            raise EnvError(f"{name} has an invalid port") from None
        if port == 0:
            raise EnvError(f"{name} has an invalid port")
        return DatabaseUrl(
            engine="django.db.backends.postgresql",
            name=database,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            host=parts.hostname or "",
            port=str(port or ""),
            options=tuple(parse_qsl(parts.query)),
        )
    raise EnvError(f"{name} must start with postgresql:// or sqlite://, got scheme {scheme or '(none)'!r}")


def parse_redis_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise EnvError(f"{name} must look like redis://127.0.0.1:6379/0")
    try:
        parts.port  # noqa: B018 - validates the port
    except ValueError:
        raise EnvError(f"{name} has an invalid port") from None
    return value


def parse_public_url(name: str, value: str) -> tuple[str, str, str]:
    """Return (scheme, host, origin) of the address users reach Metnos at."""
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise EnvError(f"{name} must be an http(s) address such as https://metnos.example.org")
    try:
        port = parts.port
    except ValueError:
        raise EnvError(f"{name} has an invalid port") from None
    netloc = parts.hostname if port is None else f"{parts.hostname}:{port}"
    return parts.scheme, parts.hostname, f"{parts.scheme}://{netloc}"
