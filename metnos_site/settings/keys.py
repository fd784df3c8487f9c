"""Secret key and vault key resolution, and the production-mode refusal."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from metnos_site.settings.env import EnvError

# Django's own deploy check asks for at least 50 characters and 5 distinct ones.
MIN_SECRET_KEY_LENGTH = 50
MIN_VAULT_KEY_LENGTH = 32
_DEVELOPMENT_SECRET_KEY = "django-insecure-metnos-development-only-" + "x" * 24
_DEVELOPMENT_VAULT_KEY = "metnos-insecure-development-vault-key-do-not-use"


class KeyProblem(EnvError):
    """Production mode cannot start with the keys it was given."""


@dataclass(frozen=True)
class Keys:
    secret_key: str
    vault_key: str


def read_generated_key(data_dir: Path, name: str) -> str | None:
    """A key written by ``python -m metnos_site.bootstrap`` into the data directory."""
    path = data_dir / "secrets" / name
    try:
        value = path.read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise KeyProblem(f"the generated {name} in {path.parent} cannot be read ({type(error).__name__})") from None
    return value or None


def key_problems(*, secret_key: str | None, vault_key: str | None) -> list[str]:
    """What is wrong with the keys for production use (never includes key values)."""
    problems = []
    if not secret_key:
        problems.append("SECRET_KEY is not set (set SECRET_KEY or SECRET_KEY_FILE)")
    elif (
        len(secret_key) < MIN_SECRET_KEY_LENGTH or len(set(secret_key)) < 5 or secret_key.startswith("django-insecure")
    ):
        problems.append(
            f"SECRET_KEY is not a real secret (at least {MIN_SECRET_KEY_LENGTH} random characters, "
            "not a django-insecure placeholder)"
        )
    if not vault_key:
        problems.append("METNOS_VAULT_KEY is not set (set METNOS_VAULT_KEY or METNOS_VAULT_KEY_FILE)")
    elif len(vault_key) < MIN_VAULT_KEY_LENGTH or len(set(vault_key)) < 5 or vault_key.startswith("metnos-insecure"):
        problems.append(f"METNOS_VAULT_KEY must be at least {MIN_VAULT_KEY_LENGTH} random characters")
    if secret_key and vault_key and secret_key == vault_key:
        problems.append("METNOS_VAULT_KEY must be distinct from SECRET_KEY")
    return problems


def resolve_keys(*, debug: bool, secret_key: str | None, vault_key: str | None) -> Keys:
    """Return the keys to use; in production mode refuse to start on any problem."""
    if debug:
        return Keys(
            secret_key=secret_key or _DEVELOPMENT_SECRET_KEY,
            vault_key=vault_key or _DEVELOPMENT_VAULT_KEY,
        )
    problems = key_problems(secret_key=secret_key, vault_key=vault_key)
    if problems:
        raise KeyProblem(
            "Metnos refuses to start in production mode (DEBUG off): "
            + "; ".join(problems)
            + ". `make run` generates both keys into the data directory."
        )
    return Keys(secret_key=secret_key or "", vault_key=vault_key or "")
