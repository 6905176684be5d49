"""Hidden information is safe by default: random hands of every game (2-8 players, short stacks
so that all-ins and side pots happen, auto_showdown on and off), and after every action every
public method's output, for every seat and a spectator, is searched for a down card it may
not hold: another seat's down card before that seat showed it or turned it face up, or any
down card of a hand that was mucked."""

from __future__ import annotations

import random
from collections.abc import Iterator

from sevenstud.cards import Card
from sevenstud.deck import Deck
from sevenstud.events import (
    CardDealt,
    HandShown,
    HandTurnedUp,
    redact,
    redact_all,
)
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES: tuple[Game, ...] = (StudHiLo(STAKES), Stud(STAKES), Razz(STAKES))
HANDS = 450  # about 4 s on one core: each hand is checked after every action, every viewer


def _cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere inside ``value`` (tuples, lists, dicts, named tuples, dataclasses)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (str, int, float, type(None))):
        return
    elif isinstance(value, dict):
        for item in value.values():
            yield from _cards_in(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _cards_in(item)
    elif hasattr(value, "__slots__"):
        for name in getattr(type(value), "__slots__", ()):
            yield from _cards_in(getattr(value, name, None))


def _hidden_from(hand: Hand, viewer: int | None) -> set[Card]:
    """The down cards ``viewer`` may not know now: another seat's, unless that seat's hand was
    shown or turned face up; a mucked hand's, whoever holds it, when shown to another."""
    opened = set(hand.shown) | hand.turned_up
    hidden: set[Card] = set()
    for seat in range(hand.n):
        if seat == viewer or seat in opened:
            continue
        for card, up in zip(hand.cards[seat], hand.face_up[seat], strict=True):
            if not up:
                hidden.add(card)
    return hidden


def _check(hand: Hand, returned: list[object], hands_seen: int) -> None:
    hidden_from_spectator = _hidden_from(hand, None)
    leaked = hidden_from_spectator & set(_cards_in(returned))
    assert not leaked, f"hand {hands_seen}: act() returned down cards {leaked}"
    public = (hand.legal_actions(), hand.pots(), hand.awards if hand.is_over else ())
    assert not set(_cards_in(public)) & hidden_from_spectator
    version = len(hand.events)
    for viewer in (None, *range(hand.n)):
        hidden = _hidden_from(hand, viewer)
        for since in (0, max(0, version - 3)):
            view = hand.view(viewer, since=since)
            leaked = hidden & set(_cards_in(view))
            assert not leaked, f"hand {hands_seen}: view({viewer}, since={since}) shows {leaked}"
        if viewer is not None:  # what the seat itself holds is in its own view, all of it
            assert [c for c in hand.view(viewer).cards[viewer] if c is None] == []


def test_no_public_method_shows_a_down_card_the_viewer_may_not_know() -> None:
    """The hidden-information rule (docs/rules.md, "Who sees what"), checked everywhere."""
    rng = random.Random(2024)
    turned_up = mucked = side_pots = 0
    for number in range(HANDS):
        game = GAMES[number % 3]
        players = rng.randint(2, 8)
        stacks = [rng.randint(1, 60) for _ in range(players)]
        auto = number % 2 == 0
        hand = Hand(game, stacks, Deck.seeded(number), auto_showdown=auto)
        _check(hand, [], number)
        while hand.to_act is not None:
            returned = hand.act(rng.choice(hand.legal_actions()))
            _check(hand, list(returned), number)
        turned_up += bool(hand.turned_up)
        mucked += bool(hand.mucked)
        side_pots += len(hand.final_pots) > 1
        for seat in hand.mucked:
            if seat not in hand.turned_up:  # a hand turned up was public before it was mucked
                down = {c for c, up in zip(hand.cards[seat], hand.face_up[seat], strict=True) if not up}
                for viewer in (None, *(s for s in range(hand.n) if s != seat)):
                    assert not down & set(_cards_in(hand.view(viewer)))
    # The random hands reach the cases that matter.
    assert turned_up > 60 and mucked > 30 and side_pots > 40, (turned_up, mucked, side_pots)


def test_act_returns_a_spectators_events_and_the_log_keeps_every_card() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], Deck.seeded(3))
    while hand.street == 3:
        returned = hand.act("call" if hand.can("call") else hand.legal_actions()[0])
    dealt = [e for e in returned if isinstance(e, CardDealt)]
    assert len(dealt) == 3 and all(e.card is not None and e.face_up for e in dealt)  # 4th: up
    while hand.street < 7:
        returned = hand.act("call" if hand.can("call") else "check")
    seventh = [e for e in returned if isinstance(e, CardDealt)]
    assert seventh and all(e.card is None and not e.face_up for e in seventh)
    full = [e for e in hand.events if isinstance(e, CardDealt) and e.street == 7]
    assert all(e.card is not None for e in full)  # the engine's own record is whole


def test_redact_shows_a_down_card_to_its_owner_alone_until_turned_up() -> None:
    """The one rule: a down card to its owner only, until its hand is shown or turned up."""
    card = Card.parse("Ah")
    down = CardDealt(2, 7, card, False)
    assert redact(down, 2) is down
    assert redact(down, 0) == CardDealt(2, 7, None, False)
    assert redact(down, None) == CardDealt(2, 7, None, False)
    assert redact(down, 0, frozenset({2})) is down  # its hand was turned face up before
    up = CardDealt(1, 4, card, True)
    assert redact(up, None) is up
    shown = HandShown(2, (card,), "a pair", None)
    assert redact(shown, None) is shown
    turned = HandTurnedUp(2, (card,))
    later = CardDealt(2, 7, Card.parse("Kd"), False)
    assert redact_all([down, turned, later], 0) == [CardDealt(2, 7, None, False), turned, later]
