"""The blind request corpus (tests/corpus/requests/) is well formed: its expectations can be scored.

The corpus is an outside author's: this checks its form only, never what it
expects (bench/bench_corpus.py scores the engine against it).
"""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from apps.runtime.catalog import current_catalog
from tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "bench"))
from bench_corpus import CORPUS, corpus

KINDS = {"plan", "question", "none"}


def test_the_corpus_is_there_in_four_parts_and_both_languages() -> None:
    requests = corpus()
    if not requests:
        pytest.skip(f"no corpus in {CORPUS}")
    assert {request.part for request in requests} == {"a", "b", "c", "d"}
    assert {request.language for request in requests} == {"en", "it"}


def test_every_request_has_a_unique_id_text_and_one_kind_of_expectation() -> None:
    requests = corpus()
    ids = Counter(request.id for request in requests)
    assert [name for name, count in ids.items() if count > 1] == []
    for request in requests:
        assert request.text.strip(), request.id
        assert len(request.expect) == 1 and next(iter(request.expect)) in KINDS, request.id


def test_every_expected_plan_names_tools_of_the_catalog() -> None:
    tools = set(current_catalog().manifests)
    unknown = [
        (request.id, step.get("tool"))
        for request in corpus()
        if "plan" in request.expect
        for step in request.expect["plan"]
        if step.get("tool") not in tools
    ]
    assert unknown == []
