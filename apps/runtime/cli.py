"""``metnos catalog``, ``metnos ask`` and ``metnos plan``: the runtime from the command line.

Exit codes: 0 completed, 1 failed, 3 partial, 4 needs the user (confirmation
or input), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from apps.accounts.models import User
from apps.core.cli import register_subcommand
from apps.runtime.catalog import current_catalog
from apps.runtime.models import Turn

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


def _configure_plan(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--user", required=True)
    parser.add_argument("plan_file", type=Path)


@register_subcommand("plan", help="Validate a plan file, then run it for a user.", configure=_configure_plan)
def plan(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    try:
        raw = json.loads(options.plan_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CommandError(f"cannot read the plan file ({type(error).__name__})", returncode=2) from None
    if not isinstance(raw, dict):
        raise CommandError("the plan file must hold a JSON object with a 'steps' list", returncode=2)
    return _conduct(_user(options.user), f"plan from {options.plan_file.name}", raw, write)


@register_subcommand("reconcile", help="End turns whose process died (interrupted, never success).")
def reconcile(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    from apps.runtime.turns import turns_reconcile_interrupted

    ended = turns_reconcile_interrupted()
    write(json.dumps({"interrupted_turns": [turn.pk for turn in ended]}))
    return 0
