"""Writes of stored downloads: saving a file for an owner, deleting it.

A download is written to a hidden temporary file in the owner's downloads
folder and published under its final name only when complete, within the
limits of ``apps.documents.limits`` (per file, per owner count, per owner
bytes). A failure or a limit breach at any point leaves neither a file nor a
row behind.
"""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import os
import re
import stat
import tempfile
import unicodedata
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Literal
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Sum

from apps.accounts.models import User
from apps.documents.files import DocumentsError, owner_downloads_root
from apps.documents.limits import (
    DOWNLOAD_CHUNK_BYTES,
    MAX_DOWNLOAD_BYTES,
    MAX_DOWNLOAD_BYTES_PER_OWNER,
    MAX_DOWNLOAD_NAME_BYTES,
    MAX_DOWNLOAD_NAME_COPIES,
    MAX_DOWNLOADS_PER_OWNER,
)
from apps.documents.models import SOURCE_ORIGIN_MAX_CHARS, StoredDownload
from apps.documents.readers import DocumentKind, DocumentRead, read_document_file
from apps.documents.selectors import download_list

logger = logging.getLogger(__name__)

DownloadLimit = Literal["file_bytes", "owner_count", "owner_bytes"]
DownloadContent = bytes | bytearray | memoryview | IO[bytes] | Iterable[bytes]

DEFAULT_CONTENT_TYPE = "application/octet-stream"
DEFAULT_DOWNLOAD_NAME = "download"
TEMPORARY_PREFIX = ".part-"  # sanitised names never start with a dot, so these never collide

_LIMIT_MESSAGES: dict[DownloadLimit, str] = {
    "file_bytes": "The file is larger than the {maximum} bytes allowed for one download.",
    "owner_count": "You already keep the maximum of {maximum} downloads; delete some first.",
    "owner_bytes": "Your downloads would exceed the {maximum} bytes allowed in total; delete some first.",
}
_CONTENT_TYPE = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$")
_HOST = re.compile(r"^[^\s/?#@\\]+$")
_WINDOWS_FORBIDDEN = str.maketrans(dict.fromkeys('<>:"|?*', "_"))
_DROPPED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {f"com{n}" for n in range(1, 10)} | {f"lpt{n}" for n in range(1, 10)}
_KIND_OF_CONTENT_TYPE: dict[str, DocumentKind] = {
    "application/pdf": "pdf",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
    "text/csv": "text",
}


class DownloadLimitExceeded(DocumentsError):
    """Storing the download would break a declared limit; nothing was stored.

    ``limit`` is ``file_bytes`` (``MAX_DOWNLOAD_BYTES``), ``owner_count``
    (``MAX_DOWNLOADS_PER_OWNER``) or ``owner_bytes``
    (``MAX_DOWNLOAD_BYTES_PER_OWNER``); ``maximum`` is its value.
    """

    def __init__(self, *, limit: DownloadLimit) -> None:
        self.limit: DownloadLimit = limit
        self.maximum = {
            "file_bytes": MAX_DOWNLOAD_BYTES,
            "owner_count": MAX_DOWNLOADS_PER_OWNER,
            "owner_bytes": MAX_DOWNLOAD_BYTES_PER_OWNER,
        }[limit]
        super().__init__(_LIMIT_MESSAGES[limit].format(maximum=self.maximum))


class DownloadFileMissing(DocumentsError):
    """The download's row exists but its file is gone (or is not a plain file in its folder)."""

    def __init__(self) -> None:
        super().__init__("The file of this download is no longer available.")


# --- Cleaning what the caller gives ------------------------------------------------


def _split_extension(name: str) -> tuple[str, str]:
    stem, dot, extension = name.rpartition(".")
    if dot and stem and 1 <= len(extension) <= 16 and extension.isascii() and extension.isalnum():
        return stem, extension
    return name, ""


def _fit_bytes(stem: str, extension: str) -> str:
    suffix = f".{extension}" if extension else ""
    budget = MAX_DOWNLOAD_NAME_BYTES - len(suffix.encode())
    encoded = stem.encode()
    if len(encoded) > budget:
        stem = encoded[:budget].decode(errors="ignore").rstrip(" .")
    return (stem or DEFAULT_DOWNLOAD_NAME) + suffix


def sanitize_download_name(name: str, *, content_type: str = "") -> str:
    """A safe file name for ``name``: one component, printable, bounded, extension kept.

    Keeps only the last path component; drops control and format characters
    (including bidirectional overrides that disguise extensions); replaces
    characters that Windows forbids with ``_``; collapses white space; strips
    leading and trailing dots and spaces (no hidden files); prefixes reserved
    device names; cuts the name to ``MAX_DOWNLOAD_NAME_BYTES`` UTF-8 bytes
    keeping the extension; adds an extension from ``content_type`` when there
    is none; falls back to ``"download"``.
    """
    text = unicodedata.normalize("NFC", str(name)).replace("\\", "/")
    text = next((part for part in reversed(text.split("/")) if part.strip(" .")), "")
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in _DROPPED_CATEGORIES:
            continue
        kept.append(" " if category == "Zs" else char)
    text = " ".join("".join(kept).translate(_WINDOWS_FORBIDDEN).split()).strip(" .")
    stem, extension = _split_extension(text)
    stem = stem.rstrip(" .")
    if not extension:
        guessed = mimetypes.guess_extension(clean_content_type(content_type)) or ""
        if guessed and guessed != ".bin":
            extension = guessed.lstrip(".")
    if not stem:
        stem = DEFAULT_DOWNLOAD_NAME
    if stem.split(".")[0].strip().lower() in _WINDOWS_RESERVED:
        stem = f"_{stem}"
    return _fit_bytes(stem, extension)


def clean_content_type(value: str) -> str:
    """``type/subtype`` in lower case without parameters, or ``application/octet-stream``."""
    main = str(value or "").split(";", 1)[0].strip().lower()
    return main if _CONTENT_TYPE.match(main) else DEFAULT_CONTENT_TYPE


def clean_source_origin(url: str) -> str:
    """Only ``scheme://host[:port]`` of an http(s) URL; ``""`` for anything else.

    Paths, query strings, fragments and user credentials are never kept: they
    may carry tokens or personal data.
    """
    if not url:
        return ""
    try:
        parts = urlsplit(str(url).strip())
        port = parts.port
    except ValueError:
        return ""
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    if scheme not in ("http", "https") or not host or not _HOST.match(host):
        return ""
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != {"http": 80, "https": 443}[scheme]:
        host = f"{host}:{port}"
    origin = f"{scheme}://{host}"
    return origin if len(origin) <= SOURCE_ORIGIN_MAX_CHARS else ""


# --- Storing -----------------------------------------------------------------------


def _chunks(content: DownloadContent) -> Iterator[bytes]:
    if isinstance(content, bytes | bytearray | memoryview):
        view = memoryview(content).cast("B")
        for start in range(0, len(view), DOWNLOAD_CHUNK_BYTES):
            yield bytes(view[start : start + DOWNLOAD_CHUNK_BYTES])
        return
    read = getattr(content, "read", None)
    if callable(read):
        while True:
            chunk = read(DOWNLOAD_CHUNK_BYTES)
            if not chunk:
                return
            if not isinstance(chunk, bytes | bytearray):
                raise TypeError("download streams must be opened in binary mode")
            yield bytes(chunk)
    for chunk in content:
        if not isinstance(chunk, bytes | bytearray | memoryview):
            raise TypeError("download content must be bytes, a binary stream or an iterable of bytes")
        yield bytes(chunk)


def _usage(owner: User) -> tuple[int, int]:
    totals = download_list(owner=owner).aggregate(count=Count("id"), size=Sum("size"))
    return int(totals["count"] or 0), int(totals["size"] or 0)


def _check_owner_limits(owner: User, *, adding: int) -> None:
    count, size = _usage(owner)
    if count + 1 > MAX_DOWNLOADS_PER_OWNER:
        raise DownloadLimitExceeded(limit="owner_count")
    if size + adding > MAX_DOWNLOAD_BYTES_PER_OWNER:
        raise DownloadLimitExceeded(limit="owner_bytes")


def _candidate_names(name: str) -> Iterator[str]:
    yield name
    stem, extension = _split_extension(name)
    suffix = f".{extension}" if extension else ""
    for copy in range(2, MAX_DOWNLOAD_NAME_COPIES + 1):
        yield f"{stem} ({copy}){suffix}"
    yield f"{stem} ({uuid.uuid4().hex[:12]}){suffix}"


def _publish(temporary: Path, folder: Path, name: str, taken: set[str]) -> str:
    """Give the complete temporary file its final, unused name; return the name.

    A hard link never replaces an existing file. Where the file system has no
    hard links, a rename is used: Metnos's writers for one owner are already
    serialised by the owner lock held by the caller.
    """
    for candidate in _candidate_names(name):
        if candidate in taken:
            continue
        target = folder / candidate
        try:
            os.link(temporary, target)
        except FileExistsError:
            continue
        except OSError:
            if os.path.lexists(target):
                continue
            os.rename(temporary, target)
        return candidate
    raise FileExistsError("no free name for the download")  # unreachable: the last candidate is random


def download_store(
    *,
    owner: User,
    name: str,
    content: DownloadContent,
    content_type: str,
    source_origin: str = "",
) -> StoredDownload:
    """Save ``content`` among the owner's downloads and record it.

    ``content`` is bytes, a binary stream (anything with ``read``) or an
    iterable of byte chunks; it is hashed (SHA-256) and counted while it is
    written. The name is sanitised (:func:`sanitize_download_name`) and
    de-duplicated as ``name (2).pdf``; ``source_origin`` keeps only scheme
    and host (:func:`clean_source_origin`).

    Raises :class:`DownloadLimitExceeded` as soon as a limit would be broken —
    before writing when the size is known, otherwise mid-stream — and in every
    failure case leaves no file (complete or partial) and no row. (Called
    inside an outer transaction that is later rolled back, the complete file
    would stay without its row: call it in its own transaction.)
    """
    folder = owner_downloads_root(owner=owner)
    clean_type = clean_content_type(content_type)
    original_name = sanitize_download_name(name, content_type=clean_type)
    origin = clean_source_origin(source_origin)

    known_size = memoryview(content).nbytes if isinstance(content, bytes | bytearray | memoryview) else None
    if known_size is not None and known_size > MAX_DOWNLOAD_BYTES:
        raise DownloadLimitExceeded(limit="file_bytes")
    used_count, used_bytes = _usage(owner)
    if used_count + 1 > MAX_DOWNLOADS_PER_OWNER:
        raise DownloadLimitExceeded(limit="owner_count")
    owner_budget = MAX_DOWNLOAD_BYTES_PER_OWNER - used_bytes
    if known_size is not None and known_size > owner_budget:
        raise DownloadLimitExceeded(limit="owner_bytes")

    handle, temporary_name = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".tmp", dir=folder)
    temporary = Path(temporary_name)
    published: Path | None = None
    try:
        digest = hashlib.sha256()
        size = 0
        with os.fdopen(handle, "wb") as out:
            for chunk in _chunks(content):
                size += len(chunk)
                if size > MAX_DOWNLOAD_BYTES:
                    raise DownloadLimitExceeded(limit="file_bytes")
                if size > owner_budget:
                    raise DownloadLimitExceeded(limit="owner_bytes")
                digest.update(chunk)
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        with transaction.atomic():
            # Serialise this owner's writers so two stores cannot both pass the limits.
            list(get_user_model()._default_manager.select_for_update().filter(pk=owner.pk).values_list("pk"))
            _check_owner_limits(owner, adding=size)
            stem, _ = _split_extension(original_name)
            taken = set(
                download_list(owner=owner).filter(stored_name__startswith=stem).values_list("stored_name", flat=True)
            )
            stored_name = _publish(temporary, folder, original_name, taken)
            published = folder / stored_name
            download = StoredDownload(
                owner=owner,
                original_name=original_name,
                stored_name=stored_name,
                size=size,
                sha256=digest.hexdigest(),
                content_type=clean_type,
                source_origin=origin,
            )
            download.full_clean()
            download.save()
    except BaseException:
        if published is not None:
            _unlink_quietly(published)
        raise
    finally:
        _unlink_quietly(temporary)
    return download


def _unlink_quietly(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        logger.warning("could not remove a download file: %s", type(exc).__name__)


# --- The stored file ---------------------------------------------------------------


def download_file_path(*, download: StoredDownload) -> Path:
    """The download's file inside its owner's downloads folder, or :class:`DownloadFileMissing`.

    The stored name must be one plain component and the file a regular file
    that is not a link, so a tampered row can never lead outside the folder.
    """
    name = download.stored_name
    if not name or name.startswith(".") or any(char in name for char in "/\\\x00"):
        raise DownloadFileMissing()
    folder = os.path.realpath(Path(settings.DOWNLOADS_ROOT) / str(download.owner_id))
    path = Path(folder) / name
    try:
        info = os.lstat(path)
    except OSError:
        raise DownloadFileMissing() from None
    if not stat.S_ISREG(info.st_mode):
        raise DownloadFileMissing()
    return path


def download_open(*, download: StoredDownload) -> IO[bytes]:
    """The download's file opened for reading (the caller closes it), or :class:`DownloadFileMissing`."""
    path = download_file_path(download=download)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        raise DownloadFileMissing() from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        handle.close()
        raise DownloadFileMissing()
    return handle


def download_read(*, download: StoredDownload) -> DocumentRead:
    """Read a stored download like any document; its address is its stored name.

    The kind follows the extension, else the stored content type. A missing
    file is a ``not_found`` read, not an exception.
    """
    try:
        path = download_file_path(download=download)
    except DownloadFileMissing as missing:
        return DocumentRead(
            address=download.stored_name, outcome="error", error_code="not_found", error_message=str(missing)
        )
    return read_document_file(path, address=download.stored_name, kind=_KIND_OF_CONTENT_TYPE.get(download.content_type))


def download_delete(*, download: StoredDownload) -> None:
    """Delete the download's row and, once that is committed, its file."""
    try:
        path: Path | None = download_file_path(download=download)
    except DownloadFileMissing:
        path = None
    download.delete()
    if path is not None:
        transaction.on_commit(lambda: _unlink_quietly(path))
