"""The events of a hand: everything that happens, in order, as immutable named tuples (cheap to
make: a hand records about fifty), and who may see what of them.

:func:`redact` is the one place the hidden-information rule is written: a card dealt face
down is seen by its owner alone, until the owner's hand is shown down (:class:`HandShown`,
public) or turned face up once betting is over (:class:`HandTurnedUp`: from then on the cards
still to come to that seat are seen by everybody). Every view of a hand, and what
:meth:`Hand.act <sevenstud.hand.Hand.act>` returns, is made through it.

>>> from sevenstud.cards import Card
>>> dealt = CardDealt(seat=1, street=3, card=Card.parse("As"), face_up=False)
>>> redact(dealt, 1) is dealt, redact(dealt, 0), redact(dealt, None).card
(True, CardDealt(seat=1, street=3, card=None, face_up=False), None)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from typing import Final, Literal, NamedTuple

from sevenstud.actions import Action, ActionKind
from sevenstud.cards import Card, format_cards
from sevenstud.games import STREET_NAMES
from sevenstud.pots import Pot, build_pots, new_pot, pots_as_they_stand


class AntePosted(NamedTuple):
    """A seat posts its ante (all-in when that was all it had)."""

    seat: int
    amount: int
    all_in: bool


class CardDealt(NamedTuple):
    """A card to a seat; ``card`` is None in a view that may not see it."""

    seat: int
    street: int
    card: Card | None
    face_up: bool


class CommunityCardDealt(NamedTuple):
    """The deck ran out on 7th street: one card face up in the middle, everybody's seventh."""

    card: Card


class StreetStarted(NamedTuple):
    """A betting round opens: the bring-in player on 3rd street, the best board later; None
    when nobody can bet."""

    street: int
    first_to_act: int | None


class ActionTaken(NamedTuple):
    """A player's action, with its amount filled in: ``action.amount`` is the seat's street
    total after it, ``chips`` what this action put in (0 for a fold or a check), so that a
    reader needs no running count of the street's bets."""

    seat: int
    street: int
    action: Action
    all_in: bool
    chips: int


class BetReturned(NamedTuple):
    """A bet (or an ante) that nobody called goes back to its owner."""

    seat: int
    amount: int


class HandTurnedUp(NamedTuple):
    """Betting is over because at most one player can still bet: the seat's hand is turned face
    up at once (the game's ``all_in_face_up``), one event per live seat, before the rest of the
    cards are dealt; from then on every view shows that seat's cards, the ones still to come
    included. The showdown that follows is the usual one."""

    seat: int
    cards: tuple[Card, ...]


class HandShown(NamedTuple):
    """A seat shows its cards at the showdown, with the names of its high and low."""

    seat: int
    cards: tuple[Card, ...]
    high: str | None
    low: str | None


class HandMucked(NamedTuple):
    """A seat gives up its claim at the showdown without showing."""

    seat: int


class RakeTaken(NamedTuple):
    """The house's rake, taken before the pot is split."""

    amount: int


class PotAwarded(NamedTuple):
    """Chips from a pot (0 main, 1.. side pots) to a seat, whole or one half of it."""

    seat: int
    amount: int
    pot: int
    share: Literal["whole", "high", "low"]


class HandEnded(NamedTuple):
    """The hand is over: every seat's chips."""

    stacks: tuple[int, ...]


Event = (
    AntePosted
    | CardDealt
    | CommunityCardDealt
    | StreetStarted
    | ActionTaken
    | BetReturned
    | HandTurnedUp
    | HandShown
    | HandMucked
    | RakeTaken
    | PotAwarded
    | HandEnded
)

make_event: Final = tuple.__new__
"""``make_event(CardDealt, (seat, street, card, face_up))`` is ``CardDealt(seat, street, card,
face_up)`` without the named tuple's ``__new__`` (interpreted Python, about a third of the cost
of the engine's most frequent events). Unchecked: keep the fields in their order."""


# Every card dealt is one of a few thousand events (8 seats, 5 streets, 52 cards, face up or
# down), all immutable: each is made once and shared by every hand that deals it, as the
# legal actions are (actions.cached_action). A hand deals about twenty cards, and a dict
# lookup costs less than building the tuple.
_DEALT: Final[list[dict[Card, CardDealt]]] = [{} for _ in range(8 * 8 * 2)]
_HIDDEN: Final[dict[tuple[int, int], CardDealt]] = {}


def card_dealt(seat: int, street: int, card: Card, face_up: bool) -> CardDealt:
    """``CardDealt(seat, street, card, face_up)``, the one shared event (cheaper than a new one:
    see above). ``card`` must be a :class:`~sevenstud.cards.Card` (a hand deals nothing else);
    seats 0-7, streets 3-7."""
    by_card = _DEALT[(seat * 8 + street) * 2 + face_up]
    event = by_card.get(card)
    if event is None:
        event = by_card[card] = make_event(CardDealt, (seat, street, card, face_up))
    return event


def _hidden(seat: int, street: int) -> CardDealt:
    """A face-down card of ``seat``'s on ``street`` as another viewer sees it (shared too)."""
    event = _HIDDEN.get((seat, street))
    if event is None:
        event = _HIDDEN[seat, street] = make_event(CardDealt, (seat, street, None, False))
    return event


# ------------------------------------------------------------------ who may see what


def may_see(owner: int, viewer: int | None, face_up: bool, open_seats: Set[int]) -> bool:
    """Whether ``viewer`` (a seat, or None for a spectator) may see a card of ``owner``'s: a
    face-up card, one of its own, or one of a hand shown or turned face up (``open_seats``)."""
    return face_up or owner == viewer or owner in open_seats


def redact(event: Event, viewer: int | None, open_seats: Set[int] = frozenset()) -> Event:
    """The event as ``viewer`` (a seat, or None for a spectator) may see it: a card dealt face
    down to another seat, unless that seat's hand was already turned face up (``open_seats``:
    the seats whose :class:`HandTurnedUp` came before this event), is blanked (its ``card`` is
    None). Every other event is public and comes back as it is (the same object)."""
    if (
        type(event) is CardDealt
        and not event.face_up
        and event.card is not None
        and event.seat != viewer
        and event.seat not in open_seats
    ):
        return _hidden(event.seat, event.street)
    return event


def redact_all(
    events: Iterable[Event], viewer: int | None, open_seats: Set[int] = frozenset()
) -> list[Event]:
    """:func:`redact` for consecutive events of one hand, following the :class:`HandTurnedUp`
    among them (``open_seats``: the seats turned face up before the first of them)."""
    opened = set(open_seats)
    out: list[Event] = []
    for event in events:
        kind = type(event)
        if kind is CardDealt:
            out.append(redact(event, viewer, opened))
        else:  # only a dealt card is ever blanked: the rest go as they are (the common case)
            if kind is HandTurnedUp:
                opened.add(event.seat)  # type: ignore[union-attr]
            out.append(event)
    return out


def turned_up_before(events: Sequence[Event], index: int, first: int | None) -> frozenset[int]:
    """The seats whose hands were turned face up before ``events[index]`` (``first``: the index
    of the first :class:`HandTurnedUp`, None when there is none)."""
    if first is None or first >= index:
        return frozenset()
    return frozenset(e.seat for e in events[first:index] if type(e) is HandTurnedUp)


def describe(event: Event) -> str:
    """A line of plain English for an event, for logs."""
    if isinstance(event, AntePosted):
        return f"seat {event.seat} posts the ante {event.amount}" + (
            " and is all-in" if event.all_in else ""
        )
    if isinstance(event, CardDealt):
        card = str(event.card) if event.card is not None else "a card"
        return f"seat {event.seat} is dealt {card} {'face up' if event.face_up else 'face down'}"
    if isinstance(event, CommunityCardDealt):
        return f"the deck has run out: community card {event.card}"
    if isinstance(event, StreetStarted):
        who = (
            f"seat {event.first_to_act} acts first"
            if event.first_to_act is not None
            else "no betting"
        )
        return f"{STREET_NAMES[event.street]}: {who}"
    if isinstance(event, ActionTaken):
        return f"seat {event.seat}: {event.action}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, BetReturned):
        return f"uncalled {event.amount} returned to seat {event.seat}"
    if isinstance(event, HandTurnedUp):
        return f"seat {event.seat}'s hand is turned face up: [{format_cards(event.cards)}]"
    if isinstance(event, HandShown):
        names = "; ".join(
            f"{label}: {name}" for label, name in (("HI", event.high), ("LO", event.low)) if name
        )
        return f"seat {event.seat} shows [{format_cards(event.cards)}] ({names or 'no low'})"
    if isinstance(event, HandMucked):
        return f"seat {event.seat} mucks"
    if isinstance(event, RakeTaken):
        return f"rake {event.amount}"
    if isinstance(event, PotAwarded):
        pot = "the main pot" if event.pot == 0 else f"side pot {event.pot}"
        half = "" if event.share == "whole" else f" ({event.share} half)"
        return f"seat {event.seat} wins {event.amount} from {pot}{half}"
    return "the hand is over: stacks " + " ".join(str(s) for s in event.stacks)


def pots_of_events(
    events: Iterable[object], seats: Sequence[int], stacks: Sequence[int] | None = None
) -> list[Pot]:
    """The pots of a hand from its public events (antes, actions, bets returned, folds), by the
    engine's rules: :func:`~sevenstud.pots.build_pots` for a hand whose betting is over, or
    :func:`~sevenstud.pots.pots_as_they_stand` while it is played (``stacks``: each seat's
    chips now, in hand order). ``seats``: the seats dealt in as the events number them (a
    table's seats, say); the pots' seats are numbered so too."""
    index = {seat: i for i, seat in enumerate(seats)}
    put_in, live, fold_order = [0] * len(seats), [True] * len(seats), []
    for event in events:
        if isinstance(event, AntePosted):
            put_in[index[event.seat]] += event.amount
        elif isinstance(event, ActionTaken):
            put_in[index[event.seat]] += event.chips
            if event.action.kind is ActionKind.FOLD:
                live[index[event.seat]] = False
                fold_order.append(index[event.seat])
        elif isinstance(event, BetReturned):
            put_in[index[event.seat]] -= event.amount
    pots = (
        build_pots(put_in, live, fold_order)
        if stacks is None
        else pots_as_they_stand(put_in, live, stacks, fold_order)
    )
    return [new_pot(p.amount, tuple(seats[i] for i in p.eligible)) for p in pots]
