"""Score request understanding on the blind corpus (``tests/corpus/requests/``), with no model.

Run: ``cd /work/main && .venv/bin/python bench/bench_corpus.py`` (``--show-misses`` lists
every request that did not get its expected answer; ``--files a b`` scores only those parts).

The corpus was written by an author who never saw the engine (its brief is in
the corpus's README); part ``c`` is the final check, scored and reported
separately, never debugged against. Each request expects a plan, a question
back, or no plan at all (out of the catalog, or a negation). Today's engine
proposes from request forms only, so a request that needs a question is
counted right when no plan is proposed, and "asked" stays 0 until the
engine asks.

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


def _run() -> int:
    from apps.runtime.catalog import current_catalog
    from apps.runtime.paths.forms import AmbiguousRequest, propose_from_forms

    parts = sys.argv[sys.argv.index("--files") + 1 :] if "--files" in sys.argv else None
    requests = corpus(parts)
    if not requests:
        print(f"no corpus in {CORPUS}")
        return 1
    catalog = current_catalog()
    tally: dict[str, Counter[str]] = {}
    misses: list[str] = []
    times: list[float] = []
    for request in requests:
        began = time.perf_counter()
        try:
            found = propose_from_forms(request.text, catalog)
            proposed = list(found.plan["steps"]) if found is not None else None
        except AmbiguousRequest:
            proposed = None
        times.append(time.perf_counter() - began)
        group = "final check (c)" if request.part == FINAL_CHECK else "corpus (a, b)"
        counts = tally.setdefault(group, Counter())
        kind = next(iter(request.expect))
        counts[f"expected {kind}"] += 1
        if kind == "plan":
            right = proposed is not None and plan_matches(request.expect["plan"], proposed)
        else:
            right = proposed is None
            if proposed is not None:
                counts["plans the request did not ask for"] += 1
        counts["right"] += right
        counts[f"right {kind}"] += right
        if not right:
            misses.append(f"{request.id} [{kind}] {request.text!r} -> {json.dumps(proposed, ensure_ascii=False)}")
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
              f"plans not asked for: {unwanted}; questions asked: 0")  # fmt: skip
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
