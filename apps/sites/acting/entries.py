"""Controls that lead into the user's account, and those that lead into another service's.

Read against the native sign-in lexicon (``apps/sites/lexicon/signin.json``):
an account entry is a label that is or contains an entry phrase ("My
account", "Area clienti", "Log in") or a brand name on the account's prefix
("MySolaria"); a control that names another service on the same website —
webmail, a business or partner portal, guest payment — by its label, a brand
word or its address is never the account's. Sign-in chooses its way in with
these words (:mod:`apps.sites.signin.entry`); a collection that starts on a
website's home page uses them to reach the customer area after signing in.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern


def signin_words(name: str) -> tuple[str, ...]:
    """A phrase list of the sign-in lexicon (empty when an operator's override leaves it out)."""
    return lexicon("signin").get(name, ())


def brand(label: str) -> str | None:
    """The name after an account prefix in one word ("mysolaria" → "solaria"), if the label is one."""
    if " " in label:
        return None
    for prefix in signin_words("brand_entry_prefixes"):
        if label.startswith(prefix) and len(label) - len(prefix) >= 3 and label[len(prefix) :].isalpha():
            return label[len(prefix) :]
    return None


def other_service(label: str, href: str = "") -> bool:
    """Whether a control names the sign-in of another service on the website (webmail, a business portal)."""
    others = phrase_pattern(signin_words("other_service_phrases"))
    if others.search(label):
        return True
    for word in label.split():
        named = brand(word)
        if named is not None and (others.fullmatch(named) or named in signin_words("other_service_brands")):
            return True  # "Sign in to MyMail"
    # The address says it too, in its host or first path segment: "https://webmail.example.it/", "/business/login".
    parts = urlsplit(fold(href))
    first_segment = parts.path.strip("/").split("/", 1)[0]
    address = re.sub(r"[^a-z0-9]+", " ", f"{parts.hostname or ''} {first_segment}").strip()
    return bool(address and others.search(address))


def account_entry(label: str, href: str = "") -> bool:
    """Whether a control (its folded label) leads into the user's own account area."""
    if not label or other_service(label, href) or phrase_pattern(signin_words("not_entry_phrases")).search(label):
        return False
    entries = phrase_pattern(signin_words("entry_phrases"))
    if entries.search(label) or brand(label) is not None:
        return True
    # A signed-in page greets the person with a link to their account: "Ciao Giulia", "Hi Anna".
    greeting = phrase_pattern(signin_words("signed_in_greetings")).match(label)
    return greeting is not None and 0 < len(label[greeting.end() :].split()) <= 3


def continues_to_account(label: str) -> bool:
    """Whether a control (its folded label) is an interstitial's way on to the account after signing in
    ("Vai alla tua area", "Non ora, vai alla tua area", "Continue to your account"): the lexicon's
    ``continue_phrases``, whole, once a dismissal opening it is set aside."""
    return phrase_pattern(signin_words("continue_phrases")).fullmatch(without_dismissal(label)) is not None


def without_dismissal(label: str) -> str:
    """The label without a dismissal opening it ("non ora, vai alla tua area" → "vai alla tua area")."""
    opening = phrase_pattern(signin_words("dismiss_openings")).match(label)
    if opening is None:
        return label
    return label[opening.end() :].lstrip(" ,;:-\u2013\u2014").strip() or label
