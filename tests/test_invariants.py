"""Invariants of the hand engine, checked at every step of random hands.

Random games of all three kinds with random rule options (games.py), 2-8 players, stacks from one
chip to deep (so that players go all-in on the ante, on the bring-in and later), random decks and
random choices among the legal actions. At every step:

- chips are conserved (stacks + pot + rake == the starting chips), no stack is negative, and the
  events account for every chip in the middle;
- the legal actions are well formed, every one of them is accepted, and a spread of illegal
  candidates (every kind, amounts legal±1, 0, -1, huge, the wrong seat) is rejected with
  :class:`IllegalAction` and leaves the state exactly as it was;
- no view (any seat, or a spectator) shows another seat's down card unless that seat has shown
  its hand; mucked hands stay hidden;
- the hand ends within a bounded number of actions;

and at the end: the awards add up to the pot less the rake, each goes to a seat that did not fold,
did not muck and was eligible for that pot, a hand won by folds shows nothing, a hi/lo pot's low
half goes only to a qualifying low (eight or better) and the high half is never the smaller, and
:meth:`Hand.replay` reproduces the hand exactly.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sevenstud.cards import Card
from sevenstud.deck import Deck
from sevenstud.games import SUIT_ORDER_CHDS, SUIT_ORDER_STANDARD, Game, Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Event,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    IllegalAction,
    Phase,
    PotAwarded,
    RakeTaken,
    StreetStarted,
)
from sevenstud.pots import Award

GAME_CLASSES: tuple[type[Game], ...] = (StudHiLo, Stud, Razz)
HUGE = 10**9
LOW8_RANKS = frozenset({12, 0, 1, 2, 3, 4, 5, 6})  # A, 2 .. 8 (Card.rank: 0 deuce .. 12 ace)
AGGRESSIVE = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


# ---------------------------------------------------------------------------- building games


def make_game(
    cls: type[Game],
    ante: int,
    bring_in: int,
    small_extra: int,
    big_extra: int,
    options: dict[str, object],
) -> Game:
    stakes = Stakes(
        ante=ante,
        bring_in=bring_in,
        small_bet=bring_in + small_extra,
        big_bet=bring_in + small_extra + big_extra,
    )
    if cls is not Stud:
        options = {k: v for k, v in options.items() if k != "double_bet_on_open_pair"}
    return cls(stakes, **options)  # type: ignore[arg-type]


@st.composite
def games(draw: st.DrawFn) -> Game:
    cls = draw(st.sampled_from(GAME_CLASSES))
    options: dict[str, object] = {
        "max_raises": draw(st.integers(0, 5)),
        "uncapped_heads_up": draw(st.booleans()),
        "reopen_fraction": draw(
            st.sampled_from([Fraction(1, 2), Fraction(0), Fraction(1), Fraction(1, 3)])
        ),
        "bring_in_tie_break": draw(st.sampled_from(["suits", "seat"])),
        "suit_order": draw(
            st.sampled_from([SUIT_ORDER_STANDARD, SUIT_ORDER_CHDS, *permutations(range(4))])
        ),
        "first_actor_all_in": draw(st.sampled_from(["next_clockwise", "best_active"])),
        "odd_chip": draw(st.sampled_from(["high_card", "lowest_seat"])),
        "double_bet_on_open_pair": draw(st.booleans()),
        "rake_percent": draw(
            st.sampled_from(
                [Fraction(0), Fraction(0), Fraction(5), Fraction(10), Fraction(25, 2), Fraction(60)]
            )
        ),
        "rake_cap": draw(st.sampled_from([0, 0, 1, 3, 1000])),
        "rake_from": draw(st.sampled_from(["each_pot", "main_pot"])),
        "rake_third_street": draw(st.booleans()),
        "first_actor_tie_break": draw(st.sampled_from(["seat", "suits"])),
        "all_in_face_up": draw(st.booleans()),
    }
    return make_game(
        cls,
        ante=draw(st.integers(0, 5)),
        bring_in=draw(st.integers(1, 5)),
        small_extra=draw(st.sampled_from([0, 1, 2, 3, 5, 8])),
        big_extra=draw(st.sampled_from([0, 1, 5, 10])),
        options=options,
    )


stack_sizes = st.one_of(st.integers(1, 12), st.integers(1, 80), st.integers(100, 600))


def random_game(rng: random.Random) -> Game:
    options: dict[str, object] = {
        "max_raises": rng.randint(0, 5),
        "uncapped_heads_up": rng.random() < 0.3,
        "reopen_fraction": rng.choice([Fraction(1, 2), Fraction(0), Fraction(1), Fraction(1, 3)]),
        "bring_in_tie_break": rng.choice(["suits", "seat"]),
        "suit_order": rng.choice([SUIT_ORDER_STANDARD, SUIT_ORDER_CHDS]),
        "first_actor_all_in": rng.choice(["next_clockwise", "best_active"]),
        "odd_chip": rng.choice(["high_card", "lowest_seat"]),
        "double_bet_on_open_pair": rng.random() < 0.7,
        "rake_percent": rng.choice([Fraction(0)] * 3 + [Fraction(5), Fraction(10), Fraction(60)]),
        "rake_cap": rng.choice([0, 0, 1, 3, 1000]),
        "rake_from": rng.choice(["each_pot", "main_pot"]),
        "rake_third_street": rng.random() < 0.5,
        "first_actor_tie_break": rng.choice(["seat", "suits"]),
        "all_in_face_up": rng.random() < 0.7,
    }
    return make_game(
        rng.choice(GAME_CLASSES),
        ante=rng.randint(0, 5),
        bring_in=rng.randint(1, 5),
        small_extra=rng.choice([0, 1, 2, 3, 5, 8]),
        big_extra=rng.choice([0, 1, 5, 10]),
        options=options,
    )


def random_stacks(rng: random.Random, n: int) -> list[int]:
    pick = rng.random()
    top = 12 if pick < 0.3 else 80 if pick < 0.7 else 600
    return [rng.randint(1, top) for _ in range(n)]


def action_bound(game: Game, stacks: list[int]) -> int:
    """More actions than any hand can take: per street each seat acts at most once per counted
    bet or raise and once per all-in raise (every all-in ends that seat's betting), plus one
    show or muck each; without a cap, every counted raise adds at least one chip."""
    n = len(stacks)
    per_round = n * (game.cap + n + 2)
    bound = 5 * per_round + n
    if game.uncapped_heads_up:
        bound += 2 * 5 * (sum(stacks) + 1)
    return bound


# ---------------------------------------------------------------------------- independent readings


def total_chips(hand: Hand) -> int:
    return sum(hand.stacks) + hand.pot + hand.rake


def contributions_from_events(events: Sequence[Event], n: int) -> list[int]:
    """What every seat has put in the middle, read from the events alone."""
    contributed = [0] * n
    street = [0] * n
    for e in events:
        if isinstance(e, AntePosted):
            contributed[e.seat] += e.amount
        elif isinstance(e, StreetStarted):
            street = [0] * n
        elif isinstance(e, ActionTaken) and e.action.amount is not None:
            contributed[e.seat] += e.action.amount - street[e.seat]
            street[e.seat] = e.action.amount
        elif isinstance(e, BetReturned):
            contributed[e.seat] -= e.amount
            street[e.seat] = max(0, street[e.seat] - e.amount)
    return contributed


def pot_levels(
    contributed: list[int], live: list[bool], fold_order: Sequence[int] = ()
) -> list[tuple[int, tuple[int, ...]]]:
    """(amount, eligible seats) of the main pot and each side pot: a pot's level is a live seat's
    total; the seats eligible are the live ones that put in at least that much; chips of folded
    seats above the last level were matched by nobody still in: each such level is a pot for the
    seat that folded last among those who put chips in it (docs/rules.md)."""
    levels = sorted({c for c, alive in zip(contributed, live, strict=True) if alive and c > 0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(s for s, c in enumerate(contributed) if live[s] and c >= level)
        pots.append((amount, eligible))
        previous = level
    for level in sorted({c for c in contributed if c > previous}):
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        last = [s for s in fold_order if contributed[s] >= level][-1]
        if pots and pots[-1][1] == (last,) and not live[last]:
            pots[-1] = (pots[-1][0] + amount, (last,))
        else:
            pots.append((amount, (last,)))
        previous = level
    return pots


def rake_shares(amounts: list[int], rake: int, each_pot: bool) -> list[int]:
    """The rake each pot gives: from the main pot first, or in proportion to the pots' sizes
    with the chips left over to the largest remainders (the main pot first among equals)."""
    if not each_pot:
        out = []
        for amount in amounts:
            out.append(min(rake, amount))
            rake -= out[-1]
        return out
    total = sum(amounts)
    exact = [Fraction(rake * a, total) for a in amounts]
    shares = [int(x) for x in exact]
    order = sorted(range(len(amounts)), key=lambda i: exact[i] - shares[i], reverse=True)
    for i in order[: rake - sum(shares)]:
        shares[i] += 1
    return shares


def qualifies_for_low(cards: list[Card]) -> bool:
    return len({c.rank for c in cards if c.rank in LOW8_RANKS}) >= 5


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        tuple(hand.stacks),
        tuple(hand.contributed),
        tuple(hand.street_bets),
        tuple(hand.folded),
        len(hand.events),
        len(hand.actions),
        hand.to_act,
        hand.street,
        hand.phase,
        tuple(hand.legal_actions()),
        hand.pot,
        hand.rake,
        tuple(len(c) for c in hand.cards),
        hand.community,
        tuple(sorted(hand.shown)),
        tuple(sorted(hand.mucked)),
        hand.deck.position,
    )


def cards_in(value: object) -> set[int]:
    """Every card anywhere inside a view value (cards, tuples of cards, event fields)."""
    if isinstance(value, Card):
        return {int(value)}
    if isinstance(value, tuple | list):
        found: set[int] = set()
        for item in value:
            found |= cards_in(item)
        return found
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = set()
        for f in dataclasses.fields(value):
            found |= cards_in(getattr(value, f.name))
        return found
    return set()


# ---------------------------------------------------------------------------- the checks


def check_chips(hand: Hand, start_total: int) -> None:
    assert all(s >= 0 for s in hand.stacks), hand.stacks
    assert all(c >= 0 for c in hand.contributed), hand.contributed
    assert total_chips(hand) == start_total, (hand.stacks, hand.pot, hand.rake, start_total)
    if not hand.is_over:
        assert hand.rake == 0
        assert contributions_from_events(hand.events, hand.n) == hand.contributed


def check_legal_actions(hand: Hand) -> list[Action]:
    legal = hand.legal_actions()
    if hand.is_over:
        assert hand.to_act is None and legal == []
        return legal
    seat = hand.to_act
    assert seat is not None and 0 <= seat < hand.n
    assert not hand.folded[seat]
    assert legal, "a seat is to act but has nothing it may do"
    assert len(set(legal)) == len(legal), legal
    if hand.phase is Phase.SHOWDOWN:
        assert {a.kind for a in legal} == {ActionKind.SHOW, ActionKind.MUCK}
        assert seat not in hand.shown and seat not in hand.mucked
        return legal
    assert hand.phase is Phase.BETTING
    assert hand.stacks[seat] > 0, "a seat with no chips is asked to act"
    # Nobody is asked to act when at most one player can still bet and nobody faces a bet.
    able = [s for s in range(hand.n) if hand.stacks[s] and not hand.folded[s]]
    assert len(able) >= 2 or hand.street_bets[seat] < max(hand.street_bets), (
        f"seat {seat} is asked to act with nobody to bet against"
    )
    mine, most, top = (
        hand.street_bets[seat],
        hand.street_bets[seat] + hand.stacks[seat],
        max(hand.street_bets),
    )
    for a in legal:
        assert a.kind not in (ActionKind.SHOW, ActionKind.MUCK), a
        if a.kind in (ActionKind.FOLD, ActionKind.CHECK):
            assert a.amount is None
            continue
        assert a.amount is not None and mine < a.amount <= most, (a, mine, most)
        if a.kind is ActionKind.CALL:
            assert a.amount <= top, (a, top)
            assert a.amount == top or a.amount == most, (a, top, most)
        if a.kind in AGGRESSIVE:
            assert a.amount > top, f"{a} does not raise the bet of {top}"
    kinds = [a.kind for a in legal]
    assert (ActionKind.CHECK in kinds) != (ActionKind.CALL in kinds) or ActionKind.BRING_IN in kinds
    return legal


def illegal_candidates(hand: Hand, legal: list[Action]) -> list[Action]:
    amounts: set[int | None] = {None, 0, -1, HUGE}
    for a in legal:
        if a.amount is not None:
            amounts |= {a.amount - 1, a.amount, a.amount + 1}
    amounts |= {hand.stacks[hand.to_act or 0], max(hand.street_bets)}
    return [Action(kind, amount) for kind in ActionKind for amount in amounts]


def expected_legal(candidate: Action, legal: list[Action]) -> bool:
    same = [a for a in legal if a.kind is candidate.kind]
    if candidate.amount is None:
        return len(same) == 1
    return any(a.amount == candidate.amount for a in same)


def check_rejections(hand: Hand, legal: list[Action], rng: random.Random) -> None:
    before = snapshot(hand)
    for candidate in illegal_candidates(hand, legal):
        if expected_legal(candidate, legal):
            meant = hand.verify(candidate)
            assert meant in legal, (candidate, meant, legal)
            assert hand.can(candidate)
            continue
        assert not hand.can(candidate), (candidate, legal)
        with pytest.raises(IllegalAction):
            hand.act(candidate)
        assert snapshot(hand) == before, f"the rejected {candidate} changed the hand"
    if hand.is_over:
        return
    seat = hand.to_act
    assert seat is not None
    wrong = [s for s in range(-1, hand.n + 1) if s != seat]
    for action in legal:
        with pytest.raises(IllegalAction):
            hand.act(action, rng.choice(wrong))
        assert snapshot(hand) == before, f"{action} by the wrong seat changed the hand"


def check_legal_accepted(hand: Hand, legal: list[Action], start_total: int) -> None:
    """Every legal action is accepted by a copy of the hand, which stays consistent."""
    for action in legal:
        twin = copy.deepcopy(hand)
        events = twin.act(action, hand.to_act)
        assert events, f"{action} caused no event"
        assert twin.actions[-1] == (hand.to_act, action) or action.kind is ActionKind.MUCK
        check_chips(twin, start_total)


def check_views(hand: Hand) -> None:
    turned = {e.seat for e in hand.events if isinstance(e, HandTurnedUp)}
    assert turned == hand.turned_up
    if turned:  # every live hand at once, once at most one player could still bet
        assert hand.game.all_in_face_up
        assert turned == {s for s in range(hand.n) if not hand.folded[s]}
        assert sum(1 for s in turned if hand.stacks[s] and not hand.folded[s]) <= 1 or hand.is_over
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)} | turned
    mucked = {e.seat for e in hand.events if isinstance(e, HandMucked)}
    assert not (shown - turned) & mucked, (shown, mucked)
    assert shown - turned == set(hand.shown) - turned
    for viewer in [None, *range(hand.n)]:
        view = hand.view(viewer)
        hidden = {
            int(card)
            for s in range(hand.n)
            if s != viewer and s not in shown
            for card, up in zip(hand.cards[s], hand.face_up[s], strict=True)
            if not up
        }
        seen = cards_in(view.cards) | cards_in(view.events) | cards_in(view.community)
        leaked = hidden & seen
        assert not leaked, f"seat {viewer} sees {[str(Card(c)) for c in leaked]}"
        # What the viewer may see, it does see.
        for s in range(hand.n):
            for i, (card, up) in enumerate(zip(hand.cards[s], hand.face_up[s], strict=True)):
                if up or s == viewer or s in shown:
                    assert view.cards[s][i] == card
                else:
                    assert view.cards[s][i] is None
        assert len(view.events) == len(hand.events) == view.version
        since = len(hand.events) // 2
        assert hand.view(viewer, since).events == view.events[since:]
        assert view.stacks == tuple(hand.stacks) and view.pot == hand.pot
        if viewer is not None and viewer == hand.to_act:
            assert list(view.legal_actions) == hand.legal_actions()
        else:
            assert view.legal_actions == ()


def check_end(hand: Hand, start_total: int, auto_showdown: bool) -> None:
    assert hand.is_over and hand.to_act is None
    assert hand.finishing_stacks == tuple(hand.stacks)
    assert sum(hand.finishing_stacks) + hand.rake == start_total
    assert isinstance(hand.events[-1], HandEnded)
    assert hand.events[-1].stacks == hand.finishing_stacks
    with pytest.raises(IllegalAction):
        hand.act(Action(ActionKind.FOLD))
    n = hand.n
    live = [not f for f in hand.folded]
    contributed = contributions_from_events(hand.events, n)
    fold_order = [
        e.seat for e in hand.events if isinstance(e, ActionTaken) and e.action.kind is ActionKind.FOLD
    ]
    pots = pot_levels(contributed, live, fold_order)
    rake_events = [e.amount for e in hand.events if isinstance(e, RakeTaken)]
    assert sum(rake_events) == hand.rake
    game = hand.game
    expected_rake = int(sum(contributed) * game.rake_percent / 100)
    if game.rake_cap:
        expected_rake = min(expected_rake, game.rake_cap)
    fourth_dealt = any(isinstance(e, CardDealt) and e.street > 3 for e in hand.events)
    if not fourth_dealt and not game.rake_third_street:  # no 4th-street card, no rake
        expected_rake = 0
    assert hand.rake == expected_rake
    # Chips follow the events: what each seat put in and got back.
    awarded = [PotAwarded(a.seat, a.amount, a.pot, a.share) for a in hand.awards]
    assert [e for e in hand.events if isinstance(e, PotAwarded)] == awarded
    won = [0] * n
    for a in hand.awards:
        won[a.seat] += a.amount
    assert [hand.starting_stacks[s] - contributed[s] + won[s] for s in range(n)] == list(
        hand.finishing_stacks
    )
    assert sum(won) + hand.rake == sum(contributed)
    # The rake comes out of every pot in proportion to its size, or of the main pot first.
    taken = rake_shares([a for a, _ in pots], hand.rake, game.rake_from == "each_pot")
    net = [amount - t for (amount, _), t in zip(pots, taken, strict=True)]
    by_pot: dict[int, list[Award]] = {}
    for a in hand.awards:
        by_pot.setdefault(a.pot, []).append(a)
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    mucked = {e.seat for e in hand.events if isinstance(e, HandMucked)}
    won_by_folds = sum(live) == 1
    if won_by_folds:
        assert not shown and not mucked, "a hand won by folds shows its cards"
        assert hand.phase is Phase.OVER
    for a in hand.awards:
        assert a.amount > 0, a
        assert 0 <= a.pot < len(pots), (a, pots)
        eligible = pots[a.pot][1]
        assert a.seat in eligible, f"seat {a.seat} is not eligible for pot {a.pot}: {pots}"
        # A folded seat wins only chips nobody still in matched (it folded last of them).
        assert live[a.seat] or eligible == (a.seat,), f"seat {a.seat} folded but wins {a}"
        # A mucked hand gives up its claim, except to a pot it was already the last to claim.
        if a.seat in mucked:
            order = [e.seat for e in hand.events if isinstance(e, HandMucked)]
            before = set(order[: order.index(a.seat)])
            assert set(eligible) - {a.seat} <= before, f"seat {a.seat} mucked but wins {a}"
        if game.low is None or not game.has_high:
            assert a.share == "whole", a
    for index, (_, eligible) in enumerate(pots):
        awards = by_pot.get(index, [])
        assert sum(a.amount for a in awards) == net[index], (index, awards, net, pots)
        contenders = [s for s in eligible if s not in mucked]
        if not contenders:  # every claim mucked: the whole pot to the last claimant
            assert len(awards) <= 1 and all(a.share == "whole" for a in awards), awards
            continue
        if len(contenders) == 1:
            # A pot one hand takes alone (docs/rules.md, "Hi/lo split"): whole, or in hi/lo both
            # halves to it when it was shown with a qualifying low; a hand unseen claims no low.
            alone = contenders[0]
            scoop = (
                game.low == "eight_or_better"
                and game.has_high
                and alone in shown
                and qualifies_for_low(hand.seven_cards(alone))
            )
            halves = {(alone, "high"), (alone, "low")} if scoop else {(alone, "whole")}
            assert {(a.seat, a.share) for a in awards} <= halves, awards
            if scoop and net[index] >= 2:
                assert {a.share for a in awards} == {"high", "low"}, awards
        if game.low == "eight_or_better" and game.has_high:
            lows = [a for a in awards if a.share == "low"]
            highs = [a for a in awards if a.share == "high"]
            for a in lows:
                assert qualifies_for_low(hand.seven_cards(a.seat)), f"{a}: no eight-or-better low"
            qualified = [s for s in contenders if qualifies_for_low(hand.seven_cards(s))]
            if len(contenders) >= 2 and net[index] >= 2:
                assert bool(lows) == bool(qualified), (index, awards, qualified)
                assert bool(lows) == bool(highs), awards
            assert sum(a.amount for a in highs) >= sum(a.amount for a in lows)
            assert sum(a.amount for a in highs) - sum(a.amount for a in lows) <= 1
    # Replay gives the same hand.
    again = Hand.replay(
        game, list(hand.starting_stacks), hand.deck.cards, hand.actions, auto_showdown=auto_showdown
    )
    assert again.events == hand.events
    assert again.finishing_stacks == hand.finishing_stacks
    assert again.awards == hand.awards


# ---------------------------------------------------------------------------- the driver


def play(
    game: Game,
    stacks: list[int],
    seed: int,
    choose: Callable[[list[Action]], int],
    *,
    auto_showdown: bool = True,
    thorough: bool = True,
    rng: random.Random | None = None,
) -> Hand:
    rng = rng or random.Random(seed)
    start_total = sum(stacks)
    hand = Hand(game, stacks, Deck.seeded(seed), auto_showdown=auto_showdown)
    bound = action_bound(game, stacks)
    for _ in range(bound + 1):
        check_chips(hand, start_total)
        legal = check_legal_actions(hand)
        if thorough:
            check_views(hand)
            check_rejections(hand, legal, rng)
        if hand.is_over:
            check_end(hand, start_total, auto_showdown)
            return hand
        if thorough:
            check_legal_accepted(hand, legal, start_total)
        action = legal[choose(legal)]
        hand.act(action, hand.to_act)
    raise AssertionError(f"the hand did not end within {bound} actions: {hand!r}")


# ---------------------------------------------------------------------------- the tests

PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW)


def passive_index(legal: list[Action]) -> int:
    return next((i for i, a in enumerate(legal) if a.kind in PASSIVE), 0)


def drawn_choice(data: st.DataObject) -> Callable[[list[Action]], int]:
    """Hypothesis picks the action; it leans to (and shrinks towards) checking and calling, so
    that hands reach the later streets and the showdown more often than folding allows."""

    def choose(legal: list[Action]) -> int:
        i = data.draw(st.integers(0, len(legal) + 1), label="action")
        return i - 2 if i >= 2 else passive_index(legal)

    return choose


def seeded_choice(rng: random.Random) -> Callable[[list[Action]], int]:
    def choose(legal: list[Action]) -> int:
        return passive_index(legal) if rng.random() < 0.4 else rng.randrange(len(legal))

    return choose


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=games(),
    stacks=st.lists(stack_sizes, min_size=2, max_size=8),
    seed=st.integers(0, 2**32),
    auto_showdown=st.booleans(),
    data=st.data(),
)
def test_every_step_of_random_hands(
    game: Game, stacks: list[int], seed: int, auto_showdown: bool, data: st.DataObject
) -> None:
    """Conservation, legality, rejections, views and the end of the hand, at every step."""

    play(game, stacks, seed, drawn_choice(data), auto_showdown=auto_showdown, thorough=True)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=games(),
    stacks=st.lists(stack_sizes, min_size=2, max_size=8),
    seed=st.integers(0, 2**32),
    auto_showdown=st.booleans(),
    data=st.data(),
)
def test_random_hands_end_and_settle(
    game: Game, stacks: list[int], seed: int, auto_showdown: bool, data: st.DataObject
) -> None:
    """Conservation at every step, a bounded length, the awards and replay (more hands, fewer
    checks per step)."""

    play(game, stacks, seed, drawn_choice(data), auto_showdown=auto_showdown, thorough=False)


@settings(max_examples=100, deadline=None)
@given(
    game=games(),
    stacks=st.lists(stack_sizes, min_size=2, max_size=8),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_replay_of_every_prefix(
    game: Game, stacks: list[int], seed: int, data: st.DataObject
) -> None:
    """Replaying the first k actions gives exactly the events and choices the hand had then."""
    hand = Hand(game, stacks, Deck.seeded(seed))
    history: list[tuple[list[Event], list[Action]]] = []
    choose = drawn_choice(data)
    while not hand.is_over:
        legal = hand.legal_actions()
        history.append((list(hand.events), legal))
        hand.act(legal[choose(legal)])
    history.append((list(hand.events), []))
    k = data.draw(st.integers(0, len(hand.actions)), label="prefix")
    again = Hand.replay(game, stacks, Deck.seeded(seed).cards, hand.actions[:k])
    assert (again.events, again.legal_actions()) == history[k]
    assert again.is_over == (k == len(hand.actions))


def test_thousands_of_seeded_hands_conserve_chips() -> None:
    """A plain loop: chips are conserved at every step of a few thousand seeded random hands,
    every hand ends, and the awards add up."""
    for seed in range(4000):
        rng = random.Random(seed)
        choose = seeded_choice(rng)
        game = random_game(rng)
        n = rng.randint(2, 8)
        stacks = random_stacks(rng, n)
        start_total = sum(stacks)
        hand = Hand(game, stacks, Deck.seeded(seed), auto_showdown=rng.random() < 0.8)
        bound = action_bound(game, stacks)
        for _ in range(bound):
            assert all(s >= 0 for s in hand.stacks), (seed, hand.stacks)
            assert total_chips(hand) == start_total, seed
            if hand.is_over:
                break
            legal = hand.legal_actions()
            assert legal, seed
            hand.act(legal[choose(legal)])
        else:
            raise AssertionError(f"seed {seed}: the hand did not end within {bound} actions")
        put_in = sum(contributions_from_events(hand.events, n))
        assert sum(a.amount for a in hand.awards) + hand.rake == put_in, seed
        assert sum(hand.finishing_stacks) + hand.rake == start_total, seed


def test_the_random_hands_reach_the_edge_cases() -> None:
    """The generators above are worth something only if they reach the hard cases: all-ins on
    the ante, on the bring-in and later, side pots, a community card, hands won by folds, shown
    and mucked hands, split pots, rake; this counts them over seeded hands."""
    seen: Counter[str] = Counter()
    for seed in range(600):
        rng = random.Random(10_000 + seed)
        game = random_game(rng)
        n = rng.randint(2, 8)
        stacks = random_stacks(rng, n)
        auto = rng.random() < 0.7
        hand = play(
            game, stacks, seed, seeded_choice(rng), auto_showdown=auto, thorough=False, rng=rng
        )
        events = hand.events
        for e in events:
            if isinstance(e, AntePosted) and e.all_in:
                seen["all-in on the ante"] += 1
            if isinstance(e, ActionTaken) and e.all_in:
                if e.action.kind is ActionKind.BRING_IN:
                    seen["all-in on the bring-in"] += 1
                elif e.street >= 4:
                    seen["all-in later"] += 1
            if isinstance(e, CommunityCardDealt):
                seen["community card"] += 1
            if isinstance(e, HandMucked):
                seen["mucked"] += 1
            if isinstance(e, RakeTaken):
                seen["rake"] += 1
            if isinstance(e, CardDealt) and e.street == 7:
                seen["7th street"] += 1
        if any(a.pot > 0 for a in hand.awards):
            seen["side pot"] += 1
        if sum(not f for f in hand.folded) == 1:
            seen["won by folds"] += 1
        if any(a.share == "low" for a in hand.awards):
            seen["low half"] += 1
        if len({a.seat for a in hand.awards if a.pot == 0}) > 1:
            seen["split"] += 1
        if not auto and any(isinstance(e, HandShown) for e in events):
            seen["manual showdown"] += 1
    wanted = [
        "all-in on the ante",
        "all-in on the bring-in",
        "all-in later",
        "community card",
        "mucked",
        "rake",
        "7th street",
        "side pot",
        "won by folds",
        "low half",
        "split",
        "manual showdown",
    ]
    missing = [w for w in wanted if seen[w] == 0]
    assert not missing, (missing, seen)
