"""The data folder and the embedded database are readable by the account Metnos runs as, and nobody else.

A fresh data folder is made the way ``make run`` makes it (the bootstrap, then
Django opening the SQLite database in WAL mode), in a process with the common
umask 022, and every mode is checked while the database is open: the -wal and
-shm files exist only then.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

PROBE = """
import json, os, stat, sys
import django
django.setup()
from django.conf import settings
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE probe (note TEXT)")
    cursor.execute("INSERT INTO probe VALUES ('a session')")
data = settings.DATA_DIR
database = connection.settings_dict["NAME"]
paths = {"data folder": data, "database": database, "wal": f"{database}-wal", "shm": f"{database}-shm",
         "secrets folder": data / "secrets", "secret_key": data / "secrets" / "secret_key",
         "vault_key": data / "secrets" / "vault_key"}
print(json.dumps({name: (oct(stat.S_IMODE(os.stat(path).st_mode)) if os.path.exists(path) else None)
                  for name, path in paths.items()}))
"""


def _fresh_modes(data_dir: Path) -> dict[str, str | None]:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="metnos_site.settings", METNOS_DATA_DIR=str(data_dir), DEBUG="false")
    for name in ("SECRET_KEY", "METNOS_VAULT_KEY"):  # the bootstrap's generated keys, as in `make run`
        env.pop(name, None)
    run = {"cwd": REPO_ROOT, "env": env, "umask": 0o022, "check": True, "capture_output": True, "text": True}
    subprocess.run([sys.executable, "-m", "metnos_site.bootstrap"], **run)  # type: ignore[call-overload]
    probe = subprocess.run([sys.executable, "-c", PROBE], **run)  # type: ignore[call-overload]
    modes: dict[str, str | None] = json.loads(probe.stdout.strip().splitlines()[-1])
    return modes


def test_a_fresh_data_folder_and_its_database_are_private(tmp_path: Path) -> None:
    modes = _fresh_modes(tmp_path / "data")
    assert modes == {
        "data folder": "0o700",
        "database": "0o600",
        "wal": "0o600",
        "shm": "0o600",
        "secrets folder": "0o700",
        "secret_key": "0o600",
        "vault_key": "0o600",
    }


def test_an_existing_world_readable_database_is_made_private(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o755)
    (data_dir / "metnos.sqlite3").touch(mode=0o644)
    os.chmod(data_dir / "metnos.sqlite3", 0o644)
    modes = _fresh_modes(data_dir)
    assert (modes["data folder"], modes["database"], modes["wal"], modes["shm"]) == ("0o700", "0o600", "0o600", "0o600")
