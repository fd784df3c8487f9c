"""What a request says: its parts, their actions (or prohibitions) and the roles it gives.

A request is cut into parts where a new action starts ("log in to … *and*
grab …", "… *but* don't delete anything"); each part has at most one action
class from the lexicon, whether it is negated, and what it is about
(documents, a credential, the web sessions). Roles are read once for the
whole request — its website, folders, files, spreadsheet, fields, period
phrase — because people say them anywhere: "from <url> collect …" and
"collect … from <url>" are the same request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from apps.records.objects import mentions_in_words
from apps.runtime.understanding.words import (
    LANGUAGES,
    Token,
    lexicon,
    phrases,
    plain,
    scan,
    tokens,
    without_clitics,
)

SHEET_EXTENSIONS = frozenset({"xlsx", "xls", "csv", "ods"})


def _grammar(name: str, language: str | None = None) -> frozenset[str]:
    entry = lexicon()["grammar"][name]
    languages = [language] if language else list(LANGUAGES)
    return frozenset(plain(word) for lang in languages for word in entry.get(lang, ()))


_SPLITTERS = _grammar("splitters")
_HARD_SPLITTERS = _grammar("hard_splitters") | {";"}
_LANGUAGE_WORDS = {language: _grammar("language_words", language) for language in LANGUAGES}
_LINKS = _grammar("links")
_SHEET_LEADS = _grammar("sheet_leads")
_STOP_LABEL = _grammar("not_names")
_QUESTION_STARTS = _grammar("question_starts")
_FILLER = _grammar("filler_after_verb")
_FOLDER_LINKS = _grammar("folder_links")
_WITH = _grammar("with_words")
_NOT_FOLDER_NAMES = _grammar("not_folder_names")


@dataclass
class Part:
    """One clause of a request with its action (None when it names none)."""

    words: list[Token]
    start: int = 0  # index of the part's first word in the request
    action: str | None = None
    action_at: int = -1  # index in words
    action_end: int = -1
    negated: bool = False
    subject: str = "documents"
    cancelled_negation: bool = False


@dataclass
class Reading:
    """A request understood: its language, parts and roles."""

    text: str
    language: str
    words: list[Token]
    parts: list[Part]
    roles: dict[str, Any] = field(default_factory=dict)
    where: dict[str, int] = field(default_factory=dict)  # the word a role was read from
    unsupported: list[str] = field(default_factory=list)
    negation: bool = False
    question: bool = False
    vague: list[str] = field(default_factory=list)

    def positive(self) -> list[Part]:
        return [part for part in self.parts if part.action is not None and not part.negated]


def request_language(text: str) -> str:
    """English or Italian, by the words the request uses (English when it cannot tell)."""
    words = [plain(word) for word in re.findall(r"[\w']+", text)]
    scores = {language: sum(word in _LANGUAGE_WORDS[language] for word in words) for language in LANGUAGES}
    for language in LANGUAGES:
        verbs = _single_word_actions(language)
        for word in words:
            if word in verbs or without_clitics(word, language) in verbs:
                scores[language] += 1
    return "it" if scores["it"] > scores["en"] else "en"


@cache
def _single_word_actions(language: str) -> frozenset[str]:
    return frozenset(phrase[0] for phrase in phrases_of("actions", language) if len(phrase) == 1)


def phrases_of(group: str, language: str) -> frozenset[tuple[str, ...]]:
    entry = lexicon()[group]
    found: set[tuple[str, ...]] = set()
    for by_language in entry.values():
        if isinstance(by_language, dict):
            for phrase in by_language.get(language, ()):
                found.add(tuple(plain(phrase).split()))
    return frozenset(found)


def read_request(text: str, language: str | None = None) -> Reading:
    """Read ``text`` (see the module docstring)."""
    language = language or request_language(text)
    words = tokens(text, language)
    reading = Reading(text=text, language=language, words=words, parts=[])
    reading.question = text.rstrip().endswith("?") or bool(words and words[0].norm in _QUESTION_STARTS)
    # A prohibition phrase that starts with an action word is the prohibition ("forget about downloading").
    negations = scan(words, "negation")
    tags = [tag for tag in _action_tags(words)
            if not any(start == tag[0] and end > tag[1] for start, end, _ in negations)]  # fmt: skip
    reading.unsupported = _unsupported(words)
    reading.parts = _parts(words, tags)
    _negations(reading)
    previous: Part | None = None
    for part in reading.parts:
        part.subject = _subject(part.words)
        asks = _asks(part)
        inherits = previous is not None and part.subject == "documents" and previous.subject != "documents"
        if inherits and scan(part.words, "back_references") and not any(word.entity for word in part.words):
            part.subject = previous.subject if previous else part.subject  # "… and delete the one called Old Bank"
        if part.action == "close" and part.subject == "documents" and not any(word.entity for word in part.words):
            part.subject = "session"  # "… then close everything down": what a plan can close is the browser
        if part.subject == "credential" and part.action in {None, "download", "obtain"} and asks:
            # "Which credentials do I have for …?", "Ho una password salvata per …?": a question lists.
            part.action, part.negated = "list", False
        elif part.subject == "credential" and part.action in {"download", "record", "make"} and not asks:
            part.action = "save_credential"  # "store a login for …", "aggiungi un accesso per …"
        elif (
            part.subject == "credential"
            and part.action is None
            and scan(part.words, "use_words")
            and any(word.entity is not None and word.entity.kind == "url" for word in part.words)
        ):
            part.action = "sign_in"  # "use my Enel login on https://…"
        if part.action is not None:
            previous = part
    _last_parts_last(reading)
    if not reading.positive() and not reading.negation:
        _verbless(reading)
    _roles(reading)
    return reading


def _asks(part: Part) -> bool:
    """Whether a part is a question: it ends with "?" or opens with a question word."""
    words = [word for word in part.words if word.norm not in _SPLITTERS and word.norm not in {",", "."}]
    return bool(words) and (words[-1].norm == "?" or words[0].norm in _QUESTION_STARTS)


def _last_parts_last(reading: Reading) -> None:
    """A part that says it comes last ("don't forget to close the sessions afterwards: …") goes last."""
    later = [part for part in reading.parts if part.action is not None and scan(part.words, "ordering_last")]
    if later and len(reading.positive()) > 1:
        reading.parts = [part for part in reading.parts if part not in later] + later


def _verbless(reading: Reading) -> None:
    """ "Into ~/x.csv: supplier and total of every invoice in ~/Purchasing": fields, a source and a spreadsheet
    with no verb ask for the spreadsheet; "In the Receipts folder, what have I got?" asks for a list."""
    words = reading.words
    has_source = any(word.entity is not None and word.entity.kind in {"path", "file"} for word in words)
    if not reading.parts:
        return
    part = max(reading.parts, key=lambda candidate: len(candidate.words))
    if _fields(words) and has_source and (_makes_something(words)):
        part.action, part.action_at, part.action_end = "make", 0, 0


def _action_tags(words: Sequence[Token]) -> list[tuple[int, int, str]]:
    """(start, end, action) for every action phrase, the longest at each place."""
    return scan(words, "actions")


def _unsupported(words: Sequence[Token]) -> list[str]:
    # "call it Acme", "files named …", "che si chiamano …" name things; they ask for nothing.
    naming = {index for group in ("naming", "pattern_markers") for start, end in _find(words, group)
              for index in range(start, end)}  # fmt: skip
    naming |= {index for start, end, _ in scan(words, "fields", as_written=True) for index in range(start, end)}
    # As written only: the lemma of "pagati" (paid) is "pagare" (pay), and paid bills are no payment.
    found = scan(words, "unsupported", as_written=True)
    return [key for start, end, key in found if not naming & set(range(start, end))]


def _parts(words: list[Token], tags: list[tuple[int, int, str]]) -> list[Part]:
    """Cut at a splitter or a comma that comes before a new action; at "but"/"ma" always."""
    starts = [0]
    tag_starts = {start for start, _, _ in tags}
    for index, word in enumerate(words):
        if index == 0:
            continue
        if word.norm in _HARD_SPLITTERS:
            starts.append(index)
        elif word.norm in _SPLITTERS or word.norm in {",", ".", "!", "?"}:
            ahead = range(index + 1, min(index + 4, len(words)))
            if any(position in tag_starts for position in ahead) and (index - starts[-1]) > 1:
                starts.append(index)
    starts = sorted(set(starts))
    parts: list[Part] = []
    weak = {"make"}  # "make", "fare", "I need": an action only when what is made is a spreadsheet or fields
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(words)
        part = Part(words=list(words[start:end]), start=start)
        for tag_start, tag_end, action in tags:
            if action in weak and not _makes_something(words[start:end]):
                continue
            weaker = part.action is None or (part.action in {"make", "record"} and action not in {"make", "record"})
            if start <= tag_start < end and weaker:
                part.action, part.action_at, part.action_end = action, tag_start - start, tag_end - start
        parts.append(part)
    return parts


def _makes_something(words: Sequence[Token]) -> bool:
    if _has_any(words, "destination_sheet") or _fields(words):
        return True
    return any(word.entity is not None and word.entity.kind in {"path", "file"} and
               word.entity.value.rsplit(".", 1)[-1].casefold() in SHEET_EXTENSIONS for word in words)  # fmt: skip


def _negations(reading: Reading) -> None:
    for part in reading.parts:
        words = part.words
        cancellers = {start for start, _, _ in scan(words, "negation_cancellers")}
        for index, after, phrase in scan(words, "negation"):
            if cancellers & {after, after + 1}:
                part.cancelled_negation = True
                continue
            if part.action_at <= index < part.action_end:
                continue  # the negation word is part of the action phrase
            if part.action is None or index < part.action_at:
                part.negated = True
                reading.negation = True
                break
            if phrase.split()[0] in {"without", "senza"}:
                reading.negation = True
        if part.cancelled_negation and part.action is not None:
            # "don't forget to close the sessions": the action is the one after the canceller.
            later = _action_after_canceller(part)
            if later is not None:
                part.action, part.action_at, part.action_end = later
                part.negated = False


def _action_after_canceller(part: Part) -> tuple[str, int, int] | None:
    ends = [end for _, end, _ in scan(part.words, "negation_cancellers")]
    if not ends:
        return None
    skip_until = max(ends)
    for start, end, action in scan(part.words[skip_until:], "actions"):
        return action, start + skip_until, end + skip_until
    return None


def _subject(words: Sequence[Token]) -> str:
    if _has_any(words, "credential_words"):
        return "credential"
    if _has_any(words, "session_words") and not any(word.entity is not None for word in words):
        return "session"
    return "documents"


def _has_any(words: Sequence[Token], group: str) -> bool:
    return bool(scan(words, group))


def _find(words: Sequence[Token], group: str) -> list[tuple[int, int]]:
    return [(start, end) for start, end, _ in scan(words, group)]


# --- roles --------------------------------------------------------------------------------


def _roles(reading: Reading) -> None:
    words = reading.words
    roles = reading.roles
    urls = [word.entity.value for word in words if word.entity is not None and word.entity.kind == "url"]
    if urls:
        roles["url"] = urls[0]
        roles["origin"] = urls[0]
        reading.where["url"] = reading.where["origin"] = next(
            index for index, word in enumerate(words) if word.entity is not None and word.entity.kind == "url"
        )
    sheet_words = _find(words, "destination_sheet")
    data_action = any(part.action in {"obtain", "extract", "make", "record", "download"} for part in reading.positive())
    folders: list[tuple[int, str]] = []
    files: list[str] = []
    for index, word in enumerate(words):
        entity = word.entity
        if entity is None or entity.kind not in {"path", "file"}:
            continue
        value = entity.value
        extension = value.rsplit(".", 1)[-1].casefold() if "." in value.rsplit("/", 1)[-1] else ""
        if extension in SHEET_EXTENSIONS and (data_action or sheet_words or _after_link(words, index)):
            if "sheet" not in roles or data_action:
                roles["sheet"] = value
                reading.where["sheet"] = index
            continue
        if extension and entity.kind in {"path", "file"}:
            reading.where.setdefault("files", index)
            files.append(value)
        elif entity.kind == "path":
            folders.append((index, value.rstrip("/") or "/"))
    if files:
        roles["files"] = files
    if sheet_words and "sheet" not in roles:
        roles["sheet_named"] = True
    _folder_roles(reading, folders)
    _pattern_roles(reading)
    if _find(words, "recursive"):
        roles["recursive"] = True
    fields = _fields(words)
    if fields:
        roles["fields"] = fields
        reading.where["fields"] = _first_field(words)
    _what(reading)
    if "what" not in roles and ("url" in roles or any(part.action in {"obtain", "download"}
                                                       for part in reading.positive())):  # fmt: skip
        _object_phrase(reading)
    _period_after_source(reading)
    _extra_fields(reading)
    _back_references(reading)
    _credential_roles(reading)
    reading.vague = [key for _, _, key in scan(words, "vague_objects")]


def _after_link(words: Sequence[Token], index: int) -> bool:
    return index > 0 and words[index - 1].norm in _LINKS | _SHEET_LEADS


def _folder_roles(reading: Reading, folders: list[tuple[int, str]]) -> None:
    roles, words = reading.roles, reading.words
    if not folders:
        named = _named_folder(words)
        home = _find(words, "home_folder")
        if named is not None:
            folders = [named]
        elif home:
            folders = [(home[0][0], "~")]
    if not folders:
        return
    download = any(part.action == "download" for part in reading.positive())
    if download and "url" in roles:
        roles["target_folder"] = folders[-1][1]
        reading.where["target_folder"] = folders[-1][0]
        if len(folders) > 1:
            roles["folder"] = folders[0][1]
            reading.where["folder"] = folders[0][0]
        return
    roles["folder"] = folders[0][1]
    reading.where["folder"] = folders[0][0]


def _folder_name(word: Token) -> bool:
    """Whether a word can be a folder's name: not a small word of the grammar, an object or a vague word."""
    norm = word.norm
    return (norm.replace("_", "").replace("-", "").isalnum() and norm not in _LINKS and norm not in _SHEET_LEADS
            and norm not in _LANGUAGE_WORDS["en"] | _LANGUAGE_WORDS["it"] and norm not in _NOT_FOLDER_NAMES
            and not mentions_in_words([norm]))  # fmt: skip


def _named_folder(words: Sequence[Token]) -> tuple[int, str] | None:
    """A folder named by a word, not a path: "in the Inbox folder", "nella cartella Acquisti", "in Purchasing"."""
    folder_words = {phrase[0] for phrase in phrases("folder_words")}  # single words: folder, cartella
    for index, word in enumerate(words):
        if word.norm in folder_words:
            after = words[index + 1] if index + 1 < len(words) else None
            before = words[index - 1] if index > 0 else None
            if after is not None and after.capitalised and after.entity is None:
                return index + 1, "~/" + after.text
            if before is not None and before.capitalised and before.entity is None and index > 1:
                return index - 1, "~/" + before.text
            # "in the canary7q4user folder": between "the" and "folder" a word is a name, whatever its case.
            article = words[index - 2] if index > 1 else None
            if (before is not None and article is not None and article.norm in _SHEET_LEADS and before.entity is None
                    and _folder_name(before)):  # fmt: skip
                return index - 1, "~/" + before.text
            if after is not None and after.entity is None and _folder_name(after) and word.norm != "folder":
                return index + 1, "~/" + after.text  # "nella cartella acquisti"
    for index, word in enumerate(words[:-1]):
        after = words[index + 1]
        named = word.norm in _FOLDER_LINKS and after.capitalised and after.entity is None
        if named and not mentions_in_words([after.norm]) and after.norm not in _LINKS:
            return index + 1, "~/" + after.text
    return None


def _pattern_roles(reading: Reading) -> None:
    roles, words = reading.roles, reading.words
    for index, word in enumerate(words):
        entity = word.entity
        if entity is None:
            continue
        if entity.kind == "glob":
            roles["pattern"] = entity.value
            reading.where["pattern"] = index
            return
        if entity.kind == "extension":
            roles["pattern"] = f"*.{entity.value}"
            reading.where["pattern"] = index
            return
    for start, _, file_type in scan(words, "file_type_words"):
        roles["pattern"] = f"*.{file_type}"
        reading.where["pattern"] = start
        break
    kind = roles.get("pattern")
    for _, end in _find(words, "pattern_markers"):
        if end < len(words) and words[end].entity is None and words[end].norm.isalnum():
            # As written up to the next space: "INV-2026", "test-", "bozza".
            value = reading.text[words[end].start :].split(None, 1)[0].rstrip(",;:!?.'\"")
            value = value if "*" in value else value + "*"
            roles["pattern"] = value + kind[1:] if isinstance(kind, str) and kind.startswith("*.") else value
            reading.where.setdefault("pattern", end)
            return
    for start, _ in _find(words, "name_contains"):
        quoted = [(index, word) for index, word in enumerate(words[:start]) if word.entity is not None
                  and word.entity.kind == "quoted"]  # fmt: skip
        if quoted:
            index, word = quoted[-1]
            roles["pattern"] = f"*{word.entity.value if word.entity else word.text}*"
            reading.where.setdefault("pattern", index)
            return


def _fields(words: Sequence[Token]) -> list[str]:
    """Field keys the request names, in order ("invoice number, date and total" → three keys)."""
    keys: list[str] = []
    for _, _, key in scan(words, "fields", as_written=True):
        if key not in keys:
            keys.append(key)
    return keys


def _first_field(words: Sequence[Token]) -> int:
    found = scan(words, "fields", as_written=True)
    return found[0][0] if found else -1


def _what(reading: Reading) -> None:
    """The request's own phrase for what to collect: after the action, up to the source or destination."""
    for part in reading.positive():
        if part.action not in {"obtain", "download", "extract", "make", "list"}:
            continue
        words = part.words
        start = part.action_end
        while start < len(words) and words[start].norm in _FILLER:
            start += 1
        end = start
        while end < len(words):
            word = words[end]
            if word.entity is not None or word.norm in {",", ";", ".", "!", "?"}:
                break
            end += 1
        while end > start and (words[end - 1].norm in _LINKS or words[end - 1].norm in _SHEET_LEADS):
            end -= 1
        # "… in a spreadsheet" / "… in un foglio" ends the phrase; "a spreadsheet with …" opens it.
        for sheet_start, sheet_end in _find(words[start:end], "destination_sheet"):
            cut = start + sheet_start
            while cut > start and words[cut - 1].norm in _LINKS | _SHEET_LEADS:
                cut -= 1
            if cut == start:
                start += sheet_end
                while start < end and words[start].norm in _LINKS | _SHEET_LEADS | _WITH:
                    start += 1
            else:
                end = min(end, cut)
            break
        if end <= start:
            continue
        fields_first = scan(words[start:end], "fields", as_written=True)
        if fields_first and fields_first[0][0] == 0:
            continue  # "put invoice number, date and total into …": the fields, not what to collect
        phrase = reading.text[words[start].start : words[end - 1].end].strip()
        named = mentions_in_words([word.norm for word in words[start:end]])
        if named or ("url" in reading.roles and _has_any(words[start:end], "everything")):
            reading.roles["what"] = phrase
            reading.where["what"] = part.start + start
            return


def _back_references(reading: Reading) -> None:
    """A later part that points back at what an earlier one found: "… and read them", "… e leggili"."""
    for part in reading.positive()[1:]:
        verb = part.words[part.action_at] if 0 <= part.action_at < len(part.words) else None
        found = scan(part.words, "back_references")
        if found or (verb is not None and verb.bare):
            reading.roles["refers_back"] = True
            reading.where["refers_back"] = part.start + (found[0][0] if found else part.action_at)
            return


def _period_after_source(reading: Reading) -> None:
    """ "the credit notes from <url> for 2025": the period said after the website belongs to what is collected."""
    what, words = reading.roles.get("what"), reading.words
    if not isinstance(what, str) or "url" not in reading.where:
        return
    start = reading.where["url"] + 1
    end = start
    while end < len(words) and words[end].entity is None and words[end].norm not in {",", ";", ".", "!", "?", ":"}:
        actions = scan(words[end : end + 3], "actions")
        if words[end].norm in _SPLITTERS or (actions and actions[0][0] == 0):
            break
        end += 1
    tail = words[start:end]
    has_period = any(re.fullmatch(r"(19|20)\d\d", word.norm) for word in tail) or scan(tail, "period_words")
    if tail and has_period:
        reading.roles["what"] = what + " " + reading.text[tail[0].start : tail[-1].end]


def _object_phrase(reading: Reading) -> None:
    """When no phrase follows the action ("into ~/x.xlsx, all the 2026 invoices from <url>: collect them"),
    the phrase around the first object the request names, up to what bounds it."""
    words = reading.words
    mentions = mentions_in_words([word.norm for word in words])
    if not mentions:
        return
    actions = {index for start, end, _ in scan(words, "actions") for index in range(start, end)}

    def bound(index: int) -> bool:
        word = words[index]
        return word.entity is not None or word.norm in {",", ";", ".", "!", "?", ":"} or index in actions

    start = mentions[0].start
    while start > 0 and not bound(start - 1):
        start -= 1
    end = mentions[0].end
    while end < len(words) and not bound(end):
        end += 1
    while end > start and words[end - 1].norm in _LINKS | _SHEET_LEADS:
        end -= 1
    while start < end and words[start].norm in _FILLER:
        start += 1
    if end > start:
        reading.roles["what"] = reading.text[words[start].start : words[end - 1].end].strip()
        reading.where["what"] = start


def _extra_fields(reading: Reading) -> None:
    """Fields asked for in a clause of their own ("… and also record the due date")."""
    extra: list[str] = []
    for part in reading.positive():
        if part.action == "record":
            extra.extend(key for key in _fields(part.words) if key not in extra)
    if extra:
        reading.roles["extra_fields"] = extra


def _credential_roles(reading: Reading) -> None:
    roles, words = reading.roles, reading.words
    quoted = [word.entity.value for word in words if word.entity is not None and word.entity.kind == "quoted"]
    label = quoted[0] if quoted else _label_near(words)
    if label is not None:
        roles["credential"] = label
    for _, end in _find(words, "naming"):
        if end < len(words) and words[end].entity is None and words[end].norm not in _STOP_LABEL:
            roles["label"] = _name_from(reading, end)
            if words[end].capitalised:
                roles.setdefault("credential", roles["label"])
    for _, end in _find(words, "username_words"):
        if end < len(words):
            candidate = words[end]
            # As written up to the next space: "mario.rossi", "m.rossi@example.org".
            value = reading.text[candidate.start :].split(None, 1)[0].rstrip(",;:!?")
            if re.fullmatch(r"[\w.@+-]{2,}", value) and candidate.norm not in _LINKS:
                roles["username"] = value
                break
    saving = any(part.action == "save_credential" for part in reading.positive())
    if saving and "label" in roles and roles.get("credential") == roles["label"]:
        roles.pop("credential")


def _name_from(reading: Reading, index: int) -> str:
    """A name as written from ``index``: its capitalised words together ("Old Bank", "Vecchia Banca")."""
    words = reading.words
    end = index + 1
    while end < len(words) and words[end].capitalised and words[end].entity is None and words[index].capitalised:
        end += 1
    return reading.text[words[index].start : words[end - 1].end]


def _label_near(words: Sequence[Token]) -> str | None:
    """A capitalised name beside a credential word or after "with"/"con": "Acme", "la credenziale Enel"."""
    anchors = {index for start, end in _find(words, "credential_words") for index in range(start, end)}
    links = {end for _, end in _find(words, "credential_link")}
    for index, word in enumerate(words):
        if index == 0 or not word.capitalised or word.entity is not None or word.norm in _STOP_LABEL:
            continue
        if len(word.text) < 2:
            continue  # "I"
        if not word.text[:1].isalpha() or word.norm in _LINKS:
            continue
        near_anchor = any(abs(index - anchor) <= 3 for anchor in anchors)
        after_link = any(index - link in (0, 1, 2) for link in links) and all(
            words[between].norm in _STOP_LABEL or between == index
            for between in range(min(links, default=0), index)
            if between >= 0
        )
        if scan([word], "file_type_words"):
            continue
        if near_anchor or (after_link and not mentions_in_words([word.norm])):
            return word.text
    return None
