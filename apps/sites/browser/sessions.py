"""Managed-browser sessions: the sync API the website executors use.

::

    with browser_session(owner=user, websites=AuthorizedWebsites.of([origin]), deadline=deadline) as session:
        session.goto(origin + "/invoices")
        page = session.page

A session first takes one of the eight browser slots (:mod:`apps.sites.browser.slots`),
waiting in the bounded queue if needed. It then launches its own Chromium,
whose every connection goes through the session's guard proxy, starts from
the owner's saved cookies and storage, and checks every request
(:mod:`apps.sites.browser.request_checks`). When the block ends, the session merges
its browser data back, closes the browser and frees the slot — also when
the browser crashed, the owner asked to close their web sessions, the
deadline passed, or the code inside raised.

Everything that can go wrong is typed: :class:`BrowserUnavailable`,
:class:`~apps.sites.browser.slots.SessionRefused` (queue full, waited too long,
withdrawn), :class:`NavigationRefused`, :class:`NavigationFailed` and
:class:`SessionEnded` (with the session's ``outcome``).

Sync Playwright keeps an event loop running in the calling thread while the
session is open, and Django refuses ORM calls from such a thread: do
database work before or after the block, or through :func:`outside_browser_loop`.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Literal, TypeVar, cast

from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Request, Response, Route, sync_playwright

from apps.accounts.models import User
from apps.sites.browser.data import StorageState, storage_state_load, storage_state_save
from apps.sites.browser.executable import CHROMIUM_ARGS, find_browser_executable
from apps.sites.browser.guard_proxy import Dialer, GuardProxy, direct_dial
from apps.sites.browser.network import ADDRESS_REFUSALS, NetworkGuard
from apps.sites.browser.processes import browser_wait_gone, session_marker
from apps.sites.browser.request_checks import HARMLESS_NAVIGATIONS, RequestChecker, RequestKind, RequestRefusal
from apps.sites.browser.session_watch import SessionWatch
from apps.sites.browser.slots import SessionRefused, lease_release, lease_request, lease_try_claim
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.limits import BROWSER_QUEUE_MAX_WAIT

logger = logging.getLogger(__name__)

SessionOutcome = Literal["completed", "closed_by_user", "browser_crashed", "deadline_exceeded", "lease_lost", "failed"]
QUEUE_POLL_SECONDS = 0.2
DEFAULT_NAVIGATION_TIMEOUT_SECONDS = 30.0
# Where Chromium shows a navigation that failed (a refused one included): no website.
CHROMIUM_ERROR_PAGE = "chrome-error://"

# Flags for the managed browser on top of the common ones: WebRTC must not
# send UDP around the proxy, and nothing is prefetched or pinged.
SESSION_CHROMIUM_ARGS = (
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--dns-prefetch-disable",
    "--no-pings",
    "--disable-domain-reliability",
)

T = TypeVar("T")


class BrowserSessionError(Exception):
    """Base of the typed errors of a browser session."""


class BrowserUnavailable(BrowserSessionError):
    """No Chromium is installed, or it could not be started."""


class NavigationRefused(BrowserSessionError):
    """The session refused a navigation; ``reason`` is from a closed set."""

    def __init__(self, reason: RequestRefusal) -> None:
        super().__init__(reason)
        self.reason: RequestRefusal = reason


class NavigationFailed(BrowserSessionError):
    """The website did not answer in time, or the connection failed."""


class SessionEnded(BrowserSessionError):
    """The session is over (``outcome``) and its browser can do nothing more."""

    def __init__(self, outcome: SessionOutcome) -> None:
        super().__init__(outcome)
        self.outcome: SessionOutcome = outcome


def outside_browser_loop(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` (database work) in a plain thread and wait for its result."""
    from django.db import connection

    def call() -> T:
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


class BrowserSession:
    """An open session: one Chromium, one context, the pages it opened."""

    def __init__(self, *, owner_id: int, token: str, checker: RequestChecker, deadline: dt.datetime | None) -> None:
        self.owner_id = owner_id
        self.token = token
        self.checker = checker
        self.deadline = deadline
        self.outcome: SessionOutcome | None = None
        self.crashed = False
        self.left_websites = False
        self._page: Page | None = None
        self._pages: list[Page] = []

    @property
    def websites(self) -> AuthorizedWebsites:
        return self.checker.websites

    @property
    def page(self) -> Page:
        self.ensure_running()
        if self._page is None:
            raise SessionEnded("failed")
        return self._page

    def pages(self) -> list[Page]:
        """Every page of the session still open, popups and new tabs included, oldest first."""
        return [page for page in self._pages if not page.is_closed()]

    def refusals(self) -> dict[str, int]:
        return self.checker.refusals()

    def ending_reason(self) -> SessionOutcome | None:
        return self.outcome

    def ensure_running(self) -> None:
        reason = self.ending_reason()
        if reason is None and self.deadline is not None and timezone.now() >= self.deadline:
            self.end("deadline_exceeded")
            reason = "deadline_exceeded"
        if reason is not None:
            raise SessionEnded(reason)

    def end(self, outcome: SessionOutcome) -> None:
        """Stop letting requests through; the first reason given is the outcome."""
        if self.outcome is None:
            self.outcome = outcome
        self.checker.ended.set()

    def goto(self, url: str, *, timeout_seconds: float | None = None, wait_until: str = "load") -> Response | None:
        """Open ``url`` in the main page after the same checks every navigation passes."""
        self.ensure_running()
        refusal = self.checker.check(url, "navigation")
        if refusal is not None:
            raise NavigationRefused(refusal.reason)
        before = self.refusals()
        try:
            response = self.page.goto(url, timeout=self._timeout_ms(timeout_seconds), wait_until=wait_until)  # type: ignore[arg-type]
        except PlaywrightError:
            self.ensure_running()
            reason = self._new_refusal(before)
            if reason is not None:
                raise NavigationRefused(reason) from None
            raise NavigationFailed("the website did not answer") from None
        self.ensure_on_websites()
        return response

    def ensure_on_websites(self) -> None:
        """Refuse, and leave, any page of the session that strayed off the authorized websites.

        ``goto`` calls it; call it after a click or anything else that may have
        navigated, popups and new tabs included.
        """
        self.ensure_running()
        strayed = [page for page in self.pages() if not self._shows_authorized(page.url)]
        if not strayed and not self.left_websites:
            return
        self.left_websites = False
        for page in strayed:
            with suppress(PlaywrightError):
                page.goto("about:blank")
        raise NavigationRefused("not_authorized")

    def _shows_authorized(self, url: str) -> bool:
        return url in HARMLESS_NAVIGATIONS or url.startswith(CHROMIUM_ERROR_PAGE) or self.websites.allows(url)

    def _timeout_ms(self, seconds: float | None) -> float:
        limit = seconds if seconds is not None else DEFAULT_NAVIGATION_TIMEOUT_SECONDS
        if self.deadline is not None:
            limit = min(limit, max((self.deadline - timezone.now()).total_seconds(), 0.001))
        return limit * 1000

    def _new_refusal(self, before: dict[str, int]) -> RequestRefusal | None:
        """The reason a navigation just failed: an address refusal says most, then any other."""
        reasons = [
            counter.split(".")[1]
            for counter, number in self.refusals().items()
            if number > before.get(counter, 0) and not counter.startswith("subresource.")
        ]
        ranked = sorted(reasons, key=lambda reason: (reason not in ADDRESS_REFUSALS, reason != "not_authorized"))
        if not ranked:
            return None
        # A connection refused as never approved was a redirect off the authorized websites.
        return cast(RequestRefusal, "not_authorized" if ranked[0] == "not_approved" else ranked[0])

    # --- Playwright callbacks (they run on this thread, inside Playwright calls) ---

    def on_route(self, route: Route) -> None:
        request = route.request
        refusal = self.checker.check(request.url, _kind(request))
        try:
            if refusal is None:
                route.continue_()
            else:
                route.abort("blockedbyclient")
        except PlaywrightError:
            pass  # the page went away meanwhile

    def on_request(self, request: Request) -> None:
        # Chromium follows redirects without asking the route again; the proxy
        # refuses hosts never approved (the authorized websites are approved
        # when the session opens), and here a hop to a host approved for
        # something else is caught before the page is used.
        if request.redirected_from is None or _kind(request) != "navigation":
            return
        if request.url not in HARMLESS_NAVIGATIONS and not self.websites.allows(request.url):
            self.checker.check(request.url, "redirect")
            self.left_websites = True

    def on_page(self, page: Page) -> None:
        self._pages.append(page)
        page.on("crash", lambda _page: self._on_crash())

    def _on_crash(self) -> None:
        # A browser ended on purpose (closing, a lost slot) dies too: not a crash.
        if self.outcome is None:
            self.crashed = True
            self.end("browser_crashed")

    def on_disconnected(self) -> None:
        self._on_crash()


def _kind(request: Request) -> RequestKind:
    if not request.is_navigation_request():
        return "subresource"
    try:
        in_frame = request.frame.parent_frame is not None
    except PlaywrightError:
        in_frame = False  # a popup's first navigation comes before its frame is known
    return "subresource" if in_frame else "navigation"


def _wait_for_slot(owner: User, deadline: dt.datetime | None, on_queue: Callable[[int], None] | None) -> uuid.UUID:
    lease = lease_request(owner=owner)
    token = lease.token
    give_up = timezone.now() + BROWSER_QUEUE_MAX_WAIT
    if deadline is not None:
        give_up = min(give_up, deadline)
    try:
        while True:
            place = lease_try_claim(token=token)
            if place.slot is not None:
                return token
            if on_queue is not None:
                on_queue(place.position)
            if timezone.now() >= give_up:
                raise SessionRefused("queue_timeout")
            time.sleep(QUEUE_POLL_SECONDS)
    except BaseException:
        lease_release(token=token)
        raise


@contextmanager
def browser_session(
    *,
    owner: User,
    websites: AuthorizedWebsites,
    deadline: dt.datetime | None = None,
    on_queue: Callable[[int], None] | None = None,
    guard: NetworkGuard | None = None,
    dial: Dialer = direct_dial,
) -> Iterator[BrowserSession]:
    """Open a managed-browser session for ``owner`` limited to ``websites``.

    ``on_queue(position)`` is called while the request waits for a slot.
    ``guard`` and ``dial`` default to the configured network guard and a
    direct connection; tests inject a resolver and dialer through them.
    """
    executable = find_browser_executable()
    if executable is None:
        raise BrowserUnavailable("Chromium is not installed")
    token = _wait_for_slot(owner, deadline, on_queue)
    proxy = GuardProxy(guard or NetworkGuard.from_settings(), dial=dial).start()
    session = BrowserSession(
        owner_id=owner.pk,
        token=str(token),
        checker=RequestChecker(websites=websites, guard=guard or NetworkGuard.from_settings(), proxy=proxy),
        deadline=deadline,
    )
    session.checker.approve_websites()
    watch = SessionWatch(session, token=str(token)).start()
    try:
        base_state = storage_state_load(owner_id=owner.pk)
        yield from _run_browser(session, str(executable), proxy, base_state)
    finally:
        watch.stop()
        proxy.stop()
        browser_wait_gone(str(token))
        lease_release(token=token)
        logger.info(
            "browser session ended",
            extra={"outcome": session.outcome, "refusals": session.refusals()},
        )


def _run_browser(
    session: BrowserSession, executable: str, proxy: GuardProxy, base: StorageState
) -> Iterator[BrowserSession]:
    playwright = sync_playwright().start()
    try:
        try:
            browser = playwright.chromium.launch(
                executable_path=executable,
                args=[*CHROMIUM_ARGS, *SESSION_CHROMIUM_ARGS, session_marker(session.token)],
                proxy={"server": proxy.url},
            )
        except PlaywrightError:
            raise BrowserUnavailable("Chromium could not be started") from None
        browser.on("disconnected", lambda _browser: session.on_disconnected())
        context = browser.new_context(storage_state=base, service_workers="block", accept_downloads=True)  # type: ignore[arg-type]
        context.route("**/*", session.on_route)
        context.on("request", session.on_request)
        context.on("page", session.on_page)
        session._page = context.new_page()
        try:
            yield session
        except PlaywrightError:
            # The browser went away under the caller: a typed end, never a crash.
            if session.ending_reason() is None:
                session.end("failed")
            raise SessionEnded(session.ending_reason() or "failed") from None
        finally:
            _finish(session, browser, context, base)
    finally:
        playwright.stop()


def _finish(session: BrowserSession, browser: Any, context: Any, base: StorageState) -> None:
    """Save the owner's browser data and close; an earlier ending keeps its own outcome."""
    ended_before = session.outcome is not None
    if not ended_before:
        session.outcome = "completed"
    session.checker.ended.set()
    # A lost slot's browser is being ended by force: nothing left to save.
    if session.outcome == "lease_lost" or session.crashed or not browser.is_connected():
        if not ended_before:
            session.outcome = "browser_crashed"
        return
    try:
        final = context.storage_state(indexed_db=True)
        context.close()
        browser.close()
    except PlaywrightError:
        if not ended_before:
            session.outcome = "browser_crashed"
        return
    storage_state_save(owner_id=session.owner_id, base=base, final=final)
