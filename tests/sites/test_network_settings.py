"""The network guard's settings: parsed strictly, wrong values stop the start."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def _settings_with(**variables: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "metnos_site.settings", **variables}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    names = ("METNOS_SITES_OUTSIDE_REQUESTS", "METNOS_SITES_ALLOW_PRIVATE", "METNOS_SITES_QUEUE_LENGTH")
    code = f"from django.conf import settings as s; print(*(getattr(s, name) for name in {names!r}))"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_the_defaults_open_nothing_and_allow_public_sub_resources() -> None:
    names = ("METNOS_SITES_OUTSIDE_REQUESTS", "METNOS_SITES_ALLOW_PRIVATE", "METNOS_SITES_QUEUE_LENGTH")
    answer = _settings_with(**dict.fromkeys(names, ""))
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.split() == ["any", "[]", "64"]


@pytest.mark.parametrize(
    ("name", "value", "complaint"),
    [
        ("METNOS_SITES_OUTSIDE_REQUESTS", "some", "METNOS_SITES_OUTSIDE_REQUESTS must be any, opened or none"),
        ("METNOS_SITES_ALLOW_PRIVATE", "127.0.0.0/8,intranet", "METNOS_SITES_ALLOW_PRIVATE must list IP networks"),
        ("METNOS_SITES_QUEUE_LENGTH", "-1", "METNOS_SITES_QUEUE_LENGTH must be at least 0"),
    ],
)
def test_a_wrong_value_stops_the_start_naming_the_variable(name: str, value: str, complaint: str) -> None:
    answer = _settings_with(**{name: value})
    assert answer.returncode != 0
    assert complaint in answer.stderr
