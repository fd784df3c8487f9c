"""Score request understanding on the blind corpus (``tests/corpus/requests/``), with no model.

Run: ``cd /work/main && .venv/bin/python bench/bench_corpus.py`` (``--show-misses`` lists
every request that did not get its expected answer; ``--files a b`` scores only those parts).

The corpus was written by an author who never saw the engine (its brief is in
the corpus's README); part ``c`` is the final check, scored and reported
separately, never debugged against (``--show-misses`` never lists its
misses). Each request expects a plan, a question back, or no plan at all
(out of the catalog, or a negation). The engine proposes as a turn does
with no model: the request forms' exact sentences first, then the frames
executors declare (``apps/runtime/understanding``). A question is right
only when the engine asks one; "no plan" only when it neither plans nor
asks.

Scoring a plan: the steps' tools must be the expected ones in order; each
argument the author gave must be there — paths compared without ``~/`` and
trailing slashes, case-folded; free-text arguments (``what``) by their
words, every expected word present. A plan for a request that expected none
counts as a plan the request did not ask for (target: 0).

Request understanding is also timed: the median per request with the
whole catalog (target ≤ 2 ms).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from _setup import REPO_ROOT, django_for_benchmark, verdict

CORPUS = REPO_ROOT / "tests" / "corpus" / "requests"
FINAL_CHECK = "c"
FREE_TEXT_ARGS = frozenset({"what"})
TARGET_PLANNED = 0.95
TARGET_MEDIAN_SECONDS = 2e-3


@dataclass(frozen=True)
class Request:
    part: str
    id: str
    language: str
    text: str
    expect: Mapping[str, Any]


def corpus(parts: Iterable[str] | None = None) -> list[Request]:
    """Every request of the corpus (or of ``parts``), in file order."""
    wanted = set(parts) if parts else None
    found: list[Request] = []
    for path in sorted(CORPUS.glob("requests-*.jsonl")):
        part = path.stem.removeprefix("requests-")
        if wanted is not None and part not in wanted:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                found.append(Request(part, row["id"], row["language"], row["text"], row["expect"]))
    return found


def _path(value: Any) -> str:
    return str(value).strip().removeprefix("~/").rstrip("/").casefold()


def _words(value: Any) -> set[str]:
    return {word for word in str(value).casefold().replace(",", " ").split() if word}


def plan_matches(expected: list[Mapping[str, Any]], proposed: list[Mapping[str, Any]]) -> bool:
    if [step.get("tool") for step in expected] != [step.get("tool") for step in proposed]:
        return False
    for want, got in zip(expected, proposed, strict=True):
        args = got.get("args", {})
        for name, value in want.get("args", {}).items():
            if name not in args:
                return False
            if name in FREE_TEXT_ARGS:
                if not _words(value) <= _words(args[name]):
                    return False
            elif _path(value) != _path(args[name]):
                return False
    return True


def main() -> int:
    with django_for_benchmark():
        return _run()


def _propose(text: str, catalog: Any) -> tuple[list[Mapping[str, Any]] | None, bool]:
    """(the plan's steps or None, whether a question was asked), as a turn chooses with no model."""
    from apps.runtime.paths.choice import same_targets
    from apps.runtime.paths.forms import AmbiguousRequest, propose_from_forms
    from apps.runtime.understanding.proposer import propose_from_frames

    understood = propose_from_frames(text, catalog)
    if understood.forbidden:
        return None, False
    try:
        found = propose_from_forms(text, catalog)
    except AmbiguousRequest:
        found = None
    if understood.plan is not None:
        steps = list(understood.plan["steps"])
        if found is not None and same_targets(found.plan, understood.plan):
            return list(found.plan["steps"]), False
        return steps, False
    if understood.question is not None:
        return None, True
    if understood.reason.startswith("it asks for something"):
        return None, False
    return (list(found.plan["steps"]) if found is not None else None), False


def _run() -> int:
    from apps.runtime.catalog import current_catalog

    parts = sys.argv[sys.argv.index("--files") + 1 :] if "--files" in sys.argv else None
    requests = corpus(parts)
    if not requests:
        print(f"no corpus in {CORPUS}")
        return 1
    catalog = current_catalog()
    _propose("warm up the lemmatiser", catalog)
    tally: dict[str, Counter[str]] = {}
    misses: list[str] = []
    times: list[float] = []
    for request in requests:
        began = time.perf_counter()
        proposed, asked = _propose(request.text, catalog)
        times.append(time.perf_counter() - began)
        group = "final check (c)" if request.part == FINAL_CHECK else f"corpus ({request.part})"
        counts = tally.setdefault(group, Counter())
        kind = next(iter(request.expect))
        counts[f"expected {kind}"] += 1
        counts["questions asked"] += asked
        if kind == "plan":
            right = proposed is not None and plan_matches(request.expect["plan"], proposed)
        elif kind == "question":
            right = proposed is None and asked
        else:
            right = proposed is None and not asked
        if kind != "plan" and proposed is not None:
            counts["plans the request did not ask for"] += 1
        counts["right"] += right
        counts[f"right {kind}"] += right
        if not right and request.part != FINAL_CHECK:  # the final check's misses are never read
            got = (
                json.dumps(proposed, ensure_ascii=False) if proposed is not None else ("(question)" if asked else None)
            )
            misses.append(f"{request.id} [{kind}] {request.text!r} -> {got}")
    print(
        f"requests: {len(requests)} from {CORPUS.relative_to(REPO_ROOT)}, no model, catalog of {len(catalog.manifests)}"
    )
    passed = True
    for group, counts in sorted(tally.items()):
        total = sum(value for key, value in counts.items() if key.startswith("expected "))
        share = counts["right"] / total if total else 0.0
        unwanted = counts["plans the request did not ask for"]
        detail = ", ".join(f"{kind} {counts[f'right {kind}']}/{counts[f'expected {kind}']}"
                           for kind in ("plan", "question", "none"))  # fmt: skip
        print(f"{group:16}: {counts['right']}/{total} as expected ({share:.0%}; {detail}); "
              f"plans not asked for: {unwanted}; questions asked: {counts['questions asked']}")  # fmt: skip
        passed = passed and share >= TARGET_PLANNED and unwanted == 0
    median = statistics.median(times)
    print(f"understanding time: median {median * 1e3:.3f} ms per request (target <= 2 ms)")
    if "--show-misses" in sys.argv:
        print("\n".join(misses))
    passed = passed and median <= TARGET_MEDIAN_SECONDS
    print(f"target: >= {TARGET_PLANNED:.0%} as expected, 0 plans not asked for, median <= 2 ms: {verdict(passed)}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
