"""The README's run command works on a fresh checkout.

Clones the repository (its committed HEAD) into a temporary folder, runs
`make run` there with a clean environment, waits for /readyz, signs in to the
admin with the credentials it printed, and stops the server by its process
group.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import REPO_ROOT, SERVICES_PASS

pytestmark = [
    pytest.mark.smoke,
    pytest.mark.skipif(SERVICES_PASS, reason="the fresh-checkout smoke test runs once, in the embedded pass"),
]

STARTUP_TIMEOUT_SECONDS = 900
PASSTHROUGH_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "PYENV_ROOT", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "TMPDIR")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _collect(stream: object, lines: list[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.append(line.rstrip("\n"))


def test_make_run_serves_a_fresh_checkout_and_the_printed_admin_signs_in(tmp_path: Path) -> None:
    checkout = tmp_path / "metnos"
    subprocess.run(["git", "clone", "--quiet", str(REPO_ROOT), str(checkout)], check=True, timeout=120)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {name: os.environ[name] for name in PASSTHROUGH_ENV if name in os.environ}
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=checkout,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=_collect, args=(process.stdout, lines), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        ready = None
        while time.monotonic() < deadline and process.poll() is None:
            try:
                ready = requests.get(f"{base}/readyz", timeout=5)
                if ready.status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            time.sleep(1)
        output = "\n".join(lines)
        assert ready is not None and ready.status_code == 200, f"never ready; make run said:\n{output[-4000:]}"
        assert ready.json()["status"] == "ready"

        username = re.search(r"username: (\S+)", output)
        password = re.search(r"password: (\S+)", output)
        assert username and password, f"no credentials printed:\n{output[-2000:]}"
        admin = requests.Session()
        login_page = admin.get(f"{base}/admin/login/", timeout=10)
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page.text)
        assert csrf is not None
        signed_in = admin.post(
            f"{base}/admin/login/?next=/admin/",
            data={
                "csrfmiddlewaretoken": csrf.group(1),
                "username": username.group(1),
                "password": password.group(1),
            },
            headers={"Referer": f"{base}/admin/login/"},
            timeout=10,
        )
        assert signed_in.status_code == 200
        assert signed_in.url == f"{base}/admin/"
        assert "Site administration" in signed_in.text
        # Static files are served in the embedded mode without collectstatic.
        assert requests.get(f"{base}/static/css/metnos.css", timeout=10).status_code == 200
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
