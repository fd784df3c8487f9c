"""Recognising an explicit textual request to verify humanity in a sign-in form.

The whole prose of the form is read with its context: a request stated as
an instruction activates manual control even before any widget is visible.
It does not activate when the words are

- quoted (an example: 'what does "verify you are human" mean?');
- part of an FAQ or help block, or asked as a question;
- negated in their own clause ("you don't need to verify you are human",
  "non è necessario dimostrare di essere umano").

Nearby links, buttons or fields do not change the reading. Recognition says
only that a person must look; it never authorises clicking a checkbox.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern

_QUOTED = re.compile(r"\"[^\"]{0,200}\"|“[^”]{0,200}”|«[^»]{0,200}»|„[^“”]{0,200}[“”]")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_CLAUSE_BREAK = re.compile(r"[,:()\[\]]")


@dataclass(frozen=True)
class Prose:
    """One block of static, public text of the form, with where it sits."""

    text: str
    heading: str = ""  # the title of its section, if any
    in_faq: bool = False  # inside a question/answer block (details/summary, an FAQ list)


@dataclass(frozen=True)
class HumanityRequest:
    """A request to verify humanity was found: which phrase, in which block."""

    phrase: str
    block: int


def _is_faq(block: Prose, faq_headings: tuple[str, ...]) -> bool:
    if block.in_faq:
        return True
    heading = fold(block.heading)
    return bool(heading) and phrase_pattern(faq_headings).search(heading) is not None


def _negated(before: str, negators: tuple[str, ...]) -> bool:
    """Whether the clause leading up to the phrase negates it."""
    clause = _CLAUSE_BREAK.split(before)[-1]
    return phrase_pattern(negators).search(clause) is not None


def humanity_request(blocks: Sequence[Prose]) -> HumanityRequest | None:
    """The first instruction to verify humanity in ``blocks``, or ``None``."""
    words = lexicon("signin")
    phrases, negators = words["humanity_phrases"], words["negators"]
    pattern = phrase_pattern(phrases)
    for number, block in enumerate(blocks):
        if _is_faq(block, words["faq_headings"]):
            continue
        unquoted = _QUOTED.sub(" ", block.text)
        for sentence in _SENTENCE_END.split(unquoted):
            folded = fold(sentence)
            if not folded or folded.endswith("?"):
                continue  # a question is not an instruction
            for match in pattern.finditer(folded):
                if not _negated(folded[: match.start()], negators):
                    return HumanityRequest(phrase=match.group(0), block=number)
    return None
