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
``container``  a place where items of several kinds are kept ("Documents", "Statements & notices",
               "Settings" where a subscription's billing lives): looked at while nothing was found
``menu``       a button that reveals more controls in place (a closed menu)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from apps.records.objects import normalised
from apps.sites.acting.entries import account_entry, continues_to_account
from apps.sites.observation import lexicon as lexicons
from apps.sites.observation.snapshot import Control, Field

SignalKind = Literal[
    "full_list", "detail", "download", "expansion", "archive", "section", "account", "container", "menu"
]
ExpansionKind = Literal["next_page", "page_number", "load_more", "period", "status"]

# Lower goes first. A complete collection opens the full list before details.
PRIORITY: dict[SignalKind, int] = {
    "full_list": 0,
    "detail": 1,
    "download": 1,
    "expansion": 2,
    "archive": 3,
    "section": 4,
    "account": 5,
    "container": 6,
    "menu": 7,
}


def fold(text: str) -> str:
    """Lower case without accents, apostrophes plain, spaces collapsed: how labels are compared."""
    return lexicons.plain(text)


def _words(name: str) -> tuple[str, ...]:
    """A phrase list of the collection lexicon (``apps/sites/lexicon/collection.json``), folded as labels are."""
    return _folded(lexicons.lexicon("collection").get(name, ()))


@functools.cache
def _folded(phrases: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(fold(phrase) for phrase in phrases))


_alternatives = lexicons.phrase_alternation


def _found(name: str, label: str) -> bool:
    """Whether a phrase of list ``name`` is in ``label`` as whole words."""
    return _search(_words(name)).search(label) is not None


_COUNT_AFTER = re.compile(r"\s*[(\[]\s*\d+\s*[)\]]\s*$")


def _is(name: str, label: str) -> bool:
    """Whether ``label`` is, whole, a phrase of list ``name``."""
    return _whole(_words(name)).match(label) is not None


@functools.cache
def _search(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + _alternatives(phrases) + r")(?!\w)")


@functools.cache
def _whole(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"^(?:" + _alternatives(phrases) + r")$")


@functools.cache
def _numbered(words: tuple[str, ...], number: str) -> re.Pattern[str]:
    """A label that is a number, perhaps after one of ``words``: "2", "Page 2", "Anno 2025"."""
    return re.compile(r"^(?:(?:" + _alternatives(words) + r") )?" + number + "$")


@functools.cache
def _detail(verbs: tuple[str, ...], articles: tuple[str, ...], objects: tuple[str, ...]) -> re.Pattern[str]:
    """ "View", "Dettagli", "View the invoice", "Vedi la bolletta": the whole label."""
    return re.compile(
        r"^(?:" + _alternatives(verbs) + r")(?: (?:(?:" + _alternatives(articles) + r") )?(?:"
        + _alternatives(objects) + r"))?$"
    )  # fmt: skip


# An item's own code as a link ("FT-2026-0042"): letters and digits together, no spaces. Not language.
_CODE = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9][a-z0-9/._-]{3,}$")


def _help(label: str, href: str) -> bool:
    """A page that asks or explains about the items ("How to read your bill", a FAQ), not where they are."""
    if _found("help", label) or _opening(_words("help_openings")).match(label):
        return True
    segments = [segment for segment in re.split(r"[/_.-]+", fold(urlsplit(href).path)) if segment]
    return any(segment in _words("help_address_words") for segment in segments[:2])


# "Ordini e resi", "Bills & payments", "Documenti / Comunicazioni": a title naming several places.
_TITLE_PARTS = re.compile(r"\s+(?:and|e|ed|&)\s+|\s*[/,|+]\s*")
# A place's title is short: "I miei pagamenti", "Statements & notices".
_CONTAINER_WORDS = 5


def _names_qualifier(label: str, qualifier: str) -> bool:
    plain = normalised(label)
    if not qualifier or not plain or len(plain.split()) > _CONTAINER_WORDS + 2:
        return False
    return re.search(r"(?<!\w)" + re.escape(qualifier) + r"(?!\w)", plain) is not None


def _a_container(label: str, container_words: tuple[str, ...]) -> bool:
    """Whether ``label`` is, or is made of, titles of places where items are kept (see ``classify_control``)."""
    plain = normalised(label)
    if not plain or len(plain.split()) > _CONTAINER_WORDS:
        return False
    if plain in container_words or _is("container_labels", fold(label)):
        return True
    openings = _opening(tuple(normalised(phrase) for phrase in _words("possessive_openings")))
    for part in _TITLE_PARTS.split(fold(label)):
        title = normalised(openings.sub("", normalised(part), count=1))
        if title and (title in container_words or _is("container_labels", title)):
            return True
    return False


@dataclass(frozen=True)
class Signal:
    kind: SignalKind
    expansion: ExpansionKind | None = None

    @property
    def priority(self) -> int:
        return PRIORITY[self.kind]


def _names_object(label: str, object_words: tuple[str, ...]) -> bool:
    return any(re.search(r"(?<!\w)" + re.escape(fold(word)) + r"(?!\w)", label) for word in object_words)


def classify_control(
    control: Control,
    *,
    object_words: tuple[str, ...],
    container_words: tuple[str, ...] = (),
    qualifier: str = "",
    tile: bool = False,
) -> Signal | None:
    """What ``control`` does for a collection of the object named by ``object_words``, or None.

    ``container_words`` are the titles of places where other kinds of items are kept (the
    collection plan's, :func:`~apps.records.objects.normalised`); with the lexicon's
    ``container_labels`` they make a ``container``, and so does a short label naming the request's
    ``qualifier`` of the object ("View your Council Tax account" for council tax bills).

    ``tile``: the control's row is no record (a dashboard tile, "Pagamenti · 3 avvisi · Vai ai
    pagamenti"); it may then lead to a section, an archive or a container as if it stood alone.
    """
    label = fold(control.label)
    if not label or not control.enabled:
        return None
    in_row = bool(control.row) and fold(control.row) != label
    # A tab of the list's payment status ("Pagati", "Da pagare (3)"): another view of the same list. Only a
    # link, whose address shows that view: the words of a status are never a button that pays.
    if _is("status_tabs", _COUNT_AFTER.sub("", label)) and not in_row and control.role == "link" and control.href:
        return None if control.current else Signal("expansion", "status")
    if _found("avoid", label):
        return None
    if _found("download", label) or control.href.casefold().split("?")[0].endswith(".pdf"):
        return Signal("download") if in_row else None
    if _is("next_labels", label):
        return Signal("expansion", "next_page")
    # The page number or period shown now (the selected tab) was read with the page.
    if _numbered(_words("page_words"), r"\d{1,3}").match(label) and not in_row:
        return None if control.current else Signal("expansion", "page_number")
    if _numbered(_words("year_words"), r"(?:19|20)\d{2}").match(label) and not in_row:
        return None if control.current else Signal("expansion", "period")
    if _found("load_more", label) and not in_row and (control.role == "button" or not control.href):
        return Signal("expansion", "load_more")
    detail = _detail(_words("detail_verbs"), _words("detail_articles"), _words("detail_objects"))
    if in_row and (detail.match(label) or _CODE.match(label)):
        return Signal("detail")
    names_object = _names_object(label, object_words)
    in_row = in_row and not tile
    about_the_items = names_object and _help(label, control.href)  # a guide to the bills is not where they are
    if ((_found("all", label) and names_object) or _is("see_all_labels", label)) and not about_the_items:
        return Signal("full_list")
    if _found("archive", label) and (names_object or not in_row) and not about_the_items:
        return Signal("archive")
    if names_object and not in_row and not about_the_items:
        return Signal("section")
    onward = continues_to_account(label) and control.panel is None  # an interstitial's way on, not a dialog's
    if control.form is None and (account_entry(label, control.href) or onward):
        return Signal("account")  # header links sit in lists too: a row says nothing here; a form's button is no way
    if not in_row and (_a_container(control.label, container_words) or _names_qualifier(control.label, qualifier)):
        return Signal("container")
    if control.expanded is False or (_is("menu_labels", label) and control.role == "button"):
        return Signal("menu")
    return None


def period_choices(field: Field) -> tuple[str, ...]:
    """The options of ``field`` besides the one shown, when it chooses among periods of a list; else ().

    A period chooser is a ``<select>`` most of whose options are years ("2025",
    "2025/26", "Anno 2024") or the lexicon's ``period_options`` ("Last 12
    months", "Tutti gli anni"); a chooser of kinds ("All types", "Statements")
    is not one.
    """
    if field.type != "select" or not field.visible or not field.editable or len(field.options) < 2:
        return ()
    pattern = _period_option(lexicons.period_option_source())
    periods = [pattern.search(fold(option)) is not None for option in field.options]
    if sum(periods) * 2 < len(periods) or sum(periods) < 2:
        return ()
    return tuple(
        option for option, period in zip(field.options, periods, strict=True) if period and option != field.chosen
    )


@functools.cache
def _period_option(source: str) -> re.Pattern[str]:
    return re.compile(source)


# A loading line is short: "Loading…", "Caricamento in corso…", "Loading billing history…".
_LOADING_LINE_CHARS = 60
_LOADING_LINE_WORDS = 4


def still_loading(text: str) -> bool:
    """Whether the page's text shows a line saying its content is still on the way: short, opening with
    one of the ``loading_phrases``, and trailing off ("…") or of a few words ("Please wait")."""
    opening = _opening(_words("loading_phrases"))
    for line in text.splitlines():
        plain = fold(line).strip()
        if not plain or len(plain) > _LOADING_LINE_CHARS or opening.match(plain) is None:
            continue
        if plain.endswith(("\u2026", "...")) or len(plain.split()) <= _LOADING_LINE_WORDS:
            return True
    return False


@functools.cache
def _opening(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"^\s*(?:" + _alternatives(phrases) + r")(?!\w)")


def avoided(control: Control) -> bool:
    """Whether clicking ``control`` could sign out, pay, delete or change something: never a route."""
    return _found("avoid", fold(control.label))
