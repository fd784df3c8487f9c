"""Appending rows to a Google Sheet, with data that never runs.

Two protections stack, as the spec asks for Google Sheets writes:

* ``valueInputOption=RAW``: Sheets stores every value as given and parses
  nothing — no formulas, no dates, no numbers from text;
* active text still gets the protective leading apostrophe
  (:func:`~apps.records.sheets.formula_safety.protect_text`), so a value stays inert
  if someone later copies it, re-enters it or exports the sheet to CSV. With
  RAW input the apostrophe is stored as part of the value and stays visible;
  the receipt says so.

Credentials are always passed explicitly and applied to every request by
``google_auth_httplib2.AuthorizedHttp``: the client is built from that
authorised transport, so ``google.auth.default()`` (ambient discovery) can
never be reached. The discovery document is the one bundled with the library
(``static_discovery=True``), so building the client makes no request either.

An append is not idempotent, so nothing here retries: a repeated request could
add the rows twice. The caller decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Final

import httplib2
from google.auth.credentials import Credentials
from google.auth.exceptions import RefreshError, TransportError
from google_auth_httplib2 import AuthorizedHttp
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from googleapiclient.http import build_http

from apps.records.rows import Row
from apps.records.sheets.cells import (
    LARGEST_EXACT_INTEGER,
    CellTally,
    check_text_length,
    clean_cell_text,
    merge_notices,
    normalize_value,
    plan_sheet_columns,
)
from apps.records.sheets.formula_safety import is_active_text, protect_text
from apps.records.sheets.receipts import SheetReceipt, SheetWriteError

# Google Sheets holds at most 50,000 characters in one cell.
GOOGLE_SHEETS_CELL_TEXT_LIMIT: Final = 50_000
SHEETS_SCOPE: Final = "https://www.googleapis.com/auth/spreadsheets"
SPREADSHEET_URL: Final = "https://docs.google.com/spreadsheets/d/{spreadsheet_id}"

JsonCell = str | int | float | bool

# Why a status failed, in words that hold no response body (bodies may echo data).
_STATUS_REASONS: Final[Mapping[int, str]] = {
    400: "the request was rejected as invalid (check the sheet range)",
    401: "the credentials were refused",
    403: "the account has no permission to edit this spreadsheet",
    404: "the spreadsheet or sheet was not found",
    429: "too many requests; try again later",
}


def _json_cell(value: object, tally: CellTally, row_number: int, heading: str) -> JsonCell:
    value = normalize_value(value, row_number, heading)
    if value is None:
        return ""
    if isinstance(value, str):
        cleaned = clean_cell_text(value, "google_sheets")
        if cleaned != value:
            tally.cleaned += 1
        check_text_length(cleaned, GOOGLE_SHEETS_CELL_TEXT_LIMIT, row_number, heading)
        if is_active_text(cleaned):
            tally.protected += 1
            return protect_text(cleaned)
        return cleaned
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if -LARGEST_EXACT_INTEGER <= value <= LARGEST_EXACT_INTEGER:
            return value
        tally.long_integers += 1
        return str(value)
    if isinstance(value, Decimal):
        # Sheets numbers are doubles; an integral Decimal stays an exact integer.
        if value == value.to_integral_value() and -LARGEST_EXACT_INTEGER <= value <= LARGEST_EXACT_INTEGER:
            return int(value)
        return float(value)
    if isinstance(value, float):
        return value
    # Only dates and datetimes are left. RAW input keeps ISO dates as text;
    # USER_ENTERED would make them dates but would also parse formulas.
    return value.isoformat()


def _status_message(status: int) -> str:
    reason = _STATUS_REASONS.get(status)
    if reason is None:
        reason = "Google Sheets had a server error" if status >= 500 else "the request failed"
    return f"Google Sheets did not append the rows (HTTP {status}): {reason}."


def append_rows_to_google_sheet(
    *,
    credentials: Credentials,
    spreadsheet_id: str,
    sheet_range: str,
    rows: Sequence[Row],
    headings: Sequence[str] | None = None,
    schema: Sequence[str] | None = None,
    bindings: Mapping[str, str] | None = None,
    notices: Sequence[str] = (),
    write_header: bool = True,
    http: httplib2.Http | None = None,
) -> SheetReceipt:
    """Append ``rows`` (after a header row, if ``write_header``) to a Google Sheet.

    One ``spreadsheets.values.append`` request to ``sheet_range`` (A1
    notation, e.g. ``"Fatture!A1"``) with ``valueInputOption=RAW`` and
    ``insertDataOption=INSERT_ROWS``. Columns come from ``resolve_columns``.
    Active text (headings included) gets a leading apostrophe, visible in the
    sheet; numbers are JSON numbers (integers beyond 2**53 become text), dates
    and datetimes ISO 8601 text, booleans JSON booleans, ``None`` an empty
    string. Characters Sheets cannot hold (control characters, lone
    surrogates) are cleaned and counted.

    ``credentials`` are required and always used; ``http`` is the transport
    to wrap with them (default: ``googleapiclient.http.build_http()``; tests
    pass ``HttpMockSequence``). Bad rows raise :class:`SheetWriteError` before
    any request; an HTTP error raises ``google_api_error`` with ``status`` and
    without the response body, a refused credential ``google_auth_error``, a
    network failure ``google_unreachable``. Nothing is retried.
    """
    if credentials is None:
        raise TypeError("credentials are required: Metnos never uses ambient Google credentials")
    if not spreadsheet_id.strip() or not sheet_range.strip():
        raise SheetWriteError("invalid_target", "the spreadsheet id and the sheet range must not be empty")
    plan = plan_sheet_columns(rows, headings, schema=schema, bindings=bindings)
    labels = [column.heading for column in plan.columns]
    keys = [column.key for column in plan.columns]
    tally = CellTally()
    values: list[list[JsonCell]] = []
    if write_header:
        values.append([_json_cell(label, tally, 0, label) for label in labels])
    for row_number, row in enumerate(rows, 1):
        values.append(
            [
                _json_cell(None if key is None else row.get(key), tally, row_number, label)
                for key, label in zip(keys, labels, strict=True)
            ]
        )

    writer_notices = tally.notices()
    location = ""
    if values:
        response = _append(credentials, http, spreadsheet_id, sheet_range, values)
        updates: Mapping[str, Any] = response.get("updates") or {}
        location = str(updates.get("updatedRange") or "")
        reported = updates.get("updatedRows")
        if reported is not None and int(reported) != len(values):
            writer_notices.append(
                f"Google Sheets reported {reported} rows updated, but {len(values)} were sent; check the sheet."
            )
    return SheetReceipt(
        path=SPREADSHEET_URL.format(spreadsheet_id=spreadsheet_id),
        format="google_sheets",
        rows_written=len(rows),
        protected_cells=tally.protected,
        columns=tuple(labels),
        notices=merge_notices(plan.notices, notices, writer_notices),
        cleaned_cells=tally.cleaned,
        location=location,
    )


def _append(
    credentials: Credentials,
    http: httplib2.Http | None,
    spreadsheet_id: str,
    sheet_range: str,
    values: list[list[JsonCell]],
) -> Mapping[str, Any]:
    authorized = AuthorizedHttp(credentials, http=http if http is not None else build_http())
    try:
        service = build("sheets", "v4", http=authorized, static_discovery=True, cache_discovery=False)
        request = (
            service.spreadsheets()
            .values()
            .append(
                spreadsheetId=spreadsheet_id,
                range=sheet_range,
                valueInputOption="RAW",
                insertDataOption="INSERT_ROWS",
                body={"majorDimension": "ROWS", "values": values},
            )
        )
        response = request.execute(num_retries=0)
    # "from None": the HTTP error carries the response body, which may echo the data.
    except HttpError as exc:
        status = int(exc.resp.status)
        raise SheetWriteError("google_api_error", _status_message(status), status=status) from None
    except RefreshError:
        raise SheetWriteError(
            "google_auth_error", "Google refused the credentials; the account needs to be connected again."
        ) from None
    except (TransportError, httplib2.HttpLib2Error, OSError) as exc:
        raise SheetWriteError(
            "google_unreachable", f"Google Sheets could not be reached ({type(exc).__name__})."
        ) from None
    return response if isinstance(response, Mapping) else {}
