"""What the comparisons of an engine that plays the rules again (the batched one, the lean one)
against ``Hand`` must meet, shared by tests/rl/test_batched.py and tests/rl/test_lean.py: decks
rigged so that equal hands are common, and a count of the rare cases a run met."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sevenstud.hand import Hand

# Per run, the folding weight of a random policy (the other legal actions weigh 1): some runs
# fold often (hands won by folds), the rest seldom (showdowns, and eight players who all see
# 7th street and run out of deck).
FOLD_WEIGHTS = (1.0, 0.1, 0.03, 0.01)

NEEDED = {
    "stud8": ("bring-in tie by suit", "everybody folded", "community card", "quartered low",
              "odd chip among tied hands", "odd pot split high/low", "tied high"),
    "stud": ("bring-in tie by suit", "everybody folded", "community card", "tied high",
             "open pair on 4th street", "big bet on 4th street", "odd chip among tied hands"),
    "razz": ("bring-in tie by suit", "everybody folded", "community card", "tied low",
             "odd chip among tied hands"),
}  # fmt: skip
"""The cases each game's comparison must have met."""


def rig_for_ties(row: Any, n: int, rng: Any) -> None:
    """Rig the deck ``row`` (52 card numbers, changed in place) for ties: two seats are dealt the
    same ranks in other suits (no flush), as many of them eight or lower as a qualifying low
    needs, where they would receive them if nobody folded; so that equal hands, split halves,
    odd chips among tied hands and quartered lows come often, not once in thousands of
    showdowns."""
    slots = 7 if 7 * n <= 52 else 6  # eight players: the 7th card is the community card
    a, b = rng.choice(n, 2, replace=False)
    lows = rng.choice([12, 0, 1, 2, 3, 4, 5, 6], 5, replace=False)
    highs = rng.choice(range(7, 12), 2, replace=False)
    ranks = rng.permutation([*lows, *highs])[:slots]
    fixed = {}
    for k, rank in enumerate(ranks):
        fixed[k * n + a] = int(rank) * 4 + k % 2  # clubs and diamonds
        fixed[k * n + b] = int(rank) * 4 + 2 + k % 2  # hearts and spades
    rest = [c for c in row if c not in set(fixed.values())]
    row[:] = [fixed[p] if p in fixed else rest.pop() for p in range(52)]


def note_deal(hand: Hand, seen: Counter[str]) -> None:
    """Count a bring-in decided by suit."""
    doors = [row[2] for row in hand.cards]
    bring_in = hand.bring_in_seat
    assert bring_in is not None
    rank = doors[bring_in] >> 2
    if sum(1 for c in doors if c >> 2 == rank) > 1:
        seen["bring-in tie by suit"] += 1


def note_end(hand: Hand, seen: Counter[str]) -> None:
    """Count how a finished hand ended: by folds, or a showdown with the community card, tied
    hands, odd chips among them, an odd pot split high and low, a quartered low."""
    seen["hands"] += 1
    if hand.folded.count(False) == 1:
        seen["everybody folded"] += 1
        return
    seen["showdown"] += 1
    if hand.community is not None:
        seen["community card"] += 1
    shares = Counter(a.share for a in hand.awards)
    low_winners = {a.seat for a in hand.awards if a.share == "low"}
    if len(low_winners) >= 2 and {a.seat for a in hand.awards if a.share == "high"} - low_winners:
        seen["quartered low"] += 1
    if shares["whole"] >= 2 or shares["high"] >= 2:
        seen["tied high" if hand.game.has_high else "tied low"] += 1
    for share, count in shares.items():
        amounts = {a.amount for a in hand.awards if a.share == share}
        if count >= 2 and len(amounts) > 1:
            seen["odd chip among tied hands"] += 1
    if shares["high"] and sum(a.amount for a in hand.awards) % 2:
        seen["odd pot split high/low"] += 1
