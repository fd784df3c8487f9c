"""Small real PDFs built by hand for the reader tests (no PDF-writing dependency).

``pdf_with_text`` writes a valid PDF 1.4 file: a catalog, a page tree, the
standard Helvetica font and one content stream per page, with a correct
cross-reference table. pypdf extracts its text like any other PDF's.
"""

from __future__ import annotations

import io
import secrets

from pypdf import PdfWriter


def _escape(text: str) -> bytes:
    encoded = text.encode("cp1252")
    return encoded.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _content_stream(text: str) -> bytes:
    if not text:
        return b""
    lines = [b"BT", b"/F1 12 Tf", b"14 TL", b"72 720 Td"]
    for line in text.split("\n"):
        lines.append(b"(" + _escape(line) + b") Tj T*")
    lines.append(b"ET")
    return b"\n".join(lines)


def _stream_object(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def pdf_with_text(*pages: str, padding_bytes: int = 0) -> bytes:
    """A PDF whose pages show ``pages`` (``""`` is a page without text).

    ``padding_bytes`` adds an unreferenced stream of that size, to make a
    large but valid file.
    """
    page_count = len(pages)
    page_ids = [4 + 2 * index for index in range(page_count)]
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % pid for pid in page_ids), page_count),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for page_id, text in zip(page_ids, pages, strict=True):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (page_id + 1)
        )
        objects.append(_stream_object(_content_stream(text)))
    if padding_bytes:
        objects.append(_stream_object(b"0" * padding_bytes))

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 %d\n" % (len(objects) + 1)
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref_at)
    return bytes(out)


def encrypted_pdf(source: bytes, *, user_password: str) -> bytes:
    """``source`` encrypted with AES-256 by pypdf; an empty user password opens without one."""
    writer = PdfWriter(clone_from=io.BytesIO(source))
    writer.encrypt(user_password=user_password, owner_password=secrets.token_hex(8), algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
