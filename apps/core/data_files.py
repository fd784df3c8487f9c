"""The data folder and the embedded database are readable by the account Metnos runs as, and nobody else.

``$METNOS_DATA_DIR`` holds the SQLite database (sessions, conversations,
sealed credentials), users' files, downloads, browser data and the generated
keys. The folder is made 0700 and the database file 0600 before the first
connection opens it. SQLite creates its ``-wal`` and ``-shm`` files later,
with the database file's mode; every new connection makes all of them 0600
again, which also tightens the files of an instance set up before this rule.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

PRIVATE_FOLDER_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
# The files SQLite keeps beside a database.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def _make_private(path: Path, mode: int) -> None:
    try:
        current = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if current == mode:
        return
    try:
        os.chmod(path, mode)
    except PermissionError:  # another account's file: say so, and let SQLite carry on
        logger.warning("could not make %s private (mode %o): it belongs to another account", path.name, current)


def _sqlite_path(settings_dict: Any) -> Path | None:
    if not str(settings_dict.get("ENGINE", "")).endswith("sqlite3"):
        return None
    name = str(settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def sqlite_files_make_private(path: Path) -> None:
    """Make the database at ``path`` and the files SQLite keeps beside it 0600."""
    for suffix in ("", *SQLITE_COMPANIONS):
        _make_private(path.with_name(path.name + suffix), PRIVATE_FILE_MODE)


def data_folders_prepare() -> None:
    """Create the data folders on first start: the data folder 0700, the embedded database 0600."""
    data_dir = Path(settings.DATA_DIR)
    data_dir.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
    _make_private(data_dir, PRIVATE_FOLDER_MODE)
    for folder in (settings.FILES_ROOT, settings.DOWNLOADS_ROOT, settings.BROWSER_DATA_ROOT, settings.STATIC_ROOT):
        Path(folder).mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
    database = _sqlite_path(settings.DATABASES["default"])
    if database is not None:
        database.parent.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
        # Created empty and private, so SQLite never creates it with the umask's mode.
        with contextlib.suppress(FileExistsError):
            os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE))
        sqlite_files_make_private(database)


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: the database a connection opened, and its -wal and -shm, stay 0600."""
    database = _sqlite_path(connection.settings_dict)
    if database is not None:
        sqlite_files_make_private(database)
