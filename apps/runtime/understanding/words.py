"""Words of a request: the things it names exactly, its tokens, their lemmas and what the lexicon says they mean.

Addresses, paths, file names, glob patterns and quoted names are taken out of
the text first, exactly as written, so no rule below can mangle them; the
rest becomes tokens (lower case, no accents, Italian elisions split off:
"dell'anno" → "dell'" "anno"), each with its lemma from ``simplemma`` in the
request's language and its place in the original text, so a phrase the
request says ("all the 2026 bills") is cut from the user's own words.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

LEXICON = Path(__file__).with_name("lexicon") / "requests.json"
LANGUAGES = ("en", "it")

_URL = re.compile(r"https?://[^\s<>\"',;]+", re.IGNORECASE)
_DOMAIN = re.compile(
    r"(?<![\w@./~-])(?:www\.)?(?:[a-z0-9-]+\.)+(?:it|com|org|net|eu|info|biz|io|de|fr|nl|es|ch|uk|co)(?:/[^\s,;]*)?"
    r"(?![\w-])",
    re.IGNORECASE,
)
_PATH = re.compile(r"(?<![\w:/.])(?:~(?:/[^\s,;?!]*)?|/[^\s,;?!]+)")
# A folder path written without "~/" ("the Invoices/2025 folder"): a capitalised name, then /parts.
_RELATIVE_PATH = re.compile(r"(?<![\w:/.~-])[A-Z][\w-]*(?:/[\w.-]+)+")
_FILE_NAME = re.compile(r"(?<![\w/.~-])[\w][\w.-]*\.(?:[a-z0-9]{2,5})(?![\w])", re.IGNORECASE)
_GLOB = re.compile(r"(?<![\w/~])[\w.-]*\*[\w.*-]*")
_EXTENSION = re.compile(r"(?<![\w/~*])\.([a-z0-9]{2,5})\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“«]([^\"”»]{1,200})[\"”»]|(?<![\w'])'([^'\s][^']{0,98})'(?![\w'])")
_WORD = re.compile(r"[\w]+(?:'(?=\w))?|'|->|[,;:.!?#\u2014\u2013]")
_ELISION = re.compile(r"^(l|dell|dall|nell|sull|all|un|d|c|quell|quest|coll)'$")
_TRAILING = ".,;:!?)"
KNOWN_EXTENSIONS = frozenset({"pdf", "xlsx", "xls", "csv", "ods", "txt", "html", "htm", "docx", "doc", "json", "tmp",
                              "log", "png", "jpg", "jpeg", "heic", "md", "xml", "zip"})  # fmt: skip


@dataclass(frozen=True)
class Entity:
    """Something named exactly: a ``url``, ``path``, ``file`` name, ``glob``, ``extension`` or ``quoted`` name."""

    kind: str
    value: str
    start: int
    end: int


@dataclass(frozen=True)
class Token:
    text: str  # as written
    norm: str  # lower case, no accents
    lemma: str
    start: int
    end: int
    entity: Entity | None = None
    capitalised: bool = False
    bare: str = ""  # an Italian verb without its joined pronouns ("leggili" → "leggi"), else ""
    fixed: str = ""  # the lexicon's word one typo away ("lsit" → "list"), for words the lexicon lacks

    def means(self, word: str) -> bool:
        return (
            word in (self.norm, self.lemma)
            or (bool(self.bare) and word == self.bare)
            or (bool(self.fixed) and word == self.fixed)
        )


def plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("\u2019", "'"))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@cache
def lexicon() -> Mapping[str, Any]:
    return json.loads(LEXICON.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@lru_cache(maxsize=20_000)
def lemma(word: str, language: str) -> str:
    if not word.isalpha() or len(word) < 3:
        return word
    import simplemma  # loaded on first use: its dictionaries take a moment

    try:
        return plain(str(simplemma.lemmatize(word, lang=language)))
    except ValueError:
        return word


def entities(text: str) -> list[Entity]:
    """What the request names exactly, in order, without overlaps (the first kind to claim a place keeps it)."""
    found: list[Entity] = []

    def claim(kind: str, start: int, end: int, value: str) -> None:
        if any(start < other.end and other.start < end for other in found):
            return
        found.append(Entity(kind, value, start, end))

    for match in _QUOTED.finditer(text):
        value = (match.group(1) or match.group(2) or "").strip()
        # A quoted path or file name is that path, spaces and all: "~/Downloads/statement copy (2).pdf".
        named_file = "." in value and value.rsplit(".", 1)[-1].casefold() in KNOWN_EXTENSIONS
        kind = "path" if value.startswith(("~", "/")) else "file" if named_file else "quoted"
        claim(kind, match.start(), match.end(), value)
    for match in _URL.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        claim("url", match.start(), match.start() + len(value), value)
    for match in _DOMAIN.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        claim("url", match.start(), match.start() + len(value), "https://" + value)
    for match in _GLOB.finditer(text):
        claim("glob", match.start(), match.end(), match.group(0))
    for match in _PATH.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        claim("path", match.start(), match.start() + len(value), value)
    for match in _RELATIVE_PATH.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        claim("path", match.start(), match.start() + len(value), "~/" + value)
    for match in _FILE_NAME.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        if value.rsplit(".", 1)[-1].casefold() in KNOWN_EXTENSIONS:
            claim("file", match.start(), match.start() + len(value), value)
    for match in _EXTENSION.finditer(text):
        if match.group(1).casefold() in KNOWN_EXTENSIONS:
            claim("extension", match.start(), match.end(), match.group(1).casefold())
    return sorted(found, key=lambda entity: entity.start)


def tokens(text: str, language: str) -> list[Token]:
    """The request's tokens; each entity is one token standing for it."""
    named = entities(text)
    out: list[Token] = []
    cursor = 0
    for entity in [*named, None]:
        stop = entity.start if entity is not None else len(text)
        out.extend(_words(text, cursor, stop, language))
        if entity is not None:
            out.append(Token(entity.value, f"<{entity.kind}>", f"<{entity.kind}>", entity.start, entity.end, entity))
            cursor = entity.end
    return out


def _word_spans(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """Word and punctuation spans; Italian "c'è" stays one word (its "è" is no "e", "and")."""
    spans: list[tuple[int, int]] = []
    for match in _WORD.finditer(text, start, stop):
        if plain(match.group(0)) == "'":
            continue
        if spans and plain(text[spans[-1][0] : spans[-1][1]]) == "c'" and plain(match.group(0)) == "e":
            spans[-1] = (spans[-1][0], match.end())
            continue
        spans.append((match.start(), match.end()))
    return spans


def _words(text: str, start: int, stop: int, language: str) -> list[Token]:
    out: list[Token] = []
    for word_start, word_end in _word_spans(text, start, stop):
        raw = text[word_start:word_end]
        norm = plain(raw)
        bare = without_clitics(norm, language)
        word_lemma = norm if _ELISION.match(norm) else lemma(norm, language)
        fixed = typo_fixed(norm, language) if not bare else ""
        out.append(
            Token(raw, norm, word_lemma, word_start, word_end, capitalised=raw[:1].isupper(), bare=bare,
                  fixed=fixed)
        )  # fmt: skip
    return out


_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


@cache
def _vocabulary(language: str) -> frozenset[str]:
    """Every single word of the lexicon in ``language`` (and in lists for both), the words a typo is fixed to."""
    words: set[str] = set()
    for group, entry in lexicon().items():
        if group in {"about", "version", "questions", "answers", "unsupported"} or not isinstance(entry, Mapping):
            continue
        for key, value in entry.items():
            if isinstance(value, Mapping):
                lists = [value.get(language, [])] if set(value) <= set(LANGUAGES) else list(value.values())
            else:
                lists = [value] if key == language or key not in LANGUAGES else []
            for phrase_list in lists:
                if isinstance(phrase_list, list):
                    for phrase in phrase_list:
                        words.update(_phrase_words(str(phrase)))
    return frozenset(words)


@cache
def _known_words() -> frozenset[str]:
    """Words that are right as they are, though the lexicon lacks them (object words among them)."""
    from apps.records.objects import object_kinds

    return frozenset(word for kind in object_kinds().values() for phrase in kind.all_words() for word in phrase.split())


@lru_cache(maxsize=20_000)
def typo_fixed(word: str, language: str) -> str:
    """The one lexicon word of ``language`` a single typo away from ``word`` (a letter missing, extra, wrong or
    swapped); nothing for a word the language's dictionary knows ("compare" is no "comprare")."""
    vocabulary = _vocabulary(language)
    if len(word) < 4 or not word.isalpha() or word in vocabulary or word in _known_words():
        return ""
    import simplemma

    if simplemma.is_known(word, lang=language):
        return ""
    edits: set[str] = set()
    for index in range(len(word) + 1):
        head, tail = word[:index], word[index:]
        if tail:
            edits.add(head + tail[1:])
            edits.update(head + letter + tail[1:] for letter in _ALPHABET)
        if len(tail) > 1:
            edits.add(head + tail[1] + tail[0] + tail[2:])
        edits.update(head + letter + tail for letter in _ALPHABET)
    found = sorted(edit for edit in edits & vocabulary if len(edit) >= 4)
    return found[0] if len(found) == 1 else ""


def without_clitics(word: str, language: str) -> str:
    """An Italian verb without its joined pronouns ("leggili" → "leggi"); "" when none or not Italian."""
    for clitic in _clitics(language):
        if word.endswith(clitic) and len(word) - len(clitic) >= 4:
            return word[: -len(clitic)]
    return ""


@cache
def _clitics(language: str) -> tuple[str, ...]:
    found = lexicon().get("clitics", {}).get(language, ())
    return tuple(sorted((str(clitic) for clitic in found), key=len, reverse=True))


@cache
def phrases(group: str, language: str | None = None) -> tuple[tuple[str, ...], ...]:
    """A lexicon group's phrases as word tuples, longest first (both languages unless one is named)."""
    entry = lexicon()[group]
    languages = [language] if language else list(entry)
    words = {tuple(_phrase_words(phrase)) for lang in languages for phrase in entry.get(lang, ())}
    return tuple(sorted((phrase for phrase in words if phrase), key=lambda phrase: (-len(phrase), phrase)))


@cache
def keyed_phrases(group: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """A keyed group (``actions``, ``fields``, ``file_type_words``): (words, key), longest first."""
    entry = lexicon()[group]
    pairs: set[tuple[tuple[str, ...], str]] = set()
    for key, by_language in entry.items():
        if key == "about":
            continue
        lists = by_language.values() if isinstance(by_language, Mapping) else [by_language]
        for phrase_list in lists:
            for phrase in phrase_list:
                words = tuple(_phrase_words(phrase))
                if words:
                    pairs.add((words, key))
    return tuple(sorted(pairs, key=lambda pair: (-len(pair[0]), pair)))


def _phrase_words(phrase: str) -> list[str]:
    text = plain(phrase)
    return [text[start:end] for start, end in _word_spans(text, 0, len(text))]


@cache
def _first_words(group: str) -> Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """A group's phrases by their first word, longest first; unkeyed groups key each phrase by itself."""
    entry = lexicon()[group]
    pairs = (
        keyed_phrases(group)
        if isinstance(entry, Mapping)
        and any(isinstance(value, Mapping) or key not in LANGUAGES for key, value in entry.items())
        else tuple((phrase, " ".join(phrase)) for phrase in phrases(group))
    )
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, key in pairs:
        index.setdefault(phrase[0], []).append((phrase, key))
    return {word: tuple(sorted(found, key=lambda pair: -len(pair[0]))) for word, found in index.items()}


def scan(words: Sequence[Token], group: str, *, as_written: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, key) of the group's phrases in ``words``: left to right, the longest at each place.

    ``as_written`` matches the words as written only (no lemma): field names, where
    "data" must not be the lemma of "date".
    """
    index = _first_words(group)
    found: list[tuple[int, int, str]] = []
    position = 0
    while position < len(words):
        token = words[position]
        heads = (token.norm,) if as_written else (token.norm, token.lemma, token.bare, token.fixed)
        candidates = sorted({pair for head in heads if head for pair in index.get(head, ())},
                            key=lambda pair: (-len(pair[0]), pair))  # fmt: skip
        for phrase, key in candidates:
            if _matches(words, position, phrase, as_written=as_written):
                found.append((position, position + len(phrase), key))
                position += len(phrase)
                break
        else:
            position += 1
    return found


def _matches(words: Sequence[Token], index: int, phrase: Sequence[str], *, as_written: bool) -> bool:
    if index + len(phrase) > len(words):
        return False
    if as_written:
        return all(words[index + offset].norm == word for offset, word in enumerate(phrase))
    return all(words[index + offset].means(word) for offset, word in enumerate(phrase))


def matches_at(words: Sequence[Token], index: int, phrase: Sequence[str]) -> bool:
    if index + len(phrase) > len(words):
        return False
    return all(words[index + offset].means(word) for offset, word in enumerate(phrase))


def question_text(role: str, language: str) -> str:
    questions = lexicon()["questions"]
    entry = questions.get(role) or questions["files"]
    return str(entry.get(language) or entry["en"])
