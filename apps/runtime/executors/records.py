"""Executors over collected records: ``extract_entries`` and ``create_files_spreadsheet``.

The entry shape
---------------
``extract_entries`` produces one *entry* per document in which it found at
least one requested field. An entry is a JSON-ready mapping:

* one key per requested field, in the requested order: the value found, or
  ``None`` when the document does not state it (never a placeholder).
  Amount fields (fields the shared vocabulary classifies as ``amount``, such
  as ``price``, ``prezzo``, ``totale``) hold plain decimal text: ``"1640.90"``;
* ``currency``: the ISO code of the entry's amounts when the document states
  one (present only when an amount field was requested and no field is itself
  called ``currency``; ``None`` when unknown or when the amounts disagree);
* ``address``: the document the values come from;
* ``evidence``: for each value found, where it came from —
  ``{"type": "amount" | "date" | "text", "method", "label", "line", "text"[, "currency"]}``
  (see :mod:`apps.runtime.extraction.rules`).

``create_files_spreadsheet`` writes any collection's scalar values as columns
and skips nested values (so ``evidence`` never becomes a column). It turns an
entry's amount text back into a number — only where ``evidence`` marks the
field as ``amount`` — so prices are numeric cells that sort and sum.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Final, Literal

from django.utils import timezone

from apps.accounts.models import User
from apps.documents.files import FileAccessRefused, resolve_owner_path
from apps.documents.limits import MAX_DOCUMENTS_PER_READ
from apps.records.headings import discover_fields
from apps.records.rows import CellValue, Row
from apps.records.sheets.csv import write_csv
from apps.records.sheets.receipts import SheetReceipt, SheetWriteError
from apps.records.sheets.xlsx import write_xlsx
from apps.runtime.executor import ExecutionContext, Executor, Outcome, ProducedFile, StepResult
from apps.runtime.executors.files import (
    MAX_PATH_ARG_CHARS,
    ArgumentError,
    collection_arg,
    display_name,
    present_args,
    step_failed,
    string_arg,
    string_list_arg,
)
from apps.runtime.extraction.rules import (
    MAX_FIELD_NAME_CHARS,
    MAX_FIELDS,
    DocumentExtraction,
    FieldSpec,
    InvalidFields,
    ModelExtractor,
    complete_with_model,
    extract_document,
    field_specs,
)
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape

# --- Limits ----------------------------------------------------------------------
# Documents one extract_entries step reads values from.
EXTRACT_MAX_DOCUMENTS: Final = MAX_DOCUMENTS_PER_READ
# Rows one spreadsheet step writes.
SPREADSHEET_MAX_ROWS: Final = 10_000
# Headings one spreadsheet may be given, and their length.
SPREADSHEET_MAX_HEADINGS: Final = 50
SPREADSHEET_MAX_HEADING_CHARS: Final = 100
# Documents named in one notice before "and N more".
MAX_NAMES_SHOWN: Final = 5

SPREADSHEET_CONTENT_TYPES: Final[Mapping[str, str]] = {
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".csv": "text/csv",
}
CURRENCY_KEY: Final = "currency"
EVIDENCE_KEY: Final = "evidence"
# Amount text as extract_entries writes it: no grouping, no exponent, a point for decimals.
_PLAIN_DECIMAL: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:MAX_NAMES_SHOWN])
    if len(names) > MAX_NAMES_SHOWN:
        shown += f" and {len(names) - MAX_NAMES_SHOWN} more"
    return shown


def _documents(count: int) -> str:
    return f"{count} document" if count == 1 else f"{count} documents"


# --- extract_entries ------------------------------------------------------------

EXTRACT_ENTRIES_MANIFEST: Final = Manifest(
    name="extract_entries",
    purpose=(
        "Find the values of named fields (such as supplier and price) in documents already read, "
        "one entry per document, using labels, label/value lines and simple tables in Italian and English. "
        "A field a document does not state stays empty; amounts become exact numbers with their currency."
    ),
    args={
        "from_step": ArgSpec(
            type="collection",
            required=True,
            description="The documents of an earlier step (items with text and address), such as read_files.",
        ),
        "fields": ArgSpec(
            type="array",
            items="string",
            required=True,
            description="Names of the fields to find, e.g. supplier, price, issue_date.",
            max_items=MAX_FIELDS,
            max_length=MAX_FIELD_NAME_CHARS,
        ),
    },
    result=ResultShape(
        kind="collection",
        fields=("address", CURRENCY_KEY, EVIDENCE_KEY),
        description=(
            "One entry per document with at least one value found: one key per requested field "
            "(None when the document does not state it; amounts as plain decimal text), currency, "
            "the source address and the evidence of each value."
        ),
    ),
    capabilities=frozenset({"records.extract"}),
    limits={"max_fields": MAX_FIELDS, "max_documents": EXTRACT_MAX_DOCUMENTS},
    # Deterministic: the optional extraction model is only a verified fallback for missed fields.
    intelligence="deterministic",
    placement="server",
)


class ExtractEntriesExecutor:
    """``extract_entries``: the requested fields' values in each document, as entries.

    Deterministic first (see :mod:`apps.runtime.extraction.rules` for the rules):
    label/value lines, labels with the value on the next line, simple tables and,
    for a supplier, the letterhead. Competing labels are decided by a stated
    rule or left empty with a notice — never the first match. When a
    ``model_extractor`` is given (the runtime passes one when the extraction
    tier is configured), it is asked only for the fields the deterministic
    pass missed, and its values are kept only when the document states them;
    a failing model keeps the deterministic result.

    Contract: ``success`` when every requested field was found in every
    document; ``partial`` when some are missing (a notice per field names the
    documents) or some documents could not be used (not read, nothing found);
    ``empty`` when no value was found at all; ``failed`` (permanent) for
    unusable ``fields`` (``invalid_arguments``) or a collection without text
    (``no_text``: the documents must be read first). Entries are described in
    this module's docstring.
    """

    manifest: Manifest = EXTRACT_ENTRIES_MANIFEST

    def __init__(self, model_extractor: ModelExtractor | None = None) -> None:
        self.model_extractor = model_extractor

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        try:
            args = present_args(self.manifest, args)
            specs = field_specs(args.get("fields"))
            documents = collection_arg(args)
        except InvalidFields as exc:
            return step_failed("invalid_arguments", f"fields: {exc}")
        except ArgumentError as exc:
            return step_failed(exc.code, exc.message)
        if not documents:
            return StepResult(outcome="empty", summary="There were no documents to extract from.")
        if not any("text" in document or "outcome" in document for document in documents):
            return step_failed(
                "no_text", "The earlier step gave files, not their text: the documents must be read first."
            )

        notices: list[str] = []
        if len(documents) > EXTRACT_MAX_DOCUMENTS:
            notices.append(
                f"Only the first {EXTRACT_MAX_DOCUMENTS} of {_documents(len(documents))} were used; "
                "the others were not examined."
            )
            documents = documents[:EXTRACT_MAX_DOCUMENTS]

        entries: list[dict[str, Any]] = []
        not_read: list[str] = []
        nothing_found: list[str] = []
        missing: dict[str, list[str]] = {spec.name: [] for spec in specs}
        problems: list[str] = []
        currencies: set[str] = set()
        for index, document in enumerate(documents):
            if context.cancelled.is_set() or (context.deadline is not None and timezone.now() >= context.deadline):
                return self._stopped(context, entries, notices)
            address = _address(document, index)
            name = display_name(address)
            text = document.get("text")
            if document.get("outcome", "read") != "read" or not isinstance(text, str) or not text.strip():
                not_read.append(name)
                continue
            context.report_progress(f"Extracting from {name} ({index + 1} of {len(documents)})")
            extraction = extract_document(text, specs, name=name)
            extraction = complete_with_model(text, specs, extraction, self.model_extractor, name=name)
            notices.extend(extraction.notices)
            if not extraction.values:
                nothing_found.append(name)
                problems.extend(extraction.problems.values())
                continue
            for field_name in extraction.missing(specs):
                missing[field_name].append(name)
            problems.extend(extraction.problems.values())
            entry, currency = _entry(specs, extraction, address, notices, name)
            if currency is not None:
                currencies.add(currency)
            entries.append(entry)

        notices.extend(problems)
        for field_name, names in missing.items():
            if names:
                notices.append(
                    f"'{field_name}' has no value for {len(names)} of {_documents(len(entries))}: {_names(names)}."
                )
        if not_read:
            notices.append(f"Not read, so nothing was extracted from: {_names(not_read)}.")
        if nothing_found:
            notices.append(f"None of the requested fields was found in: {_names(nothing_found)}.")
        if len(currencies) > 1:
            notices.append(
                f"The amounts are in different currencies ({', '.join(sorted(currencies))}): compare them with care."
            )
        value = {
            "fields": [spec.name for spec in specs],
            "documents": len(documents),
            "entries": len(entries),
            "missing": {field_name: len(names) for field_name, names in missing.items()},
        }
        if not entries:
            return StepResult(
                outcome="empty",
                value=value,
                notices=tuple(notices),
                summary=f"None of the requested fields was found in {_documents(len(documents))}.",
            )
        complete = not not_read and not nothing_found and not any(missing.values())
        outcome: Outcome = "success" if complete else "partial"
        return StepResult(
            outcome=outcome,
            items=tuple(entries),
            value=value,
            notices=tuple(notices),
            summary=f"Extracted {_plural_entries(len(entries))} from {_documents(len(documents))}.",
        )

    def _stopped(self, context: ExecutionContext, entries: list[dict[str, Any]], notices: list[str]) -> StepResult:
        reason = "cancelled" if context.cancelled.is_set() else "deadline_exceeded"
        message = "The extraction was cancelled." if reason == "cancelled" else "The extraction ran out of time."
        return step_failed(
            reason, f"{message} {_plural_entries(len(entries))} extracted before it stopped.",
            error_class="recoverable", items=entries, notices=notices,
        )  # fmt: skip


def _plural_entries(count: int) -> str:
    return f"{count} entry" if count == 1 else f"{count} entries"


def _address(document: Mapping[str, Any], index: int) -> str:
    for key in ("address", "path"):
        value = document.get(key)
        if isinstance(value, str) and value:
            return value
    return f"document {index + 1}"


def _entry(
    specs: Sequence[FieldSpec], extraction: DocumentExtraction, address: str, notices: list[str], name: str
) -> tuple[dict[str, Any], str | None]:
    entry: dict[str, Any] = {spec.name: None for spec in specs}
    evidence: dict[str, Any] = {}
    for field_name, found in extraction.values.items():
        entry[field_name] = found.value
        evidence[field_name] = found.evidence()
    currency: str | None = None
    has_amounts = any(spec.is_amount for spec in specs)
    if has_amounts and CURRENCY_KEY not in entry:
        stated = {found.currency for found in extraction.values.values() if found.currency is not None}
        if len(stated) > 1:
            notices.append(f"{name}: the amounts are in different currencies ({', '.join(sorted(stated))}).")
        currency = stated.pop() if len(stated) == 1 else None
        entry[CURRENCY_KEY] = currency
    entry["address"] = address
    entry[EVIDENCE_KEY] = evidence
    return entry, currency


# --- create_files_spreadsheet -----------------------------------------------------

CREATE_SPREADSHEET_MANIFEST: Final = Manifest(
    name="create_files_spreadsheet",
    purpose=(
        "Create a new spreadsheet file (.xlsx or .csv) in the user's files from the items of an earlier step, "
        "one row per item, for example a summary table of extracted entries. Never overwrites an existing file; "
        "values are never turned into formulas."
    ),
    args={
        "from_step": ArgSpec(
            type="collection", required=True, description="The items of an earlier step, one row each."
        ),
        "path": ArgSpec(
            type="path",
            required=True,
            description=(
                "The new file, inside the user's files, ending in .xlsx or .csv (~/Purchasing/summary.xlsx); "
                "its folder must exist."
            ),
            max_length=MAX_PATH_ARG_CHARS,
            sensitive="path",
            accepts_step_values=False,
        ),
        "if_exists": ArgSpec(
            type="string",
            enum=("fail", "new_name"),
            description="When the file already exists: fail (default) or write to a new name such as "
            "'summary (2).xlsx'. An existing file is never overwritten either way.",
        ),
        "headings": ArgSpec(
            type="array",
            items="string",
            description="Column headings, each showing the item field it names (Supplier → supplier); "
            "default: every field of the items.",
            max_items=SPREADSHEET_MAX_HEADINGS,
            max_length=SPREADSHEET_MAX_HEADING_CHARS,
        ),
    },
    result=ResultShape(
        kind="value",
        fields=("path", "format", "rows_written", "protected_cells", "columns"),
        description="The file created: path relative to the user's files root, rows written, columns.",
    ),
    capabilities=frozenset({"sheets.write", "files.write"}),
    limits={"max_rows": SPREADSHEET_MAX_ROWS, "max_headings": SPREADSHEET_MAX_HEADINGS},
    intelligence="deterministic",
    placement="server",
    # A request that says one of these needs a spreadsheet in its plan (requested_actions).
    action_phrases=(
        "(create|creating|make|making|build|building|generate|generating|produce|producing|prepare|preparing) "
        "[me] [a|an|the|one] [new] [summary|comparison|comparative] [excel|xlsx|csv] "
        "(table|spreadsheet|sheet|workbook)",
        "(create|creating|make|making|build|building|generate|generating|produce|producing|prepare|preparing) "
        "[me] [a|an|the|one] [new] [summary] (excel|xlsx|csv) [file]",
        "(put|putting|save|saving|export|exporting|write|writing) [them|it|everything|the results|the entries|"
        "the data|these|those|all] (in|into|to|as) [a|an|the|one] [new] [summary|comparison] [excel|xlsx|csv] "
        "(table|spreadsheet|sheet|workbook|excel|xlsx|csv)",
        "(crea|creare|creami|crei|fai|fare|fammi|genera|generare|generami|prepara|preparare|preparami|produci|"
        "produrre) [un|una|uno|il|la|lo|l'] [nuovo|nuova|piccolo|piccola] (foglio di calcolo|foglio elettronico|"
        "foglio excel|foglio|tabella|prospetto|file excel|file xlsx|file csv|excel|xlsx|csv)",
        "(metti|mettili|mettile|mettere|metterli|salva|salvali|salvale|salvare|salvarli|esporta|esportali|"
        "esportale|esportare|scrivi|scrivili|scrivile|inserisci|inseriscili|inseriscile) [tutto|i risultati|"
        "i dati|i prezzi] (in|nel|nella|su|come) [un|una|uno] [nuovo|nuova] (foglio di calcolo|"
        "foglio elettronico|foglio excel|foglio|tabella|prospetto|file excel|file xlsx|file csv|excel|xlsx|csv)",
    ),
)


def _cell(key: str, value: Any, evidence: Mapping[str, Any]) -> tuple[bool, CellValue]:
    """Whether the value is a cell, and the cell: amounts back to Decimal, nested values skipped."""
    if value is None or isinstance(value, bool | int | float | Decimal | dt.date):
        return True, value
    if not isinstance(value, str):
        return False, None
    marked = evidence.get(key)
    if isinstance(marked, Mapping) and marked.get("type") == "amount" and _PLAIN_DECIMAL.fullmatch(value):
        return True, Decimal(value)
    return True, value


def spreadsheet_rows(items: Sequence[Mapping[str, Any]]) -> list[Row]:
    """The rows a collection gives: its scalar values by key, nested values (``evidence``) left out."""
    rows: list[Row] = []
    for item in items:
        evidence = item.get(EVIDENCE_KEY)
        marks: Mapping[str, Any] = evidence if isinstance(evidence, Mapping) else {}
        row: dict[str, CellValue] = {}
        for key, value in item.items():
            if not isinstance(key, str) or key == EVIDENCE_KEY:
                continue
            is_cell, cell = _cell(key, value, marks)
            if is_cell:
                row[key] = cell
        rows.append(row)
    return rows


class _Target:
    """Where the new file goes: checked inside the owner's files root, not yet existing."""

    def __init__(self, *, owner: User, path: str, new_name_if_exists: bool = False) -> None:
        text = path.strip().replace("\\", "/")
        name = text.rsplit("/", 1)[-1]
        if not name or name in {".", "..", "~"}:
            raise ArgumentError("path must name a file, such as ~/Purchasing/summary.xlsx", code="invalid_path")
        suffix = Path(name).suffix.lower()
        if suffix not in SPREADSHEET_CONTENT_TYPES:
            raise ArgumentError(
                f"{name!r} is not a spreadsheet name: it must end in .xlsx or .csv", code="unsupported_format"
            )
        try:
            # The whole path first: traversal, absolute paths and links out of the root are refused here.
            resolve_owner_path(owner=owner, relative_path=path)
            folder = resolve_owner_path(owner=owner, relative_path=text[: -len(name)] or "~")
            root = resolve_owner_path(owner=owner, relative_path="~")
        except FileAccessRefused as exc:
            raise ArgumentError(str(exc), code="access_refused") from exc
        if not folder.is_dir():
            shown = text[: -len(name)].rstrip("/") or "~"
            raise ArgumentError(f"The folder {shown} does not exist in your files.", code="folder_not_found")
        self.path = folder / name
        self.suffix = suffix
        self.format: Literal["xlsx", "csv"] = "xlsx" if suffix == ".xlsx" else "csv"
        self.relative = self.path.relative_to(root).as_posix()
        self.shown = path.strip()
        if new_name_if_exists and os.path.lexists(self.path):
            self._choose_free_name(folder, root, name, text)
        if os.path.lexists(self.path):
            raise ArgumentError(
                f"{self.shown} already exists; an existing file is never overwritten. "
                "Choose another name, or delete or rename the existing file first.",
                code="already_exists",
            )

    def _choose_free_name(self, folder: Path, root: Path, name: str, text: str) -> None:
        stem, suffix = Path(name).stem, Path(name).suffix
        for number in range(2, MAX_NEW_NAME_ATTEMPTS + 2):
            candidate = folder / f"{stem} ({number}){suffix}"
            if not os.path.lexists(candidate):
                self.path = candidate
                self.relative = candidate.relative_to(root).as_posix()
                self.shown = text[: -len(name)] + candidate.name
                return


# How many "name (N).xlsx" alternatives a new-name write tries before giving up.
MAX_NEW_NAME_ATTEMPTS = 100


def _publish(temporary: Path, target: _Target) -> None:
    """Move the complete file into place without ever replacing an existing one."""
    try:
        os.link(temporary, target.path)  # atomic, and fails if the name exists
    except FileExistsError as exc:
        raise ArgumentError(
            f"{target.shown} already exists; an existing file is never overwritten.", code="already_exists"
        ) from exc
    except OSError:
        # A filesystem without hard links: check, then rename (a tiny window remains).
        if os.path.lexists(target.path):
            raise ArgumentError(
                f"{target.shown} already exists; an existing file is never overwritten.", code="already_exists"
            ) from None
        os.rename(temporary, target.path)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(64 * 1024), b""):
            digest.update(chunk)
    return digest.hexdigest()


class CreateFilesSpreadsheetExecutor:
    """``create_files_spreadsheet``: a new .xlsx or .csv file in the owner's files, one row per item.

    The destination comes from the user (``path`` is a sensitive argument that
    never accepts step values) and is checked with the documents path rules:
    inside the owner's files root, no traversal, absolute path or link leading
    out. The folder must already exist — the step creates exactly one file and
    no folders, so undo removes exactly what was made. An existing file is
    never overwritten (``already_exists``): the finished file is linked into
    place atomically, so the check cannot race with another writer.

    Columns: ``headings`` when given (each heading shows the item field it
    names, by the shared heading rules; a heading naming no field is an empty
    column with a notice), otherwise every scalar field of the items in
    first-seen order. Cells never hold formulas (``write_xlsx``/``write_csv``);
    extracted amounts are numeric cells.

    Contract: ``success`` with ``value`` ``{path, format, rows_written,
    protected_cells, columns}``, the file in ``files`` and a ``file_created``
    effect (path, size, sha256) for undo; ``empty`` — and no file — when the
    collection has no items; ``failed`` (permanent) with ``unsupported_format``,
    ``access_refused``, ``invalid_path``, ``folder_not_found``,
    ``already_exists``, ``too_many_rows`` or a sheet writer code, and
    (recoverable) ``io_error`` when the disk refused the write — nothing is
    left behind in any failure.
    """

    manifest: Manifest = CREATE_SPREADSHEET_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        try:
            args = present_args(self.manifest, args)
            path = string_arg(args, "path", max_length=MAX_PATH_ARG_CHARS)
            headings = (
                string_list_arg(
                    args, "headings", max_items=SPREADSHEET_MAX_HEADINGS, max_length=SPREADSHEET_MAX_HEADING_CHARS
                )
                if "headings" in args
                else None
            )
            items = collection_arg(args)
            if not items:
                return StepResult(
                    outcome="empty",
                    value={"path": None, "rows_written": 0},
                    notices=("The earlier step produced no items, so no spreadsheet was created.",),
                    summary="Nothing to write: no spreadsheet was created.",
                )
            if len(items) > SPREADSHEET_MAX_ROWS:
                raise ArgumentError(
                    f"{len(items):,} rows are more than one spreadsheet step writes ({SPREADSHEET_MAX_ROWS:,}).",
                    code="too_many_rows",
                )
            target = _Target(owner=context.owner, path=path, new_name_if_exists=args.get("if_exists") == "new_name")
            receipt = self._write(target, spreadsheet_rows(items), headings)
        except ArgumentError as exc:
            return step_failed(exc.code, exc.message)
        except SheetWriteError as exc:
            return step_failed(
                exc.code, exc.message, error_class="recoverable" if exc.code == "io_error" else "permanent"
            )

        size = target.path.stat().st_size
        effect = {"kind": "file_created", "path": target.relative, "size": size, "sha256": _sha256(target.path)}
        receipt = replace(receipt, path=str(target.path))
        return StepResult(
            outcome="success",
            value={
                "path": target.relative,
                "format": target.format,
                "rows_written": receipt.rows_written,
                "protected_cells": receipt.protected_cells,
                "columns": list(receipt.columns),
            },
            files=(
                ProducedFile(path=target.relative, content_type=SPREADSHEET_CONTENT_TYPES[target.suffix], size=size),
            ),
            effects=(effect,),
            notices=tuple(receipt.notices),
            summary=receipt.message().split("\n", 1)[0],
        )

    def _write(self, target: _Target, rows: list[Row], headings: list[str] | None) -> SheetReceipt:
        # Written under a temporary name in the same folder, then linked into place.
        temporary = target.path.with_name(f".{target.path.name}.{secrets.token_hex(6)}.tmp{target.suffix}")
        schema = discover_fields(rows) if headings is not None else None
        try:
            if target.format == "xlsx":
                receipt = write_xlsx(rows, temporary, headings, schema=schema)
            else:
                receipt = write_csv(rows, temporary, headings, schema=schema)
            try:
                _publish(temporary, target)
            except OSError as exc:
                raise SheetWriteError(
                    "io_error", f"could not create {target.path.name!r}: {exc.strerror or type(exc).__name__}"
                ) from exc
        finally:
            temporary.unlink(missing_ok=True)
        return receipt


def builtin_executors(*, model_extractor: ModelExtractor | None = None) -> list[Executor]:
    """The executors of this module, for the runtime app to register.

    ``model_extractor`` is passed to ``extract_entries`` when the extraction
    tier is configured; without it extraction is purely deterministic.
    """
    return [ExtractEntriesExecutor(model_extractor=model_extractor), CreateFilesSpreadsheetExecutor()]
