"""The ``view`` message: the table for one connection, with what the browser needs to draw it
without deciding a rule (docs/protocol.md, "Views").

The browser table renders what the server says: the pots and side pots, who brought in, the best
high and low of every hand it may see (named as the dealer names them, with their five cards),
the legal actions with their words, and the last hand's result in plain sentences. All of it is
built here from what the connection may see and nothing else:

* the connection's own :class:`~sevenstud.table.TableView` (the engine's redaction for its seat,
  or a spectator's): the cards, the legal actions;
* the table's stream as a *spectator* sees it (:class:`Presenter` follows it): antes, actions,
  shown hands and awards, which everybody at the table saw.

Never the keeper's hand, which holds every card. The same sentences serve the replayer
(:func:`street_lines`, :func:`summary`), from a stored hand's events as its owner saw them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sevenstud.actions import Action, ActionKind
from sevenstud.cards import Card
from sevenstud.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    CommunityCardDealt,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    PotAwarded,
    RakeTaken,
)
from sevenstud.pots import Pot, build_pots
from sevenstud.showdown_hands import best_high, best_low
from sevenstud.table import HandStarted, StreamGap, Table, TableView
from sevenstud.views import SeatView
from sevenstud.wire import to_wire

__all__ = [
    "HandFacts",
    "Presenter",
    "action_label",
    "action_line",
    "hand_names",
    "legal_actions",
    "pots_of",
    "street_lines",
    "summary",
]


# ---------------------------------------------------------------------- words


def _names_joined(names: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cid"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def action_label(action: Action, already: int = 0) -> str:
    """The button's words for a legal action; ``already`` is what the seat has put in on this
    street (a call's words say the chips still to put in: "Call 2")."""
    kind, amount = action.kind, action.amount or 0
    if kind is ActionKind.BRING_IN:
        return f"Bring in {amount}"
    if kind is ActionKind.COMPLETE:
        return f"Complete to {amount}"
    if kind is ActionKind.CALL:
        return f"Call {amount - already}"
    if kind is ActionKind.RAISE:
        return f"Raise to {amount}"
    if kind is ActionKind.BET:
        return f"Bet {amount}"
    return kind.value.capitalize()  # Check, Fold, Show, Muck


def action_line(name: str, event: object) -> str | None:
    """One event of a hand in words ("Ann brings in for 1", "Bob completes to 2"); None for an
    event a log does not say (cards dealt, streets begun, the awards: see :func:`summary`)."""
    if isinstance(event, AntePosted):
        return f"{name} posts the ante of {event.amount}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, ActionTaken):
        kind, amount = event.action.kind, event.action.amount
        words = {
            ActionKind.FOLD: "folds",
            ActionKind.CHECK: "checks",
            ActionKind.CALL: f"calls {event.chips}",
            ActionKind.BRING_IN: f"brings in for {amount}",
            ActionKind.COMPLETE: f"completes to {amount}",
            ActionKind.BET: f"bets {amount}",
            ActionKind.RAISE: f"raises to {amount}",
            ActionKind.SHOW: "shows",
            ActionKind.MUCK: "mucks",
        }[kind]
        return f"{name} {words}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, BetReturned):
        return f"{event.amount} uncalled returned to {name}"
    if isinstance(event, HandTurnedUp):
        return f"{name} turns the hand face up: " + " ".join(map(str, event.cards))
    if isinstance(event, HandShown):
        shown = " and ".join(n for n in (event.high, event.low) if n is not None)
        return f"{name} shows {' '.join(map(str, event.cards))}" + (f": {shown}" if shown else "")
    if isinstance(event, HandMucked):
        return f"{name} mucks"
    return None


def _seat_of(event: object) -> int | None:
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None


def street_lines(events: Iterable[object], names: Mapping[int, str]) -> list[str]:
    """Every event of ``events`` that a log says, in words (``names`` by the events' seats)."""
    lines = []
    for event in events:
        seat = _seat_of(event)
        line = action_line(names[seat], event) if seat is not None else None
        if line is not None:
            lines.append(line)
    return lines


def hand_names(cards: Sequence[Card], game: str) -> dict[str, Any]:
    """A hand's best high and low so far with their cards, as the ``view`` message says them
    (razz has no high half, stud no low)."""
    high, high_cards = best_high(cards) if game != "razz" else (None, [])
    low, low_cards = best_low(cards, game)
    return {
        "high": high,
        "high_cards": [str(c) for c in high_cards],
        "low": low,
        "low_cards": [str(c) for c in low_cards],
    }


# ---------------------------------------------------------------------- pots and results


def pots_of(events: Iterable[object], seats: Sequence[int], stacks: Sequence[int] | None = None) -> list[Pot]:
    """The main pot and the side pots from a hand's public events (antes, bets, returns, folds),
    this street's bets included; ``seats``: the seats dealt in, as the events number them (the
    pots' seats are numbered so too). ``stacks`` (in hand order): the hand is still being
    played, so a side pot starts only where a live player is all-in; a bet not yet called is
    in the pot that is still open, not a pot of its own."""
    index = {seat: i for i, seat in enumerate(seats)}
    n = len(seats)
    put_in, folded, fold_order = [0] * n, [False] * n, []
    for event in events:
        if isinstance(event, AntePosted):
            put_in[index[event.seat]] += event.amount
        elif isinstance(event, ActionTaken):
            put_in[index[event.seat]] += event.chips
            if event.action.kind is ActionKind.FOLD:
                folded[index[event.seat]] = True
                fold_order.append(index[event.seat])
        elif isinstance(event, BetReturned):
            put_in[index[event.seat]] -= event.amount
    live = [not f for f in folded]
    if stacks is None:
        pots = build_pots(put_in, live, fold_order)
        return [Pot(p.amount, tuple(seats[i] for i in p.eligible)) for p in pots]
    levels = sorted({put_in[i] for i in range(n) if live[i] and stacks[i] == 0 and put_in[i] > 0})

    def claims(i: int, level: int) -> bool:  # in it already, or may still call into it
        return live[i] and (put_in[i] >= level or stacks[i] > 0)

    shown: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in put_in)
        if amount:
            shown.append(Pot(amount, tuple(seats[i] for i in range(n) if claims(i, level))))
        previous = level
    rest = sum(put_in) - sum(p.amount for p in shown)
    open_to = tuple(seats[i] for i in range(n) if claims(i, previous + 1))
    if rest and open_to:
        shown.append(Pot(rest, open_to))
    elif rest and shown:  # chips of folded seats above every live level: the last pot's
        shown[-1] = Pot(shown[-1].amount + rest, shown[-1].eligible)
    elif rest:
        shown.append(Pot(rest, tuple(seats[i] for i in range(n) if live[i])))
    return shown


def _pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def _each(amounts: Sequence[int]) -> str:
    return f"{amounts[0]} each" if len(set(amounts)) == 1 else " and ".join(map(str, amounts))


def summary(game: str, names: Mapping[int, str], events: Sequence[object]) -> list[str]:
    """Who won what from which pot, in sentences a player understands: scoops, the high and low
    halves, split and quartered halves, "no low", a hand won when everyone else folded.
    ``events`` are a finished hand's (a spectator's or a seat's), ``names`` by the events' seats
    (every seat dealt in, in hand order)."""
    awards = [e for e in events if isinstance(e, PotAwarded)]
    shown = {e.seat: e for e in events if isinstance(e, HandShown)}
    mucked = {e.seat for e in events if isinstance(e, HandMucked)}
    lines = [f"The house takes {e.amount} in rake" for e in events if isinstance(e, RakeTaken)]
    if not awards:
        return lines
    if not shown and len({a.seat for a in awards}) == 1:
        total = sum(a.amount for a in awards)
        return [f"{names[awards[0].seat]} wins {total}: everyone else folded", *lines]
    pots = pots_of(events, list(names))
    sentences: list[str] = []
    for index in sorted({a.pot for a in awards}):
        mine = [a for a in awards if a.pot == index]
        where, total = _pot_name(index), sum(a.amount for a in mine)
        halves = {share: [a for a in mine if a.share == share] for share in ("whole", "high", "low")}
        highs, lows = halves["high"], halves["low"]
        if halves["whole"]:
            winners = halves["whole"]
            if len(winners) > 1:
                who = _names_joined([names[a.seat] for a in winners])
                no_low = " (no low: the high hands take the whole pot)" if game == "stud8" else ""
                sentences.append(f"{who} split {where} ({_each([a.amount for a in winners])}){no_low}")
                continue
            seat = winners[0].seat
            event = shown.get(seat)
            line = f"{names[seat]} wins {where} ({total})"
            if event is not None:
                made = event.low if game == "razz" else event.high
                line += f" with {made}" if made else ""
                eligible = pots[index].eligible if index < len(pots) else ()
                contested = sum(1 for s in eligible if s not in mucked and s in shown) > 1
                if game == "stud8" and contested:
                    line += " (no low: the high hand takes the whole pot)"
            sentences.append(line)
            continue
        if len(highs) == 1 and len(lows) == 1 and highs[0].seat == lows[0].seat:
            seat = highs[0].seat
            event = shown.get(seat)
            made = f" with {event.high} and {event.low}" if event is not None else ""
            sentences.append(f"{names[seat]} scoops {where} ({total}){made}")
            continue
        for half, winners in (("high", highs), ("low", lows)):
            if len(winners) == 1:
                event = shown.get(winners[0].seat)
                made = getattr(event, half, None)
                won, with_text = winners[0], f" with {made}" if made else ""
                line = f"{names[won.seat]} wins the {half} half of {where} ({won.amount})"
                sentences.append(line + with_text)
            elif winners:
                who = _names_joined([names[a.seat] for a in winners])
                each = _each([a.amount for a in winners])
                sentences.append(f"{who} split the {half} half of {where} ({each})")
    return sentences + lines


def _shown_hands(game: str, events: Iterable[object]) -> dict[str, Any]:
    """Every hand shown at the showdown, by table seat, named for both halves (the community
    card, when the deck ran short, is every hand's seventh)."""
    events = list(events)
    community = [e.card for e in events if isinstance(e, CommunityCardDealt)]
    return {
        # The engine's rule (Hand.seven_cards): the community card, once dealt, joins every hand.
        str(e.seat): hand_names([*e.cards, *community], game)
        for e in events
        if isinstance(e, HandShown)
    }


# ---------------------------------------------------------------------- the presenter


def legal_actions(hand: SeatView) -> list[dict[str, Any]]:
    """The seat's legal actions as the ``view`` and ``your_turn`` messages say them, when the
    hand view is the seat's own and it is to act (else none): ``action`` what to send,
    ``label`` the button's words, ``kind``, ``amount`` (the seat's street total after it, as
    the engine counts it; None for fold and check) and ``chips`` (what it puts in now)."""
    if hand.seat is None or hand.to_act != hand.seat:
        return []
    already = hand.bets[hand.seat]
    return [
        {
            "action": str(a),
            "label": action_label(a, already),
            "kind": a.kind.value,
            "amount": a.amount,
            "chips": (a.amount or 0) - already if a.amount is not None else 0,
        }
        for a in hand.legal_actions
    ]


@dataclasses.dataclass(slots=True)
class HandFacts:
    """What everybody at the table knows of one hand: its number, the names by table seat (in
    hand order), and its events as a spectator saw them (seats said as table seats)."""

    number: int
    names: dict[int, str]
    events: list[object] = dataclasses.field(default_factory=list)


class Presenter:
    """One table's ``view`` messages. :meth:`follow` reads the table's new stream entries *as a
    spectator* (so it holds only what everybody saw); :meth:`message` builds one connection's
    ``view`` from them and that connection's own table view."""

    def __init__(self, table: Table) -> None:
        self.game: str = table.settings.game.code
        self.number = table.number
        self.hand: HandFacts | None = None
        """The hand in progress, as everybody knows it."""
        self.last_hand: dict[str, Any] | None = None
        """The hand that ended most recently: its number, its result in sentences, its shown hands."""

    def follow(self, table: Table) -> None:
        """Read the stream's entries since the last call (a spectator's redaction)."""
        if table.number == self.number:
            return
        try:
            entries = table.events_since(self.number, None)
        except StreamGap:  # never behind in practice (followed after every step): start afresh
            entries, self.hand = (), None
        self.number = table.number
        for entry in entries:
            event = entry.event
            if isinstance(event, HandStarted):
                self.hand = HandFacts(event.hand, dict(zip(event.seats, event.players, strict=True)))
                continue
            hand = self.hand
            if hand is None or entry.hand != hand.number:
                continue
            hand.events.append(event)
            if isinstance(event, HandEnded):
                self.last_hand = {
                    "hand": hand.number,
                    "summary": summary(self.game, hand.names, hand.events),
                    "shown": _shown_hands(self.game, hand.events),
                }
                self.hand = None

    def message(
        self, table: Table, seat: int | None, player: str | None, bots: Iterable[str]
    ) -> dict[str, Any]:
        """The ``view`` message for a connection seeing for ``seat`` (None: a spectator) as
        ``player``; ``bots``: the names of the bots seated."""
        # A connection sees for a seat only while its own player sits there.
        you = seat if seat is not None and player is not None and table.player_at(seat) == player else None
        view = table.view(you)
        settings = table.settings
        stakes = settings.game.stakes
        bot_names = set(bots)
        return {
            "type": "view",
            "number": view.number,
            "view": to_wire(view),
            "game": self.game,
            "game_name": settings.game.name,
            # which halves the game has, so that the page never knows a game's rules itself
            "has_high": settings.game.has_high,
            "has_low": settings.game.has_low,
            "stakes": [stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet],
            "seats": settings.seats,
            "min_buy_in": settings.min_buy_in,
            "max_buy_in": settings.max_buy_in,
            "you": you,
            "players": {str(s.seat): {"name": s.player, "bot": s.player in bot_names} for s in view.seats},
            **self._hand_part(view),
            "last_hand": self.last_hand,
        }

    def _hand_part(self, view: TableView) -> dict[str, Any]:
        """Bring-in, pots, the hands this connection may see, its legal actions."""
        hand, facts = view.hand, self.hand
        empty: dict[str, Any] = {"bring_in": None, "pots": [], "hands": {}, "actions": []}
        if hand is None or facts is None or facts.number != view.hand_number:
            return empty
        seats = view.hand_seats
        # The seat the bring-in fell to acts first on third street, bringing in or completing
        # (a completed bring-in is still the bring-in); the mark is third street's alone.
        first = next((e for e in facts.events if isinstance(e, ActionTaken)), None)
        opening = (ActionKind.BRING_IN, ActionKind.COMPLETE)
        on_third = hand.street == 3 and first is not None and first.action.kind in opening
        bring_in = first.seat if on_third and first is not None else None
        pots = [] if hand.phase == "over" else pots_of(facts.events, seats, hand.stacks)
        opened = {e.seat for e in facts.events if isinstance(e, HandShown | HandTurnedUp)}
        hands: dict[str, Any] = {}
        for i, cards in enumerate(hand.cards):
            # Only the viewer's own hand and hands shown or turned up, and only when every card
            # is in this connection's own view (the engine's redaction decides, not this code).
            if (i != hand.seat and seats[i] not in opened) or any(c is None for c in cards):
                continue
            known = [c for c in cards if c is not None]
            if hand.community is not None:  # the engine's rule: it joins every hand
                known.append(hand.community)
            if len(known) >= 3:
                hands[str(seats[i])] = hand_names(known, self.game)
        actions = legal_actions(hand)
        return {
            "bring_in": bring_in,
            "pots": [{"amount": p.amount, "seats": list(p.eligible)} for p in pots],
            "hands": hands,
            "actions": actions,
        }
