"""The blind fixture-website corpus (``tests/corpus/sites/``) for ``bench_sites.py``: no Django here.

Each site folder holds ``site.py`` (``make_app()``: a WSGI app with an
``events`` list), ``expected.json`` and ``script.py`` (the author's Playwright
baseline, ``run(page, base_url, username, password)``). This module loads
them, serves an app on loopback, scores what a collection wrote against
``expected.json`` and runs the baseline script in Chromium with every request
outside loopback aborted. It also stops a process tree started by the
benchmark (the engine's ``metnos ask`` and the browser it launched), by the
processes' own ids.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import json
import os
import re
import signal
import socketserver
import threading
import time
import traceback
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from _setup import REPO_ROOT

SITES_ROOT = REPO_ROOT / "tests" / "corpus" / "sites"
FINAL_CHECK_FILE = SITES_ROOT / "FINAL_CHECK.txt"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
# The baseline's Chromium resolves no name at all: without this it sends a DNS query to the machine's
# resolver by itself (seen while running a script on a site that names no host).
NO_NAME_RESOLUTION = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost"
# Columns whose cells explain a row (the merge note names the row's own identifier, and may name others):
# an identifier found only there is not the row's.
NOTE_HEADINGS = frozenset({"note", "notes", "nota", "note di unione"})


# --- The corpus ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusSite:
    """One fixture website of the corpus and its author's expectations."""

    id: str
    folder: Path
    expected: Mapping[str, Any]
    final: bool

    @property
    def group(self) -> str:
        return "final check" if self.final else "corpus"

    @property
    def account(self) -> Mapping[str, str]:
        account: Mapping[str, str] = self.expected["account"]
        return account

    @property
    def expected_ids(self) -> list[str]:
        return [str(record["id"]) for record in self.expected["expect"]["records"]]

    @property
    def excluded_ids(self) -> list[str]:
        return [str(identifier) for identifier in self.expected["expect"].get("excluded", [])]

    def request(self, base_url: str) -> str:
        return str(self.expected["request"]).replace("{url}", base_url)

    def make_app(self) -> Any:
        """A fresh app: ``site.py`` executed again, so no state is shared with an earlier instance."""
        return _load(self.folder, "site").make_app()

    def script(self) -> ModuleType:
        return _load(self.folder, "script")


def final_check_ids() -> set[str]:
    lines = FINAL_CHECK_FILE.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def corpus_sites(only: Iterable[str] | None = None, *, final_only: bool = False) -> list[CorpusSite]:
    """The corpus's sites in name order (``only``: those ids; ``final_only``: the final check's)."""
    final = final_check_ids()
    wanted = set(only) if only else None
    sites = []
    for folder in sorted(path.parent for path in SITES_ROOT.glob("*/site.py")):
        if wanted is not None and folder.name not in wanted:
            continue
        if final_only and folder.name not in final:
            continue
        expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        sites.append(CorpusSite(folder.name, folder, expected, folder.name in final))
    if wanted is not None and (unknown := wanted - {site.id for site in sites} - (final if final_only else set())):
        raise SystemExit(f"unknown site id(s): {', '.join(sorted(unknown))}")
    return sites


def _load(folder: Path, name: str) -> ModuleType:
    module_name = f"corpus_{folder.name.replace('-', '_')}_{name}"
    spec = importlib.util.spec_from_file_location(module_name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- Serving a site on loopback ----------------------------------------------------------------------


class _ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True

    def server_bind(self) -> None:
        # HTTPServer.server_bind names the server with socket.getfqdn (a reverse lookup); loopback needs none.
        socketserver.TCPServer.server_bind(self)
        self.server_name = "127.0.0.1"
        self.server_port = self.server_address[1]
        self.setup_environ()


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Served:
    """An app served on ``127.0.0.1``; ``events`` is the app's own list (what reached the server)."""

    app: Any
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def events(self) -> list[dict[str, Any]]:
        return list(self.app.events)


@contextmanager
def serve(app: Any) -> Iterator[Served]:
    """Serve ``app`` on a free loopback port in a thread; stop it on exit."""
    server = _ThreadingWSGIServer(("127.0.0.1", 0), _QuietHandler)
    server.set_app(app)
    thread = threading.Thread(target=server.serve_forever, name="corpus-site", daemon=True)
    thread.start()
    try:
        yield Served(app, server.server_port)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# --- Scoring ---------------------------------------------------------------------------------------


def _id_pattern(identifier: str) -> re.Pattern[str]:
    """``identifier`` as a whole token: not inside a longer code (``INV-77`` is not in ``INV-771``)."""
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(identifier)}(?![0-9A-Za-z])")


@dataclass
class RecordScore:
    expected: int
    found: list[str]
    missing: list[str]
    outside: list[str]  # ids from expect.excluded that are in the spreadsheet
    other_rows: int  # rows naming no id of the site's expectations (a list row left unmerged, a heading)
    rows: int
    duplicated: list[str] = field(default_factory=list)  # expected ids written in more than one row

    @property
    def complete(self) -> bool:
        """Every expected record, once, and nothing else: no excluded id, no row that is no record."""
        return not self.missing and not self.outside and not self.other_rows and not self.duplicated


def score_rows(site: CorpusSite, rows: Sequence[Sequence[str]]) -> RecordScore:
    """Match the expected and excluded ids to the rows (each row: its cells as text, notes left out)."""
    expected = {identifier: _id_pattern(identifier) for identifier in site.expected_ids}
    excluded = {identifier: _id_pattern(identifier) for identifier in site.excluded_ids}
    found: set[str] = set()
    outside: set[str] = set()
    seen: Counter[str] = Counter()
    other = 0
    for row in rows:
        text = "\n".join(row)
        here = {identifier for identifier, pattern in expected.items() if pattern.search(text)}
        away = {identifier for identifier, pattern in excluded.items() if pattern.search(text)}
        seen.update(here)
        found |= here
        outside |= away
        other += not here and not away
    return RecordScore(
        expected=len(expected),
        found=[identifier for identifier in expected if identifier in found],
        missing=[identifier for identifier in expected if identifier not in found],
        outside=[identifier for identifier in excluded if identifier in outside],
        other_rows=other,
        rows=len(rows),
        duplicated=sorted(identifier for identifier, count in seen.items() if count > 1),
    )


def spreadsheet_rows(path: Path) -> list[list[str]]:
    """The data rows of every sheet of an XLSX (or CSV) file, as text cells, note columns left out."""
    if path.suffix.casefold() == ".csv":
        import csv

        with path.open(encoding="utf-8-sig", newline="") as handle:
            tables = [list(csv.reader(handle))]
    else:
        from openpyxl import load_workbook

        book = load_workbook(path, read_only=True, data_only=True)
        tables = [[["" if v is None else str(v) for v in row] for row in sheet.iter_rows(values_only=True)]
                  for sheet in book.worksheets]  # fmt: skip
        book.close()
    rows: list[list[str]] = []
    for table in tables:
        if not table:
            continue
        header, *body = table
        keep = [index for index, name in enumerate(header) if str(name).strip().casefold() not in NOTE_HEADINGS]
        rows.extend([row[index] for index in keep if index < len(row)] for row in body)
    return rows


def consent_accepted(events: Iterable[Mapping[str, Any]]) -> int:
    """Consent choices that turned optional cookies on: "accept", or "custom" with purposes left on."""
    return sum(
        1
        for event in events
        if event.get("kind") == "consent"
        and (event.get("choice") == "accept" or (event.get("choice") == "custom" and event.get("optional_enabled")))
    )


def consent_rejected(events: Iterable[Mapping[str, Any]]) -> int:
    return sum(
        1
        for event in events
        if event.get("kind") == "consent"
        and (event.get("choice") == "reject" or (event.get("choice") == "custom" and not event.get("optional_enabled")))
    )


def decoy_credentials(events: Iterable[Mapping[str, Any]]) -> int:
    return sum(1 for event in events if event.get("kind") == "credential" and event.get("target") == "decoy")


def account_sign_ins(events: Iterable[Mapping[str, Any]]) -> int:
    """Accepted credentials posted to the account's own sign-in, as the site saw them."""
    return sum(
        1
        for event in events
        if event.get("kind") == "credential" and event.get("target") == "account" and event.get("ok")
    )


# --- The baseline script -------------------------------------------------------------------------


@dataclass
class Baseline:
    actions: int | None
    seconds: float | None
    records_right: bool  # the script returned exactly the expected ids
    error: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)


def _loopback_only(route: Any) -> None:
    host = urlsplit(route.request.url).hostname or ""
    if host in LOOPBACK_HOSTS:
        route.continue_()
    else:
        route.abort()


def run_baseline(site: CorpusSite, *, executable: str, args: Sequence[str] = (), timeout_ms: int = 15_000) -> Baseline:
    """The author's script on a fresh app instance, in a fresh headless browser; only ``script.run`` is timed.

    Playwright's sync API runs an event loop in this thread while it is open, so it is started here and
    stopped before returning: the caller's Django calls never run inside it.
    """
    from playwright.sync_api import sync_playwright

    script = site.script()
    with serve(site.make_app()) as served, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=[*args, NO_NAME_RESOLUTION]
        )
        context = browser.new_context(locale="it-IT" if site.expected.get("language") == "it" else "en-US")
        try:
            context.route("**/*", _loopback_only)
            page = context.new_page()
            page.set_default_timeout(timeout_ms)
            began = time.perf_counter()
            try:
                result = script.run(page, served.base_url, site.account["username"], site.account["password"])
            except Exception:  # noqa: BLE001 - a broken baseline is reported, not raised
                lines = traceback.format_exc().strip().splitlines()
                return Baseline(None, None, False, lines[-1][:200], served.events)
            seconds = time.perf_counter() - began
        finally:
            context.close()
            browser.close()
        got = {str(record.get("id")) for record in result.get("records", [])}
        actions = result.get("actions")
        right = got == set(site.expected_ids)
        return Baseline(int(actions) if isinstance(actions, int) else None, seconds, right, "", served.events)


# --- Stopping a process tree the benchmark started -------------------------------------------------


def _children_by_parent() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses; the last ")" ends it.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children...)."""
    children = _children_by_parent()
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_tree(process: Any, *, grace: float = 10.0) -> None:
    """Stop ``process`` (a ``Popen`` started in a session of its own) and every process below it, by id."""
    below = descendants(process.pid)
    for pid in [process.pid, *below]:
        if _alive(pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and (process.poll() is None or any(_alive(pid) for pid in below)):
        time.sleep(0.2)
    for pid in [process.pid, *below]:
        if _alive(pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    process.wait()


# --- Watching for traffic outside loopback ---------------------------------------------------------


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An address of ``/proc/net/*`` ("0100007F" is 127.0.0.1: 32-bit words in host order, little-endian)."""
    raw = bytes.fromhex(hex_address)
    packed = b"".join(raw[index : index + 4][::-1] for index in range(0, len(raw), 4))
    return ipaddress.ip_address(packed)


def _outside(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if address.is_unspecified or address.is_loopback:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return not (mapped is not None and (mapped.is_loopback or mapped.is_unspecified))


def _process_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


class NetworkWatch(threading.Thread):
    """Samples the sockets of this process and every process below it; keeps any remote end outside loopback.

    A sample every ``every`` seconds: a socket opened and closed between two samples is not seen, so this
    is evidence, not proof. The machine's other processes share the network namespace: only sockets held
    by this process tree (``/proc/<pid>/fd``) are looked at.
    """

    def __init__(self, every: float = 0.25) -> None:
        super().__init__(name="network-watch", daemon=True)
        self.every = every
        self.seen: set[str] = set()
        self.samples = 0
        self._stopping = threading.Event()

    def _inodes(self) -> dict[str, str]:
        """The socket inodes of this process tree, each with the name of a process holding it."""
        inodes: dict[str, str] = {}
        for pid in [os.getpid(), *descendants(os.getpid())]:
            try:
                names = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for name in names:
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{name}")
                except OSError:
                    continue
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = _process_name(pid)
        return inodes

    def sample(self) -> None:
        inodes = self._inodes()
        for table in ("tcp", "tcp6", "udp", "udp6"):
            try:
                lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                columns = line.split()
                if len(columns) < 10 or columns[9] not in inodes:
                    continue
                remote, _, port = columns[2].partition(":")
                address = _address(remote)
                if _outside(address):
                    self.seen.add(f"{table} {address} port {int(port, 16)} ({inodes[columns[9]]})")
        self.samples += 1

    def run(self) -> None:
        while not self._stopping.wait(self.every):
            self.sample()

    def stop(self) -> None:
        self._stopping.set()
        self.join(5)
        self.sample()
