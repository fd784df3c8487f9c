"""Choosing how a turn gets its plan, simplest path first.

1. **Deterministic rule** — closed operations such as undoing the latest turn.
2. **Fast path** — the same request succeeded before: reuse its plan while every
   executor signature it relied on is unchanged and no argument was bound to
   the time it was made: a request that says "today", "last month", "the
   latest …" is reused only if its plan carries those words to the executor
   that binds them when it runs (:mod:`apps.runtime.plans.cache_binding`);
   such plans are not cached otherwise (nor as autopaths).
3. **Autopath** — a confirmed, generalised plan for a similar request: slots
   instead of personal values, matched by template, fully validated again.
4. **New proposal** — request forms declared by executors (no model needed);
   with a planning model configured, a model proposal for anything else.
   Both must do every action the request names explicitly
   (``requested_actions``): a form's plan that leaves one out is not run
   (the planning model is asked instead, or the turn is refused naming it);
   a model proposal that leaves one out is asked again, then refused. The
   planning model sees the projection of results already recorded for the
   turn (``scratchpad_for_turn``), never the results themselves; in a
   conducted turn that happens when a resumed plan is planned anew
   (:mod:`apps.runtime.paths.replanning`).

Plan caches are not shortcuts around the controls: whatever the path, the
plan is validated and every step crosses the invocation boundary.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from apps.core.tenancy import owned_rows
from apps.runtime.executor import Catalog, combination_rules
from apps.runtime.models import PlanCache, Turn
from apps.runtime.paths.forms import AmbiguousRequest, compile_template, forms_depend_on_credentials, propose_from_forms
from apps.runtime.paths.planner import planning_tier, propose_with_model
from apps.runtime.paths.requested_actions import forms_refusal, requested_actions, requested_actions_missing
from apps.runtime.plans.api import PlanInvalid, validate_plan
from apps.runtime.plans.cache_binding import time_bound_terms
from apps.runtime.scratchpad import Scratchpad, scratchpad_for_turn
from apps.runtime.tiers.client import ModelUsage
from apps.runtime.understanding.frames import UNSUPPORTED_REASON
from apps.runtime.understanding.proposer import depends_on_credentials, propose_from_frames, refusal_text

_UNDO = re.compile(
    r"^\s*(?:please\s+)?(?:undo|revert|annulla|annullare|ripristina)\b(?:\s*(?:the|my|l'|l\u2019|il|la|lo|ultimo|ultima|last|latest|previous|turn|turno|action|azione|operazione|operation|request|richiesta))*\s*[.!]?\s*$",
    re.IGNORECASE,
)
# Values that look personal never go into a generalised (autopath) plan.
_PERSONAL = re.compile(r"@|\d{5,}|https?://|\b[A-Z]{2}\d{2}[A-Z0-9]{10,}\b")


@dataclass(frozen=True)
class PathChoice:
    path: str  # a Turn.Path value
    plan: dict[str, Any] | None
    reason: str
    cache: PlanCache | None = None
    slots: Mapping[str, Any] = field(default_factory=dict)
    # Set when the planning model was asked: its refusal (a sentence for the
    # user), the requests it sent and why replies were refused (codes only).
    refusal: str | None = None
    model_requests: int = 0
    error_codes: tuple[str, ...] = ()


def normalise_request(text: str) -> str:
    decomposed = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\s+", " ", decomposed).strip(" .!?")


def _signatures_hold(cache: PlanCache, catalog: Catalog) -> bool:
    """A cached plan is reusable only while every executor it uses is unchanged."""
    for name, signature in cache.executor_signatures.items():
        manifest = catalog.manifest(name)
        if manifest is None or manifest.signature != signature:
            return False
    return True


def _fast_path_entry(*, owner_id: int, key: str) -> PlanCache | None:
    """The owner's fast-path entry for the normalised request ``key``, if any.

    Every turn looks here first. The statement is written out because
    building the equivalent queryset costs several times more than the read
    (see ``bench/bench_turns.py``); it selects on the unique key (owner,
    kind, request key), so there is at most one row.
    """
    table = PlanCache._meta.db_table
    rows = PlanCache.objects.raw(
        f"SELECT id, owner_id, plan, executor_signatures FROM {table} "  # noqa: S608 - the table name is ours
        "WHERE owner_id = %s AND kind = %s AND request_key = %s",
        [owner_id, PlanCache.Kind.FAST_PATH, key],
    )
    return next(iter(rows), None)


_TARGET_ARGS = ("url", "base_path", "paths", "save_documents_to", "credential", "origin")


def same_targets(form_plan: Mapping[str, Any], frames_plan: Mapping[str, Any]) -> bool:
    """Whether a request form's plan has the frames' steps on the same targets (its own wording may differ)."""
    form_steps, frame_steps = list(form_plan.get("steps", ())), list(frames_plan.get("steps", ()))
    if [step.get("tool") for step in form_steps] != [step.get("tool") for step in frame_steps]:
        return False
    for form_step, frame_step in zip(form_steps, frame_steps, strict=True):
        form_args, frame_args = form_step.get("args", {}), frame_step.get("args", {})
        if any(form_args.get(name) != frame_args.get(name) for name in _TARGET_ARGS):
            return False
    return True


def executor_signatures(plan: Mapping[str, Any], catalog: Catalog) -> dict[str, str]:
    names = {str(step.get("tool")) for step in plan.get("steps", ())}
    return {name: manifest.signature for name in sorted(names) if (manifest := catalog.manifest(name))}


def choose_path(
    *,
    turn: Turn,
    catalog: Catalog,
    usage: ModelUsage | None = None,
    deadline: float | None = None,
    earlier: Scratchpad | None = None,
    secrets: Iterable[str] = (),
) -> PathChoice:
    """The simplest reliable path to a plan for ``turn`` (see the module docstring).

    ``earlier`` holds results of steps that already ran in the turn (by
    default, those recorded for it and for the turn it resumes); the planning
    model sees only their projection. ``secrets`` are withheld from every
    model request.
    """
    request = turn.request_text
    if _UNDO.match(request) and catalog.manifest("undo_last_turn") is not None:
        return PathChoice("rule", {"steps": [{"tool": "undo_last_turn", "args": {}}]}, "deterministic rule: undo")

    requested = requested_actions(request, catalog)
    fast = _fast_path_entry(owner_id=turn.owner_id, key=normalise_request(request))
    if fast is not None:
        # A cached plan that leaves out an action the request names can never
        # serve it: forget it rather than run it without that action.
        reusable = _signatures_hold(fast, catalog) and not time_bound_terms(request, fast.plan)
        if reusable and not requested_actions_missing(fast.plan, catalog, requested):
            return PathChoice("fast_path", dict(fast.plan), "the same request succeeded before", cache=fast)
        fast.delete()  # the operating world changed, or its plan is bound to when it was made: plan again

    caches = owned_rows(PlanCache, owner=turn.owner)
    for cache in caches.filter(kind=PlanCache.Kind.AUTOPATH, confirmed=True).order_by("-uses", "-id")[:200]:
        pattern = compile_template(cache.request_key, tuple((slot, "text") for slot in cache.slots))
        match = pattern.fullmatch(request.strip().rstrip(".!?").strip() + " ")
        if match is None:
            continue
        if not _signatures_hold(cache, catalog):
            continue
        slots = {name: value.strip() for name, value in match.groupdict().items() if value}
        plan = _rebind(cache.plan, slots)
        try:
            validate_plan(plan, catalog, combination_rules=combination_rules())
        except PlanInvalid:
            continue  # not a plan for this request after all: plan it normally
        if requested_actions_missing(plan, catalog, requested):
            continue  # a slot swallowed an action the request names ("… and delete them")
        if time_bound_terms(request, plan):
            continue  # "today" in the request, a date fixed when the plan was made
        return PathChoice("autopath", plan, "a confirmed plan for a similar request", cache=cache, slots=slots)

    # What the request says, in any wording (apps/runtime/understanding): the frames decide. A request
    # form (one exact sentence) gives its own plan when it asks for the same steps, or speaks when the
    # frames understood nothing.
    understood = propose_from_frames(request, catalog, owner=turn.owner, turn_id=turn.pk)
    if understood.forbidden:
        return PathChoice("none", None, understood.reason, refusal=refusal_text(understood, "forbidden"),
                          error_codes=("request_forbids",))  # fmt: skip
    if understood.reason.startswith(UNSUPPORTED_REASON):
        return PathChoice("none", None, understood.reason, refusal=refusal_text(understood, "unsupported"),
                          error_codes=("outside_catalog",))  # fmt: skip
    try:
        proposal = propose_from_forms(request, catalog, owner=turn.owner, turn_id=turn.pk)
    except AmbiguousRequest as ambiguous:
        if understood.plan is None:
            return PathChoice("none", None, f"the request matches several capabilities differently ({ambiguous})")
        proposal = None
    left_out = requested_actions_missing(proposal.plan, catalog, requested) if proposal is not None else ()
    if understood.plan is not None:
        if proposal is not None and not left_out and same_targets(proposal.plan, understood.plan):
            return PathChoice("proposal", proposal.plan, f"request form of {proposal.executor}", slots=proposal.slots)
        if not requested_actions_missing(understood.plan, catalog, requested):
            return PathChoice("proposal", understood.plan, understood.reason)
    elif understood.question is not None and planning_tier() is None:
        return PathChoice("none", None, understood.reason, refusal=understood.question,
                          error_codes=("request_incomplete",))  # fmt: skip
    if proposal is not None and not left_out:
        return PathChoice("proposal", proposal.plan, f"request form of {proposal.executor}", slots=proposal.slots)

    model_tier = planning_tier()
    if model_tier is None:
        if proposal is not None:  # never a silent run without an action the user asked for
            names = ", ".join(action.executor for action in left_out)
            reason = f"the request form of {proposal.executor} leaves out a requested action ({names})"
            return PathChoice(
                "none", None, reason, refusal=forms_refusal(left_out), error_codes=("requested_tool_missing",)
            )
        return PathChoice("none", None, "no request form matches and no planning model is configured")
    # Fully validated inside; the caller validates again, applies the guards
    # and sends every step through the invocation boundary.
    model = propose_with_model(
        request=request,
        catalog=catalog,
        tier=model_tier,
        usage=usage if usage is not None else ModelUsage(),
        deadline=deadline,
        secrets=secrets,
        requested=requested,
        earlier=earlier if earlier is not None else scratchpad_for_turn(turn),
    )
    if model.plan is None:
        return PathChoice(
            "none",
            None,
            "the planning model gave no valid plan",
            refusal=model.refusal,
            model_requests=model.requests_made,
            error_codes=model.error_codes,
        )
    return PathChoice(
        "proposal",
        model.plan.as_json(),
        "model proposal",
        model_requests=model.requests_made,
        error_codes=model.error_codes,
    )


def _rebind(value: Any, slots: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        for name, slot_value in slots.items():
            value = value.replace("{" + name + "}", str(slot_value))
        return value
    if isinstance(value, list):
        return [_rebind(item, slots) for item in value]
    if isinstance(value, dict):
        return {key: _rebind(item, slots) for key, item in value.items()}
    return value


_SLOT = re.compile(r"\{slot\d+\}")


def _strings(value: Any) -> Iterator[str]:
    """Every string in an argument value, nested lists and mappings included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)


def generalise(request: str, plan: Mapping[str, Any]) -> tuple[str, dict[str, Any], list[str]] | None:
    """Turn a successful plan into a template: request values become slots.

    Returns None when the plan holds values that look personal and do not come
    from the request (they would be replayed for someone else's request), or
    when nothing in the plan comes from the request (nothing to generalise).
    """
    words = re.findall(r"[\w.\-]+", request)
    candidates = sorted({word for word in words if len(word) >= 3}, key=len, reverse=True)
    slots: dict[str, str] = {}

    def replace(text: str) -> str:
        for word in candidates:
            if word in text and not word.isdigit():
                name = slots.setdefault(word, f"slot{len(slots) + 1}")
                text = text.replace(word, "{" + name + "}")
        return text

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return replace(value)
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {key: walk(item) for key, item in value.items()}
        return value

    # Only arguments are generalised: the executors of a plan are never slots,
    # so no word of a request can choose which executor runs.
    general_plan = {
        "steps": [
            {**dict(step), "args": walk(dict(step.get("args", {})))}
            for step in plan.get("steps", ())
            if isinstance(step, Mapping)
        ]
    }
    if not slots:
        return None
    # Every string value, with its slots taken out: what remains is replayed as it is.
    leftovers = [_SLOT.sub(" ", text) for step in general_plan["steps"] for text in _strings(step.get("args", {}))]
    if any(_PERSONAL.search(text) for text in leftovers):
        return None
    template = request.strip().rstrip(".!?")
    for word, name in sorted(slots.items(), key=lambda item: len(item[0]), reverse=True):
        template = re.sub(rf"(?<![\w{{]){re.escape(word)}(?![\w}}])", "{" + name + "}", template, count=1)
    template = re.sub(r"[\[\]()|]", " ", template)
    return template, general_plan, sorted(slots.values())


def plan_cache_store(*, turn: Turn, plan: Mapping[str, Any], catalog: Catalog, slots_used: Sequence[str] = ()) -> None:
    """Remember a successful plan: a fast path always, an autopath when it generalises.

    Never a plan whose request forms plan differently with and without the
    owner's credentials: which one applies is decided afresh every time; never
    a plan whose arguments were bound to the time it was made
    (:func:`time_bound_terms`).
    """
    if forms_depend_on_credentials(turn.request_text, catalog) or depends_on_credentials(turn.request_text, catalog):
        return
    if time_bound_terms(turn.request_text, plan):
        return  # bound to when it was made: reused later, it would answer another day's question
    signatures = executor_signatures(plan, catalog)
    key = normalise_request(turn.request_text)
    cache, created = PlanCache.objects.get_or_create(
        owner_id=turn.owner_id,
        kind=PlanCache.Kind.FAST_PATH,
        request_key=key[:500],
        defaults={"plan": dict(plan), "executor_signatures": signatures},
    )
    if not created:
        cache.plan, cache.executor_signatures = dict(plan), signatures
        cache.uses += 1
        cache.last_used_at = timezone.now()
        cache.save(update_fields=["plan", "executor_signatures", "uses", "last_used_at"])
    general = generalise(turn.request_text, plan)
    if general is None:
        return
    template, general_plan, slot_names = general
    PlanCache.objects.update_or_create(
        owner_id=turn.owner_id,
        kind=PlanCache.Kind.AUTOPATH,
        request_key=template[:500],
        defaults={
            "plan": general_plan,
            "slots": slot_names,
            "executor_signatures": signatures,
            # A plan that ran to completion for its owner counts as confirmed.
            "confirmed": True,
            "last_used_at": timezone.now(),
        },
    )
