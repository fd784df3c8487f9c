"""The model-free proposer: request forms declared by executors, matched locally.

An executor's manifest may declare request forms — Italian and English
sentence templates with typed slots, in the spirit of Home Assistant's local
intents — each with the plan to propose. Template syntax:

* ``{slot}`` captures one or more words (its type is declared in ``slots``);
* ``[a|b]`` is optional (any one alternative, or nothing);
* ``(a|b)`` requires one alternative;
* spaces match any run of whitespace; ``,`` is optional punctuation.

Matching is case-insensitive and whole-request; the first form in catalog
order that matches wins, and a request matching forms with *different* plans
at the same specificity is ambiguous (no proposal, said plainly). A proposal
is only a proposal: it goes through the same validation as any other plan.

**Forms that use credentials.** One sentence may have two plans: one that
signs in first (a step whose executor declares ``credentials.use``) and one
that does not. Which applies depends on the owner, decided without a model:
the plan that uses credentials is the more specific when the turn's mandate
provider (the vault) would grant every credential it needs; otherwise the
plan without credentials is; a plan whose credentials would not be granted
is proposed only when no other form matches (the boundary then refuses it,
saying why). Plans chosen this way depend on the owner's credentials at the
time, so they are not cached (:func:`forms_depend_on_credentials`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from apps.accounts.models import User
from apps.runtime.executor import Catalog, credentials_granted
from apps.runtime.manifests import RequestForm

_SLOT = re.compile(r"\{([a-z_]+)\}")
_FILE_EXTENSIONS = ("pdf", "html", "htm", "txt", "csv", "xlsx")
_NUMBER_WORDS = frozenset(
    {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "uno", "una", "due", "tre",
     "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci"}
)  # fmt: skip


class FormError(ValueError):
    """A request form that cannot be compiled."""


@dataclass(frozen=True)
class FormMatch:
    form: RequestForm
    executor: str
    slots: Mapping[str, Any]
    plan: dict[str, Any]


_NUMBER_PATTERN = r"(?:\d{1,3}|" + "|".join(sorted(_NUMBER_WORDS)) + ")"
_SLOT_PATTERNS = {"count": _NUMBER_PATTERN}
# A slot is a few words, never a whole essay: the bound keeps matching linear
# (an unbounded lazy slot backtracks for seconds on a long request).
MAX_SLOT_CHARS = 120
_ANY_WORDS = rf"\S(?:.{{0,{MAX_SLOT_CHARS - 2}}}?\S)?"
# Requests longer than this are not matched against forms (a form request is a sentence).
MAX_FORM_REQUEST_CHARS = 600


def _split_top_level(body: str) -> list[str]:
    """Split alternatives on ``|`` outside nested groups ("in [the|my] {folder}|here")."""
    options, depth, start = [], 0, 0
    for index, char in enumerate(body):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "|" and depth == 0:
            options.append(body[start:index])
            start = index + 1
    options.append(body[start:])
    return options


def _compile_alternatives(body: str, kinds: Mapping[str, str]) -> str:
    return "|".join(_compile_fragment(option.strip(), kinds) for option in _split_top_level(body))


def _compile_fragment(template: str, kinds: Mapping[str, str]) -> str:
    """Translate template syntax to a regular expression (slots become named groups)."""
    out: list[str] = []
    index = 0
    while index < len(template):
        char = template[index]
        if char in "[(":
            closing = "]" if char == "[" else ")"
            depth, end = 1, index + 1
            while end < len(template) and depth:
                if template[end] == char:
                    depth += 1
                elif template[end] == closing:
                    depth -= 1
                end += 1
            if depth:
                raise FormError(f"unbalanced {char!r} in {template!r}")
            inner = _compile_alternatives(template[index + 1 : end - 1], kinds)
            # Optional words take their following space with them, so they
            # only ever match whole words.
            # An elided article ("l'") joins the next word with no space.
            separator = "\\s*" if inner.endswith("\\s*") else "\\s+"
            out.append(f"(?:(?:{inner}){separator})?" if char == "[" else f"(?:{inner})")
            index = end
            continue
        if char == "{":
            end = template.index("}", index)
            name = template[index + 1 : end]
            out.append(f"(?P<{name}>{_SLOT_PATTERNS.get(kinds.get(name, ''), _ANY_WORDS)})")
            index = end + 1
            continue
        if char == " ":
            if not (out and out[-1].endswith(("\\s+)?", "\\s*)?"))):
                out.append(r"\s+")
            index += 1
            continue
        if char == ",":
            out.append(r"\s*,?")
            index += 1
            continue
        if char == "'":
            out.append(r"['\u2019]\s*")
            index += 1
            continue
        out.append(re.escape(char))
        index += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def compile_template(template: str, kinds: tuple[tuple[str, str], ...] = ()) -> re.Pattern[str]:
    """Compile a template; requests are matched as ``text + " "`` (see match_form)."""
    try:
        return re.compile(_compile_fragment(template.strip() + " ", dict(kinds)), re.IGNORECASE)
    except re.error as error:
        raise FormError(f"template {template!r} does not compile: {error}") from None


@lru_cache(maxsize=1024)
def compile_phrase(phrase: str) -> re.Pattern[str]:
    """Compile an action phrase (template syntax without slots) to search for, as whole words, in ``text + " "``."""
    if _SLOT.search(phrase):
        raise FormError(f"action phrase {phrase!r} has a slot")
    try:
        return re.compile(r"(?<!\w)" + _compile_fragment(phrase.strip() + " ", {}), re.IGNORECASE)
    except re.error as error:
        raise FormError(f"action phrase {phrase!r} does not compile: {error}") from None


# Courtesy around a request changes nothing about what is asked.
_COURTESY = re.compile(
    r"^(?:(?:please|kindly|can you|could you|would you|per favore|per piacere|puoi|potresti|mi puoi)\s*,?\s+)+"
    r"|\s*,?\s*(?:please|per favore|grazie|thanks|thank you)\s*$",
    re.IGNORECASE,
)


def _prepare(request: str) -> str:
    text = request.strip().rstrip(".!?").strip()
    return _COURTESY.sub("", text).strip().rstrip(".!?,").strip() + " "


def _singular(word: str) -> str:
    lower = word.casefold()
    if lower.endswith("ies") and len(lower) > 4:
        return lower[:-3] + "y"
    if lower.endswith(("ches", "shes", "sses", "xes")):
        return lower[:-2]
    if lower.endswith("s") and not lower.endswith("ss") and len(lower) > 3:
        return lower[:-1]
    if lower.endswith("i") and len(lower) > 3:  # prezzi → prezzo
        return lower[:-1] + "o"
    if lower.endswith("e") and len(lower) > 3 and lower[-2] not in "aeiou":  # fatture → fattura
        return lower[:-1] + "a"
    return lower


def _slot_value(kind: str, raw: str) -> Any:
    text = raw.strip().strip("\"'\u201c\u201d\u2018\u2019")
    if kind == "folder":
        cleaned = text.strip("/").replace("\\", "/")
        return "~" if cleaned in {"", "~"} else f"~/{cleaned.removeprefix('~/')}"
    if kind == "fields":
        parts = re.split(r",|\s+and\s+|\s+e\s+|\s+&\s+", text)
        return [" ".join(_singular(word) for word in part.split()) for part in parts if part.strip()]
    if kind == "documents":
        words = {word.casefold().strip(".") for word in text.split()}
        extensions = [ext for ext in _FILE_EXTENSIONS if ext in words]
        return f"*.{extensions[0]}" if len(extensions) == 1 else "*"
    if kind == "filename":
        # A bare file name: no folders, no way out of the folder it goes into.
        return text if text and "/" not in text and "\\" not in text and ".." not in text else None
    if kind == "count":
        return text if text.isdigit() or text.casefold() in _NUMBER_WORDS else None
    return text


def _bind(template_value: Any, slots: Mapping[str, Any]) -> Any:
    if isinstance(template_value, str):
        whole = _SLOT.fullmatch(template_value)
        if whole and whole.group(1) in slots:
            return slots[whole.group(1)]
        return _SLOT.sub(lambda match: str(slots.get(match.group(1), match.group(0))), template_value)
    if isinstance(template_value, list | tuple):
        bound: list[Any] = []
        for item in template_value:
            value = _bind(item, slots)
            # A list slot inside a list spreads ("fields": ["supplier", "{fields}"]).
            if isinstance(value, list) and isinstance(item, str) and _SLOT.fullmatch(item):
                bound.extend(entry for entry in value if entry not in bound)
            elif value not in bound or not isinstance(value, str):
                bound.append(value)
        return bound
    if isinstance(template_value, Mapping):
        return {key: _bind(item, slots) for key, item in template_value.items()}
    return template_value


def match_form(form: RequestForm, executor: str, request: str, *, prepared: str | None = None) -> FormMatch | None:
    """Match one form; ``prepared`` lets a caller trying many forms prepare the request once."""
    text = prepared if prepared is not None else _prepare(request)
    match = compile_template(form.template, _slot_kinds(form)).fullmatch(text)
    if match is None:
        return None
    slots: dict[str, Any] = {}
    for name, kind in form.slots.items():
        raw = match.groupdict().get(name)
        if raw is None:
            continue
        value = _slot_value(kind, raw)
        if value is None or value == [] or value == "":
            return None
        slots[name] = value
    plan = {"steps": [_bind(dict(step), slots) for step in form.plan]}
    return FormMatch(form=form, executor=executor, slots=slots, plan=plan)


def catalog_forms(catalog: Catalog) -> Iterable[tuple[str, RequestForm]]:
    for name in sorted(catalog.executors):
        for form in catalog.executors[name].manifest.request_forms:
            yield name, form


class AmbiguousRequest(LookupError):
    """Several forms match with different plans."""


def _slot_kinds(form: RequestForm) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(form.slots.items()))


CREDENTIALS_USE = "credentials.use"


def _matches(request: str, catalog: Catalog) -> list[FormMatch]:
    if len(request) > MAX_FORM_REQUEST_CHARS:
        return []
    prepared = _prepare(request)
    return [
        found for name, form in catalog_forms(catalog) if (found := match_form(form, name, request, prepared=prepared))
    ]


def _uses_credentials(plan: Mapping[str, Any], catalog: Catalog) -> bool:
    return any(
        (manifest := catalog.manifest(str(step.get("tool")))) is not None and CREDENTIALS_USE in manifest.capabilities
        for step in plan.get("steps", ())
    )


def _specificity(found: FormMatch, catalog: Catalog, owner: User | None, turn_id: int | None) -> int:
    """2: uses credentials the owner would be granted; 1: uses none; 0: uses credentials not granted."""
    if not _uses_credentials(found.plan, catalog):
        return 1
    return 2 if credentials_granted(found.plan, catalog, owner, turn_id) else 0


def propose_from_forms(
    request: str, catalog: Catalog, *, owner: User | None = None, turn_id: int | None = None
) -> FormMatch | None:
    """The single form-based proposal for ``request``, None if no form matches.

    ``owner`` and ``turn_id`` let the forms that use credentials be checked
    against the owner's vault (see the module docstring); without them such
    a form is proposed only when nothing else matches.
    """
    matches = _matches(request, catalog)
    if not matches:
        return None
    if len({repr(found.plan) for found in matches}) > 1:
        ranked = [(_specificity(found, catalog, owner, turn_id), found) for found in matches]
        best = max(rank for rank, _ in ranked)
        matches = [found for rank, found in ranked if rank == best]
    distinct = {repr(found.plan) for found in matches}
    if len(distinct) > 1:
        raise AmbiguousRequest(f"{len(matches)} request forms match with different plans")
    return matches[0]


def forms_depend_on_credentials(request: str, catalog: Catalog) -> bool:
    """Whether forms matching ``request`` plan differently with and without credentials (never cache them)."""
    uses = {_uses_credentials(found.plan, catalog) for found in _matches(request, catalog)}
    return uses == {True, False}
