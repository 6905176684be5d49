"""The local best response (issue 17, point 3: how exploitable each bot is): it searches from
its own seat's view alone, and takes the action its rollouts value most."""

from __future__ import annotations

from sevenstud.bots import new_bot
from sevenstud.bots.simple import BET, start_level
from sevenstud.cards import CARDS, parse_cards
from sevenstud.deck import Deck
from sevenstud.events import ActionTaken, CardDealt
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import ActionKind, Hand
from sevenstud.sim.lbr import LocalBestResponse

GAME = StudHiLo(Stakes(1, 2, 5, 10))


def _seat0_gets(mine: str, theirs: str) -> Deck:
    # Heads-up the dealer deals in turn, seat 0 first: seat 0's cards are the even places.
    a, b = parse_cards(mine), parse_cards(theirs)
    return Deck.ordered([c for pair in zip(a, b, strict=True) for c in pair])


def test_a_world_keeps_every_card_the_seat_saw_and_deals_the_rest_from_the_unseen() -> None:
    hand = Hand(GAME, [500, 500], Deck.seeded(3))
    view = hand.view(hand.to_act)
    lbr = LocalBestResponse(["lbr", "rule"], GAME, [500, 500], seed=1)
    dealt = [e.card for e in view.events if isinstance(e, CardDealt)]
    seen = {c for c in dealt if c is not None}
    for _ in range(20):
        world = lbr._world(view)
        assert sorted(world) == list(range(52))
        for place, card in enumerate(dealt):
            if card is not None:
                assert world[place] == card
            else:
                assert world[place] not in seen


def test_it_decides_the_same_whatever_the_cards_it_cannot_see() -> None:
    # Rule (no bot reads what its seat may not see): two decks that differ only in the other
    # seat's down cards and the stub give the same decision and the same values.
    mine, theirs = "As 2s 3s 9h Td Jc Qs", "Kd Kh 7c 8c 5d 4h 2c"
    other = "6d 6h 7c 8c 5d 4h 2c"  # other down cards (the up cards the same)
    decisions = []
    for deck in (_seat0_gets(mine, theirs), _seat0_gets(mine, other)):
        hand = Hand(GAME, [500, 500], deck)
        while hand.to_act != 0:
            hand.act(new_bot("station").act(hand.view(hand.to_act)), hand.to_act)
        lbr = LocalBestResponse(["lbr", "station"], GAME, [500, 500], seed=9, rollouts=6)
        action = lbr.act(hand.view(0))
        decisions.append((action, lbr.last_values))
    assert decisions[0] == decisions[1]


def test_it_bets_the_nuts_into_a_calling_station() -> None:
    # Seat 0 makes a steel wheel (the best high and the best low); the station calls any bet.
    hand = Hand(GAME, [500, 500], _seat0_gets("As 2s 3s 4s 5s 9d Ks", "Kd Kh Qc Jd 8c 7h 9c"))
    station = new_bot("station")
    lbr = LocalBestResponse(["lbr", "station"], GAME, [500, 500], seed=2, rollouts=4)
    while hand.street < 7 or hand.to_act != 0:
        seat = hand.to_act
        assert seat is not None
        hand.act(station.act(hand.view(seat)), seat)
    action = lbr.act(hand.view(0))
    assert action.kind is ActionKind.BET
    check = next(a for a in lbr.last_values if a.kind is ActionKind.CHECK)
    assert lbr.last_values[action] > lbr.last_values[check]


def test_its_worlds_come_from_the_bots_range() -> None:
    # The rule bot completes facing a bring-in exactly when its start is worth a bet: every
    # world kept after it completed must give it such a start (and the seat's own cards).
    for seed in range(200):
        hand = Hand(GAME, [500, 500], Deck.seeded(seed))
        rule = new_bot("rule", seed=1)
        if hand.to_act != 0 or hand.legal_actions()[0].kind is not ActionKind.BRING_IN:
            continue
        hand.act(next(a for a in hand.legal_actions() if a.kind is ActionKind.BRING_IN), 0)
        reply = rule.act(hand.view(1))
        if reply.kind is ActionKind.COMPLETE:
            hand.act(reply, 1)
            break
    else:
        raise AssertionError("no deal of 200 where the rule bot completes against a bring-in")
    view = hand.view(0)
    lbr = LocalBestResponse(["lbr", "rule"], GAME, [500, 500], seed=3, rollouts=8)
    history = [(e.seat, e.action) for e in view.events if isinstance(e, ActionTaken)]
    worlds = lbr._worlds(view, history, 0)
    assert lbr.last_kept == len(worlds) >= 1
    door = hand.cards[1][2]
    for world in worlds:
        theirs = [CARDS[world[1]], CARDS[world[3]], door]  # seat 1: places 1 and 3, then its door
        dead = [hand.cards[0][2]]
        level, _ = start_level(StudHiLo, theirs, dead, [[hand.cards[0][2]]])
        assert level >= BET, (theirs, level)
        assert world[0] == hand.cards[0][0] and world[2] == hand.cards[0][1]
