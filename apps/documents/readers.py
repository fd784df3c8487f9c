"""Reading documents: PDF (pypdf), HTML, plain text and CSV.

Every address gets exactly one :class:`DocumentRead`, whatever happens to it:
``read`` (text extracted), ``empty`` (nothing to read), ``needs_ocr`` (a PDF
whose pages carry no text: optical character recognition would be needed, and
it has *not* been run) or ``error`` with an ``error_code`` from
:data:`DocumentErrorCode` and a human ``error_message``. One bad file never
prevents reading the others.

Bounds (``apps.documents.limits``): files above ``MAX_DOCUMENT_BYTES`` are
``too_large`` and are not read; text beyond ``MAX_TEXT_CHARS`` is cut and the
read says ``truncated``; at most ``MAX_DOCUMENTS_PER_READ`` addresses per call.
"""

from __future__ import annotations

import errno
import io
import logging
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pypdf import PasswordType, PdfReader

from apps.accounts.models import User
from apps.documents.files import FileAccessRefused, resolve_owner_path
from apps.documents.html_text import html_visible_text
from apps.documents.limits import MAX_DOCUMENT_BYTES, MAX_DOCUMENTS_PER_READ, MAX_TEXT_CHARS

logger = logging.getLogger(__name__)

DocumentOutcome = Literal["read", "empty", "needs_ocr", "error"]
DocumentKind = Literal["pdf", "html", "text"]
DocumentErrorCode = Literal[
    "access_refused",  # the address was refused (traversal, absolute path, link out of the root, …)
    "not_found",
    "not_a_file",  # a folder, a device, a pipe …
    "unsupported_type",
    "too_large",  # above MAX_DOCUMENT_BYTES; not read
    "encrypted",  # a PDF that needs a password
    "corrupt",  # not a readable document of its type
    "unreadable",  # the file could not be read (permissions, I/O)
    "over_read_limit",  # past MAX_DOCUMENTS_PER_READ addresses in one call
]

# Pages of a PDF are separated by a form feed in ``text``, as pdftotext does.
PAGE_SEPARATOR = "\f"
NEEDS_OCR_MESSAGE = (
    "This PDF has no extractable text (it is probably a scan): optical character recognition (OCR) "
    "is needed to read it. OCR has not been run on it."
)
SUFFIX_KINDS: dict[str, DocumentKind] = {
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".txt": "text",
    ".csv": "text",
}


@dataclass(frozen=True)
class DocumentRead:
    """The outcome of reading one address.

    ``text`` is empty unless ``outcome`` is ``read``. ``pages`` is the page
    count of a PDF (``None`` for other kinds or when unknown).
    ``error_message`` explains every outcome other than ``read``; for
    ``needs_ocr`` it says that OCR is needed and has not run. ``truncated``
    means ``text`` stops at ``MAX_TEXT_CHARS`` or pages were left unread;
    ``warnings`` note partial problems of an otherwise usable read.
    """

    address: str
    outcome: DocumentOutcome
    text: str = ""
    pages: int | None = None
    error_code: DocumentErrorCode | None = None
    error_message: str | None = None
    kind: DocumentKind | None = None
    title: str | None = None
    truncated: bool = False
    warnings: tuple[str, ...] = ()


def _error(address: str, code: DocumentErrorCode, message: str, *, kind: DocumentKind | None = None) -> DocumentRead:
    return DocumentRead(address=address, outcome="error", error_code=code, error_message=message, kind=kind)


def _too_large(address: str, kind: DocumentKind | None) -> DocumentRead:
    limit_mb = MAX_DOCUMENT_BYTES // (1024 * 1024)
    return _error(address, "too_large", f"The file is larger than the {limit_mb} MB reading limit.", kind=kind)


def _capped(text: str) -> tuple[str, bool]:
    if len(text) > MAX_TEXT_CHARS:
        return text[:MAX_TEXT_CHARS], True
    return text, False


class _ReadFailed(Exception):
    def __init__(self, read: DocumentRead) -> None:
        self.read = read


def _read_bounded(path: Path, *, address: str, kind: DocumentKind | None) -> bytes:
    """The file's bytes, or ``_ReadFailed`` — never reading past ``MAX_DOCUMENT_BYTES``.

    The last component is opened without following a link (the caller has
    resolved links already; a link swapped in since is refused) and without
    blocking (a pipe would otherwise hang the read).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise _ReadFailed(_error(address, "not_found", "There is no such file.", kind=kind)) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _ReadFailed(
                _error(address, "access_refused", "The file is a link; it is not followed.", kind=kind)
            ) from None
        raise _ReadFailed(_error(address, "unreadable", "The file could not be opened.", kind=kind)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_DOCUMENT_BYTES:
        os.close(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _ReadFailed(_error(address, "not_a_file", "The address is not a regular file.", kind=kind))
        raise _ReadFailed(_too_large(address, kind))
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
        except OSError:
            raise _ReadFailed(_error(address, "unreadable", "The file could not be read.", kind=kind)) from None
    if len(data) > MAX_DOCUMENT_BYTES:  # it grew after the size check
        raise _ReadFailed(_too_large(address, kind))
    return data


# --- PDF -----------------------------------------------------------------------


def read_pdf_bytes(data: bytes, *, address: str) -> DocumentRead:
    """Read a PDF held in memory (see :func:`read_pdf`)."""
    if len(data) > MAX_DOCUMENT_BYTES:
        return _too_large(address, "pdf")
    if not data.strip():
        return DocumentRead(address=address, outcome="empty", kind="pdf", error_message="The file is empty.")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                # Many PDFs are "encrypted" with an empty user password only to set permissions.
                opened = reader.decrypt("") != PasswordType.NOT_DECRYPTED
            except Exception:  # noqa: BLE001 - pypdf raises many types for unsupported encryption
                opened = False
            if not opened:
                return _error(
                    address, "encrypted", "The PDF is protected by a password and cannot be read.", kind="pdf"
                )
        page_count = len(reader.pages)
    except Exception:  # noqa: BLE001 - a parser fed untrusted bytes may raise anything
        return _error(address, "corrupt", "The file is not a readable PDF.", kind="pdf")
    if page_count == 0:
        return DocumentRead(
            address=address, outcome="empty", pages=0, kind="pdf", error_message="The PDF has no pages."
        )

    texts: list[str] = []
    total_chars = 0
    failed_pages = 0
    truncated = False
    for index in range(page_count):
        if total_chars >= MAX_TEXT_CHARS:
            truncated = True
            break
        try:
            page_text = reader.pages[index].extract_text() or ""
        except Exception:  # noqa: BLE001 - one damaged page must not lose the others
            failed_pages += 1
            page_text = ""
        texts.append(page_text)
        total_chars += len(page_text) + len(PAGE_SEPARATOR)
    warnings: tuple[str, ...] = ()
    if failed_pages:
        warnings = (f"{failed_pages} of {page_count} pages could not be read.",)
    if failed_pages == page_count:
        return _error(address, "corrupt", "No page of the PDF could be read.", kind="pdf")
    if not any(text.strip() for text in texts):
        return DocumentRead(
            address=address,
            outcome="needs_ocr",
            pages=page_count,
            kind="pdf",
            error_message=NEEDS_OCR_MESSAGE,
            warnings=warnings,
        )
    text, cut = _capped(PAGE_SEPARATOR.join(texts))
    return DocumentRead(
        address=address,
        outcome="read",
        text=text,
        pages=page_count,
        kind="pdf",
        truncated=truncated or cut,
        warnings=warnings,
    )


def read_pdf(path: Path | str, *, address: str | None = None) -> DocumentRead:
    """Text of a PDF file, page by page (pages separated by :data:`PAGE_SEPARATOR`).

    An encrypted PDF is opened when the empty password works, otherwise it is
    an ``encrypted`` error. A PDF without extractable text is ``needs_ocr``
    (nothing is recognised here). Junk is ``corrupt``; a file above
    ``MAX_DOCUMENT_BYTES`` is ``too_large`` and is not read.
    """
    shown = address if address is not None else str(path)
    try:
        data = _read_bounded(Path(path), address=shown, kind="pdf")
    except _ReadFailed as failed:
        return failed.read
    return read_pdf_bytes(data, address=shown)


# --- HTML and plain text -------------------------------------------------------


def read_html(source: Path | bytes, *, address: str | None = None, charset: str | None = None) -> DocumentRead:
    """Title and visible text of an HTML file (a ``Path``) or of HTML bytes.

    ``charset`` is the one declared by the server, if any. Invalid bytes
    never raise: they become U+FFFD. See :mod:`apps.documents.html_text`.
    """
    if isinstance(source, bytes):
        shown = address if address is not None else "<html>"
        if len(source) > MAX_DOCUMENT_BYTES:
            return _too_large(shown, "html")
        data = source
    else:
        shown = address if address is not None else str(source)
        try:
            data = _read_bounded(Path(source), address=shown, kind="html")
        except _ReadFailed as failed:
            return failed.read
    try:
        extracted = html_visible_text(data, declared_charset=charset)
    except Exception:  # noqa: BLE001 - html.parser is lenient, but a read must never raise
        return _error(shown, "corrupt", "The file is not readable HTML.", kind="html")
    if not extracted.text.strip():
        return DocumentRead(
            address=shown,
            outcome="empty",
            kind="html",
            title=extracted.title,
            error_message="The page has no visible text.",
        )
    text, truncated = _capped(extracted.text)
    return DocumentRead(
        address=shown, outcome="read", text=text, kind="html", title=extracted.title, truncated=truncated
    )


def _decode_text(data: bytes) -> tuple[str, tuple[str, ...]]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), ()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), ()
    try:
        return data.decode("utf-8"), ()
    except UnicodeDecodeError:
        # Spreadsheet exports on Windows are often windows-1252, which decodes almost any byte.
        return data.decode("cp1252", errors="replace"), ("The file is not UTF-8; it was read as windows-1252.",)


def read_text(path: Path | str, *, address: str | None = None) -> DocumentRead:
    """A plain-text or CSV file as text (UTF-8, a UTF-16 BOM, or windows-1252 as a fallback)."""
    shown = address if address is not None else str(path)
    try:
        data = _read_bounded(Path(path), address=shown, kind="text")
    except _ReadFailed as failed:
        return failed.read
    text, warnings = _decode_text(data)
    if not text.strip():
        return DocumentRead(address=shown, outcome="empty", kind="text", error_message="The file is empty.")
    text, truncated = _capped(text)
    return DocumentRead(address=shown, outcome="read", text=text, kind="text", truncated=truncated, warnings=warnings)


# --- Any document ----------------------------------------------------------------


def _html_file(path: Path, *, address: str) -> DocumentRead:
    return read_html(path, address=address)


_READERS: dict[DocumentKind, Callable[..., DocumentRead]] = {
    "pdf": read_pdf,
    "html": _html_file,
    "text": read_text,
}


def read_document_file(path: Path, *, address: str, kind: DocumentKind | None = None) -> DocumentRead:
    """Read one file by its extension (:data:`SUFFIX_KINDS`), else by ``kind``; never raises for its content."""
    kind = SUFFIX_KINDS.get(path.suffix.lower(), kind)
    if kind is None:
        try:
            info = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            return _error(address, "not_found", "There is no such file.")
        except OSError:
            return _error(address, "unreadable", "The file could not be examined.")
        if not stat.S_ISREG(info.st_mode):
            return _error(address, "not_a_file", "The address is not a regular file.")
        supported = ", ".join(sorted(SUFFIX_KINDS))
        shown_suffix = path.suffix.lower() or "files without an extension"
        return _error(address, "unsupported_type", f"Reading {shown_suffix} is not supported (supported: {supported}).")
    return _READERS[kind](path, address=address)


def read_documents(*, owner: User, paths: Sequence[str]) -> list[DocumentRead]:
    """Read documents of the owner's files root; one :class:`DocumentRead` per address, in order.

    Each address is relative to the owner's files root (``~/Purchasing/a.pdf``
    or ``Purchasing/a.pdf``) and is checked like
    :func:`apps.documents.files.resolve_owner_path`; a refused address is an
    ``access_refused`` error. Addresses past ``MAX_DOCUMENTS_PER_READ`` are
    ``over_read_limit`` errors. Nothing here raises because of one file.
    """
    if isinstance(paths, str | bytes):
        raise TypeError("paths must be a sequence of addresses, not one string")
    results: list[DocumentRead] = []
    for index, address in enumerate(paths):
        if index >= MAX_DOCUMENTS_PER_READ:
            results.append(
                _error(
                    address,
                    "over_read_limit",
                    f"Only {MAX_DOCUMENTS_PER_READ} documents are read in one request; this one was not read.",
                )
            )
            continue
        results.append(_read_owner_document(owner=owner, address=address))
    return results


def _read_owner_document(*, owner: User, address: str) -> DocumentRead:
    try:
        path = resolve_owner_path(owner=owner, relative_path=address)
    except FileAccessRefused as refused:
        return _error(address, "access_refused", str(refused))
    try:
        return read_document_file(path, address=address)
    except Exception as exc:  # noqa: BLE001 - one bad file never prevents reading the others
        logger.warning("unexpected failure reading a document: %s", type(exc).__name__)
        return _error(address, "unreadable", "The file could not be read.")


__all__ = [
    "NEEDS_OCR_MESSAGE",
    "PAGE_SEPARATOR",
    "SUFFIX_KINDS",
    "DocumentErrorCode",
    "DocumentKind",
    "DocumentOutcome",
    "DocumentRead",
    "read_document_file",
    "read_documents",
    "read_html",
    "read_pdf",
    "read_pdf_bytes",
    "read_text",
]
