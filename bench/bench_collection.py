"""Collecting records across pages: actions and wall time against a hand-written Playwright script.

Fixture-web sites with clear signals (``tests/sites/fixture_web.py``, real
HTTP on loopback):

* ``collect-archive``: a 50-page bill archive, ten rows a page, a "Next page"
  link on each (500 bills);
* ``collect-telco``: a customer area whose "My bills" page leads to "All
  bills", three numbered pages with "Next" (9 bills), a dead-end "Billing
  settings" section and a "Sign out" link;
* ``collect-energia``: an Italian energy customer area whose bills arrive by
  a request after the page opens, behind a veil, beside a long-polling
  connection; "Mostra altre bollette" loads more in place, and the archive
  has a year selector (tabs) changing its table in place (9 bills; 2024 has
  none, which a complete collection still has to look at);
* ``collect-signin``: Brightwater Energy, behind sign-in: "My bills", "All
  bills" in three numbered pages without amounts, a page per bill, an
  archive by year with amounts (9 bills). The complete collection reads the
  full list first, then the archive, and needs no bill's own page. Both sides sign in the same way
  before their timed part (sign-in has its own benchmark,
  ``bench_sign_in.py``);
* ``collect-accordion``: four invoices whose due date and amount are revealed
  in place by an identical "Dettagli" button per row (4 bills, 4 expansions).

For each site, in the same run and the same browser, the benchmark times:

* the **baseline**: the Playwright script a person would write knowing the
  site — open the page, read the rows, click the known links and buttons,
  with Playwright's defaults: ``goto`` and each link's navigation waited for
  until ``load``, and its own auto-waits (a locator waits for the element to
  appear and be actionable). No ``networkidle``: no site here needs it (the
  energia bills that arrive after ``load`` are waited for by their locator, as
  a script would, and its long poll would keep ``networkidle`` from ever
  coming). Its action count is the minimum for the complete collection;
* the **collection**: ``explore`` from :mod:`apps.sites.collection.explore`
  with the spec's bounds and no model configured — a counting route chooser
  and a counting record recogniser (Frontier recognition) prove that neither
  is ever asked — followed by ``deliver``.

Both must read the same identifiers. Targets (issue 7): zero model calls
(route choices and record recognitions), actions at most 1.2x the
baseline's, wall time at most 1.5x. It also reports pages per second and
memory (peak Python allocations during the 50-page collection, and the peak
resident size of this process) for the 50-page archive. Runs alternate
between baseline and collection so a busy shared machine weighs on both
alike; medians of ``RUNS`` runs are compared (one with ``--quick``).

Run: ``.venv/bin/python bench/bench_collection.py [--quick] [--site NAME ...]``
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from _setup import django_for_benchmark, verdict

RUNS = 3
ACTIONS_TARGET = 1.2
WALL_TARGET = 1.5
ARCHIVE_PAGES = 50


@dataclass
class Run:
    seconds: float
    actions: int
    identifiers: set[str]


@dataclass
class ModelCalls:
    """Every model decision a collection asked for: route choices and record recognitions (none expected)."""

    route_choices: int = 0
    recognitions: int = 0

    @property
    def total(self) -> int:
        return self.route_choices + self.recognitions


@dataclass
class CountingChooser:
    """Counts every route decision asked for; answers none (there is no model here)."""

    calls: ModelCalls = field(default_factory=ModelCalls)

    def choose(self, question: Any, *, deadline: float) -> Any:
        from apps.sites.acting.route_choice import RouteDecision

        self.calls.route_choices += 1
        return RouteDecision("no_decision", reason="no_model_configured")


@dataclass
class CountingRecogniser:
    """Counts every record recognition (the Frontier tier's) asked for; recognises nothing."""

    calls: ModelCalls = field(default_factory=ModelCalls)

    def recognise(self, question: Any, *, deadline: float) -> Any:
        from apps.sites.collection.recognition import RecognitionAnswer

        self.calls.recognitions += 1
        return RecognitionAnswer("no_decision", reason="no_model_configured")


# The first cell of each table row: the bill's number.
ROWS = "() => Array.from(document.querySelectorAll('tbody tr'), (row) => row.cells[0].innerText.trim())"
# Cards of label/value pairs: the first value (the number).
CARDS = "(selector) => Array.from(document.querySelectorAll(selector), (card) => card.querySelector('dd, p').innerText)"


def _follow(page: Any, link: Any) -> None:
    """Click a link and wait for the page it opens until ``load`` (Playwright's default)."""
    with page.expect_navigation():
        link.click()


def _rows_to_the_last_page(page: Any, identifiers: set[str], *, next_name: str) -> int:
    """Read this page's rows and every next page's (link ``next_name``); the links followed."""
    identifiers.update(page.evaluate(ROWS))
    followed = 0
    while page.get_by_role("link", name=next_name, exact=True).count():
        _follow(page, page.get_by_role("link", name=next_name, exact=True))
        followed += 1
        identifiers.update(page.evaluate(ROWS))
    return followed


def _script_archive(page: Any, url: str) -> Run:
    started = time.perf_counter()
    page.goto(url)
    identifiers: set[str] = set()
    actions = 1 + _rows_to_the_last_page(page, identifiers, next_name="Next page")
    return Run(time.perf_counter() - started, actions, identifiers)


def _script_telco(page: Any, url: str) -> Run:
    started = time.perf_counter()
    page.goto(url)
    identifiers: set[str] = set()
    for name in ("My bills", "All bills"):
        _follow(page, page.get_by_role("link", name=name, exact=True))
    actions = 3 + _rows_to_the_last_page(page, identifiers, next_name="Next")
    return Run(time.perf_counter() - started, actions, identifiers)


def _script_energia(page: Any, url: str) -> Run:
    started = time.perf_counter()
    page.goto(url)
    bills = page.locator(".bolletta")
    # The bills arrive after "load": their locator waits for them (the veil lifts as they are drawn).
    page.get_by_role("button", name="Mostra altre bollette").click()
    bills.nth(5).wait_for()
    identifiers = {number.removeprefix("Numero:").strip() for number in page.evaluate(CARDS, ".bolletta")}
    _follow(page, page.locator("main").get_by_role("link", name="archivio"))
    page.get_by_role("tab", name="2025").click()
    page.get_by_role("cell", name="B-2025-0010").wait_for()
    identifiers.update(page.evaluate(ROWS))
    # Every period is looked at for a complete collection: 2024 shows that it holds no bill.
    page.get_by_role("tab", name="2024").click()
    page.get_by_text("Nessuna bolletta").wait_for()
    return Run(time.perf_counter() - started, 5, identifiers)


def _script_signin(page: Any, url: str) -> Run:
    started = time.perf_counter()
    page.goto(url)
    # A complete collection reads the full list first (the spec): "All bills", three pages. They
    # show no amounts; the archive's two years show every bill with its amount, so no bill's own
    # page is needed. The script goes to the archive by its address, as the collection may.
    archive = page.get_by_role("link", name="Bill archive", exact=True).get_attribute("href")
    _follow(page, page.get_by_role("link", name="All bills", exact=True))
    identifiers: set[str] = set()
    followed = _rows_to_the_last_page(page, identifiers, next_name="Next")
    page.goto(urljoin(page.url, str(archive)))
    identifiers.update(page.evaluate(ROWS))
    _follow(page, page.get_by_role("link", name="2025", exact=True))
    identifiers.update(page.evaluate(ROWS))
    return Run(time.perf_counter() - started, 4 + followed, identifiers)


def _script_accordion(page: Any, url: str) -> Run:
    started = time.perf_counter()
    page.goto(url)
    buttons = page.get_by_role("button", name="Dettagli")
    for index in range(buttons.count()):
        buttons.nth(index).click()
        page.locator(".fattura").nth(index).get_by_text("Scadenza").wait_for()
    identifiers = set(page.evaluate(CARDS, ".fattura"))
    return Run(time.perf_counter() - started, 1 + buttons.count(), identifiers)


def _sign_in(page: Any, origin: str) -> None:
    """Sign in to ``collect-signin`` with its fixture credential (untimed, the same for both sides)."""
    import json

    from tests.sites.fixture_web import WEB_ROOT

    credential = json.loads((WEB_ROOT / "collect-signin" / "credentials.json").read_text(encoding="utf-8"))
    page.goto(origin + credential["login_page"])
    page.get_by_label("Email address").fill(credential["username"])
    page.get_by_label("Password").fill(credential["password"])
    _follow(page, page.get_by_role("button", name="Sign in"))


@dataclass(frozen=True)
class Site:
    """One measured site: where the collection starts, what it is asked for, and the baseline script."""

    name: str
    path: str
    what: str
    script: Callable[[Any, str], Run]
    signed_in: bool = False


SITES = (
    Site("collect-telco", "/", "all bills", _script_telco),
    Site("collect-energia", "/bollette.html", "tutte le bollette", _script_energia),
    Site("collect-signin", "/private/bills/", "all bills", _script_signin, signed_in=True),
    Site("collect-accordion", "/fatture.html", "tutte le fatture con numero, scadenza e importo", _script_accordion),
)


def _collection(page: Any, origin: str, url: str, what: str, calls: ModelCalls) -> Run:
    from apps.sites.browser.websites import AuthorizedWebsites
    from apps.sites.collection.budget import CollectionBudget, CollectionLedger
    from apps.sites.collection.delivery import deliver
    from apps.sites.collection.explore import CollectionRun, explore
    from apps.sites.collection.scope import collection_plan

    started = time.perf_counter()
    plan = collection_plan(what)
    ledger = CollectionLedger(CollectionBudget())
    run = CollectionRun(
        page=page,
        plan=plan,
        websites=AuthorizedWebsites.of([origin]),
        navigate=lambda address: page.goto(address),
        ledger=ledger,
        chooser=CountingChooser(calls),
        recogniser=CountingRecogniser(calls),
    )
    findings = explore(run, url)
    result = deliver(findings, plan, ledger=ledger, origin=origin)
    identifiers = {str(item["identifier_number"]) for item in result.items}
    return Run(time.perf_counter() - started, ledger.spent_actions, identifiers)


def _fresh_page(browser: Any, origin: str, *, signed_in: bool = False) -> Any:
    from apps.sites.observation.waits_watch import watch_page

    page = browser.new_context().new_page()
    watch_page(page)
    if signed_in:
        _sign_in(page, origin)
    return page


def _compare(browser: Any, site: Site, origin: str, url: str, runs: int) -> tuple[bool, list[Run]]:
    calls = ModelCalls()
    baseline: list[Run] = []
    collected: list[Run] = []
    for _ in range(runs):
        page = _fresh_page(browser, origin, signed_in=site.signed_in)
        baseline.append(site.script(page, url))
        page.context.close()
        page = _fresh_page(browser, origin, signed_in=site.signed_in)
        collected.append(_collection(page, origin, url, site.what, calls))
        page.context.close()
    same = all(run.identifiers == baseline[0].identifiers for run in baseline + collected)
    base_wall = statistics.median(run.seconds for run in baseline)
    wall = statistics.median(run.seconds for run in collected)
    actions_ratio = collected[0].actions / baseline[0].actions
    wall_ratio = wall / base_wall
    print(f"\n{site.name}: {len(baseline[0].identifiers)} records")
    print(f"  baseline script : {baseline[0].actions} actions, median {base_wall:.2f} s")
    print(f"  collection      : {collected[0].actions} actions, median {wall:.2f} s")
    print(f"  model calls     : {calls.total} ({calls.route_choices} route, {calls.recognitions} recognition)")
    print(f"  same records    : {same}")
    if not same:
        missing = baseline[0].identifiers - collected[0].identifiers
        extra = collected[0].identifiers - baseline[0].identifiers
        print(f"    collection missed {sorted(missing)}, added {sorted(extra)}")
    actions_verdict = verdict(actions_ratio <= ACTIONS_TARGET)
    print(f"  actions ratio   : {actions_ratio:.2f}x (target <= {ACTIONS_TARGET}x) {actions_verdict}")
    print(f"  wall ratio      : {wall_ratio:.2f}x (target <= {WALL_TARGET}x) {verdict(wall_ratio <= WALL_TARGET)}")
    passed = same and calls.total == 0 and actions_ratio <= ACTIONS_TARGET and wall_ratio <= WALL_TARGET
    return passed, collected


def _memory(browser: Any, origin: str, url: str) -> None:
    page = _fresh_page(browser, origin)
    tracemalloc.start()
    run = _collection(page, origin, url, "all bills", ModelCalls())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    page.context.close()
    resident = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{ARCHIVE_PAGES}-page archive: {ARCHIVE_PAGES / run.seconds:.2f} pages/s while traced")
    print(f"  peak Python allocations during the collection: {peak / 1024 / 1024:.1f} MiB")
    print(f"  peak resident size of this process: {resident:.0f} MiB")


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    from apps.sites.browser.executable import CHROMIUM_ARGS, find_browser_executable
    from tests.sites.fixture_web import FixtureWeb

    runs = 1 if "--quick" in argv else RUNS
    # ``--site NAME`` (repeatable): only those sites (collect-archive included by its name).
    only = {argv[index + 1] for index, arg in enumerate(argv[:-1]) if arg == "--site"}
    executable = find_browser_executable()
    if executable is None:
        print("Chromium is not installed")
        return 1
    web = FixtureWeb()
    verdicts = []
    try:
        archive = web.site("collect-archive")
        archive_url = archive.url(f"/?page=1&of={ARCHIVE_PAGES}")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(executable), args=list(CHROMIUM_ARGS))
            if not only or "collect-archive" in only:
                measured = Site("collect-archive", "", "all bills", _script_archive)
                passed, collected = _compare(browser, measured, archive.origin, archive_url, runs)
                print(f"  pages per second: {ARCHIVE_PAGES / statistics.median(run.seconds for run in collected):.2f}")
                verdicts.append(passed)
            for site in SITES:
                if only and site.name not in only:
                    continue
                fixture = web.site(site.name)
                verdicts.append(_compare(browser, site, fixture.origin, fixture.url(site.path), runs)[0])
            if not only:
                _memory(browser, archive.origin, archive_url)
            browser.close()
    finally:
        web.close()
    passed = all(verdicts)
    print(f"\noverall: {verdict(passed)}")
    return 0 if passed else 1


if __name__ == "__main__":
    with django_for_benchmark():
        sys.exit(main(sys.argv[1:]))
