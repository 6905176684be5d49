"""The batch (numpy) evaluator gives exactly the pure-Python evaluator's integers.

* Every five-card hand (2,598,960), and two million random seven-card hands and half a million
  six-card ones, are evaluated in batch. The pure evaluator is called on one hand of every class
  that can make a difference (same rank multiset and same flush: the same suit-blind ranks, a
  property of poker, not of either evaluator; the classes are computed here with plain sums)
  and, directly, hand by hand, on a random sample; every hand's three ranks must be equal.
* Random hands of the engine (:class:`sevenstud.hand.Hand`) are played to showdown, and the
  winners of every pot half computed from the batch ranks must be the seats the engine paid.

Skipped without numpy.
"""

from __future__ import annotations

import random
from itertools import chain, combinations

import pytest

np = pytest.importorskip("numpy")

from sevenstud import evaluate as pure  # noqa: E402
from sevenstud.fast import evaluate as fe  # noqa: E402
from sevenstud.fast import evaluate_batch, high_ranks, hilo8_ranks, low8_ranks, low_ranks  # noqa: E402
from sevenstud.games import Razz, Stakes, Stud, StudHiLo  # noqa: E402
from sevenstud.hand import ActionKind, Hand  # noqa: E402

PURE = {"high": pure.high_rank, "low": pure.low_rank, "low8": pure.low8_rank}


def _class_keys(hands: np.ndarray) -> np.ndarray:
    """A number that is equal for two hands exactly when they have the same rank multiset and the
    same flush (the 13-bit rank mask of a suit holding five or more cards, else 0)."""
    ranks = hands.astype(np.int64) >> 2
    suits = hands.astype(np.int64) & 3
    multiset = (np.int64(5) ** ranks).sum(axis=1)
    flush = np.zeros(hands.shape[0], dtype=np.int64)
    for suit in range(4):
        mine = suits == suit
        count = mine.sum(axis=1)
        mask = np.where(mine, np.int64(1) << ranks, 0).sum(axis=1)
        flush = np.where(count >= 5, mask, flush)
    return multiset * 8192 + flush


def _check_against_pure(hands: np.ndarray, sample: int, seed: int) -> None:
    got = evaluate_batch(hands)
    keys = _class_keys(hands)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    for name, function in PURE.items():
        expected = np.array([function(hands[i].tolist()) for i in first], dtype=np.int64)[inverse]
        mismatch = np.flatnonzero(expected != getattr(got, name))
        assert mismatch.size == 0, (
            f"{name}: hand {hands[mismatch[0]].tolist()} batch {getattr(got, name)[mismatch[0]]}"
            f" pure {expected[mismatch[0]]}"
        )
    rng = random.Random(seed)
    for i in rng.sample(range(hands.shape[0]), min(sample, hands.shape[0])):
        cards = hands[i].tolist()
        assert (int(got.high[i]), int(got.low[i]), int(got.low8[i])) == (
            pure.high_rank(cards),
            pure.low_rank(cards),
            pure.low8_rank(cards),
        ), cards


def _random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    out = []
    for start in range(0, count, 250_000):
        n = min(250_000, count - start)
        out.append(np.argsort(rng.random((n, 52), dtype=np.float32), axis=1)[:, :size].astype(np.uint8))
    return np.vstack(out)


def test_dense_index_numbers_every_multiset_once() -> None:
    keys = np.fromiter(pure._HIGH.keys(), dtype=np.int64)
    index = fe.dense_index(keys)
    assert keys.size == 73_775
    assert np.unique(index).size == keys.size
    assert index.min() >= 0 and index.max() < fe.TABLE_SIZE == 76_155


def test_every_five_card_hand() -> None:
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8, count=5 * 2_598_960)
    hands = flat.reshape(-1, 5)
    assert hands.shape == (2_598_960, 5)
    _check_against_pure(hands, sample=20_000, seed=5)


def test_random_seven_card_hands() -> None:
    hands = _random_hands(np.random.default_rng(2026), 2_000_000, 7)
    _check_against_pure(hands, sample=30_000, seed=7)


def test_random_six_card_hands() -> None:
    hands = _random_hands(np.random.default_rng(6), 500_000, 6)
    _check_against_pure(hands, sample=10_000, seed=6)


def test_single_rank_functions_agree_with_evaluate_batch() -> None:
    hands = _random_hands(np.random.default_rng(1), 20_000, 7).astype(np.int64)  # any int dtype
    both = evaluate_batch(hands)
    assert (high_ranks(hands) == both.high).all()
    assert (low_ranks(hands) == both.low).all()
    assert (low8_ranks(hands) == both.low8).all()
    hi, lo8 = hilo8_ranks(hands, check=False)
    assert (hi == both.high).all() and (lo8 == both.low8).all()
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).high.shape == (0,)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([[0, 1, 2, 3]], "5, 6 or 7"),
        ([[0, 1, 2, 3, 4, 5, 6, 7]], "5, 6 or 7"),
        ([[0, 1, 2, 3, 52]], "0..51"),
        ([[0, 1, 2, 3, -1]], "0..51"),
        ([[0, 1, 2, 3, 4], [9, 8, 7, 9, 10]], "hand 1 holds the same card twice"),
        ([[0.0, 1, 2, 3, 4]], "integers"),
    ],
)
def test_bad_input_is_a_clear_error(hands: list[list[float]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_batch(np.array(hands))


# ===============================================================================================
# The engine's showdown against the batch ranks
# ===============================================================================================


def _play_to_showdown(rng: random.Random, game_class: type, players: int) -> Hand:
    stakes = Stakes(ante=10, bring_in=20, small_bet=40, big_bet=80)
    hand = Hand(game_class(stakes), [100_000] * players, seed=rng.randrange(1 << 30))
    while not hand.is_over:
        legal = hand.legal_actions()
        passive = [a for a in legal if a.kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)]
        aggressive = [a for a in legal if a.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)]
        if aggressive and rng.random() < 0.2:
            hand.act(rng.choice(aggressive))
        elif passive:
            hand.act(passive[0])
        else:
            hand.act(legal[0])
    return hand


def test_engine_showdown_and_batch_ranks_name_the_same_winners() -> None:
    rng = random.Random(77)
    plays = []
    for index in range(600):
        game_class = (StudHiLo, Stud, Razz)[index % 3]
        plays.append((game_class, _play_to_showdown(rng, game_class, rng.randint(2, 8))))
    rows, where = [], []
    for k, (_, hand) in enumerate(plays):
        for seat in range(hand.n):
            if not hand.folded[seat]:
                where.append((k, seat))
                rows.append([int(c) for c in hand.seven_cards(seat)])
    ranks = evaluate_batch(np.array(rows, dtype=np.uint8))
    by_hand: dict[int, dict[int, tuple[int, int, int]]] = {}
    for (k, seat), hi, lo, lo8 in zip(where, ranks.high, ranks.low, ranks.low8, strict=True):
        by_hand.setdefault(k, {})[seat] = (int(hi), int(lo), int(lo8))
    communities = 0
    for k, (game_class, hand) in enumerate(plays):
        seats = by_hand[k]
        assert len(seats) >= 2  # nobody folds in these hands: always a showdown
        communities += hand.community is not None
        paid: dict[str, set[int]] = {}
        for award in hand.awards:
            assert award.pot == 0  # deep stacks: no side pots
            paid.setdefault(award.share, set()).add(award.seat)

        def best(values: dict[int, int]) -> set[int]:
            top = max(values.values())
            return {s for s, v in values.items() if v == top}

        highs = {s: r[0] for s, r in seats.items()}
        if game_class is Stud:
            assert paid == {"whole": best(highs)}
        elif game_class is Razz:
            assert paid == {"whole": best({s: r[1] for s, r in seats.items()})}
        else:
            lows = {s: r[2] for s, r in seats.items() if r[2] > 0}
            if lows and "whole" in paid:
                # One hand best both ways: the others muck, and it takes the pot unshown.
                assert paid["whole"] == best(highs) == best(lows) and len(paid) == 1
            elif lows:
                assert paid == {"high": best(highs), "low": best(lows)}
            else:
                assert paid == {"whole": best(highs)}
    assert communities > 0  # eight players who all stay: the deck runs out on 7th street
