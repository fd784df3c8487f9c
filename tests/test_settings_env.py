"""Unit tests of the typed environment parsers, the key rules and key generation.

Every parser is called with an explicit ``environ=`` mapping: these tests never
read or change ``os.environ``.
"""

from __future__ import annotations

import ipaddress
import secrets
import stat
from pathlib import Path

import pytest

from metnos_site.bootstrap import KEY_NAMES, ensure_keys
from metnos_site.settings.env import (
    FALSE_WORDS,
    TRUE_WORDS,
    EnvError,
    env_bool,
    env_int,
    env_list,
    env_networks,
    env_path,
    env_secret,
    env_str,
    parse_database_url,
    parse_public_url,
    parse_redis_url,
)
from metnos_site.settings.keys import (
    MIN_SECRET_KEY_LENGTH,
    MIN_VAULT_KEY_LENGTH,
    KeyProblem,
    Keys,
    key_problems,
    read_generated_key,
    resolve_keys,
)

CANARY = "CANARY-s3cr3t-value"
REAL_SECRET_KEY = secrets.token_urlsafe(48)
REAL_VAULT_KEY = secrets.token_urlsafe(48)


def error_message(excinfo: pytest.ExceptionInfo[EnvError]) -> str:
    return str(excinfo.value)


# --- env_str -----------------------------------------------------------------


def test_env_str_returns_the_stripped_value() -> None:
    assert env_str("NAME", environ={"NAME": "  value  "}) == "value"


def test_env_str_treats_missing_and_blank_values_as_unset() -> None:
    assert env_str("NAME", "fallback", environ={}) == "fallback"
    assert env_str("NAME", "fallback", environ={"NAME": "   "}) == "fallback"
    assert env_str("NAME", environ={}) is None


# --- env_bool ----------------------------------------------------------------


@pytest.mark.parametrize("word", sorted(TRUE_WORDS | {"TRUE", "Yes", " on "}))
def test_env_bool_accepts_the_true_words_in_any_case(word: str) -> None:
    assert env_bool("DEBUG", False, environ={"DEBUG": word}) is True


@pytest.mark.parametrize("word", sorted(FALSE_WORDS | {"FALSE", "No", " off "}))
def test_env_bool_accepts_the_false_words_in_any_case(word: str) -> None:
    assert env_bool("DEBUG", True, environ={"DEBUG": word}) is False


@pytest.mark.parametrize("default", [True, False])
def test_env_bool_returns_the_default_when_unset_or_blank(default: bool) -> None:
    assert env_bool("DEBUG", default, environ={}) is default
    assert env_bool("DEBUG", default, environ={"DEBUG": ""}) is default


@pytest.mark.parametrize("word", ["maybe", "2", "tru", "y", "n", "enabled", "-1", "truefalse"])
def test_env_bool_rejects_words_outside_the_vocabulary(word: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        env_bool("METNOS_SOME_FLAG", False, environ={"METNOS_SOME_FLAG": word})
    message = error_message(excinfo)
    assert "METNOS_SOME_FLAG" in message
    assert repr(word) in message
    # The message tells the operator which words would work.
    assert "true" in message
    assert "false" in message


def test_env_bool_error_is_an_improperly_configured_error() -> None:
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured):
        env_bool("DEBUG", False, environ={"DEBUG": "maybe"})


# --- env_int -----------------------------------------------------------------


def test_env_int_parses_whole_numbers_and_returns_the_default_when_unset() -> None:
    assert env_int("LIMIT", 7, environ={"LIMIT": " 42 "}) == 42
    assert env_int("LIMIT", 7, environ={"LIMIT": "-3"}) == -3
    assert env_int("LIMIT", 7, environ={}) == 7
    assert env_int("LIMIT", 7, environ={"LIMIT": ""}) == 7


@pytest.mark.parametrize("value", ["ten", "1.5", "0x10", "12abc", "1e3"])
def test_env_int_rejects_values_that_are_not_whole_numbers(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        env_int("METNOS_LIMIT", 1, environ={"METNOS_LIMIT": value})
    message = error_message(excinfo)
    assert "METNOS_LIMIT" in message
    assert "whole number" in message
    assert repr(value) in message


def test_env_int_rejects_values_below_the_minimum_with_the_bound_in_the_message() -> None:
    with pytest.raises(EnvError) as excinfo:
        env_int("METNOS_WORKERS", 4, minimum=1, maximum=32, environ={"METNOS_WORKERS": "0"})
    message = error_message(excinfo)
    assert "METNOS_WORKERS" in message
    assert "at least 1" in message


def test_env_int_rejects_values_above_the_maximum_with_the_bound_in_the_message() -> None:
    with pytest.raises(EnvError) as excinfo:
        env_int("METNOS_WORKERS", 4, minimum=1, maximum=32, environ={"METNOS_WORKERS": "33"})
    message = error_message(excinfo)
    assert "METNOS_WORKERS" in message
    assert "at most 32" in message


def test_env_int_accepts_the_bounds_themselves() -> None:
    assert env_int("N", 4, minimum=1, maximum=32, environ={"N": "1"}) == 1
    assert env_int("N", 4, minimum=1, maximum=32, environ={"N": "32"}) == 32


# --- env_list ----------------------------------------------------------------


def test_env_list_splits_on_commas_and_drops_blank_items() -> None:
    assert env_list("HOSTS", environ={"HOSTS": " a.example , b.example,, ,c "}) == ["a.example", "b.example", "c"]


def test_env_list_returns_a_copy_of_the_default_when_unset() -> None:
    default = ["x"]
    result = env_list("HOSTS", default, environ={})
    assert result == ["x"]
    assert result is not default
    assert env_list("HOSTS", environ={}) == []


# --- env_networks ------------------------------------------------------------


def test_env_networks_parses_ipv4_and_ipv6_networks() -> None:
    networks = env_networks("ALLOW", environ={"ALLOW": "127.0.0.0/8, ::1/128,10.1.2.3/16"})
    assert networks == [
        ipaddress.ip_network("127.0.0.0/8"),
        ipaddress.ip_network("::1/128"),
        # Host bits are tolerated and masked away.
        ipaddress.ip_network("10.1.0.0/16"),
    ]


def test_env_networks_is_empty_when_unset() -> None:
    assert env_networks("ALLOW", environ={}) == []


@pytest.mark.parametrize("item", ["not-a-network", "10.0.0.0/33", "300.1.1.1"])
def test_env_networks_rejects_items_that_are_not_networks(item: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        env_networks("METNOS_SITES_ALLOW_PRIVATE", environ={"METNOS_SITES_ALLOW_PRIVATE": f"127.0.0.0/8,{item}"})
    message = error_message(excinfo)
    assert "METNOS_SITES_ALLOW_PRIVATE" in message
    assert repr(item) in message


# --- env_path ----------------------------------------------------------------


def test_env_path_accepts_absolute_paths_and_returns_the_default_when_unset(tmp_path: Path) -> None:
    assert env_path("DATA", Path("/default"), environ={"DATA": str(tmp_path)}) == tmp_path
    assert env_path("DATA", Path("/default"), environ={}) == Path("/default")


def test_env_path_expands_the_home_directory() -> None:
    path = env_path("DATA", Path("/default"), environ={"DATA": "~/metnos-data"})
    assert path.is_absolute()
    assert path.name == "metnos-data"


@pytest.mark.parametrize("value", ["data", "./data", "../elsewhere/data"])
def test_env_path_rejects_relative_paths(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        env_path("METNOS_DATA_DIR", Path("/default"), environ={"METNOS_DATA_DIR": value})
    message = error_message(excinfo)
    assert "METNOS_DATA_DIR" in message
    assert "absolute" in message


# --- env_secret --------------------------------------------------------------


def test_env_secret_reads_the_value_directly() -> None:
    assert env_secret("SECRET_KEY", environ={"SECRET_KEY": CANARY}) == CANARY


def test_env_secret_is_none_when_neither_name_nor_file_is_set() -> None:
    assert env_secret("SECRET_KEY", environ={}) is None


def test_env_secret_reads_the_file_named_by_name_file_and_strips_it(tmp_path: Path) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text(f"  {CANARY}\n", encoding="utf-8")
    assert env_secret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(secret_file)}) == CANARY


def test_env_secret_refuses_both_name_and_name_file_without_revealing_either(tmp_path: Path) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text(CANARY, encoding="utf-8")
    with pytest.raises(EnvError) as excinfo:
        env_secret("SECRET_KEY", environ={"SECRET_KEY": CANARY, "SECRET_KEY_FILE": str(secret_file)})
    message = error_message(excinfo)
    assert "SECRET_KEY" in message
    assert "SECRET_KEY_FILE" in message
    assert "not both" in message
    assert CANARY not in message


def test_env_secret_reports_a_missing_file_naming_the_variable(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-file"
    with pytest.raises(EnvError) as excinfo:
        env_secret("METNOS_VAULT_KEY", environ={"METNOS_VAULT_KEY_FILE": str(missing)})
    message = error_message(excinfo)
    assert "METNOS_VAULT_KEY_FILE" in message
    assert "missing" in message
    # The path is left out: it could be a secret pasted into the wrong variable.
    assert str(missing) not in message


@pytest.mark.parametrize("content", ["", "   \n\n"])
def test_env_secret_reports_an_empty_file_naming_the_variable(tmp_path: Path, content: str) -> None:
    empty = tmp_path / "empty"
    empty.write_text(content, encoding="utf-8")
    with pytest.raises(EnvError) as excinfo:
        env_secret("METNOS_VAULT_KEY", environ={"METNOS_VAULT_KEY_FILE": str(empty)})
    message = error_message(excinfo)
    assert "METNOS_VAULT_KEY_FILE" in message
    assert "empty" in message


def test_env_secret_reports_an_unreadable_file_naming_the_variable(tmp_path: Path) -> None:
    # A directory cannot be read as a file.
    with pytest.raises(EnvError) as excinfo:
        env_secret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(tmp_path)})
    message = error_message(excinfo)
    assert "SECRET_KEY_FILE" in message
    assert "could not be read" in message


def test_env_secret_error_for_an_undecodable_file_does_not_contain_the_secret(tmp_path: Path) -> None:
    secret_file = tmp_path / "latin1-secret"
    secret_file.write_bytes(CANARY.encode("ascii") + b"\xff\xfe" + CANARY.encode("ascii"))
    with pytest.raises(EnvError) as excinfo:
        env_secret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(secret_file)})
    message = error_message(excinfo)
    assert "SECRET_KEY_FILE" in message
    assert CANARY not in message
    assert CANARY not in repr(excinfo.value)
    # The original decoding error (which quotes the bytes) is not chained.
    assert excinfo.value.__cause__ is None


def test_env_secret_errors_never_contain_the_secret_value(tmp_path: Path) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text(CANARY, encoding="utf-8")
    empty = tmp_path / "empty"
    empty.write_text("", encoding="utf-8")
    bad_environments = [
        {"SECRET_KEY": CANARY, "SECRET_KEY_FILE": str(secret_file)},
        {"SECRET_KEY_FILE": str(tmp_path / "missing")},
        {"SECRET_KEY_FILE": str(empty)},
        {"SECRET_KEY_FILE": str(tmp_path)},
    ]
    for environ in bad_environments:
        with pytest.raises(EnvError) as excinfo:
            env_secret("SECRET_KEY", environ=environ)
        assert CANARY not in str(excinfo.value), environ
        assert CANARY not in repr(excinfo.value), environ


# --- parse_database_url ------------------------------------------------------


def test_parse_database_url_reads_every_part_of_a_postgresql_url() -> None:
    db = parse_database_url(
        "DATABASE_URL",
        "postgresql://metnos:p%40ss%2Fword@db.example.org:6543/metnos_prod?sslmode=require&connect_timeout=5",
    )
    assert db.engine == "django.db.backends.postgresql"
    assert db.user == "metnos"
    assert db.password == "p@ss/word"
    assert db.host == "db.example.org"
    assert db.port == "6543"
    assert db.name == "metnos_prod"
    assert db.options == (("sslmode", "require"), ("connect_timeout", "5"))


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "pgsql", "PostgreSQL"])
def test_parse_database_url_accepts_the_postgresql_scheme_spellings(scheme: str) -> None:
    db = parse_database_url("DATABASE_URL", f"{scheme}://metnos@127.0.0.1/metnos")
    assert db.engine == "django.db.backends.postgresql"
    assert db.host == "127.0.0.1"
    assert db.port == ""
    assert db.password == ""
    assert db.options == ()


def test_parse_database_url_reads_an_absolute_sqlite_path() -> None:
    db = parse_database_url("DATABASE_URL", "sqlite:////srv/metnos/db.sqlite3")
    assert db.engine == "django.db.backends.sqlite3"
    assert db.name == "/srv/metnos/db.sqlite3"


@pytest.mark.parametrize("value", ["sqlite://", "sqlite:///", "sqlite:////"])
def test_parse_database_url_rejects_sqlite_without_a_file(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_database_url("DATABASE_URL", value)
    assert "DATABASE_URL" in error_message(excinfo)
    assert "file path" in error_message(excinfo)


@pytest.mark.parametrize("value", ["mysql://u:p@localhost/metnos", "metnos", "http://example.org/db"])
def test_parse_database_url_rejects_unsupported_schemes(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_database_url("DATABASE_URL", value)
    message = error_message(excinfo)
    assert "DATABASE_URL" in message
    assert "postgresql://" in message
    assert "sqlite://" in message


def test_parse_database_url_error_does_not_contain_the_password() -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_database_url("DATABASE_URL", f"mysql://metnos:{CANARY}@localhost/metnos")
    assert CANARY not in error_message(excinfo)


@pytest.mark.parametrize("value", ["postgresql://metnos@127.0.0.1:5432", "postgresql://metnos@127.0.0.1:5432/"])
def test_parse_database_url_rejects_a_postgresql_url_without_a_database_name(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_database_url("DATABASE_URL", value)
    message = error_message(excinfo)
    assert "DATABASE_URL" in message
    assert "database name" in message


@pytest.mark.parametrize("port", ["abc", "99999", "-1"])
def test_parse_database_url_rejects_a_bad_port(port: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_database_url("DATABASE_URL", f"postgresql://metnos:{CANARY}@127.0.0.1:{port}/metnos")
    message = error_message(excinfo)
    assert "DATABASE_URL" in message
    assert "port" in message
    assert CANARY not in message


# --- parse_redis_url ---------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["redis://127.0.0.1:6379/0", "rediss://:password@cache.example.org:6380/2", "redis://localhost"]
)
def test_parse_redis_url_returns_valid_urls_unchanged(value: str) -> None:
    assert parse_redis_url("REDIS_URL", value) == value


@pytest.mark.parametrize("value", ["http://127.0.0.1:6379/0", "127.0.0.1:6379", "redis://", "redis:///0"])
def test_parse_redis_url_rejects_urls_that_are_not_redis_addresses(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_redis_url("REDIS_URL", value)
    message = error_message(excinfo)
    assert "REDIS_URL" in message
    assert "redis://" in message


def test_parse_redis_url_rejects_a_bad_port_without_revealing_the_password() -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_redis_url("REDIS_URL", f"redis://:{CANARY}@127.0.0.1:notaport/0")
    message = error_message(excinfo)
    assert "REDIS_URL" in message
    assert "port" in message
    assert CANARY not in message


# --- parse_public_url --------------------------------------------------------


def test_parse_public_url_returns_scheme_host_and_origin() -> None:
    assert parse_public_url("METNOS_PUBLIC_URL", "https://metnos.example.org") == (
        "https",
        "metnos.example.org",
        "https://metnos.example.org",
    )


def test_parse_public_url_keeps_an_explicit_port_in_the_origin_and_drops_the_path() -> None:
    assert parse_public_url("METNOS_PUBLIC_URL", "http://127.0.0.1:8000/some/path") == (
        "http",
        "127.0.0.1",
        "http://127.0.0.1:8000",
    )


@pytest.mark.parametrize("value", ["ftp://metnos.example.org", "metnos.example.org", "https://", ""])
def test_parse_public_url_rejects_non_http_addresses(value: str) -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_public_url("METNOS_PUBLIC_URL", value)
    message = error_message(excinfo)
    assert "METNOS_PUBLIC_URL" in message
    assert "http" in message


def test_parse_public_url_rejects_a_bad_port() -> None:
    with pytest.raises(EnvError) as excinfo:
        parse_public_url("METNOS_PUBLIC_URL", "https://metnos.example.org:http")
    message = error_message(excinfo)
    assert "METNOS_PUBLIC_URL" in message
    assert "port" in message


# --- keys: key_problems and resolve_keys -------------------------------------


def test_key_problems_is_empty_for_real_distinct_keys() -> None:
    assert key_problems(secret_key=REAL_SECRET_KEY, vault_key=REAL_VAULT_KEY) == []


def test_key_problems_names_both_missing_keys() -> None:
    problems = key_problems(secret_key=None, vault_key=None)
    assert len(problems) == 2
    assert any("SECRET_KEY is not set" in problem for problem in problems)
    assert any("METNOS_VAULT_KEY is not set" in problem for problem in problems)


def test_key_problems_treats_empty_keys_as_missing() -> None:
    problems = key_problems(secret_key="", vault_key="")
    assert any("SECRET_KEY is not set" in problem for problem in problems)
    assert any("METNOS_VAULT_KEY is not set" in problem for problem in problems)


def test_key_problems_rejects_a_short_secret_key() -> None:
    short = CANARY + "x" * (MIN_SECRET_KEY_LENGTH - len(CANARY) - 1)
    problems = key_problems(secret_key=short, vault_key=REAL_VAULT_KEY)
    assert len(problems) == 1
    assert "SECRET_KEY is not a real secret" in problems[0]
    assert CANARY not in problems[0]


def test_key_problems_rejects_a_secret_key_with_too_few_distinct_characters() -> None:
    problems = key_problems(secret_key="abab" * MIN_SECRET_KEY_LENGTH, vault_key=REAL_VAULT_KEY)
    assert len(problems) == 1
    assert "SECRET_KEY" in problems[0]


def test_key_problems_rejects_a_django_insecure_secret_key() -> None:
    insecure = "django-insecure-" + secrets.token_urlsafe(48)
    problems = key_problems(secret_key=insecure, vault_key=REAL_VAULT_KEY)
    assert len(problems) == 1
    assert "django-insecure" in problems[0]
    assert insecure not in problems[0]


def test_key_problems_rejects_a_short_vault_key() -> None:
    short = CANARY[: MIN_VAULT_KEY_LENGTH - 1]
    problems = key_problems(secret_key=REAL_SECRET_KEY, vault_key=short)
    assert len(problems) == 1
    assert "METNOS_VAULT_KEY" in problems[0]
    assert f"at least {MIN_VAULT_KEY_LENGTH}" in problems[0]
    assert short not in problems[0]


def test_key_problems_rejects_the_development_vault_key_placeholder() -> None:
    problems = key_problems(secret_key=REAL_SECRET_KEY, vault_key="metnos-insecure-" + secrets.token_urlsafe(48))
    assert len(problems) == 1
    assert "METNOS_VAULT_KEY" in problems[0]


def test_key_problems_rejects_a_vault_key_equal_to_the_secret_key() -> None:
    problems = key_problems(secret_key=REAL_SECRET_KEY, vault_key=REAL_SECRET_KEY)
    assert problems == ["METNOS_VAULT_KEY must be distinct from SECRET_KEY"]


def test_resolve_keys_in_debug_returns_development_keys_when_none_are_given() -> None:
    keys = resolve_keys(debug=True, secret_key=None, vault_key=None)
    assert keys.secret_key
    assert keys.vault_key
    assert keys.secret_key != keys.vault_key
    # The development keys are recognisably unfit for production.
    assert len(key_problems(secret_key=keys.secret_key, vault_key=keys.vault_key)) == 2


def test_resolve_keys_in_debug_prefers_the_given_keys() -> None:
    assert resolve_keys(debug=True, secret_key=REAL_SECRET_KEY, vault_key=REAL_VAULT_KEY) == Keys(
        secret_key=REAL_SECRET_KEY, vault_key=REAL_VAULT_KEY
    )


def test_resolve_keys_in_production_returns_real_keys() -> None:
    assert resolve_keys(debug=False, secret_key=REAL_SECRET_KEY, vault_key=REAL_VAULT_KEY) == Keys(
        secret_key=REAL_SECRET_KEY, vault_key=REAL_VAULT_KEY
    )


def test_resolve_keys_in_production_refuses_to_start_without_keys() -> None:
    with pytest.raises(KeyProblem) as excinfo:
        resolve_keys(debug=False, secret_key=None, vault_key=None)
    message = str(excinfo.value)
    assert "refuses to start" in message
    assert "SECRET_KEY" in message
    assert "METNOS_VAULT_KEY" in message


def test_resolve_keys_problem_is_an_env_error() -> None:
    with pytest.raises(EnvError):
        resolve_keys(debug=False, secret_key=None, vault_key=None)


@pytest.mark.parametrize(
    ("secret_key", "vault_key"),
    [
        (CANARY, REAL_VAULT_KEY),
        (REAL_SECRET_KEY, CANARY),
        ("django-insecure-" + CANARY * 4, REAL_VAULT_KEY),
        (CANARY * 4, CANARY * 4),
        (CANARY, None),
    ],
)
def test_resolve_keys_errors_never_contain_key_values(secret_key: str | None, vault_key: str | None) -> None:
    with pytest.raises(KeyProblem) as excinfo:
        resolve_keys(debug=False, secret_key=secret_key, vault_key=vault_key)
    message = str(excinfo.value)
    assert "refuses to start" in message
    assert CANARY not in message
    assert REAL_SECRET_KEY not in message
    assert REAL_VAULT_KEY not in message


def test_read_generated_key_reads_a_key_file_from_the_data_directory(tmp_path: Path) -> None:
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "secret_key").write_text(f"{REAL_SECRET_KEY}\n", encoding="utf-8")
    (tmp_path / "secrets" / "vault_key").write_text("\n", encoding="utf-8")
    assert read_generated_key(tmp_path, "secret_key") == REAL_SECRET_KEY
    assert read_generated_key(tmp_path, "vault_key") is None
    assert read_generated_key(tmp_path / "absent", "secret_key") is None


# --- bootstrap.ensure_keys ---------------------------------------------------


def test_ensure_keys_creates_both_key_files_readable_only_by_the_owner(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    created = ensure_keys(data_dir)
    secrets_dir = data_dir / "secrets"
    assert sorted(created) == sorted(secrets_dir / name for name in KEY_NAMES)
    assert stat.S_IMODE(secrets_dir.stat().st_mode) == 0o700
    for name in KEY_NAMES:
        assert stat.S_IMODE((secrets_dir / name).stat().st_mode) == 0o600, name


def test_ensure_keys_generates_distinct_keys_fit_for_production(tmp_path: Path) -> None:
    ensure_keys(tmp_path)
    secret_key = read_generated_key(tmp_path, "secret_key")
    vault_key = read_generated_key(tmp_path, "vault_key")
    assert secret_key is not None
    assert vault_key is not None
    assert secret_key != vault_key
    assert key_problems(secret_key=secret_key, vault_key=vault_key) == []


def test_ensure_keys_generates_different_keys_for_each_instance(tmp_path: Path) -> None:
    ensure_keys(tmp_path / "one")
    ensure_keys(tmp_path / "two")
    assert read_generated_key(tmp_path / "one", "secret_key") != read_generated_key(tmp_path / "two", "secret_key")
    assert read_generated_key(tmp_path / "one", "vault_key") != read_generated_key(tmp_path / "two", "vault_key")


def test_ensure_keys_never_overwrites_existing_keys(tmp_path: Path) -> None:
    ensure_keys(tmp_path)
    secrets_dir = tmp_path / "secrets"
    before = {name: (secrets_dir / name).read_text(encoding="utf-8") for name in KEY_NAMES}
    assert ensure_keys(tmp_path) == []
    after = {name: (secrets_dir / name).read_text(encoding="utf-8") for name in KEY_NAMES}
    assert after == before


def test_ensure_keys_fills_in_only_the_missing_key(tmp_path: Path) -> None:
    secrets_dir = tmp_path / "secrets"
    secrets_dir.mkdir()
    (secrets_dir / "vault_key").write_text(f"{REAL_VAULT_KEY}\n", encoding="utf-8")
    created = ensure_keys(tmp_path)
    assert created == [secrets_dir / "secret_key"]
    assert read_generated_key(tmp_path, "vault_key") == REAL_VAULT_KEY
    assert read_generated_key(tmp_path, "secret_key") not in {None, REAL_VAULT_KEY}


@pytest.mark.parametrize(
    "url",
    ["sqlite:///relative.db", "sqlite://host/db.sqlite3", "sqlite://", "sqlite:///"],
)
def test_parse_database_url_requires_an_absolute_sqlite_path(url: str) -> None:
    with pytest.raises(EnvError, match="absolute database file path"):
        parse_database_url("DATABASE_URL", url)


def test_parse_database_url_rejects_port_zero() -> None:
    with pytest.raises(EnvError, match="invalid port"):
        parse_database_url("DATABASE_URL", "postgresql://u@h:0/db")


@pytest.mark.parametrize("value", ["1_000", "\u0661\u0662", "12.0", "0x10"])
def test_env_int_accepts_only_ascii_digits(value: str) -> None:
    with pytest.raises(EnvError, match="METNOS_PORT must be a whole number"):
        env_int("METNOS_PORT", 1, environ={"METNOS_PORT": value})


def test_vault_key_needs_variety() -> None:
    problems = key_problems(secret_key="s" * 10 + "ecret-key-with-enough-variety-0123456789abcdef", vault_key="a" * 40)
    assert any("METNOS_VAULT_KEY" in problem for problem in problems)


def test_unreadable_generated_key_is_a_clear_configuration_error(tmp_path: Path) -> None:
    secrets_dir = tmp_path / "secrets"
    (secrets_dir / "secret_key").mkdir(parents=True)  # a folder where the key file should be
    with pytest.raises(KeyProblem, match="cannot be read"):
        read_generated_key(tmp_path, "secret_key")
