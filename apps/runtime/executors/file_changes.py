"""``delete_files``: remove files from the owner's files — only after confirmation.

Deleting cannot be undone by Metnos, so the manifest requires consent and the
proposal shows exactly which files go. The files come from an earlier step
(e.g. ``find_files``) or from paths the user wrote; either way they are
checked inside the owner's files root at the moment of deletion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from apps.documents.files import DocumentsError, resolve_owner_path
from apps.runtime.executor import ExecutionContext, StepResult
from apps.runtime.executors.files import (
    MAX_PATH_ARG_CHARS,
    ArgumentError,
    collection_arg,
    display_name,
    present_args,
    step_failed,
    string_list_arg,
)
from apps.runtime.manifests import ArgSpec, ConsentSpec, Manifest, RequestForm, ResultShape

DELETE_MAX_FILES: Final = 200

DELETE_FILES_MANIFEST: Final = Manifest(
    name="delete_files",
    purpose="Delete files from your files. This cannot be undone.",
    args={
        "from_step": ArgSpec(
            type="collection",
            description="Files found by an earlier step (items with a path).",
            item_sensitive={"path": "path"},  # each item's path is verified inside the owner's files first
        ),
        "paths": ArgSpec(
            type="array",
            items="path",
            max_items=DELETE_MAX_FILES,
            max_length=MAX_PATH_ARG_CHARS,
            sensitive="path",
            accepts_step_values=False,
            description="Files inside your files, by path.",
        ),
    },
    result=ResultShape(kind="value", fields=("deleted", "missing")),
    capabilities=frozenset({"files.write"}),
    consent=ConsentSpec(mode="confirm", shows=("action", "purpose", "destination", "consequences")),
    limits={"max_files": DELETE_MAX_FILES},
    # A request that says one of these needs delete_files in its plan (requested_actions).
    action_phrases=(
        "(delete|deleting|erase|erasing|trash|trashing) [the|all the|all of the|all|my|these|those|any|every] "
        "[old|other|duplicate|original|remaining|unused|empty] [pdf|csv|text|xlsx|excel] "
        "(file|files|document|documents|pdfs|quotes|invoices|copies|originals|them|those|these|it)",
        "(remove|removing) [the|all the|all of the|all|my|these|those|any|every] "
        "[old|other|duplicate|original|remaining|unused|empty] [pdf|csv|text|xlsx|excel] "
        "(file|files|document|documents|pdfs)",
        "(elimina|eliminare|cancella|cancellare|rimuovi|rimuovere|butta|buttare) [i|gli|le|il|lo|la|l'|tutti i|"
        "tutte le|questi|quei|queste|quelle|quelli|questo|quello] [vecchi|vecchie|vecchio|altri|altre|doppi|"
        "duplicati] (file|documenti|documento|pdf|preventivi|fatture)",
        "(eliminali|eliminale|eliminalo|eliminala|cancellali|cancellale|cancellalo|cancellala|rimuovili|"
        "rimuovile|buttali|buttale)",
    ),
    request_forms=(
        RequestForm(
            language="en",
            template="delete [the|all the|all] [{what}] files in [the|my] {folder} folder",
            slots={"what": "documents", "folder": "folder"},
            plan=(
                {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
                {"tool": "delete_files", "args": {"from_step": 1}},
            ),
        ),
        RequestForm(
            language="it",
            template="(elimina|cancella) [i|tutti i] file [{what}] nella cartella {folder}",
            slots={"what": "documents", "folder": "folder"},
            plan=(
                {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
                {"tool": "delete_files", "args": {"from_step": 1}},
            ),
        ),
    ),
)


def _targets(args: Mapping[str, Any]) -> list[str]:
    args = present_args(DELETE_FILES_MANIFEST, args)
    if ("from_step" in args) == ("paths" in args):
        raise ArgumentError("delete_files takes either from_step or paths")
    if "paths" in args:
        return string_list_arg(args, "paths", max_items=DELETE_MAX_FILES, max_length=MAX_PATH_ARG_CHARS)
    paths = [str(item["path"]) for item in collection_arg(args) if isinstance(item.get("path"), str)]
    if len(paths) > DELETE_MAX_FILES:
        raise ArgumentError(f"at most {DELETE_MAX_FILES} files are deleted in one step")
    return list(dict.fromkeys(paths))


class DeleteFilesExecutor:
    manifest: Manifest = DELETE_FILES_MANIFEST

    def consent_proposal(self, args: Mapping[str, Any]) -> dict[str, str]:
        """What the confirmation shows: the exact files, and that it cannot be undone."""
        try:
            targets = _targets(args)
        except ArgumentError:
            targets = []
        shown = ", ".join(display_name(path) for path in targets[:20])
        more = f" and {len(targets) - 20} more" if len(targets) > 20 else ""
        return {
            "action": f"Delete {len(targets)} file{'s' if len(targets) != 1 else ''}",
            "purpose": "You asked to delete these files.",
            "destination": (shown + more) or "no files",
            "consequences": "The files are removed from your files; Metnos cannot undo this.",
        }

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        try:
            targets = _targets(args)
        except ArgumentError as error:
            return step_failed(error.code, error.message)
        if not targets:
            return StepResult(outcome="empty", summary="There were no files to delete.")
        deleted: list[str] = []
        missing: list[str] = []
        for relative in targets:
            try:
                path = resolve_owner_path(owner=context.owner, relative_path=relative)
            except DocumentsError:
                missing.append(relative)
                continue
            if path.is_file():
                path.unlink()
                deleted.append(relative)
            else:
                missing.append(relative)
        value = {"deleted": deleted, "missing": missing}
        if not deleted:
            return step_failed("nothing_deleted", "None of the files could be deleted.", value=value)
        return StepResult(
            outcome="partial" if missing else "success",
            value=value,
            effects=tuple({"kind": "file_deleted", "path": path} for path in deleted),
            notices=tuple(f"{display_name(path)} was not found; nothing deleted there." for path in missing),
            summary=f"Deleted {len(deleted)} file{'s' if len(deleted) != 1 else ''}.",
        )
