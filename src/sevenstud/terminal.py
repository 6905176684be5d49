"""``sevenstud play``: a table of stud in the terminal, you (seat 0) against :class:`RuleBot`\\ s.

Hands are played one after another with the stacks carried over; a player who goes broke buys
in again for the starting stack. The seats stay where they are (stud has no button: seat 0 is
the first seat clockwise from the dealer). After every action the table is shown as you may see
it: your own down cards in brackets, the others' down cards as ``[xx]``, everybody's up cards,
the stacks, the bets and the pot. The table is printed once a street; each action after it is
one line. At your turn you see what it costs to stay in, your best high and low so far, and the
actions with their keys::

    Your turn (4th street): 3 chips to call, pot 12. You hold a pair of Kings; no low yet.
    [f]old  [c]all 3  [r]aise to 10 >

A call is counted as the chips you put in (``call 3``: three more chips), as the log says it;
a bet, a raise or a completion is your street total (``raise to 10``). Type the letter or the
words; ``?`` lists the legal actions; ``q``, Ctrl-C or end of input leaves the table, and the
hand in progress is called off. The rules are those of ``docs/rules.md``.

>>> parse_stakes("1/2/5/10")
Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TextIO

from sevenstud import evaluate
from sevenstud.bots import Bot, RuleBot
from sevenstud.cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS, Card, Deck, format_cards
from sevenstud.games import Game, GameError, Stakes, game_by_name
from sevenstud.hand import (
    MAX_PLAYERS,
    STREET_NAMES,
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
    IllegalAction,
    PotAwarded,
    RakeTaken,
    SeatView,
    StreetStarted,
)

HUMAN = 0
QUIT_WORDS = frozenset({"q", "quit", "exit", "bye"})


class StakesError(ValueError):
    """``--stakes`` that do not spell ``ante/bring-in/small bet/big bet``."""


def parse_stakes(text: str) -> Stakes:
    """Stakes from ``"ante/bring-in/small bet/big bet"``, e.g. ``"1/2/5/10"``."""
    parts = [p.strip() for p in text.split("/")]
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise StakesError(
            f"bad stakes {text!r}: expected four whole numbers of chips, "
            "ante/bring-in/small bet/big bet, e.g. 1/2/5/10"
        )
    ante, bring_in, small_bet, big_bet = (int(p) for p in parts)
    try:
        return Stakes(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)
    except GameError as exc:
        raise StakesError(f"bad stakes {text!r}: {exc}") from None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def chips(n: int) -> str:
    """``"1 chip"``, ``"3 chips"``.

    >>> chips(1), chips(0), chips(3)
    ('1 chip', '0 chips', '3 chips')
    """
    return _plural(n, "chip")


@dataclass
class Seat:
    name: str
    bot: Bot | None
    stack: int
    bought: int
    rebuys: int = 0

    @property
    def is_human(self) -> bool:
        return self.bot is None


@dataclass
class _HandLog:
    """What the printer remembers of the hand being played."""

    street_bets: dict[int, int] = field(default_factory=dict)
    shown: dict[int, HandShown] = field(default_factory=dict)
    showdown_started: bool = False
    awarded: dict[int, int] = field(default_factory=dict)
    """Chips each seat wins at the end: taken off the stacks to show the table at the showdown."""
    rake: int = 0
    bring_in_why: str = ""
    """Why the bring-in player brings in: ``"(lowest door card)"``, or who was passed over."""


class Table:
    """A table of players (one human at seat 0 unless watching) playing hand after hand."""

    def __init__(
        self,
        game: Game,
        seats: list[Seat],
        *,
        seed: int | None,
        stdin: TextIO,
        stdout: TextIO,
        decks: Sequence[Deck] = (),
    ) -> None:
        self.game = game
        self.decks = list(decks)
        """Decks to deal first, one a hand (a set-up table); then shuffled or seeded ones."""
        self.seats = seats
        self.seed = seed
        self.stdin = stdin
        self.stdout = stdout
        self.hands_played = 0
        self.starting_stack = seats[0].bought
        self.viewer: int | None = next((i for i, s in enumerate(seats) if s.is_human), None)
        self._echo = not _isatty(stdin)

    # ------------------------------------------------------------------ output

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def _verb(self, seat: int, base: str, third: str | None = None) -> str:
        """``"You call"`` but ``"Bot 2 calls"``."""
        if self.seats[seat].is_human:
            return f"{self.name(seat)} {base}"
        return f"{self.name(seat)} {third or base + 's'}"

    def _all_in(self, seat: int) -> str:
        """``" and are all-in"`` for you, ``" and is all-in"`` for a bot."""
        return " and are all-in" if self.seats[seat].is_human else " and is all-in"

    # ------------------------------------------------------------------ the session

    def run(self, hands: int | None) -> int:
        stakes = self.game.stakes
        self.say(
            f"{self.game.name}: ante {stakes.ante}, bring-in {stakes.bring_in}, "
            f"bets {stakes.small_bet}/{stakes.big_bet}; "
            f"{len(self.seats)} players, {self.starting_stack} chips each"
        )
        if self.viewer is not None:
            self.say("You are seat 0. Down cards are in [brackets]; [xx] is a card you cannot see.")
            self.say("Type the letter of an action or the words (e.g. 'raise to 10'); q quits.")
        else:
            self.say("Watching the bots. Down cards are in [brackets]; [xx] is one nobody shows.")
        try:
            while hands is None or self.hands_played < hands:
                if not self._play_hand():
                    return self._goodbye(unfinished=True)
                self.hands_played += 1
                more = hands is None or self.hands_played < hands
                if more and self.viewer is not None and not self._next_hand_wanted():
                    return self._goodbye()
        except KeyboardInterrupt:
            self.say()
            self._goodbye(unfinished=True)
            return 130
        return self._goodbye()

    def _goodbye(self, *, unfinished: bool = False) -> int:
        self.say()
        if unfinished:
            self.say("The hand in progress is called off: everybody takes back what they put in.")
        self.say(f"Goodbye! Final stacks after {_plural(self.hands_played, 'hand')}:")
        width = max(len(s.name) for s in self.seats)
        for seat in self.seats:
            net = seat.stack - seat.bought
            rebuys = f", bought in again {_plural(seat.rebuys, 'time')}" if seat.rebuys else ""
            self.say(f"  {seat.name:<{width}}  {seat.stack:>6}  ({net:+d}{rebuys})")
        return 0

    def _next_hand_wanted(self) -> bool:
        line = self._read("Press Enter for the next hand, or q to quit > ")
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
        for seat in self.seats:
            if seat.stack == 0:
                seat.stack = self.starting_stack
                seat.bought += self.starting_stack
                seat.rebuys += 1
                who = "You are" if seat.is_human else f"{seat.name} is"
                self.say(
                    f"{who} busted and {'buy' if seat.is_human else 'buys'} in again "
                    f"for {chips(self.starting_stack)}."
                )

    def _deck(self) -> Deck:
        if self.hands_played < len(self.decks):
            return self.decks[self.hands_played]
        if self.seed is None:
            return Deck.shuffled()
        return Deck.seeded(f"{self.seed}/{self.hands_played + 1}")

    def _play_hand(self) -> bool:
        """Play one hand; ``False`` when the human quit in the middle of it."""
        self.say()
        self.say(f"=== Hand #{self.hands_played + 1} ===")
        self._rebuy()
        hand = Hand(self.game, [s.stack for s in self.seats], self._deck())
        log = _HandLog()
        seen = self._show_events(hand, 0, log)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            bot = self.seats[seat].bot
            if bot is None:
                if not self._human_turn(hand, seat):
                    return False
            else:
                hand.act(bot.act(hand.view(seat)), seat)
            seen = self._show_events(hand, seen, log)
        for player, stack in zip(self.seats, hand.stacks, strict=True):
            player.stack = stack
        return True

    def _human_turn(self, hand: Hand, seat: int) -> bool:
        view = hand.view(seat)
        legal = list(view.legal_actions)
        already = view.bets[seat]
        call = next((a for a in legal if a.kind is ActionKind.CALL), None)
        owed = (call.amount or 0) - already if call is not None else 0
        street = STREET_NAMES[view.street]
        cost = f"{chips(owed)} to call, " if owed > 0 else ""
        mine = [c for c in view.cards[seat] if c is not None]
        self.say(
            f"Your turn ({street}): {cost}pot {view.pot}. "
            f"You hold {board_text(view.cards[seat], view.face_up[seat])}: "
            f"{holding_text(mine, self.game)}."
        )
        prompt = prompt_for(legal, already) + " > "
        while True:
            line = self._read(prompt)
            if line is None or line.strip().lower() in QUIT_WORDS:
                return False
            text = line.strip()
            if text.lower() in ("?", "h", "help"):
                self.say("  legal now: " + prompt_for(legal, already))
                continue
            try:
                hand.act(parse_choice(text, legal, already), seat)
            except IllegalAction as exc:
                self.say(f"  ! {exc}")
                continue
            return True

    # ------------------------------------------------------------------ printing the hand

    def _show_events(self, hand: Hand, since: int, log: _HandLog) -> int:
        """Print what happened since event ``since`` and the table; the new event count."""
        view = hand.view(self.viewer, since=since)
        events = view.events
        antes = [e for e in events if isinstance(e, AntePosted)]
        for e in events:
            if isinstance(e, PotAwarded):
                log.awarded[e.seat] = log.awarded.get(e.seat, 0) + e.amount
            elif isinstance(e, RakeTaken):
                log.rake += e.amount
        if antes:
            self._say_antes(antes)
        for event in events:
            line = self._event_line(event, log, hand)
            if line:
                self.say(line)
        # The table once a street, when its cards are out; every action after it is one line
        # (the turn line repeats what the human needs: the cost, their cards, their hand).
        if not hand.is_over and any(isinstance(e, StreetStarted | CommunityCardDealt) for e in events):
            self._say_table(hand.view(self.viewer))
        return view.version

    def _say_antes(self, antes: Sequence[AntePosted]) -> None:
        amounts = {e.amount for e in antes}
        if len(amounts) == 1 and not any(e.all_in for e in antes):
            self.say(f"Everybody antes {antes[0].amount}.")
            return
        for e in antes:
            suffix = self._all_in(e.seat) if e.all_in else ""
            self.say(f"{self._verb(e.seat, 'ante')} {e.amount}{suffix}.")

    def _event_line(self, event: Event, log: _HandLog, hand: Hand) -> str | None:
        if isinstance(event, AntePosted | CardDealt):
            return None  # antes are summed up above; the table shows the cards
        if isinstance(event, StreetStarted):
            log.street_bets = {}
            header = f"*** {STREET_NAMES[event.street].upper()} ***"
            if event.first_to_act is None:
                return f"{header}  (no betting: at most one player has chips left)"
            seat = event.first_to_act
            if event.street == 3:
                log.bring_in_why = self._bring_in_why(hand, seat)
                return f"{header}  {self.name(seat)} to bring in {log.bring_in_why}".rstrip()
            return f"{header}  {self.name(seat)} to act first"
        if isinstance(event, CommunityCardDealt):
            return f"Not enough cards for everybody: {event.card} is dealt face up for all to use."
        if isinstance(event, ActionTaken):
            return self._action_line(event, log)
        if isinstance(event, BetReturned):
            return f"Uncalled {chips(event.amount)} returned to {self.name(event.seat)}."
        if isinstance(event, HandShown | HandMucked):
            prefix = ""
            if not log.showdown_started:
                log.showdown_started = True
                self._say_table(hand.view(self.viewer), log)
                prefix = "*** SHOWDOWN ***\n"
            if isinstance(event, HandMucked):
                return f"{prefix}{self._verb(event.seat, 'muck')}."
            log.shown[event.seat] = event
            cards = format_cards(event.cards)
            if hand.community is not None:
                cards += f" (+ {hand.community} in the middle)"
            names = hand_names(event, self.game)
            return f"{prefix}{self._verb(event.seat, 'show')} {cards}: {names}"
        if isinstance(event, RakeTaken):
            return f"The house takes {event.amount} in rake."
        if isinstance(event, PotAwarded):
            return self._award_line(event, log)
        if isinstance(event, HandEnded):
            parts = []
            for seat, stack in enumerate(event.stacks):
                change = stack - hand.starting_stacks[seat]
                parts.append(f"{self.name(seat)} {stack} ({change:+d})")
            return "Stacks: " + ", ".join(parts)
        return None  # pragma: no cover - every event is handled above

    def _action_line(self, event: ActionTaken, log: _HandLog) -> str:
        seat, action = event.seat, event.action
        before = log.street_bets.get(seat, 0)
        if action.amount is not None:
            log.street_bets[seat] = action.amount
        amount = action.amount or 0
        kind = action.kind
        if kind is ActionKind.FOLD:
            text = self._verb(seat, "fold")
        elif kind is ActionKind.CHECK:
            text = self._verb(seat, "check")
        elif kind is ActionKind.CALL:
            text = f"{self._verb(seat, 'call')} {amount - before}"
        elif kind is ActionKind.BRING_IN:
            text = f"{self._verb(seat, 'bring')} in for {amount}"
            if "all-in" in log.bring_in_why:  # say why when the lowest door card was passed over
                text += f" {log.bring_in_why}"
        elif kind is ActionKind.COMPLETE:
            text = f"{self._verb(seat, 'complete')} to {amount}"
        elif kind is ActionKind.BET:
            text = f"{self._verb(seat, 'bet')} {amount}"
        elif kind is ActionKind.RAISE:
            text = f"{self._verb(seat, 'raise')} to {amount}"
        else:
            text = f"{self.name(seat)}: {action}"
        return text + (self._all_in(seat) if event.all_in else "") + "."

    def _bring_in_why(self, hand: Hand, seat: int) -> str:
        """``"(lowest door card)"``, or, when that card's owner is all-in from the ante and the
        next player clockwise brings in, ``"(Ann, lowest door card, is all-in)"``."""
        view = hand.view(self.viewer)
        word = "highest" if self.game.bring_in_by == "highest" else "lowest"
        owner = door_card_seat(view, self.game)
        if owner == seat:
            return f"({word} door card)"
        if owner is not None and view.stacks[owner] == 0:
            verb = "are" if self.seats[owner].is_human else "is"
            return f"({self.name(owner)}, {word} door card, {verb} all-in)"
        return ""  # the engine chose by a rule this printer does not know: say nothing wrong

    def _award_line(self, event: PotAwarded, log: _HandLog) -> str:
        pot = "the main pot" if event.pot == 0 else f"side pot {event.pot}"
        text = f"{self._verb(event.seat, 'win')} {chips(event.amount)} from {pot}"
        shown = log.shown.get(event.seat)
        if event.share != "whole":
            text += f" ({event.share} half)"
        if shown is None:
            return text + (" uncontested." if not log.shown else ".")
        if event.share == "low" or not self.game.has_high:
            return f"{text} with {shown.low}." if shown.low else f"{text}."
        if event.share == "whole" and shown.low:  # hi/lo: one hand took both halves
            return f"{text} with {shown.high} and the low {shown.low}."
        return f"{text} with {shown.high}."

    def _say_table(self, view: SeatView, log: _HandLog | None = None) -> None:
        if log is not None and log.awarded:
            # The hand is over: show the table as it stood before the pot was pushed.
            stacks = tuple(st - log.awarded.get(i, 0) for i, st in enumerate(view.stacks))
            pot = sum(log.awarded.values()) + log.rake
            view = replace(view, stacks=stacks, pot=pot, to_act=None)
        for line in table_lines(view, [s.name for s in self.seats]):
            self.say(line)


def hand_names(event: HandShown, game: Game) -> str:
    """``"HI: a full house, Kings full of Threes; LO: 8,6,4,3,2"`` for a shown hand."""
    parts = []
    if game.has_high:
        parts.append(f"HI: {event.high}")
    if game.low is not None:
        parts.append(f"LO: {event.low}" if event.low else "LO: no low")
    return "; ".join(parts)


def board_text(cards: Sequence[Card | None], face_up: Sequence[bool]) -> str:
    """``"[Ah] [4d] 7c"``: down cards in brackets (``[xx]`` when hidden), up cards bare."""
    out = []
    for card, up in zip(cards, face_up, strict=True):
        text = "xx" if card is None else str(card)
        out.append(text if up else f"[{text}]")
    return " ".join(out)


def table_lines(view: SeatView, names: Sequence[str]) -> list[str]:
    """Every seat's board, stack and bet as ``view`` shows them, then the pot."""
    width = max(len(n) for n in names)
    lines = []
    for seat, name in enumerate(names):
        board = board_text(view.cards[seat], view.face_up[seat])
        marker = ">" if seat == view.to_act else " "
        status = ""
        if view.folded[seat]:
            status = "folded"
        elif view.stacks[seat] == 0:
            status = "all-in"
        bet = f"bet {view.bets[seat]}" if view.bets[seat] else ""
        lines.append(
            f"  {marker} {name:<{width}}  {board:<34}  stack {view.stacks[seat]:>5}  "
            f"{bet:<8} {status}".rstrip()
        )
    community = f", community card {view.community}" if view.community is not None else ""
    lines.append(f"    pot {view.pot}{community}")
    return lines


_LETTERS = {
    ActionKind.FOLD: "f",
    ActionKind.CHECK: "c",
    ActionKind.CALL: "c",
    ActionKind.BRING_IN: "b",
    ActionKind.BET: "b",
    ActionKind.RAISE: "r",
    ActionKind.COMPLETE: "r",
    ActionKind.SHOW: "s",
    ActionKind.MUCK: "m",
}


def _label(action: Action, already: int = 0) -> str:
    text = str(action)
    if action.kind is ActionKind.CALL and action.amount is not None:
        text = f"call {action.amount - already}"  # the chips to put in, as the log counts it
    letter = _LETTERS[action.kind]
    if text.startswith(letter):
        return f"[{letter}]{text[1:]}"
    return f"[{letter}] {text}"


def prompt_for(legal: Sequence[Action], already: int = 0) -> str:
    """``"[f]old  [c]all 5  [r]aise to 10"``: the legal actions with their keys and amounts; a
    call shows the chips to put in, given ``already`` chips in on this street, other amounts
    are street totals.

    >>> from sevenstud.hand import Action, ActionKind as K
    >>> prompt_for([Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)])
    '[f]old  [c]all 5  [r]aise to 10'
    >>> prompt_for([Action(K.BRING_IN, 2), Action(K.COMPLETE, 5)])
    '[b]ring-in 2  [r] complete to 5'
    >>> prompt_for([Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)], already=2)
    '[f]old  [c]all 3  [r]aise to 10'
    """
    return "  ".join(_label(a, already) for a in legal)


def parse_choice(text: str, legal: Sequence[Action], already: int = 0) -> Action:
    """The action meant by what the player typed: a key from the prompt (``c``, ``r``, maybe
    with an amount: ``b 10``) or the words (``raise to 10``). A call's amount is the chips to
    put in (as the prompt shows it, with ``already`` chips in on this street) and is turned into
    the engine's street total. Raises :class:`IllegalAction` for text that is no action;
    whether the action is legal now is for the hand to say.

    >>> from sevenstud.hand import Action, ActionKind as K
    >>> parse_choice("c", [Action(K.CHECK), Action(K.BET, 5)])
    Action(kind=<ActionKind.CHECK: 'check'>, amount=None)
    >>> parse_choice("r", [Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)]).kind.value
    'raise'
    >>> parse_choice("call 3", [Action(K.FOLD), Action(K.CALL, 5)], already=2)
    Action(kind=<ActionKind.CALL: 'call'>, amount=5)
    """
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("type an action: " + prompt_for(legal))
    kinds = [a.kind for a in legal]
    head = words[0]
    if head in ("k", "x"):
        head = "check"
    elif len(head) == 1:
        matches = [k for k in kinds if _LETTERS[k] == head]
        if matches:
            head = matches[0].value
    action = Action.parse(" ".join([head, *words[1:]]))
    if action.kind is ActionKind.CALL and action.amount is not None:
        call = next((a for a in legal if a.kind is ActionKind.CALL), None)
        if call is None or call.amount is None:
            raise IllegalAction("there is nothing to call")
        owed = call.amount - already
        if action.amount != owed:
            raise IllegalAction(f"a call puts in {chips(owed)} now, not {action.amount}")
        return call
    return action


def door_card_seat(view: SeatView, game: Game) -> int | None:
    """The seat whose door card brings in by the game's rule (the lowest, razz: the highest;
    ties by ``game.suit_order`` or by seat), among the players still in; the bring-in itself
    passes to the next player clockwise when that seat is all-in."""
    doors = {
        seat: cards[2]
        for seat, cards in enumerate(view.cards)
        if len(cards) > 2 and cards[2] is not None and not view.folded[seat]
    }
    if not doors:
        return None
    highest = game.bring_in_by == "highest"

    def key(seat: int) -> tuple[int, int]:
        door = doors[seat]
        rank = (door.rank + 1) % 13 if highest else door.rank  # razz: the king is highest
        if game.bring_in_tie_break == "seat":
            return (rank, -seat) if highest else (rank, seat)
        return (rank, game.suit_order.index(door.suit))

    return max(doors, key=key) if highest else min(doors, key=key)


def holding_text(cards: Sequence[Card], game: Game) -> str:
    """Your best high and low so far, in the showdown's words; fewer than five cards are
    named by what they hold.

    >>> from sevenstud.cards import parse_cards
    >>> from sevenstud.games import Razz, Stakes, StudHiLo
    >>> stakes = Stakes(1, 2, 5, 10)
    >>> holding_text(parse_cards("Kc Kd Qs"), StudHiLo(stakes))
    'a pair of Kings; no low'
    >>> holding_text(parse_cards("Ac 2d 4s 7h"), StudHiLo(stakes))
    'high card Ace; no low yet (7,4,2,A toward one)'
    >>> holding_text(parse_cards("Ac 2d 4s 7h 8c"), StudHiLo(stakes))
    'high card Ace; low 8,7,4,2,A'
    >>> holding_text(parse_cards("Kc Kd Qs Qh 9c Jd Jh"), StudHiLo(stakes))
    'two pair, Kings and Queens; no low'
    >>> holding_text(parse_cards("9c 4d 2s"), Razz(stakes))
    'low 9,4,2 so far'
    """
    parts = []
    if game.has_high:
        parts.append(_high_so_far(cards))
    if game.low is not None:
        parts.append(_low_so_far(cards, qualified=game.low == "eight_or_better"))
    return "; ".join(parts)


def _high_so_far(cards: Sequence[Card]) -> str:
    if len(cards) >= 5:
        return evaluate.high_name(evaluate.high_rank(cards))
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    # Biggest group first, then the higher rank: the order a stud player reads a board in.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    top = counts[order[0]]
    if top == 4:
        return f"four of a kind, {RANK_PLURALS[order[0]]}"
    if top == 3:
        return f"three of a kind, {RANK_PLURALS[order[0]]}"
    if top == 2 and counts[order[1]] == 2:
        return f"two pair, {RANK_PLURALS[order[0]]} and {RANK_PLURALS[order[1]]}"
    if top == 2:
        return f"a pair of {RANK_PLURALS[order[0]]}"
    return f"high card {RANK_NAMES[order[0]]}"


def _low_so_far(cards: Sequence[Card], *, qualified: bool) -> str:
    if len(cards) >= 5:
        rank = evaluate.low8_rank(cards) if qualified else evaluate.low_rank(cards)
        if rank:
            return f"low {evaluate.low_name(rank)}"
    # Ace-to-five: the ace is the lowest card; an unpaired low card counts once.
    low = sorted({(c.rank + 1) % 13 for c in cards if not qualified or (c.rank + 1) % 13 <= 7})
    names = ",".join("A" if r == 0 else RANK_CHARS[r - 1] for r in reversed(low))
    if not qualified:
        return f"low {names} so far"
    if len(low) + 7 - len(cards) < 5:
        return "no low"
    return f"no low yet ({names} toward one)" if low else "no low yet"


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
    bots = int(args.bots)
    stack = int(args.stack)
    hands: int | None = None if args.hands is None else int(args.hands)
    seed: int | None = None if args.seed is None else int(args.seed)
    watch = bool(args.watch)
    problems = []
    if not 1 <= bots <= MAX_PLAYERS - 1:
        problems.append(f"--bots must be 1 to {MAX_PLAYERS - 1}, not {bots}")
    if stack <= 0:
        problems.append(f"--stack must be a positive number of chips, not {stack}")
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
            seats.append(Seat("You", None, stack, stack))
        else:
            bot = RuleBot(seed=base * 10 + i, name=f"Bot {i}")
            seats.append(Seat(bot.name, bot, stack, stack))
    table = Table(game, seats, seed=seed, stdin=sys.stdin, stdout=sys.stdout)
    # A closed pipe (``sevenstud play --watch | head``) is the command line's to handle.
    status = table.run(hands)
    if status == 130:
        print("sevenstud play: interrupted", file=sys.stderr)
    return status
