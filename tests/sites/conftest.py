"""Fixtures for the managed-browser tests: the fixture web."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sites.fixture_web import FixtureWeb, serve_fixture_web


@pytest.fixture(scope="session")
def fixture_web() -> Iterator[FixtureWeb]:
    """Every website under ``tests/sites/web/``; ``fixture_web.site(name)`` starts one."""
    yield from serve_fixture_web()


@pytest.fixture(autouse=True)
def _browser_workers(request: pytest.FixtureRequest) -> None:
    """Browser steps run as browser jobs: in the services pass, a browser test needs the worker processes.

    (The embedded pass runs them in this process's browser lane, started by the first job.)
    Asked for here, not named, so it does not decide which tests the services pass keeps.
    """
    from tests.conftest import SERVICES_PASS

    if SERVICES_PASS and request.node.get_closest_marker("browser") is not None:
        request.getfixturevalue("background_worker")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the services pass, run only the browser tests whose behaviour depends on the services.

    Most browser tests (observation, acting, cookies, sign-in, collection)
    use the database only to store rows and behave the same in both passes:
    they run once, in the embedded pass. Tests marked ``services`` — the
    eight-browser cap across processes (PostgreSQL advisory locks), browser
    jobs on the Celery worker, the verification panel's channel through the
    cache (Redis) — and tests that use the real worker or portal server run
    in both.
    """
    from tests.conftest import SERVICES_PASS

    if not SERVICES_PASS:
        return
    here = str(__file__).rsplit("/", 1)[0]
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        in_sites = str(item.fspath).startswith(here)
        uses_services = item.get_closest_marker("services") is not None or bool(
            {"background_worker", "portal_server"} & set(getattr(item, "fixturenames", ()))
        )
        (dropped if in_sites and not uses_services else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
