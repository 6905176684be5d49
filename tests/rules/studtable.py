"""Helpers for the rule tests: deal exact stud hands and play them out.

Cards are dealt one at a time clockwise from seat 0: first down card to everyone, second down
card to everyone, the door card; then one card each on 4th, 5th, 6th and 7th street to the
players still in. :func:`deal` turns per-seat hands written as a card room writes them
(``"As Ks | Qs | Js | Ts | 9s | 8s"``: two down and the door card, 4th, 5th, 6th up, 7th down; the
``|`` are only for the eye) into that dealing order. A seat that folds early is simply given
fewer cards.

>>> deal({0: "As Ks Qs", 1: "2c 3c 4c"}).cards[:6]
(As, 2c, Ks, 3c, Qs, 4c)
>>> deal({0: "As Ks Qs | Js", 1: "2c 3c 4c"}, community="Th").cards[:8]
(As, 2c, Ks, 3c, Qs, 4c, Js, Th)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sevenstud.dealing import deck_for
from sevenstud.deck import Deck
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import ActionTaken, Event, Hand, PotAwarded

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
"""The stakes of most tests: ante 1, bring-in 2, small bet 5, big bet 10."""


def hilo(**options: object) -> StudHiLo:
    return StudHiLo(STAKES, **options)  # type: ignore[arg-type]


def stud(**options: object) -> Stud:
    return Stud(STAKES, **options)  # type: ignore[arg-type]


def razz(**options: object) -> Razz:
    return Razz(STAKES, **options)  # type: ignore[arg-type]


def deal(hands: Mapping[int, str], community: str = "") -> Deck:
    """The deck that deals ``hands`` (seat -> its cards in dealing order), then ``community``."""
    seats = sorted(hands)
    assert seats == list(range(len(seats))), "give every seat from 0 up its cards"
    return deck_for([hands[seat].replace("|", " ") for seat in seats], community or None)


def new_hand(
    game: Game, stacks: Sequence[int], hands: Mapping[int, str], community: str = "", **kwargs: bool
) -> Hand:
    return Hand(game, stacks, deal(hands, community), **kwargs)


def play(hand: Hand, *actions: str) -> Hand:
    """Apply ``actions`` in turn; ``"2: call"`` also checks that seat 2 is the one to act."""
    for text in actions:
        if ":" in text:
            seat, action = text.split(":", 1)
            hand.act(action.strip(), int(seat))
        else:
            hand.act(text)
    return hand


def check_down(hand: Hand) -> Hand:
    """Everybody checks until the hand is over or somebody must do something else."""
    while not hand.is_over and any(a.kind.value == "check" for a in hand.legal_actions()):
        hand.act("check")
    return hand


def won(hand: Hand) -> dict[int, int]:
    """Chips won per seat (every award added up)."""
    out: dict[int, int] = {}
    for award in hand.awards:
        out[award.seat] = out.get(award.seat, 0) + award.amount
    return out


def awarded(hand: Hand) -> list[tuple[int, int, int, str]]:
    """The awards as (seat, amount, pot, share), in the order the hand made them."""
    return [(e.seat, e.amount, e.pot, e.share) for e in hand.events if isinstance(e, PotAwarded)]


def actions_on(hand: Hand, street: int) -> list[tuple[int, str]]:
    return [
        (e.seat, str(e.action))
        for e in hand.events
        if isinstance(e, ActionTaken) and e.street == street
    ]


def of_type(events: Sequence[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]
