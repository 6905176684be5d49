"""The bot kinds (issue 17, point 1): one registry, every kind plays every game with legal
actions only, each kind plays the way its description says, and the equity bot is quick."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from sevenstud.bots import (
    BOT_KINDS,
    DEFAULT_KIND,
    Bot,
    CallingStation,
    EquityBot,
    RandomBot,
    RuleBot,
    TightBot,
    new_bot,
)
from sevenstud.bots.learned import LearnedBot
from sevenstud.bots.tight import better_low_showing
from sevenstud.cards import parse_cards
from sevenstud.deck import Deck
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Action, ActionKind, CardDealt, Hand, SeatView

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES: list[Game] = [StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)]
WEB = Path(__file__).resolve().parents[2] / "src" / "sevenstud" / "web" / "index.html"


def test_the_registry_names_every_kind_once_with_a_one_line_description() -> None:
    assert list(BOT_KINDS) == ["rule", "random", "station", "tight", "equity", "learned"]
    assert DEFAULT_KIND == "rule"  # the server's stored kinds: "rule" keeps its meaning
    labels = [k.label for k in BOT_KINDS.values()]
    assert len(set(labels)) == len(labels)
    for name, kind in BOT_KINDS.items():
        assert kind.name == name
        assert kind.description and "\n" not in kind.description and len(kind.description) <= 100
        bot = kind.make(3, f"{name} bot")
        assert isinstance(bot, Bot) and bot.name == f"{name} bot"
    classes = {name: type(new_bot(name, seed=1)) for name in BOT_KINDS}
    assert classes == {
        "rule": RuleBot,
        "random": RandomBot,
        "station": CallingStation,
        "tight": TightBot,
        "equity": EquityBot,
        "learned": LearnedBot,
    }


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"unknown bot kind 'shark': expected one of rule, random"):
        new_bot("shark")


def test_the_lobby_offers_exactly_the_registry_s_kinds_with_their_descriptions() -> None:
    # One list: the page's "Which bots" menu is the registry's, in its order, with its words.
    html = WEB.read_text(encoding="utf-8")
    menu = html[html.index('id="create-bot"') : html.index("</select>", html.index('id="create-bot"'))]
    options = re.findall(r'<option value="([^"]+)" title="([^"]+)"[^>]*>([^<]+)</option>', menu)
    assert [(v, t.replace("&#39;", "'"), label) for v, t, label in options] == [
        (k.name, k.description, k.label) for k in BOT_KINDS.values()
    ]


class Spy:
    """Wraps a bot: checks that every view it gets is its own seat's, redacted, and that every
    action it returns is legal."""

    def __init__(self, bot: Bot, hand: Hand) -> None:
        self.bot, self.hand, self.name = bot, hand, bot.name
        self.decisions = 0

    def act(self, view: SeatView) -> Action:
        assert view.seat == self.hand.to_act and view.legal_actions
        exposed = set(self.hand.shown) | self.hand.turned_up
        for seat, (cards, ups) in enumerate(zip(view.cards, view.face_up, strict=True)):
            if seat != view.seat and seat not in exposed:
                assert all(c is None for c, up in zip(cards, ups, strict=True) if not up)
        for event in view.events:
            if isinstance(event, CardDealt) and not event.face_up and event.seat != view.seat:
                assert event.seat in exposed or event.card is None
        action = self.bot.act(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        self.decisions += 1
        return action


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_every_kind_plays_every_game_with_legal_actions_only(game: Game) -> None:
    rng = random.Random(f"kinds-{game.code}")
    kinds = list(BOT_KINDS)
    decisions = dict.fromkeys(kinds, 0)
    for number in range(40):
        n = rng.randint(2, 8)
        # Short stacks too: all-ins, side pots and hands turned face up.
        stacks = [rng.choice([rng.randint(1, 40), rng.randint(40, 400)]) for _ in range(n)]
        seated = [rng.choice(kinds) for _ in range(n)]
        hand = Hand(game, stacks, Deck.seeded(f"kinds-{game.code}-{number}"), auto_showdown=number % 4 != 0)
        spies = [Spy(new_bot(k, seed=number * 10 + i), hand) for i, k in enumerate(seated)]
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hand.act(spies[seat].act(hand.view(seat)), seat)
        assert sum(hand.stacks) + hand.rake == sum(stacks)
        for k, spy in zip(seated, spies, strict=True):
            decisions[k] += spy.decisions
    assert all(count >= 10 for count in decisions.values()), decisions


def _spot(game: Game, deck: str, actions: list[str], stacks: int = 200) -> Hand:
    """Three players: the deck deals seat 0, 1, 2 down, down again, then the door cards."""
    hand = Hand(game, [stacks] * 3, Deck.ordered(deck))
    for action in actions:
        hand.act(action)
    return hand


def test_the_calling_station_calls_everything_and_never_raises_or_folds() -> None:
    station = CallingStation()
    for game in GAMES:
        for number in range(30):
            hand = Hand(game, [300] * 4, Deck.seeded(f"station-{game.code}-{number}"))
            bots = [RandomBot(seed=number * 4 + i) for i in range(4)]
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None
                view = hand.view(seat)
                if seat == 0:
                    action = station.act(view)
                    kinds = {a.kind for a in view.legal_actions}
                    expected = next(
                        k
                        for k in (ActionKind.SHOW, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)
                        if k in kinds
                    )
                    assert action.kind is expected
                else:
                    action = bots[seat].act(view)
                hand.act(action, seat)


def test_the_tight_bot_folds_a_marginal_start_to_a_completion_where_the_rule_bot_calls() -> None:
    # Seat 0 (door 2c) brings in, seat 1 (door Ks) completes; seat 2 holds 9h Jc / 9c: a pair
    # of nines with no low, worth one call to RuleBot, not to TightBot.
    hand = _spot(StudHiLo(STAKES), "2h Jh 9h 3d 8d Jc 2c Ks 9c", ["bring-in", "complete"])
    assert hand.to_act == 2
    view = hand.view(2)
    assert RuleBot(seed=1).act(view).kind is ActionKind.CALL
    tight = TightBot(seed=1)
    assert tight.act(view).kind is ActionKind.FOLD
    assert "not worth a completion" in tight.last_reason


def test_better_low_showing_reads_the_boards() -> None:
    assert better_low_showing(parse_cards("Ks 7d 6c 5h"), [parse_cards("4c 2d 9s")])
    assert not better_low_showing(parse_cards("As 2d 6c 5h"), [parse_cards("4c 3d")])
    assert not better_low_showing(parse_cards("As 2d 6c 5h"), [parse_cards("Kc Qd")])
    # Two low cards showing against our single one: they are ahead for low.
    assert better_low_showing(parse_cards("Ks Qd Jc 5h"), [parse_cards("3c 4d")])


def test_the_tight_bot_folds_a_low_draw_when_a_board_shows_a_better_low() -> None:
    # Stud hi/lo heads-up, 4th street: seat 0 holds 8d 7h / 2c 6c, a pure low draw (no pair, no
    # straight or flush draw), facing a bet from seat 1's board of Ac 3d, a better low already.
    # RuleBot calls the draw; TightBot folds it.
    hand = Hand(StudHiLo(STAKES), [300, 300], Deck.ordered("8d Kh 7h Qd 2c Ac 6c 3d"))
    hand.act("bring-in")  # seat 0, the 2c
    hand.act("complete")
    hand.act("call")
    assert hand.street == 4 and hand.to_act == 1  # A-3 showing acts first
    hand.act("bet")
    view = hand.view(0)
    assert RuleBot(seed=1).act(view).kind is ActionKind.CALL
    tight = TightBot(seed=1)
    assert tight.act(view).kind is ActionKind.FOLD
    assert "a better low showing" in tight.last_reason


def test_the_equity_bot_raises_the_nuts_and_folds_a_dead_hand_on_seventh_street() -> None:
    # Razz: seat 1 holds a made 5-4-3-2-A by 7th street; seat 2 shows four high cards.
    deck = (
        "Kd Ac Qc "  # first down
        "Kh 2c Qd "  # second down
        "Ks 3c 9s "  # doors: seat 0 (Ks) brings in (razz: the highest)
        "4c Jh "  # 4th street (seats 1, 2: seat 0 folds)
        "5c Th "  # 5th
        "Ts Jd "  # 6th
        "Td Js"  # 7th
    )
    hand = Hand(Razz(STAKES), [300] * 3, Deck.ordered(deck))
    hand.act("bring-in")
    hand.act("complete")
    hand.act("call")
    hand.act("fold")  # seat 0, the bring-in
    assert hand.street == 4
    while hand.street < 7 and not hand.is_over:
        hand.act("check" if hand.can("check") else "call")
    assert hand.street == 7 and not hand.is_over
    while hand.to_act != 1:
        hand.act("check")
    bot = EquityBot(seed=2)
    view = hand.view(1)
    action = bot.act(view)
    assert bot.last_equity is not None and bot.last_equity > 0.95
    assert action.kind is ActionKind.BET
    hand.act(action)
    assert hand.to_act == 2
    seat2 = EquityBot(seed=3)
    assert seat2.act(hand.view(2)).kind is ActionKind.FOLD
    assert seat2.last_equity is not None and seat2.last_equity < 0.05


def test_the_equity_bot_decides_well_under_100_ms() -> None:
    bot = EquityBot(seed=5)
    hand = Hand(StudHiLo(STAKES), [300] * 6, Deck.seeded("warm-up"))
    assert hand.to_act is not None
    bot.act(hand.view(hand.to_act))  # the first call imports numpy and the kernels
    times: list[float] = []
    for game in GAMES:
        for number in range(6):
            hand = Hand(game, [300] * 6, Deck.seeded(f"speed-{game.code}-{number}"))
            bots: list[Bot] = [EquityBot(seed=number), *(CallingStation() for _ in range(5))]
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None
                view = hand.view(seat)
                # CPU time, not wall time: a loaded test machine shares its cores.
                started = time.process_time()
                action = bots[seat].act(view)
                if seat == 0:
                    times.append(time.process_time() - started)
                hand.act(action, seat)
    assert len(times) >= 20
    times.sort()
    # The median and the 90th percentile (a shared test machine has its moments).
    assert times[len(times) // 2] < 0.03 and times[9 * len(times) // 10] < 0.1, times


def test_sevenstud_play_seats_the_kind_asked_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    from sevenstud import terminal
    from sevenstud.cli import main

    made: list[str] = []
    real = terminal.new_bot

    def spy(kind: str, seed: int | str | None = None, name: str | None = None) -> Bot:
        made.append(kind)
        return real(kind, seed=seed, name=name)

    monkeypatch.setattr(terminal, "new_bot", spy)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert (
        main(["play", "--watch", "--bots", "2", "--bot-kind", "station", "--hands", "2", "--seed", "3"]) == 0
    )
    assert made == ["station"] * 3
    # Calling stations never fold, bet or raise: the log shows calls and checks only.
    out = capsys.readouterr().out
    assert re.search(r"Bot \d calls", out)
    assert not re.search(r"Bot \d (folds|bets|raises|completes)", out), out
    # An unknown kind is a one-line usage error (exit 2), nothing dealt.
    assert main(["play", "--watch", "--bot-kind", "shark"]) == 2
    captured = capsys.readouterr()
    assert "--bot-kind: invalid choice: 'shark'" in captured.err and captured.out == ""
