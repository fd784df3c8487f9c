"""Running a read-only script in a frame within a deadline, without Playwright's per-document cost;
letting Playwright deliver events until one of interest arrives.

``Frame.evaluate`` has no timeout, and a page whose main thread is busy never
answers it. ``Frame.wait_for_function`` has one, but its first call in every
document builds Playwright's injected script there: about 20 ms on each new
page, paid by every observation of every page a sign-in or a collection
opens. These helpers evaluate directly and bound the call on Playwright's own
event loop instead: at the deadline the call is abandoned (Playwright drops
its late answer) and :class:`playwright.sync_api.TimeoutError` is raised, as
``wait_for_function`` would.

They rely on two internals of Playwright's sync API (each wrapper's
``_impl_obj`` and ``_sync``, stable since its first release); if either is
missing they fall back to ``wait_for_function``, which answers the same for a
script that returns a truthy value at once — as every page script here does.

:class:`Started` starts a script now and takes its answer later, so a page's own wait (two
frames drawn) runs while the caller observes it.

:func:`idle` lets Playwright deliver events for a while. ``Page.wait_for_timeout``
asks the driver for a timer and ends only when the driver answers; on a busy
machine a 10 ms wait took 30 ms and an event that arrived in its first
millisecond waited for the rest. ``idle`` sleeps on Playwright's own loop
instead, and ends as soon as the caller's ``wake`` event is set (its event
handlers set it), so a wait for a navigation or a new tab ends with the event.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, JSHandle, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

_mapping: Any
try:  # the sync API's own converter between its wrappers and Playwright's objects
    from playwright._impl._sync_base import mapping as _mapping
except ImportError:  # pragma: no cover - a Playwright without it takes the public path
    _mapping = None


def _bounded(frame: Frame, method: str, script: str, arg: object, timeout_ms: float) -> tuple[bool, Any]:
    """(True, the sync API's answer) from ``method`` bounded by ``timeout_ms``; (False, None) without the internals."""
    implementation = getattr(frame, "_impl_obj", None)
    run = getattr(frame, "_sync", None)
    call = getattr(implementation, method, None)
    if _mapping is None or run is None or call is None:
        return False, None
    pending = call(expression=script, arg=_mapping.to_impl(arg))
    try:
        answer = run(asyncio.wait_for(pending, timeout_ms / 1000))
    except TimeoutError:
        raise PlaywrightTimeoutError(f"the page did not answer within {timeout_ms:.0f} ms") from None
    return True, _mapping.from_maybe_impl(answer)


def evaluate_within(frame: Frame, script: str, arg: object, *, timeout_ms: float) -> Any:
    """``frame.evaluate(script, arg)``, or :class:`PlaywrightTimeoutError` after ``timeout_ms``."""
    bounded, answer = _bounded(frame, "evaluate", script, arg, timeout_ms)
    if bounded:
        return answer
    handle = frame.wait_for_function(script, arg=arg, timeout=timeout_ms, polling=50)
    try:
        return handle.json_value()
    finally:
        handle.dispose()


def evaluate_handle_within(frame: Frame, script: str, arg: object, *, timeout_ms: float) -> JSHandle:
    """``frame.evaluate_handle(script, arg)``, or :class:`PlaywrightTimeoutError` after ``timeout_ms``."""
    bounded, answer = _bounded(frame, "evaluate_handle", script, arg, timeout_ms)
    if bounded:
        handle: JSHandle = answer
        return handle
    return frame.wait_for_function(script, arg=arg, timeout=timeout_ms, polling=50)


def press_within(page: Page, x: float, y: float, *, timeout_ms: float) -> None:
    """``page.mouse.click(x, y)``, or :class:`PlaywrightTimeoutError` after ``timeout_ms`` (a page
    whose main thread is busy acknowledges the press only when it is free; the press was sent)."""
    mouse = getattr(getattr(page, "_impl_obj", None), "mouse", None)
    run = getattr(page, "_sync", None)
    if mouse is None or run is None:
        page.mouse.click(x, y)
        return
    try:
        run(asyncio.wait_for(mouse.click(x, y), timeout_ms / 1000))
    except TimeoutError:
        raise PlaywrightTimeoutError(f"the page did not take the press within {timeout_ms:.0f} ms") from None


class Started:
    """A read-only script started in a frame now, its answer taken later (or never).

    Playwright's loop sends it at the caller's next call and runs both meanwhile; the page runs
    scripts in the order they were sent. ``timeout_ms`` counts from the start. Without the sync
    API's internals the script runs when its answer is asked for.
    """

    def __init__(self, frame: Frame, script: str, arg: object, *, timeout_ms: float) -> None:
        self._frame, self._script, self._arg, self._timeout_ms = frame, script, arg, timeout_ms
        self._task: asyncio.Task[Any] | None = None
        implementation = getattr(frame, "_impl_obj", None)
        loop = getattr(frame, "_loop", None)
        call = getattr(implementation, "evaluate", None)
        if _mapping is None or loop is None or call is None or getattr(frame, "_sync", None) is None:
            return
        converted, ends_at = _mapping.to_impl(arg), time.monotonic() + timeout_ms / 1000

        async def run() -> Any:  # the call is made once the loop runs it (never, if dropped first)
            return await asyncio.wait_for(call(expression=script, arg=converted), ends_at - time.monotonic())

        self._task = loop.create_task(run())
        self._task.add_done_callback(_leave_unasked)

    def answer(self) -> Any:
        """The script's answer, waited for if need be; :class:`PlaywrightTimeoutError` past its timeout."""
        if self._task is None:
            return evaluate_within(self._frame, self._script, self._arg, timeout_ms=self._timeout_ms)
        task = self._task

        async def answered() -> Any:
            return await task

        try:
            return _mapping.from_maybe_impl(self._frame._sync(answered()))
        except TimeoutError:
            raise PlaywrightTimeoutError(f"the page did not answer within {self._timeout_ms:.0f} ms") from None
        except asyncio.CancelledError:
            raise PlaywrightError("the call was dropped before its answer was asked for") from None

    def drop(self) -> None:
        """Its answer is not wanted: the call is abandoned (Playwright drops a late answer)."""
        if self._task is not None:
            self._task.cancel()


def _leave_unasked(task: asyncio.Task[Any]) -> None:
    """A started call whose answer nobody asked for: its error is read here, so asyncio logs nothing."""
    if not task.cancelled():
        task.exception()


def idle(page: Page, seconds: float, wake: asyncio.Event | None = None) -> None:
    """Let Playwright deliver events for ``seconds``, ending sooner once ``wake`` is set.

    ``wake`` belongs to Playwright's loop (set only by event handlers, which run there). Without
    the sync API's internals this is ``page.wait_for_timeout``.
    """
    run = getattr(page, "_sync", None)
    if run is None:
        page.wait_for_timeout(seconds * 1000)
        return

    async def sleep() -> None:
        if wake is None:
            await asyncio.sleep(seconds)
            return
        wake.clear()
        with suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), seconds)

    run(sleep())
