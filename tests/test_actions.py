"""The numbered action set and its legal mask (for bots and learning), and Hand.clone."""

from __future__ import annotations

import copy
import os
import random

import pytest

from sevenstud.actions import (
    ACTION_COUNT,
    AGGRESSIVE_KINDS,
    Action,
    ActionIndex,
    ActionKind,
    IllegalAction,
    action_for,
    legal_mask,
    numbered,
)
from sevenstud.betting import BettingRound
from sevenstud.cards import parse_cards
from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand
from sevenstud.showdown import Showdown
from sevenstud.views import ViewCache
from sevenstud.wire import hand_from_record, hand_to_record

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def _dealt(hands: dict[int, str]) -> Deck:
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    return Deck.ordered([cards[s][i] for i in range(7) for s in sorted(cards) if len(cards[s]) > i])


def test_the_action_set_is_fixed_and_numbered() -> None:
    assert ACTION_COUNT == 11
    assert [i.name for i in ActionIndex] == [
        "FOLD", "CHECK", "CALL", "BRING_IN", "COMPLETE", "BET", "RAISE",
        "BET_BIG", "RAISE_BIG", "SHOW", "MUCK",
    ]  # fmt: skip
    assert list(ActionIndex) == list(range(ACTION_COUNT))
    assert set(AGGRESSIVE_KINDS) == {ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE}


def test_the_mask_marks_exactly_the_legal_actions_of_the_seat_to_act() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], Deck.seeded(1))
    seat = hand.to_act
    assert seat is not None
    mask = legal_mask(hand.view(seat))
    assert len(mask) == ACTION_COUNT
    assert [ActionIndex(i).name for i, ok in enumerate(mask) if ok] == ["BRING_IN", "COMPLETE"]
    assert action_for(ActionIndex.COMPLETE, hand.view(seat)) == Action(ActionKind.COMPLETE, 5)
    for other in (None, *(s for s in range(3) if s != seat)):
        assert not any(legal_mask(hand.view(other)))  # not their turn: nothing is legal


def test_an_index_that_is_not_legal_is_an_illegal_action_naming_it() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], Deck.seeded(1))
    view = hand.view(hand.to_act)
    with pytest.raises(IllegalAction, match=r"action index 6 \(RAISE\) is not legal for seat"):
        action_for(ActionIndex.RAISE, view)
    with pytest.raises(IllegalAction, match=r"action index 11 is not one of 0\.\.10"):
        action_for(11, view)
    with pytest.raises(IllegalAction, match="action index True"):
        action_for(True, view)
    with pytest.raises(IllegalAction, match="for a spectator"):
        action_for(ActionIndex.BRING_IN, hand.view(None))


def test_stud_4th_street_open_pair_gives_a_small_and_a_big_bet() -> None:
    """Stud's double bet on an open pair (docs/rules.md): BET by the small bet, BET_BIG by the big."""
    deck = _dealt({0: "Kc Qd 2c 7d 9h Js 4s", 1: "Ac Ad 5h 5s 8c 3h 6s"})
    hand = Hand(Stud(STAKES), [100, 100], deck)
    hand.act("bring-in")
    hand.act("call")
    view = hand.view(1)  # the open pair of fives acts first on 4th street
    assert view.to_act == 1
    legal = numbered(view.legal_actions)
    assert legal[ActionIndex.BET] == Action(ActionKind.BET, 5)
    assert legal[ActionIndex.BET_BIG] == Action(ActionKind.BET, 10)
    hand.act(action_for(ActionIndex.BET, view), 1)
    raises = numbered(hand.view(0).legal_actions)
    assert raises[ActionIndex.RAISE] == Action(ActionKind.RAISE, 10)
    assert raises[ActionIndex.RAISE_BIG] == Action(ActionKind.RAISE, 15)


def test_show_and_muck_are_numbered_without_auto_showdown() -> None:
    hand = Hand(Razz(STAKES), [100, 100], Deck.seeded(4), auto_showdown=False)
    while hand.phase.value == "betting":
        hand.act(next(a for a in ("bring-in", "call", "check") if hand.can(a)))
    view = hand.view(hand.to_act)
    assert [ActionIndex(i).name for i, ok in enumerate(legal_mask(view)) if ok] == ["SHOW", "MUCK"]


def test_random_play_by_index_matches_the_legal_actions() -> None:
    rng = random.Random(9)
    for number in range(200):
        game = (StudHiLo(STAKES), Stud(STAKES), Razz(STAKES))[number % 3]
        hand = Hand(game, [rng.randint(3, 80) for _ in range(rng.randint(2, 8))], Deck.seeded(number))
        while hand.to_act is not None:
            view = hand.view(hand.to_act)
            mask = legal_mask(view)
            chosen = [action_for(i, view) for i, ok in enumerate(mask) if ok]
            assert sorted(chosen, key=str) == sorted(hand.legal_actions(), key=str)
            hand.act(rng.choice(chosen))


# ------------------------------------------------------------------ Hand.clone


def _state(hand: Hand) -> tuple[object, ...]:
    return (
        hand.stacks, hand.contributed, hand.street_bets, hand.folded, hand.cards, hand.face_up,
        hand.events, hand.actions, hand.to_act, hand.street, hand.phase, hand.awards,
        hand.deck.position, hand.legal_actions(), [hand.view(s) for s in (None, *range(hand.n))],
    )  # fmt: skip


def test_a_clone_plays_on_independently_of_the_original() -> None:
    rng = random.Random(5)
    for number in range(60):
        hand = Hand(StudHiLo(STAKES), [rng.randint(5, 60) for _ in range(5)], Deck.seeded(number))
        for _ in range(rng.randint(0, 12)):
            if hand.to_act is None:
                break
            hand.act(rng.choice(hand.legal_actions()))
        hand.view(0)  # fill the view cache, which the clone copies
        before = copy.deepcopy(_state(hand))
        twin = hand.clone()
        assert _state(twin) == before
        seed = rng.random()
        plays = []
        # The clone plays on as the same hand played again from its record would (a deep copy
        # is a clone: Hand.__deepcopy__).
        for h in (twin, hand_from_record(hand_to_record(hand))):
            r = random.Random(seed)
            while h.to_act is not None:
                h.act(r.choice(h.legal_actions()))
            plays.append(_state(h))
        assert plays[0] == plays[1]
        assert _state(hand) == before  # the original did not move


@pytest.mark.skipif(
    bool(os.environ.get("SEVENSTUD_COMPILED")),
    reason="vars(): the compiled Hand has no __dict__ (tests/test_compiled.py clones it there)",
)
def test_a_clone_shares_nothing_that_changes() -> None:
    hand = Hand(StudHiLo(STAKES), [50, 50, 50], Deck.seeded(2))
    hand.act("bring-in")
    twin = hand.clone()
    assert set(vars(twin)) == set(vars(hand))  # every attribute is carried over
    immutable = (int, str, bool, tuple, type(None), Deck)
    for name, value in vars(hand).items():
        if isinstance(value, (list, dict, set, BettingRound, Showdown, ViewCache, Deck)) and name not in (
            "_legal",
        ):
            assert getattr(twin, name) is not value, name
        elif not isinstance(value, immutable):
            assert getattr(twin, name) is value or getattr(twin, name) == value, name
    assert twin.deck is not hand.deck and twin.deck.cards == hand.deck.cards
