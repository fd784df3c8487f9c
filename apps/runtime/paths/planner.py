"""Model proposals: a plan from the planning tier for requests no request form matches.

Contract (runtime spec, "paths", new proposal):

* :func:`propose_with_model` asks the planning tier for a plan over the given
  catalog and returns a :class:`ModelProposal`. It never runs anything. A
  valid plan goes back to the caller, which validates it again, applies the
  guards and sends every step through the invocation boundary, like a plan
  from any other path. Proposing a plan is not the power to run it.
* Every reply is validated in full with :func:`validate_plan` and the
  registered combination rules. An invalid reply (refused by the validator,
  not in the response format, or truncated) gets a new request that states
  the precise problems, bounded in number and size. After ``max_requests``
  requests the answer is a refusal in a clear sentence.
* Every valid reply then meets the shared guards
  (:func:`apply_guards`), given the actions the request names explicitly
  (``requested``, from :mod:`requested_actions`). When they ask for a new
  proposal — a requested action is missing, an indispensable producer cannot
  be inserted — the next request says what was missing, within the same
  bound; a proposal that still leaves out a requested action ends in a
  refusal that names it.
* A model error that asking again would not fix (refused, such as a 401;
  unavailable; out of time) ends the proposal at once with a refusal. An empty
  plan is the model saying that no executor fits: also a refusal, without
  asking again.
* Messages carry the catalog, the user's request, the actions it names
  explicitly, the optional context and, when steps already ran in the turn,
  the scratchpad's projection of their results (never the whole results);
  context and projection are explicitly truncated. They never carry a credential: this module
  has no access to the vault, and every value in ``secrets`` (like the tier's
  own key) is redacted from each request body, the model client reading them
  from :func:`apps.core.redaction.secrets_redacted`.
* Requests are counted in ``usage`` when sent (cloud requests separately) and
  stay counted whatever happens next. ``requests_made`` says how many requests
  this proposal sent.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from apps.core.redaction import secrets_redacted
from apps.runtime.executor import Catalog, combination_rules
from apps.runtime.paths.requested_actions import RequestedAction, describe_actions
from apps.runtime.plans.api import GuardOutcome, Plan, PlanError, PlanInvalid, apply_guards, validate_plan
from apps.runtime.scratchpad import Scratchpad
from apps.runtime.tiers import config as model_tiers
from apps.runtime.tiers.client import (
    ModelClient,
    ModelError,
    ModelInvalidOutput,
    ModelRefused,
    ModelTimeout,
    ModelTruncated,
    ModelUsage,
)
from apps.runtime.tiers.config import ModelTier

logger = logging.getLogger(__name__)

# --- Bounds -------------------------------------------------------------------
# Requests one proposal may send: the first one and the new requests after invalid replies.
MAX_PLANNING_REQUESTS: Final = 3
# Tokens a plan reply may use; a longer reply is truncated, which counts as invalid.
PLANNING_MAX_TOKENS: Final = 4096
# The user's request as the model sees it (Turn.request_text has the same bound).
MAX_REQUEST_CHARS: Final = 4000
# The caller's context as the model sees it.
MAX_CONTEXT_CHARS: Final = 4000
# The projection of the results of steps that already ran, as the model sees it.
MAX_EARLIER_RESULTS_CHARS: Final = 6000
# Validation problems repeated to the model in a new request, and the length of each.
MAX_FEEDBACK_ERRORS: Final = 10
MAX_FEEDBACK_MESSAGE_CHARS: Final = 300
# The previous (invalid) proposal is shown back only up to this size.
MAX_PREVIOUS_PROPOSAL_CHARS: Final = 8000

PLAN_SCHEMA_NAME: Final = "plan"

# --- What the user reads when there is no plan ------------------------------------
_NOTHING_RAN = "so no plan was made and nothing was run"
REFUSAL_INVALID: Final = (
    "I could not make a valid plan for this request: the planning model's proposals failed the plan checks "
    "{count} times, so nothing was run. Naming the folder, the files and the result you want may help."
)
REFUSAL_MISSING_ACTION: Final = (
    "I could not make a plan that does everything you asked: after {count} proposals the planning model's plan "
    "still left out {actions}, so nothing was run. Asking for that part in a request of its own may help."
)
REFUSAL_NO_FIT: Final = (
    "None of the installed capabilities can do this request, according to the planning model, so nothing was run. "
    "System > Capabilities lists what Metnos can do."
)
REFUSAL_NO_CAPABILITIES: Final = "No capabilities are installed, so no plan can be made and nothing was run."
REFUSAL_UNAUTHORISED: Final = (
    f"The planning model did not accept Metnos's credentials, {_NOTHING_RAN}. "
    "An operator should check the planning tier under System > Models."
)
REFUSAL_RATE_LIMITED: Final = f"The planning model is limiting requests right now, {_NOTHING_RAN}. Try again shortly."
REFUSAL_CONTENT_FILTER: Final = f"The planning model's content filter declined this request, {_NOTHING_RAN}."
REFUSAL_DECLINED: Final = (
    f"The planning model declined the request, {_NOTHING_RAN}. "
    "An operator can check the planning tier under System > Models."
)
REFUSAL_UNAVAILABLE: Final = (
    f"The planning model cannot be reached right now, {_NOTHING_RAN}. "
    "Try again later, or ask an operator to check the planning tier under System > Models."
)
REFUSAL_TIMEOUT: Final = (
    f"The planning model did not answer in time, {_NOTHING_RAN}. Try again, or simplify the request."
)


@dataclass(frozen=True)
class ModelProposal:
    """What the planning model proposed: a valid plan, or a refusal saying why there is none.

    ``requests_made`` counts the requests this proposal sent (each also counted
    in the caller's :class:`ModelUsage`). ``error_codes`` lists, in the order
    first seen and without repeats, why replies were refused (plan error
    codes such as ``unknown_executor``; ``truncated``, ``not_json``,
    ``schema_mismatch`` for unusable replies; the model error's cause, such
    as ``unauthorised``, when asking again was pointless). A valid plan may
    come with codes from earlier, refused replies.
    """

    plan: Plan | None
    requests_made: int
    refusal: str | None
    error_codes: tuple[str, ...] = ()
    # Executors the request named that the last proposal still left out (with a refusal).
    missing_actions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.plan is None) == (self.refusal is None):
            raise ValueError("a proposal has either a plan or a refusal")


def planning_tier() -> ModelTier | None:
    """The configured planning tier, or ``None`` (then only request forms propose plans)."""
    return model_tiers.tier("planning")


# --- The prompt ---------------------------------------------------------------------

_INSTRUCTIONS = """\
You are the planner of Metnos, a personal assistant. You do not run anything: you propose a plan, \
and Metnos checks it and runs each step through its own controls (permissions, consent, placement).

A plan is a JSON object {"steps": [{"tool": NAME, "args": {...}}, ...]}: a finite list of steps, numbered \
from 1, each naming one executor of the catalog below with arguments that match its argument schema. \
It contains no code and no other keys.

Passing results between steps:
- An argument named from_step takes a step number: {"from_step": 1} passes the collection step 1 produced. \
Any other argument of type collection takes {"from_step": N}.
- "{{stepN.FIELD}}" inside a string passes one value of step N: for a result of kind value, one of its \
fields; for a result of kind collection, {{stepN.count}} or {{stepN.first.FIELD}}.
- A step refers only to earlier steps (N smaller than its own number).
- An argument marked sensitive (a path, a recipient, an authorisation) takes a value from the user's \
request, never from another step, unless it says accepts_step_values: true.

Rules:
- Paths are inside the user's own files: ~ is the root, ~/Purchasing a folder in it.
- Never put a password, key or other credential in a plan: Metnos resolves access itself when a step runs.
- Plan only what the user asked for; add no step with an effect the user did not ask for.
- If no combination of these executors can do what the user asks, reply {"steps": []}.
- Reply with the JSON object only.

Example of the shape (NAME_A and NAME_B stand for executors of the catalog):
{"steps": [{"tool": "NAME_A", "args": {"base_path": "~/Reports"}}, {"tool": "NAME_B", "args": {"from_step": 1}}]}

The catalog, one executor per line:
"""


def describe_catalog(catalog: Catalog) -> str:
    """The catalog as the planner sees it: one compact JSON line per executor.

    Name, purpose, argument schema (as :meth:`Manifest.as_json` gives it) and
    result shape; whether a step stops for the user's confirmation. Request
    forms, limits and signatures are left out: they do not help choose steps.
    """
    lines: list[str] = []
    for name, manifest in sorted(catalog.manifests.items()):
        described = manifest.as_json()
        entry: dict[str, Any] = {
            "name": name,
            "purpose": described["purpose"],
            "args": described["args"],
            "result": described["result"],
        }
        if manifest.consent.mode == "confirm":
            entry["asks_confirmation"] = True
        lines.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines)


def plan_response_schema(catalog: Catalog) -> dict[str, Any]:
    """The response format: ``{"steps": [{"tool": <a catalog name>, "args": {...}}]}``."""
    return {
        "type": "object",
        "properties": {
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "tool": {"type": "string", "enum": sorted(catalog.executors)},
                        "args": {"type": "object"},
                    },
                    "required": ["tool", "args"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["steps"],
        "additionalProperties": False,
    }


def _cut(text: str, limit: int, what: str) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[{what} truncated: the first {limit} of {len(text)} characters are shown]"


def _request_message(
    request: str,
    context: Mapping[str, Any] | None,
    requested: Sequence[RequestedAction] = (),
    earlier: Scratchpad | None = None,
    rejected: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    parts = ["The user's request:", _cut(request.strip(), MAX_REQUEST_CHARS, "request")]
    if requested:
        parts += ["", f"Actions the request names explicitly; the plan must do each: {describe_actions(requested)}."]
    if rejected:
        parts += [
            "",
            "An earlier plan for this request was not run: the plan checks asked for a new proposal because:",
            *_bounded_lines(rejected),
        ]
    if earlier is not None and len(earlier):
        shown = json.dumps(earlier.planner_view(max_chars=MAX_EARLIER_RESULTS_CHARS), ensure_ascii=False)
        parts += [
            "",
            "Results of the steps that already ran in this turn, for information (JSON). Each is a projection: "
            "explicitly truncated, with total_items and shown_items saying how much is shown. The steps of "
            "your plan are numbered from 1 again and cannot reference these results.",
            _cut(shown, MAX_EARLIER_RESULTS_CHARS, "results"),
        ]
    if context:
        try:
            shown = json.dumps(context, ensure_ascii=False, sort_keys=True, default=str)
        except (TypeError, ValueError):
            shown = "[context left out: it is not JSON]"
        parts += ["", "Context (JSON):", _cut(shown, MAX_CONTEXT_CHARS, "context")]
    return {"role": "user", "content": "\n".join(parts)}


# --- Feedback after an invalid reply ---------------------------------------------------

# schema_mismatch names a location built from the schema's property names and
# indexes; a tool outside the enum is the validator's unknown_executor.
_TOOL_NOT_IN_CATALOG = re.compile(r"^\$\.steps\[(\d{1,9})\]\.tool: not one of the allowed values$")


@dataclass(frozen=True)
class _Invalid:
    """Why one reply was not a usable plan: its codes and what the next request says about it."""

    codes: tuple[str, ...]
    feedback: str
    previous: str | None = None  # the refused proposal, shown back to the model


def _problem_lines(errors: Sequence[PlanError]) -> list[str]:
    return _bounded_lines([(error.code, error.message) for error in errors])


def _bounded_lines(problems: Sequence[tuple[str, str]]) -> list[str]:
    """``(code, message)`` problems as the model sees them: at most ``MAX_FEEDBACK_ERRORS``, each message cut."""
    lines = []
    for code, message in problems[:MAX_FEEDBACK_ERRORS]:
        if len(message) > MAX_FEEDBACK_MESSAGE_CHARS:
            message = message[: MAX_FEEDBACK_MESSAGE_CHARS - 1] + "…"
        lines.append(f"- [{code}] {message}")
    if len(problems) > MAX_FEEDBACK_ERRORS:
        lines.append(f"- (and {len(problems) - MAX_FEEDBACK_ERRORS} more problems)")
    return lines


def _ask_again(lines: Iterable[str]) -> str:
    return "\n".join(
        [
            "That reply is not a valid plan, so nothing ran. The problems:",
            *lines,
            "Reply with the whole corrected plan, as the same JSON object.",
        ]
    )


def _invalid_plan(invalid: PlanInvalid, parsed: Any) -> _Invalid:
    previous = json.dumps(parsed, ensure_ascii=False, separators=(",", ":"), default=str)
    return _Invalid(
        codes=invalid.codes,
        feedback=_ask_again(_problem_lines(invalid.errors)),
        previous=previous if len(previous) <= MAX_PREVIOUS_PROPOSAL_CHARS else None,
    )


def _invalid_reply(error: ModelError, catalog: Catalog) -> _Invalid | None:
    """What to tell the model about a reply it can improve on; ``None`` when asking again is pointless."""
    if isinstance(error, ModelTruncated):
        return _Invalid(
            ("truncated",),
            _ask_again(["- [truncated] The reply was cut off: it was too long. Propose a shorter plan."]),
        )
    if not isinstance(error, ModelInvalidOutput):
        return None
    unknown = _TOOL_NOT_IN_CATALOG.match(error.detail) if error.cause == "schema_mismatch" else None
    if unknown is not None:
        step = int(unknown.group(1)) + 1
        names = ", ".join(sorted(catalog.executors))
        line = f"- [unknown_executor] step {step} names an executor that is not in the catalog; use only: {names}"
        return _Invalid(("unknown_executor",), _ask_again([line]))
    if error.cause == "schema_mismatch":
        line = f"- [schema_mismatch] The reply does not have the plan's format ({error.detail})."
    else:
        line = f"- [{error.cause}] The reply is not a JSON object in the plan's format."
    return _Invalid((error.cause,), _ask_again([line]))


# Why the guards ask for a new proposal (their other changes are corrections, not problems).
_GUARD_PROBLEMS: Final = frozenset({"requested_tool_missing", "producer_unavailable", "amended_plan_invalid"})


def _guard_problems(
    guarded: GuardOutcome, requested: Sequence[RequestedAction], proposed: Any
) -> tuple[_Invalid, tuple[RequestedAction, ...]]:
    """What to tell the model when the guards ask for a new proposal, and the requested actions left out."""
    missing = tuple(action for action in requested if action.executor in guarded.missing_tools)
    lines = [
        f"- [requested_tool_missing] The request explicitly asks for {action.describe()}; "
        f"the plan does not use {action.executor}."
        for action in missing
    ]
    lines += [
        f"- [{change.kind}] {change.detail}"
        for change in guarded.changes
        if change.kind in _GUARD_PROBLEMS and change.kind != "requested_tool_missing"
    ]
    codes = tuple(dict.fromkeys(change.kind for change in guarded.changes if change.kind in _GUARD_PROBLEMS))
    previous = json.dumps(proposed, ensure_ascii=False, separators=(",", ":"), default=str)
    feedback = "\n".join(
        [
            "That plan does not do what the request asks, so nothing ran. What is missing:",
            *lines[:MAX_FEEDBACK_ERRORS],
            'Reply with the whole corrected plan, as the same JSON object, or with {"steps": []} if the '
            "executors of the catalog cannot do it.",
        ]
    )
    return _Invalid(codes, feedback, previous if len(previous) <= MAX_PREVIOUS_PROPOSAL_CHARS else None), missing


def _refusal_for(error: ModelError) -> str:
    if isinstance(error, ModelRefused):
        if error.cause == "unauthorised":
            return REFUSAL_UNAUTHORISED
        if error.cause == "rate_limited":
            return REFUSAL_RATE_LIMITED
        if error.cause == "content_filter":
            return REFUSAL_CONTENT_FILTER
        return REFUSAL_DECLINED
    if isinstance(error, ModelTimeout):
        return REFUSAL_TIMEOUT
    return REFUSAL_UNAVAILABLE


def _add(seen: list[str], codes: Iterable[str]) -> None:
    seen.extend(code for code in codes if code not in seen)


# --- The proposal ---------------------------------------------------------------------


def propose_with_model(
    *,
    request: str,
    catalog: Catalog,
    tier: ModelTier,
    usage: ModelUsage,
    max_requests: int = MAX_PLANNING_REQUESTS,
    deadline: float | None = None,
    context: Mapping[str, Any] | None = None,
    secrets: Iterable[str] = (),
    requested: Sequence[RequestedAction] = (),
    earlier: Scratchpad | None = None,
    rejected: Sequence[tuple[str, str]] = (),
) -> ModelProposal:
    """Ask ``tier`` for a plan for ``request`` over ``catalog``; see the module docstring.

    ``deadline`` is a ``time.monotonic()`` instant bounding every request.
    ``context`` (JSON-ready) is shown to the model explicitly truncated.
    ``requested`` are the actions the request names explicitly: a plan
    without one of them is not returned. ``earlier`` holds the results of
    steps that already ran in the turn: the model sees only their projection.
    ``rejected`` says why the guards refused an earlier plan for the request
    (``(code, detail)`` pairs, bounded like the feedback after an invalid
    reply), so the first request already names what was missing.
    ``secrets`` are redacted from every request body. Nothing is executed;
    a returned plan must still cross the same controls as any other plan.
    """
    if max_requests < 1:
        raise ValueError("a model proposal needs at least one request")
    if not catalog.executors:
        return ModelProposal(None, 0, REFUSAL_NO_CAPABILITIES, ("no_capabilities",))
    client = ModelClient(tier, usage=usage)
    schema = plan_response_schema(catalog)
    opening = [
        {"role": "system", "content": _INSTRUCTIONS + describe_catalog(catalog)},
        _request_message(request, context, requested, earlier, rejected),
    ]
    rules = combination_rules()
    codes: list[str] = []
    made = 0
    follow_up: list[dict[str, Any]] = []
    left_out: tuple[RequestedAction, ...] = ()
    with secrets_redacted(secrets):
        for attempt in range(1, max_requests + 1):
            left_out = ()  # requested actions the latest proposal leaves out
            try:
                reply = client.chat(
                    [*opening, *follow_up],
                    response_schema=schema,
                    schema_name=PLAN_SCHEMA_NAME,
                    max_tokens=PLANNING_MAX_TOKENS,
                    temperature=0.0,
                    deadline=deadline,
                )
            except ModelError as error:
                if error.sent:
                    made += 1
                invalid = _invalid_reply(error, catalog)
                if invalid is None:
                    _add(codes, (error.cause,))
                    logger.info("model proposal refused attempt=%d cause=%s", attempt, error.cause)
                    return ModelProposal(None, made, _refusal_for(error), tuple(codes))
            else:
                made += 1
                proposed = reply.parsed  # checked by the client against the response schema
                if isinstance(proposed, dict) and proposed.get("steps") == []:
                    _add(codes, ("no_steps",))
                    logger.info("model proposal: no executor fits attempt=%d", attempt)
                    return ModelProposal(None, made, REFUSAL_NO_FIT, tuple(codes))
                try:
                    plan = validate_plan(proposed, catalog, combination_rules=rules)
                except PlanInvalid as refused:
                    invalid = _invalid_plan(refused, proposed)
                else:
                    requested_tools = [action.executor for action in requested]
                    guarded = apply_guards(plan, catalog, requested_tools=requested_tools, combination_rules=rules)
                    if not guarded.needs_new_proposal:
                        logger.info("model proposal accepted attempt=%d steps=%d", attempt, len(plan))
                        # The caller applies the guards again and records what they change.
                        return ModelProposal(plan, made, None, tuple(codes))
                    invalid, left_out = _guard_problems(guarded, requested, proposed)
            _add(codes, invalid.codes)
            logger.info("model proposal invalid attempt=%d codes=%s", attempt, ",".join(invalid.codes))
            # Only the latest exchange is repeated, so every request stays bounded.
            follow_up = [{"role": "user", "content": invalid.feedback}]
            if invalid.previous is not None:
                follow_up.insert(0, {"role": "assistant", "content": invalid.previous})
    if left_out:
        refusal = REFUSAL_MISSING_ACTION.format(count=max_requests, actions=describe_actions(left_out))
        missing = tuple(action.executor for action in left_out)
        return ModelProposal(None, made, refusal, tuple(codes), missing)
    return ModelProposal(None, made, REFUSAL_INVALID.format(count=max_requests), tuple(codes))
