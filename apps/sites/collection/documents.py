"""Saving the documents a collection downloads, when the approved action includes it.

A document arrives from one click on a row's download control; the click is
never sent again, whatever happens (an error, a lost response or no file
arriving authorise no second submission). Each file is first stored among
the owner's downloads by :func:`apps.documents.downloads.download_store`,
which enforces the declared limits (per file, per owner count and bytes),
then copied into the folder the user approved, inside the owner's files,
without overwriting anything. It is then read once, so the result says
whether its text can be read or it needs optical character recognition.
"""

from __future__ import annotations

import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Download
from playwright.sync_api import Error as PlaywrightError

from apps.accounts.models import User
from apps.documents.downloads import DownloadLimitExceeded, download_store
from apps.documents.files import DocumentsError, owner_files_root, resolve_owner_path
from apps.documents.limits import MAX_DOWNLOAD_BYTES
from apps.documents.readers import read_document_file
from apps.sites.browser.sessions import outside_browser_loop

MAX_NAME_COPIES = 999


class DocumentFolderUnusable(Exception):
    """The approved folder is not a folder inside the owner's files; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class SavedDocument:
    """A saved file: its path inside the owner's files, and how reading it went."""

    identifier: str
    path: str
    size: int
    read_outcome: str


@dataclass(frozen=True)
class DocumentProblem:
    """A document that was not saved; ``reason`` is from a closed set."""

    identifier: str
    reason: str


class DocumentSaver:
    """Saves downloads of one collection into one approved folder."""

    def __init__(self, *, owner: User, folder: str) -> None:
        try:
            self.folder = resolve_owner_path(owner=owner, relative_path=folder)
        except DocumentsError as error:
            raise DocumentFolderUnusable("refused") from error
        if not self.folder.is_dir():
            raise DocumentFolderUnusable("not_found")
        self.owner = owner
        self.root = owner_files_root(owner=owner).resolve()
        self.limit_reached = ""

    def save(self, download: Download, *, identifier: str, origin: str) -> SavedDocument | DocumentProblem:
        """Store one finished download and copy it into the folder; never raises for the website's faults."""
        if self.limit_reached:
            return DocumentProblem(identifier, f"limit_{self.limit_reached}")
        try:
            location = download.path()
            failure = download.failure()
        except PlaywrightError:
            return DocumentProblem(identifier, "download_failed")
        if failure is not None or location is None:
            return DocumentProblem(identifier, "download_failed")
        if Path(location).stat().st_size > MAX_DOWNLOAD_BYTES:
            self.limit_reached = "file_bytes"
            return DocumentProblem(identifier, "limit_file_bytes")
        content = Path(location).read_bytes()
        name = download.suggested_filename or f"{identifier or 'document'}.pdf"
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        try:
            stored = outside_browser_loop(
                download_store,
                owner=self.owner,
                name=name,
                content=content,
                content_type=content_type,
                source_origin=origin,
            )
        except DownloadLimitExceeded as exceeded:
            self.limit_reached = exceeded.limit
            return DocumentProblem(identifier, f"limit_{exceeded.limit}")
        except (DocumentsError, OSError):
            return DocumentProblem(identifier, "not_stored")
        target = self._write_new(stored.original_name, content)
        if target is None:
            return DocumentProblem(identifier, "not_copied")
        relative = target.relative_to(self.root).as_posix()
        read = read_document_file(target, address=relative)
        return SavedDocument(identifier, relative, len(content), read.outcome)

    def _write_new(self, name: str, content: bytes) -> Path | None:
        """Write ``content`` under a name not yet taken in the folder ("bill (2).pdf"); never overwrite."""
        stem, dot, extension = name.rpartition(".")
        if not dot:
            stem, extension = name, ""
        for copy in range(1, MAX_NAME_COPIES + 1):
            candidate = name if copy == 1 else f"{stem} ({copy}){dot}{extension}"
            target = self.folder / candidate
            try:
                descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue
            except OSError:
                return None
            with os.fdopen(descriptor, "wb") as out:
                out.write(content)
            return target
        return None
