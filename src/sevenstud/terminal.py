"""``sevenstud play``: a table of stud in the terminal, you against bots (:class:`RuleBot`\\ s,
or the kind ``--bot-kind`` names: :data:`sevenstud.bots.BOT_KINDS`).

The terminal is a renderer over :class:`sevenstud.table.Table`: the table holds the seats, the
stacks, the rebuys (top-ups between hands) and the one numbered stream of what happened. The
terminal reads that stream as your seat may see it (:meth:`~sevenstud.table.Table.events_since`)
and the table's view, prints them, and sends your actions and the bots' to the table with the
time of the terminal's clock (the table reads no clock). You sit in seat 1, the first seat to the
dealer's left (stud has no button, so the seats never move); the bots sit in seats 2 and up.

Hands are played one after another with the stacks carried over; a player who goes broke buys
in again for their first buy-in. After every action the table is shown as you may see it: your
own down cards in brackets, the others' down cards as ``[xx]``, everybody's up cards, the
stacks, the bets and the pot. The table is printed once a street; each action after it is one
line. At your turn you see what it costs to stay in, your best high and low so far, and the
actions with their keys::

    Your turn (4th street): 3 chips to call, pot 12. You hold a pair of Kings; no low yet.
    [f]old  [c]all 3  [r]aise to 10 >

A call is counted as the chips you put in (``call 3``: three more chips), as the log says it;
a bet, a raise or a completion is your street total (``raise to 10``). Type the letter or the
words; ``?`` lists the legal actions; ``q``, Ctrl-C or end of input leaves the table, and the
hand in progress is called off. The rules are those of ``docs/rules.md``.

This module is the table's loop and its printer; the words themselves (the boards, the prompt
and the reading of an answer, what your cards make so far) are :mod:`sevenstud.terminal_text`'s,
re-exported here.

>>> parse_stakes("1/2/5/10")
Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from sevenstud import wording
from sevenstud.arguments import StakesError, parse_stakes
from sevenstud.bots import BOT_KINDS, DEFAULT_KIND, Bot, new_bot
from sevenstud.cards import Card, format_cards
from sevenstud.deck import Deck
from sevenstud.games import STREET_NAMES, Game, GameError, Stakes, game_by_name
from sevenstud.hand import (
    MAX_PLAYERS,
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandTurnedUp,
    IllegalAction,
    Phase,
    PotAwarded,
    RakeTaken,
    SeatView,
    StreetStarted,
)
from sevenstud.i18n import _, current, from_environment, hand_name, n_, use
from sevenstud.table import (
    ClockStarted,
    Entry,
    HandStarted,
    Leaving,
    SatDown,
    SatIn,
    SatOut,
    StoodUp,
    Table,
    TableError,
    TableSettings,
    TimedOut,
    ToppedUp,
)
from sevenstud.terminal_text import (
    board_text,
    chips,
    door_card_seat,
    hand_names,
    holding_text,
    in_your_words,
    parse_choice,
    prompt_for,
    read_as,
    table_lines,
)

__all__ = [  # the names cli.py and the tests import from here, terminal_text's included
    "HUMAN", "QUIT_WORDS", "TURN_SECONDS", "Seat", "StakesError", "TerminalTable", "board_text",
    "chips", "door_card_seat", "hand_names", "holding_text", "parse_choice", "parse_stakes",
    "play_command", "prompt_for", "table_lines",
]

HUMAN = 0
"""The index of the human in the seating plan of ``sevenstud play`` (table seat 1)."""
QUIT_WORDS = frozenset({"q", "quit", "exit", "bye"})
TURN_SECONDS = 24 * 60 * 60.0
"""Each turn's time: a terminal game waits for its player (the table's clock still runs, as
data, and a turn left a whole day is timed out by the table's own rule)."""

_TABLE_EVENTS = (SatDown, ToppedUp, SatOut, SatIn, Leaving, StoodUp, HandStarted, ClockStarted, TimedOut)


@dataclass(frozen=True, slots=True)
class Seat:
    """One place in the seating plan: who sits there (a bot, or ``None`` for the human at the
    keyboard) and the buy-in, which is also what a rebuy brings."""

    name: str
    bot: Bot | None
    stack: int

    @property
    def is_human(self) -> bool:
        """Whether the keyboard plays this seat."""
        return self.bot is None


@dataclass(slots=True)
class _HandLog:
    """What the printer remembers of the hand being played (seats are table seats)."""

    started: HandStarted
    start_number: int
    """The stream number just before the hand's first entry."""
    shown: dict[int, HandShown] = field(default_factory=dict)
    showdown_started: bool = False
    awarded: dict[int, int] = field(default_factory=dict)
    """Chips each seat wins at the end: taken off the stacks to show the table at the showdown."""
    rake: int = 0
    final: tuple[int, ...] = ()
    """The stacks at the end (``HandEnded``), in the hand's seat order."""
    community: Card | None = None
    bring_in_why: str = ""
    """Why the bring-in player brings in: ``"(lowest door card)"``, or who was passed over."""
    bring_in_passed: bool = False
    """The lowest (razz: highest) door card's owner was all-in and passed over."""

    def hand_seat(self, seat: int) -> int:
        """The hand's seat of a table seat."""
        return self.started.seats.index(seat)


class TerminalTable:
    """A :class:`~sevenstud.table.Table` played in the terminal: one human (table seat 1,
    unless watching) and bots, hand after hand. ``seats`` is the seating plan, table seat 1
    first; ``decks`` are dealt first, one a hand (a set-up table: :func:`sevenstud.dealing.deck_for`
    writes one seat by seat, every seat playing), then seeded or shuffled ones; ``clock`` gives the
    time the table is told (seconds, never going backwards)."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        seed: int | None,
        stdin: TextIO,
        stdout: TextIO,
        decks: Sequence[Deck] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 2 <= len(seats) <= MAX_PLAYERS:
            raise TableError(f"a terminal table seats 2 to {MAX_PLAYERS} players, not {len(seats)}")
        self.game = game
        self.decks = list(decks)
        """Decks to deal first, one a hand (a set-up table); then shuffled or seeded ones."""
        self.seats = list(seats)
        self.seed = seed
        self.stdin = stdin
        self.stdout = stdout
        self.clock = clock
        self.hands_played = 0
        self.names = {n: s.name for n, s in enumerate(self.seats, start=1)}
        """Each table seat's name."""
        self.viewer: int | None = next((n for n, s in enumerate(self.seats, 1) if s.is_human), None)
        """The table seat whose eyes the terminal has (None: watching the bots)."""
        least = max(1, game.stakes.ante)
        # A rebuy adds a first buy-in to what is left (less than the ante): the maximum allows it.
        self.table = Table(
            TableSettings(
                game,
                seats=len(self.seats),
                min_buy_in=least,
                max_buy_in=max(s.stack for s in self.seats) + least,
                action_time=TURN_SECONDS,
                time_bank_start=0.0,
                time_bank_max=0.0,
                time_bank_refill=0.0,
            )
        )
        self._read_to = 0
        """The last stream number printed."""
        self._bought: dict[int, int] = dict.fromkeys(self.names, 0)
        self._rebuys: dict[int, int] = dict.fromkeys(self.names, 0)
        self._log: _HandLog | None = None
        self._echo = not _isatty(stdin)
        now = self.clock()
        for number, seat in enumerate(self.seats, start=1):
            self.table.sit_down(seat.name, number, seat.stack, now)

    # ------------------------------------------------------------------ output

    def say(self, text: str = "") -> None:
        """Print one line."""
        print(text, file=self.stdout, flush=True)

    def name(self, seat: int) -> str:
        """The name at a table seat."""
        return self.names[seat]

    def _is_human(self, seat: int) -> bool:
        return seat == self.viewer

    def _verb(self, seat: int, what: str, **parts: object) -> str:
        """``"You call"`` but ``"Bot 2 calls"``: the sentence :mod:`sevenstud.wording` has for
        each (the card room's log says the same of a seat), with ``parts`` put in."""
        return wording.said(what, self.name(seat), current(), you=self._is_human(seat), **parts)

    def _all_in(self, seat: int) -> str:
        """``" and are all-in"`` for you, ``" and is all-in"`` for a bot."""
        return current().gettext((wording.OF_YOU if self._is_human(seat) else wording.OF_A_SEAT)["all-in"])

    # ------------------------------------------------------------------ the session

    def run(self, hands: int | None) -> int:
        """Play ``hands`` hands (None: until the human quits); the exit status."""
        stakes = self.game.stakes
        buy_ins = {s.stack for s in self.seats}
        each = _("stacks as seated")
        if len(buy_ins) == 1:
            each = _("{chips} each").format(chips=chips(min(buy_ins)))
        players = n_("{n} player", "{n} players", len(self.seats)).format(n=len(self.seats))
        self.say(
            _("{game}: ante {ante}, bring-in {bring_in}, bets {small}/{big}; {players}, {each}").format(
                game=_(self.game.name), ante=stakes.ante, bring_in=stakes.bring_in, small=stakes.small_bet,
                big=stakes.big_bet, players=players,
                each=each,
            )
        )  # fmt: skip
        if self.viewer is not None:
            self.say(
                _("You are seat {seat}. Down cards are in [brackets]; [xx] is a card you cannot see.").format(
                    seat=self.viewer
                )
            )
            self.say(_("Type the letter of an action or the words (e.g. 'raise to 10'); q quits."))
        else:
            self.say(_("Watching the bots. Down cards are in [brackets]; [xx] is one nobody shows."))
        try:
            self._read_stream()  # the seating: counted, not printed
            while hands is None or self.hands_played < hands:
                if not self._play_hand():
                    return self._goodbye()
                self.hands_played += 1
                more = hands is None or self.hands_played < hands
                if more and self.viewer is not None and not self._next_hand_wanted():
                    return self._goodbye()
        except KeyboardInterrupt:
            self.say()
            self._goodbye()
            return 130
        return self._goodbye()

    def _goodbye(self) -> int:
        """The final stacks; a hand in progress is called off (each takes back what they put
        in: their stack when it was dealt)."""
        self.say()
        stacks = {s.seat: s.stack for s in self.table.view(None).seats}
        log = self._log
        if self.table.hand_in_progress and log is not None:
            self.say(_("The hand in progress is called off: everybody takes back what they put in."))
            stacks.update(zip(log.started.seats, log.started.stacks, strict=True))
        played = n_("{n} hand", "{n} hands", self.hands_played).format(n=self.hands_played)
        self.say(_("Goodbye! Final stacks after {hands}:").format(hands=played))
        width = max(len(n) for n in self.names.values())
        for seat, name in self.names.items():
            stack = stacks.get(seat, 0)
            net = stack - self._bought[seat]
            again = self._rebuys[seat]
            rebuys = n_(", bought in again {n} time", ", bought in again {n} times", again) if again else ""
            rebuys = rebuys.format(n=again)
            self.say(f"  {name:<{width}}  {stack:>6}  ({net:+d}{rebuys})")
        return 0

    def _next_hand_wanted(self) -> bool:
        line = self._read(_("Press Enter for the next hand, or q to quit > "))
        return line is not None and line.strip().lower() not in QUIT_WORDS

    def _read(self, prompt: str) -> str | None:
        """One line from the player, or ``None`` at end of input."""
        print(prompt, end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if self._echo:
            print(line.rstrip("\n"), file=self.stdout, flush=True)
        return line

    # ------------------------------------------------------------------ one hand

    def _rebuy(self) -> None:
        """Whoever the table sat out for want of the ante buys in again (a top-up)."""
        least = max(1, self.game.stakes.ante)
        now = self.clock()
        for state in self.table.view(None).seats:
            if state.sitting_out and state.stack < least:
                buy_in = self.seats[state.seat - 1].stack
                self.table.top_up(state.player, buy_in, now)  # covering the ante: dealt in again
                if any(s.seat == state.seat and s.sitting_out for s in self.table.view(None).seats):
                    self.table.sit_in(state.player, now)
        self._read_stream()

    def _deck(self) -> Deck:
        if self.hands_played < len(self.decks):
            return self.decks[self.hands_played]
        if self.seed is None:
            return Deck.shuffled()
        return Deck.seeded(f"{self.seed}/{self.hands_played + 1}")

    def _play_hand(self) -> bool:
        """Play one hand; ``False`` when the human quit in the middle of it."""
        self.say()
        self.say("=== " + _("Hand #{number}").format(number=self.hands_played + 1) + " ===")
        self._rebuy()
        self.table.start_hand(self.clock(), self._deck())
        self._read_stream()
        while self.table.hand_in_progress:
            seat = self.table.to_act
            assert seat is not None  # a hand in progress waits for someone
            bot = self.seats[seat - 1].bot
            if bot is None:
                if not self._human_turn(seat):
                    return False
            else:
                self._act(seat, bot.act(self._bot_view(seat)))
            self._read_stream()
        return True

    def _act(self, seat: int, action: Action) -> None:
        """Send an action to the table, at the clock's time; a turn past its deadline is the
        table's to time out."""
        now = self.clock()
        deadline = self.table.deadline
        if deadline is not None and now > deadline:
            self.table.time_out(seat, now)
        else:
            self.table.act(seat, action, now)

    def _bot_view(self, seat: int) -> SeatView:
        """The engine's view for a bot, with the hand's events so far in the hand's seats (the
        table's view leaves them to the stream, which says them in table seats)."""
        log = self._log
        view = self.table.view(seat).hand
        assert log is not None and view is not None
        seats = log.started.seats
        events = tuple(
            _in_hand_seats(entry.event, seats)
            for entry in self.table.events_since(log.start_number, seat)
            if entry.hand == log.started.hand and not isinstance(entry.event, _TABLE_EVENTS)
        )
        return dataclasses.replace(view, events=events)

    def _human_turn(self, seat: int) -> bool:
        view = self.table.view(seat).hand
        assert view is not None and view.seat is not None
        mine = view.seat
        legal = list(view.legal_actions)
        already = view.bets[mine]
        call = next((a for a in legal if a.kind is ActionKind.CALL), None)
        owed = (call.amount or 0) - already if call is not None else 0
        street = _(STREET_NAMES[view.street])
        cost = _("{chips} to call, ").format(chips=chips(owed)) if owed > 0 else ""
        cards = [c for c in view.cards[mine] if c is not None]
        self.say(
            _("Your turn ({street}): {cost}pot {pot}. You hold {board}: {holding}.").format(
                street=street, cost=cost, pot=view.pot,
                board=board_text(view.cards[mine], view.face_up[mine]),
                holding=holding_text(cards, self.game),
            )
        )  # fmt: skip
        prompt = prompt_for(legal, already) + " > "
        while True:
            line = self._read(prompt)
            if line is None or line.strip().lower() in QUIT_WORDS:
                return False
            text = line.strip()
            if text.lower() in ("?", "h", "help"):
                self.say("  " + _("legal now: {actions}").format(actions=prompt_for(legal, already)))
                continue
            try:
                action = parse_choice(text, legal, already)
                note = read_as(text, action)
                if note is not None:  # "raise 10": say that 10 is the street total
                    self.say(f"  ({note})")
                self._act(seat, action)
            except (IllegalAction, TableError) as exc:
                self.say(f"  ! {in_your_words(exc, legal, already)}")
                continue
            return True

    # ------------------------------------------------------------------ printing the stream

    def _read_stream(self) -> None:
        """Print what the stream says since the last entry printed, as the viewer may see it."""
        entries = self.table.events_since(self._read_to, self.viewer)
        if entries:
            self._read_to = entries[-1].number
        hand_events: list[Event] = []
        for entry in entries:
            event = entry.event
            if isinstance(event, HandStarted):
                self._log = _HandLog(event, entry.number - 1)
            elif not isinstance(event, _TABLE_EVENTS):
                hand_events.append(event)
        log = self._log
        for e in hand_events:
            if isinstance(e, PotAwarded) and log is not None:
                log.awarded[e.seat] = log.awarded.get(e.seat, 0) + e.amount
            elif isinstance(e, RakeTaken) and log is not None:
                log.rake += e.amount
            elif isinstance(e, HandEnded) and log is not None:
                log.final = e.stacks
        antes = [e for e in hand_events if isinstance(e, AntePosted)]
        if antes:
            self._say_antes(antes)
        for entry in entries:
            line = self._entry_line(entry)
            if line:
                self.say(line)
        # The table once a street, when its cards are out; every action after it is one line
        # (the turn line repeats what the human needs: the cost, their cards, their hand).
        if self.table.hand_in_progress and any(
            isinstance(e, StreetStarted | CommunityCardDealt) for e in hand_events
        ):
            view = self.table.view(self.viewer)
            assert view.hand is not None
            self._say_table(view.hand, view.hand_seats)

    def _entry_line(self, entry: Entry) -> str | None:
        event = entry.event
        if isinstance(event, SatDown):
            self._bought[event.seat] += event.buy_in
            return None  # the seating is the opening lines' to say
        if isinstance(event, ToppedUp):
            self._bought[event.seat] += event.amount
            self._rebuys[event.seat] += 1
            human = self._is_human(event.seat)
            said = _("You are busted and buy in again for {chips}.") if human else _(
                "{name} is busted and buys in again for {chips}."
            )
            return said.format(name=self.name(event.seat), chips=chips(event.amount))
        if isinstance(event, TimedOut):
            return self._verb(event.seat, "time out") + "."
        if isinstance(event, _TABLE_EVENTS):
            return None  # sitting out for want of the ante is followed by the rebuy; clocks pass
        log = self._log
        assert log is not None  # a hand event comes after its HandStarted
        return self._event_line(event, log)

    def _say_antes(self, antes: Sequence[AntePosted]) -> None:
        amounts = {e.amount for e in antes}
        if len(amounts) == 1 and not any(e.all_in for e in antes):
            self.say(_("Everybody antes {amount}.").format(amount=antes[0].amount))
            return
        for e in antes:
            suffix = self._all_in(e.seat) if e.all_in else ""
            self.say(f"{self._verb(e.seat, 'ante', amount=e.amount)}{suffix}.")

    def _event_line(self, event: Event, log: _HandLog) -> str | None:
        if isinstance(event, AntePosted | CardDealt):
            return None  # antes are summed up above; the table shows the cards
        if isinstance(event, StreetStarted):
            header = f"*** {_(STREET_NAMES[event.street]).upper()} ***"
            if event.first_to_act is None:
                return f"{header}  " + _("(no betting: at most one player has chips left)")
            seat = event.first_to_act
            if event.street == 3:
                log.bring_in_why = self._bring_in_why(seat, log)
                line = _("{name} to bring in {why}").format(name=self.name(seat), why=log.bring_in_why)
                return f"{header}  {line}".rstrip()
            return f"{header}  " + _("{name} to act first").format(name=self.name(seat))
        if isinstance(event, CommunityCardDealt):
            log.community = event.card
            said = _("Not enough cards for everybody: {card} is dealt face up for all to use.")
            return said.format(card=event.card)
        if isinstance(event, ActionTaken):
            return self._action_line(event, log)
        if isinstance(event, BetReturned):
            said = _("Uncalled {chips} returned to {name}.")
            return said.format(chips=chips(event.amount), name=self.name(event.seat))
        if isinstance(event, HandTurnedUp):
            # Betting is over: the live hands are turned face up before the last cards come.
            said = _("Your hand is turned face up: {cards}.") if self._is_human(event.seat) else _(
                "{name}'s hand is turned face up: {cards}."
            )
            return said.format(name=self.name(event.seat), cards=format_cards(event.cards))
        if isinstance(event, HandShown | HandMucked):
            prefix = ""
            if not log.showdown_started:
                log.showdown_started = True
                self._say_showdown_table(log)
                prefix = "*** " + _("SHOWDOWN") + " ***\n"
            if isinstance(event, HandMucked):
                return f"{prefix}{self._verb(event.seat, 'muck')}."
            log.shown[event.seat] = event
            cards = format_cards(event.cards)
            if log.community is not None:
                cards += _(" (+ {card} in the middle)").format(card=log.community)
            names = hand_names(event, self.game)
            return f"{prefix}{self._verb(event.seat, 'shows cards', cards=cards)}: {names}"
        if isinstance(event, RakeTaken):
            return _("The house takes {amount} in rake.").format(amount=event.amount)
        if isinstance(event, PotAwarded):
            return self._award_line(event, log)
        if isinstance(event, HandEnded):
            parts = []
            for i, stack in enumerate(event.stacks):
                change = stack - log.started.stacks[i]
                parts.append(f"{self.name(log.started.seats[i])} {stack} ({change:+d})")
            return _("Stacks: {stacks}").format(stacks=", ".join(parts))
        return None  # pragma: no cover - every event is handled above

    def _action_line(self, event: ActionTaken, log: _HandLog) -> str:
        seat, action = event.seat, event.action
        amount = action.amount or 0
        kind = action.kind
        if kind is ActionKind.FOLD:
            text = self._verb(seat, "fold")
        elif kind is ActionKind.CHECK:
            text = self._verb(seat, "check")
        elif kind is ActionKind.CALL:
            text = self._verb(seat, "call", chips=event.chips)  # the chips put in, as the log says
        elif kind is ActionKind.BRING_IN:
            text = self._verb(seat, "bring-in", amount=amount)
            if log.bring_in_passed:  # say why when the lowest door card was passed over
                text += f" {log.bring_in_why}"
        elif kind is ActionKind.COMPLETE:
            text = self._verb(seat, "complete", amount=amount)
        elif kind is ActionKind.BET:
            text = self._verb(seat, "bet", amount=amount)
        elif kind is ActionKind.RAISE:
            text = self._verb(seat, "raise", amount=amount)
        else:
            text = f"{self.name(seat)}: {action}"
        return text + (self._all_in(seat) if event.all_in else "") + "."

    def _bring_in_why(self, seat: int, log: _HandLog) -> str:
        """``"(lowest door card)"``, or, when that card's owner is all-in from the ante and the
        next player clockwise brings in, ``"(Ann, lowest door card, is all-in)"``."""
        view = self.table.view(self.viewer).hand
        if view is None:
            return ""  # the hand is over already (everybody all-in): nobody brings in
        highest = self.game.bring_in_by == "highest"
        owner = door_card_seat(view, self.game)
        if owner == log.hand_seat(seat):
            return _("(highest door card)") if highest else _("(lowest door card)")
        if owner is not None and view.stacks[owner] == 0:
            owner_seat = log.started.seats[owner]
            log.bring_in_passed = True
            if self._is_human(owner_seat):
                said = _("({name}, highest door card, are all-in)")
                if not highest:
                    said = _("({name}, lowest door card, are all-in)")
            else:
                said = _("({name}, highest door card, is all-in)")
                if not highest:
                    said = _("({name}, lowest door card, is all-in)")
            return said.format(name=self.name(owner_seat))
        return ""  # the engine chose by a rule this printer does not know: say nothing wrong

    def _award_line(self, event: PotAwarded, log: _HandLog) -> str:
        pot = _("the main pot") if event.pot == 0 else _("side pot {number}").format(number=event.pot)
        text = self._verb(event.seat, "win", chips=chips(event.amount), pot=pot)
        shown = log.shown.get(event.seat)
        if event.share != "whole":
            text += _(" (high half)") if event.share == "high" else _(" (low half)")
        if shown is None:
            return text + (_(" uncontested.") if not log.shown else ".")
        if event.share == "low" or not self.game.has_high:
            return _("{text} with {hand}.").format(text=text, hand=shown.low) if shown.low else f"{text}."
        return _("{text} with {hand}.").format(text=text, hand=hand_name(shown.high, current()))

    def _say_table(self, view: SeatView, hand_seats: Sequence[int]) -> None:
        for line in table_lines(view, [self.name(s) for s in hand_seats]):
            self.say(line)

    def _say_showdown_table(self, log: _HandLog) -> None:
        """The table as it stood before the pot was pushed. The hand is over by the time the
        stream is read, and the table's view has no hand then: the boards are the viewer's own
        stream of this hand, the stacks the final ones less what each wins."""
        n = len(log.started.seats)
        cards: list[list[Card | None]] = [[] for _ in range(n)]
        face_up: list[list[bool]] = [[] for _ in range(n)]
        folded = [False] * n
        for entry in self.table.events_since(log.start_number, self.viewer):
            event = entry.event
            if entry.hand != log.started.hand or isinstance(event, _TABLE_EVENTS):
                continue
            if isinstance(event, CardDealt):
                i = log.hand_seat(event.seat)
                cards[i].append(event.card)
                face_up[i].append(event.face_up)
            elif isinstance(event, ActionTaken) and event.action.kind is ActionKind.FOLD:
                folded[log.hand_seat(event.seat)] = True
            elif isinstance(event, HandShown | HandTurnedUp):
                i = log.hand_seat(event.seat)
                if len(event.cards) == len(cards[i]):
                    cards[i] = list(event.cards)
        final = log.final or log.started.stacks
        stacks = tuple(st - log.awarded.get(s, 0) for s, st in zip(log.started.seats, final, strict=True))
        view = SeatView(
            seat=None if self.viewer is None else log.hand_seat(self.viewer),
            game=self.game.name,
            street=7,
            phase=Phase.SHOWDOWN,
            to_act=None,
            stacks=stacks,
            bets=(0,) * n,
            pot=sum(log.awarded.values()) + log.rake,
            pots=(),
            folded=tuple(folded),
            cards=tuple(tuple(c) for c in cards),
            face_up=tuple(tuple(f) for f in face_up),
            community=log.community,
            legal_actions=(),
            events=(),
            version=0,
        )
        self._say_table(view, log.started.seats)


_SEAT_FIELDS = ("seat", "first_to_act", "to_act")


def _in_hand_seats(event: Event, seats: tuple[int, ...]) -> Event:
    """A stream event (its seats said as table seats) in the hand's own seats, as a bot's view
    of the engine has it: the reverse of the table's translation, field by field by name."""
    back = {table_seat: i for i, table_seat in enumerate(seats)}
    raw: Any = event
    if hasattr(raw, "_replace"):
        names: Sequence[str] = raw._fields
    elif dataclasses.is_dataclass(raw) and not isinstance(raw, type):
        names = [f.name for f in dataclasses.fields(raw)]
    else:  # pragma: no cover - every hand event is a named tuple or a dataclass
        return event
    changes: dict[str, Any] = {}
    for name in names:
        value = getattr(raw, name)
        if (name in _SEAT_FIELDS or name.endswith("_seat")) and type(value) is int:
            changes[name] = back[value]
        elif name == "seats" and isinstance(value, tuple):
            changes[name] = tuple(back[v] for v in value)
    if not changes:
        return event
    if hasattr(raw, "_replace"):
        result: Event = raw._replace(**changes)
    else:
        result = dataclasses.replace(raw, **changes)
    return result


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def play_command(args: argparse.Namespace) -> int:
    """``sevenstud play``: see the module's documentation. Returns the exit status."""
    try:
        # The command line hands over Stakes already checked; a caller may pass the text.
        stakes = args.stakes if isinstance(args.stakes, Stakes) else parse_stakes(str(args.stakes))
        game = game_by_name(str(args.game), stakes)
    except (StakesError, GameError) as exc:
        print(f"sevenstud play: {exc}", file=sys.stderr)
        return 2
    use(getattr(args, "lang", None) or from_environment())
    bots = int(args.bots)
    stack = int(args.stack)
    hands: int | None = None if args.hands is None else int(args.hands)
    seed: int | None = None if args.seed is None else int(args.seed)
    watch = bool(args.watch)
    kind = str(getattr(args, "bot_kind", None) or DEFAULT_KIND)
    problems = []
    if kind not in BOT_KINDS:
        problems.append(f"--bot-kind must be one of {', '.join(BOT_KINDS)}, not {kind!r}")
    if not 1 <= bots <= MAX_PLAYERS - 1:
        problems.append(f"--bots must be 1 to {MAX_PLAYERS - 1}, not {bots}")
    if stack <= 0:
        problems.append(f"--stack must be a positive number of chips, not {stack}")
    elif stack < game.stakes.ante:
        problems.append(f"--stack must cover the ante ({game.stakes.ante}), not {stack}")
    if hands is not None and hands < 1:
        problems.append(f"--hands must be at least 1, not {hands}")
    if problems:
        for problem in problems:
            print(f"sevenstud play: {problem}", file=sys.stderr)
        return 2
    base = seed if seed is not None else random.SystemRandom().randrange(2**32)
    seats = []
    for i in range(bots + 1):
        if i == HUMAN and not watch:
            seats.append(Seat(_("You"), None, stack))
        else:
            bot = new_bot(kind, seed=base * 10 + i, name=f"Bot {i}")
            seats.append(Seat(bot.name, bot, stack))
    table = TerminalTable(game, seats, seed=seed, stdin=sys.stdin, stdout=sys.stdout)
    # A closed pipe (``sevenstud play --watch | head``) is the command line's to handle.
    status = table.run(hands)
    if status == 130:
        print("sevenstud play: interrupted", file=sys.stderr)
    return status
