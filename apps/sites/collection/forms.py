"""The request forms of the collection executors (English and Italian).

"collect all invoices from 2026 from <url> into a spreadsheet" plans a
collection, then a spreadsheet of its items. Each sentence has two plans:

* **signed in** — ``sign_in`` on ``<url>`` first, then the collection, then the
  spreadsheet. A form whose plan uses credentials is proposed only when the
  owner's vault would grant them for that website (the runtime asks the
  mandate provider; see :func:`apps.runtime.paths.forms.propose_from_forms`);
* **public** — the collection and the spreadsheet, when the owner holds no
  credential for that website.

Both plans share the collection's session only through the owner's browser
data: the ``sign_in`` session saves its cookies (session cookies included)
when it ends, and the collection's session starts from them.

Adding "… and save the PDFs to ~/Bills" ("… e salva i PDF in ~/Bollette")
uses ``collect_site_documents`` instead, which asks for confirmation showing
the folder before anything is downloaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.runtime.manifests import RequestForm, RequestFrame

_PERIOD_URL = {"period": "text", "url": "url"}
_WITH_FOLDER = {**_PERIOD_URL, "folder": "folder"}

_RECORDS_EN = "(collect|gather) all [the|my] invoices (from|of|for) {period} from {url} into a spreadsheet"
_RECORDS_IT = "raccogli tutte le [mie] fatture (del|dal|di) {period} da {url} in un foglio di calcolo"
_DOCUMENTS_EN = _RECORDS_EN + " and (save|download) [the|their] (pdfs|pdf files|pdf|documents) (to|in|into) {folder}"
_DOCUMENTS_IT = (
    _RECORDS_IT + " e (salva|scarica) [i|i loro|le] (pdf|documenti|bollette) (in|nella cartella|nella) {folder}"
)
_WHAT = {"en": "all invoices from {period}", "it": "tutte le fatture del {period}"}
_SHEET = {"en": "~/invoices {period}.xlsx", "it": "~/fatture {period}.xlsx"}
_SIGN_IN = {"tool": "sign_in", "args": {"url": "{url}"}}


def _plan(language: str, *, documents: bool, signed_in: bool) -> tuple[Mapping[str, Any], ...]:
    collect: dict[str, Any] = {"url": "{url}", "what": _WHAT[language]}
    if documents:
        collect["save_documents_to"] = "{folder}"
    tool = "collect_site_documents" if documents else "collect_site_records"
    collection = 2 if signed_in else 1
    sheet = {"from_step": collection, "path": _SHEET[language], "if_exists": "new_name"}
    steps: list[Mapping[str, Any]] = [_SIGN_IN] if signed_in else []
    steps += [{"tool": tool, "args": collect}, {"tool": "create_files_spreadsheet", "args": sheet}]
    return tuple(steps)


def _forms(*, documents: bool) -> tuple[RequestForm, ...]:
    templates = {"en": _DOCUMENTS_EN, "it": _DOCUMENTS_IT} if documents else {"en": _RECORDS_EN, "it": _RECORDS_IT}
    slots = _WITH_FOLDER if documents else _PERIOD_URL
    return tuple(
        RequestForm(
            language="en" if language == "en" else "it",
            template=template,
            slots=slots,
            plan=_plan(language, documents=documents, signed_in=signed_in),
        )
        for signed_in in (True, False)
        for language, template in templates.items()
    )


RECORDS_FORMS: tuple[RequestForm, ...] = _forms(documents=False)

# The frames: any wording that asks to collect from a website (apps/runtime/understanding). The runtime
# adds a sign-in first when the owner's vault holds a credential for the website, as for the forms.
_COLLECT_ACTIONS = frozenset({"obtain", "extract", "make", "list", "record"})
RECORDS_FRAMES: tuple[RequestFrame, ...] = (
    RequestFrame(
        actions=_COLLECT_ACTIONS,
        needs=("url", "what"),
        optional=("extra_fields",),
        feeds=True,
        plan=(
            {"tool": "collect_site_records", "args": {"url": "{url}", "what": "{what}", "fields": "{extra_fields}"}},
        ),
    ),
)
DOCUMENTS_FRAMES: tuple[RequestFrame, ...] = (
    RequestFrame(
        actions=frozenset({"download"}),
        needs=("url", "what", "target_folder"),
        replaces=("collect_site_records",),
        optional=("extra_fields",),
        feeds=True,
        plan=(
            {
                "tool": "collect_site_documents",
                "args": {
                    "url": "{url}",
                    "what": "{what}",
                    "save_documents_to": "{target_folder}",
                    "fields": "{extra_fields}",
                },
            },
        ),
    ),
)
DOCUMENTS_FORMS: tuple[RequestForm, ...] = _forms(documents=True)
