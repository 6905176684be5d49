"""No bot reads what its seat may not see (issue 17, point 1): every kind is fed only views
built for its own seat, and its decisions do not change when every card hidden from that seat
(the other seats' down cards and the stub) is replaced at random.

How: a hand is played once (deck A), recording every action. Deck B is deck A with the cards
this seat never sees shuffled among those places: the other seats' down cards and the cards
never dealt. The hand is replayed on deck B, the other seats repeating their actions from A; at
each of its turns in the betting a fresh bot of the same kind and seed must see the very same
view and choose the very same action as in A.
"""

from __future__ import annotations

import random

import pytest

from sevenstud.bots import BOT_KINDS, Bot, new_bot
from sevenstud.bots.registry import MATCH_KINDS
from sevenstud.deck import Deck
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Action, Hand, Phase, SeatView

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES: list[Game] = [StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)]


def _hidden_from(hand: Hand, seat: int) -> list[int]:
    """The places in the deck of every card ``seat`` never saw (the hand is over)."""
    place = {card: i for i, card in enumerate(hand.deck.cards)}
    hidden = [
        place[card]
        for other in range(hand.n)
        if other != seat
        for card, up in zip(hand.cards[other], hand.face_up[other], strict=True)
        if not up
    ]
    shown = {c for other in set(hand.shown) | hand.turned_up for c in hand.cards[other]}
    hidden = [p for p in hidden if hand.deck.cards[p] not in shown]
    return hidden + list(range(hand.deck.position, 52))


def _decisions(
    hand: Hand, seat: int, bot: Bot, script: list[tuple[int, Action]]
) -> list[tuple[SeatView, Action]]:
    """Play ``hand``: ``seat`` by ``bot`` (what it sees and does at each betting turn is
    returned), the others from ``script``."""
    seen: list[tuple[SeatView, Action]] = []
    for actor, action in script:
        if hand.is_over:
            break
        assert hand.to_act == actor
        if actor == seat and hand.phase is Phase.BETTING:
            view = hand.view(seat)
            chosen = bot.act(view)
            seen.append((view, chosen))
        hand.act(action, actor)
    return seen


@pytest.mark.parametrize("kind", list(MATCH_KINDS))  # the sparring kinds too (issue 37)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_decisions_do_not_depend_on_cards_the_seat_cannot_see(kind: str, game: Game) -> None:
    rng = random.Random(f"hidden-{kind}-{game.code}")
    compared = 0
    for number in range(6 if "equity" in kind else 12):
        n = rng.randint(2, 6)
        seat = rng.randrange(n)
        seed = rng.randrange(1 << 30)
        deck_a = Deck.seeded(f"hidden-{game.code}-{number}")
        # Deep stacks: nobody is all in, so no hand is turned face up during the betting.
        hand_a = Hand(game, [1000] * n, deck_a)
        bots = [new_bot(kind if s == seat else rng.choice(list(BOT_KINDS)), seed=seed + s) for s in range(n)]
        while not hand_a.is_over:
            actor = hand_a.to_act
            assert actor is not None
            hand_a.act(bots[actor].act(hand_a.view(actor)), actor)
        script = list(hand_a.actions)
        places = _hidden_from(hand_a, seat)
        cards = list(deck_a.cards)
        moved = [cards[p] for p in places]
        rng.shuffle(moved)
        for p, card in zip(places, moved, strict=True):
            cards[p] = card
        assert cards != list(deck_a.cards)
        first = _decisions(
            Hand(game, [1000] * n, Deck(deck_a.cards)), seat, new_bot(kind, seed=seed + seat), script
        )
        second = _decisions(
            Hand(game, [1000] * n, Deck(cards)), seat, new_bot(kind, seed=seed + seat), script
        )
        assert [v for v, _ in first] == [v for v, _ in second]  # the engine's redaction
        assert [a for _, a in first] == [a for _, a in second]  # the bot's own decisions
        # And the recorded game agrees: in A the bot chose what the script says it did.
        mine = [a for s, a in script if s == seat][: len(first)]
        assert [a for _, a in first] == mine
        compared += len(first)
    assert compared >= 10
