"""The lean engine (:mod:`sevenstud.rl.lean`) against the engine's ``Hand`` (issue 17, point 5):
every game at 2, 3, 6 and 8 seats, thousands of hands with random legal actions from the same
decks, and at every step the same seat to act, the same masks and the same observation for
every seat (``encode`` of that seat's whole ``Hand.view``), and the same rewards when a hand
ends (its final observations included: the hands shown at the showdown); the run must meet the
rare cases (bring-in ties broken by suit, stud's open pair on 4th street and its big bet, the
eight-handed community card, tied hands and odd chips among them, odd pots split high and low,
quartered lows, everybody folding). Then the environments that use it: the PettingZoo one and
the plain one (:mod:`sevenstud.rl.single`), each on both ways of playing a hand."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

from sevenstud.actions import ActionIndex, IllegalAction, numbered  # noqa: E402
from sevenstud.deck import Deck  # noqa: E402
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo  # noqa: E402
from sevenstud.hand import Hand  # noqa: E402
from sevenstud.rl.aec import raw_env  # noqa: E402
from sevenstud.rl.core import HandRunner, TableConfig, mask_for  # noqa: E402
from sevenstud.rl.encoding import BettingLog, Layout, encode  # noqa: E402
from sevenstud.rl.lean import LeanStud, runner_for  # noqa: E402
from sevenstud.rl.single import StudEnv  # noqa: E402

from .stud_cases import FOLD_WEIGHTS, NEEDED, note_deal, note_end, rig_for_ties  # noqa: E402


class Rigged(LeanStud):
    """The lean engine with every other deck rigged for ties (:func:`rig_for_ties`)."""

    __slots__ = ("_rig", "_rigged")

    def __init__(self, config: TableConfig, seed: int) -> None:
        self._rig = np.random.default_rng(seed + 1000)
        self._rigged = False
        super().__init__(config, seed)

    def _deck(self) -> list[int]:
        deck = super()._deck()
        self._rigged = not self._rigged
        if self._rigged:
            rig_for_ties(deck, self.n, self._rig)
        return deck


def play(config: TableConfig, hands: int, seed: int, fold_weight: float) -> Counter[str]:
    """``hands`` hands through the lean engine and through ``Hand`` from its decks, compared
    at every step; what was met."""
    lean = Rigged(config, seed)
    layout, n = Layout(config.players), config.players
    total, big = n * config.stack, config.game.stakes.big_bet
    rng = random.Random(seed)
    weights = [fold_weight] + [1.0] * 10
    seen: Counter[str] = Counter()
    for _ in range(hands):
        hand = Hand(config.game, [config.stack] * n, Deck(lean.deck))
        log = BettingLog(n, big)
        log.record(hand.events)
        note_deal(hand, seen)
        while True:
            assert lean.to_act == hand.to_act and lean.is_over == hand.is_over, (lean.to_act, hand)
            legal = mask_for(hand.legal_actions())
            for seat in range(n):
                expected = encode(hand.view(seat), log, layout, total, hand.bring_in_seat)
                got = lean.observe(seat)
                if not np.array_equal(got, expected):
                    where = np.flatnonzero(got != expected)[:8]
                    raise AssertionError(
                        f"seat {seat}, {hand}: observation differs at {where}:"
                        f" {got[where]} != {expected[where]}"
                    )
                mask = legal if seat == hand.to_act else np.zeros(11, np.int8)
                assert np.array_equal(lean.mask(seat), mask), (seat, lean.mask(seat), mask, hand)
            if hand.is_over:
                break
            if hand.street == 4 and hand.betting.double_bet:
                seen["open pair on 4th street"] += 1
            index = rng.choices(range(11), [w * m for w, m in zip(weights, legal, strict=True)])[0]
            if index in (ActionIndex.BET_BIG, ActionIndex.RAISE_BIG):
                seen["big bet on 4th street"] += 1
            log.record(hand.act(numbered(hand.legal_actions())[ActionIndex(index)]))
            lean.step(index)
        expected_rewards = [
            (end - start) / big for end, start in zip(hand.stacks, hand.starting_stacks, strict=True)
        ]
        assert lean.rewards() == expected_rewards, (lean.rewards(), expected_rewards, hand.events[-6:])
        note_end(hand, seen)
        lean.new_hand()
    return seen


# (players, hands) for each game: about 3,600 hands, a quarter of them from each folding weight.
RUNS = [(2, 1200), (3, 1000), (6, 800), (8, 600)]


@pytest.mark.parametrize("code", ["stud8", "stud", "razz"])
def test_the_lean_engine_plays_as_the_hand_does(code: str) -> None:
    seen: Counter[str] = Counter()
    for players, hands in RUNS:
        config = TableConfig.make(code, players)
        for i, weight in enumerate(FOLD_WEIGHTS):
            seen += play(config, hands // len(FOLD_WEIGHTS), seed=players * 10 + i, fold_weight=weight)
    assert seen["hands"] >= 3_000, seen
    missing = [case for case in NEEDED[code] if not seen[case]]
    assert not missing, f"never met: {missing} ({dict(seen)})"


@pytest.mark.parametrize(("game", "players", "stack"), [
    (Stud(Stakes(0, 5, 5, 10)), 3, 200),  # no ante; a bring-in of the full small bet
    (StudHiLo(Stakes(2, 3, 10, 20), max_raises=2), 4, 300),  # a cap of three
    (Stud(Stakes(1, 2, 5, 10), double_bet_on_open_pair=False), 2, 200),
    (Stud(Stakes(1, 2, 5, 5)), 2, 200),  # the open pair's big bet no bigger than the small
    (Razz(Stakes(1, 1, 2, 4)), 5, 66),  # one chip above the most a seat can put in
])  # fmt: skip
def test_other_stakes_and_options_play_as_the_hand_does(game: Game, players: int, stack: int) -> None:
    seen = play(TableConfig.make(game, players, stack), 150, seed=players, fold_weight=0.1)
    seen += play(TableConfig.make(game, players, stack), 50, seed=players + 1, fold_weight=1.0)
    assert seen["showdown"] > 20 and seen["everybody folded"] > 20, seen


def test_the_comparison_fails_when_a_rule_is_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The odd chip among tied hands given to the lowest seat instead of the highest card: the
    comparison must notice."""
    config = TableConfig.make("stud8", 3)
    assert play(config, 300, seed=3, fold_weight=0.03)["odd chip among tied hands"]

    def lowest_seat_first(self: LeanStud, amount: int, ranks: dict[int, int], payouts: list[int]) -> None:
        best = max(ranks.values())
        winners = sorted(s for s, rank in ranks.items() if rank == best)
        share, odd = divmod(amount, len(winners))
        for i, s in enumerate(winners):
            payouts[s] += share + (i < odd)

    monkeypatch.setattr(LeanStud, "_share", lowest_seat_first)
    # The final stacks in the observations differ (before the rewards are compared).
    with pytest.raises(AssertionError, match="observation differs"):
        play(config, 300, seed=3, fold_weight=0.03)


def test_the_same_decks_as_the_hand_runner_from_the_same_seed() -> None:
    config = TableConfig.make("razz", 4)
    lean, runner = LeanStud(config, 11), HandRunner(config, 11)
    for _ in range(300):  # past the 256 seeds the lean engine draws at a time
        assert lean.deck == list(runner.hand.deck.cards)
        lean.new_hand()
        runner.new_hand()
    lean.seed(5)
    runner.seed(5)
    lean.new_hand()
    runner.new_hand()
    assert lean.deck == list(runner.hand.deck.cards)


def test_only_tables_where_nobody_can_be_all_in_are_lean() -> None:
    assert isinstance(runner_for(TableConfig.make("stud8", 8)), LeanStud)
    assert isinstance(runner_for(TableConfig.make("stud8", 8), lean=False), HandRunner)
    assert isinstance(runner_for(TableConfig.make("razz", 2, stack=50)), HandRunner)
    with pytest.raises(ValueError, match="all-in"):
        runner_for(TableConfig.make("razz", 2, stack=50), lean=True)
    with pytest.raises(ValueError, match="all-in"):
        LeanStud(TableConfig.make("stud", 2, stack=181))
    assert isinstance(raw_env()._runner, LeanStud)
    assert isinstance(raw_env(lean=False)._runner, HandRunner)
    assert isinstance(raw_env(stack=50)._runner, HandRunner)
    assert isinstance(StudEnv(stack=50).runner, HandRunner)
    with pytest.raises(ValueError, match="all-in"):
        StudEnv(stack=50, lean=True)


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    lean = LeanStud(TableConfig.make("stud8", 3), 4)
    before = [lean.observe(s) for s in range(3)], lean.to_act, list(lean.actions)
    with pytest.raises(IllegalAction, match=r"action index 1 \(CHECK\) is not legal for seat \d now"):
        lean.step(1)  # the bring-in is due: no check
    with pytest.raises(IllegalAction, match=r"not one of 0\.\.10"):
        lean.step(11)
    with pytest.raises(IllegalAction, match=r"not one of 0\.\.10"):
        lean.step(-1)
    with pytest.raises(IllegalAction, match="an action is an index"):
        lean.step(True)
    after = [lean.observe(s) for s in range(3)], lean.to_act, list(lean.actions)
    assert all(np.array_equal(a, b) for a, b in zip(before[0], after[0], strict=True))
    assert before[1:] == after[1:]
    lean.step(np.int64(3))  # a numpy integer is an index too
    while not lean.is_over:
        lean.step(0 if lean.mask(lean.to_act)[0] else 2)
    with pytest.raises(IllegalAction, match="the hand is over"):
        lean.step(0)


def test_the_replayed_hand_is_the_hand_so_far() -> None:
    lean = LeanStud(TableConfig.make("stud", 2), 9)
    lean.step(4)  # complete
    lean.step(6)  # raise
    hand = lean.hand
    assert hand.to_act == lean.to_act and list(hand.deck.cards) == lean.deck and len(hand.actions) == 2


def _play_single(env: StudEnv, steps: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    obs, mask, seat = env.reset(seed=seed)
    for _ in range(steps):
        others = [env.observe(s) for s in range(env.config.players)]
        out.append((obs.copy(), mask.copy(), seat, others))
        assert not mask.flags.writeable
        obs, mask, seat, rewards, done = env.step(rng.choice(np.flatnonzero(mask).tolist()))
        out.append((rewards, done))
        if done:
            assert sum(rewards) == pytest.approx(0.0)  # (all 0 when the pot is split evenly)
        else:
            assert rewards == (0.0,) * env.config.players
    return out


@pytest.mark.parametrize(("game", "players"), [("stud8", 2), ("stud", 3), ("razz", 8)])
def test_the_plain_environment_is_the_same_on_both_ways(game: str, players: int) -> None:
    """The same observations, masks, seats, rewards and hand ends, step by step, from the lean
    engine and from ``Hand`` (the same decks from the same seed)."""
    lean = _play_single(StudEnv(game, players, lean=True), 600, seed=players)
    hand = _play_single(StudEnv(game, players, lean=False), 600, seed=players)
    assert len(lean) == len(hand)
    for a, b in zip(lean, hand, strict=True):
        if len(a) == 2:
            assert a == b
            continue
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]
        assert all(np.array_equal(x, y) for x, y in zip(a[3], b[3], strict=True))


def test_the_plain_environment_refuses_an_illegal_index() -> None:
    env = StudEnv(seed=2)
    obs, _, seat = env.reset()
    with pytest.raises(IllegalAction, match=r"action index 1 \(CHECK\) is not legal"):
        env.step(1)
    assert np.array_equal(env.observe(seat), obs) and env.runner.to_act == seat
    obs_after, _, seat_after, _, _ = env.step(3)
    assert seat_after != seat
    # The observation returned is a new array: the next step does not change it.
    kept = obs_after.copy()
    env.step(int(np.flatnonzero(env.runner.shared_mask())[0]))
    assert np.array_equal(obs_after, kept)
