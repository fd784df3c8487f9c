"""The request frames of the built-in executors: what requests they serve, in any wording.

A frame names the action classes of the lexicon
(``apps/runtime/understanding/lexicon/requests.json``) that ask for it, the
roles a request must give and the plan to propose. They are kept together
here, as the request forms are, so what can be asked of the files tools
reads in one place. Frames change the manifest's signature like forms do.
"""

from __future__ import annotations

from collections.abc import Mapping

from apps.runtime.manifests import RequestFrame

_FIND = {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{pattern}", "recursive": "{recursive}"}}
_FIND_OPTIONAL = ("pattern", "recursive")
_DATA = frozenset({"extract", "obtain", "make", "read", "record", "list"})

REQUEST_FRAMES: Mapping[str, tuple[RequestFrame, ...]] = {
    "find_files": (
        RequestFrame(
            actions=frozenset({"list"}), needs=("folder",), optional=_FIND_OPTIONAL, plan=(_FIND,), feeds=True
        ),
    ),
    "read_files": (
        RequestFrame(
            actions=frozenset({"read"}), needs=("files",), plan=({"tool": "read_files", "args": {"paths": "{files}"}},)
        ),
        RequestFrame(
            actions=frozenset({"read"}),
            needs=("folder",),
            optional=_FIND_OPTIONAL,
            plan=(_FIND, {"tool": "read_files", "args": {"from_step": 1}}),
        ),
        RequestFrame(
            actions=frozenset({"read"}),
            needs=("previous",),
            continues=True,
            plan=({"tool": "read_files", "args": {"from_step": "{previous}"}},),
        ),
    ),
    "extract_entries": (
        RequestFrame(
            actions=_DATA,
            needs=("fields", "files"),
            plan=(
                {"tool": "read_files", "args": {"paths": "{files}"}},
                {"tool": "extract_entries", "args": {"from_step": 1, "fields": "{fields}"}},
            ),
            feeds=True,
        ),
        RequestFrame(
            actions=_DATA,
            needs=("fields", "folder"),
            optional=_FIND_OPTIONAL,
            plan=(
                _FIND,
                {"tool": "read_files", "args": {"from_step": 1}},
                {"tool": "extract_entries", "args": {"from_step": 2, "fields": "{fields}"}},
            ),
            feeds=True,
        ),
        # "read the invoices in ~/X and get me the total of each one": the fields of what was just read.
        RequestFrame(
            actions=_DATA,
            needs=("fields", "previous"),
            continues=True,
            plan=({"tool": "extract_entries", "args": {"from_step": "{previous}", "fields": "{fields}"}},),
            feeds=True,
        ),
    ),
    "create_files_spreadsheet": (
        # Appended after a part of the request that gives a collection, when it names a spreadsheet.
        RequestFrame(
            actions=frozenset({"sheet"}),
            needs=("sheet", "previous"),
            optional=("if_exists",),
            continues=True,
            plan=(
                {
                    "tool": "create_files_spreadsheet",
                    "args": {"from_step": "{previous}", "path": "{sheet}", "if_exists": "{if_exists}"},
                },
            ),
        ),
    ),
    "delete_files": (
        RequestFrame(
            actions=frozenset({"delete"}),
            needs=("files",),
            plan=({"tool": "delete_files", "args": {"paths": "{files}"}},),
        ),
        RequestFrame(
            actions=frozenset({"delete"}),
            needs=("folder",),
            optional=_FIND_OPTIONAL,
            plan=(_FIND, {"tool": "delete_files", "args": {"from_step": 1}}),
        ),
        RequestFrame(
            actions=frozenset({"delete"}),
            needs=("previous", "refers_back"),
            continues=True,
            plan=({"tool": "delete_files", "args": {"from_step": "{previous}"}},),
        ),
    ),
    "undo_last_turn": (
        RequestFrame(actions=frozenset({"undo"}), subject=None, plan=({"tool": "undo_last_turn", "args": {}},)),
    ),
}
