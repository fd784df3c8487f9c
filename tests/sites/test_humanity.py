"""An explicit request to verify humanity, read with its context (spec: CAPTCHAs, codes, and resuming)."""

from __future__ import annotations

import pytest

from apps.sites.observation.humanity import Prose, humanity_request


@pytest.mark.parametrize(
    "text",
    [
        "Please verify you are human before signing in.",
        "To continue, confirm you are not a robot.",
        "Conferma di non essere un robot per continuare.",
        "Per accedere completa la verifica di sicurezza.",
        "Complete the CAPTCHA below, then press Sign in.",
        "Sign in. Verify you’re human to continue",  # typographic apostrophe, no final stop
    ],
)
def test_an_instruction_in_the_form_is_a_request(text: str) -> None:
    assert humanity_request([Prose(text)]) is not None


@pytest.mark.parametrize(
    ("block", "why"),
    [
        (Prose('What happens when we ask you to "verify you are human"? Nothing bad.'), "quoted"),
        (Prose("Some sites say «conferma di non essere un robot»: noi no."), "quoted, Italian marks"),
        (Prose("Why do I have to verify you are human?"), "a question"),
        (Prose("You will be asked to verify you are human if we see unusual traffic.", in_faq=True), "FAQ block"),
        (Prose("We may ask you to complete the CAPTCHA.", heading="Frequently asked questions"), "FAQ heading"),
        (Prose("Good news: you don't need to verify you are human any more."), "negated"),
        (Prose("Non è necessario dimostrare di essere umano per accedere."), "negated, Italian"),
        (Prose("Sign in without having to solve the captcha."), "negated by without"),
    ],
)
def test_context_that_does_not_activate_it(block: Prose, why: str) -> None:
    assert humanity_request([block]) is None, why


def test_a_real_request_after_a_negated_one_still_counts() -> None:
    blocks = [
        Prose("You don't need to verify you are human on trusted devices."),
        Prose("Help", in_faq=True),
        Prose("This device is new: please verify you are human."),
    ]
    found = humanity_request(blocks)
    assert found is not None and found.block == 2


def test_italian_request_whose_phrase_contains_non_is_not_read_as_negated() -> None:
    found = humanity_request([Prose("Prima di entrare, dimostra di non essere un robot.")])
    assert found is not None and "robot" in found.phrase
