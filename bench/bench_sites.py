"""The blind fixture-website corpus (``tests/corpus/sites/``) through the real engine, no model: a scoreboard.

Run: ``cd /work/main && .venv/bin/python bench/bench_sites.py [--sites ID ...] [--final] [--show-misses [--show-audit]]
[--no-baseline] [--timeout SECONDS]``

The sites were written by authors who never saw the engine (their contract:
``tests/corpus/sites/BRIEF.md``). Each imitates a sector's customer area
(cookie banner, sign-in entry among decoys, documents behind sign-in) and
says what a request should collect (``expected.json``). The sites named in
``FINAL_CHECK.txt`` are the final check: scored and totalled apart, and
their misses are never printed in detail (``--show-misses`` lists only the
corpus's). ``--final`` runs only the final check.

For each site, with a temporary data folder and SQLite (``_setup.py``):

* its ``make_app()`` is served on ``127.0.0.1`` (a free port, a threading
  WSGI server in this process, so its ``events`` are read here);
* a user of its own gets the site's account (``expected.json`` "account")
  as a vault credential for the site's origin;
* ``manage.py metnos ask --user U "<request>"`` runs the turn as the
  operator's command does (the turn conducted in that process, its browser
  jobs in its embedded browser lane, Debian's Chromium through Playwright,
  the guard proxy; ``tests.settings``: loopback opened by
  ``METNOS_SITES_ALLOW_PRIVATE``, sub-resources only to opened networks).
  No model tier is configured (``METNOS_MODEL_*`` is removed). The
  command is a child process, so a turn still running after ``--timeout``
  (240 s) is stopped, with every process it started, by their ids; so is a
  turn that asks the person something (a choice among ways in, a code), at
  once: nobody answers here, and the turn is reported ``awaiting_input``;
* the turn is scored from what it recorded and what the site saw:

  - **signed in**: the ``sign_in`` step's audit says ``signed_in``, or
    (without such a step) the collection brought back at least one expected
    record, all of which are behind sign-in;
  - **records**: the spreadsheet(s) the turn's steps wrote (their ``files``),
    every row's cells (a merge-note column left out), an expected or excluded
    id matching when it appears in a cell as a whole token; **complete** =
    every expected record and no excluded one;
  - **consent accepted**: the site's ``consent`` events choosing "accept",
    or "custom" with optional purposes left on; **decoy**: ``credential``
    events whose target is a decoy (both targets: 0);
  - **actions**: the sign-in audit's ``search_actions`` plus the collection
    audit's actions (every kind); n/a when the turn recorded neither. The
    sign-in's typing and submission are not among the actions its audit
    counts, while the scripts count every fill and click;
  - **time**: the turn's, from its creation to its end (planning, browser
    starts, sign-in, collection, spreadsheet); the timeout when it was stopped.

* the baseline: the site's ``script.py`` on a fresh app instance, in a
  fresh headless ``/usr/bin/chromium`` (the engine's launch flags, no name
  resolution at all, every request to a host other than loopback aborted);
  its own action count, and the wall time of ``script.run`` alone (the
  browser is already open).

No traffic may leave loopback: a thread samples the sockets held by this
process and every process below it (the engine's command, its Chromium, the
baseline's) four times a second, and any remote end outside loopback is
printed at the end and fails the run. A sample is evidence, not proof: a
socket opened and closed between two samples is not seen.

Targets (the issue): signed in on >= 90% of the sites, complete collections
on >= 90%, consent accepted 0, credentials to a decoy 0 — in each group
(and no socket outside loopback seen).
Ratios engine/script (medians) are printed for information, over the
complete collections and over every site with both numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from _setup import REPO_ROOT, django_for_benchmark, verdict
from sites_harness import (
    Baseline,
    CorpusSite,
    NetworkWatch,
    RecordScore,
    account_sign_ins,
    consent_accepted,
    consent_rejected,
    corpus_sites,
    decoy_credentials,
    run_baseline,
    score_rows,
    serve,
    spreadsheet_rows,
    stop_tree,
)

TIMEOUT_SECONDS = 240.0
TARGET_SIGNED_IN = 0.90
TARGET_COMPLETE = 0.90
BASELINE_BROWSER = "/usr/bin/chromium"
COLLECT_TOOLS = frozenset({"collect_site_records", "collect_site_documents"})


@dataclass
class EngineRun:
    status: str  # the turn's status, or "timeout" / "no_turn"
    exit_code: int | None
    seconds: float
    answer: str = ""
    steps: list[tuple[str, str, str]] = field(default_factory=list)  # (tool, outcome, error code)
    signed_in: bool = False
    sign_in_outcome: str = ""
    actions: int | None = None
    spreadsheets: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    stop: str = ""  # the collection audit's stop reason
    collect_audit: dict[str, Any] = field(default_factory=dict)
    stderr_tail: str = ""


@dataclass
class SiteResult:
    site: CorpusSite
    engine: EngineRun
    score: RecordScore
    signed_in: bool
    consent_accepted: int
    consent_rejected: int
    decoy: int
    account_sign_ins: int
    events: list[dict[str, Any]]
    baseline: Baseline | None


QUESTION_POLL_SECONDS = 2.0


def _engine_environment() -> dict[str, str]:
    """This process's benchmark environment for the ``metnos ask`` child, with no model tier."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("METNOS_MODEL_")}
    env.setdefault("METNOS_SITES_ALLOW_PRIVATE", "127.0.0.0/8,::1/128")
    env["METNOS_SITES_OUTSIDE_REQUESTS"] = "opened"
    return env


def _ask(username: str, request: str, timeout: float) -> tuple[int | None, str, str, float]:
    """Run ``metnos ask`` as a child process: (exit code or None if stopped, stdout, stderr tail, seconds)."""
    command = [sys.executable, str(REPO_ROOT / "manage.py"), "metnos", "ask", "--user", username, request]
    began = time.monotonic()
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and command
        command,
        cwd=REPO_ROOT,
        env=_engine_environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = began + timeout
    while True:
        try:
            out, err = process.communicate(timeout=QUESTION_POLL_SECONDS)
            code: int | None = process.returncode
            break
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline or _asks_the_person(username):
                # A question to the person (a choice, a code) is an answer of its own: nobody answers here.
                stop_tree(process)
                out, err = process.communicate()
                return None, out, err[-2000:], min(timeout, time.monotonic() - began)
    return code, out, err[-2000:], time.monotonic() - began


def _asks_the_person(username: str) -> bool:
    """Whether the user's turn is waiting for the person's answer (a question the engine asked)."""
    from apps.runtime.models import InputRequest

    return InputRequest.objects.filter(owner__username=username, status="pending").exists()


def _engine(site: CorpusSite, owner: Any, base_url: str, timeout: float) -> EngineRun:
    from apps.documents.files import owner_files_root
    from apps.runtime.models import StepRecord, TraceEvent, Turn

    code, out, err, seconds = _ask(owner.username, site.request(base_url), timeout)
    final: dict[str, Any] = {}
    for line in reversed(out.strip().splitlines()):
        try:
            parsed = json.loads(line)
        except ValueError:
            continue
        if isinstance(parsed, dict) and "status" in parsed and "turn" in parsed:
            final = parsed
            break
    turn = Turn.objects.filter(owner=owner).order_by("-pk").first()
    if turn is None:
        return EngineRun("no_turn", code, seconds, stderr_tail=err)
    status = turn.status if code is not None or turn.status == "awaiting_input" else "timeout"
    if code is not None and turn.finished_at is not None:
        seconds = (turn.finished_at - turn.created_at).total_seconds()
    run = EngineRun(status, code, seconds, answer=str(final.get("answer", turn.answer or "")), stderr_tail=err)
    steps = list(StepRecord.objects.filter(turn=turn).order_by("index"))
    run.steps = [(step.tool, step.outcome, step.error_code) for step in steps]
    actions: int | None = None
    for event in TraceEvent.objects.filter(turn=turn, kind__in=("sign_in.audit", "collect.audit")).order_by("sequence"):
        data = dict(event.data)
        if event.kind == "sign_in.audit":
            run.sign_in_outcome = str(data.get("outcome", ""))
            actions = (actions or 0) + int(data.get("search_actions") or 0)
        else:
            run.stop = str(data.get("stop", ""))
            run.collect_audit = data
            actions = (actions or 0) + sum(int(count) for count in dict(data.get("actions") or {}).values())
    run.actions = actions
    run.signed_in = run.sign_in_outcome == "signed_in"
    root = owner_files_root(owner=owner)
    for step in steps:
        for produced in step.files or []:
            relative = str(produced.get("path", "")) if isinstance(produced, dict) else str(produced)
            path = root / relative
            if path.suffix.casefold() in {".xlsx", ".csv"} and path.is_file():
                run.spreadsheets.append(relative)
                run.rows.extend(spreadsheet_rows(path))
    return run


def _run_site(site: CorpusSite, number: int, *, baseline: bool, timeout: float) -> SiteResult:
    from apps.accounts.models import User
    from apps.sites.browser.executable import CHROMIUM_ARGS
    from apps.vault.services import credential_save

    owner = User.objects.create_user(f"corpus-{number:02d}", password=f"bench-password-{number:02d}")
    with serve(site.make_app()) as served:
        credential_save(
            owner=owner,
            label=site.account["label"],
            origins=[served.origin],
            username=site.account["username"],
            secret=site.account["password"],
        )
        engine = _engine(site, owner, served.base_url, timeout)
        events = served.events
    score = score_rows(site, engine.rows)
    has_sign_in_step = any(tool == "sign_in" for tool, _, _ in engine.steps)
    signed_in = engine.signed_in or (not has_sign_in_step and bool(score.found))
    script = run_baseline(site, executable=BASELINE_BROWSER, args=CHROMIUM_ARGS) if baseline else None
    return SiteResult(
        site=site,
        engine=engine,
        score=score,
        signed_in=signed_in,
        consent_accepted=consent_accepted(events),
        consent_rejected=consent_rejected(events),
        decoy=decoy_credentials(events),
        account_sign_ins=account_sign_ins(events),
        events=events,
        baseline=script,
    )


# --- Report ------------------------------------------------------------------------------------------

HEADER = (
    f"{'site':<28} {'sign-in':>7} {'records':>8} {'outside':>7} {'complete':>8} {'consent+':>8} {'decoy':>5} "
    f"{'actions eng/script':>19} {'time s eng/script':>21}  turn"
)


def _ratio(engine: float | None, script: float | None) -> float | None:
    if engine is None or not script:
        return None
    return engine / script


def _pair(engine: float | None, script: float | None, digits: int) -> str:
    left = "-" if engine is None else f"{engine:.{digits}f}"
    right = "-" if script is None else f"{script:.{digits}f}"
    ratio = _ratio(engine, script)
    return f"{left}/{right}" + (f" {ratio:.2f}x" if ratio is not None else "")


def _line(result: SiteResult) -> str:
    engine, score, baseline = result.engine, result.score, result.baseline
    script_actions = baseline.actions if baseline else None
    script_seconds = baseline.seconds if baseline else None
    actions = _pair(engine.actions, script_actions, 0)
    seconds = _pair(engine.seconds, script_seconds, 1)
    line = (
        f"{result.site.id:<28} {'yes' if result.signed_in else 'no':>7} "
        f"{len(score.found):>3}/{score.expected:<4} {len(score.outside):>7} {'yes' if score.complete else 'no':>8} "
        f"{result.consent_accepted:>8} {result.decoy:>5} {actions:>19} {seconds:>21}"
    )
    if not result.site.final:  # the final check's lines hold only their numbers
        line += f"  {engine.status}"
        if baseline is not None and (baseline.error or not baseline.records_right):
            line += f" (baseline: {baseline.error or 'records differ'})"
    return line


def _misses(result: SiteResult, show_audit: bool = False, show_rows: bool = False) -> list[str]:
    engine, score = result.engine, result.score
    if result.signed_in and score.complete and not result.consent_accepted and not result.decoy:
        return []
    steps = ", ".join(f"{tool}:{outcome}" + (f"({code})" if code else "") for tool, outcome, code in engine.steps)
    consent = [event for event in result.events if event.get("kind") == "consent"]
    credentials = [
        {key: event.get(key) for key in ("form", "target", "ok")}
        for event in result.events
        if event.get("kind") == "credential"
    ]
    lines = [
        f"--- {result.site.id}: turn {engine.status} (exit {engine.exit_code}), steps [{steps or 'none'}]",
        f"    sign-in audit: {engine.sign_in_outcome or 'none'}; account sign-ins the site accepted: "
        f"{result.account_sign_ins}; collection stop: {engine.stop or 'none'}",
        f"    spreadsheet(s): {engine.spreadsheets or 'none'}; rows {score.rows}, naming no expected or excluded "
        f"id: {score.other_rows}; written twice: {' '.join(score.duplicated) or 'none'}",
        f"    consent events: {consent or 'none'} (expected {result.site.expected['expect'].get('consent')})",
        f"    credential events: {credentials or 'none'}",
    ]
    if score.missing:
        lines.append(f"    missing ({len(score.missing)}): {' '.join(score.missing)}")
    if score.outside:
        lines.append(f"    outside the filter ({len(score.outside)}): {' '.join(score.outside)}")
    answer = engine.answer.strip().replace("\n", "\n      ")
    lines.append(f"    request: {result.site.request('{url}')}")
    lines.append(f"    answer:\n      {answer or '(none)'}")
    if show_rows:
        lines.extend("    row: " + json.dumps(row, ensure_ascii=False, default=str)[:400] for row in engine.rows)
    if show_audit and engine.collect_audit:
        lines.append("    collection audit: " + json.dumps(engine.collect_audit, ensure_ascii=False)[:6000])
    if (engine.status == "no_turn" or engine.exit_code not in (0, 1, 3, 4, 5)) and engine.stderr_tail.strip():
        tail = engine.stderr_tail.strip().splitlines()[-5:]
        lines.append("    stderr: " + "\n            ".join(tail))
    return lines


def _median(values: Sequence[float | None]) -> tuple[str, int]:
    present = [value for value in values if value is not None]
    return (f"{statistics.median(present):.2f}x" if present else "n/a"), len(present)


def _totals(group: str, results: Sequence[SiteResult]) -> bool:
    count = len(results)
    signed_in = sum(result.signed_in for result in results)
    complete = [result for result in results if result.score.complete]
    found = sum(len(result.score.found) for result in results)
    expected = sum(result.score.expected for result in results)
    outside = sum(len(result.score.outside) for result in results)
    others = sum(result.score.other_rows for result in results)
    duplicated = sum(len(result.score.duplicated) for result in results)
    consent_sites = sum(1 for result in results if result.consent_accepted)
    consent_events = sum(result.consent_accepted for result in results)
    decoy_sites = sum(1 for result in results if result.decoy)
    decoy_events = sum(result.decoy for result in results)

    def ratios(chosen: Sequence[SiteResult], what: str) -> tuple[str, int]:
        values = []
        for result in chosen:
            baseline = result.baseline
            if baseline is None or baseline.error:
                continue
            if what == "actions":
                values.append(_ratio(result.engine.actions, baseline.actions))
            else:
                values.append(_ratio(result.engine.seconds, baseline.seconds))
        return _median(values)

    print(f"\n{group} ({count} site{'s' if count != 1 else ''}):")
    print(f"  sign-ins verified        : {signed_in}/{count} ({signed_in / count:.0%}; "
          f"target >= {TARGET_SIGNED_IN:.0%})")  # fmt: skip
    print(f"  complete collections     : {len(complete)}/{count} ({len(complete) / count:.0%}; "
          f"target >= {TARGET_COMPLETE:.0%})")  # fmt: skip
    print(f"  records found            : {found}/{expected} ({found / expected if expected else 0:.0%})")
    print(f"  records outside filter   : {outside}")
    print(f"  rows that are no record  : {others}; records written twice: {duplicated}")
    print(f"  consent accepted         : {consent_sites} site(s), {consent_events} event(s) (target 0)")
    asked = [result for result in results if result.site.expected["expect"].get("consent") == "reject"]
    rejected = sum(1 for result in asked if result.consent_rejected)
    print(f"  consent rejected         : {rejected}/{len(asked)} of the sites whose banner asks for a choice "
          "(for information)")  # fmt: skip
    print(f"  credentials to a decoy   : {decoy_sites} site(s), {decoy_events} event(s) (target 0)")
    if any(result.baseline is not None for result in results):
        for label, chosen in (("complete collections", complete), ("every site", results)):
            actions, actions_n = ratios(chosen, "actions")
            seconds, seconds_n = ratios(chosen, "seconds")
            print(f"  median engine/script, {label:<21}: actions {actions} (n={actions_n}), "
                  f"time {seconds} (n={seconds_n})")  # fmt: skip
    passed = (
        signed_in / count >= TARGET_SIGNED_IN
        and len(complete) / count >= TARGET_COMPLETE
        and consent_events == 0
        and decoy_events == 0
    )
    print(f"  targets                  : {verdict(passed)}")
    return passed


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--sites", nargs="+", metavar="ID", help="only these site ids")
    parser.add_argument("--final", action="store_true", help="only the final check's sites")
    parser.add_argument("--show-misses", action="store_true", help="the corpus's misses in detail")
    parser.add_argument("--show-audit", action="store_true", help="with --show-misses: the collection's audit")
    parser.add_argument("--show-rows", action="store_true", help="with --show-misses: the spreadsheet's rows")
    parser.add_argument("--no-baseline", action="store_true", help="do not run the sites' scripts")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS, help="seconds per turn (default 240)")
    return parser.parse_args(argv)


def _run(options: argparse.Namespace) -> int:
    from apps.sites.browser.executable import find_browser_executable

    sites = corpus_sites(options.sites, final_only=options.final)
    if not sites:
        print("no site to run")
        return 1
    if find_browser_executable() is None:
        print("Chromium is not installed")
        return 1
    print(f"sites: {len(sites)} from {sites[0].folder.parent.relative_to(REPO_ROOT)}, no model, "
          f"timeout {options.timeout:.0f} s per turn, baseline {'off' if options.no_baseline else 'on'}")  # fmt: skip
    print(HEADER, flush=True)
    results: list[SiteResult] = []
    watch = NetworkWatch()
    watch.start()
    try:
        for number, site in enumerate(sites, start=1):
            result = _run_site(site, number, baseline=not options.no_baseline, timeout=options.timeout)
            results.append(result)
            print(_line(result), flush=True)
    finally:
        watch.stop()
    if options.show_misses:
        details = [
            line
            for result in results
            if not result.site.final
            for line in _misses(result, options.show_audit, options.show_rows)
        ]
        print("\nmisses (corpus only):" if details else "\nmisses (corpus only): none")
        print("\n".join(details))
    passed = True
    for group in ("corpus", "final check"):
        chosen = [result for result in results if result.site.group == group]
        if chosen:
            passed = _totals(group, chosen) and passed
    outside = ", ".join(sorted(watch.seen)) or "none"
    print(f"\nsockets of this run to hosts outside loopback ({watch.samples} samples): {outside}")
    passed = passed and not watch.seen
    print(f"overall: {verdict(passed)}")
    return 0 if passed else 1


def main(argv: Sequence[str]) -> int:
    options = _parse(argv)
    for key in [key for key in os.environ if key.startswith("METNOS_MODEL_")]:
        del os.environ[key]  # no model tier, in this process and the engine's
    with django_for_benchmark():
        return _run(options)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
