"""Writing a hand of ours as Full Tilt text (:func:`format_fulltilt`), from one viewer's point
of view; :mod:`sevenstud.history.fulltilt` reads it back (and re-exports the writer)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Literal

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
from sevenstud.history.amounts import format_amount
from sevenstud.history.writer_seats import written_seats

GAME_TITLES: dict[GameCode, str] = {"stud8": "Stud H/L", "stud": "Stud Hi", "razz": "Razz"}
"""How a Full Tilt header names each of our games (after ``Limit``)."""
STREET_ORDINALS = {3: "3RD", 4: "4TH", 5: "5TH", 6: "6TH", 7: "7TH"}
"""How Full Tilt numbers a street in its marks (``*** 3RD STREET ***``)."""
_BRING_IN_WORDS = {"lowest": "low", "highest": "high"}  # "Hero is low with [2c]"


def format_fulltilt(
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
    symbol: str = "$",
    tournament: str | None = None,
    buy_in: str | None = None,
) -> str:
    """A hand of ours as Full Tilt writes it, seen by ``hero`` (our seat index; ``None``: an
    observer, who sees the up cards). Seats in ``reveal`` (or ``"all"``) have their down cards
    written as a hero's are, unless they hold a card in ``unknown`` (cards nobody saw). ``date``
    is ``YYYY/MM/DD HH:MM:SS ZONE``; a ``tournament`` number writes a tournament header, led by
    its ``buy_in`` where given (in PokerStars' form, ``$200+$15 USD`` or ``Freeroll``; Full Tilt
    writes ``$200 + $15 Tournament (N), Table 1 - ...``)."""
    n = hand.n
    names, numbers, full, _ = written_seats(hand, players, seat_numbers, hero, reveal, unknown)
    game = hand.game
    stakes = game.stakes

    def amt(chips: int) -> str:
        return format_amount(chips, money, symbol)

    m = re.match(r"(\d{4}/\d{1,2}/\d{1,2}) (\d{1,2}:\d{2}:\d{2})(?: (\w+))?", date)
    day, clock, zone = (
        (m.group(1), m.group(2), m.group(3) or "ET")
        if m
        else (
            "2024/01/01",
            "00:00:00",
            "ET",
        )
    )
    seats_text = f" ({max_seats} max)" if max_seats else ""
    where = f"Table {table}{seats_text}"
    if tournament is not None:
        name = "sevenstud Tournament" if buy_in is None else f"{_buy_in_text(buy_in)} Tournament"
        where = f"{name} ({tournament}), {where}"
    out = [
        f"Full Tilt Poker Game #{hand_id}: {where} - {amt(stakes.small_bet)}/{amt(stakes.big_bet)}"
        f" Ante {amt(stakes.ante)} - Limit {GAME_TITLES[game.code]} - {clock} {zone} - {day}"
    ]
    for s in range(n):
        out.append(f"Seat {numbers[s]}: {names[s]} ({amt(hand.starting_stacks[s])})")
    tail = {True: ", and is all in", False: ""}
    street = 0
    street_high = 0  # the street's highest total so far: a bet opens it, a raise raises it
    dealt_this_street: list[tuple[int, Card, bool]] = []
    showdown_written = False
    folded_on: dict[int, int] = {}
    shown: dict[int, HandShown] = {}
    awards: list[PotAwarded] = []
    live_at_end = [s for s in range(n) if not hand.folded[s]]
    showdown = hand.is_over and len(live_at_end) >= 2

    def seen(s: int, upto: int) -> list[Card]:
        cards = hand.cards[s][:upto]
        if s in full:
            return list(cards)
        return [c for c, up in zip(cards, hand.face_up[s][:upto], strict=True) if up]

    def flush_deals() -> None:
        for s in range(n):
            mine = [(c, up) for seat, c, up in dealt_this_street if seat == s]
            if not mine:
                continue
            if street == 3:
                down = [c for c, up in mine if not up]
                ups = [c for c, up in mine if up]
                shown_cards = (f"[{format_cards(down)}] " if s in full else "") + (f"[{format_cards(ups)}]")
                out.append(f"Dealt to {names[s]} {shown_cards}")
                continue
            card, up = mine[0]
            if not up and s not in full:
                continue
            before = seen(s, street - 1)
            out.append(f"Dealt to {names[s]} [{format_cards(before)}] [{card}]")
        dealt_this_street.clear()

    for ev in hand.events:
        if dealt_this_street and not isinstance(ev, CardDealt):
            flush_deals()
        if isinstance(ev, AntePosted):
            if ev.amount:
                out.append(f"{names[ev.seat]} antes {amt(ev.amount)}{tail[ev.all_in]}")
        elif isinstance(ev, CardDealt):
            if ev.street != street:
                if dealt_this_street:
                    flush_deals()
                street = ev.street
                street_high = 0
                out.append(f"*** {STREET_ORDINALS[street]} STREET ***")
            assert ev.card is not None
            dealt_this_street.append((ev.seat, ev.card, ev.face_up))
        elif isinstance(ev, CommunityCardDealt):
            street = 7
            street_high = 0
            out.append(f"*** 7TH STREET *** [{ev.card}]")
        elif isinstance(ev, ActionTaken):
            action, name = ev.action, names[ev.seat]
            kind = action.kind
            end = tail[ev.all_in]
            if kind is ActionKind.BRING_IN:
                door = hand.cards[ev.seat][2]
                out.append(f"{name} is {_BRING_IN_WORDS[game.bring_in_by]} with [{door}]")
            if kind is ActionKind.FOLD:
                folded_on[ev.seat] = ev.street
                out.append(f"{name} folds")
                continue
            if kind is ActionKind.CHECK:
                out.append(f"{name} checks")
                continue
            assert action.amount is not None
            current, street_high = street_high, max(street_high, action.amount)
            if kind is ActionKind.BRING_IN:
                out.append(f"{name} brings in for {amt(action.amount)}{end}")
            elif kind is ActionKind.CALL:
                out.append(f"{name} calls {amt(ev.chips)}{end}")
            elif current == 0 and kind is not ActionKind.COMPLETE:
                out.append(f"{name} bets {amt(ev.chips)}{end}")
            elif kind is ActionKind.COMPLETE:
                out.append(f"{name} completes it to {amt(action.amount)}{end}")
            else:
                out.append(f"{name} raises to {amt(action.amount)}{end}")
        elif isinstance(ev, BetReturned):
            out.append(f"Uncalled bet of {amt(ev.amount)} returned to {names[ev.seat]}")
        elif isinstance(ev, HandShown | HandMucked | PotAwarded):
            if showdown and not showdown_written:
                out.append("*** SHOW DOWN ***")
                showdown_written = True
            if isinstance(ev, HandShown):
                shown[ev.seat] = ev
                out.append(f"{names[ev.seat]} shows [{format_cards(ev.cards)}] {_ft_words(hand, ev)}")
            elif isinstance(ev, HandMucked):
                out.append(f"{names[ev.seat]} mucks")
            else:
                awards.append(ev)
    if dealt_this_street:
        flush_deals()
    pots = {a.pot for a in awards}
    for a in sorted(awards, key=lambda a: -a.pot):
        half = "" if a.share == "whole" else f"{a.share} "
        which = "" if len(pots) <= 1 else ("main " if a.pot == 0 else "side ")
        number = f" #{a.pot}" if a.pot and max(pots) > 1 else ""
        out.append(f"{names[a.seat]} wins the {half}{which}pot{number} ({amt(a.amount)})")
    if showdown and game.split and not any(a.share == "low" for a in awards):
        out.append("No low hand qualified")
    out.append("*** SUMMARY ***")
    total = sum(a.amount for a in awards) + hand.rake
    out.append(f"Total pot {amt(total)} | Rake {amt(hand.rake)}")
    won: Counter[int] = Counter()
    for a in awards:
        won[a.seat] += a.amount
    for s in range(n):
        line = f"Seat {numbers[s]}: {names[s]}"
        if s in folded_on:
            line += f" folded on {folded_on[s]}{STREET_ORDINALS[folded_on[s]][1:].lower()} St."
        elif s in shown:
            result = f"won ({amt(won[s])})" if won[s] else "lost"
            line += f" showed [{format_cards(shown[s].cards)}] and {result}"
        elif won[s]:
            line += f" collected ({amt(won[s])}), mucked"
        else:
            line += " mucked"
        out.append(line)
    return "\n".join(out) + "\n"


def _ft_words(hand: Hand, shown: HandShown) -> str:
    """A shown hand described as Full Tilt does."""
    game = hand.game
    if not game.has_high:
        return shown.low or ""
    high = shown.high or ""
    if game.split:
        return f"{high}, for high" + (f" and {shown.low}, for low" if shown.low else "")
    return high


def _buy_in_text(buy_in: str) -> str:
    """PokerStars' ``$200+$15 USD`` as Full Tilt writes a buy-in, ``$200 + $15``."""
    return re.sub(r"\s+[A-Z]{3}$", "", buy_in).replace("+", " + ")
