"""What consent labels mean, read against the native cookie lexicon (no browser)."""

from __future__ import annotations

import pytest

from apps.sites.acting.cookie_labels import is_necessary, text_meaning


@pytest.mark.parametrize(
    ("label", "meaning"),
    [
        ("Reject all", "reject"),
        ("REJECT ALL COOKIES", "reject"),
        ("Rifiuta tutti", "reject"),
        ("Accetta solo i necessari", "reject"),  # holds the word for accept, yet rejects
        ("Accept only necessary cookies", "reject"),
        ("Continua senza accettare →", "reject"),
        ("Continue without accepting", "reject"),
        ("Use necessary cookies only", "reject"),
        ("Do not consent", "reject"),
        ("Accept necessary cookies", "reject"),  # the accept verb, with only the necessary ones as its object
        ("Only allow essential cookies", "reject"),
        ("Consenti solo i cookie necessari", "reject"),
        ("Accetta i necessari", "reject"),
        ("Reject all and accept the rest", "unclear"),  # consent left over after the rejecting words
        ("Accept all", "accept"),
        ("That's ok", "accept"),
        ("That\u2019s OK!", "accept"),
        ("Got it", "accept"),
        ("Va bene", "accept"),
        ("Ho capito", "accept"),
        ("Manage preferences", "settings"),
        ("Personalizza", "settings"),
        ("Save my choices", "save"),
        ("Salva le scelte", "save"),
        ("Accept selected", "save"),
        ("Save and accept all", "unclear"),
        ("Close", "close"),
        ("×", "close"),
        ("Chiudi", "close"),
        ("Privacy policy", "other"),
        ("Products", "other"),
    ],
)
def test_labels_mean_what_they_say_not_what_a_word_in_them_says(label: str, meaning: str) -> None:
    assert text_meaning(label) == meaning


def test_necessary_toggles_are_recognised_in_both_languages() -> None:
    assert is_necessary("Strictly necessary")
    assert is_necessary("Strettamente necessari")
    assert not is_necessary("Personalised advertising")
