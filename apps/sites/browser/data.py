"""Per-owner browser data: cookies and storage kept between sessions.

Each owner has a folder ``BROWSER_DATA_ROOT/<owner id>/`` (mode 0700) holding
one file: the Playwright storage state (cookies, local storage, IndexedDB)
encrypted with a key derived from the vault key. A session starts from it
and merges its changes back when it ends. Chromium itself always runs in a
throw-away profile, so no session ever opens another owner's folder, and
an owner's sessions may run side by side (a Chromium profile could not be
shared).

The merge is three-way per cookie and per stored item: what this session
changed or removed since it loaded the state wins; everything else keeps
what other sessions of the same owner saved meanwhile.

Session cookies (no expiry) are kept like the others. Playwright's storage
state lists them with ``expires = -1`` and a new context restores them, so
the session of a ``sign_in`` step hands its signed-in state to the session
of the collection after it, and to later turns of the same owner until the
website ends or replaces it, as a browser restoring its last session does.
Dropping them when a session ends would sign the owner out between two
steps of one turn, since every session runs in a throw-away profile. The
file is encrypted and private to its owner like every other cookie, and
"Close the web sessions" does not delete it (website data is kept).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

STATE_FILE = "storage-state.bin"
_LOCK_FILE = ".lock"
_INFO = b"metnos.sites.browser-data.v1"

StorageState = dict[str, Any]


@lru_cache(maxsize=4)
def _fernet(vault_key: str) -> Fernet:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"metnos.sites", info=_INFO).derive(vault_key.encode())
    return Fernet(base64.urlsafe_b64encode(derived))


def owner_data_dir(owner_id: int) -> Path:
    """The owner's browser-data folder, created private to this service's user."""
    root = Path(settings.BROWSER_DATA_ROOT)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder = root / str(int(owner_id))
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


@contextlib.contextmanager
def _owner_lock(folder: Path) -> Iterator[None]:
    with open(folder / _LOCK_FILE, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _read(folder: Path) -> StorageState:
    path = folder / STATE_FILE
    try:
        token = path.read_bytes()
    except FileNotFoundError:
        return {"cookies": [], "origins": []}
    try:
        state = json.loads(_fernet(settings.METNOS_VAULT_KEY).decrypt(token))
    except (InvalidToken, ValueError):
        # Written under another vault key or damaged: start without it rather than fail.
        return {"cookies": [], "origins": []}
    return state if isinstance(state, dict) else {"cookies": [], "origins": []}


def _write(folder: Path, state: StorageState) -> None:
    token = _fernet(settings.METNOS_VAULT_KEY).encrypt(json.dumps(state, separators=(",", ":")).encode())
    temporary = folder / f".{STATE_FILE}.{os.getpid()}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(token)
    os.replace(temporary, folder / STATE_FILE)


def storage_state_load(*, owner_id: int) -> StorageState:
    """The owner's saved browser state (empty when there is none)."""
    folder = owner_data_dir(owner_id)
    with _owner_lock(folder):
        return _read(folder)


def _cookie_key(cookie: dict[str, Any]) -> tuple[str, str, str]:
    return (str(cookie.get("name")), str(cookie.get("domain")), str(cookie.get("path")))


def _items(state: StorageState) -> dict[tuple[str, str], Any]:
    """Stored items by (origin, kind:name), from local storage and IndexedDB."""
    items: dict[tuple[str, str], Any] = {}
    for origin in state.get("origins", []):
        for entry in origin.get("localStorage", []):
            items[(origin["origin"], "local:" + str(entry.get("name")))] = entry
        for database in origin.get("indexedDB", []) or []:
            items[(origin["origin"], "idb:" + str(database.get("name")))] = database
    return items


def _merge_map(base: dict[Any, Any], mine: dict[Any, Any], theirs: dict[Any, Any]) -> dict[Any, Any]:
    merged = dict(theirs)
    for key in base.keys() - mine.keys():
        merged.pop(key, None)  # removed by this session
    for key, value in mine.items():
        if base.get(key) != value:
            merged[key] = value  # changed or added by this session
    return merged


def merge_storage_states(base: StorageState, mine: StorageState, theirs: StorageState) -> StorageState:
    """``theirs`` with this session's changes (``base`` → ``mine``) applied on top."""
    cookies = _merge_map(
        {_cookie_key(c): c for c in base.get("cookies", [])},
        {_cookie_key(c): c for c in mine.get("cookies", [])},
        {_cookie_key(c): c for c in theirs.get("cookies", [])},
    )
    items = _merge_map(_items(base), _items(mine), _items(theirs))
    origins: dict[str, dict[str, Any]] = {}
    for (origin, key), value in sorted(items.items(), key=lambda pair: pair[0]):
        entry = origins.setdefault(origin, {"origin": origin, "localStorage": []})
        if key.startswith("local:"):
            entry["localStorage"].append(value)
        else:
            entry.setdefault("indexedDB", []).append(value)
    return {"cookies": list(cookies.values()), "origins": list(origins.values())}


def storage_state_save(*, owner_id: int, base: StorageState, final: StorageState) -> None:
    """Merge a session's final state into the owner's saved state."""
    folder = owner_data_dir(owner_id)
    with _owner_lock(folder):
        _write(folder, merge_storage_states(base, final, _read(folder)))
