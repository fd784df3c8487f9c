"""The one redactor (apps/core/redaction.py), and the log records that go through it.

* Overlapping secrets are replaced as one span: ``hunter2`` and
  ``hunter2-long`` leave no ``-long``; ``abcd`` and ``bcde`` leave nothing of
  either in ``xabcdex``.
* Every form a secret takes in text is found: raw, URL-encoded, JSON-escaped,
  HTML-escaped.
* Property (hypothesis): for generated secrets of 4 or more characters and
  texts embedding them in those forms, neither the redactor, nor a nested
  value, nor a log record (message, arguments, exception) keeps any form of
  any secret.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings

from apps.core.redaction import (
    REDACTED,
    RedactSecretsFilter,
    active_secrets,
    redact_text,
    redact_value,
    secret_register,
    secrets_redacted,
)
from tests.redaction_cases import FORMS, Case, captured_log, cases, leaks, strings_in

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRICKY = "p@ss w/rd\"<é😀>&'\\%+"
logger = logging.getLogger("tests.redaction")


# --- Overlapping secrets -----------------------------------------------------------


def test_a_secret_extending_another_is_redacted_whole() -> None:
    assert redact_text("pw=hunter2-long", ["hunter2", "hunter2-long"]) == f"pw={REDACTED}"
    assert redact_text("pw=hunter2-long", ["hunter2-long", "hunter2"]) == f"pw={REDACTED}"
    assert redact_text("a hunter2 b hunter2-long", ["hunter2", "hunter2-long"]) == f"a {REDACTED} b {REDACTED}"


def test_overlapping_secrets_are_redacted_as_one_span() -> None:
    assert redact_text("xabcdex", ["abcd", "bcde"]) == f"x{REDACTED}x"
    assert redact_text("abcdefghijkl", ["abcdefgh", "efghijkl"]) == REDACTED  # no ijkl survives
    assert redact_text("1234567", ["1234", "3456", "4567"]) == REDACTED


def test_overlapping_secrets_in_nested_values_keys_included() -> None:
    value = {"pw=hunter2-long": ["hunter2-long", ("x", 3)], "n": None}

    assert redact_value(value, ["hunter2", "hunter2-long"]) == {f"pw={REDACTED}": [REDACTED, ["x", 3]], "n": None}


def test_a_secret_formed_by_the_marker_and_its_neighbours_is_redacted_too() -> None:
    # "hunter2x" -> "[redacted]x", which spells the second secret.
    redacted = redact_text("hunter2x", ["hunter2", "ed]x"])

    assert "ed]x" not in redacted and "hunter2" not in redacted


# --- Forms -------------------------------------------------------------------------


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_of_a_secret_is_redacted(form: str) -> None:
    embedded = FORMS[form](TRICKY)

    assert redact_text(f"before {embedded} after", [TRICKY]) == f"before {REDACTED} after"


def test_other_escapes_are_redacted_too() -> None:
    for embedded in ["p%40ss+w/rd", r"p@ss w\/rd", "p@ss&#32;w&#X2F;rd", r"p@ss\x20w/rd", r"p\u0040ss w/rd"]:
        assert redact_text(f"<{embedded}>", ["p@ss w/rd"]) == f"<{REDACTED}>", embedded


def test_a_short_secret_is_redacted_only_where_it_stands_alone() -> None:
    assert redact_text("code: 123, id 41234, x123", ["123"]) == f"code: {REDACTED}, id 41234, x123"
    assert redact_text("", ["123"]) == ""


def test_no_secrets_leave_the_text_as_it_is() -> None:
    assert redact_text("nothing [redacted]", []) == "nothing [redacted]"
    assert redact_text("nothing", ["", "absent"]) == "nothing"
    assert redact_value({"a": 1}, []) == {"a": 1}


# --- The turn's secrets ------------------------------------------------------------


def test_a_registered_secret_lasts_until_its_block_ends() -> None:
    def step() -> None:
        with secrets_redacted(["known-at-start"]):
            secret_register("found-during-step")
            assert active_secrets() == ("known-at-start", "found-during-step")
            assert redact_text("found-during-step and known-at-start") == f"{REDACTED} and {REDACTED}"
        assert active_secrets() == ()
        assert redact_text("found-during-step") == "found-during-step"

    # A fresh context, as a worker thread's: another test may have registered values outside any block.
    contextvars.Context().run(step)


# --- Log records -------------------------------------------------------------------


def log_everything(text: str) -> None:
    logger.warning("text %s and %r", text, text)
    try:
        raise ValueError(text)
    except ValueError:
        logger.exception("it failed")


def filtered_message(text: str) -> str:
    """A record made without the record factory, through the handlers' filter."""
    record = logging.LogRecord("tests.redaction", logging.WARNING, __file__, 1, "text %s", (text,), None)
    RedactSecretsFilter().filter(record)
    return record.getMessage()


def test_log_records_lose_the_secrets_and_the_exception_text() -> None:
    with captured_log(logger) as log, secrets_redacted(["hunter2", "hunter2-long"]):
        log_everything("pw=hunter2-long")
        filtered = filtered_message("pw=hunter2-long")

    assert "hunter2" not in log.getvalue() and "-long" not in log.getvalue()
    assert "[ValueError: text withheld]" in log.getvalue()
    assert filtered == f"text pw={REDACTED}"


# --- The property ------------------------------------------------------------------


def sink_outputs(case: Case) -> Sequence[str]:
    """What each sink of this module keeps of the case's text."""
    nested = redact_value({case.text: [case.text, {"deeper": (case.text,)}]}, case.secrets)
    with captured_log(logger) as log, secrets_redacted(case.secrets):
        log_everything(case.text)
        filtered = filtered_message(case.text)
    return [redact_text(case.text, case.secrets), *strings_in(nested), log.getvalue(), filtered]


@PROPERTY_SETTINGS
@given(cases())
def test_no_sink_keeps_any_form_of_a_secret(case: Case) -> None:
    for output in sink_outputs(case):
        assert leaks(output, case.secrets) == [], output
