"""The pots as a table shows them (``Hand.pots_now()``, a view's ``pots``): the engine decides
them, once, for every page and client (issue 18, point 11). While betting a side pot starts
only where a live player is all-in (docs/rules.md, "Pots and awards"); at the showdown they are
the pots it splits; once over, the pots as awarded."""

from __future__ import annotations

import random

import pytest
from studtable import hilo, new_hand, play

from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand, Phase, Pot
from sevenstud.pots import build_pots, pots_as_they_stand

THREE = {
    0: "Kc Kd 9c | Ks | Jd | Ts | 2h",
    1: "Ac Ad Tc | Jc | 9d | Qs | Js",
    2: "2c 3d 4h | 6s | 7c | Th | Qd",
}


def test_a_bet_not_yet_called_is_no_side_pot() -> None:
    hand = play(new_hand(hilo(), [100, 100, 100], THREE), "2: bring-in", "0: complete")
    assert hand.pots_now() == [Pot(3 + 2 + 5, (0, 1, 2))]
    assert hand.pots() != hand.pots_now()  # by levels, the completion's chips are a pot of their own


def test_an_all_in_starts_a_side_pot_the_others_may_still_contest() -> None:
    hand = play(new_hand(hilo(), [100, 100, 8], THREE), "2: bring-in", "0: complete", "1: call", "2: call")
    play(hand, "0: bet", "1: call", "2: call")
    # seat 2 is all-in for 8 in all: a side pot of the 3 more that seats 0 and 1 each put in
    assert hand.stacks[2] == 0
    assert hand.pots_now() == [Pot(24, (0, 1, 2)), Pot(6, (0, 1))]
    play(hand, "0: bet")  # 5th street's bet of 10, not yet called: in the side pot still open
    assert hand.pots_now() == [Pot(24, (0, 1, 2)), Pot(16, (0, 1))]
    assert hand.view(1).pots == tuple(hand.pots_now())


@pytest.mark.parametrize("variant", [StudHiLo, Stud, Razz])
@pytest.mark.parametrize("seed", range(12))
def test_pots_now_hold_every_chip_and_only_live_seats_at_every_step(variant: type, seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    stacks = [rng.choice([6, 9, 14, 30, 200]) for _ in range(n)]
    hand = Hand(variant(Stakes(1, 2, 5, 10)), stacks, Deck.seeded(seed))
    while not hand.is_over:
        pots = hand.pots_now()
        assert sum(p.amount for p in pots) == hand.pot
        for pot in pots:
            assert pot.eligible and all(not hand.folded[s] for s in pot.eligible)
        if hand.phase is Phase.SHOWDOWN:
            assert pots == hand.pots()
        assert hand.view(None).pots == tuple(pots)
        legal = hand.legal_actions()
        hand.act(rng.choice(legal))
    assert hand.pots_now() == hand.final_pots


def test_once_nobody_can_bet_the_pots_are_the_showdowns() -> None:
    contributions, live = [8, 30, 30, 12], [True, True, True, False]
    assert pots_as_they_stand(contributions, live, [0, 0, 0, 5], [3]) == build_pots(contributions, live, [3])
