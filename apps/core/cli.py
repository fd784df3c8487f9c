"""Subcommands of ``python manage.py metnos``; each app registers its own."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.management.base import CommandError

Handler = Callable[[argparse.Namespace, Callable[[str], Any]], int]


@dataclass(frozen=True)
class Subcommand:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    handler: Handler


SUBCOMMANDS: dict[str, Subcommand] = {}


def register_subcommand(
    name: str, *, help: str, configure: Callable[[argparse.ArgumentParser], None] | None = None
) -> Callable[[Handler], Handler]:
    def decorator(handler: Handler) -> Handler:
        if name in SUBCOMMANDS:
            raise CommandError(f"metnos subcommand {name!r} registered twice")
        SUBCOMMANDS[name] = Subcommand(name, help, configure or (lambda parser: None), handler)
        return handler

    return decorator
