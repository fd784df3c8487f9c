"""The admin lives at a configurable path."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import REPO_ROOT

PROBE = """
import django, json
django.setup()
from django.urls import Resolver404, resolve, reverse
try:
    old_path = resolve("/admin/").url_name
except Resolver404:
    old_path = None
print(json.dumps({"index": reverse("admin:index"), "old_path": old_path}))
"""


def test_admin_path_follows_the_setting() -> None:
    env = {
        **{name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ},
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "METNOS_ADMIN_PATH": "/ops-console/",
    }
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"index": "/ops-console/", "old_path": None}
