"""The native lexicons the browser work reads: updatable data, not code.

Each lexicon is a JSON file of phrase lists under ``apps/sites/lexicon/``.
An operator can override a file by placing one of the same name in
``METNOS_SITES_LEXICON_DIR``; lists are read whole, never merged, so a
removal takes effect. No entry names a website: the lexicons hold language,
not routes.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path

from django.conf import settings

NATIVE_DIR = Path(__file__).parent.parent / "lexicon"


class LexiconError(ValueError):
    """A lexicon file is missing, unreadable, or not a mapping of phrase lists."""


def fold(text: str) -> str:
    """Casefolded, NFKC, typographic apostrophes and dashes made plain, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
    return " ".join(text.split())


@cache
def _load(name: str, override_dir: str) -> dict[str, tuple[str, ...]]:
    candidates = [Path(override_dir) / f"{name}.json"] if override_dir else []
    candidates.append(NATIVE_DIR / f"{name}.json")
    path = next((candidate for candidate in candidates if candidate.is_file()), None)
    if path is None:
        raise LexiconError(f"no lexicon named {name!r}")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LexiconError(f"lexicon {name!r} is not readable JSON ({type(error).__name__})") from None
    if not isinstance(raw, dict):
        raise LexiconError(f"lexicon {name!r} must be an object of phrase lists")
    lists: dict[str, tuple[str, ...]] = {}
    for key, value in raw.items():
        if key.startswith("_"):
            continue  # comments
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise LexiconError(f"lexicon {name!r}: {key!r} must be a list of phrases")
        lists[key] = tuple(dict.fromkeys(fold(item) for item in value if item.strip()))
    return lists


def lexicon(name: str) -> dict[str, tuple[str, ...]]:
    """The phrase lists of lexicon ``name`` (folded), the operator's override first."""
    return _load(name, str(getattr(settings, "METNOS_SITES_LEXICON_DIR", "") or ""))


def plain(text: str) -> str:
    """:func:`fold`, accents removed too: how a collection compares labels ("Più" is "piu")."""
    decomposed = unicodedata.normalize("NFKD", fold(text))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@cache
def phrase_alternation(phrases: tuple[str, ...]) -> str:
    """The phrases as one regex alternation, longest first: a word ``so*`` is any word so begun, a lone
    ``*`` any one word ("more *": "more bills"). Never matches anything when there are none."""

    def word(part: str) -> str:
        if part == "*":
            return r"\w+"
        return re.escape(part[:-1]) + r"\w*" if part.endswith("*") else re.escape(part)

    ordered = sorted(phrases, key=len, reverse=True)
    return "|".join(" ".join(word(part) for part in phrase.split()) for phrase in ordered) or "(?!)"


# A year in a label: "2025", "2025/26", "Anno 2024".
A_YEAR = r"(?<!\d)(?:19|20)\d{2}(?!\d)"


def period_option_source() -> str:
    """The regex (Python and JavaScript alike) an option of a period chooser matches, on a :func:`plain`
    label: a year, or a whole phrase of the collection lexicon's ``period_options`` ("Last 12 months")."""
    return _period_option_source(lexicon("collection").get("period_options", ()))


@cache
def _period_option_source(phrases: tuple[str, ...]) -> str:
    folded = tuple(dict.fromkeys(plain(phrase) for phrase in phrases))
    return f"^(?:{phrase_alternation(folded)})$|{A_YEAR}"


@cache
def phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """One regex finding any of ``phrases`` as whole words in folded text, longest first."""
    ordered = sorted(phrases, key=len, reverse=True)
    alternatives = "|".join(re.escape(phrase).replace(r"\ ", r"\s+") for phrase in ordered)
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")
