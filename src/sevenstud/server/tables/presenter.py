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

from sevenstud.actions import Action, ActionKind
from sevenstud.cards import Card
from sevenstud.events import (
    ActionTaken,
    CommunityCardDealt,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    PotAwarded,
    RakeTaken,
    pots_of_events,
)
from sevenstud.games import Game
from sevenstud.i18n import Translations, hand_name
from sevenstud.server.i18n import translation
from sevenstud.server.protocol import ActionButton, HandNames, LastHand, PlayerName, PotLine, ViewMessage
from sevenstud.showdown_hands import best_high, best_low
from sevenstud.table import HandStarted, StreamGap, Table, TableView
from sevenstud.views import SeatView, with_community
from sevenstud.wire import to_wire
from sevenstud.wording import action_line

__all__ = [
    "HandFacts",
    "Presenter",
    "action_label",
    "action_line",
    "hand_names",
    "legal_actions",
    "street_lines",
    "summary",
]


# ---------------------------------------------------------------------- words


ENGLISH: Translations = translation("en")
"""The code's own words (every function below speaks English unless given a catalog)."""


def _names_joined(names: Sequence[str], tr: Translations = ENGLISH) -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cid"``."""
    if len(names) == 1:
        return names[0]
    return tr.gettext("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def action_label(action: Action, already: int = 0, tr: Translations = ENGLISH) -> str:
    """The button's words for a legal action; ``already`` is what the seat has put in on this
    street (a call's words say the chips still to put in: "Call 2")."""
    kind, amount = action.kind, action.amount or 0
    if kind is ActionKind.BRING_IN:
        return tr.gettext("Bring in {amount}").format(amount=amount)
    if kind is ActionKind.COMPLETE:
        return tr.gettext("Complete to {amount}").format(amount=amount)
    if kind is ActionKind.CALL:
        return tr.gettext("Call {amount}").format(amount=amount - already)
    if kind is ActionKind.RAISE:
        return tr.gettext("Raise to {amount}").format(amount=amount)
    if kind is ActionKind.BET:
        return tr.gettext("Bet {amount}").format(amount=amount)
    buttons = {
        ActionKind.CHECK: tr.gettext("Check"),
        ActionKind.FOLD: tr.gettext("Fold"),
        ActionKind.SHOW: tr.gettext("Show"),
        ActionKind.MUCK: tr.gettext("Muck"),
    }
    return buttons.get(kind) or kind.value.capitalize()


def _seat_of(event: object) -> int | None:
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None


def street_lines(events: Iterable[object], names: Mapping[int, str], tr: Translations = ENGLISH) -> list[str]:
    """Every event of ``events`` that a log says, in words (``names`` by the events' seats)."""
    lines = []
    for event in events:
        seat = _seat_of(event)
        line = action_line(names[seat], event, tr) if seat is not None else None
        if line is not None:
            lines.append(line)
    return lines


def hand_names(cards: Sequence[Card], game: Game | type[Game], tr: Translations = ENGLISH) -> HandNames:
    """A hand's best high and low so far with their cards, as the ``view`` message says them
    (for the halves the game has: razz has no high half, stud no low)."""
    high, high_cards = best_high(cards) if game.has_high else (None, [])
    low, low_cards = best_low(cards, game)
    return HandNames(
        high=hand_name(high, tr),
        high_cards=[str(c) for c in high_cards],
        low=low,
        low_cards=[str(c) for c in low_cards],
    )


# ---------------------------------------------------------------------- pots and results


def _pot_name(index: int, tr: Translations = ENGLISH) -> str:
    return tr.gettext("the main pot") if index == 0 else tr.gettext("side pot {number}").format(number=index)


def _each(amounts: Sequence[int], tr: Translations = ENGLISH) -> str:
    if len(set(amounts)) == 1:
        return tr.gettext("{amount} each").format(amount=amounts[0])
    return tr.gettext(" and ").join(map(str, amounts))


def summary(
    game: Game | type[Game], names: Mapping[int, str], events: Sequence[object], tr: Translations = ENGLISH
) -> list[str]:
    """Who won what from which pot, in sentences a player understands: scoops, the high and low
    halves, split and quartered halves, "no low", a hand won when everyone else folded.
    ``events`` are a finished hand's (a spectator's or a seat's), ``names`` by the events' seats
    (every seat dealt in, in hand order)."""
    awards = [e for e in events if isinstance(e, PotAwarded)]
    shown = {e.seat: e for e in events if isinstance(e, HandShown)}
    mucked = {e.seat for e in events if isinstance(e, HandMucked)}
    rake = tr.gettext("The house takes {amount} in rake")
    lines = [rake.format(amount=e.amount) for e in events if isinstance(e, RakeTaken)]
    if not awards:
        return lines
    if not shown and len({a.seat for a in awards}) == 1:
        total = sum(a.amount for a in awards)
        folded = tr.gettext("{name} wins {amount}: everyone else folded")
        return [folded.format(name=names[awards[0].seat], amount=total), *lines]
    pots = pots_of_events(events, list(names))
    sentences: list[str] = []
    for index in sorted({a.pot for a in awards}):
        mine = [a for a in awards if a.pot == index]
        where, total = _pot_name(index, tr), sum(a.amount for a in mine)
        halves = {share: [a for a in mine if a.share == share] for share in ("whole", "high", "low")}
        highs, lows = halves["high"], halves["low"]
        if halves["whole"]:
            winners = halves["whole"]
            if len(winners) > 1:
                who = _names_joined([names[a.seat] for a in winners], tr)
                no_low = tr.gettext(" (no low: the high hands take the whole pot)") if game.split else ""
                split = tr.gettext("{names} split {pot} ({each})")
                sentences.append(
                    split.format(names=who, pot=where, each=_each([a.amount for a in winners], tr)) + no_low
                )
                continue
            seat = winners[0].seat
            event = shown.get(seat)
            line = tr.gettext("{name} wins {pot} ({amount})").format(
                name=names[seat], pot=where, amount=total
            )
            if event is not None:
                made = hand_name(event.high if game.has_high else event.low, tr)
                line += tr.gettext(" with {hand}").format(hand=made) if made else ""
                eligible = pots[index].eligible if index < len(pots) else ()
                contested = sum(1 for s in eligible if s not in mucked and s in shown) > 1
                if game.split and contested:
                    line += tr.gettext(" (no low: the high hand takes the whole pot)")
            sentences.append(line)
            continue
        if len(highs) == 1 and len(lows) == 1 and highs[0].seat == lows[0].seat:
            seat = highs[0].seat
            event = shown.get(seat)
            made = (
                tr.gettext(" with {high} and {low}").format(high=hand_name(event.high, tr), low=event.low)
                if event is not None
                else ""
            )
            scoop = tr.gettext("{name} scoops {pot} ({amount})")
            sentences.append(scoop.format(name=names[seat], pot=where, amount=total) + made)
            continue
        for half, winners in (("high", highs), ("low", lows)):
            if len(winners) == 1:
                event = shown.get(winners[0].seat)
                made = hand_name(getattr(event, half, None), tr)
                won, with_text = winners[0], tr.gettext(" with {hand}").format(hand=made) if made else ""
                line = (
                    tr.gettext("{name} wins the high half of {pot} ({amount})")
                    if half == "high"
                    else tr.gettext("{name} wins the low half of {pot} ({amount})")
                ).format(name=names[won.seat], pot=where, amount=won.amount)
                sentences.append(line + with_text)
            elif winners:
                who = _names_joined([names[a.seat] for a in winners], tr)
                each = _each([a.amount for a in winners], tr)
                split = (
                    tr.gettext("{names} split the high half of {pot} ({each})")
                    if half == "high"
                    else tr.gettext("{names} split the low half of {pot} ({each})")
                )
                sentences.append(split.format(names=who, pot=where, each=each))
    return sentences + lines


def _shown_hands(
    game: Game | type[Game], events: Iterable[object], tr: Translations = ENGLISH
) -> dict[str, HandNames]:
    """Every hand shown at the showdown, by table seat, named for both halves (the community
    card, when the deck ran short, is every hand's seventh: the engine's rule)."""
    events = list(events)
    community = next((e.card for e in events if isinstance(e, CommunityCardDealt)), None)
    return {
        str(e.seat): hand_names(with_community(e.cards, community), game, tr)
        for e in events
        if isinstance(e, HandShown)
    }


# ---------------------------------------------------------------------- the presenter


def legal_actions(hand: SeatView, tr: Translations = ENGLISH) -> list[ActionButton]:
    """The seat's legal actions as the ``view`` and ``your_turn`` messages say them, when the
    hand view is the seat's own and it is to act (else none): ``action`` what to send,
    ``label`` the button's words, ``kind``, ``amount`` (the seat's street total after it, as
    the engine counts it; None for fold and check) and ``chips`` (what it puts in now)."""
    if hand.seat is None or hand.to_act != hand.seat:
        return []
    return action_choices(hand.legal_actions, hand.bets[hand.seat], tr)


def action_choices(legal: Iterable[Action], already: int, tr: Translations = ENGLISH) -> list[ActionButton]:
    """:func:`legal_actions` from the actions themselves and what the seat has put in on
    this street already (``already``)."""
    return [
        ActionButton(
            action=str(a),
            label=action_label(a, already, tr),
            kind=a.kind.value,
            amount=a.amount,
            chips=(a.amount or 0) - already if a.amount is not None else 0,
        )
        for a in legal
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
        self.game: Game = table.settings.game
        self.number = table.number
        self.hand: HandFacts | None = None
        """The hand in progress, as everybody knows it."""
        self.last_hand: LastHand | None = None
        """The hand that ended most recently: its number, its result in sentences, its shown hands."""
        self._last_facts: HandFacts | None = None
        self._said: dict[str, LastHand | None] = {}
        """The last hand in each language asked for (worded once a hand, not once a view)."""

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
                self.last_hand = LastHand(
                    hand=hand.number,
                    summary=summary(self.game, hand.names, hand.events),
                    shown=_shown_hands(self.game, hand.events),
                )
                self._last_facts, self._said = hand, {}
                self.hand = None

    def _last_hand(self, lang: str) -> LastHand | None:
        """:attr:`last_hand` in ``lang`` (English: as it is)."""
        facts = self._last_facts
        if lang == "en" or facts is None or self.last_hand is None:
            return self.last_hand
        if lang not in self._said:
            tr = translation(lang)
            self._said[lang] = LastHand(
                hand=facts.number,
                summary=summary(self.game, facts.names, facts.events, tr),
                shown=_shown_hands(self.game, facts.events, tr),
            )
        return self._said[lang]

    def message(
        self,
        table: Table,
        seat: int | None,
        player: str | None,
        bots: Iterable[str],
        lang: str = "en",
        may_seat_bots: bool = False,
    ) -> ViewMessage:
        """The ``view`` message for a connection seeing for ``seat`` (None: a spectator) as
        ``player``; ``bots``: the names of the bots seated; ``lang``: the language of its words
        (the connection's ``hello`` chose it); ``may_seat_bots``: whether the table would let
        this player seat a bot (the room's rule, said so that a page offers only what works)."""
        # A connection sees for a seat only while its own player sits there.
        you = seat if seat is not None and player is not None and table.player_at(seat) == player else None
        view = table.view(you)
        settings = table.settings
        stakes = settings.game.stakes
        bot_names = set(bots)
        bring_in, pots, hands, actions = self._hand_part(view, translation(lang))
        return ViewMessage(
            number=view.number,
            view=to_wire(view),
            game=self.game.code,
            game_name=settings.game.name,
            # which halves the game has, so that the page never knows a game's rules itself
            has_high=settings.game.has_high,
            has_low=settings.game.has_low,
            stakes=[stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet],
            seats=settings.seats,
            min_buy_in=settings.min_buy_in,
            max_buy_in=settings.max_buy_in,
            tournament=settings.tournament,
            you=you,
            may_seat_bots=may_seat_bots,
            players={str(s.seat): PlayerName(name=s.player, bot=s.player in bot_names) for s in view.seats},
            bring_in=bring_in,
            pots=pots,
            hands=hands,
            actions=actions,
            last_hand=self._last_hand(lang),
        )

    def _hand_part(
        self, view: TableView, tr: Translations = ENGLISH
    ) -> tuple[int | None, list[PotLine], dict[str, HandNames], list[ActionButton]]:
        """Bring-in, pots, the hands this connection may see, its legal actions."""
        hand, facts = view.hand, self.hand
        if hand is None or facts is None or facts.number != view.hand_number:
            return None, [], {}, []
        seats = view.hand_seats
        # The seat the bring-in fell to acts first on third street, bringing in or completing
        # (a completed bring-in is still the bring-in); the mark is third street's alone.
        first = next((e for e in facts.events if isinstance(e, ActionTaken)), None)
        opening = (ActionKind.BRING_IN, ActionKind.COMPLETE)
        on_third = hand.street == 3 and first is not None and first.action.kind in opening
        bring_in = first.seat if on_third and first is not None else None
        # The engine's pots (Hand.pots_now, in the view), its seats made the table's.
        pots = [] if hand.phase == "over" else [(p.amount, [seats[i] for i in p.eligible]) for p in hand.pots]
        opened = {e.seat for e in facts.events if isinstance(e, HandShown | HandTurnedUp)}
        hands: dict[str, HandNames] = {}
        for i, cards in enumerate(hand.cards):
            # Only the viewer's own hand and hands shown or turned up, and only when every card
            # is in this connection's own view (the engine's redaction decides, not this code).
            if (i != hand.seat and seats[i] not in opened) or any(c is None for c in cards):
                continue
            known = with_community([c for c in cards if c is not None], hand.community)
            if len(known) >= 3:
                hands[str(seats[i])] = hand_names(known, self.game, tr)
        actions = legal_actions(hand, tr)
        return bring_in, [PotLine(amount=amount, seats=eligible) for amount, eligible in pots], hands, actions
