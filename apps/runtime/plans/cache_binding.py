"""Variable arguments: which plans a plan cache may reuse for a request that speaks relative to now.

Contract (runtime spec, "paths": the fast path reuses a successful plan for
the same request, checking "catalog signatures, variable arguments, and
operating conditions").

The fast path keys a plan by the normalised request and reuses it verbatim
while the executors' signatures hold; the autopath re-binds only the slots
taken from the request's words. Neither knows *when* a plan was made. A
request that speaks relative to the moment or to the current state —
"today", "last month", "this week", "the latest invoice", "3 days ago",
"oggi", "il mese scorso", "l'ultima fattura" — has a plan whose arguments
are right only if they are bound when the plan runs:

* **bound at run time** (reusable): the plan carries the relative words
  themselves and the executor resolves them when the step runs, against
  ``ExecutionContext.today`` or what it finds then. The collection forms do
  this: "collect all invoices from last month from …" plans
  ``what="all invoices from last month"`` and the executor reads the period
  against today (``apps.sites.collection.scope``);
* **bound at planning time** (stale when reused): the proposer resolved them
  into values — a date, a month's name, the path of the file that was the
  latest then — and nothing in the plan says so. Reused next month, it
  would quietly answer last month's question.

The rule: :func:`relative_terms` finds the relative expressions of a request
(a declared English and Italian vocabulary, deterministic; quoted text is
data, not a time). :func:`time_bound_terms` gives those a plan does not
carry in its arguments (compared case-insensitively). A plan with any is
never stored in a plan cache (fast path or autopath), and a cached plan with
any — stored before this rule — is refused and forgotten at lookup, so the
request is planned again, at the time it is asked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

_UNITS_EN = r"(?:days?|nights?|weeks?|weekends?|months?|quarters?|years?|mornings?|evenings?)"
_DAYS_EN = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_UNITS_IT = r"(?:giorn[oi]|settiman[ae]|weekend|mes[ei]|trimestr[ei]|ann[oi]|mattin[ae]|ser[ae])"

# Alternatives are tried in order at each position: the longer expressions first.
RELATIVE_EXPRESSIONS: Final = (
    # English
    rf"(?:this|last|next|previous|past|coming|current)\s+(?:\d{{1,3}}\s+)?(?:{_UNITS_EN}|{_DAYS_EN})",
    rf"\d{{1,3}}\s+{_UNITS_EN}\s+ago",
    r"(?:the\s+)?day\s+(?:before|after)\s+(?:yesterday|tomorrow)",
    r"most\s+recent(?:ly)?",
    r"today|tonight|yesterday|tomorrow|lately|recently|recent|latest|newest|oldest|earliest|last",
    # Italian
    rf"{_UNITS_IT}\s+(?:scors[oaie]|prossim[oaie]|passat[oaie]|corrente|attuale)",
    rf"(?:quest[oaie]\s+|quest['\u2019]\s*){_UNITS_IT}",
    rf"ultim[oaie](?:\s+\d{{1,3}}\s+{_UNITS_IT})?",
    rf"\d{{1,3}}\s+{_UNITS_IT}\s+fa",
    r"(?:più|piu)\s+recent[ei]",
    r"oggi|ieri|domani|dopodomani|stamattina|stamani|stasera|stanotte|recent[ei]|recentemente",
)
_RELATIVE = re.compile(r"(?<![\w/.-])(?:" + "|".join(RELATIVE_EXPRESSIONS) + r")(?![\w/-])", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"\n]*"|\u201c[^\u201d\n]*\u201d|\u00ab[^\u00bb\n]*\u00bb')


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).casefold().strip()


def relative_terms(request: str) -> tuple[str, ...]:
    """The expressions of ``request`` whose meaning depends on when (or in what state) it is asked."""
    unquoted = _QUOTED.sub(" ", request)
    return tuple(dict.fromkeys(_folded(match.group(0)) for match in _RELATIVE.finditer(unquoted)))


def time_bound_terms(request: str, plan: Mapping[str, Any]) -> tuple[str, ...]:
    """The relative expressions of ``request`` that ``plan`` does not carry to run time (see the module docstring)."""
    terms = relative_terms(request)
    if not terms:
        return ()
    arguments = _folded(
        " ".join(
            json.dumps(step.get("args", {}), ensure_ascii=False, default=str)
            for step in plan.get("steps", ())
            if isinstance(step, Mapping)
        )
    )
    return tuple(term for term in terms if term not in arguments)
