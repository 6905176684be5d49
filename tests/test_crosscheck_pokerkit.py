"""Cross-check against an independent implementation: thousands of random hands (2 to 8
players, random stacks so that all-ins happen, all three games) played through our engine and
through PokerKit on the same deck and the same actions must give identical results, except where
docs/rules.md and PokerKit differ on purpose (docs/pokerkit.md).

The differences are configured away where our engine has an option for PokerKit's way (odd
chips to the lowest seat, no 4th-street double bet in stud); the rest are recognised from the
hand itself, and every hand PokerKit cannot follow must be one of them. A quarter of the
hands that agree are also written by PokerKit as PHH and replayed through our engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("pokerkit")

from sevenstud.deck import Deck
from sevenstud.games import Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import ActionKind, ActionTaken, Hand, StreetStarted
from sevenstud.history.phh import loads
from sevenstud.history.replay import play_phh, to_phh
from tests.peers.pokerkit_peer import PeerDiffers, pokerkit_play

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
# PokerKit's ways where we have an option for them.
AS_POKERKIT = {
    "stud8": StudHiLo(STAKES, odd_chip="lowest_seat", fold_without_bet=False),
    "stud": Stud(
        STAKES, odd_chip="lowest_seat", double_bet_on_open_pair=False, fold_without_bet=False
    ),
    "razz": Razz(STAKES, odd_chip="lowest_seat", fold_without_bet=False),
}
HANDS_PER_GAME = 2500


def random_hand(game: Game, rng: random.Random) -> Hand:
    n = rng.randint(2, 8)
    stacks = [
        rng.choice([rng.randint(1, 12), rng.randint(10, 60), rng.randint(50, 200)])
        for _ in range(n)
    ]
    hand = Hand(game, stacks, Deck.seeded(rng.getrandbits(64)))
    while not hand.is_over:
        hand.act(rng.choice(hand.legal_actions()))
    return hand


def short_all_in_raise(hand: Hand) -> bool:
    """Whether somebody went all-in for less than a full bet or raise (the reopening rules)."""
    stakes = hand.game.stakes
    level = 0
    for event in hand.events:
        if isinstance(event, StreetStarted):
            level = 0
        elif isinstance(event, ActionTaken):
            action = event.action
            amount = action.amount or 0
            increment = stakes.small_bet if event.street <= 4 else stakes.big_bet
            if action.kind is ActionKind.BRING_IN:
                if event.all_in and amount < stakes.bring_in:
                    return True
            elif action.kind is ActionKind.COMPLETE:
                if event.all_in and amount < stakes.small_bet:
                    return True
            elif (
                action.kind in (ActionKind.BET, ActionKind.RAISE)
                and event.all_in
                and amount < level + increment
            ):
                return True
            level = max(level, amount)
    return False


def community_after_fold(hand: Hand) -> bool:
    """Eight players, somebody folded, and the deck ran short: PokerKit reshuffles instead."""
    return hand.n == 8 and any(hand.folded) and len(hand.deck.cards) - hand.deck.position < 8


def pots_with_same_winners_settled_apart(hand: Hand) -> bool:
    """Two pots won by the same players: we settle each pot on its own (docs/rules.md), so each
    has its own odd chip; PokerKit kills the hands that cannot win, merges the pots left with
    the same players and splits the sum once, which can move an odd chip."""
    winners: dict[int, set[int]] = {}
    for award in hand.awards:
        winners.setdefault(award.pot, set()).add(award.seat)
    groups = Counter(frozenset(seats) for seats in winners.values() if len(seats) > 1)
    return any(count > 1 for count in groups.values())


def known_difference(hand: Hand, error: PeerDiffers) -> str | None:
    message = str(error)
    if "has no qualifying low" in message:
        return "hi/lo side pot without a low (PokerKit mis-splits it)"
    if "community card" in message and community_after_fold(hand):
        return "deck runs out after folds (PokerKit reshuffles mucked and burned cards)"
    if short_all_in_raise(hand):
        return "all-in for less than a full bet (PokerKit has no half-bet rule)"
    return None


@pytest.mark.parametrize("code", ["stud8", "stud", "razz"])
def test_random_hands_agree_with_pokerkit(code: str) -> None:
    game = AS_POKERKIT[code]
    rng = random.Random(f"crosscheck-{code}")
    compared = 0
    differences: Counter[str] = Counter()
    for _ in range(HANDS_PER_GAME):
        hand = random_hand(game, rng)
        phh = to_phh(hand)
        stakes = game.stakes
        try:
            peer = pokerkit_play(
                code,
                ante=stakes.ante,
                bring_in=stakes.bring_in,
                small_bet=stakes.small_bet,
                big_bet=stakes.big_bet,
                stacks=list(hand.starting_stacks),
                deck=[str(c) for c in hand.deck.cards],
                actions=[line for line in phh.actions if not line.startswith("d ")],
            )
        except PeerDiffers as error:
            reason = known_difference(hand, error)
            assert reason is not None, f"unexplained difference: {error}\n{phh.actions}"
            differences[reason] += 1
            continue
        compared += 1
        context = f"{phh.actions}"
        if list(hand.stacks) != peer.finishing_stacks and pots_with_same_winners_settled_apart(
            hand
        ):
            differences["pots with the same winners settled apart (PokerKit merges them)"] += 1
            continue
        assert list(hand.stacks) == peer.finishing_stacks, context
        if compared % 4 == 1:
            # PokerKit's own PHH file of the hand (its order of show lines, mucks as bare
            # "sm", the community card as "d db") replays through `sevenstud replay`. The file
            # does not carry our odd-chip option, so the replay gives odd chips by the highest
            # card: where tied pots are settled apart, PokerKit's merge can then move a chip
            # (the known difference above, seen in the replayed hand itself).
            replayed = play_phh(loads(peer.phh))
            if list(replayed.stacks) != peer.finishing_stacks and (
                pots_with_same_winners_settled_apart(replayed)
            ):
                differences["PHH replay: pots with the same winners settled apart"] += 1
            else:
                assert list(replayed.stacks) == peer.finishing_stacks, peer.phh
        assert (
            hand.bring_in_seat if hand.bring_in_seat is not None else -1
        ) == peer.bring_in_player, context
        ours_first = [
            hand.first_to_act.get(street) for street in range(3, 8) if street in hand.first_to_act
        ]
        assert ours_first == peer.first_actor_per_street[: len(ours_first)], context
    # The known differences are rare: nearly every hand is compared chip for chip.
    print(
        f"{code}: {compared} hands compared chip for chip; known differences: {dict(differences)}"
    )
    assert compared >= 0.9 * HANDS_PER_GAME, differences
