"""The runtime's side of request understanding: a proposal from the catalog's frames, for an owner.

:func:`propose_from_frames` understands a request against the current
catalog and, like the collection's request forms, signs in first when the
owner's vault would grant a credential for the website a collection reads
(decided afresh each time, so such plans are never cached).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from apps.accounts.models import User
from apps.runtime.executor import Catalog, credentials_granted
from apps.runtime.understanding.frames import Understanding, understand
from apps.runtime.understanding.words import lexicon

# Steps that read a website a sign-in may open first.
_READS_A_WEBSITE = frozenset({"collect_site_records", "collect_site_documents"})
SIGN_IN = "sign_in"


def propose_from_frames(
    request: str, catalog: Catalog, *, owner: User | None = None, turn_id: int | None = None
) -> Understanding:
    """What ``request`` asks, against ``catalog``'s frames; see the module docstring."""
    understood = understand(request, catalog.manifests)
    plan = understood.plan
    if plan is None or catalog.manifest(SIGN_IN) is None:
        return understood
    signed_in = _with_sign_in(plan)
    if signed_in is not None and credentials_granted(signed_in, catalog, owner, turn_id):
        return replace(understood, plan=signed_in)
    return understood


def depends_on_credentials(request: str, catalog: Catalog) -> bool:
    """Whether the frames' plan for ``request`` would change with the owner's credentials (never cache it)."""
    plan = understand(request, catalog.manifests).plan
    return plan is not None and catalog.manifest(SIGN_IN) is not None and _with_sign_in(plan) is not None


def refusal_text(understood: Understanding, kind: str) -> str:
    """The plain answer for a request that is forbidden (``"forbidden"``) or outside the catalog."""
    answers = lexicon()["answers"][kind]
    return str(answers.get(understood.language) or answers["en"])


def _with_sign_in(plan: Mapping[str, Any]) -> dict[str, Any] | None:
    steps = [dict(step) for step in plan.get("steps", ())]
    if any(step.get("tool") == SIGN_IN for step in steps):
        return None
    first = next((step for step in steps if step.get("tool") in _READS_A_WEBSITE), None)
    if first is None:
        return None
    url = first.get("args", {}).get("url")
    shifted = [_shift(step) for step in steps]
    return {"steps": [{"tool": SIGN_IN, "args": {"url": url}}, *shifted]}


def _shift(step: Mapping[str, Any]) -> dict[str, Any]:
    args = dict(step.get("args", {}))
    if isinstance(args.get("from_step"), int):
        args["from_step"] += 1
    return {"tool": step["tool"], "args": args}
