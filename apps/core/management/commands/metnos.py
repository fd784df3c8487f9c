"""``python manage.py metnos <subcommand>``: the operator's command line."""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.core.cli import SUBCOMMANDS


class Command(BaseCommand):
    help = "Metnos operator commands."

    def add_arguments(self, parser: CommandParser) -> None:
        subparsers = parser.add_subparsers(dest="subcommand", required=True, parser_class=argparse.ArgumentParser)
        for subcommand in sorted(SUBCOMMANDS.values(), key=lambda item: item.name):
            subparser = subparsers.add_parser(subcommand.name, help=subcommand.help)
            subcommand.configure(subparser)

    def handle(self, *args: Any, **options: Any) -> None:
        subcommand = SUBCOMMANDS.get(options["subcommand"])
        if subcommand is None:
            raise CommandError(f"unknown subcommand {options['subcommand']!r}")
        exit_code = subcommand.handler(argparse.Namespace(**options), self.stdout.write)
        if exit_code:
            raise SystemExit(exit_code)
