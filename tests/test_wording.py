"""A seat's doings worded once (sevenstud.wording): the card room's log, the hand downloads and
the terminal table say an event in the same sentence, in every language (tests/test_terminal.py
checks the terminal's transcript says a bot's ante in these words)."""

from __future__ import annotations

import re

import pytest

from sevenstud import wording
from sevenstud.actions import Action, ActionKind
from sevenstud.events import ActionTaken, AntePosted, BetReturned, HandMucked
from sevenstud.i18n import LANGUAGES, translation
from sevenstud.server.tables import presenter


def test_the_card_rooms_log_says_an_event_in_the_one_wording() -> None:
    """Rule: the server's table log and downloads word an event with sevenstud.wording alone."""
    assert presenter.action_line is wording.action_line


def test_every_sentence_said_to_you_is_said_of_a_seat_with_the_same_parts() -> None:
    """Rule: "You call 3" and "Ann calls 3" are one event's two persons: same keys, same parts."""
    assert set(wording.OF_YOU) <= set(wording.OF_A_SEAT)
    for key, you in wording.OF_YOU.items():
        assert set(re.findall(r"\{(\w+)\}", you)) == set(re.findall(r"\{(\w+)\}", wording.OF_A_SEAT[key]))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_action_is_worded_in_every_language(lang: str) -> None:
    """Rule: each kind of action a log says has its sentence, translated (English aside)."""
    tr = translation(lang)
    for kind in ActionKind:
        event = ActionTaken(1, 3, Action(kind, 10 if kind.value in ("bet", "raise") else None), False, 4)
        line = wording.action_line("Ann", event, tr)
        assert line is not None and line.startswith("Ann"), (kind, line)
        if lang != "en":
            assert line != wording.action_line("Ann", event), (lang, kind)
    assert wording.action_line("Ann", AntePosted(1, 2, True)) == "Ann posts the ante of 2 and is all-in"
    assert wording.action_line("Ann", BetReturned(1, 5)) == "5 uncalled returned to Ann"
    assert wording.action_line("Ann", HandMucked(1)) == "Ann mucks"
