"""The downloads REST API: owner-scoped rows and the file as an attachment."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.documents.downloads import download_file_path, download_store
from apps.documents.models import StoredDownload
from tests.conftest import Cast, api_client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def download(owner: User) -> StoredDownload:
    return download_store(
        owner=owner,
        name="INV 7.pdf",
        content=b"%PDF-1.4 invoice bytes",
        content_type="application/pdf",
        source_origin="https://bills.example.com/d?token=t0k",
    )


def test_owner_lists_and_reads_their_downloads(owner: User, second_user: User, download: StoredDownload) -> None:
    download_store(owner=second_user, name="theirs.pdf", content=b"x", content_type="application/pdf")
    client = api_client_for(owner)

    listed = client.get("/api/v1/downloads/").json()
    detail = client.get(f"/api/v1/downloads/{download.pk}/").json()

    assert [item["id"] for item in listed["results"]] == [download.pk]
    assert detail == {
        "id": download.pk,
        "original_name": "INV 7.pdf",
        "stored_name": "INV 7.pdf",
        "size": 22,
        "sha256": download.sha256,
        "content_type": "application/pdf",
        "source_origin": "https://bills.example.com",
        "created_at": detail["created_at"],
    }


def test_content_is_an_attachment_that_browsers_must_not_sniff(owner: User, download: StoredDownload) -> None:
    response = api_client_for(owner).get(f"/api/v1/downloads/{download.pk}/content/")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"%PDF-1.4 invoice bytes"  # type: ignore[attr-defined]
    assert response["Content-Disposition"] == 'attachment; filename="INV 7.pdf"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Type"] == "application/pdf"
    assert "sandbox" in response["Content-Security-Policy"]


def test_html_download_is_still_only_an_attachment(owner: User) -> None:
    page = download_store(owner=owner, name="page.html", content=b"<script>alert(1)</script>", content_type="text/html")
    response = api_client_for(owner).get(f"/api/v1/downloads/{page.pk}/content/")
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("suffix", ["", "content/"])
def test_other_owner_gets_404(second_user: User, download: StoredDownload, suffix: str) -> None:
    intruder = api_client_for(second_user)

    foreign = intruder.get(f"/api/v1/downloads/{download.pk}/{suffix}")
    missing = intruder.get(f"/api/v1/downloads/{download.pk + 1000}/{suffix}")

    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == missing.json()
    assert foreign.json()["error"]["code"] == "not_found"


def test_other_owner_cannot_delete_the_download_or_its_file(second_user: User, download: StoredDownload) -> None:
    response = api_client_for(second_user).delete(f"/api/v1/downloads/{download.pk}/")

    assert response.status_code == 404
    assert StoredDownload.objects.filter(pk=download.pk).exists()
    assert download_file_path(download=download).exists()


def test_owner_deletes_a_download_and_its_file(
    owner: User, download: StoredDownload, django_capture_on_commit_callbacks: Any
) -> None:
    path = download_file_path(download=download)

    with django_capture_on_commit_callbacks(execute=True):
        response = api_client_for(owner).delete(f"/api/v1/downloads/{download.pk}/")

    assert response.status_code == 204
    assert not StoredDownload.objects.filter(pk=download.pk).exists()
    assert not path.exists()


def test_downloads_are_not_created_over_rest(owner: User) -> None:
    response = api_client_for(owner).post("/api/v1/downloads/", {"original_name": "x.pdf"}, format="json")
    assert response.status_code == 405
    assert not StoredDownload.objects.exists()


def test_missing_file_is_a_typed_410(owner: User, download: StoredDownload) -> None:
    download_file_path(download=download).unlink()

    response = api_client_for(owner).get(f"/api/v1/downloads/{download.pk}/content/")

    assert response.status_code == 410
    assert response.json()["error"]["code"] == "download_file_missing"


@pytest.mark.parametrize("suffix", ["", "{pk}/", "{pk}/content/"])
def test_outsider_is_denied(outsider: APIClient, download: StoredDownload, suffix: str) -> None:
    response = outsider.get("/api/v1/downloads/" + suffix.format(pk=download.pk))
    assert response.status_code in (401, 403)


def test_operator_sees_download_metadata_but_not_names_or_content(
    cast: Cast, client: Client, download: StoredDownload
) -> None:
    client.force_login(cast.operator)
    base = f"/{settings.ADMIN_PATH}documents/storeddownload/"

    changelist = client.get(base)
    change = client.get(f"{base}{download.pk}/change/")

    assert changelist.status_code == change.status_code == 200
    for page in (changelist, change):
        assert b"application/pdf" in page.content
        assert b"INV 7" not in page.content
        assert b"invoice bytes" not in page.content
    assert b"Save" not in change.content
