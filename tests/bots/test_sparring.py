"""The sparring kinds (issue 37): a maniac and three opponents held out of the learned bot's
training, named by the matches and ``sevenstud simulate`` but not offered by the card room, each
playing every game with legal actions only and the way its description says."""

from __future__ import annotations

import random

import pytest

from sevenstud.bots import BOT_KINDS, new_bot
from sevenstud.bots.registry import HELD_OUT, MATCH_KINDS, SPARRING_KINDS
from sevenstud.bots.sparring import DrawingStation, LooseAggressive, Maniac, TightEquity, drawing
from sevenstud.cards import parse_cards
from sevenstud.deck import Deck
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import ActionKind, Hand

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES: list[Game] = [StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)]
AGGRESSIVE = {ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE}


def test_the_sparring_kinds_are_named_apart_from_the_card_room_s() -> None:
    assert list(SPARRING_KINDS) == ["maniac", "lag", "drawstation", "tightequity"]
    assert sorted(HELD_OUT) == ["drawstation", "lag", "tightequity"]
    assert not set(SPARRING_KINDS) & set(BOT_KINDS)  # the card room's menu is unchanged
    assert MATCH_KINDS == {**BOT_KINDS, **SPARRING_KINDS}
    classes = {name: type(new_bot(name, seed=1)) for name in SPARRING_KINDS}
    assert classes == {
        "maniac": Maniac,
        "lag": LooseAggressive,
        "drawstation": DrawingStation,
        "tightequity": TightEquity,
    }
    for kind in SPARRING_KINDS.values():
        assert kind.description and len(kind.description) <= 100 and "\n" not in kind.description
        assert kind.description.startswith("Held out") == (kind.name in HELD_OUT)


def _play(game: Game, kinds: list[str], number: int) -> list[list[tuple[set[ActionKind], ActionKind]]]:
    """One hand of ``kinds``: each seat's (legal kinds, chosen kind) at every decision."""
    rng = random.Random(number)
    n = len(kinds)
    stacks = [rng.choice([rng.randint(1, 40), rng.randint(60, 400)]) for _ in range(n)]
    hand = Hand(game, stacks, Deck.seeded(f"sparring-{game.code}-{number}"), auto_showdown=number % 3 != 0)
    bots = [new_bot(k, seed=number * 8 + i) for i, k in enumerate(kinds)]
    seen: list[list[tuple[set[ActionKind], ActionKind]]] = [[] for _ in range(n)]
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        action = bots[seat].act(view)
        assert action in view.legal_actions
        seen[seat].append(({a.kind for a in view.legal_actions}, action.kind))
        hand.act(action, seat)
    assert sum(hand.stacks) + hand.rake == sum(stacks)
    return seen


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_the_maniac_raises_whenever_it_may_and_never_folds(game: Game) -> None:
    decisions = 0
    for number in range(15):
        for legal, chosen in _play(game, ["maniac", "rule", "station"], number)[0]:
            if ActionKind.SHOW in legal:
                continue
            decisions += 1
            assert chosen is not ActionKind.FOLD
            assert (chosen in AGGRESSIVE) == bool(legal & AGGRESSIVE)
    assert decisions >= 20


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_the_drawing_station_never_folds_and_raises_only_its_draws(game: Game) -> None:
    raised = 0
    for number in range(30):
        for legal, chosen in _play(game, ["drawstation", "maniac", "lag"], number)[0]:
            if chosen is ActionKind.FOLD:
                assert legal == {ActionKind.FOLD}  # pragma: no cover - never offered alone
            raised += chosen in AGGRESSIVE
    assert raised >= 1  # a draw turns up in 30 hands


def test_a_draw_is_four_to_a_flush_straight_or_low_not_a_made_hand() -> None:
    assert drawing(parse_cards("2h 7h 9h Kh"), True, False)
    assert drawing(parse_cards("5c 6d 7h 8s Kd"), True, False)
    assert not drawing(parse_cards("5c 6d 7h 8s 9d"), True, False)  # a straight: made
    assert drawing(parse_cards("As 3d 5c 7h Kd"), False, True)  # four lows, razz
    assert not drawing(parse_cards("As 3d 5c 7h Kd"), True, False)  # stud has no low
    assert not drawing(parse_cards("As 3d 5c 7h 8d"), False, True)  # five lows: made


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_the_loose_aggressive_plays_more_and_bets_more_than_the_rule_bot(game: Game) -> None:
    counts = {"lag": [0, 0, 0], "rule": [0, 0, 0]}  # decisions, first-decision folds, aggression
    for number in range(40):
        seen = _play(game, ["lag", "rule", "station", "station"], number)
        for kind, seat in (("lag", 0), ("rule", 1)):
            counts[kind][1] += bool(seen[seat]) and seen[seat][0][1] is ActionKind.FOLD
            for legal, chosen in seen[seat]:
                if ActionKind.SHOW in legal:
                    continue
                counts[kind][0] += 1
                counts[kind][2] += chosen in AGGRESSIVE
    lag, rule = counts["lag"], counts["rule"]
    assert lag[1] < rule[1]  # it gives up fewer starts
    assert lag[2] / lag[0] > rule[2] / rule[0]


def test_the_tight_equity_player_folds_a_weak_start_to_a_completion() -> None:
    pytest.importorskip("numpy")
    # Seat 0 holds 9c 4d / 7s facing a completion (seat 1 brings in and completes, seat 2
    # calls): below the rule bot's call.
    game = Stud(STAKES)
    hand = Hand(game, [200] * 3, Deck.ordered("9c Ah Kd 4d Ac Ks 7s 2s Qs"))
    while hand.to_act != 0:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        complete = [a for a in legal if a.kind is ActionKind.COMPLETE]
        hand.act(complete[0] if complete else next(a for a in legal if a.kind is ActionKind.CALL), seat)
    bot = TightEquity(seed=1)
    assert bot.act(hand.view(0)).kind is ActionKind.FOLD
    # With aces it plays on equity, well above its share: it raises.
    hand = Hand(game, [200] * 3, Deck.ordered("Ac Kh Kd Ah 9c Ks 7s 2s Qs"))
    while hand.to_act != 0:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        complete = [a for a in legal if a.kind is ActionKind.COMPLETE]
        hand.act(complete[0] if complete else next(a for a in legal if a.kind is ActionKind.CALL), seat)
    assert bot.act(hand.view(0)).kind in AGGRESSIVE
    assert bot.last_equity is not None and bot.last_equity > 0.5
