"""The actions a request names explicitly: found deterministically, never by a model.

Contract (runtime spec, "plans": shared guards "request a new proposal when an
explicitly requested action is missing"):

* An executor declares ``action_phrases`` in its manifest: short phrases in
  request-form syntax (``[optional]``, ``(required|alternative)``, no slots)
  that name its action, in English and Italian — "(create|make) a [summary]
  (table|spreadsheet)", "(crea|fai) (un|una) (foglio di calcolo|tabella)".
* :func:`requested_actions` returns the executors of the catalog whose phrases
  the request says, each once, in the order the request says them.
* Only what the user asks counts. Text in double quotes is data (a file name,
  a title), not an instruction. A phrase in a negated clause does not count:
  the request is split into clauses at punctuation and at conjunctions
  ("and", "then", "e", "poi", …), and a phrase is negated when a negation
  ("don't", "not", "without", "rather than", "non", "senza", "invece di", …)
  comes before it in its clause. "Don't forget to" / "non dimenticare di"
  asks for the action.
* :func:`requested_actions_missing` gives the requested actions a plan leaves
  out once the shared guards have run (an inserted producer counts as
  present); :func:`forms_refusal` is the sentence the model-free proposer
  answers with when its plan would leave one out: it never runs a plan
  without an action the user asked for.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from apps.runtime.executor import Catalog, combination_rules
from apps.runtime.paths.forms import compile_phrase
from apps.runtime.plans.api import Plan, PlanInvalid, apply_guards, validate_plan

# The user's words shown back in a refusal or to the planner, at most.
MAX_PHRASE_CHARS: Final = 80

_QUOTED = re.compile(r'"[^"\n]*"|\u201c[^\u201d\n]*\u201d|\u00ab[^\u00bb\n]*\u00bb')
_CLAUSE_BREAK = re.compile(
    r"[,;:()\n]+|[.!?]+(?=\s|$)"
    r"|\b(?:and|then|also|but|plus|afterwards|e|ed|poi|quindi|infine|inoltre|ma|però|dopo)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|without|nor|neither|avoid|avoiding|skip|skipping|except|instead\s+of|rather\s+than"
    r"|dont|doesnt|didnt|wont|cant|shouldnt|mustnt)\b|\w+n't\b"
    r"|\b(?:non|senza|mai|né|nessun|nessuno|nessuna|niente|nulla|evita|evitare|evitando|tranne|eccetto"
    r"|anziché|anziche|invece\s+di|piuttosto\s+che)\b",
    re.IGNORECASE,
)
# A negation that asks for the action after all.
_AFFIRMING_IDIOM = re.compile(
    r"\b(?:do\s+not|don't|dont|never|non)\s+(?:forget|dimenticare|dimenticarti|dimenticatevi|scordare|scordarti)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RequestedAction:
    """An executor the request names explicitly, with the user's words that name it."""

    executor: str
    phrase: str

    def describe(self) -> str:
        return f'"{self.phrase}" ({self.executor})'


def _normalise(request: str) -> str:
    text = unicodedata.normalize("NFKC", request).replace("\u2019", "'").replace("\u2018", "'")
    return _QUOTED.sub(" ", text)


def _clauses(text: str) -> Iterable[tuple[int, str]]:
    start = 0
    for found in _CLAUSE_BREAK.finditer(text):
        yield start, text[start : found.start()]
        start = found.end()
    yield start, text[start:]


def _negated(before: str) -> bool:
    return _NEGATION.search(_AFFIRMING_IDIOM.sub(" ", before)) is not None


def requested_actions(request: str, catalog: Catalog) -> tuple[RequestedAction, ...]:
    """The catalog's executors the request names explicitly and does not negate (see the module docstring).

    A turn asks this while choosing its path and again while guarding the plan:
    the answer depends only on the text and the executors' action phrases, so
    the last few answers are kept under those.
    """
    phrases = tuple((name, manifest.action_phrases) for name, manifest in sorted(catalog.manifests.items()))
    return _requested_actions_of(request, phrases)


_Phrases = tuple[tuple[str, tuple[str, ...]], ...]


@functools.lru_cache(maxsize=64)
def _requested_actions_of(request: str, manifests: _Phrases) -> tuple[RequestedAction, ...]:
    text = _normalise(request)
    clauses = list(_clauses(text))
    found: dict[str, tuple[int, RequestedAction]] = {}
    for name, phrases in manifests:
        for phrase in phrases:
            pattern = compile_phrase(phrase)
            for offset, clause in clauses:
                for match in pattern.finditer(clause + " "):
                    if _negated(clause[: match.start()]):
                        continue
                    position = offset + match.start()
                    if name not in found or position < found[name][0]:
                        words = " ".join(match.group(0).split())[:MAX_PHRASE_CHARS]
                        found[name] = (position, RequestedAction(name, words))
                    break
    return tuple(action for _, action in sorted(found.values(), key=lambda entry: entry[0]))


def requested_actions_missing(
    plan: Plan | Mapping[str, Any], catalog: Catalog, requested: Sequence[RequestedAction]
) -> tuple[RequestedAction, ...]:
    """The requested actions ``plan`` does not do once the guards have run.

    A plan that is not valid leaves nothing to check here: the turn refuses
    it on its own, saying why.
    """
    if not requested:
        return ()
    try:
        validated = validate_plan(plan, catalog, combination_rules=combination_rules())
    except PlanInvalid:
        return ()
    guarded = apply_guards(validated, catalog, requested_tools=[action.executor for action in requested])
    return tuple(action for action in requested if action.executor in guarded.missing_tools)


def describe_actions(actions: Sequence[RequestedAction]) -> str:
    """``"create a table" (create_files_spreadsheet) and "delete them" (delete_files)``."""
    described = [action.describe() for action in actions]
    if len(described) < 2:
        return "".join(described)
    return ", ".join(described[:-1]) + " and " + described[-1]


def forms_refusal(missing: Sequence[RequestedAction]) -> str:
    """What the user reads when the model-free proposer's plan would leave out an action they asked for."""
    return (
        f"You asked for {describe_actions(missing)}, but the plan I can make for this request without a "
        "planning model would not do it, so nothing was run. Ask for that action in a request of its own, "
        "or ask an operator to configure a planning model under System > Models."
    )
