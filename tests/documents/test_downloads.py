"""Stored downloads: per-owner folders, declared limits, nothing written half."""

from __future__ import annotations

import hashlib
import io
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.accounts.models import User
from apps.core.tenancy import OwnedObjectNotFound
from apps.documents.downloads import (
    DownloadFileMissing,
    DownloadLimitExceeded,
    clean_content_type,
    clean_source_origin,
    download_delete,
    download_file_path,
    download_read,
    download_store,
    sanitize_download_name,
)
from apps.documents.files import owner_downloads_root
from apps.documents.limits import MAX_DOWNLOAD_NAME_BYTES
from apps.documents.models import StoredDownload
from apps.documents.selectors import download_get_for_owner, download_list
from tests.documents.pdfs import pdf_with_text

pytestmark = pytest.mark.django_db


def folder_entries(owner: User) -> list[str]:
    return sorted(path.name for path in owner_downloads_root(owner=owner).iterdir())


def chunks(*parts: bytes, then: Exception | None = None) -> Iterator[bytes]:
    yield from parts
    if then is not None:
        raise then


def test_store_writes_the_file_and_its_row(owner: User, document_roots: dict[str, Path]) -> None:
    content = pdf_with_text("INV-1")

    download = download_store(
        owner=owner,
        name="INV-1.pdf",
        content=content,
        content_type="application/pdf; qs=0.9",
        source_origin="https://portal.example.com/invoices/1?token=SECRET",
    )

    path = document_roots["downloads"] / str(owner.pk) / "INV-1.pdf"
    assert path.read_bytes() == content
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert download.owner == owner
    assert download.original_name == download.stored_name == "INV-1.pdf"
    assert download.size == len(content)
    assert download.sha256 == hashlib.sha256(content).hexdigest()
    assert download.content_type == "application/pdf"
    assert download.source_origin == "https://portal.example.com"
    assert "SECRET" not in str(StoredDownload.objects.filter(pk=download.pk).values().get())
    assert download_file_path(download=download) == path.resolve()


@pytest.mark.parametrize(
    "content_factory",
    [
        lambda data: io.BytesIO(data),
        lambda data: chunks(data[:10], data[10:]),
        lambda data: bytearray(data),
        lambda data: memoryview(data),
    ],
    ids=["stream", "chunks", "bytearray", "memoryview"],
)
def test_store_accepts_streams_and_chunks(owner: User, content_factory: Callable[[bytes], Any]) -> None:
    data = b"0123456789" * 10_000
    download = download_store(owner=owner, name="data.csv", content=content_factory(data), content_type="text/csv")
    assert download_file_path(download=download).read_bytes() == data
    assert download.sha256 == hashlib.sha256(data).hexdigest()


def test_text_stream_is_refused_and_leaves_nothing(owner: User) -> None:
    with pytest.raises(TypeError):
        download_store(owner=owner, name="a.txt", content=io.StringIO("text"), content_type="text/plain")  # type: ignore[arg-type]
    assert folder_entries(owner) == []
    assert not StoredDownload.objects.exists()


@pytest.mark.parametrize(
    ("given", "content_type", "expected"),
    [
        ("../../etc/passwd", "", "passwd"),
        ("..\\..\\boot.ini", "", "boot.ini"),
        ("invoices/2026/INV-7.pdf", "", "INV-7.pdf"),
        (".bashrc", "", "bashrc"),
        ("...hidden.pdf", "", "hidden.pdf"),
        ("inv\x00oi\nce\t.pdf", "", "invoice.pdf"),
        ("invoice\u202efdp.exe", "", "invoicefdp.exe"),
        ('a<b>:c?|*"d.pdf', "", "a_b__c____d.pdf"),
        ("  spaced   out  .pdf ", "", "spaced out.pdf"),
        ("", "application/pdf", "download.pdf"),
        ("..", "", "download"),
        ("/", "text/html", "download.html"),
        ("report", "text/csv", "report.csv"),
        ("report", "application/octet-stream", "report"),
        ("CON.txt", "", "_CON.txt"),
        ("trailing dots...", "", "trailing dots"),
    ],
)
def test_names_are_sanitised(given: str, content_type: str, expected: str) -> None:
    assert sanitize_download_name(given, content_type=content_type) == expected


def test_long_names_are_bounded_and_keep_their_extension() -> None:
    name = sanitize_download_name("fattura-" + "è" * 400 + ".pdf")
    assert len(name.encode()) <= MAX_DOWNLOAD_NAME_BYTES
    assert name.endswith(".pdf")
    assert name.startswith("fattura-è")


def test_stored_names_are_sanitised_and_de_duplicated(owner: User) -> None:
    first = download_store(owner=owner, name="../INV 1.pdf", content=b"1", content_type="application/pdf")
    second = download_store(owner=owner, name="INV 1.pdf", content=b"2", content_type="application/pdf")
    third = download_store(owner=owner, name="sub/INV 1.pdf", content=b"3", content_type="application/pdf")

    assert [first.stored_name, second.stored_name, third.stored_name] == ["INV 1.pdf", "INV 1 (2).pdf", "INV 1 (3).pdf"]
    assert {download.original_name for download in (first, second, third)} == {"INV 1.pdf"}
    assert folder_entries(owner) == ["INV 1 (2).pdf", "INV 1 (3).pdf", "INV 1.pdf"]
    assert download_file_path(download=second).read_bytes() == b"2"


def test_an_unrelated_file_of_the_same_name_is_never_replaced(owner: User) -> None:
    existing = owner_downloads_root(owner=owner) / "INV.pdf"
    existing.write_bytes(b"keep me")

    download = download_store(owner=owner, name="INV.pdf", content=b"new", content_type="application/pdf")

    assert download.stored_name == "INV (2).pdf"
    assert existing.read_bytes() == b"keep me"


def test_same_name_for_two_owners_goes_to_separate_folders(owner: User, second_user: User) -> None:
    mine = download_store(owner=owner, name="INV.pdf", content=b"mine", content_type="application/pdf")
    theirs = download_store(owner=second_user, name="INV.pdf", content=b"theirs", content_type="application/pdf")
    assert mine.stored_name == theirs.stored_name == "INV.pdf"
    assert download_file_path(download=mine).read_bytes() == b"mine"
    assert download_file_path(download=theirs).read_bytes() == b"theirs"


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://user:password@Bank.Example.com:443/inv?token=abc#frag", "https://bank.example.com"),
        ("http://example.com:8080/a/b?c=d", "http://example.com:8080"),
        ("https://[2001:db8::1]:8443/x", "https://[2001:db8::1]:8443"),
        ("javascript:alert(1)", ""),
        ("ftp://files.example.com/a", ""),
        ("data:text/html,hi", ""),
        ("not a url", ""),
        ("https://example.com:99999/", ""),
        ("", ""),
    ],
)
def test_source_keeps_only_scheme_and_host(url: str, origin: str) -> None:
    assert clean_source_origin(url) == origin


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("application/PDF", "application/pdf"),
        ("text/html; charset=utf-8", "text/html"),
        ("", "application/octet-stream"),
        ("text/html\r\nX-Evil: 1", "application/octet-stream"),
        ("nonsense", "application/octet-stream"),
    ],
)
def test_content_types_are_cleaned(given: str, expected: str) -> None:
    assert clean_content_type(given) == expected


# --- Limits: typed errors, nothing written half -------------------------------------


def test_file_above_the_limit_is_refused_before_writing(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("apps.documents.downloads.MAX_DOWNLOAD_BYTES", 100)

    with pytest.raises(DownloadLimitExceeded) as exceeded:
        download_store(owner=owner, name="big.pdf", content=b"x" * 101, content_type="application/pdf")

    assert exceeded.value.limit == "file_bytes"
    assert exceeded.value.maximum == 100
    assert folder_entries(owner) == []
    assert not StoredDownload.objects.exists()


def test_stream_crossing_the_file_limit_leaves_no_partial_file(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("apps.documents.downloads.MAX_DOWNLOAD_BYTES", 100)
    seen_partial: list[list[str]] = []

    def stream() -> Iterator[bytes]:
        yield b"x" * 60
        seen_partial.append(folder_entries(owner))  # the temporary file exists mid-stream
        yield b"x" * 60
        raise AssertionError("the stream must not be read past the limit")

    with pytest.raises(DownloadLimitExceeded) as exceeded:
        download_store(owner=owner, name="big.pdf", content=stream(), content_type="application/pdf")

    assert exceeded.value.limit == "file_bytes"
    assert len(seen_partial[0]) == 1
    assert seen_partial[0][0].startswith(".part-")
    assert folder_entries(owner) == []
    assert not StoredDownload.objects.exists()


def test_a_stream_failing_mid_way_leaves_no_file_and_no_row(owner: User) -> None:
    with pytest.raises(ConnectionResetError):
        download_store(
            owner=owner,
            name="cut.pdf",
            content=chunks(b"%PDF-1.4 first half", then=ConnectionResetError("peer went away")),
            content_type="application/pdf",
        )
    assert folder_entries(owner) == []
    assert not StoredDownload.objects.exists()


def test_a_row_that_cannot_be_saved_leaves_no_file(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    def invalid(self: StoredDownload, *args: Any, **kwargs: Any) -> None:
        raise ValidationError("invalid")

    monkeypatch.setattr(StoredDownload, "full_clean", invalid)

    with pytest.raises(ValidationError):
        download_store(owner=owner, name="a.pdf", content=b"data", content_type="application/pdf")

    assert folder_entries(owner) == []
    assert not StoredDownload.objects.exists()


def test_owner_count_limit_is_enforced_per_owner(
    owner: User, second_user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("apps.documents.downloads.MAX_DOWNLOADS_PER_OWNER", 2)
    for number in range(2):
        download_store(owner=owner, name=f"{number}.txt", content=b"x", content_type="text/plain")

    with pytest.raises(DownloadLimitExceeded) as exceeded:
        download_store(owner=owner, name="third.txt", content=b"x", content_type="text/plain")

    assert (exceeded.value.limit, exceeded.value.maximum) == ("owner_count", 2)
    assert folder_entries(owner) == ["0.txt", "1.txt"]
    assert download_list(owner=owner).count() == 2
    download_store(owner=second_user, name="theirs.txt", content=b"x", content_type="text/plain")


def test_owner_byte_limit_stops_a_stream_and_leaves_nothing(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("apps.documents.downloads.MAX_DOWNLOAD_BYTES_PER_OWNER", 100)
    download_store(owner=owner, name="first.txt", content=b"x" * 80, content_type="text/plain")

    with pytest.raises(DownloadLimitExceeded) as exceeded:
        download_store(owner=owner, name="second.txt", content=chunks(b"y" * 15, b"y" * 15), content_type="text/plain")

    assert (exceeded.value.limit, exceeded.value.maximum) == ("owner_bytes", 100)
    assert "100" in str(exceeded.value)
    assert folder_entries(owner) == ["first.txt"]
    assert download_list(owner=owner).count() == 1


def test_owner_limits_are_checked_again_when_the_row_is_written(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store that passed the early check still fails if the limit was reached meanwhile."""
    monkeypatch.setattr("apps.documents.downloads.MAX_DOWNLOADS_PER_OWNER", 1)

    def stream() -> Iterator[bytes]:
        yield b"late"
        # Another store for the same owner completes while this one is streaming.
        StoredDownload.objects.create(
            owner=owner, original_name="x", stored_name="x", size=1, sha256="0" * 64, content_type="text/plain"
        )

    with pytest.raises(DownloadLimitExceeded) as exceeded:
        download_store(owner=owner, name="late.txt", content=stream(), content_type="text/plain")

    assert exceeded.value.limit == "owner_count"
    assert folder_entries(owner) == []
    assert list(download_list(owner=owner).values_list("stored_name", flat=True)) == ["x"]


# --- Reading, deleting, selectors ---------------------------------------------------


def test_a_stored_pdf_is_returned_for_reading(owner: User) -> None:
    download = download_store(
        owner=owner, name="bill", content=pdf_with_text("Bill INV-9"), content_type="application/pdf"
    )
    read = download_read(download=download)
    assert download.stored_name == "bill.pdf"
    assert read.outcome == "read"
    assert "Bill INV-9" in read.text


def test_deleting_a_download_removes_its_file(owner: User, django_capture_on_commit_callbacks: Any) -> None:
    download = download_store(owner=owner, name="a.pdf", content=b"data", content_type="application/pdf")
    path = download_file_path(download=download)

    with django_capture_on_commit_callbacks(execute=True):
        download_delete(download=download)

    assert not path.exists()
    assert not StoredDownload.objects.exists()


def test_a_tampered_stored_name_never_leads_outside_the_folder(owner: User, document_roots: dict[str, Path]) -> None:
    (document_roots["downloads"] / "victim.txt").parent.mkdir(parents=True, exist_ok=True)
    (document_roots["downloads"] / "victim.txt").write_bytes(b"other data")
    download = download_store(owner=owner, name="a.txt", content=b"mine", content_type="text/plain")
    for bad_name in ("../victim.txt", "/etc/passwd", ".part-x", ""):
        download.stored_name = bad_name
        with pytest.raises(DownloadFileMissing):
            download_file_path(download=download)


def test_a_stored_file_replaced_by_a_link_is_not_served(owner: User, tmp_path: Path) -> None:
    download = download_store(owner=owner, name="a.txt", content=b"mine", content_type="text/plain")
    path = download_file_path(download=download)
    path.unlink()
    (tmp_path / "secret.txt").write_bytes(b"secret")
    path.symlink_to(tmp_path / "secret.txt")

    with pytest.raises(DownloadFileMissing):
        download_file_path(download=download)


def test_selector_answers_404_for_another_owners_download(owner: User, second_user: User) -> None:
    download = download_store(owner=owner, name="a.txt", content=b"x", content_type="text/plain")

    assert download_get_for_owner(owner=owner, download_id=download.pk) == download
    with pytest.raises(OwnedObjectNotFound):
        download_get_for_owner(owner=second_user, download_id=download.pk)
    assert not download_list(owner=second_user).exists()
