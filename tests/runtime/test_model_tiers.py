"""Model tiers by function: parsed from the environment, never falling back, never showing a key."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from apps.runtime.tiers.config import (
    DECISION_TIMEOUT_SECONDS,
    DEFAULT_TIMEOUT_SECONDS,
    TIER_NAMES,
    ModelTier,
    Secret,
    TierName,
    configured_tiers,
    effective_configuration,
    is_local_host,
    parse_model_tiers,
    tier,
)
from metnos_site.settings.env import EnvError

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
CANARY_KEY = "sk-canary-Zq81TfXw3LmP0aVb"
LOCAL_URL = "http://127.0.0.1:8080/v1"


def planning_env(**extra: str) -> dict[str, str]:
    return {"METNOS_MODEL_PLANNING_BASE_URL": LOCAL_URL, "METNOS_MODEL_PLANNING_MODEL": "qwen2.5-7b", **extra}


def entry(*, cloud: bool = False, api_key: str | None = None) -> dict[str, object]:
    return {"base_url": LOCAL_URL, "model": "local-model", "timeout": 20, "cloud": cloud, "api_key": api_key}


# --- Parsing -------------------------------------------------------------------


def test_nothing_configured_means_no_tiers() -> None:
    assert parse_model_tiers({}) == {}


def test_tier_is_parsed_from_its_variables() -> None:
    tiers = parse_model_tiers(
        planning_env(METNOS_MODEL_PLANNING_TIMEOUT="45", METNOS_MODEL_PLANNING_API_KEY=CANARY_KEY)
        | {"METNOS_MODEL_PLANNING_BASE_URL": LOCAL_URL + "/"}
    )

    planning = tiers["planning"]
    assert isinstance(planning["api_key"], Secret)
    assert planning["api_key"].reveal() == CANARY_KEY
    assert CANARY_KEY not in repr(tiers)  # e.g. manage.py diffsettings
    assert planning | {"api_key": None} == {
        "base_url": LOCAL_URL,
        "model": "qwen2.5-7b",
        "timeout": 45,
        "cloud": False,
        "api_key": None,
    }


@pytest.mark.parametrize(
    ("tier_name", "timeout"),
    [
        ("planning", DEFAULT_TIMEOUT_SECONDS),
        ("extraction", DEFAULT_TIMEOUT_SECONDS),
        ("route_choice", DECISION_TIMEOUT_SECONDS),
        ("frontier", DECISION_TIMEOUT_SECONDS),
        ("summarisation", DEFAULT_TIMEOUT_SECONDS),
        ("vision", DEFAULT_TIMEOUT_SECONDS),
    ],
)
def test_default_timeout_follows_the_function(tier_name: TierName, timeout: int) -> None:
    prefix = f"METNOS_MODEL_{tier_name.upper()}"
    tiers = parse_model_tiers({f"{prefix}_BASE_URL": LOCAL_URL, f"{prefix}_MODEL": "m"})

    assert tiers[tier_name]["timeout"] == timeout
    assert DECISION_TIMEOUT_SECONDS == 20  # the spec's bound per model decision


def test_api_key_may_come_from_a_file(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text(CANARY_KEY + "\n", encoding="utf-8")

    tiers = parse_model_tiers(planning_env(METNOS_MODEL_PLANNING_API_KEY_FILE=str(key_file)))

    assert tiers["planning"]["api_key"].reveal() == CANARY_KEY


@pytest.mark.parametrize(
    ("base_url", "cloud"),
    [
        ("http://127.0.0.1:8080/v1", False),
        ("http://localhost:11434/v1", False),
        ("http://[::1]:8080/v1", False),
        ("http://10.0.0.5:8000/v1", False),
        ("http://192.168.1.20/v1", False),
        ("http://172.16.3.4/v1", False),
        ("https://api.openai.com/v1", True),
        ("https://8.8.8.8/v1", True),
        # A name could resolve anywhere: cloud unless the operator says otherwise.
        ("http://gpu-box.lan:8080/v1", True),
    ],
)
def test_cloud_flag_is_derived_from_the_host(base_url: str, cloud: bool) -> None:
    tiers = parse_model_tiers(planning_env(METNOS_MODEL_PLANNING_BASE_URL=base_url))

    assert tiers["planning"]["cloud"] is cloud


def test_cloud_flag_variable_overrides_the_host() -> None:
    assert parse_model_tiers(planning_env(METNOS_MODEL_PLANNING_CLOUD="true"))["planning"]["cloud"] is True
    remote = planning_env(METNOS_MODEL_PLANNING_BASE_URL="http://gpu-box.lan/v1", METNOS_MODEL_PLANNING_CLOUD="false")
    assert parse_model_tiers(remote)["planning"]["cloud"] is False


def test_is_local_host_recognises_mapped_loopback() -> None:
    assert is_local_host("::ffff:127.0.0.1")
    assert not is_local_host("example.org")


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"METNOS_MODEL_PLANNING_MODEL": "m"}, "METNOS_MODEL_PLANNING_BASE_URL"),
        ({"METNOS_MODEL_FRONTIER_BASE_URL": LOCAL_URL}, "METNOS_MODEL_FRONTIER_MODEL"),
        ({"METNOS_MODEL_VISION_TIMEOUT": "30"}, "METNOS_MODEL_VISION_BASE_URL"),
        ({"METNOS_MODEL_PLANER_BASE_URL": LOCAL_URL}, "METNOS_MODEL_PLANER_BASE_URL"),
        (planning_env(METNOS_MODEL_PLANNING_CLOUD="maybe"), "METNOS_MODEL_PLANNING_CLOUD"),
        (planning_env(METNOS_MODEL_PLANNING_TIMEOUT="0"), "METNOS_MODEL_PLANNING_TIMEOUT"),
        (planning_env(METNOS_MODEL_PLANNING_TIMEOUT="20s"), "METNOS_MODEL_PLANNING_TIMEOUT"),
        (planning_env(METNOS_MODEL_PLANNING_BASE_URL="ftp://127.0.0.1/v1"), "METNOS_MODEL_PLANNING_BASE_URL"),
        (planning_env(METNOS_MODEL_PLANNING_BASE_URL="http://127.0.0.1/v1?key=x"), "METNOS_MODEL_PLANNING_BASE_URL"),
    ],
)
def test_incomplete_or_malformed_tier_fails_loudly(environ: dict[str, str], named: str) -> None:
    with pytest.raises(EnvError, match=named):
        parse_model_tiers(environ)


def test_configuration_errors_never_echo_a_secret(tmp_path: Path) -> None:
    problems = [
        planning_env(METNOS_MODEL_PLANNING_BASE_URL=f"https://user:{CANARY_KEY}@api.example.org/v1"),
        planning_env(METNOS_MODEL_PLANNING_API_KEY=f"{CANARY_KEY} with spaces"),
        planning_env(METNOS_MODEL_PLANNING_API_KEY=CANARY_KEY, METNOS_MODEL_PLANNING_API_KEY_FILE=str(tmp_path)),
        {"METNOS_MODEL_PLANNING_API_KEY": CANARY_KEY},
    ]
    for environ in problems:
        with pytest.raises(EnvError) as caught:
            parse_model_tiers(environ)
        assert CANARY_KEY not in str(caught.value)


def test_settings_read_the_tiers_from_the_environment() -> None:
    # A fresh interpreter: the settings module is evaluated with these
    # variables, and importing the tiers module first must not re-enter it.
    script = (
        "import apps.runtime.tiers.config, django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps([settings.METNOS_MODEL_TIERS, settings.METNOS_SITES_FRONTIER_ROUTES]))"
    )
    environ = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "METNOS_MODEL_FRONTIER_BASE_URL": "https://api.example.org/v1",
        "METNOS_MODEL_FRONTIER_MODEL": "frontier-1",
        "METNOS_SITES_FRONTIER_ROUTES": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, env=environ, capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr[-2000:]
    tiers, frontier_routes = json.loads(done.stdout.strip().splitlines()[-1])
    assert tiers == {
        "frontier": {
            "base_url": "https://api.example.org/v1",
            "model": "frontier-1",
            "timeout": 20,
            "cloud": True,
            "api_key": None,
        }
    }
    assert frontier_routes is False


# --- Reading the configured tiers ----------------------------------------------


def test_unconfigured_tier_is_none_and_never_falls_back(settings: SettingsWrapper) -> None:
    settings.METNOS_MODEL_TIERS = {"route_choice": entry(), "planning": entry()}

    assert tier("frontier") is None
    assert tier("extraction") is None
    route_choice = tier("route_choice")
    assert route_choice is not None
    assert route_choice.name == "route_choice"
    assert route_choice.cloud is False
    assert list(configured_tiers()) == ["planning", "route_choice"]


def test_unknown_tier_name_is_a_programming_error(settings: SettingsWrapper) -> None:
    settings.METNOS_MODEL_TIERS = {}

    with pytest.raises(ValueError, match="unknown model tier"):
        tier("planner")  # type: ignore[arg-type]


def test_effective_configuration_lists_every_tier(settings: SettingsWrapper) -> None:
    settings.METNOS_MODEL_TIERS = {"frontier": entry(cloud=True, api_key=CANARY_KEY) | {"base_url": LOCAL_URL}}

    rows = effective_configuration()

    assert [row["tier"] for row in rows] == list(TIER_NAMES)
    frontier = next(row for row in rows if row["tier"] == "frontier")
    assert frontier == {
        "tier": "frontier",
        "purpose": frontier["purpose"],
        "configured": True,
        "host": "127.0.0.1:8080",
        "model": "local-model",
        "timeout_seconds": 20.0,
        "cloud": True,
        "api_key": "set",
    }
    planning = next(row for row in rows if row["tier"] == "planning")
    assert planning["configured"] is False
    assert planning["api_key"] == "not set"


def test_api_key_never_appears_in_any_projection(settings: SettingsWrapper) -> None:
    settings.METNOS_MODEL_TIERS = parse_model_tiers(
        {
            "METNOS_MODEL_FRONTIER_BASE_URL": "https://api.example.org/v1",
            "METNOS_MODEL_FRONTIER_MODEL": "frontier-1",
            "METNOS_MODEL_FRONTIER_API_KEY": CANARY_KEY,
        }
    )

    frontier = tier("frontier")

    assert frontier is not None
    assert frontier.has_api_key
    assert frontier.api_key is not None and frontier.api_key.reveal() == CANARY_KEY
    shown = [
        repr(frontier),
        str(frontier),
        f"{frontier}",
        f"{frontier.api_key}",
        repr(configured_tiers()),
        repr(settings.METNOS_MODEL_TIERS),
        json.dumps(frontier.as_json()),
        json.dumps(effective_configuration()),
    ]
    for text in shown:
        assert CANARY_KEY not in text
    # asdict() keeps the Secret wrapper, which refuses to be serialised.
    with pytest.raises(TypeError):
        json.dumps(dataclasses.asdict(frontier))


def test_tiers_compare_without_their_key() -> None:
    first = ModelTier(name="planning", base_url=LOCAL_URL, model="m", timeout_seconds=60, cloud=False)
    second = dataclasses.replace(first)

    assert first == second
    assert not first.has_api_key
