"""What a consent control's label means, and whether a panel is a consent notice.

Meaning comes from the visible label read against the native cookie lexicon
(``apps/sites/lexicon/cookies.json``), never from ids, classes or positions.
Rejection is read first, so "Accetta solo i necessari" rejects although it
holds the word for accept; whatever is left of the label after the matched
phrase must not give consent, or the label is ``unclear``. An accept button
need not say accept ("Got it", "Va bene"). When the visible text and the
accessible name disagree, the label is ``unclear``: a hidden name cannot
turn a visible "Accept" into a rejection.

A panel is a consent notice when its own text, name or image alternatives
name cookies or consent. Words about data and privacy alone ("personal
data", "our partners") make one only beside a rejecting or settings control,
and so do consent words in a promotion; otherwise a promotion is ``other``.
"""

from __future__ import annotations

import re
from typing import Literal

from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern
from apps.sites.observation.snapshot import Control, Panel, Snapshot

LabelMeaning = Literal["reject", "save", "settings", "accept", "close", "unclear", "other"]
PanelClass = Literal["consent", "promotion", "other"]
TOGGLE_ROLES = frozenset({"checkbox", "switch", "menuitemcheckbox"})
PRESS_ROLES = frozenset({"button", "link", "clickable", "menuitem", "tab"})


def _phrases(name: str) -> tuple[str, ...]:
    return lexicon("cookies")[name]


def clean_label(label: str) -> str:
    """Folded, punctuation (but apostrophes and the close signs) made space."""
    return " ".join(re.sub("[^\\w'\u00d7\u2715\u2716-]+", " ", fold(label)).split())


def _without(label: str, list_name: str) -> tuple[bool, str]:
    """Whether a phrase of ``list_name`` occurs, and the label with every occurrence removed."""
    pattern = phrase_pattern(_phrases(list_name))
    return bool(pattern.search(label)), " ".join(pattern.sub(" ", label).split())


def _gives_consent(rest: str) -> bool:
    return bool(phrase_pattern(_phrases("accept_phrases")).search(rest))


def text_meaning(label: str) -> LabelMeaning:
    """The meaning of one label; phrases are tried from the most to the least protective."""
    text = clean_label(label)
    if not text:
        return "other"
    ordered: tuple[tuple[str, LabelMeaning], ...] = (
        ("reject_phrases", "reject"),
        ("save_phrases", "save"),
        ("settings_phrases", "settings"),
    )
    for list_name, meaning in ordered:
        found, rest = _without(text, list_name)
        if found:
            return "unclear" if _gives_consent(rest) else meaning
    if _gives_consent(text):
        return "accept"
    if phrase_pattern(_phrases("close_phrases")).fullmatch(text):
        return "close"
    return "other"


def control_meaning(control: Control) -> LabelMeaning:
    """The meaning of a control: its visible text decides; a disagreeing name makes it unclear; a close
    control whose description refuses ("continue without accepting") rejects."""
    by_text = text_meaning(control.text) if control.text.strip() else None
    by_name = text_meaning(control.name) if control.name.strip() else None
    if by_text is None:
        meaning = by_name or "other"
    elif by_name is None or by_name in (by_text, "other"):
        meaning = by_text
    else:
        return "unclear"
    # A close control that says, in its own description, that it refuses ("Chiudi e continua senza
    # accettare", the Garante's close button) is a rejection; a description never makes anything else one.
    if meaning in ("close", "other") and control.description and text_meaning(control.description) == "reject":
        return "reject"
    return meaning


def is_necessary(label: str) -> bool:
    """A toggle for choices a site cannot switch off ("Strictly necessary", "Tecnici")."""
    return bool(phrase_pattern(_phrases("necessary_phrases")).search(clean_label(label)))


def _panel_words(panel: Panel) -> str:
    return fold(" ".join((panel.name, panel.text, *panel.image_alts)))


def classify_panel(snapshot: Snapshot, panel: Panel) -> PanelClass:
    """``consent`` when the panel's own words speak of cookies or consent; promotions are ``other``.

    Words about data and privacy alone, or consent words beside a promotion,
    count only when the panel also offers a rejecting or settings control.
    """
    words = _panel_words(panel)
    strong = bool(phrase_pattern(_phrases("notice_phrases")).search(words))
    support = bool(phrase_pattern(_phrases("notice_support_phrases")).search(words))
    promotion = bool(phrase_pattern(_phrases("promotion_phrases")).search(words))
    if (strong and not promotion) or ((strong or support) and _offers_refusal(snapshot, panel)):
        return "consent"
    return "promotion" if promotion else "other"


def _offers_refusal(snapshot: Snapshot, panel: Panel) -> bool:
    return any(control_meaning(control) in ("reject", "settings") for control in snapshot.panel_controls(panel))


def consent_panels(snapshot: Snapshot) -> tuple[Panel, ...]:
    return tuple(panel for panel in snapshot.panels if classify_panel(snapshot, panel) == "consent")


def notice_outside_panels(snapshot: Snapshot) -> bool:
    """A rejection offered outside any panel (a small inline bar): seen, but not rejectable here.

    An inline strip that only acknowledges ("Ho capito", "Got it") offers nothing to reject and
    blocks nothing: it is left as it is, never pressed.
    """
    notice = phrase_pattern(_phrases("notice_phrases"))
    for control in snapshot.controls:
        if control.panel is not None or control_meaning(control) != "reject":
            continue
        if notice.search(fold(f"{control.section} {control.row}")):
            return True
    return False
