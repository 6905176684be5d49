"""The tournament director: registration, the clock, seating, balancing and breaking tables,
hand-for-hand, eliminations, places and prizes. Like :class:`~sevenstud.table.Table` it does
no I/O, reads no clock and draws randomness only from its own seeded generator: the caller
tells it the time and the results of hands, and carries out the commands it answers with
(:mod:`sevenstud.tournament.settings`).

A table's driver asks :meth:`Director.may_deal` before each hand (the level to deal, or
``None``: wait), says :meth:`Director.hand_started`, and reports :meth:`Director.hand_finished`
with every seated player's chips; between hands it calls :meth:`Director.tick`.

>>> from sevenstud.tournament.settings import TournamentSettings
>>> d = Director(TournamentSettings(seats=2, max_entries=2), seed=1)
>>> d.register("ann", now=0.0)
[]
>>> [type(c).__name__ for c in d.register("bob", now=1.0)]
['Status', 'Seat', 'Seat', 'NewLevel']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from sevenstud.tournament.payouts import payout_table, shared_prizes, split_exactly
from sevenstud.tournament.player_requests import (
    DealTalk,
    Entrant,
    PlayerRequests,
    TournamentError,
    _Clock,
)
from sevenstud.tournament.seating import TableIndex, TableSeats, draw_seats, random_open_seat
from sevenstud.tournament.settings import (
    Break,
    CloseTable,
    Command,
    Finish,
    HandForHand,
    NewLevel,
    Refund,
    Seat,
    Status,
    TournamentSettings,
)
from sevenstud.tournament.structure import Level

__all__ = ["DealTalk", "Director", "Entrant", "TournamentError"]


@dataclass(slots=True)
class Director(PlayerRequests):
    """Runs one tournament from registration to its last prize."""

    settings: TournamentSettings
    seed: int = 0
    state: str = "registering"
    entrants: dict[str, Entrant] = field(default_factory=dict)
    tables: dict[int, TableSeats] = field(default_factory=dict)
    level_index: int = 0
    pool: int = 0
    entries: int = 0
    chips_issued: int = 0
    late_open: bool = True
    field_final: bool = False
    """The field and the prize pool can no longer grow: no late entry, re-entry, rebuy or add-on."""
    hand_for_hand: bool = False
    hand_for_hand_round: int = 0
    breaking: set[int] = field(default_factory=set)
    tables_opened: int = 0
    """The highest table number used so far: a new table takes the next one. A number is never
    used twice (a late entry's table after table 3 broke is table 4): the card room keeps each
    table, its hands and its history, under its number."""
    final_table_pending: bool = False
    break_due: bool = False
    break_ends: float | None = None
    paused: bool = False
    paused_at: float | None = None
    """When the pause began (the caller's time; None: not paused)."""
    deal: DealTalk | None = None
    """The ICM deal being talked over (None: none): no hand is dealt and the clock stands still."""
    _clock: _Clock = field(default_factory=_Clock)
    _level_started: float = 0.0
    _next_break: float | None = None
    _busted_groups: list[list[tuple[str, int]]] = field(default_factory=list)
    """Busts while places cannot be given yet (late registration): each group a hand's."""
    _round_busts: list[tuple[str, int]] = field(default_factory=list)
    _started_chips: dict[str, int] = field(default_factory=dict)
    _dealt: dict[int, set[str]] = field(default_factory=dict)
    _noted: set[str] = field(default_factory=set)
    """The entrants changed since :meth:`take_changes` (each entrant notes its own changes)."""
    _noted_tables: set[int] = field(default_factory=set)
    """The tables changed, opened or closed since :meth:`take_changes`."""
    _rng: random.Random = field(init=False)
    # Kept as things change, so that each hand costs the same however large the field: the
    # players still in, the tables' sizes (seating.TableIndex), the payout table of the field.
    _left: int = 0
    _index: TableIndex = field(init=False)
    _prizes_of: tuple[int, int, tuple[int, ...]] | None = None

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._index = TableIndex(self.settings.seats)

    # -- what the tournament is now ------------------------------------------------------

    @property
    def level(self) -> Level:
        """The level being dealt."""
        return self.settings.level(self.level_index)

    def players_left(self) -> list[str]:
        """Everyone still in (a player who may still rebuy included)."""
        return [e.name for e in self.entrants.values() if not e.out]

    @property
    def players_left_count(self) -> int:
        """How many are still in: ``len(players_left())`` without counting them."""
        return self._left

    def _mark_out(self, entrant: Entrant) -> None:
        if not entrant.out:
            entrant.out = True
            self._left -= 1

    def _touch(self, table: TableSeats) -> None:
        self._index.update(table, self.breaking)
        self._noted_tables.add(table.number)

    def _reindex(self) -> None:
        self._index.rebuild(self.tables, self.breaking)
        self._noted_tables.update(self.tables)

    def enter(self, entrant: Entrant) -> None:
        """Put ``entrant`` in the field (last), its changes noted from now on."""
        entrant.noted = self._noted
        self.entrants[entrant.name] = entrant
        self._noted.add(entrant.name)

    def call_off(self) -> list[Command]:
        """Cancelled by the room (an operator's cancel, its entries refunded by the caller):
        nobody is seated any more, every table closes, and nobody holds a place, a player
        busted before it included: the chips won or lost count for nothing
        (docs/tournaments.md, "Rulings")."""
        self.state = "cancelled"
        self._noted_tables.update(self.tables)
        self.tables.clear()
        self._reindex()
        for entrant in self.entrants.values():
            entrant.table, entrant.place = None, None
        return [Status("cancelled")]

    def take_changes(self) -> tuple[set[str], set[int]]:
        """The entrants and the tables changed (a table: opened or closed too) since the last
        call, and none from now: what a store that keeps each of them apart writes after a
        hand, so that a hand's write is the size of the hand, not of the field. An entrant
        changes whenever one of its fields is set; a table at every change the director
        counts (``_touch``), and every table at a level, a draw or the end."""
        entrants, tables = self._noted.copy(), self._noted_tables.copy()
        self._noted.clear()
        self._noted_tables.clear()
        return entrants, tables

    def check_index(self) -> None:
        """Assert that the kept counts are the recounted ones (the tests call it after every
        step: a change to a table the director forgot to count would show here)."""
        self._index.check(self.tables, self.breaking)
        assert self._left == len(self.players_left()), (self._left, len(self.players_left()))

    def chips_in_play(self) -> int:
        """Every entrant's chips, those bought during a hand included (a busted player has
        none): always :attr:`chips_issued`."""
        return sum(e.chips + e.owed for e in self.entrants.values())

    def prizes(self) -> tuple[int, ...]:
        """The prize of each paid place for the field as it stands."""
        kept = self._prizes_of
        if kept is not None and kept[0] == self.entries and kept[1] == self.pool:
            return kept[2]  # asked after every hand: worked out again only when the field grows
        if self.settings.paid_places_override:
            prizes = split_exactly(self.pool, list(self.settings.paid_places_override))
        else:
            single = self.settings.kind == "sit_and_go"
            prizes = payout_table(self.entries, self.pool, single_table=single or None)
        self._prizes_of = (self.entries, self.pool, prizes)
        return prizes

    def play_time(self, now: float) -> float:
        """Seconds of play so far (breaks and pauses not counted)."""
        return self._clock.at(now)

    def time_to_next_level(self, now: float) -> float | None:
        """Seconds of play left in this level (``None`` for a level counted in hands)."""
        minutes = self.level.minutes
        if minutes is None:
            return None
        return max(0.0, self._level_started + minutes * 60 - self._clock.at(now))

    def time_to_break(self, now: float) -> float | None:
        """Seconds of play until the next break (``None``: no breaks)."""
        if self._next_break is None:
            return None
        return max(0.0, self._next_break - self._clock.at(now))

    def dealt_in(self, table: int) -> frozenset[str]:
        """The players dealt into the hand in progress at ``table`` (none between hands)."""
        return frozenset(self._dealt.get(table, ()))

    def table_of(self, player: str) -> int | None:
        """The table ``player`` sits at, if any."""
        entrant = self.entrants.get(player)
        return None if entrant is None else entrant.table

    # -- registering ---------------------------------------------------------------------

    def register(self, player: str, now: float) -> list[Command]:
        """Enter ``player`` (they pay :attr:`TournamentSettings.entry_price`); a sit-and-go that
        fills starts at once, a late entry is seated at once, a busted player re-enters."""
        s = self.settings
        known = self.entrants.get(player)
        if self.state == "registering":
            if known is not None:
                raise TournamentError("already_registered", player=player)
            if len(self.entrants) >= s.max_entries:
                raise TournamentError("tournament_full")
            self.enter(Entrant(player, len(self.entrants)))
            self._left += 1
            self._pay_entry()
            if s.kind == "sit_and_go" and len(self.entrants) == s.max_entries:
                return self._start(now)
            return []
        if self.state not in ("running", "break") or not self.late_open:
            raise TournamentError("registration_closed")
        if self.entries >= s.max_entries:
            raise TournamentError("tournament_full")
        if known is not None:
            self.verify_re_entry(player)
            known.entries += 1
            known.out = False
            self._left += 1
            known.place, known.prize = None, 0
            for group in self._busted_groups:
                group[:] = [b for b in group if b[0] != player]
            entrant = known
        else:
            entrant = Entrant(player, len(self.entrants))
            self.enter(entrant)
            self._left += 1
        self._pay_entry()
        return self._seat_late(entrant, now)

    def unregister(self, player: str, now: float) -> list[Command]:
        """Take back a registration before the start: the buy-in and fee are refunded."""
        if self.state != "registering":
            raise TournamentError("unregister_started")
        if player not in self.entrants:
            raise TournamentError("not_registered", player=player)
        del self.entrants[player]
        self._noted.add(player)
        self._left -= 1
        for order, entrant in enumerate(self.entrants.values()):
            entrant.order = order
        self.entries -= 1
        self.pool -= self.settings.buy_in
        self.chips_issued -= self.settings.starting_chips
        return [Refund(player, self.settings.entry_price)]

    def _pay_entry(self) -> None:
        self.entries += 1
        self.pool += self.settings.buy_in
        self.chips_issued += self.settings.starting_chips

    # -- the clock -----------------------------------------------------------------------

    def tick(self, now: float) -> list[Command]:
        """The time is ``now``: start a scheduled tournament, raise the level, take or end a
        break, end the time to rebuy of a busted player."""
        commands: list[Command] = []
        if self.state == "registering":
            start = self.settings.start_at
            if self.settings.kind == "scheduled" and start is not None and now >= start:
                if len(self.entrants) < self.settings.min_field:
                    return self._cancel()
                return self._start(now)
            return commands
        if self.deal is not None and now >= self.deal.ends:
            commands += self._deal_off(now, "")  # not everyone said yes in time: play on
        if self.state == "break" and self.break_ends is not None and now >= self.break_ends:
            self.state, self.break_ends = "running", None
            self._run_clock(now)
            commands.append(Status("running"))
        if self.state != "running":
            return commands
        commands += self._advance_levels(now)
        if self._next_break is not None and not self.break_due and self._clock.at(now) >= self._next_break:
            # The break is due: no new hand anywhere, and the clock stands at the break's moment
            # while the hands in progress end.
            self.break_due = True
            self._clock.played, self._clock.since = self._next_break, None
        commands += self._expire_rebuys(now)
        commands += self._maybe_take_break(now)
        return commands

    def pause(self, now: float) -> None:
        """Stop the clock (a server's recovery, an operator's pause): no level rises, no break
        comes nearer, and a busted player's time to rebuy stands still."""
        if not self.paused:
            self.paused_at = now
        self.paused = True
        self._clock.stop(now)

    def resume(self, now: float) -> None:
        """Start the clock again where it stood; each time to rebuy goes on from where it
        stood too (it moves on by the pause's length)."""
        if self.paused and self.paused_at is not None:
            held = max(0.0, now - self.paused_at)
            for entrant in self.entrants.values():
                if entrant.rebuy_until is not None:
                    entrant.rebuy_until += held
        self.paused, self.paused_at = False, None
        self._run_clock(now)

    def _run_clock(self, now: float) -> None:
        # The play clock runs unless something stops play everywhere: a break (or one due), a
        # server's recovery, a deal being talked over.
        if self.state == "running" and not self.break_due and not self.paused and self.deal is None:
            self._clock.go(now)

    def _advance_levels(self, now: float) -> list[Command]:
        commands: list[Command] = []
        while True:
            minutes = self.level.minutes
            if minutes is None or self.level_index >= len(self.settings.structure.levels) - 1:
                break
            if self._clock.at(now) < self._level_started + minutes * 60:
                break
            self._level_started += minutes * 60
            commands += self._next_level()
        return commands

    def _next_level(self) -> list[Command]:
        self.level_index += 1
        for table in self.tables.values():
            table.hands_in_level = 0
        self._noted_tables.update(self.tables)
        commands: list[Command] = [
            NewLevel(self.level_index, self.level, self.settings.game_at(self.level_index))
        ]
        s = self.settings
        if self.level_index >= s.late_registration_levels:
            self.late_open = False
        if not self.field_final and not self._field_open():
            commands += self._close_field()
        return commands

    def _maybe_take_break(self, now: float) -> list[Command]:
        if not self.break_due or self._index.in_hand:
            return []
        self.break_due = False
        every = self.settings.structure.break_every
        assert self._next_break is not None and every is not None
        self._next_break += every * 60
        self.state = "break"
        self.break_ends = now + self.settings.structure.break_minutes * 60
        return [Status("break"), Break(now, self.break_ends)]

    # -- starting, cancelling ------------------------------------------------------------

    def _start(self, now: float) -> list[Command]:
        s = self.settings
        self.state = "running"
        self._clock.go(now)
        every = s.structure.break_every
        self._next_break = every * 60 if every is not None else None
        drawn = draw_seats(list(self.entrants), s.seats, self._rng)
        self.tables = {t.number: t for t in drawn}
        self.tables_opened = max(self.tables, default=0)
        self._reindex()
        commands: list[Command] = [Status("running")]
        for table in drawn:
            for seat, player in sorted(table.players.items()):
                entrant = self.entrants[player]
                entrant.chips, entrant.table = s.starting_chips, table.number
                commands.append(Seat(player, table.number, seat, s.starting_chips))
        commands.append(NewLevel(0, self.level, s.game_at(0)))
        self.late_open = s.late_registration_levels > 0
        if not self._field_open():
            commands += self._close_field()
        return commands

    def _cancel(self) -> list[Command]:
        self.state = "cancelled"
        refunds: list[Command] = [Refund(name, self.settings.entry_price) for name in self.entrants]
        self.pool = 0
        return [Status("cancelled"), *refunds]

    def _seat_late(self, entrant: Entrant, now: float) -> list[Command]:
        s = self.settings
        entrant.chips, entrant.rebuy_until = s.starting_chips, None
        tables = [t for t in self.tables.values() if t.number not in self.breaking]
        if all(len(t.players) >= t.seats for t in tables):
            self.tables_opened += 1
            number = self.tables_opened
            self.tables[number] = TableSeats(number, s.seats)
            tables.append(self.tables[number])
            self._touch(self.tables[number])
        table, seat = random_open_seat(tables, self._rng)
        table.take(seat, entrant.name)
        self._touch(table)
        entrant.table = table.number
        commands: list[Command] = [Seat(entrant.name, table.number, seat, entrant.chips)]
        return commands + self._rebalance(now)

    # -- hands ---------------------------------------------------------------------------

    def may_deal(self, table: int, now: float) -> tuple[int, Level] | None:
        """The level (its index and stakes) table ``table`` deals its next hand at, or ``None``
        if it must wait now: a break, the final table or a broken table forming, hand-for-hand
        waiting for the other tables, or fewer than two players with chips."""
        seats = self.tables.get(table)
        if self.state != "running" or self.paused or seats is None or seats.in_hand:
            return None
        if self.break_due or self.final_table_pending or table in self.breaking or self.deal is not None:
            return None
        if self.hand_for_hand and seats.round_played >= self.hand_for_hand_round:
            return None
        dealable = [p for p in seats.players.values() if self.entrants[p].chips > 0]
        if len(dealable) < 2:
            return None
        return self.level_index, self.level

    def hand_started(
        self, table: int, stacks: Mapping[str, int], now: float, *, from_behind: bool = False
    ) -> list[Command]:
        """Table ``table`` dealt a hand to the players of ``stacks`` (their chips as it began).
        Levels counted in hands rise once the fastest table has dealt a level's hands.

        ``from_behind``: the table dealt from a copy of this director a moment behind it (in a
        tournament shared by several servers, another process had just made a break due,
        hand-for-hand or the final table's forming). That hand is played like any hand dealt
        before the clock said so: what the director waits for waits for its end."""
        seats = self.tables[table]
        if self.may_deal(table, now) is None and not from_behind:
            raise TournamentError(f"table {table} may not deal now")
        seats.in_hand = True
        self._touch(seats)
        seats.round_played = self.hand_for_hand_round
        for player, chips in stacks.items():
            self._started_chips[player] = chips
        self._noted.update(stacks)  # (each entrant's chips as the hand began are kept with it)
        self._dealt[table] = set(stacks)
        seats.hands_in_level += 1
        hands = self.level.hands
        last = len(self.settings.structure.levels) - 1
        if hands is not None and seats.hands_in_level >= hands and self.level_index < last:
            return self._next_level()
        return []

    def hand_cancelled(self, table: int, now: float) -> list[Command]:
        """The hand at ``table`` was called off (a crash): every chip went back where it was."""
        seats = self.tables[table]
        seats.in_hand = False
        self._touch(seats)
        for player in self._dealt.pop(table, set()):
            self._pay_owed(self.entrants[player])
        seats.round_played = self.hand_for_hand_round - 1 if self.hand_for_hand else seats.round_played
        return self._after_hand(now)

    def hand_finished(self, table: int, stacks: Mapping[str, int], now: float) -> list[Command]:
        """The hand at ``table`` is over; ``stacks`` holds the chips of every player seated
        there now. Busted players are placed (or may rebuy), tables are balanced or broken."""
        seats = self.tables[table]
        if not seats.in_hand:
            raise TournamentError(f"table {table} has no hand in progress")
        seated = set(seats.players.values())
        if set(stacks) != seated:
            raise TournamentError(
                f"table {table}'s stacks name {sorted(stacks)}, but {sorted(seated)} sit there"
            )
        if any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in stacks.values()):
            raise TournamentError("stacks must be whole chips, not negative")
        before = sum(self.entrants[p].chips for p in seated)
        if sum(stacks.values()) != before:
            raise TournamentError(f"table {table}'s stacks add up to {sum(stacks.values())}, not {before}")
        seats.in_hand = False
        self._touch(seats)
        dealt = self._dealt.pop(table, set())
        busted: list[tuple[str, int]] = []
        for player, chips in stacks.items():
            entrant = self.entrants[player]
            entrant.chips = chips
            self._pay_owed(entrant)  # chips bought during the hand: a player with them is not out
            if entrant.chips == 0 and player in dealt:  # not one out of chips already, to be placed
                busted.append((player, self._started_chips.get(player, 0)))
        commands: list[Command] = []
        rebuying = self._may_rebuy_now()
        final: list[tuple[str, int]] = []
        for player, start in busted:
            entrant = self.entrants[player]
            allowed = self.settings.rebuy_limit == 0 or entrant.rebuys < self.settings.rebuy_limit
            if rebuying and allowed:
                entrant.rebuy_until = now + self.settings.rebuy_seconds
            else:
                final.append((player, start))
        if final:
            if self.hand_for_hand:
                self._round_busts += final
            else:
                commands += self._eliminate(final)
        return commands + self._after_hand(now)

    @staticmethod
    def _pay_owed(entrant: Entrant) -> None:
        entrant.chips, entrant.owed = entrant.chips + entrant.owed, 0

    def _after_hand(self, now: float) -> list[Command]:
        commands: list[Command] = self._end_round_if_done() or []
        on_the_bubble = self._left <= len(self.prizes()) + 1
        if not self.field_final and self.state in ("running", "break") and on_the_bubble:
            commands += self._close_field()
        if self.state in ("running", "break"):
            commands += self._check_hand_for_hand()
            commands += self._rebalance(now)
            # The table the round waited for may just have been broken (its players moved to
            # tables that have dealt the round): the round is over then, or no table would deal.
            ended = self._end_round_if_done()
            if ended is not None:
                commands += ended
                if self.state in ("running", "break"):
                    commands += self._check_hand_for_hand() + self._rebalance(now)
            commands += self._maybe_take_break(now)
        if self.deal is not None and self.state in ("running", "break"):
            commands += self._deal_after_hand(now)
        return commands

    def _end_round_if_done(self) -> list[Command] | None:
        """A hand-for-hand round whose hands are all over ends: its busts are placed together
        and the next round begins (``None``: no round ended)."""
        if not self.hand_for_hand or self._index.in_hand or self.state not in ("running", "break"):
            return None
        waiting = [
            t
            for t in self.tables.values()
            if t.round_played < self.hand_for_hand_round and self._dealable(t) >= 2
        ]
        if waiting:
            return None
        commands: list[Command] = []
        if self._round_busts:
            commands += self._eliminate(self._round_busts)
            self._round_busts = []
        self.hand_for_hand_round += 1
        return commands

    def _dealable(self, table: TableSeats) -> int:
        return sum(1 for p in table.players.values() if self.entrants[p].chips > 0)

    # -- eliminations and prizes ---------------------------------------------------------

    def _seat_order(self, bust: tuple[str, int]) -> tuple[int, int]:
        table = self.entrants[bust[0]].table
        return (0, 0) if table is None else (table, self.tables[table].seat_of(bust[0]))

    def _eliminate(self, busted: list[tuple[str, int]]) -> list[Command]:
        # Players busting in one hand (or one hand-for-hand round) are placed by their chips at
        # its start, more chips the better place; equal chips tie and share those places' prizes.
        # Seats opened in the same hand open in seat order: the highest-numbered of them is the
        # one opened last, the first filled by balancing (docs/tournaments.md), whatever order
        # the hand's result was given in.
        for name, _ in sorted(busted, key=self._seat_order):
            entrant = self.entrants[name]
            self._mark_out(entrant)
            if entrant.table is not None:
                self.tables[entrant.table].vacate(name)
                self._touch(self.tables[entrant.table])
                entrant.table = None
        if not self.field_final:
            self._busted_groups.append(list(busted))
            if self._left <= len(self.prizes()) + 1:  # the field is on the bubble
                return self._close_field()
            return []
        commands = self._place(busted)
        if self._left == 1 and self.state in ("running", "break"):
            commands += self._place([(self.players_left()[0], 0)], worst=1)
            commands += self._finish()
        return commands

    def _place(self, busted: list[tuple[str, int]], worst: int | None = None) -> list[Command]:
        # ``worst``: the worst place the group takes (by default: just below everyone still in).
        prizes = self.prizes()
        if worst is None:
            worst = self._left + len(busted)
        commands: list[Command] = []
        by_chips: dict[int, list[str]] = {}
        for name, chips in busted:
            by_chips.setdefault(chips, []).append(name)
        for chips in sorted(by_chips):  # the fewest chips take the worst places
            names = sorted(by_chips[chips], key=lambda n: self.entrants[n].order)
            first = worst - len(names) + 1
            shares = shared_prizes(prizes, first, names)
            for name in names:
                entrant = self.entrants[name]
                self._mark_out(entrant)
                entrant.place, entrant.prize = first, shares[name]
                entrant.table = None
                commands.append(Finish(name, first, shares[name], len(names)))
            worst = first - 1
        return commands

    def _close_field(self) -> list[Command]:
        # Late registration, re-entries, rebuys and the add-on are over (at their level, or early
        # once the field is on the bubble): the players busted so far are placed, earliest worst.
        self.late_open = False
        self.field_final = True
        commands: list[Command] = []
        for entrant in self.entrants.values():
            if not entrant.out and entrant.chips == 0 and entrant.rebuy_until is not None:
                entrant.rebuy_until = None  # busted and waiting to rebuy: out now
                self._mark_out(entrant)
                if entrant.table is not None:
                    self.tables[entrant.table].vacate(entrant.name)
                    self._touch(self.tables[entrant.table])
                    entrant.table = None
                self._busted_groups.append([(entrant.name, self._started_chips.get(entrant.name, 0))])
        groups, self._busted_groups = self._busted_groups, []
        # The earliest busts take the worst places, now that the field is known.
        worst = self._left + sum(len(g) for g in groups)
        for group in groups:
            if group:
                commands += self._place(group, worst)
                worst -= len(group)
        if self.state in ("running", "break") and self._left == 1:
            commands += self._place([(self.players_left()[0], 0)], worst=1) + self._finish()
        return commands

    def _finish(self) -> list[Command]:
        self.state = "finished"
        self.deal = None
        for table in list(self.tables.values()):
            table.players.clear()
        self._reindex()
        return [Status("finished")]

    def _check_hand_for_hand(self) -> list[Command]:
        paid = len(self.prizes())
        on = self.field_final and self._index.with_players > 1 and self._left == paid + 1
        if on == self.hand_for_hand:
            return []
        self.hand_for_hand = on
        if on:
            self.hand_for_hand_round = max(t.round_played for t in self.tables.values()) + 1
        return [HandForHand(on)]

    # -- seats ---------------------------------------------------------------------------

    def _rebalance(self, now: float) -> list[Command]:
        commands: list[Command] = []
        if self.state not in ("running", "break"):
            return commands
        seats = self.settings.seats
        while True:
            count, seated = len(self.tables), self._index.seated
            if count > 1 and seated <= seats:
                commands += self._form_final_table()
                break
            self.final_table_pending = False  # late entries may have made it too many again
            if count > 1 and seated <= (count - 1) * seats and not self.breaking:
                highest = max(self.tables)
                self.breaking.add(highest)
                self._touch(self.tables[highest])
            broke = self._break_idle_tables()
            commands += broke
            moved = self._balance_once()
            commands += moved
            if not broke and not moved:
                break
        return commands

    def _break_idle_tables(self) -> list[Command]:
        commands: list[Command] = []
        for number in sorted(self.breaking, reverse=True):
            table = self.tables[number]
            if table.in_hand:
                continue
            others = [t for t in self.tables.values() if t.number != number and t.number not in self.breaking]
            if sum(t.seats - len(t.players) for t in others) < len(table.players):
                self.breaking.discard(number)  # late entries took the seats it needed: it stays
                self._touch(table)
                continue
            for seat in sorted(table.players):
                player = table.players.pop(seat)
                target, new_seat = random_open_seat(others, self._rng)
                target.take(new_seat, player)
                self._touch(target)
                self.entrants[player].table = target.number
                commands.append(Seat(player, target.number, new_seat, self.entrants[player].chips, number))
            self.breaking.discard(number)
            del self.tables[number]
            self._index.remove(number)
            self._noted_tables.add(number)
            commands.append(CloseTable(number))
        return commands

    def _balance_once(self) -> list[Command]:
        if not self._index.may_need_balancing():
            return []  # counted by size: no need to look at every table after every hand
        open_tables = [t for t in self.tables.values() if t.number not in self.breaking]
        if len(open_tables) < 2:
            return []
        shortest = min(open_tables, key=lambda t: (len(t.players), t.number))
        longest = max(
            (t for t in open_tables if not t.in_hand),
            key=lambda t: (len(t.players), -t.number),
            default=None,
        )
        if longest is None or len(longest.players) < len(shortest.players) + 2:
            return []
        seat = shortest.seat_to_fill()
        player = longest.player_for(seat)
        longest.vacate(player)
        shortest.take(seat, player)
        self._touch(longest)
        self._touch(shortest)
        self.entrants[player].table = shortest.number
        return [Seat(player, shortest.number, seat, self.entrants[player].chips, longest.number)]

    def _form_final_table(self) -> list[Command]:
        # The players fit one table: every table stops dealing, and once the last hand is over
        # everyone draws a new seat at the lowest-numbered table.
        self.final_table_pending = True
        if self._index.in_hand:
            return []
        commands: list[Command] = []
        if self._round_busts:  # busted in the last hand-for-hand hands: placed before the draw
            commands += self._eliminate(self._round_busts)
            self._round_busts = []
            if self.state == "finished":
                return commands
        final = min(self.tables)
        players = [p for t in sorted(self.tables) for _, p in sorted(self.tables[t].players.items())]
        origin = {p: self.entrants[p].table for p in players}
        drawn = draw_seats(players, self.settings.seats, self._rng, first_table=final)[0]
        for number in sorted(self.tables):
            if number != final:
                commands.append(CloseTable(number))
        self._noted_tables.update(self.tables)  # (the others close)
        self.tables = {final: drawn}
        self.breaking.clear()
        self._reindex()
        for seat, player in sorted(drawn.players.items()):
            self.entrants[player].table = final
            commands.append(Seat(player, final, seat, self.entrants[player].chips, origin[player]))
        self.final_table_pending = False
        self.hand_for_hand = False
        return commands
