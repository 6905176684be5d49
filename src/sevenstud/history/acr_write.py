"""Writing a hand of ours as Americas Cardroom text (:func:`format_acr`), from one viewer's point
of view; :mod:`sevenstud.history.acr` reads it back (and re-exports the writer).

Our engine takes the rake once, when the pot is paid, so the running ``Main pot X | Rake Y``
lines carry ``Rake $0.00`` until the showdown's, which show the pots after the whole rake; the
summary splits what was taken into ``Rake`` and ``JP Fee`` by the ``jackpot_fee`` given."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Literal

from sevenstud import evaluate
from sevenstud.cards import Card, format_cards
from sevenstud.games import GameCode
from sevenstud.hand import (
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Hand,
    HandMucked,
    HandShown,
    PotAwarded,
)
from sevenstud.history.writer_seats import written_seats
from sevenstud.pots import build_pots, split_rake

GAME_TITLES: dict[GameCode, str] = {"stud8": "7Stud H/L", "stud": "7Stud", "razz": "Razz"}
"""How an ACR header names each of our games (before ``(Fixed Limit)``). The room deals no razz
that we have seen written; we name it ``Razz``."""
_ORDINALS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def format_acr(
    hand: Hand,
    *,
    players: Sequence[str] | None = None,
    seat_numbers: Sequence[int] | None = None,
    hero: int | None = None,
    reveal: Iterable[int] | Literal["all"] = (),
    unknown: Collection[int] = (),
    hand_id: str | int = 1,
    table: str = "sevenstud",
    max_seats: int | None = None,
    date: str = "2024/01/01 00:00:00 UTC",
    money: bool = False,
    symbol: str = "$",
    tournament: str | None = None,
    level: int | None = None,
    jackpot_fee: int = 0,
) -> str:
    """A hand of ours as Americas Cardroom writes it, seen by ``hero`` (our seat index; ``None``:
    an observer, who sees the up cards). Seats in ``reveal`` (or ``"all"``) have their down cards
    written as a hero's are, unless they hold a card in ``unknown`` (cards nobody saw). Money is
    written ``$0.10`` (cents), tournament chips ``250.00`` and a ring game's play chips ``250``;
    a ``tournament`` number writes a tournament header at ``level``. ``jackpot_fee`` is the part
    of the hand's rake written as ``JP Fee``."""
    n = hand.n
    names, numbers, full, _ = written_seats(hand, players, seat_numbers, hero, reveal, unknown)
    if not 0 <= jackpot_fee <= hand.rake:
        raise ValueError(f"the jackpot fee {jackpot_fee} is not a part of the rake {hand.rake}")
    game = hand.game
    stakes = game.stakes

    def amt(chips: int) -> str:
        if money:
            return f"{symbol}{chips // 100}.{chips % 100:02d}"
        # Tournament chips as the room writes them; a ring game's play chips as whole numbers,
        # which the reader tells from money written without the $.
        return f"{chips}.00" if tournament is not None else str(chips)

    title = f"{GAME_TITLES[game.code]} (Fixed Limit)"
    bets = f"{amt(stakes.small_bet)}/{amt(stakes.big_bet)}"
    seats = max_seats or max(8, max(numbers))
    if tournament is not None:
        where = f"Game Hand #{hand_id} - Tournament #{tournament}"
        out = [f"{where} - {title} - Level {level or 1} ({bets}) - {date}", f"Table '{table}' {seats}-max"]
    else:
        ante = f", Ante {amt(stakes.ante)}" if stakes.ante else ""
        out = [f"Hand #{hand_id} - {title} - {bets}{ante} - {date}", f"{table} {seats}-max"]
    for s in range(n):
        out.append(f"Seat {numbers[s]}: {names[s]} ({amt(hand.starting_stacks[s])})")

    tail = {True: " and is all-in", False: ""}
    contributed = [0] * n
    folded = [False] * n
    fold_order: list[int] = []
    folded_on: dict[int, int] = {}
    bet_on_third: set[int] = set()  # seats that acted on 3rd street beyond the bring-in
    street = 0
    street_high = 0
    dealt: list[tuple[int, Card, bool]] = []
    shown: dict[int, HandShown] = {}
    mucked: set[int] = set()
    awards: list[PotAwarded] = []
    showdown = hand.is_over and sum(not f for f in hand.folded) >= 2
    showdown_written = False

    def pot_lines(pots: list[tuple[int, int]]) -> None:
        for index, (net, rake) in enumerate(pots or [(0, 0)]):
            label = "Main pot" if index == 0 else f"Side pot({index})"
            out.append(f"{label} {amt(net)}" + (f" | Rake {amt(rake)}" if tournament is None or rake else ""))

    def running_pots() -> None:
        pot_lines([(p.amount, 0) for p in build_pots(contributed, [not f for f in folded])])

    def seen(s: int, upto: int) -> list[Card]:
        cards = hand.cards[s][:upto]
        if s in full:
            return list(cards)
        return [c for c, up in zip(cards, hand.face_up[s][:upto], strict=True) if up]

    def flush_deals() -> None:
        for s in range(n):
            mine = [(c, up) for seat, c, up in dealt if seat == s]
            if not mine:
                continue
            if street == 3:
                cards = [c for c, _ in mine] if s in full else [c for c, up in mine if up]
                out.append(f"Dealt to {names[s]} [{format_cards(cards)}]")
                continue
            card, up = mine[0]
            if up or s in full:
                out.append(f"Dealt to {names[s]} [{format_cards(seen(s, street - 1))}] [{card}]")
        dealt.clear()

    for ev in hand.events:
        if dealt and not isinstance(ev, CardDealt):
            flush_deals()
        if isinstance(ev, AntePosted):
            contributed[ev.seat] += ev.amount
            if ev.amount:
                out.append(f"{names[ev.seat]} posts ante {amt(ev.amount)}{tail[ev.all_in]}")
        elif isinstance(ev, CardDealt):
            if ev.street != street:
                if dealt:
                    flush_deals()
                street, street_high = ev.street, 0
                out.append(f"*** {_ORDINALS[street]} STREET ***")
                running_pots()
            assert ev.card is not None
            dealt.append((ev.seat, ev.card, ev.face_up))
        elif isinstance(ev, CommunityCardDealt):
            street, street_high = 7, 0
            out.append(f"*** 7th STREET *** [{ev.card}]")
            running_pots()
        elif isinstance(ev, ActionTaken):
            name, kind = names[ev.seat], ev.action.kind
            contributed[ev.seat] += ev.chips
            end = tail[ev.all_in]
            if ev.street == 3 and kind is not ActionKind.BRING_IN and kind is not ActionKind.FOLD:
                bet_on_third.add(ev.seat)
            if kind is ActionKind.FOLD:
                folded[ev.seat] = True
                fold_order.append(ev.seat)
                folded_on[ev.seat] = ev.street
                out.append(f"{name} folds")
                continue
            if kind is ActionKind.CHECK:
                out.append(f"{name} checks")
                continue
            assert ev.action.amount is not None
            current, street_high = street_high, max(street_high, ev.action.amount)
            if kind is ActionKind.BRING_IN:
                out.append(f"{name} brings in {amt(ev.action.amount)}{end}")
            elif kind is ActionKind.CALL:
                out.append(f"{name} calls {amt(ev.chips)}{end}")
            elif current == 0 and kind is ActionKind.BET:
                out.append(f"{name} bets {amt(ev.chips)}{end}")
            else:  # a completion or a raise: what goes in now, then the street total
                out.append(f"{name} raises {amt(ev.chips)} to {amt(ev.action.amount)}{end}")
        elif isinstance(ev, BetReturned):
            contributed[ev.seat] -= ev.amount
            out.append(f"Uncalled bet ({amt(ev.amount)}) returned to {names[ev.seat]}")
        elif isinstance(ev, HandShown | HandMucked | PotAwarded):
            if showdown and not showdown_written:
                out.append("*** SHOW DOWN ***")
                gross = build_pots(contributed, [not f for f in folded], fold_order)
                taken = split_rake(
                    [p.amount for p in gross], hand.rake, each_pot=game.rake_from == "each_pot"
                )
                pot_lines([(p.amount - t, t) for p, t in zip(gross, taken, strict=True)])
                showdown_written = True
            if isinstance(ev, HandShown):
                shown[ev.seat] = ev
                out.append(f"{names[ev.seat]} shows [{format_cards(ev.cards)}] ({describe(hand, ev.seat)})")
            elif isinstance(ev, HandMucked):
                mucked.add(ev.seat)
                out.append(f"{names[ev.seat]} does not show")
            else:
                awards.append(ev)
    if dealt:
        flush_deals()
    won: Counter[int] = Counter()
    for a in awards:
        won[a.seat] += a.amount
    if showdown:
        for a in sorted(awards, key=lambda a: a.pot):  # the main pot first, as the room lists them
            where = "main pot" if a.pot == 0 else f"side pot-{a.pot}"
            out.append(f"{names[a.seat]} collected {amt(a.amount)} from {where}")
    else:
        out.extend(f"{names[s]} does not show" for s in range(n) if won[s])
    out.append("*** SUMMARY ***")
    total = f"Total pot {amt(sum(a.amount for a in awards))}"
    if hand.rake:
        total += f" | Rake {amt(hand.rake - jackpot_fee)}"
    if jackpot_fee:
        total += f" | JP Fee {amt(jackpot_fee)}"
    out.append(total)
    if hand.community is not None:
        out.append(f"Board [{hand.community}]")
    for s in range(n):
        line = f"Seat {numbers[s]}: {names[s]}"
        if s in folded_on:
            line += f" folded on the {_ORDINALS[folded_on[s]]} Street"
            if folded_on[s] == 3 and s not in bet_on_third:
                line += " and did not bet"
        elif s in shown:
            result = f"won {amt(won[s])}" if won[s] else "lost"
            line += f" showed [{format_cards(shown[s].cards)}] and {result} with {describe(hand, s)}"
        elif s in mucked:
            line += " mucked"
        else:
            line += f" did not show and won {amt(won[s])}" if won[s] else " did not show"
        out.append(line)
    return "\n".join(out) + "\n"


def best_five(cards: Sequence[Card]) -> list[Card]:
    """The five of ``cards`` that make the best high hand, the telling cards first (pairs before
    kickers, higher before lower), as the room lists them."""
    best = max(itertools.combinations(cards, 5), key=lambda five: evaluate.high_rank([int(c) for c in five]))
    counts = Counter(c.rank for c in best)
    return sorted(best, key=lambda c: (-counts[c.rank], -c.rank))


def _high_words(rank: int) -> str:
    """Our name of a high hand in the room's words (``a high card, Queen high``, ``three of a
    kind, Set of Tens``, ``a straight, Queen high``)."""
    name = evaluate.high_name(rank)
    if name.startswith("high card "):
        return f"a high card, {name[len('high card ') :]} high"
    if name.startswith("three of a kind, "):
        return f"three of a kind, Set of {name[len('three of a kind, ') :]}"
    if name.startswith(("a straight, ", "a straight flush, ")):
        head, _, top = name.rpartition(" to ")
        return f"{head.rsplit(',', 1)[0]}, {top} high"
    return name


def describe(hand: Hand, seat: int) -> str:
    """A shown hand described as the room does: the high hand and its best five in brackets, and
    in hi/lo ``HI - ... | LO - [8,7,5,3,2]`` (an ace written 1); in razz ``LO - [..]``."""
    game = hand.game
    seven = hand.seven_cards(seat)
    high, low = game.showdown_ranks([int(c) for c in seven])
    low_text = "[" + ",".join("1" if r == "A" else r for r in evaluate.low_cards(low)) + "]" if low else ""
    if not game.has_high:
        return f"LO - {low_text}"
    high_text = f"{_high_words(high)} [{format_cards(best_five(seven))}]"
    if not game.split:
        return high_text
    return f"HI - {high_text}" + (f" | LO - {low_text}" if low else "")
