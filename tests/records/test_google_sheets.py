"""Google Sheets appends: RAW input, protected active text, explicit credentials.

Every test runs on googleapiclient's own HTTP test transport
(``HttpMockSequence``) with the discovery document bundled in the library:
no request leaves the process, and each request is asserted exactly.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from google.oauth2.credentials import Credentials
from googleapiclient.http import HttpMockSequence

from apps.records.rows import Row
from apps.records.sheets.google import append_rows_to_google_sheet
from apps.records.sheets.receipts import SheetWriteError

SPREADSHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz"
APPEND_URI = (
    f"https://sheets.googleapis.com/v4/spreadsheets/{SPREADSHEET_ID}/values/Fatture%21A1:append"
    "?valueInputOption=RAW&insertDataOption=INSERT_ROWS&alt=json"
)
ROWS: list[Row] = [
    {
        "Numero": "INV-20-005",
        "Importo": Decimal("-12.50"),
        "Descrizione": "=cmd|' /C calc'!A0",
        "Emessa": dt.date(2026, 9, 15),
        "Pagata": True,
        "Contatto": "mario@example.org",
        "Note": None,
    },
    {
        "Numero": "INV-200-05",
        "Importo": Decimal("40"),
        "Descrizione": "+39 06 1234567",
        "Emessa": dt.datetime(2026, 9, 15, 10, 30, tzinfo=dt.UTC),
        "Pagata": False,
        "Contatto": "@fornitore",
        "Note": "Merged with read 2",
    },
]


def ok(updated_rows: int, updated_range: str = "Fatture!A1:G3") -> tuple[dict[str, str], str]:
    body = {
        "spreadsheetId": SPREADSHEET_ID,
        "tableRange": "Fatture!A1:G1",
        "updates": {"spreadsheetId": SPREADSHEET_ID, "updatedRange": updated_range, "updatedRows": updated_rows},
    }
    return {"status": "200", "content-type": "application/json"}, json.dumps(body)


def credentials() -> Credentials:
    # A token without expiry is valid as is: nothing is refreshed, nothing is fetched.
    return Credentials(token="test-token")


def append(http: HttpMockSequence, rows: list[Row] = ROWS, **kwargs: Any) -> Any:
    return append_rows_to_google_sheet(
        credentials=credentials(),
        spreadsheet_id=SPREADSHEET_ID,
        sheet_range="Fatture!A1",
        rows=rows,
        http=http,
        **kwargs,
    )


def test_append_sends_exactly_one_raw_insert_rows_request_with_protected_values() -> None:
    http = HttpMockSequence([ok(3)])
    append(http)
    assert len(http.request_sequence) == 1
    uri, method, body, headers = http.request_sequence[0]
    assert method == "POST"
    assert uri == APPEND_URI
    assert headers["authorization"] == "Bearer test-token"
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {
        "majorDimension": "ROWS",
        "values": [
            ["Numero", "Importo", "Descrizione", "Emessa", "Pagata", "Contatto", "Note"],
            ["INV-20-005", -12.5, "'=cmd|' /C calc'!A0", "2026-09-15", True, "mario@example.org", ""],
            [
                "INV-200-05",
                40,
                "'+39 06 1234567",
                "2026-09-15T10:30:00+00:00",
                False,
                "'@fornitore",
                "Merged with read 2",
            ],
        ],
    }


def test_receipt_counts_protected_cells_and_says_the_apostrophe_is_visible() -> None:
    receipt = append(HttpMockSequence([ok(3)]))
    assert receipt.format == "google_sheets"
    assert receipt.rows_written == 2
    assert receipt.protected_cells == 3
    assert receipt.location == "Fatture!A1:G3"
    assert receipt.path == f"https://docs.google.com/spreadsheets/d/{SPREADSHEET_ID}"
    assert receipt.message() == (
        f"Wrote 2 rows to the Google Sheet https://docs.google.com/spreadsheets/d/{SPREADSHEET_ID} "
        "(Fatture!A1:G3). 3 cells starting with =, +, -, @, | or % were protected with a leading apostrophe, "
        "which stays visible in the sheet."
    )


def test_pipe_and_percent_at_the_start_are_protected_and_counted() -> None:
    http = HttpMockSequence([ok(2)])
    receipt = append(http, [{"a": "|cmd", "b": "%cmd", "c": "a|b", "d": "50%"}], write_header=False)
    assert json.loads(http.request_sequence[0][2])["values"] == [["'|cmd", "'%cmd", "a|b", "50%"]]
    assert receipt.protected_cells == 2


def test_without_header_only_the_rows_are_sent() -> None:
    http = HttpMockSequence([ok(1, "Fatture!A7:B7")])
    receipt = append(http, [{"a": "x", "b": 1}], write_header=False)
    assert json.loads(http.request_sequence[0][2]) == {"majorDimension": "ROWS", "values": [["x", 1]]}
    assert receipt.notices == ()


def test_headings_choose_and_protect_the_columns() -> None:
    http = HttpMockSequence([ok(2)])
    receipt = append(
        http,
        [{"numero": "A1", "importo": Decimal("5.25")}],
        headings=["Numero", "=Importo"],
        bindings={"=Importo": "importo"},
    )
    assert json.loads(http.request_sequence[0][2])["values"] == [["Numero", "'=Importo"], ["A1", 5.25]]
    assert receipt.protected_cells == 1


def test_control_characters_and_lone_surrogates_are_cleaned_and_counted() -> None:
    http = HttpMockSequence([ok(2)])
    receipt = append(http, [{"a": "bell\x07", "b": "half \ud800", "c": "tab\tand\nline"}])
    assert json.loads(http.request_sequence[0][2])["values"][1] == ["bell", "half \ufffd", "tab\tand\nline"]
    assert receipt.cleaned_cells == 2


def test_long_integers_are_sent_as_text_with_a_notice() -> None:
    http = HttpMockSequence([ok(2)])
    receipt = append(http, [{"a": 2**53 + 1, "b": Decimal(2**60)}])
    assert json.loads(http.request_sequence[0][2])["values"][1] == [str(2**53 + 1), float(2**60)]
    assert len(receipt.notices) == 1


def test_no_rows_and_no_header_sends_nothing() -> None:
    http = HttpMockSequence([])
    receipt = append(http, [], write_header=False)
    assert http.request_sequence == []
    assert receipt.rows_written == 0


def test_a_mismatched_update_count_is_reported() -> None:
    receipt = append(HttpMockSequence([ok(1)]))
    assert receipt.notices == ("Google Sheets reported 1 rows updated, but 3 were sent; check the sheet.",)


def test_an_http_error_is_a_typed_error_without_the_response_body() -> None:
    secret = "INV-20-005 belongs to Mario Rossi"
    error = {"error": {"code": 403, "message": f"Invalid value {secret}", "status": "PERMISSION_DENIED"}}
    http = HttpMockSequence([({"status": "403", "content-type": "application/json"}, json.dumps(error))])
    with pytest.raises(SheetWriteError) as raised:
        append(http)
    assert raised.value.code == "google_api_error"
    assert raised.value.status == 403
    assert raised.value.message == (
        "Google Sheets did not append the rows (HTTP 403): the account has no permission to edit this spreadsheet."
    )
    assert secret not in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
    assert len(http.request_sequence) == 1  # no retry: an append is not idempotent


def test_a_server_error_is_not_retried() -> None:
    http = HttpMockSequence([({"status": "503"}, "unavailable"), ok(3)])
    with pytest.raises(SheetWriteError) as raised:
        append(http)
    assert (raised.value.code, raised.value.status) == ("google_api_error", 503)
    assert len(http.request_sequence) == 1


def test_credentials_that_cannot_be_used_are_a_typed_error_before_any_request() -> None:
    http = HttpMockSequence([ok(3)])
    # No token and nothing to refresh it with: refreshing fails locally.
    with pytest.raises(SheetWriteError) as raised:
        append_rows_to_google_sheet(
            credentials=Credentials(token=None),
            spreadsheet_id=SPREADSHEET_ID,
            sheet_range="Fatture!A1",
            rows=ROWS,
            http=http,
        )
    assert raised.value.code == "google_auth_error"
    assert http.request_sequence == []


def test_missing_credentials_are_refused_never_discovered() -> None:
    with pytest.raises(TypeError, match="ambient"):
        append_rows_to_google_sheet(
            credentials=None,  # type: ignore[arg-type]
            spreadsheet_id=SPREADSHEET_ID,
            sheet_range="Fatture!A1",
            rows=ROWS,
            http=HttpMockSequence([]),
        )


def test_bad_rows_fail_before_any_request() -> None:
    http = HttpMockSequence([ok(3)])
    with pytest.raises(SheetWriteError) as raised:
        append(http, [{"a": "x" * 50_001}])
    assert raised.value.code == "cell_too_long"
    with pytest.raises(SheetWriteError) as raised:
        append(http, [{"a": float("nan")}])
    assert raised.value.code == "unsupported_value"
    assert http.request_sequence == []


def test_an_empty_spreadsheet_id_is_a_typed_error() -> None:
    with pytest.raises(SheetWriteError) as raised:
        append_rows_to_google_sheet(
            credentials=credentials(), spreadsheet_id=" ", sheet_range="A1", rows=ROWS, http=HttpMockSequence([])
        )
    assert raised.value.code == "invalid_target"


def test_ambient_credential_discovery_is_never_called(monkeypatch: pytest.MonkeyPatch) -> None:
    def ambient(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("google.auth.default() must never be called")

    monkeypatch.setattr("google.auth.default", ambient)
    monkeypatch.setattr("googleapiclient._auth.default_credentials", ambient)
    http = HttpMockSequence([ok(3)])
    append(http)
    assert len(http.request_sequence) == 1  # the bundled discovery document: no discovery request
