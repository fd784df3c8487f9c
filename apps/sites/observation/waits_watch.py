"""What a page is downloading and where it is going, seen from Playwright's events.

A :class:`PageWatch` records every request of a page with its start time, so
a wait can tell data still arriving (a list of bills) from a connection that
stays open on purpose (long polling, event streams): a request open longer
than ``DATA_REQUEST_PATIENCE`` no longer delays reading. Such a request
makes its address a known permanent connection for the page: a long poll
that asks again at the same address, when its answer came or when the page
came back, is read past from its start and is not taken for the answer to a
click. It also counts navigations and new documents per frame and keeps
pages the page opened.

Attach it as soon as a page exists (``watch_page(page)`` right after
``context.new_page()``): requests started before it are not seen.
Playwright delivers events whenever the synchronous API is in use, so the
watch is current after any call on the page.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass
from urllib.parse import urldefrag

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page, Request, Response

from apps.sites.observation.limits import ANSWER_BODY_GRACE, DATA_REQUEST_PATIENCE

# Requests whose answers can still change what the page shows. Images, fonts
# and media only repaint; event streams and sockets never finish by design.
DATA_REQUEST_TYPES = frozenset({"document", "script", "fetch", "xhr"})


@dataclass
class _OpenRequest:
    started: float
    data: bool
    frame: Frame | None
    navigation: bool
    address: tuple[str, str]  # method and URL without fragment
    answered_at: float | None = None  # when its response arrived
    background: bool = False  # read past as a background connection (see ``PageWatch.read_past``)
    redirected: bool = False  # a document request answered by a redirect: its next hop follows


def _answered(item: _OpenRequest, now: float) -> bool:
    """A data request answered a moment ago counts as answered, finished or not.

    A page that never reads an answer's body (a fetch fired and forgotten)
    leaves the request unfinished for ever; ``ANSWER_BODY_GRACE`` after its
    response it no longer holds a wait. Documents are awaited until they finish.
    """
    return (
        not item.navigation
        and item.answered_at is not None
        and now - item.answered_at >= ANSWER_BODY_GRACE.total_seconds()
    )


# A document's redirect is followed by its next hop's request, reported a moment later (a separate
# event). Until then the frame is still navigating; a hop never reported (refused before it left)
# stops counting after this long.
REDIRECT_HOP_GRACE_SECONDS = 1.0


def _address(request: Request) -> tuple[str, str]:
    return request.method, urldefrag(request.url)[0]


@dataclass(frozen=True)
class WatchMark:
    """The watch's counters at one moment, to ask later what happened since."""

    at: float
    data_started: int
    documents: int
    navigations: int
    popups: int
    url: str


class PageWatch:
    """Requests, navigations and popups of one page, from Playwright's events."""

    def __init__(self, page: Page) -> None:
        # No reference to the page itself: the registry below must not keep it alive.
        self._open: dict[Request, _OpenRequest] = {}
        self._started_data: list[tuple[Request, tuple[str, str]]] = []
        # Addresses whose requests stay open past the patience on purpose (long polling).
        self._permanent_addresses: set[tuple[str, str]] = set()
        self._documents: dict[Frame, int] = {}
        self._navigations: dict[Frame, int] = {}
        # Frames whose document request was redirected and whose next hop is not reported yet.
        self._redirecting: dict[Frame, float] = {}
        self.popups: list[Page] = []
        # When a data request last got its answer (monotonic), or None.
        self.last_data_answer: float | None = None
        # Set by every event below: a pause (apps.sites.observation.waits.pause) ends with the event.
        self.wake = asyncio.Event()
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("framenavigated", self._on_navigated)
        page.on("popup", self._on_popup)
        # A wait for the document to parse or load ends with its event too.
        page.on("domcontentloaded", self._on_loaded)
        page.on("load", self._on_loaded)

    def _on_request(self, request: Request) -> None:
        self.wake.set()
        try:
            frame: Frame | None = request.frame
        except PlaywrightError:  # service-worker requests have no frame
            frame = None
        navigation = request.is_navigation_request()
        data = request.resource_type in DATA_REQUEST_TYPES
        address = _address(request)
        self._open[request] = _OpenRequest(time.monotonic(), data, frame, navigation, address)
        if data:
            self._started_data.append((request, address))
        if navigation and frame is not None:
            self._redirecting.pop(frame, None)
            self._documents[frame] = self._documents.get(frame, 0) + 1
            self._learn_held(frame)

    def _learn_held(self, frame: Frame) -> None:
        """The frame leaves its document: data requests it held open past the patience were permanent
        connections (their cancellation is never reported), so coming back, the same long poll is read
        past from its start. While a request is open it is only read past: a slow answer still counts."""
        now, patience = time.monotonic(), DATA_REQUEST_PATIENCE.total_seconds()
        for item in self._open.values():
            if item.frame is frame and item.data and not item.navigation and now - item.started >= patience:
                self._permanent_addresses.add(item.address)

    def _on_response(self, response: Response) -> None:
        # A long poll answers only after holding the request: its address is a permanent connection.
        # (Its "finished" event may never come: a page that does not read the body leaves it open.)
        self.wake.set()
        item = self._open.get(response.request)
        if item is not None:
            item.answered_at = time.monotonic()
            item.redirected = item.navigation and 300 <= response.status < 400
            if item.data:
                self.last_data_answer = item.answered_at
        held = item is not None and time.monotonic() - item.started >= DATA_REQUEST_PATIENCE.total_seconds()
        if item is not None and held and item.data and not item.navigation:
            self._permanent_addresses.add(item.address)

    def _on_done(self, request: Request) -> None:
        self.wake.set()
        item = self._open.pop(request, None)
        if item is not None and item.redirected and item.frame is not None:
            self._redirecting[item.frame] = time.monotonic()

    def _on_loaded(self, page: Page) -> None:
        self.wake.set()

    def _on_popup(self, popup: Page) -> None:
        self.wake.set()
        self.popups.append(popup)

    def _on_navigated(self, frame: Frame) -> None:
        self.wake.set()
        self._navigations[frame] = self._navigations.get(frame, 0) + 1

    def mark(self, frame: Frame) -> WatchMark:
        return WatchMark(
            at=time.monotonic(),
            data_started=len(self._started_data),
            documents=self._documents.get(frame, 0),
            navigations=self._navigations.get(frame, 0),
            popups=len(self.popups),
            url=frame.url,
        )

    def navigated_since(self, mark: WatchMark, frame: Frame) -> bool:
        """A new document was requested for ``frame``, or its address changed, since ``mark``."""
        return self._documents.get(frame, 0) > mark.documents or frame.url != mark.url

    def new_document_since(self, mark: WatchMark, frame: Frame) -> bool:
        return self._documents.get(frame, 0) > mark.documents

    def data_requests_since(self, mark: WatchMark) -> tuple[Request, ...]:
        """Data requests started since ``mark``, those at a permanent connection's address left out."""
        started = self._started_data[mark.data_started :]
        return tuple(request for request, address in started if address not in self._permanent_addresses)

    def _permanent(self, item: _OpenRequest) -> bool:
        return item.data and (item.background or (not item.navigation and item.address in self._permanent_addresses))

    def read_past(self, older_than: float, now: float | None = None) -> None:
        """Take the data requests open longer than ``older_than`` for background connections.

        A wait that found the page's data in (its loading veil lifted) reads past them, and so do
        the waits after it while they stay open: a click's answer is not waited for behind them.
        """
        now = time.monotonic() if now is None else now
        for item in self._open.values():
            if item.data and not item.navigation and now - item.started >= older_than and not _answered(item, now):
                item.background = True

    def is_open(self, request: Request) -> bool:
        item = self._open.get(request)
        return item is not None and not _answered(item, time.monotonic())

    def pending_data(self, now: float | None = None) -> int:
        """Data requests still open that are young enough to be waited for (and not a known long poll)."""
        return self.young_pending_data(DATA_REQUEST_PATIENCE.total_seconds(), now)

    def young_pending_data(self, younger_than: float, now: float | None = None) -> int:
        """Data requests still open (not a known long poll) that started less than ``younger_than`` ago."""
        now = time.monotonic() if now is None else now
        return sum(
            1
            for item in self._open.values()
            if item.data and now - item.started < younger_than and not self._permanent(item)
            and not _answered(item, now)
        )  # fmt: skip

    def open_past_patience(self, now: float | None = None) -> int:
        """Requests read past: open longer than the bound, or at a permanent connection's address."""
        now = time.monotonic() if now is None else now
        patience = DATA_REQUEST_PATIENCE.total_seconds()
        return sum(
            1
            for item in self._open.values()
            if (now - item.started >= patience or self._permanent(item)) and not _answered(item, now)
        )

    def navigation_pending(self, frame: Frame) -> bool:
        """A document request for ``frame`` has not answered yet (or was redirected, its next hop to come)."""
        redirected_at = self._redirecting.get(frame)
        if redirected_at is not None and time.monotonic() - redirected_at < REDIRECT_HOP_GRACE_SECONDS:
            return True
        return any(item.navigation and item.frame is frame for item in self._open.values())

    def popups_since(self, mark: WatchMark) -> tuple[Page, ...]:
        return tuple(self.popups[mark.popups :])


_WATCHES: weakref.WeakKeyDictionary[Page, PageWatch] = weakref.WeakKeyDictionary()


def watch_page(page: Page) -> PageWatch:
    """The page's watch, attached on first use."""
    watch = _WATCHES.get(page)
    if watch is None:
        watch = _WATCHES[page] = PageWatch(page)
    return watch
