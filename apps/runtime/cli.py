"""``metnos catalog``, ``metnos ask`` and ``metnos plan``: the runtime from the command line.

Exit codes: 0 completed, 1 failed, 3 partial, 4 needs the user (confirmation
or input), 2 bad usage.

``metnos plan`` reads its file as the API reads a body (strict JSON: bounded
nesting and numbers, no NaN, valid Unicode) and validates the plan against
the catalog before anything is stored: a refused file is one line on stderr,
exit code 2, and no row.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from apps.accounts.models import User
from apps.core.cli import register_subcommand
from apps.core.json_input import JsonRefused, json_loads_strict
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import combination_rules
from apps.runtime.models import Turn
from apps.runtime.plans.api import MAX_PLAN_BYTES, PlanInvalid, validate_plan

EXIT_CODES: dict[str, int] = {
    Turn.Status.COMPLETED: 0,
    Turn.Status.FAILED: 1,
    Turn.Status.DECLINED: 1,
    Turn.Status.INTERRUPTED: 1,
    Turn.Status.PARTIAL: 3,
    Turn.Status.AWAITING_CONFIRMATION: 4,
    Turn.Status.AWAITING_INPUT: 4,
    # The work continues as a long-running job: not done yet, nothing failed.
    Turn.Status.HANDED_OFF: 5,
}


def _user(username: str) -> Any:
    from apps.accounts.models import User

    try:
        return User.objects.get(username=username, is_active=True)
    except User.DoesNotExist:
        raise CommandError(f"no active user {username!r}", returncode=2) from None


def _conduct(owner: User, text: str, plan: dict[str, Any] | None, write: Callable[[str], Any]) -> int:
    from apps.runtime.trace import observe_turn_events
    from apps.runtime.turns import TurnRejected, turn_conduct, turn_submit

    try:
        turn = turn_submit(owner=owner, text=text, plan=plan, enqueue=False)
    except TurnRejected as rejected:
        raise CommandError(str(rejected), returncode=2) from None
    with observe_turn_events(lambda event: write(json.dumps(event, default=str, ensure_ascii=False))):
        turn = turn_conduct(turn=turn)
    write(json.dumps({"turn": turn.pk, "status": turn.status, "path": turn.path, "answer": turn.answer}))
    return EXIT_CODES.get(turn.status, 1)


@register_subcommand("catalog", help="Print the catalog of installed executors as JSON.")
def catalog(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    write(json.dumps(current_catalog().as_json(), indent=2, ensure_ascii=False))
    return 0


def _configure_ask(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--user", required=True)
    parser.add_argument("request")


@register_subcommand(
    "ask", help="Run a full turn for a user and print its events as JSON lines.", configure=_configure_ask
)
def ask(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    return _conduct(_user(options.user), options.request, None, write)


@register_subcommand(
    "propose",
    help="Print the plan a request would get (path, steps, arguments) as JSON, or why it has none; runs nothing.",
    configure=_configure_ask,
)
def propose(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.runtime.proposals import plan_propose
    from apps.runtime.turns import TurnRejected

    try:
        proposal = plan_propose(owner=_user(options.user), text=options.request)
    except TurnRejected as rejected:
        raise CommandError(str(rejected), returncode=2) from None
    write(json.dumps(proposal.as_json(), indent=2, ensure_ascii=False))
    return 0 if proposal.plan is not None else 1


def _configure_plan(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--user", required=True)
    parser.add_argument("plan_file", type=Path)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    """A message as one printable line: control characters (a newline in a tool's name) shown escaped."""
    return _CONTROL.sub(lambda match: repr(match.group())[1:-1], text)


def _plan_file(path: Path) -> dict[str, Any]:
    """The validated plan of ``path`` as JSON, or a :class:`CommandError` (exit 2) saying why not."""
    try:
        if path.stat().st_size > MAX_PLAN_BYTES:
            raise CommandError(f"the plan file is larger than {MAX_PLAN_BYTES} bytes", returncode=2)
        data = path.read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read the plan file ({type(error).__name__})", returncode=2) from None
    try:
        raw = json_loads_strict(data)
    except JsonRefused as refused:
        raise CommandError(f"cannot read the plan file: {refused.message}", returncode=2) from None
    if not isinstance(raw, dict):
        raise CommandError("the plan file must hold a JSON object with a 'steps' list", returncode=2)
    try:
        checked = validate_plan(raw, current_catalog(), combination_rules=combination_rules())
    except PlanInvalid as invalid:
        raise CommandError(_one_line(f"the plan is not valid: {invalid}"), returncode=2) from None
    return checked.as_json()


def _label(path: Path) -> str:
    # A file name the system could not decode carries surrogates: never into a stored request.
    return path.name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@register_subcommand("plan", help="Validate a plan file, then run it for a user.", configure=_configure_plan)
def plan(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    owner = _user(options.user)
    checked = _plan_file(options.plan_file)  # before anything is stored
    return _conduct(owner, f"plan from {_label(options.plan_file)}", checked, write)


@register_subcommand("reconcile", help="End turns whose process died (interrupted, never success).")
def reconcile(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.runtime.turns import turns_reconcile_interrupted

    ended = turns_reconcile_interrupted()
    write(json.dumps({"interrupted_turns": [turn.pk for turn in ended]}))
    return 0
