"""Choosing the way in among observed controls, from signals on the page.

Each control's label is read against the native sign-in lexicon:

- a label that *is* an entry phrase ("Sign in", "Area clienti") is the
  strongest signal; one that contains an entry phrase comes next; account
  menus ("Profile") are weak; an entry phrase in the control's section title
  adds a little;
- a verb used generically — the same sign-in word opening several labels
  with different objects ("Accedi alle offerte", "Accedi alle bollette") —
  identifies nothing, and so does not hide the one control the rest of the
  evidence designates ("Area clienti");
- sign-up, password recovery and sign-out controls are never the entry;
- nor is the sign-in of another service on the same website — webmail, a
  business or partner portal, guest payment — named by its label or its
  address: a credential goes only to the sign-in of the account it was
  saved for;
- a brand name on the account's prefix ("MySolaria", "MyFibreLink") counts
  as an entry phrase contained in the label;
- among ways in that tie, one listed under a column of help links ("Let Us
  Help You") gives way to the others;
- the button that opens the site's menu ("☰ Menu") is the weakest signal:
  taken only when nothing else leads in, since the way in often sits there.

A preference counts only when it singles out one control. Several controls
tied at the top are ambiguous and stop the search — unless they all lead to
the same address, when following any of them is the same act. A control the
observation marks ambiguous (indistinguishable from another) is never chosen.
With no signal at all, the caller may ask the route-choice model.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from apps.sites.acting.entries import brand, other_service
from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern
from apps.sites.observation.snapshot import Control

EXACT, CONTAINS, ACCOUNT, SECTION, MENU = 30, 20, 10, 3, 1
ENTRY_ROLES = frozenset({"link", "button", "menuitem", "tab"})


@dataclass(frozen=True)
class EntryChoice:
    kind: Literal["chosen", "ambiguous", "none"]
    control: int | None = None  # index into the controls given
    score: int = 0
    tied: int = 0  # how many controls shared the top score
    candidates: tuple[int, ...] = ()  # for "ambiguous": the tied controls (indices), when none is itself ambiguous


def _words(name: str) -> tuple[str, ...]:
    return lexicon("signin").get(name, ())


def _clean(label: str) -> str:
    return re.sub(r"[^\w' -]+", " ", fold(label)).strip()


def _generic_verbs(labels: Sequence[str]) -> set[str]:
    """Sign-in words that open several labels with different objects: used as plain verbs here."""
    verbs = phrase_pattern(_words("generic_verbs"))
    objects: dict[str, set[str]] = {}
    for label in labels:
        match = verbs.match(label)
        if match is not None and label[match.end() :].strip():
            objects.setdefault(match.group(0), set()).add(label[match.end() :].strip())
    return {verb for verb, seen in objects.items() if len(seen) >= 2}


def _score(label: str, section: str, generic: set[str], href: str = "") -> int:
    if not label or phrase_pattern(_words("not_entry_phrases")).search(label):
        return 0
    if other_service(label, href):
        return 0
    entry = phrase_pattern(_words("entry_phrases"))
    score = 0
    if entry.fullmatch(label):
        score = EXACT
    else:
        body = label
        verbs = phrase_pattern(_words("generic_verbs"))
        opening = verbs.match(label)
        if opening is not None and opening.group(0) in generic:
            body = label[opening.end() :]  # the verb says nothing here; its object may
        if entry.search(body) or brand(label) is not None:
            score = CONTAINS
        elif phrase_pattern(_words("account_menu_phrases")).fullmatch(label):
            score = ACCOUNT
    if score and section and entry.search(fold(section)):
        score += SECTION
    return score


def choose_entry(controls: Sequence[Control]) -> EntryChoice:
    """The control that leads to signing in, when the evidence singles one out."""
    labels = [_clean(control.label) for control in controls]
    generic = _generic_verbs(labels)
    scores = [
        _score(label, control.section, generic, control.href) if control.role in ENTRY_ROLES and control.enabled else 0
        for control, label in zip(controls, labels, strict=True)
    ]
    menus = phrase_pattern(_words("menu_phrases"))
    scores = [
        MENU if not score and control.role == "button" and control.enabled and menus.fullmatch(label) else score
        for control, label, score in zip(controls, labels, scores, strict=True)
    ]
    top = max(scores, default=0)
    if top == 0:
        return EntryChoice("none")
    tied = [index for index, score in enumerate(scores) if score == top]
    # Among equal ways in, one listed under a column of help links ("Let Us Help You") gives way.
    helping = phrase_pattern(_words("help_sections"))
    outside_help = [index for index in tied if not helping.search(fold(controls[index].section))]
    if outside_help and len(outside_help) < len(tied):
        tied = outside_help
    if any(controls[index].ambiguous for index in tied):
        return EntryChoice("ambiguous", score=top, tied=len(tied))
    if len(tied) == 1:
        return EntryChoice("chosen", tied[0], top, 1)
    destinations = Counter(controls[index].href for index in tied)
    if len(destinations) == 1 and next(iter(destinations)):
        # Several copies of one link (header and footer): following any is the same act.
        visible = [index for index in tied if controls[index].in_viewport] or tied
        return EntryChoice("chosen", visible[0], top, len(tied))
    return EntryChoice("ambiguous", score=top, tied=len(tied), candidates=tuple(tied))
