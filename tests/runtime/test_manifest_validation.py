"""Manifest validation: a manifest that cannot be enforced is refused with a typed error naming the problem."""

from __future__ import annotations

from typing import Any

import pytest

from apps.runtime.manifests import ConsentSpec, Manifest, ManifestError, ResultShape


def _manifest(**overrides: Any) -> Manifest:
    fields: dict[str, Any] = {
        "name": "send_note", "purpose": "Send a note.", "args": {}, "result": ResultShape(kind="none"),
        **overrides,
    }  # fmt: skip
    return Manifest(**fields)


def test_a_valid_manifest_is_accepted() -> None:
    manifest = _manifest(intelligence="agentic", placement="both", consent=ConsentSpec("confirm", ("action",)))
    assert manifest.as_json()["consent"] == {"mode": "confirm", "shows": ["action"]}


@pytest.mark.parametrize(
    ("overrides", "problem"),
    [
        ({"intelligence": "clever"}, "intelligence 'clever' is neither deterministic nor agentic"),
        ({"placement": "cloud"}, "placement 'cloud' is unknown"),
        ({"consent": ConsentSpec("confirm")}, "a confirmation must say what it shows"),
    ],
    ids=["intelligence", "placement", "confirm-without-shows"],
)
def test_unenforceable_manifest_is_refused_naming_the_problem(overrides: dict[str, Any], problem: str) -> None:
    with pytest.raises(ManifestError) as refused:
        _manifest(**overrides)
    assert str(refused.value).startswith("manifest 'send_note': ")
    assert problem in str(refused.value)
