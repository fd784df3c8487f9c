"""Reading documents keeps the outcome of every address, errors included."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.accounts.models import User
from apps.documents import readers
from apps.documents.files import owner_files_root
from apps.documents.limits import MAX_DOCUMENT_BYTES, MAX_DOCUMENTS_PER_READ
from apps.documents.readers import (
    NEEDS_OCR_MESSAGE,
    PAGE_SEPARATOR,
    read_documents,
    read_html,
    read_pdf,
    read_pdf_bytes,
    read_text,
)
from tests.documents.pdfs import encrypted_pdf, pdf_with_text

TEN_MEGABYTES = 10 * 1024 * 1024


def junk(size: int, seed: int = 7) -> bytes:
    return random.Random(seed).randbytes(size)


def write(path: Path, content: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


# --- PDF -----------------------------------------------------------------------


def test_pdf_text_is_read_page_by_page(tmp_path: Path) -> None:
    path = write(tmp_path / "INV-001.pdf", pdf_with_text("Fattura INV-2026-001\nImporto: 120,50 €", "Second page"))

    read = read_pdf(path)

    assert read.outcome == "read"
    assert read.pages == 2
    assert read.error_code is None
    first, second = read.text.split(PAGE_SEPARATOR)
    assert "Fattura INV-2026-001" in first
    assert "Importo: 120,50 €" in first
    assert "Second page" in second


def test_pdf_without_text_needs_ocr_and_says_it_was_not_run(tmp_path: Path) -> None:
    path = write(tmp_path / "scan.pdf", pdf_with_text("", ""))

    read = read_pdf(path)

    assert read.outcome == "needs_ocr"
    assert read.pages == 2
    assert read.text == ""
    assert read.error_message == NEEDS_OCR_MESSAGE
    assert "optical character recognition" in read.error_message
    assert "has not been run" in read.error_message


def test_encrypted_pdf_with_a_password_is_an_encrypted_error(tmp_path: Path) -> None:
    path = write(tmp_path / "locked.pdf", encrypted_pdf(pdf_with_text("secret total 99"), user_password="s3cret"))

    read = read_pdf(path)

    assert read.outcome == "error"
    assert read.error_code == "encrypted"
    assert "password" in (read.error_message or "")
    assert read.text == ""


def test_encrypted_pdf_that_opens_with_an_empty_password_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "permissions.pdf", encrypted_pdf(pdf_with_text("Totale 42,00"), user_password=""))

    read = read_pdf(path)

    assert read.outcome == "read"
    assert "Totale 42,00" in read.text


def test_binary_junk_named_pdf_is_corrupt(tmp_path: Path) -> None:
    read = read_pdf(write(tmp_path / "junk.pdf", junk(4096)))
    assert (read.outcome, read.error_code) == ("error", "corrupt")


def test_pdf_header_followed_by_junk_is_corrupt(tmp_path: Path) -> None:
    read = read_pdf(write(tmp_path / "broken.pdf", b"%PDF-1.7\n" + junk(2048)))
    assert (read.outcome, read.error_code) == ("error", "corrupt")


def test_empty_pdf_file_is_empty(tmp_path: Path) -> None:
    read = read_pdf(write(tmp_path / "empty.pdf", b""))
    assert read.outcome == "empty"
    assert read.error_message


def test_ten_megabyte_pdf_within_the_limit_is_read(tmp_path: Path) -> None:
    content = pdf_with_text("Big invoice INV-10MB", padding_bytes=TEN_MEGABYTES)
    assert TEN_MEGABYTES < len(content) <= MAX_DOCUMENT_BYTES

    read = read_pdf(write(tmp_path / "big.pdf", content))

    assert read.outcome == "read"
    assert "Big invoice INV-10MB" in read.text


def test_ten_megabyte_junk_named_pdf_is_corrupt_without_crashing(tmp_path: Path) -> None:
    read = read_pdf(write(tmp_path / "big-junk.pdf", b"%PDF-1.4\n" + junk(TEN_MEGABYTES)))
    assert (read.outcome, read.error_code) == ("error", "corrupt")


def test_pdf_above_the_limit_is_too_large_and_never_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse_to_parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a too large PDF must not be parsed")

    monkeypatch.setattr("apps.documents.readers.PdfReader", refuse_to_parse)
    path = tmp_path / "huge.pdf"
    with path.open("wb") as handle:  # sparse: large on paper, cheap on disk
        handle.write(b"%PDF-1.4\n")
        handle.truncate(MAX_DOCUMENT_BYTES + 1)

    read = read_pdf(path)

    assert (read.outcome, read.error_code) == ("error", "too_large")
    assert read_pdf_bytes(b"x" * (MAX_DOCUMENT_BYTES + 1), address="memory").error_code == "too_large"


def test_pdf_text_beyond_the_text_limit_is_cut_and_says_truncated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("apps.documents.readers.MAX_TEXT_CHARS", 30)
    path = write(tmp_path / "long.pdf", pdf_with_text("A" * 25, "B" * 25, "C" * 25))

    read = read_pdf(path)

    assert read.outcome == "read"
    assert read.truncated is True
    assert len(read.text) <= 30
    assert read.pages == 3


# --- HTML ------------------------------------------------------------------------


def test_html_keeps_visible_text_with_block_lines_and_title() -> None:
    html = b"""<!doctype html><html><head><title> Bolletta  luglio </title>
    <style>body { color: red }</style><script>var token = "abc";</script></head>
    <body><h1>Invoice INV-7</h1><p>Amount due:<br>120,50&nbsp;&euro;</p>
    <noscript>Enable JavaScript</noscript><template><p>hidden template</p></template>
    <table><tr><th>Number</th><th>Status</th></tr><tr><td>INV-7</td><td>Paid</td></tr></table>
    <div>Last <b>line</b></div></body></html>"""

    read = read_html(html, address="https://example.org/bills")

    assert read.outcome == "read"
    assert read.title == "Bolletta luglio"
    assert read.text.split("\n") == [
        "Invoice INV-7",
        "Amount due:",
        "120,50 €",
        "Number\tStatus",
        "INV-7\tPaid",
        "Last line",
    ]
    for hidden in ("color: red", "token", "Enable JavaScript", "hidden template", "Bolletta"):
        assert hidden not in read.text


def test_invalid_utf8_html_is_read_without_crashing(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.html", b"<p>Import\xff\xfe: 12\xc3</p><p>Totale \xe2\x82</p>")

    read = read_html(path)

    assert read.outcome == "read"
    assert "\ufffd" in read.text
    assert "Totale" in read.text


def test_html_declared_charset_is_used() -> None:
    html = '<meta charset="windows-1252"><p>Totale 10 € \u2013 città</p>'.encode("cp1252")
    assert read_html(html).text == "Totale 10 € \u2013 città"
    html = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>perché</p>'.encode("latin-1")
    assert read_html(html).text == "perché"
    assert read_html("<p>€</p>".encode("cp1252"), charset="windows-1252").text == "€"


@pytest.mark.parametrize("charset", ["base64", "zlib", "rot13", "no-such-charset", "utf-16", "idna"])
def test_html_with_a_bogus_declared_charset_falls_back_to_utf8(charset: str) -> None:
    html = f'<meta charset="{charset}"><p>città</p>'.encode()
    assert read_html(html).text == "città"
    assert read_html(html, charset=charset).text == "città"


def test_html_without_visible_text_is_empty() -> None:
    read = read_html(b"<html><head><title>t</title><script>x()</script></head><body> </body></html>")
    assert read.outcome == "empty"
    assert read.title == "t"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2048))
def test_html_reading_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    read = read_html(b"<html><body>" + data, address="fuzz")
    assert read.outcome in ("read", "empty")


# --- Plain text and CSV ----------------------------------------------------------


def test_csv_is_read_as_text(tmp_path: Path) -> None:
    read = read_text(write(tmp_path / "bills.csv", b"number;amount\nINV-1;12,50\n"))
    assert read.outcome == "read"
    assert read.text == "number;amount\nINV-1;12,50\n"


def test_text_that_is_not_utf8_is_read_as_windows_1252_with_a_warning(tmp_path: Path) -> None:
    read = read_text(write(tmp_path / "export.txt", "Totale 10 € città".encode("cp1252")))
    assert read.text == "Totale 10 € città"
    assert read.warnings


# --- Many addresses --------------------------------------------------------------


@pytest.mark.django_db
def test_every_address_keeps_its_outcome_and_bad_files_do_not_stop_the_others(owner: User, tmp_path: Path) -> None:
    root = owner_files_root(owner=owner)
    write(root / "Purchasing" / "good.pdf", pdf_with_text("INV-1 total 10,00"))
    write(root / "Purchasing" / "junk.pdf", junk(1024))
    write(root / "Purchasing" / "scan.pdf", pdf_with_text(""))
    write(root / "Purchasing" / "locked.pdf", encrypted_pdf(pdf_with_text("x"), user_password="pw"))
    write(root / "Purchasing" / "page.html", b"<p>Bill \xff ok</p>")
    write(root / "Purchasing" / "report.docx", b"PK\x03\x04")
    write(root / "Purchasing" / "notes.txt", b"plain notes")
    write(tmp_path / "outside.pdf", pdf_with_text("outside secret"))
    (root / "Purchasing" / "link.pdf").symlink_to(tmp_path / "outside.pdf")
    addresses = [
        "~/Purchasing/good.pdf",
        "Purchasing/junk.pdf",
        "Purchasing/scan.pdf",
        "Purchasing/locked.pdf",
        "Purchasing/missing.pdf",
        "../../etc/passwd",
        "/etc/passwd",
        "Purchasing/link.pdf",
        "Purchasing",
        "Purchasing/report.docx",
        "Purchasing/page.html",
        "Purchasing/notes.txt",
    ]

    reads = read_documents(owner=owner, paths=addresses)

    assert [read.address for read in reads] == addresses
    assert [(read.outcome, read.error_code) for read in reads] == [
        ("read", None),
        ("error", "corrupt"),
        ("needs_ocr", None),
        ("error", "encrypted"),
        ("error", "not_found"),
        ("error", "access_refused"),
        ("error", "access_refused"),
        ("error", "access_refused"),
        ("error", "not_a_file"),
        ("error", "unsupported_type"),
        ("read", None),
        ("read", None),
    ]
    assert "INV-1 total 10,00" in reads[0].text
    assert all("outside secret" not in read.text for read in reads)
    assert all(read.error_message for read in reads if read.outcome != "read")


@pytest.mark.django_db
def test_a_folder_with_a_document_suffix_is_not_a_file(owner: User) -> None:
    (owner_files_root(owner=owner) / "folder.pdf").mkdir()
    [read] = read_documents(owner=owner, paths=["folder.pdf"])
    assert (read.outcome, read.error_code) == ("error", "not_a_file")


@pytest.mark.django_db
def test_a_named_pipe_is_refused_without_hanging(owner: User) -> None:
    os.mkfifo(owner_files_root(owner=owner) / "pipe.txt")
    [read] = read_documents(owner=owner, paths=["pipe.txt"])
    assert (read.outcome, read.error_code) == ("error", "not_a_file")


@pytest.mark.django_db
def test_an_unexpected_failure_on_one_file_keeps_the_others(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    root = owner_files_root(owner=owner)
    write(root / "a.txt", b"first")
    write(root / "b.html", b"<p>second</p>")
    write(root / "c.txt", b"third")

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setitem(readers._READERS, "html", explode)

    reads = read_documents(owner=owner, paths=["a.txt", "b.html", "c.txt"])

    assert [(read.outcome, read.error_code) for read in reads] == [
        ("read", None),
        ("error", "unreadable"),
        ("read", None),
    ]
    assert "boom" not in (reads[1].error_message or "")


@pytest.mark.django_db
def test_addresses_past_the_read_limit_get_an_error_each(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("apps.documents.readers.MAX_DOCUMENTS_PER_READ", 2)
    write(owner_files_root(owner=owner) / "a.txt", b"a")

    reads = read_documents(owner=owner, paths=["a.txt", "a.txt", "a.txt"])

    assert [read.outcome for read in reads] == ["read", "read", "error"]
    assert reads[2].error_code == "over_read_limit"
    assert MAX_DOCUMENTS_PER_READ >= 2


@pytest.mark.django_db
def test_one_string_instead_of_a_list_of_addresses_is_a_type_error(owner: User) -> None:
    with pytest.raises(TypeError):
        read_documents(owner=owner, paths="Purchasing/a.pdf")
