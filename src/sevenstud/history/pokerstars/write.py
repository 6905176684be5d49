"""Writing a hand of ours as PokerStars text, from one viewer's point of view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Any, Literal

from sevenstud.cards import Card, format_cards
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
from sevenstud.history.pokerstars.model import (
    _ALL_IN,
    _STREET_WORDS,
    GAME_TITLES,
    STREET_TITLES,
    describe_show,
    format_amount,
)
from sevenstud.history.writer_seats import written_seats


def format_hand(
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
    date: str = "2024/01/01 00:00:00 ET",
    money: bool = False,
    currency: str = "USD",
    symbol: str = "$",
    tournament: str | None = None,
    level: int | None = None,
    buy_in: str | None = None,
    show_mucked: bool = True,
) -> str:
    """A hand of ours as PokerStars writes it, seen by ``hero`` (our seat index; ``None``: a
    spectator, who sees only the up cards). Seats in ``reveal`` (or every seat, ``"all"``) have
    their down cards written too, as a hero's are; a seat holding a card in ``unknown`` (cards
    nobody saw, e.g. made up to replay another file) never does. Chips are written as money (cents
    to ``$0.04``) when ``money``; a ``tournament`` number writes a tournament header (at
    ``level``, with ``buy_in`` as the card room writes it, e.g. ``$200+$15 USD``, when known).

    Lines go where the card room puts them, because trackers read them there: an ante returned
    uncalled follows the 3rd-street deal; a hand mucked at the showdown is listed in the
    summary with its cards (as the card room lists it) unless they are ``unknown`` or
    ``show_mucked`` is False (then only the viewer's own mucked cards are)."""
    n = hand.n
    names, numbers, full, hidden = written_seats(hand, players, seat_numbers, hero, reveal, unknown)
    game = hand.game
    stakes = game.stakes

    def amt(chips: int) -> str:
        return format_amount(chips, money, symbol)

    limit = f"{GAME_TITLES[game.code]} Limit"
    if tournament is not None:
        bets = f"{amt(stakes.small_bet)}/{amt(stakes.big_bet)}"
        paid = f"{buy_in} " if buy_in else ""
        if level is not None and level < 1:
            raise ValueError(f"a tournament level is 1 or more, not {level}")
        head = f"Tournament #{tournament}, {paid}{limit} - Level {_roman(level or 1)} ({bets})"
    else:
        code = f" {currency}" if money else ""
        head = f"{limit} ({amt(stakes.small_bet)}/{amt(stakes.big_bet)}{code})"
    out = [
        # (the card room puts two spaces before a ring game's name, one before a tournament)
        f"PokerStars Hand #{hand_id}:{' ' if tournament is not None else '  '}{head} - {date}",
        f"Table '{table}' {max_seats or max(8, max(numbers))}-max",
    ]
    for s in range(n):
        out.append(f"Seat {numbers[s]}: {names[s]} ({amt(hand.starting_stacks[s])} in chips) ")
    live_at_end = [s for s in range(n) if not hand.folded[s]]
    showdown = hand.is_over and len(live_at_end) >= 2
    showdown_written = False
    third: list[CardDealt] = []
    last_street = 3
    folded_street: dict[int, int] = {}
    acted: set[tuple[int, int]] = set()  # (seat, street) of every action but a fold
    # The street's highest total so far: a raise is written by how much it raises it.
    bet_street, street_high = 3, 0
    shown: dict[int, HandShown] = {}
    mucked: set[int] = set()
    collected: list[PotAwarded] = []
    # An ante nobody matched goes back before the deal in our events; the card room prints it
    # after the 3rd-street deal, and a tracker looks for it there (not before the header).
    ante_returns: list[str] = []
    dealt = False

    def flush_third() -> None:
        if not third:
            return
        out.append("*** 3rd STREET ***")
        for s in range(n):
            mine = [ev.card for ev in third if ev.seat == s and ev.card is not None]
            if mine:
                out.append(f"Dealt to {names[s]} [{format_cards(mine if s in full else mine[2:])}]")
        third.clear()
        out.extend(ante_returns)
        ante_returns.clear()

    def up_cards(s: int, upto: int) -> list[Card]:
        return [c for c, up in zip(hand.cards[s][:upto], hand.face_up[s][:upto], strict=True) if up]

    for ev in hand.events:
        if third and not (isinstance(ev, CardDealt) and ev.street == 3):
            flush_third()
        if isinstance(ev, AntePosted):
            if ev.amount:
                out.append(
                    f"{names[ev.seat]}: posts the ante {amt(ev.amount)}" + (_ALL_IN if ev.all_in else "")
                )
        elif isinstance(ev, CardDealt):
            dealt = True
            if ev.street == 3:
                third.append(ev)
                continue
            assert ev.card is not None
            if ev.street != last_street:
                out.append(f"*** {STREET_TITLES[ev.street]} ***")
                last_street = ev.street
            s = ev.seat
            before = hand.cards[s][: ev.street - 1]
            if s in full:
                out.append(f"Dealt to {names[s]} [{format_cards(before)}] [{ev.card}]")
            elif ev.face_up:
                out.append(f"Dealt to {names[s]} [{format_cards(up_cards(s, ev.street - 1))}] [{ev.card}]")
        elif isinstance(ev, CommunityCardDealt):
            out.append(f"*** RIVER *** [{ev.card}]")
            last_street = 7
        elif isinstance(ev, ActionTaken):
            if ev.street != bet_street:
                bet_street, street_high = ev.street, 0
            out.append(_action_line(ev, names[ev.seat], amt, street_high))
            if ev.action.amount is not None:
                street_high = max(street_high, ev.action.amount)
            if ev.action.kind is ActionKind.FOLD:
                folded_street[ev.seat] = ev.street
            else:
                acted.add((ev.seat, ev.street))
        elif isinstance(ev, BetReturned):
            returned = f"Uncalled bet ({amt(ev.amount)}) returned to {names[ev.seat]}"
            (out if dealt else ante_returns).append(returned)
        elif isinstance(ev, HandShown | HandMucked | PotAwarded):
            if showdown and not showdown_written:
                out.append("*** SHOW DOWN ***")
                showdown_written = True
            if isinstance(ev, HandShown):
                shown[ev.seat] = ev
                cards = format_cards(ev.cards)
                out.append(f"{names[ev.seat]}: shows [{cards}] ({describe_show(game, ev.high, ev.low)})")
            elif isinstance(ev, HandMucked):
                mucked.add(ev.seat)
                out.append(f"{names[ev.seat]}: mucks hand ")
            else:
                collected.append(ev)
    flush_third()
    pots = sorted({a.pot for a in collected})
    for award in sorted(collected, key=lambda a: -a.pot):
        if len(pots) <= 1 and award.pot == 0:
            label = "pot"
        elif award.pot == 0:
            label = "main pot"
        else:
            label = "side pot" if max(pots) == 1 else f"side pot-{award.pot}"
        out.append(f"{names[award.seat]} collected {amt(award.amount)} from {label}")
    if showdown and game.split and not any(a.share == "low" for a in collected):
        out.append("No low hand qualified")
    if hand.is_over and not showdown:
        for s in live_at_end:
            out.append(f"{names[s]}: doesn't show hand ")
    out.append("*** SUMMARY ***")
    total = sum(a.amount for a in collected) + hand.rake
    pot_text = ""
    if len(pots) > 1:
        by_pot = Counter[int]()
        for a in collected:
            by_pot[a.pot] += a.amount
        parts = [f"Main pot {amt(by_pot[0])}."] + [
            f"Side pot{'' if max(pots) == 1 else f'-{p}'} {amt(by_pot[p])}." for p in pots if p
        ]
        pot_text = " " + " ".join(parts)
    out.append(f"Total pot {amt(total)}{pot_text} | Rake {amt(hand.rake)} ")
    if hand.community is not None:
        out.append(f"Board [{hand.community}]")
    won = Counter[int]()
    for a in collected:
        won[a.seat] += a.amount
    for s in range(n):
        line = f"Seat {numbers[s]}: {names[s]}"
        if s in folded_street:
            street = folded_street[s]
            line += f" folded on the {_STREET_WORDS[street]}" + (
                "" if (s, street) in acted or street != 3 else " (didn't bet)"
            )
        elif s in shown:
            ev = shown[s]
            result = f"won ({amt(won[s])})" if won[s] else "lost"
            described = describe_show(game, ev.high, ev.low)
            line += f" showed [{format_cards(ev.cards)}] and {result} with {described}"
        elif s in mucked:
            known = s in full or (show_mucked and not hidden.intersection(hand.cards[s]))
            line += f" mucked [{format_cards(hand.cards[s])}]" if known else " mucked"
        elif won[s]:
            line += f" collected ({amt(won[s])})"
        out.append(line)
    return "\n".join(out) + "\n"


def _action_line(ev: ActionTaken, name: str, amt: Any, street_high: int) -> str:
    """The line of one action; ``street_high``: the street's highest total before it."""
    action = ev.action
    kind = action.kind
    tail = _ALL_IN if ev.all_in else ""
    if kind is ActionKind.FOLD:
        return f"{name}: folds "
    if kind is ActionKind.CHECK:
        return f"{name}: checks "
    assert action.amount is not None
    if kind is ActionKind.BRING_IN:
        return f"{name}: brings in for {amt(action.amount)}{tail}"
    if kind is ActionKind.CALL or street_high == 0:
        verb = "calls" if kind is ActionKind.CALL else "bets"
        return f"{name}: {verb} {amt(ev.chips)}{tail}"
    return f"{name}: raises {amt(action.amount - street_high)} to {amt(action.amount)}{tail}"


def _roman(number: int) -> str:
    """A tournament level as the card room numbers it: 1 -> I, 4 -> IV, 31 -> XXXI."""
    digits = []
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        count, number = divmod(number, value)
        digits.append(letters * count)
    return "".join(digits)
