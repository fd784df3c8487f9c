"""The request forms of the built-in executors (English and Italian).

Forms are part of an executor's manifest (they change its signature, so a
changed form invalidates cached plans). They are kept together here so the
sentences people use can be read and reviewed in one place.

The summary-table form compares the requested fields *and* who offers them:
a comparison of prices is only useful with the supplier beside each price.
"""

from __future__ import annotations

from collections.abc import Mapping

from apps.runtime.manifests import RequestForm

_SUMMARY_PLAN_EN = (
    {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
    {"tool": "read_files", "args": {"from_step": 1}},
    {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["supplier", "{fields}"]}},
    {
        "tool": "create_files_spreadsheet",
        "args": {"from_step": 3, "path": "{folder}/summary.xlsx", "if_exists": "new_name"},
    },
)
_SUMMARY_PLAN_IT = (
    {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
    {"tool": "read_files", "args": {"from_step": 1}},
    {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["fornitore", "{fields}"]}},
    {
        "tool": "create_files_spreadsheet",
        "args": {"from_step": 3, "path": "{folder}/riepilogo.xlsx", "if_exists": "new_name"},
    },
)
_EXTRACT_PLAN = (
    {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
    {"tool": "read_files", "args": {"from_step": 1}},
    {"tool": "extract_entries", "args": {"from_step": 2, "fields": "{fields}"}},
    {"tool": "create_files_spreadsheet", "args": {"from_step": 3, "path": "{folder}/{filename}"}},
)
_FOLDER_SLOTS = {"count": "count", "what": "documents", "folder": "folder", "fields": "fields"}

REQUEST_FORMS: Mapping[str, tuple[RequestForm, ...]] = {
    "create_files_spreadsheet": (
        RequestForm(
            language="en",
            template=(
                "read [the] [all] [{count}] {what} in [the|my] {folder} folder, compare [their|the] {fields}, "
                "and (create|make|build) a summary [table|spreadsheet|sheet]"
            ),
            slots=_FOLDER_SLOTS,
            plan=_SUMMARY_PLAN_EN,
        ),
        RequestForm(
            language="it",
            template=(
                "leggi [i|le|gli|tutti i|tutte le] [{count}] {what} nella cartella {folder}, confronta "
                "[i loro|le loro|i|le] {fields} e crea una tabella [riassuntiva|di riepilogo]"
            ),
            slots=_FOLDER_SLOTS,
            plan=_SUMMARY_PLAN_IT,
        ),
        RequestForm(
            language="en",
            template="extract [the] {fields} from [the] {what} in [the|my] {folder} folder into {filename}",
            slots={"what": "documents", "folder": "folder", "fields": "fields", "filename": "filename"},
            plan=_EXTRACT_PLAN,
        ),
        RequestForm(
            language="it",
            template="estrai [il|la|i|le|gli] {fields} (dai|dalle|dagli) {what} nella cartella {folder} in {filename}",
            slots={"what": "documents", "folder": "folder", "fields": "fields", "filename": "filename"},
            plan=_EXTRACT_PLAN,
        ),
    ),
    "read_files": (
        RequestForm(
            language="en",
            template="read [the|all the|all] [{what}] files in [the|my] {folder} folder",
            slots={"what": "documents", "folder": "folder"},
            plan=(
                {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
                {"tool": "read_files", "args": {"from_step": 1}},
            ),
        ),
        RequestForm(
            language="it",
            template="leggi [i|tutti i] file [{what}] nella cartella {folder}",
            slots={"what": "documents", "folder": "folder"},
            plan=(
                {"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},
                {"tool": "read_files", "args": {"from_step": 1}},
            ),
        ),
    ),
    "find_files": (
        RequestForm(
            language="en",
            template="(find|list|show) [me] [the|all the|all|my] [{what}] files in [the|my] {folder} folder",
            slots={"what": "documents", "folder": "folder"},
            plan=({"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},),
        ),
        RequestForm(
            language="it",
            template="(trova|elenca|mostra|mostrami) [i|tutti i] file [{what}] nella cartella {folder}",
            slots={"what": "documents", "folder": "folder"},
            plan=({"tool": "find_files", "args": {"base_path": "{folder}", "pattern": "{what}"}},),
        ),
    ),
}
