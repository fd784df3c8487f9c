"""Write the ids of failed tests to a file, for ``scripts/run-tests`` to run them once more, alone.

The full check runs three pytest processes and their browsers on two cores;
a browser test that fails there is run again by itself, and its first failure
is printed as flaky. A collection error is written as ``!`` plus its id, so
the script never reruns a suite that could not even be collected. Set
``METNOS_FAILED_TESTS_FILE`` to turn this on; without it nothing is written.
"""

from __future__ import annotations

import os

import pytest

FAILED_TESTS_FILE = "METNOS_FAILED_TESTS_FILE"


def _record(line: str) -> None:
    path = os.environ.get(FAILED_TESTS_FILE)
    if path:
        with open(path, "a", encoding="utf-8") as failed:
            failed.write(line + "\n")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:
        _record(report.nodeid)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        _record("!" + report.nodeid)
