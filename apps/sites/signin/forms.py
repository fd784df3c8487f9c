"""Which observed form is a way to sign in, and which field takes a one-time code.

Only evidence inside the form counts: its fields, its own controls, its name
and section. A sign-in link elsewhere on the page never turns a newsletter
form into a login form. Two-step forms are told apart: the identifier step
(an e-mail or user name, with a control to continue) and the password step.
Anything ambiguous — two candidate forms, two identifier fields, two code
fields — is reported as ambiguous, and nothing is typed into it.

A field named "code" or "token" is not a one-time-code field by itself: it
needs to be identified as one (``autocomplete=one-time-code`` or a one-time
code label) or to come with verification evidence in the same form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from apps.sites.acting.entries import other_service
from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern
from apps.sites.observation.snapshot import Control, Field, Form, Snapshot

LoginFormKind = Literal["combined", "identifier_step", "password_step"]
MIN_SPLIT_BOXES = 4
MAX_SPLIT_BOXES = 10


@dataclass(frozen=True)
class LoginForm:
    form: int  # index into Snapshot.forms
    kind: LoginFormKind
    identifier: int | None  # index into the form's fields
    password: int | None


@dataclass(frozen=True)
class FormVerdict:
    """The page's login form, or why there is none to use."""

    found: LoginForm | None
    reason: Literal["found", "none", "ambiguous"]
    detail: str = ""


def _words(name: str) -> tuple[str, ...]:
    return lexicon("signin")[name]


def _has(text: str, list_name: str) -> bool:
    return bool(text) and phrase_pattern(_words(list_name)).search(fold(text)) is not None


_CHOICE_TYPES = frozenset({"checkbox", "radio"})


def _usable(field: Field) -> bool:
    return field.visible and field.editable


def _field_text(field: Field) -> str:
    return " ".join((field.label, field.placeholder, field.name.replace("_", " ").replace("-", " ")))


def _is_password(field: Field) -> bool:
    return field.type == "password" and "new-password" not in field.autocomplete


def _is_identifier(field: Field) -> bool:
    if field.type in {"email", "tel"} or field.autocomplete in {"username", "email", "tel"}:
        return True
    return field.type in {"text", ""} and _has(_field_text(field), "identifier_labels")


def _form_controls(snapshot: Snapshot, form: Form) -> list[Control]:
    return [snapshot.controls[index] for index in form.controls if 0 <= index < len(snapshot.controls)]


def _form_evidence(snapshot: Snapshot, form: Form) -> str:
    return " ".join([form.name, form.section, *(control.label for control in _form_controls(snapshot, form))])


def classify_form(snapshot: Snapshot, index: int) -> LoginForm | Literal["ambiguous"] | None:
    """What form ``index`` is for signing in: a :class:`LoginForm`, ``"ambiguous"``, or ``None`` (not one)."""
    form = snapshot.forms[index]
    if not form.visible:
        return None
    if other_service(fold(" ".join([form.name, form.section])), form.action):
        return None  # the sign-in of another service on the website (webmail, a business portal): never the account's
    usable = [(number, field) for number, field in enumerate(form.fields) if _usable(field)]
    passwords = [number for number, field in usable if _is_password(field)]
    identifiers = [number for number, field in usable if _is_identifier(field)]
    if any("new-password" in field.autocomplete for _, field in usable) or len(passwords) > 1:
        return None  # registration or password change
    if len(identifiers) > 1:
        return "ambiguous"
    identifier = identifiers[0] if identifiers else None
    if passwords:
        kind: LoginFormKind = "combined" if identifier is not None else "password_step"
        return LoginForm(index, kind, identifier, passwords[0])
    # An identifier step holds only the identifier, besides its choices ("Remember me", "Keep me signed in").
    typed = [field for _, field in usable if field.type not in _CHOICE_TYPES]
    if identifier is None or len(typed) != 1:
        return None
    evidence = _form_evidence(snapshot, form)
    if _has(evidence, "newsletter_phrases") or not (
        _has(evidence, "entry_phrases") or _has(evidence, "continue_phrases")
    ):
        return None  # an e-mail field alone is a sign-in step only with its own sign-in evidence
    return LoginForm(index, "identifier_step", identifier, None)


def find_login_form(snapshot: Snapshot) -> FormVerdict:
    """The one login form of the page; ambiguous when two forms or fields qualify alike."""
    found: list[LoginForm] = []
    for index in range(len(snapshot.forms)):
        verdict = classify_form(snapshot, index)
        if verdict == "ambiguous":
            return FormVerdict(None, "ambiguous", "a form has several identifier fields")
        if verdict is not None:
            found.append(verdict)
    with_password = [form for form in found if form.password is not None]
    candidates = with_password or found
    if not candidates:
        return FormVerdict(None, "none")
    if len(candidates) > 1:
        return FormVerdict(None, "ambiguous", f"{len(candidates)} forms look like a way to sign in")
    return FormVerdict(candidates[0], "found")


def asks_for_password(snapshot: Snapshot) -> bool:
    """Whether the page's one login form asks for a password (so the person is not signed in there)."""
    found = find_login_form(snapshot).found
    return found is not None and found.password is not None


@dataclass(frozen=True)
class CodeTarget:
    """Where a one-time code goes: one field, or single-character boxes in order."""

    form: int
    fields: tuple[int, ...]

    @property
    def split(self) -> bool:
        return len(self.fields) > 1


@dataclass(frozen=True)
class CodeVerdict:
    target: CodeTarget | None
    reason: Literal["found", "none", "ambiguous"]


def _is_code_field(field: Field, evidence: bool) -> bool:
    if field.autocomplete == "one-time-code" or _has(_field_text(field), "otp_phrases"):
        return True
    return evidence and _has(_field_text(field), "code_words")


def _split_boxes(fields: Sequence[tuple[int, Field]]) -> tuple[int, ...]:
    """The longest run of consecutive single-character boxes, if long enough to be a code."""
    best: list[int] = []
    run: list[int] = []
    previous = -2
    for number, field in fields:
        if field.max_length == 1 and field.type in {"text", "tel", "number", ""}:
            run = [*run, number] if number == previous + 1 else [number]
            previous = number
            if len(run) > len(best):
                best = run
        else:
            run, previous = [], -2
    return tuple(best) if MIN_SPLIT_BOXES <= len(best) <= MAX_SPLIT_BOXES else ()


def find_code_target(snapshot: Snapshot, *, form_text: Sequence[str] = ()) -> CodeVerdict:
    """The one place to type a one-time code on the page; ``form_text`` is each form's static prose."""
    targets: list[CodeTarget] = []
    for index, form in enumerate(snapshot.forms):
        if not form.visible:
            continue
        usable = [(number, field) for number, field in enumerate(form.fields) if _usable(field)]
        prose = form_text[index] if index < len(form_text) else ""
        context = " ".join([_form_evidence(snapshot, form), prose])
        evidence = _has(context, "otp_phrases") or _has(context, "verification_evidence")
        boxes = _split_boxes(usable)
        if boxes and (evidence or any(_is_code_field(form.fields[n], True) for n in boxes)):
            targets.append(CodeTarget(index, boxes))
            continue
        single = [number for number, field in usable if _is_code_field(field, evidence)]
        if len(single) > 1:
            return CodeVerdict(None, "ambiguous")
        if single:
            targets.append(CodeTarget(index, (single[0],)))
    if not targets:
        return CodeVerdict(None, "none")
    if len(targets) > 1:
        return CodeVerdict(None, "ambiguous")
    return CodeVerdict(targets[0], "found")
