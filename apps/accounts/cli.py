"""``metnos first-admin``: create the first administrator if none exists."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from django.conf import settings

from apps.accounts.services import first_admin_ensure
from apps.core.cli import register_subcommand


@register_subcommand("first-admin", help="Create the first administrator if none exists and say how to sign in.")
def first_admin(options: argparse.Namespace, write: Callable[[str], Any]) -> int:
    result = first_admin_ensure()
    admin_url = f"{settings.PUBLIC_ORIGIN}/{settings.ADMIN_PATH}"
    if result.password is None:
        write(f"metnos: administrator {result.username!r} already exists; sign in at {admin_url}")
    else:
        write("metnos: created the first administrator (shown once, change it after signing in)")
        write(f"metnos:   sign in at {admin_url}")
        write(f"metnos:   username: {result.username}")
        write(f"metnos:   password: {result.password}")
    return 0
