"""From a reading to a plan, a question, or an honest "no": the request frames executors declare.

For each part of the request that asks for an action (in order), the frames
of the catalog that serve that action and subject are tried: the one whose
needed roles the request gives, most specific first, supplies its steps. A
part that no frame can serve for want of a role makes the answer a question
naming that role — never a guessed plan. A request whose only actions are
forbidden ("don't delete anything"), that asks for something outside the
catalog, or that names no action gets no plan. When the request names a
spreadsheet, the frame that continues a collection into one is appended.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from apps.runtime.manifests import RequestFrame
from apps.runtime.understanding.reading import Part, Reading, read_request
from apps.runtime.understanding.words import question_text, scan

_ROLE = re.compile(r"\{([a-z_]+)\}")
MAX_UNDERSTOOD_CHARS = 2_000
UNSUPPORTED_REASON = "it asks for something Metnos cannot do"


@dataclass(frozen=True)
class Understanding:
    """What the request asks: a ``plan``, a ``question`` (with the ``missing`` role), or neither, and why."""

    language: str
    plan: dict[str, Any] | None = None
    question: str | None = None
    missing: str | None = None
    reason: str = ""
    executors: tuple[str, ...] = ()
    forbidden: bool = False
    roles: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Candidate:
    executor: str
    frame: RequestFrame
    missing: tuple[str, ...]


def catalog_frames(manifests: Mapping[str, Any]) -> list[tuple[str, RequestFrame]]:
    return [(name, frame) for name in sorted(manifests) for frame in manifests[name].request_frames]


def understand(text: str, manifests: Mapping[str, Any], language: str | None = None) -> Understanding:
    """Understand ``text`` against the frames of ``manifests`` (name → manifest); see the module docstring."""
    if not text.strip() or len(text) > MAX_UNDERSTOOD_CHARS:
        return Understanding(language or "en", reason="the request is empty or too long to understand")
    reading = read_request(text, language)
    frames = catalog_frames(manifests)
    lang = reading.language
    if reading.unsupported and not reading.negation:
        return Understanding(lang, reason=f"{UNSUPPORTED_REASON} ({reading.unsupported[0]})")
    positive = reading.positive()
    if not positive:
        if reading.negation:
            return Understanding(lang, forbidden=True, reason="the request only says what not to do")
        return Understanding(lang, reason="the request names no action Metnos knows")
    steps: list[dict[str, Any]] = []
    executors: list[str] = []
    feeds = False
    sheet = _sheet_path(reading)
    sheet_added = False
    last_action: str | None = None
    for part in positive:
        if part.action == "record" and steps:
            continue  # its fields went to the collection ("… and also record the due date")
        if steps and part.action == last_action and not _gives_own_roles(reading, part):
            continue  # "go through the files in ~/Notes and read them out": the same action, said twice
        last_action = part.action
        if part.action == "delete" and _too_broad(reading, part):
            if reading.negation:
                return Understanding(lang, forbidden=True, reason="the request forbids what it would need")
            return Understanding(lang, question=question_text("too_broad", lang), missing="too_broad",
                                 reason="the deletion is too broad to guess", roles=reading.roles)  # fmt: skip
        roles = _own_roles(reading, part, previous=len(steps))
        if steps and _absorbed_by_sheet(part, reading, sheet, feeds):
            continue  # "… and put them in ~/x.xlsx": the spreadsheet, added below
        chosen = _choose(frames, part, roles, first=not steps)
        if chosen is not None and chosen.missing and steps:
            # "… and save the PDFs in ~/Bills": a frame that replaces what came before takes the request's roles.
            whole = _choose(frames, part, {**reading.roles, "previous": len(steps)}, first=False)
            if whole is not None and not whole.missing and whole.frame.replaces:
                chosen, roles = whole, {**reading.roles, "previous": len(steps)}
        if chosen is None:
            return Understanding(lang, reason=f"no capability serves the action {part.action!r} here",
                                 roles=reading.roles)  # fmt: skip
        if chosen.missing and steps and _restates(reading, part):
            continue  # "open ~/x.pdf and tell me what it says": nothing more to do than what came before
        if chosen.missing:
            if reading.negation:
                return Understanding(lang, forbidden=True, reason="the request forbids what it would need")
            role = _asked_role(chosen.missing, reading)
            return Understanding(lang, question=question_text(role, lang), missing=role,
                                 reason=f"the request does not say {role}", roles=reading.roles)  # fmt: skip
        added = _bind_frame(chosen.frame, roles, offset=len(steps))
        if added and steps and added == steps[-len(added) :]:
            continue  # "open and read": the same steps once
        if steps and chosen.frame.replaces and _replaceable(steps, chosen.frame.replaces, added):
            steps.clear()  # "get every bill … and save the PDFs": one collection that also saves them
            executors.clear()
            added = _bind_frame(chosen.frame, dict(reading.roles), offset=0)
        if sheet is not None and feeds and not chosen.frame.feeds and not sheet_added and not chosen.frame.before:
            sheet_added = _add_sheet(steps, executors, frames, reading, sheet)  # before "… then close the sessions"
        if chosen.frame.before and any(step["tool"] in chosen.frame.before for step in steps):
            steps[:] = _put_before(steps, added, chosen.frame.before)
            executors.insert(0, chosen.executor)
            continue
        steps.extend(added)
        executors.append(chosen.executor)
        feeds = chosen.frame.feeds
    if sheet is not None and feeds and not sheet_added:
        _add_sheet(steps, executors, frames, reading, sheet)
    if not steps:
        return Understanding(lang, reason="nothing to do", roles=reading.roles)
    return Understanding(lang, plan={"steps": steps}, executors=tuple(executors),
                         reason="request frames of " + ", ".join(dict.fromkeys(executors)),
                         roles=reading.roles)  # fmt: skip


def _choose(
    frames: Sequence[tuple[str, RequestFrame]], part: Part, roles: Mapping[str, Any], *, first: bool
) -> _Candidate | None:
    candidates: list[_Candidate] = []
    for name, frame in frames:
        if part.action not in frame.actions:
            continue
        if frame.subject is not None and frame.subject != part.subject:
            continue
        if frame.continues and first:
            continue
        missing = tuple(role for role in frame.needs if role not in roles)
        candidates.append(_Candidate(name, frame, missing))
    if not candidates:
        return None
    complete = [candidate for candidate in candidates if not candidate.missing]
    if complete:
        # The most specific frame the request fully gives; a continuation only when nothing else fits.
        return max(complete, key=lambda candidate: (not candidate.frame.continues, len(candidate.frame.needs)))
    # The frame the request comes closest to; a website nobody named is the least likely thing it meant.
    return min(candidates, key=lambda candidate: (len(candidate.missing), "url" in candidate.missing))


_SHARED_ROLES = frozenset({"url", "origin", "credential", "recursive", "label", "username", "sheet_named"})


def _own_roles(reading: Reading, part: Part, *, previous: int) -> dict[str, Any]:
    """The roles a part of the request gives itself, those every part shares (its website), and those of
    the parts that ask for nothing ("I have receipts in ~/Taxes. Could you pull out …")."""
    spans = [(part.start, part.start + len(part.words))]
    spans += [(other.start, other.start + len(other.words)) for other in reading.parts if other.action is None]
    roles = {name: value for name, value in reading.roles.items()
             if name in _SHARED_ROLES or reading.where.get(name, -1) < 0
             or any(start <= reading.where[name] < end for start, end in spans)}  # fmt: skip
    if previous:
        roles["previous"] = previous
    return roles


def _put_before(steps: list[dict[str, Any]], added: list[dict[str, Any]], tools: Sequence[str]) -> list[dict[str, Any]]:
    """``added`` (bound as if appended) moved before the first step of ``tools``; step numbers follow."""
    at = next(index for index, step in enumerate(steps) if step["tool"] in tools)
    moved = [{"tool": step["tool"], "args": {**step["args"]}} for step in added]
    for step in moved:
        step["args"].pop("from_step", None)
    shifted: list[dict[str, Any]] = []
    for step in steps:
        args = dict(step["args"])
        if isinstance(args.get("from_step"), int) and args["from_step"] > at:
            args["from_step"] += len(moved)
        shifted.append({"tool": step["tool"], "args": args})
    return [*shifted[:at], *moved, *shifted[at:]]


def _restates(reading: Reading, part: Part) -> bool:
    return part.action in {"obtain", "list", "read"} and not _gives_own_roles(reading, part)


def _gives_own_roles(reading: Reading, part: Part) -> bool:
    end = part.start + len(part.words)
    return any(part.start <= index < end for name, index in reading.where.items() if name != "refers_back")


def _too_broad(reading: Reading, part: Part) -> bool:
    """A deletion of "the old stuff", "everything in my files", the whole home folder: never guessed."""
    if reading.roles.get("folder") == "~" and "files" not in reading.roles:
        return True
    return (
        bool(scan(part.words, "vague_qualifiers")) and "files" not in reading.roles and "pattern" not in reading.roles
    )


def _absorbed_by_sheet(part: Part, reading: Reading, sheet: str | None, feeds: bool) -> bool:
    """A later part that only names the spreadsheet ("… and list them in ~/x.xlsx") is the spreadsheet."""
    absorbing = {"list", "make", "obtain", "download", "record", "extract", "delete"}  # "… poi buttale in un foglio"
    if not feeds or sheet is None or part.action not in absorbing:
        return False
    end = part.start + len(part.words)
    own = {name for name, index in reading.where.items() if part.start <= index < end}
    return not own - {"sheet", "refers_back"}


def _replaceable(
    steps: Sequence[Mapping[str, Any]], replaces: Sequence[str], added: Sequence[Mapping[str, Any]]
) -> bool:
    tools = [step["tool"] for step in steps]
    return all(tool in replaces for tool in tools) and all(
        step["args"].get("url") == added[0]["args"].get("url") for step in steps
    )


def _add_sheet(steps: list[dict[str, Any]], executors: list[str], frames: Sequence[tuple[str, RequestFrame]],
               reading: Reading, sheet: str) -> bool:  # fmt: skip
    if any(step["tool"] == "create_files_spreadsheet" for step in steps):
        return True
    roles = {**reading.roles, "sheet": sheet, "previous": len(steps)}
    if "sheet" not in reading.roles:
        roles["if_exists"] = "new_name"
    for name, frame in frames:
        if "sheet" in frame.actions and all(role in roles for role in frame.needs):
            steps.extend(_bind_frame(frame, roles, offset=len(steps)))
            executors.append(name)
            return True
    return False


def _sheet_path(reading: Reading) -> str | None:
    if "sheet" in reading.roles:
        sheet = str(reading.roles["sheet"])
        folder = reading.roles.get("folder") or reading.roles.get("target_folder")
        if not sheet.startswith(("~", "/")) and folder:
            return f"{str(folder).rstrip('/')}/{sheet}"  # "a spreadsheet called "Receipts 2026.xlsx" in that folder"
        return sheet
    if reading.roles.get("sheet_named"):
        return _default_sheet(reading)
    return None


def _default_sheet(reading: Reading) -> str:
    """A spreadsheet the request asks for without naming: named after what it holds, never over another."""
    what = str(reading.roles.get("what") or ("documenti" if reading.language == "it" else "documents"))
    name = re.sub(r"[^\w' -]+", "", what).strip()[:60] or "records"
    return f"~/{name}.xlsx"


def _asked_role(missing: Sequence[str], reading: Reading) -> str:
    role = missing[0]
    if role in {"files", "folder"} and any(word in reading.vague for word in ("everything", "tutto")):
        return "too_broad"
    return role


def _bind_frame(frame: RequestFrame, roles: Mapping[str, Any], *, offset: int) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for step in frame.plan:
        args: dict[str, Any] = {}
        for name, value in dict(step.get("args", {})).items():
            bound = _bind(value, roles)
            if bound is _ABSENT:
                continue
            if name == "from_step" and isinstance(value, int):
                bound = value + offset
            args[name] = bound
        steps.append({"tool": step["tool"], "args": args})
    return steps


_ABSENT = object()


def _bind(value: Any, roles: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _ROLE.fullmatch(value)
        if whole:
            return roles.get(whole.group(1), _ABSENT)
        return _ROLE.sub(lambda match: str(roles.get(match.group(1), "")), value)
    if isinstance(value, list | tuple):
        return [item for item in (_bind(item, roles) for item in value) if item is not _ABSENT]
    return value
