"""Signals that say what a control does for a collection, from what the page shows.

Each control is read on its own evidence: its accessible name or text, its
section, whether it sits in a record's row, its address and whether it
expands something. The words are those of customer areas in Italian and
English, never the routes of one website. A control no signal recognises is
left alone (a model may still choose among such controls, see
:mod:`apps.sites.acting.route_choice`); a control that signs out, pays, deletes or
changes something is never a route.

Kinds, in the order a collection takes them:

``full_list``  the complete list of the items ("All bills", "Tutte le bollette")
``detail``     a row's detail view ("View", "Dettagli", the item's number as a link)
``download``   a row's document ("Download", "Scarica PDF")
``expansion``  more of the same list: next page, page number, "load more", a period
``archive``    an archive or history of the items
``section``    a part of the site named after the items ("My bills", "Fatturazione")
``account``    the way into the user's account area ("My account", "Area clienti", "MySolaria"),
               never another service's (webmail, a business portal): where the items are,
               when the collection starts on a home page
``menu``       a button that reveals more controls in place (a closed menu)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from apps.sites.acting.entries import account_entry
from apps.sites.observation.snapshot import Control

SignalKind = Literal["full_list", "detail", "download", "expansion", "archive", "section", "account", "menu"]
ExpansionKind = Literal["next_page", "page_number", "load_more", "period"]

# Lower goes first. A complete collection opens the full list before details.
PRIORITY: dict[SignalKind, int] = {
    "full_list": 0,
    "detail": 1,
    "download": 1,
    "expansion": 2,
    "archive": 3,
    "section": 4,
    "account": 5,
    "menu": 6,
}


def fold(text: str) -> str:
    """Lower case without accents, spaces collapsed: how labels are compared."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return re.sub(r"\s+", " ", plain).strip()


def _words(*phrases: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + "|".join(phrases) + r")(?!\w)")


# Never a route: leaving the account, paying, deleting, changing settings.
_AVOID = _words(
    r"sign ?out",
    r"log ?out",
    r"esci",
    r"disconnett\w*",
    r"logout",
    r"pay(?: now)?",
    r"paga(?:re)?(?: ora)?",
    r"delete",
    r"elimina\w*",
    r"remove",
    r"rimuovi",
    r"cancel\w*",
    r"annulla\w*",
    r"unsubscribe",
    r"disdici",
    r"disdetta",
    r"recedi",
    r"edit",
    r"modifica\w*",
    r"change",
    r"cambia",
    r"update",
    r"aggiorna",
    r"save",
    r"salva",
    r"submit",
    r"invia",
    r"send",
    r"close account",
    r"chiudi (?:il )?conto",
)
_NEXT = re.compile(
    r"^(?:next(?: page)?|older(?: \w+)?|successiv[ao]|pagina successiva|avanti|seguente|precedenti"
    r"|[\u203a\u00bb>]{1,2}|(?:next|successiva) [\u203a\u00bb>])$"
)
_PAGE_NUMBER = re.compile(r"^(?:page |pagina )?\d{1,3}$")
_LOAD_MORE = _words(
    r"(?:load|show|see|view) more",
    r"more \w+",
    r"mostra (?:altr[eio]|di piu)",
    r"carica (?:altr[eio]|di piu)",
    r"vedi (?:altr[eio]|di piu)",
    r"altr[ei] \w+",
)
_YEAR = re.compile(r"^(?:(?:year|anno) )?(?:19|20)\d{2}$")
_ALL = _words(r"all", r"tutt[ei]", r"ogni", r"elenco completo", r"lista completa", r"complete list", r"full list")
_SEE_ALL = re.compile(r"^(?:view|see|show) all$|^(?:vedi|mostra|visualizza) tutt[eio]$")
_ARCHIVE = _words(r"archive", r"archivio", r"storico", r"history", r"past", r"previous", r"precedenti", r"older")
_DETAIL = re.compile(
    r"^(?:view|details?|open|show|see|dettagli?o?|vedi|visualizza|apri|mostra)"
    r"(?: (?:the )?(?:bill|invoice|details?|bolletta|fattura|dettagli?o?|documento|document))?$"
)
_DOWNLOAD = _words(r"download", r"scarica", r"pdf", r"save pdf", r"salva pdf")
_MENU = re.compile(r"^(?:menu|main menu|menu principale|more|altro|☰|≡|open menu|apri menu)$")
_CODE = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9][a-z0-9/._-]{3,}$")


@dataclass(frozen=True)
class Signal:
    kind: SignalKind
    expansion: ExpansionKind | None = None

    @property
    def priority(self) -> int:
        return PRIORITY[self.kind]


def _names_object(label: str, object_words: tuple[str, ...]) -> bool:
    return any(re.search(r"(?<!\w)" + re.escape(fold(word)) + r"(?!\w)", label) for word in object_words)


def classify_control(control: Control, *, object_words: tuple[str, ...]) -> Signal | None:
    """What ``control`` does for a collection of the object named by ``object_words``, or None."""
    label = fold(control.label)
    if not label or not control.enabled:
        return None
    if _AVOID.search(label):
        return None
    in_row = bool(control.row) and fold(control.row) != label
    if _DOWNLOAD.search(label) or control.href.casefold().split("?")[0].endswith(".pdf"):
        return Signal("download") if in_row else None
    if _NEXT.match(label):
        return Signal("expansion", "next_page")
    # The page number or period shown now (the selected tab) was read with the page.
    if _PAGE_NUMBER.match(label) and not in_row:
        return None if control.current else Signal("expansion", "page_number")
    if _YEAR.match(label) and not in_row:
        return None if control.current else Signal("expansion", "period")
    if _LOAD_MORE.search(label) and not in_row and (control.role == "button" or not control.href):
        return Signal("expansion", "load_more")
    if in_row and (_DETAIL.match(label) or _CODE.match(label)):
        return Signal("detail")
    names_object = _names_object(label, object_words)
    if (_ALL.search(label) and names_object) or _SEE_ALL.match(label):
        return Signal("full_list")
    if _ARCHIVE.search(label) and (names_object or not in_row):
        return Signal("archive")
    if names_object and not in_row:
        return Signal("section")
    if control.form is None and account_entry(label, control.href):
        return Signal("account")  # header links sit in lists too: a row says nothing here; a form's button is no way
    if control.expanded is False or (_MENU.match(label) and control.role == "button"):
        return Signal("menu")
    return None


def avoided(control: Control) -> bool:
    """Whether clicking ``control`` could sign out, pay, delete or change something: never a route."""
    return bool(_AVOID.search(fold(control.label)))
