"""The owner's folders, and finding files inside the owner's files root.

Every owner has two folders, created on first use with mode 0700:

* the **files root**, ``settings.FILES_ROOT / <owner id>``: the owner's own
  documents, which executors search with :func:`find_files` and read through
  :func:`resolve_owner_path`;
* the **downloads folder**, ``settings.DOWNLOADS_ROOT / <owner id>``: files
  saved by :func:`apps.documents.downloads.download_store`.

Paths given by callers are relative to the files root; ``"~"`` and
``"~/Purchasing"`` name the root and a folder inside it. Absolute paths, ``..``
components, NUL bytes and symbolic links that lead outside the root are
refused with :class:`FileAccessRefused` and never followed.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from django.conf import settings

from apps.accounts.models import User
from apps.documents.limits import (
    FIND_DEFAULT_LIMIT,
    FIND_MAX_LIMIT,
    FIND_MAX_SCANNED_ENTRIES,
    MAX_RELATIVE_PATH_CHARS,
)

FileRefusalReason = Literal[
    "absolute_path",
    "traversal",
    "nul_byte",
    "invalid_path",
    "invalid_pattern",
    "symlink_outside_root",
]
SkipReason = Literal["symlink_outside_root", "unreadable"]

_REFUSAL_MESSAGES: dict[FileRefusalReason, str] = {
    "absolute_path": "Absolute paths are not allowed; give a path inside your files, such as ~/Purchasing.",
    "traversal": "Paths may not contain '..'; give a path inside your files.",
    "nul_byte": "The path contains a NUL character.",
    "invalid_path": "The path is not valid; give a path inside your files, such as ~/Purchasing.",
    "invalid_pattern": "The pattern must be a file-name pattern such as *.pdf, without folder separators.",
    "symlink_outside_root": "The path is a link that leads outside your files and is not followed.",
}

_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")
_MAX_PATTERN_CHARS = 255


class DocumentsError(Exception):
    """Base of the typed errors raised by the documents app."""


class FileAccessRefused(DocumentsError):
    """A path was refused before anything was opened or followed.

    ``reason`` is one of :data:`FileRefusalReason`; ``path`` is the path as the
    caller gave it (never where a link points).
    """

    def __init__(self, *, reason: FileRefusalReason, path: str) -> None:
        self.reason: FileRefusalReason = reason
        self.path = path
        super().__init__(_REFUSAL_MESSAGES[reason])


class FolderNotFound(DocumentsError):
    """The base folder of a search does not exist (or is not a folder)."""

    def __init__(self, *, path: str) -> None:
        self.path = path
        super().__init__("The folder does not exist in your files.")


@dataclass(frozen=True)
class FoundFile:
    """One matching file: ``path`` is relative to the owner's files root (``/`` separated)."""

    path: str
    size: int
    modified_at: datetime


@dataclass(frozen=True)
class SkippedEntry:
    """A matching entry that was not returned, and why."""

    path: str
    reason: SkipReason


@dataclass(frozen=True)
class FileSearchResult:
    """The answer of :func:`find_files`.

    ``files`` are sorted by path (folder by folder, then by name) and hold at
    most ``limit`` entries. ``matched`` counts the matches seen by the scan;
    ``truncated`` is true when matches were left out, either past ``limit`` or
    because the scan stopped at ``FIND_MAX_SCANNED_ENTRIES`` entries.
    """

    base_path: str
    pattern: str
    recursive: bool
    files: tuple[FoundFile, ...]
    matched: int
    truncated: bool
    skipped: tuple[SkippedEntry, ...]


# --- Owner folders -------------------------------------------------------------


def _owner_folder(base: Path | str, owner: User) -> Path:
    pk = getattr(owner, "pk", None)
    if pk is None or not getattr(owner, "is_authenticated", False):
        raise ValueError("an owner's folder needs a saved, signed-in user")
    folder = Path(base) / str(pk)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def owner_files_root(*, owner: User) -> Path:
    """The owner's files root (``FILES_ROOT/<owner id>``), created if missing."""
    return _owner_folder(settings.FILES_ROOT, owner)


def owner_downloads_root(*, owner: User) -> Path:
    """The owner's downloads folder (``DOWNLOADS_ROOT/<owner id>``), created if missing."""
    return _owner_folder(settings.DOWNLOADS_ROOT, owner)


# --- Checking paths ------------------------------------------------------------


def relative_parts(relative_path: str) -> tuple[str, ...]:
    """The components of a caller's relative path, or :class:`FileAccessRefused`.

    Surrounding whitespace is ignored; ``\\`` counts as a separator; ``"~"``
    and a leading ``"~/"`` name the root; ``"."`` and empty components are
    dropped. ``..`` anywhere, absolute paths (``/x``, ``C:\\x``), ``~other``
    and NUL bytes are refused.
    """
    if not isinstance(relative_path, str):
        raise FileAccessRefused(reason="invalid_path", path=repr(relative_path))
    if "\x00" in relative_path:
        raise FileAccessRefused(reason="nul_byte", path=relative_path.replace("\x00", "\\0"))
    if len(relative_path) > MAX_RELATIVE_PATH_CHARS:
        raise FileAccessRefused(reason="invalid_path", path=relative_path[:80] + "…")
    text = relative_path.strip().replace("\\", "/")
    if text == "~":
        text = ""
    elif text.startswith("~/"):
        text = text[2:]
    elif text.startswith("~"):
        # "~someone" would name another user's home: there is no such thing here.
        raise FileAccessRefused(reason="invalid_path", path=relative_path)
    if text.startswith("/") or _WINDOWS_DRIVE.match(text):
        raise FileAccessRefused(reason="absolute_path", path=relative_path)
    parts = tuple(part for part in text.split("/") if part not in ("", "."))
    if ".." in parts:
        raise FileAccessRefused(reason="traversal", path=relative_path)
    return parts


def _is_inside(path: str | Path, root_real: str) -> bool:
    path = str(path)
    return path == root_real or path.startswith(root_real.rstrip(os.sep) + os.sep)


def _resolve_inside(root: Path, parts: tuple[str, ...], *, shown: str) -> Path:
    root_real = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root_real, *parts))
    if not _is_inside(real, root_real):
        raise FileAccessRefused(reason="symlink_outside_root", path=shown)
    return Path(real)


def resolve_owner_path(*, owner: User, relative_path: str) -> Path:
    """The real path of ``relative_path`` inside the owner's files root.

    Applies every check of :func:`relative_parts`, then resolves symbolic
    links and raises ``FileAccessRefused(reason="symlink_outside_root")`` when
    the result lies outside the root. The path need not exist: readers report
    a missing file themselves.
    """
    parts = relative_parts(relative_path)
    return _resolve_inside(owner_files_root(owner=owner), parts, shown=relative_path)


# --- Finding files -------------------------------------------------------------


def _check_pattern(pattern: str) -> str:
    if (
        not isinstance(pattern, str)
        or not pattern.strip()
        or len(pattern) > _MAX_PATTERN_CHARS
        or any(char in pattern for char in "/\\\x00")
    ):
        raise FileAccessRefused(reason="invalid_pattern", path=str(pattern)[:80].replace("\x00", "\\0"))
    return pattern.strip().casefold()


def _modified_at(info: os.stat_result) -> datetime:
    return datetime.fromtimestamp(info.st_mtime, tz=UTC)


def find_files(
    *,
    owner: User,
    base_path: str,
    pattern: str = "*",
    recursive: bool = True,
    limit: int = FIND_DEFAULT_LIMIT,
) -> FileSearchResult:
    """Files under ``base_path`` (relative to the owner's files root) whose name matches ``pattern``.

    ``pattern`` is a shell-style file-name pattern (``*.pdf``, ``INV-2026-*``)
    matched without regard to case; it may not contain folder separators.
    With ``recursive`` the search descends into sub-folders; links to folders
    are never descended (so a search cannot loop). A link to a file inside the
    root is listed under its own path; a matching link that leads outside the
    root is not followed and appears in ``skipped``, as does a sub-folder that
    cannot be read.

    Raises :class:`FileAccessRefused` for a refused base path or pattern,
    :class:`FolderNotFound` when the base folder is missing, and
    ``ValueError`` when ``limit`` is outside ``1..FIND_MAX_LIMIT``.
    """
    if not 1 <= limit <= FIND_MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {FIND_MAX_LIMIT}")
    name_pattern = _check_pattern(pattern)
    parts = relative_parts(base_path)
    root = owner_files_root(owner=owner)
    root_real = os.path.realpath(root)
    base = _resolve_inside(root, parts, shown=base_path)
    if not base.is_dir():
        raise FolderNotFound(path=base_path)

    def relative(path: str) -> str:
        return Path(path).relative_to(root_real).as_posix()

    matches: list[FoundFile] = []
    skipped: list[SkippedEntry] = []
    scanned = 0
    scan_complete = True
    pending = [str(base)]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            skipped.append(SkippedEntry(path=relative(folder), reason="unreadable"))
            continue
        subfolders: list[str] = []
        for entry in entries:
            scanned += 1
            if scanned > FIND_MAX_SCANNED_ENTRIES:
                scan_complete = False
                pending.clear()
                break
            name_matches = fnmatch.fnmatchcase(entry.name.casefold(), name_pattern)
            try:
                if entry.is_symlink():
                    if not name_matches:
                        continue
                    target = os.path.realpath(entry.path)
                    if not _is_inside(target, root_real):
                        skipped.append(SkippedEntry(path=relative(entry.path), reason="symlink_outside_root"))
                        continue
                    info = os.stat(target)
                    if stat.S_ISREG(info.st_mode):
                        matches.append(FoundFile(relative(entry.path), info.st_size, _modified_at(info)))
                elif entry.is_dir(follow_symlinks=False):
                    if recursive:
                        subfolders.append(entry.path)
                elif name_matches and entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    matches.append(FoundFile(relative(entry.path), info.st_size, _modified_at(info)))
            except OSError:
                # A broken link or an entry that vanished during the scan.
                if name_matches:
                    skipped.append(SkippedEntry(path=relative(entry.path), reason="unreadable"))
        # Depth-first in name order: pop() takes the first sub-folder next.
        pending.extend(reversed(subfolders))

    matches.sort(key=lambda found: tuple(found.path.split("/")))
    return FileSearchResult(
        base_path="/".join(parts),
        pattern=pattern,
        recursive=recursive,
        files=tuple(matches[:limit]),
        matched=len(matches),
        truncated=len(matches) > limit or not scan_complete,
        skipped=tuple(skipped),
    )
