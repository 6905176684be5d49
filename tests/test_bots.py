"""Bots choose only legal actions, see only their own view, and RuleBot plays sensibly."""

from __future__ import annotations

import random

import pytest

from sevenstud.bots import Bot, RandomBot, RuleBot
from sevenstud.deck import Deck
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Action, ActionKind, CardDealt, Hand, Phase, SeatView

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES: list[Game] = [StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)]


class Spy:
    """Wraps a bot and checks every view it is given and every action it returns."""

    def __init__(self, bot: Bot, hand: Hand) -> None:
        self.bot = bot
        self.name = bot.name
        self.hand = hand
        self.decisions = 0

    def act(self, view: SeatView) -> Action:
        assert isinstance(view, SeatView)
        assert view.seat == self.hand.to_act and view.legal_actions
        exposed = set(self.hand.shown) | self.hand.turned_up
        for seat, (cards, ups) in enumerate(zip(view.cards, view.face_up, strict=True)):
            for card, up in zip(cards, ups, strict=True):
                if seat != view.seat and not up and seat not in exposed:
                    assert card is None, "a bot was shown another seat's down card"
        for event in view.events:
            if (
                isinstance(event, CardDealt)
                and not event.face_up
                and event.seat != view.seat
                and event.seat not in exposed
            ):
                assert event.card is None, "a bot was shown another seat's down card"
        action = self.bot.act(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        self.decisions += 1
        return action


def play(hand: Hand, bots: list[Bot]) -> int:
    spies = [Spy(bot, hand) for bot in bots]
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(spies[seat].act(hand.view(seat)), seat)
    return sum(s.decisions for s in spies)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_bots_choose_only_legal_actions(game: Game) -> None:
    rng = random.Random(f"legal-{game.code}")
    decisions = 0
    for number in range(150):
        n = rng.randint(2, 8)
        stacks = [rng.choice([rng.randint(1, 40), rng.randint(40, 400)]) for _ in range(n)]
        bots: list[Bot] = [
            RuleBot(seed=number * 10 + i) if rng.random() < 0.6 else RandomBot(seed=number * 10 + i)
            for i in range(n)
        ]
        hand = Hand(
            game, stacks, Deck.seeded(f"{game.code}-{number}"), auto_showdown=number % 5 != 0
        )
        decisions += play(hand, bots)
        assert hand.is_over and sum(hand.stacks) + hand.rake == sum(stacks)
    assert decisions > 1000


def _spot(game: Game, deck: str, actions: list[str]) -> Hand:
    """Three players: the deck deals seat 0, 1, 2 down, down again, then the door cards."""
    hand = Hand(game, [200, 200, 200], Deck.ordered(deck))
    for action in actions:
        hand.act(action)
    return hand


def test_rulebot_folds_seven_deuce_king_facing_a_completion() -> None:
    # Seat 0 (door 2c) brings in, seat 1 (door As) completes, seat 2 holds 7c 2d / Kh.
    hand = _spot(StudHiLo(STAKES), "9h Td 7c 9d Jd 2d 2c As Kh", ["bring-in", "complete"])
    assert hand.to_act == 2
    assert RuleBot(seed=1).act(hand.view(2)).kind is ActionKind.FOLD


def test_rulebot_raises_rolled_up_trips() -> None:
    hand = _spot(StudHiLo(STAKES), "9h Td 8c 9d Jd 8d 2c As 8h", ["bring-in", "complete"])
    assert hand.to_act == 2
    action = RuleBot(seed=1).act(hand.view(2))
    assert action.kind is ActionKind.RAISE and action.amount == 10
    # And with trips at the bring-in, it completes rather than bring in.
    hand = _spot(StudHiLo(STAKES), "9h Td 2s 9d Jd 2d Kc As 2h", [])
    assert hand.to_act == 2
    assert RuleBot(seed=1).act(hand.view(2)).kind is ActionKind.COMPLETE


def test_rulebot_plays_three_low_cards_in_hi_lo() -> None:
    hand = _spot(StudHiLo(STAKES), "Kh Td Ac Qd Jd 3d 2c Ks 4h", ["bring-in"])
    assert hand.to_act == 1
    _ = hand.act("fold")
    assert hand.to_act == 2
    assert RuleBot(seed=1).act(hand.view(2)).kind is ActionKind.COMPLETE


def test_rulebot_razz_plays_low_cards_only() -> None:
    # Razz: the highest door brings in. Seat 2 holds A-2 / 3 and completes.
    hand = _spot(Razz(STAKES), "Kh Td Ac Qd Jd 2d Kc Qs 3h", ["bring-in"])
    assert hand.to_act == 1
    assert RuleBot(seed=1).act(hand.view(1)).kind is ActionKind.FOLD  # T-J / Q
    _ = hand.act("fold")
    assert RuleBot(seed=1).act(hand.view(2)).kind in (ActionKind.COMPLETE, ActionKind.RAISE)
    # Seat 1 with K-Q-J facing a completion folds.
    hand = _spot(Razz(STAKES), "2h Kd 5d 4d Qd 6c 3c Js Kc", ["bring-in", "complete"])
    assert hand.to_act == 1
    assert RuleBot(seed=1).act(hand.view(1)).kind is ActionKind.FOLD


def test_rulebot_decides_only_from_what_it_may_see() -> None:
    # Two deals that differ only in the other seats' down cards: the same view, the same play.
    first = _spot(StudHiLo(STAKES), "9h Td 7c 9d Jd 6d 2c As 5h", ["bring-in", "complete"])
    second = _spot(StudHiLo(STAKES), "Kc 3s 7c Qh 4c 6d 2c As 5h", ["bring-in", "complete"])
    a, b = first.view(2), second.view(2)
    assert a == b
    assert first.cards[0] != second.cards[0]
    bot_a, bot_b = RuleBot(seed=3), RuleBot(seed=3)
    assert bot_a.act(a) == bot_b.act(b)
    assert bot_a.assess(a) == bot_b.assess(b)


def test_bots_need_a_seat_to_act() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], Deck.seeded(1))
    waiting = next(s for s in range(3) if s != hand.to_act)
    for bot in (RuleBot(), RandomBot(seed=1)):
        assert isinstance(bot, Bot)
        with pytest.raises(ValueError):
            bot.act(hand.view(None))
        with pytest.raises(ValueError):
            bot.act(hand.view(waiting))


def test_random_bot_never_folds_when_it_can_check() -> None:
    for number in range(60):
        hand = Hand(Stud(STAKES), [100] * 4, Deck.seeded(number))
        bots = [RandomBot(seed=number * 4 + i) for i in range(4)]
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            action = bots[seat].act(view)
            if any(a.kind is ActionKind.CHECK for a in view.legal_actions):
                assert action.kind is not ActionKind.FOLD
            hand.act(action, seat)


def test_rulebot_is_deterministic_given_a_seed() -> None:
    def actions(seed: int) -> list[tuple[int, Action]]:
        played: list[tuple[int, Action]] = []
        for number in range(20):
            hand = Hand(StudHiLo(STAKES), [200] * 5, Deck.seeded(number))
            bots = [RuleBot(seed=seed * 10 + i) for i in range(5)]
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None
                hand.act(bots[seat].act(hand.view(seat)), seat)
            played.extend(hand.actions)
        return played

    assert actions(7) == actions(7)


def test_rulebot_shows_at_a_manual_showdown() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100], Deck.seeded(2), auto_showdown=False)
    bots = [RuleBot(seed=1), RuleBot(seed=2)]
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        action = bots[seat].act(hand.view(seat))
        if hand.phase is Phase.SHOWDOWN:
            assert action.kind is ActionKind.SHOW
        hand.act(action, seat)


def test_rulebot_beats_random_bots() -> None:
    net = 0
    for number in range(200):
        hand = Hand(StudHiLo(STAKES), [200] * 4, Deck.seeded(f"duel-{number}"))
        bots: list[Bot] = [RuleBot(seed=number), RandomBot(seed=number)] * 2
        play(hand, bots)
        net += hand.stacks[0] + hand.stacks[2] - 400
    assert net > 0
