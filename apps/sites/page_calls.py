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

:func:`idle` lets Playwright deliver events for a while. ``Page.wait_for_timeout``
asks the driver for a timer and ends only when the driver answers; on a busy
machine a 10 ms wait took 30 ms and an event that arrived in its first
millisecond waited for the rest. ``idle`` sleeps on Playwright's own loop
instead, and ends as soon as the caller's ``wake`` event is set (its event
handlers set it), so a wait for a navigation or a new tab ends with the event.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import Any

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
