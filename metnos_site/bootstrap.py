"""Generate the instance keys into the data directory (no Django import).

``python -m metnos_site.bootstrap`` is run by ``make run`` before anything
else: it makes ``$METNOS_DATA_DIR`` a 0700 folder and creates
``$METNOS_DATA_DIR/secrets/{secret_key,vault_key}`` with mode 0600 when they
are missing, and never overwrites an existing key (a new vault key would make
every stored credential unreadable).
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

KEY_NAMES = ("secret_key", "vault_key")


def default_data_dir() -> Path:
    configured = os.environ.get("METNOS_DATA_DIR", "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parent.parent / "data"


def ensure_keys(data_dir: Path) -> list[Path]:
    """Create missing key files; return the ones created."""
    # The data folder holds the database, users' files and these keys: the
    # account Metnos runs as reads it, nobody else.
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(data_dir, 0o700)
    secrets_dir = data_dir / "secrets"
    secrets_dir.mkdir(mode=0o700, exist_ok=True)
    os.chmod(secrets_dir, 0o700)
    created = []
    for name in KEY_NAMES:
        path = secrets_dir / name
        if path.exists():
            continue
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_urlsafe(48) + "\n")
        created.append(path)
    return created


def main() -> int:
    data_dir = default_data_dir()
    for path in ensure_keys(data_dir):
        print(f"metnos: generated {path.name} in {path.parent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
