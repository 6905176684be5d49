"""The Hand API: illegal actions (with their reasons, changing nothing), replay, views and bad
set-ups."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sevenstud.cards import parse_cards
from sevenstud.deck import Deck
from sevenstud.games import Stakes, Stud, StudHiLo
from sevenstud.hand import (
    Action,
    ActionKind,
    ActionTaken,
    CardDealt,
    Hand,
    HandError,
    HandShown,
    IllegalAction,
    Phase,
)
from sevenstud.wire import hand_from_record, hand_to_record

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAME = StudHiLo(STAKES)

# Seat 0 brings in (2c); seat 1 has the best board from 4th street on.
THREE = {
    0: "Kc Qd 2c | 7d | 9h | Js | 4s",
    1: "Ac Ad 5h | Kh | 8c | 3h | 6s",
    2: "Qs Qh 6d | Td | Qc | 3c | 5c",
}


def deal(hands: dict[int, str]) -> Deck:
    """The deck that deals ``hands`` (seat -> two down, door, 4th, 5th, 6th up, 7th down)."""
    cards = {seat: parse_cards(text.replace("|", " ")) for seat, text in hands.items()}
    order = [cards[s][i] for i in range(7) for s in sorted(cards) if len(cards[s]) > i]
    return Deck.ordered(order)


def new_hand(stacks: list[int] | None = None, game: Any = GAME, **kwargs: Any) -> Hand:
    return Hand(game, stacks or [100, 100, 100], deal(THREE), **kwargs)


def play(hand: Hand, *actions: str) -> Hand:
    for text in actions:
        seat, action = text.split(":")
        hand.act(action.strip(), int(seat))
    return hand


def snapshot(hand: Hand) -> tuple[object, ...]:
    return copy.deepcopy(
        (
            hand.stacks,
            hand.events,
            hand.to_act,
            hand.legal_actions(),
            hand.actions,
            hand.street,
            hand.phase,
            hand.contributed,
            hand.street_bets,
            hand.folded,
            hand.cards,
            hand.awards,
            hand.deck.position,
            hand.pot,
            hand.pots(),
            hand.shown,
            hand.mucked,
            [hand.view(s) for s in (None, *range(hand.n))],
        )
    )


def assert_illegal(hand: Hand, action: str | Action, match: str, seat: int | None = None) -> None:
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match=match):
        hand.act(action, seat)
    assert snapshot(hand) == before
    assert not hand.can(action, seat)


# --- illegal actions -------------------------------------------------------------------------


def test_acting_out_of_turn_is_illegal() -> None:
    hand = new_hand()
    assert_illegal(hand, "bring-in", r"seat 1 cannot act now: it is seat 0's turn", seat=1)
    play(hand, "0: bring-in")
    assert_illegal(hand, "call", r"seat 2 cannot act now: it is seat 1's turn", seat=2)


def test_check_facing_a_bet_is_illegal() -> None:
    hand = play(new_hand(), "0: bring-in")
    assert_illegal(hand, "check", "cannot check facing a bet of 2")
    play(hand, "1: call", "2: call", "1: bet")
    assert_illegal(hand, "check", "cannot check facing a bet of 5")


def test_raise_after_the_cap_is_illegal() -> None:
    hand = play(new_hand(), "0: bring-in", "1: complete", "2: raise", "0: raise", "1: raise")
    assert_illegal(hand, "raise", r"capped \(4 bets and raises made\)")
    assert_illegal(hand, "raise to 25", "capped")


def test_wrong_amount_is_illegal() -> None:
    hand = play(new_hand(), "0: bring-in", "1: call", "2: call")
    assert_illegal(hand, "bet 7", "the amount must be 5")
    assert_illegal(hand, "bet 10", "the amount must be 5")
    play(hand, "1: bet")
    assert_illegal(hand, "raise to 15", "the amount must be 10")
    assert_illegal(hand, "call 3", "the amount must be 5")
    assert_illegal(hand, Action(ActionKind.RAISE, 0), "the amount must be 10")


def test_unknown_action_text_is_illegal() -> None:
    hand = new_hand()
    assert_illegal(hand, "dance", "unknown action 'dance'")
    assert_illegal(hand, "", "an empty action")
    assert_illegal(hand, "raise to lots", "bad amount")
    assert_illegal(hand, "fold 5", "fold takes no amount")


def test_acting_after_the_hand_is_over_is_illegal() -> None:
    hand = play(new_hand(), "0: bring-in", "1: fold", "2: fold")
    assert hand.is_over and hand.to_act is None and hand.legal_actions() == []
    assert_illegal(hand, "check", "the hand is over")
    assert_illegal(hand, "fold", "the hand is over", seat=0)


def test_fold_when_nothing_to_call_is_illegal_with_the_option_off() -> None:
    game = StudHiLo(Stakes(1, 2, 5, 10), fold_without_bet=False)
    hand = play(new_hand(game=game), "0: bring-in", "1: call", "2: call")
    assert_illegal(hand, "fold", "nothing to call: check instead")


def test_fold_when_nothing_to_call_is_legal_by_default() -> None:
    hand = play(new_hand(), "0: bring-in", "1: call", "2: call")
    assert hand.street == 4 and hand.to_act is not None
    seat = hand.to_act
    assert [str(a) for a in hand.legal_actions()][:2] == ["fold", "check"]
    hand.act("fold")
    assert hand.folded[seat]


def test_bring_in_must_be_posted_before_anything_else() -> None:
    hand = new_hand()
    assert_illegal(hand, "call", "the bring-in must be posted or completed first")
    assert_illegal(hand, "fold", "the bring-in must be posted or completed first")
    assert_illegal(hand, "check", "the bring-in must be posted or completed first")


def test_raise_not_reopened_is_illegal() -> None:
    hand = Hand(
        GAME,
        [100, 17, 100],
        deal({0: "2h 3h Ah | Kh | Qh", 1: "4c 5c 9d | 8d | 7s", 2: "6c Tc 3d | 4d | 5d"}),
    )
    play(hand, "2: bring-in", "0: call", "1: call", "0: check", "1: check", "2: check")
    play(hand, "0: bet", "1: raise to 14", "2: call")
    assert_illegal(hand, "raise to 24", "not reopened to this seat")


def test_ambiguous_amount_must_be_named() -> None:
    hand = Hand(Stud(STAKES), [100, 100], deal({0: "Kc Qd 2c | 7d", 1: "Ac Ad 5h | 5d"}))
    play(hand, "0: bring-in", "1: call")
    assert_illegal(hand, "bet", "must say how much to bet: 5 or 10")
    hand.act("bet 10")
    assert hand.street_bets == [0, 10]


def test_betting_actions_at_the_showdown_are_illegal() -> None:
    hand = play(new_hand(auto_showdown=False), "0: bring-in", "1: call", "2: call")
    for _ in range(4):
        play(hand, "1: check", "2: check", "0: check")
    assert hand.phase is Phase.SHOWDOWN
    assert_illegal(hand, "check", "may only show or muck")
    assert_illegal(hand, "show", "seat 0 cannot act now", seat=0)  # seat 1 acted first on 7th


def test_show_or_muck_during_betting_is_illegal() -> None:
    hand = play(new_hand(), "0: bring-in", "1: call", "2: call")
    assert_illegal(hand, "show", "show is not possible now")
    assert_illegal(hand, "muck", "muck is not possible now")


def test_a_legal_action_is_accepted_with_or_without_its_amount() -> None:
    hand = new_hand()
    assert hand.verify("bring in") == Action(ActionKind.BRING_IN, 2)
    assert hand.verify("Bring-In 2", 0) == Action(ActionKind.BRING_IN, 2)
    play(hand, "0: bring-in")
    assert hand.can("call") and hand.can("call 2") and hand.can("call", 1)
    assert hand.verify("complete") == Action(ActionKind.COMPLETE, 5)
    assert hand.verify("complete to 5") == Action(ActionKind.COMPLETE, 5)


# --- replay ----------------------------------------------------------------------------------


def test_replay_reproduces_a_hand_from_its_deck_and_actions() -> None:
    hand = play(
        new_hand(),
        "0: bring-in",
        "1: complete",
        "2: call",
        "0: call",
        "1: bet",
        "2: raise",
        "0: fold",
        "1: call",
        "1: check",
        "2: bet",
        "1: call",
        "1: check",
        "2: check",
        "1: bet",
        "2: call",
    )
    assert hand.is_over
    again = Hand.replay(GAME, [100, 100, 100], hand.deck.cards, hand.actions)
    assert again.events == hand.events
    assert again.finishing_stacks == hand.finishing_stacks
    assert again.awards == hand.awards
    texts = Hand.replay(
        GAME, [100, 100, 100], Deck(hand.deck.cards), [str(a) for _, a in hand.actions]
    )
    assert texts.events == hand.events


def test_replay_with_a_manual_showdown() -> None:
    hand = play(new_hand(auto_showdown=False), "0: bring-in", "1: call", "2: call")
    for _ in range(4):
        play(hand, "1: check", "2: check", "0: check")
    play(hand, "1: show", "2: show", "0: muck")
    again = Hand.replay(GAME, [100, 100, 100], hand.deck.cards, hand.actions, auto_showdown=False)
    assert again.events == hand.events and again.stacks == hand.stacks


def test_replay_checks_the_seat_of_each_action() -> None:
    hand = play(new_hand(), "0: bring-in", "1: call")
    actions = [(1, a) if s == 0 else (s, a) for s, a in hand.actions]
    with pytest.raises(IllegalAction, match="seat 1 cannot act now"):
        Hand.replay(GAME, [100, 100, 100], hand.deck.cards, actions)


# --- views -----------------------------------------------------------------------------------


def check_views(hand: Hand) -> None:
    for viewer in (None, 0, 1, 2):
        view = hand.view(viewer)
        for seat in range(hand.n):
            visible = seat == viewer or seat in hand.shown
            for card, up, seen in zip(
                hand.cards[seat], hand.face_up[seat], view.cards[seat], strict=True
            ):
                assert seen == (card if up or visible else None)
        for event in view.events:
            if isinstance(event, CardDealt) and not event.face_up and event.seat != viewer:
                assert event.card is None
            if isinstance(event, HandShown):
                assert event.seat in hand.shown
        if viewer is None or viewer != hand.to_act:
            assert view.legal_actions == ()
        else:
            assert list(view.legal_actions) == hand.legal_actions()


def test_views_never_show_another_seats_down_cards() -> None:
    hand = new_hand()
    script = (
        ["0: bring-in", "1: complete", "2: call", "0: call"]
        + ["1: check", "2: check", "0: check"] * 3
        + ["1: bet", "2: call", "0: call"]
    )
    check_views(hand)
    for step in script:
        play(hand, step)
        check_views(hand)
    assert hand.is_over
    # Seat 0 (king high, no low) mucked: its down cards stay hidden from the others.
    assert 0 not in hand.shown
    assert hand.view(1).cards[0][:2] == (None, None) and hand.view(1).cards[0][6] is None
    assert hand.view(0).cards[0][:2] == tuple(hand.cards[0][:2])


def test_view_since_gives_the_events_that_follow() -> None:
    hand = new_hand()
    version = hand.view(1).version
    play(hand, "0: bring-in")
    assert len(hand.view(1, since=version).events) == 1
    assert hand.view(1, since=version).version == len(hand.events)


# --- bad set-ups -----------------------------------------------------------------------------


@pytest.mark.parametrize("stacks", [[100, 0], [100, -5], [100, 10.5], [100, True], [100, "50"]])
def test_bad_stacks_raise_hand_error(stacks: list[Any]) -> None:
    with pytest.raises(HandError, match=r"seat 1's stack must be (a whole number of chips|at least 1)"):
        Hand(GAME, stacks, Deck.seeded(1))


@pytest.mark.parametrize("players", [0, 1, 9, 10])
def test_wrong_number_of_players_raises_hand_error(players: int) -> None:
    with pytest.raises(HandError, match=f"2 to 8 players, not {players}"):
        Hand(GAME, [100] * players, Deck.seeded(1))


def test_a_used_deck_or_a_deck_and_a_seed_raise_hand_error() -> None:
    deck = Deck.seeded(1)
    deck.deal()
    with pytest.raises(HandError, match="dealt from already"):
        Hand(GAME, [100, 100], deck)
    with pytest.raises(HandError, match="not both"):
        Hand(GAME, [100, 100], Deck.seeded(1), seed=1)


def test_finishing_stacks_only_once_the_hand_is_over() -> None:
    hand = new_hand()
    with pytest.raises(HandError, match="not over yet"):
        _ = hand.finishing_stacks
    play(hand, "0: bring-in", "1: fold", "2: fold")
    assert hand.finishing_stacks == (102, 99, 99)  # the antes; the bring-in comes back


def test_seeded_hands_are_repeatable() -> None:
    a = Hand(GAME, [100, 100, 100], seed=42)
    b = Hand(GAME, [100, 100, 100], seed=42)
    assert a.events == b.events and a.deck.cards == b.deck.cards


def test_describe_gives_a_line_for_every_kind_of_event() -> None:
    from sevenstud.hand import describe

    seen: dict[str, str] = {}
    for seed in range(60):
        hand = Hand(StudHiLo(STAKES), [3, 40, 100, 100, 100, 100, 100, 100], Deck.seeded(seed))
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.act(legal[seed % len(legal)])
        for event in hand.events:
            seen.setdefault(type(event).__name__, describe(event))
    assert {"AntePosted", "CardDealt", "StreetStarted", "ActionTaken", "PotAwarded", "HandEnded"} <= set(seen)
    assert seen["AntePosted"] == "seat 0 posts the ante 1"
    assert seen["HandEnded"].startswith("the hand is over: stacks ")
    assert all(line for line in seen.values())
    assert len(set(seen.values())) == len(seen)


def test_action_taken_counts_the_chips_each_action_put_in() -> None:
    """ActionTaken.chips is what the action itself put in; action.amount the street total."""
    hand = new_hand([100, 100, 100])
    play(hand, "0: bring-in", "1: complete", "2: call", "0: call")
    hand.act("bet")  # 4th street
    hand.act("raise")
    taken = [e for e in hand.events if isinstance(e, ActionTaken)]
    for event in taken:
        assert event.chips == event[-1]  # the last field: positional readers keep working
    street3 = [(e.action.kind.value, e.action.amount, e.chips) for e in taken if e.street == 3]
    assert street3 == [("bring-in", 2, 2), ("complete", 5, 5), ("call", 5, 5), ("call", 5, 3)]
    street4 = [(e.action.amount, e.chips) for e in taken if e.street == 4]
    assert street4 == [(5, 5), (10, 10)]
    hand.act("fold")
    assert [e for e in hand.events if isinstance(e, ActionTaken)][-1].chips == 0


def test_the_hand_over_phase_is_not_named_after_the_complete_action() -> None:
    hand = new_hand()
    play(hand, "0: bring-in", "1: fold", "2: fold")
    assert hand.phase is Phase.OVER and hand.phase.value == "over"
    assert "COMPLETE" not in Phase.__members__


@pytest.mark.parametrize("seat", [3, -1, True, "0", 1.0])
def test_a_view_for_a_seat_not_at_the_hand_raises_hand_error(seat: Any) -> None:
    hand = new_hand()
    before = snapshot(hand)
    with pytest.raises(HandError, match="no seat"):
        hand.view(seat)
    with pytest.raises(HandError, match="since must be"):
        hand.view(0, since=-1)
    assert snapshot(hand) == before


def test_to_record_and_from_record_give_the_same_hand() -> None:
    hand = new_hand()
    play(hand, "0: bring-in", "1: complete", "2: call", "0: call")
    again = hand_from_record(hand_to_record(hand))
    assert again.events == hand.events and again.to_act == hand.to_act
