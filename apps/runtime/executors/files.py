"""Executors over the owner's own files: ``find_files`` and ``read_files``.

Both work only inside the owner's files root (``settings.FILES_ROOT/<owner
id>``, written ``~`` in plans) through the public API of
:mod:`apps.documents`: paths are checked there (no absolute paths, no ``..``,
no links leading out of the root), and nothing here opens a file itself.

Collections arrive resolved: by the time ``run`` is called, ``from_step``
holds the producer's items (a sequence of mappings), not the step number.
``read_files`` declares that it reads its items' ``path`` as a local path
(``item_sensitive``), so the invocation boundary has verified every such
path inside the owner's files root before ``run``
(:mod:`apps.runtime.provenance`); the documents app checks them again when
they are opened. ``find_files`` lists only paths inside that root.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any, Final

from apps.documents.files import FileAccessRefused, FolderNotFound, find_files
from apps.documents.limits import FIND_DEFAULT_LIMIT, FIND_MAX_SCANNED_ENTRIES, MAX_DOCUMENTS_PER_READ
from apps.documents.readers import SUFFIX_KINDS, DocumentRead, read_documents
from apps.runtime.executor import ErrorClass, ExecutionContext, Executor, Outcome, StepError, StepResult
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape

# --- Limits ----------------------------------------------------------------------
# Files one find_files step lists; more matches make the result partial.
FIND_FILES_LIMIT: Final = FIND_DEFAULT_LIMIT
# Documents one read_files step reads.
READ_FILES_MAX_DOCUMENTS: Final = MAX_DOCUMENTS_PER_READ
# Characters of text one read_files step passes on, over all its documents together.
READ_FILES_MAX_TEXT_CHARS: Final = 1_000_000
# Longest pattern accepted by find_files (the documents app refuses longer ones too).
MAX_PATTERN_CHARS: Final = 255
# Longest path argument (the documents app refuses longer ones too).
MAX_PATH_ARG_CHARS: Final = 1_024


# --- Shared by the executors of this package ------------------------------------


class ArgumentError(ValueError):
    """Arguments the executor cannot use, even after the validator accepted the plan."""

    def __init__(self, message: str, *, code: str = "invalid_arguments") -> None:
        self.code = code
        self.message = message
        super().__init__(message)


def step_failed(
    code: str,
    message: str,
    *,
    error_class: ErrorClass = "permanent",
    items: Sequence[Mapping[str, Any]] = (),
    notices: Sequence[str] = (),
    value: Mapping[str, Any] | None = None,
) -> StepResult:
    """A failed step that says why; items already observed stay in the result."""
    return StepResult(
        outcome="failed",
        items=tuple(items),
        value=dict(value or {}),
        error=StepError(error_class=error_class, code=code, message=message),
        notices=tuple(notices),
        summary=message,
    )


def present_args(manifest: Manifest, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments given (an optional argument set to None counts as absent); unknown ones are refused."""
    unknown = sorted(set(args) - set(manifest.args))
    if unknown:
        raise ArgumentError(f"{manifest.name} does not take {', '.join(map(repr, unknown))}")
    return {name: value for name, value in args.items() if value is not None}


def collection_arg(args: Mapping[str, Any], name: str = "from_step") -> tuple[Mapping[str, Any], ...]:
    """The resolved collection passed as ``name``: a sequence of mappings."""
    collection = args.get(name)
    if isinstance(collection, int | str | bytes) or not isinstance(collection, Sequence):
        raise ArgumentError(
            f"{name} must hold the collection of an earlier step (the reference was not resolved)",
            code="unresolved_reference",
        )
    if not all(isinstance(item, Mapping) for item in collection):
        raise ArgumentError(f"{name} must be a collection of items")
    return tuple(collection)


def string_arg(args: Mapping[str, Any], name: str, *, default: str | None = None, max_length: int) -> str:
    value = args.get(name, default)
    if not isinstance(value, str) or not value.strip():
        raise ArgumentError(f"{name} must be non-empty text")
    if len(value) > max_length:
        raise ArgumentError(f"{name} is longer than {max_length} characters")
    return value


def string_list_arg(args: Mapping[str, Any], name: str, *, max_items: int, max_length: int) -> list[str]:
    value = args.get(name)
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentError(f"{name} must be a list of text values")
    if len(value) > max_items:
        raise ArgumentError(f"{name} holds more than {max_items} values")
    if not all(isinstance(item, str) and item.strip() and len(item) <= max_length for item in value):
        raise ArgumentError(f"every value of {name} must be non-empty text of at most {max_length} characters")
    return list(value)


def display_name(address: str) -> str:
    """How notices name a document: its file name."""
    return PurePosixPath(address.replace("\\", "/")).name or address


def _plural(count: int, noun: str, plural: str | None = None) -> str:
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


# --- find_files -------------------------------------------------------------------

FIND_FILES_MANIFEST: Final = Manifest(
    name="find_files",
    purpose=(
        "List the files in a folder of the user's own files whose names match a pattern "
        "(for example the PDF files in ~/Purchasing), with their size and modification time."
    ),
    args={
        "base_path": ArgSpec(
            type="path",
            required=True,
            description="Folder inside the user's files: ~ is the root, ~/Purchasing a folder in it.",
            max_length=MAX_PATH_ARG_CHARS,
            sensitive="path",
            accepts_step_values=False,
        ),
        "pattern": ArgSpec(
            type="string",
            description="File-name pattern such as *.pdf or INV-2026-*, matched ignoring case; default *.",
            max_length=MAX_PATTERN_CHARS,
        ),
        "recursive": ArgSpec(
            type="boolean", description="Also search the sub-folders; default false (the folder itself only)."
        ),
    },
    result=ResultShape(
        kind="collection",
        fields=("path", "name", "size", "modified_at"),
        description=(
            "One item per file: path relative to the user's files root, file name, size in bytes, "
            "modification time (ISO 8601, UTC)."
        ),
    ),
    capabilities=frozenset({"files.read"}),
    limits={"max_results": FIND_FILES_LIMIT, "max_scanned_entries": FIND_MAX_SCANNED_ENTRIES},
    intelligence="deterministic",
    placement="server",
)


class FindFilesExecutor:
    """``find_files``: the files of a folder of the owner's files whose names match a pattern.

    Contract: ``success`` with one item per file (``path``, ``name``, ``size``,
    ``modified_at``) sorted by path; ``empty`` when nothing matches (not a
    failure); ``partial`` when the list is incomplete — more than
    :data:`FIND_FILES_LIMIT` matches, a folder too large to scan, or matching
    entries left out (links leading outside the files, unreadable entries) —
    with a notice saying how many were found and what was left out;
    ``failed`` (permanent) with ``access_refused`` for a refused path,
    ``invalid_pattern`` for a pattern with folder separators, and
    ``folder_not_found`` for a missing folder. Searches the folder itself
    unless ``recursive`` is true.
    """

    manifest: Manifest = FIND_FILES_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        try:
            args = present_args(self.manifest, args)
            base_path = string_arg(args, "base_path", max_length=MAX_PATH_ARG_CHARS)
            pattern = string_arg(args, "pattern", default="*", max_length=MAX_PATTERN_CHARS)
            recursive = args.get("recursive", False)
            if not isinstance(recursive, bool):
                raise ArgumentError("recursive must be true or false")
        except ArgumentError as exc:
            return step_failed(exc.code, exc.message)
        try:
            found = find_files(
                owner=context.owner, base_path=base_path, pattern=pattern, recursive=recursive, limit=FIND_FILES_LIMIT
            )
        except FolderNotFound:
            return step_failed("folder_not_found", f"The folder {base_path} does not exist in your files.")
        except FileAccessRefused as exc:
            code = "invalid_pattern" if exc.reason == "invalid_pattern" else "access_refused"
            return step_failed(code, str(exc))

        items = tuple(
            {
                "path": file.path,
                "name": PurePosixPath(file.path).name,
                "size": file.size,
                "modified_at": file.modified_at.isoformat(),
            }
            for file in found.files
        )
        notices: list[str] = []
        if found.truncated:
            if found.matched > len(found.files):
                notices.append(
                    f"{_plural(found.matched, 'file')} match; only the first {len(found.files)} are listed "
                    f"(one search lists at most {FIND_FILES_LIMIT})."
                )
            else:
                notices.append(
                    f"The search stopped after examining {FIND_MAX_SCANNED_ENTRIES:,} entries: "
                    f"{_plural(found.matched, 'matching file')} found so far, and there may be more."
                )
        outside = sum(1 for entry in found.skipped if entry.reason == "symlink_outside_root")
        unreadable = len(found.skipped) - outside
        if outside:
            notices.append(
                f"{_plural(outside, 'matching link')} left out: "
                f"{'it leads' if outside == 1 else 'they lead'} outside your files and links there are not followed."
            )
        if unreadable:
            were = "was" if unreadable == 1 else "were"
            notices.append(
                f"{_plural(unreadable, 'matching entry', 'matching entries')} could not be read and {were} left out."
            )
        value = {
            "base_path": found.base_path or "~",
            "pattern": pattern,
            "recursive": recursive,
            "matched": found.matched,
            "listed": len(items),
            "truncated": found.truncated,
        }
        where = f"~/{found.base_path}" if found.base_path else "~"
        if not items:
            return StepResult(
                outcome="empty", value=value, notices=tuple(notices), summary=f"No file in {where} matches {pattern}."
            )
        outcome: Outcome = "partial" if found.truncated or found.skipped else "success"
        summary = f"Found {_plural(len(items), 'file')} in {where} matching {pattern}."
        return StepResult(outcome=outcome, items=items, value=value, notices=tuple(notices), summary=summary)


# --- read_files -------------------------------------------------------------------

READ_FILES_MANIFEST: Final = Manifest(
    name="read_files",
    purpose=(
        "Read the text of documents in the user's own files (PDF, HTML, plain text, CSV), "
        "for example the files found by find_files. Scanned PDFs are reported as needing "
        "optical character recognition, which is not run."
    ),
    args={
        "from_step": ArgSpec(
            type="collection",
            description="The files of an earlier step (items with a path), such as find_files.",
            # Each item's path is opened: the boundary verifies it lies in the owner's files first.
            item_sensitive={"path": "path"},
        ),
        "paths": ArgSpec(
            type="array",
            items="path",
            description="Documents to read, inside the user's files (~/Purchasing/quote1.pdf); instead of from_step.",
            max_items=READ_FILES_MAX_DOCUMENTS,
            sensitive="path",
            accepts_step_values=False,
        ),
    },
    result=ResultShape(
        kind="collection",
        fields=("address", "outcome", "text", "pages", "error_code", "error_message", "title", "truncated"),
        description=(
            "One item per document, errors included: outcome is read, empty, needs_ocr or error "
            "(with error_code and error_message); text only for read documents."
        ),
    ),
    capabilities=frozenset({"files.read", "documents.read"}),
    limits={"max_documents": READ_FILES_MAX_DOCUMENTS, "max_text_chars": READ_FILES_MAX_TEXT_CHARS},
    intelligence="deterministic",
    placement="server",
)


def _read_notice(read: DocumentRead) -> str | None:
    name = display_name(read.address)
    if read.outcome == "needs_ocr":
        return f"{name} needs optical character recognition (not run)."
    if read.outcome == "empty":
        return f"{name} has no text to read."
    if read.outcome == "error":
        return f"{name} could not be read: {read.error_message or 'unknown error'}"
    return None


class ReadFilesExecutor:
    """``read_files``: the text of documents in the owner's files, one item per address.

    Takes either ``from_step`` (items with a ``path``, e.g. from
    ``find_files``) or ``paths`` — never both. Every address keeps its item and
    outcome (``read``, ``empty``, ``needs_ocr``, ``error``), errors included.
    Contract: ``success`` when every document was read whole; ``partial`` when
    some were not (notices such as "quote3.pdf needs optical character
    recognition (not run)") or text was cut — by the reader's per-document
    bound or by :data:`READ_FILES_MAX_TEXT_CHARS` over the whole step;
    ``failed`` (permanent, ``nothing_readable``) when no document could be
    read, still with every per-address item; ``empty`` when the collection
    holds no files.
    """

    manifest: Manifest = READ_FILES_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        notices: list[str] = []
        notices_skipped: list[str] = []
        try:
            args = present_args(self.manifest, args)
            if ("from_step" in args) == ("paths" in args):
                raise ArgumentError("read_files takes either from_step or paths, not both and not neither")
            if "paths" in args:
                addresses = string_list_arg(
                    args, "paths", max_items=READ_FILES_MAX_DOCUMENTS, max_length=MAX_PATH_ARG_CHARS
                )
            else:
                items = collection_arg(args)
                addresses = [item["path"] for item in items if isinstance(item.get("path"), str)]
                if len(addresses) < len(items):
                    missing = len(items) - len(addresses)
                    were = "was" if missing == 1 else "were"
                    notices.append(
                        f"{_plural(missing, 'item')} of the earlier step had no file path and {were} not read."
                    )
                # Files found by an earlier step that are not documents (a
                # spreadsheet written by a previous turn, an image) are skipped
                # and named; files the user named explicitly are still tried.
                skipped = [path for path in addresses if PurePosixPath(path).suffix.lower() not in SUFFIX_KINDS]
                if skipped:
                    addresses = [path for path in addresses if path not in skipped]
                    notices_skipped.append(
                        f"Skipped {_plural(len(skipped), 'file')} that {'is' if len(skipped) == 1 else 'are'} "
                        f"not a readable document: {', '.join(display_name(path) for path in skipped[:10])}."
                    )
        except ArgumentError as exc:
            return step_failed(exc.code, exc.message)

        addresses = list(dict.fromkeys(addresses))  # each document once, in order
        if not addresses:
            return StepResult(
                outcome="empty", notices=(*notices, *notices_skipped), summary="There were no documents to read."
            )
        context.report_progress(f"Reading {_plural(len(addresses), 'document')}")
        reads = read_documents(owner=context.owner, paths=addresses)

        budget = READ_FILES_MAX_TEXT_CHARS
        cut_by_budget: list[str] = []
        result_items: list[dict[str, Any]] = []
        incomplete = bool(notices)
        for read in reads:
            text = read.text
            truncated = read.truncated
            if read.outcome == "read":
                if len(text) > budget:
                    text = text[:budget]
                    truncated = True
                    cut_by_budget.append(display_name(read.address))
                budget -= len(text)
                if read.truncated:
                    notices.append(f"Only part of {display_name(read.address)} was read: it is too long.")
                notices.extend(f"{display_name(read.address)}: {warning}" for warning in read.warnings)
                incomplete = incomplete or truncated or bool(read.warnings)
            else:
                incomplete = True
                notice = _read_notice(read)
                if notice is not None:
                    notices.append(notice)
            result_items.append(
                {
                    "address": read.address,
                    "outcome": read.outcome,
                    "text": text,
                    "pages": read.pages,
                    "error_code": read.error_code,
                    "error_message": read.error_message,
                    "title": read.title,
                    "truncated": truncated,
                }
            )
        if cut_by_budget:
            notices.append(
                f"At most {READ_FILES_MAX_TEXT_CHARS:,} characters of text are passed on in one step; "
                f"the text of {', '.join(cut_by_budget)} was cut."
            )

        read_count = sum(1 for read in reads if read.outcome == "read")
        value = {"documents": len(reads), "read": read_count, "not_read": len(reads) - read_count}
        if read_count == 0:
            return step_failed(
                "nothing_readable",
                f"None of the {_plural(len(reads), 'document')} could be read.",
                items=result_items,
                notices=notices,
                value=value,
            )
        summary = f"Read {read_count} of {_plural(len(reads), 'document')}."
        return StepResult(
            outcome="partial" if incomplete else "success",
            items=tuple(result_items),
            value=value,
            notices=(*notices, *notices_skipped),
            summary=summary,
        )


def builtin_executors() -> list[Executor]:
    """The executors of this module, for the runtime app to register."""
    return [FindFilesExecutor(), ReadFilesExecutor()]
