"""`scripts/ensure-system-packages` waits for the package manager's lock.

The script is sourced in bash with its probes replaced by shell functions: what
is missing, whether the lock is held, who we are, and `apt-get` itself. Nothing
here runs apt or needs root. The last test reads a real POSIX lock through
`/proc/locks`, the way dpkg and apt hold theirs.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "ensure-system-packages"

# Fakes shared by the tests. `busy_checks` counts the lock checks in a file
# (each runs in a subshell); the lock is held for the first BUSY_FOR checks.
# `apt-get` records its calls in LOG.
FAKES = """
source "$SCRIPT"
lock_poll_seconds=0.05
id() { echo 0; }
apt-get() { echo "apt-get $*" >>"$LOG"; }
checks() { wc -l <"$COUNT" 2>/dev/null || echo 0; }
package_manager_busy() {
    echo check >>"$COUNT"
    echo "lock check" >>"$LOG"
    [ "$(checks)" -le "$BUSY_FOR" ]
}
"""


def run_script(
    tmp_path: Path, body: str, *, busy_for: int, timeout: int = 120
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    log = tmp_path / "log"
    log.touch()
    env = {
        "PATH": "/usr/bin:/bin",
        "SCRIPT": str(SCRIPT),
        "LOG": str(log),
        "COUNT": str(tmp_path / "count"),
        "BUSY_FOR": str(busy_for),
        "METNOS_PACKAGE_LOCK_TIMEOUT": str(timeout),
    }
    result = subprocess.run(
        ["bash", "-c", FAKES + body],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return result, log.read_text().splitlines()


def test_waits_for_the_lock_and_installs_nothing_the_other_process_installed(
    tmp_path: Path,
) -> None:
    # Chromium is missing while the other package manager runs, then present.
    body = """
    missing_packages() { [ "$(checks)" -gt "$BUSY_FOR" ] || echo chromium; }
    main
    """
    result, log = run_script(tmp_path, body, busy_for=3)

    assert result.returncode == 0, result.stderr
    assert "waiting for another package manager to finish" in result.stdout
    assert log == ["lock check"] * 4
    assert "installing" not in result.stdout


def test_installs_only_after_the_lock_is_free(tmp_path: Path) -> None:
    body = """
    missing_packages() { echo chromium; echo chromium-headless-shell; }
    main
    """
    result, log = run_script(tmp_path, body, busy_for=2)

    assert result.returncode == 0, result.stderr
    assert "waiting for another package manager to finish" in result.stdout
    assert log[:3] == ["lock check"] * 3
    assert log[3] == "apt-get update -qq"
    assert log[4].startswith("apt-get install")
    assert log[4].endswith("chromium chromium-headless-shell")
    assert len(log) == 5


def test_gives_up_after_the_bound_without_running_apt(tmp_path: Path) -> None:
    body = """
    missing_packages() { echo chromium; }
    main
    """
    result, log = run_script(tmp_path, body, busy_for=10_000, timeout=1)

    assert result.returncode != 0
    assert "still holds its lock after 1 s" in result.stderr
    assert len(log) > 1
    assert not any(line.startswith("apt-get") for line in log)


def test_nothing_missing_needs_no_lock(tmp_path: Path) -> None:
    body = """
    missing_packages() { :; }
    main
    """
    result, log = run_script(tmp_path, body, busy_for=10_000)

    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert log == []


def test_a_free_lock_is_not_announced(tmp_path: Path) -> None:
    body = """
    missing_packages() { echo chromium; }
    main
    """
    result, log = run_script(tmp_path, body, busy_for=0)

    assert result.returncode == 0, result.stderr
    assert "waiting" not in result.stdout
    assert log[0] == "lock check"
    assert log[1] == "apt-get update -qq"


def test_a_timeout_that_is_not_a_number_is_refused(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "METNOS_PACKAGE_LOCK_TIMEOUT": "two minutes"}
    result = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=30, check=False)

    assert result.returncode == 2
    assert "must be a number of seconds" in result.stderr


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not Path("/proc/locks").exists(),
    reason="reads /proc/locks",
)
def test_a_posix_lock_held_by_another_process_counts_as_busy(tmp_path: Path) -> None:
    lock = tmp_path / "lock-frontend"
    lock.touch()
    probe = f"""
    source "{SCRIPT}"
    package_locks=("{lock}" "{tmp_path / "absent"}")
    package_manager_busy && echo busy || echo free
    """

    def state() -> str:
        return subprocess.run(
            ["bash", "-c", probe], capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()

    assert state() == "free"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys\n"
            f"f = open({str(lock)!r}, 'w')\n"
            "fcntl.lockf(f, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        assert state() == "busy"
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    assert state() == "free"
    # The check itself takes no lock: this process can still take it.
    with lock.open("w") as handle:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
