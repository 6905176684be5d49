"""The batched engine (:mod:`sevenstud.rl.batched`) against the engine's ``Hand`` (issue 17,
point 5): every game and seat count, thousands of hands with random legal actions from the same
decks, the same masks, observations, seats to act and rewards at every step; and the rare cases
the comparison must have met (bring-in ties broken by suit, stud's open pair on 4th street, the
eight-handed community card, split pots with odd chips, quartered lows, everybody folding)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from sevenstud.actions import ActionIndex, IllegalAction, numbered  # noqa: E402
from sevenstud.deck import Deck  # noqa: E402
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo  # noqa: E402
from sevenstud.hand import Hand  # noqa: E402
from sevenstud.rl.batched import BatchedStud, batch_refusal  # noqa: E402
from sevenstud.rl.core import TableConfig, mask_for  # noqa: E402
from sevenstud.rl.encoding import BettingLog, Layout, encode  # noqa: E402
from sevenstud.rl.vector import VectorStudEnv  # noqa: E402

from .stud_cases import FOLD_WEIGHTS, NEEDED, note_deal, note_end, rig_for_ties  # noqa: E402


class Reference:
    """``num`` engine hands beside a batched engine, dealt from its decks."""

    def __init__(self, engine: BatchedStud) -> None:
        self.engine = engine
        config = engine.config
        self.config = config
        self.layout = Layout(config.players)
        self.big = config.game.stakes.big_bet
        self.hands: list[Hand] = []
        self.logs: list[BettingLog] = []
        self.seen: Counter[str] = Counter()
        for i in range(engine.num):
            self.hands.append(self._deal(i))
            self.logs.append(self._log(self.hands[i]))

    def _deal(self, i: int) -> Hand:
        config = self.config
        deck = Deck([int(c) for c in self.engine.decks[i]])
        hand = Hand(config.game, [config.stack] * config.players, deck)
        self._note_deal(hand)
        return hand

    def _log(self, hand: Hand) -> BettingLog:
        log = BettingLog(self.config.players, self.big)
        log.record(hand.events)
        return log

    def _note_deal(self, hand: Hand) -> None:
        note_deal(hand, self.seen)

    def compare(self) -> None:
        """The engine's arrays now equal the hands' masks, observations and seats to act."""
        engine = self.engine
        total = self.config.players * self.config.stack
        for i, hand in enumerate(self.hands):
            seat = hand.to_act
            assert seat is not None and int(engine.to_act[i]) == seat, (i, engine.to_act[i], seat)
            mask = mask_for(hand.legal_actions())
            assert np.array_equal(engine.masks[i], mask), (i, engine.masks[i], mask, hand)
            expected = encode(hand.view(seat), self.logs[i], self.layout, total, hand.bring_in_seat)
            got = engine.observations[i]
            if not np.array_equal(got, expected):
                where = np.flatnonzero(got != expected)[:8]
                raise AssertionError(f"game {i}, {hand}: observation differs at {where}: "
                                     f"{got[where]} != {expected[where]}")
            if hand.street == 4 and hand.betting.double_bet:
                self.seen["open pair on 4th street"] += 1

    def play(self, actions: Any) -> None:
        """The same actions in the hands; each finished hand's rewards checked, then dealt anew."""
        engine = self.engine
        for i, hand in enumerate(self.hands):
            index = ActionIndex(int(actions[i]))
            if index in (ActionIndex.BET_BIG, ActionIndex.RAISE_BIG):
                self.seen["big bet on 4th street"] += 1
            self.logs[i].record(hand.act(numbered(hand.legal_actions())[index]))
            if not hand.is_over:
                assert not engine.dones[i] and not engine.rewards[i].any(), (i, engine.rewards[i])
                continue
            stacks = zip(hand.stacks, hand.starting_stacks, strict=True)
            expected = np.array([(end - start) / self.big for end, start in stacks], np.float32)
            assert engine.dones[i] and np.array_equal(engine.rewards[i], expected), (
                i, engine.rewards[i], expected, hand.events[-6:])
            self._note_end(hand)
            self.hands[i] = self._deal(i)
            self.logs[i] = self._log(self.hands[i])

    def _note_end(self, hand: Hand) -> None:
        note_end(hand, self.seen)


class Rigged(BatchedStud):
    """The batched engine with every other deck rigged for ties: two seats are dealt the same
    ranks in other suits (no flush), as many of them eight or lower as a qualifying low needs,
    where they would receive them if nobody folded; so that equal hands, split halves, odd chips
    among tied hands and quartered lows come often, not once in thousands of showdowns."""

    def _shuffle(self, k: int) -> Any:
        decks = super()._shuffle(k)
        for row in decks[::2]:
            rig_for_ties(row, self.n, self.rng)
        return decks


def play(config: TableConfig, games: int, steps: int, seed: int) -> Counter[str]:
    """``steps`` steps of ``games`` games through both; what was met."""
    engine = Rigged(config, games, seed)
    engine.reset()
    reference = Reference(engine)
    rng = np.random.default_rng(seed)
    weights = np.ones((games, 11))
    weights[:, 0] = np.resize(FOLD_WEIGHTS, games)
    for _ in range(steps):
        reference.compare()
        p = engine.masks * weights
        actions = (p.cumsum(axis=1) > rng.random((games, 1)) * p.sum(axis=1, keepdims=True)).argmax(axis=1)
        engine.step(actions)
        reference.play(actions)
    reference.compare()
    return reference.seen


# (players, games, steps) for each game: about 3,700 hands, 8-handed long enough for the
# community card.
RUNS = [(2, 64, 300), (3, 64, 200), (6, 48, 200), (8, 48, 250)]


@pytest.mark.parametrize("code", ["stud8", "stud", "razz"])
def test_the_batched_engine_plays_as_the_hand_does(code: str) -> None:
    seen: Counter[str] = Counter()
    for players, games, steps in RUNS:
        seen += play(TableConfig.make(code, players), games, steps, seed=players)
    assert seen["hands"] >= 3_000, seen
    missing = [case for case in NEEDED[code] if not seen[case]]
    assert not missing, f"never met: {missing} ({dict(seen)})"


@pytest.mark.parametrize(("game", "players", "stack"), [
    (Stud(Stakes(0, 5, 5, 10)), 3, 200),  # no ante; a bring-in of the full small bet
    (StudHiLo(Stakes(2, 3, 10, 20), max_raises=2), 4, 300),  # a cap of three
    (Stud(Stakes(1, 2, 5, 10), double_bet_on_open_pair=False), 2, 200),
    (Razz(Stakes(1, 1, 2, 4)), 5, 66),  # one chip above the most a seat can put in
])
def test_other_stakes_and_options_play_as_the_hand_does(game: Game, players: int, stack: int) -> None:
    seen = play(TableConfig.make(game, players, stack), 32, 100, seed=players)
    assert seen["showdown"] > 20 and seen["everybody folded"] > 20, seen


def test_the_comparison_fails_when_a_rule_is_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The odd chip among tied hands given to the lowest seat instead of the highest card: the
    comparison must notice."""

    original = BatchedStud._split

    def lowest_seat_first(self: BatchedStud, amount: Any, ranks: Any, highest: Any) -> Any:
        return original(self, amount, ranks, np.broadcast_to(-np.arange(self.n), highest.shape))

    config = TableConfig.make("stud8", 3)
    assert play(config, 48, 90, seed=3)["odd chip among tied hands"]
    monkeypatch.setattr(BatchedStud, "_split", lowest_seat_first)
    with pytest.raises(AssertionError, match="PotAwarded"):  # the rewards differ
        play(config, 48, 90, seed=3)


def test_only_tables_where_nobody_can_be_all_in_are_batched() -> None:
    assert batch_refusal(TableConfig.make("stud8", 8)) is None
    assert batch_refusal(TableConfig.make("stud", 2, stack=181)) is not None  # 1 + 20 + 40 + 120
    assert batch_refusal(TableConfig.make("stud", 2, stack=182)) is None
    assert batch_refusal(TableConfig.make(Stud(Stakes(1, 2, 5, 10), uncapped_heads_up=True))) is not None
    with pytest.raises(ValueError, match="all-in"):
        BatchedStud(TableConfig.make("razz", 2, stack=50), 4)
    assert VectorStudEnv(2, stack=50).engine is None  # the per-hand path
    assert VectorStudEnv(2).engine is not None
    assert VectorStudEnv(2, batched=False).engine is None
    with pytest.raises(ValueError, match="all-in"):
        VectorStudEnv(2, stack=50, batched=True)


def test_an_illegal_index_names_the_game_and_changes_nothing() -> None:
    engine = BatchedStud(TableConfig.make("stud8", 2), 3, seed=1)
    engine.reset()
    before = engine.observations.copy()
    actions = [int(np.flatnonzero(m)[0]) for m in engine.masks]
    actions[1] = int(ActionIndex.CHECK)  # 3rd street opens with the bring-in: never a check
    with pytest.raises(IllegalAction, match="game 1: action index 1 \\(CHECK\\) is not legal"):
        engine.step(actions)
    assert np.array_equal(engine.observations, before)
    with pytest.raises(IllegalAction, match=r"game 0: action index 11 is not one of 0\.\.10"):
        engine.step([11, 3, 3])
