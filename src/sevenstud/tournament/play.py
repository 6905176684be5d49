"""A whole tournament played without I/O: the :class:`~sevenstud.tournament.director.Director`
and one real :class:`~sevenstud.table.Table` per tournament table, a bot in every seat, on a
simulated clock (each action takes a few simulated seconds; nothing sleeps).

Every command of the director is carried out on the tables: ``Seat`` sits a player down (a move,
``from_table``, stands them up at the old table first, with the same chips), ``Finish`` stands
the player up, ``AddChips`` tops a stack up, ``CloseTable`` closes an empty table, and the level
of each hand is the one :meth:`Director.may_deal` gives (``Table.set_game`` between hands).
After every hand it checks that the chips at the tables are the chips the director issued and
that the director seats at that table whom the table seats (``full_check_every``: how often
every table is recounted as well). Each bot sees only its own seat's view.

>>> from sevenstud.tournament.settings import TournamentSettings
>>> from sevenstud.tournament.structure import TURBO
>>> result = play(TournamentSettings(seats=6, max_entries=6, structure=TURBO), seed=3)
>>> sorted(result.places.values()), sum(result.prizes.values())
([1, 2, 3, 4, 5, 6], 600)
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sevenstud.bots import Bot, RandomBot, RuleBot
from sevenstud.table import StoodUp, Table, TableSettings
from sevenstud.tournament.director import Director
from sevenstud.tournament.settings import AddChips, CloseTable, Command, Finish, Seat, TournamentSettings


class PlayError(AssertionError):
    """The tables and the director disagree (a bug in one of them): the message says where."""


@dataclass(slots=True)
class PlayResult:
    """How a played tournament ended."""

    places: dict[str, int]
    prizes: dict[str, int]
    hands: int
    """Hands dealt over all tables."""
    most_tables: int
    """The most tables dealing at once."""
    wall_seconds: float
    simulated_seconds: float
    finishes: list[Finish] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)
    """Hands dealt of each game, by the game's name."""
    pool: int = 0
    """The prize pool: every buy-in, rebuy and add-on."""
    chips_issued: int = 0


def rule_bots(seed: int) -> Callable[[str], Bot]:
    """A RuleBot for most players and a RandomBot for every fifth, each seeded by its name."""

    def make(name: str) -> Bot:
        if hash(name) % 5 == 0:
            return RandomBot(seed=f"{seed}:{name}", name=name)
        return RuleBot(seed=f"{seed}:{name}", name=name)

    return make


@dataclass(slots=True)
class _Play:
    director: Director
    rng: random.Random
    bots: dict[str, Bot]
    action_seconds: tuple[float, float]
    full_check_every: int
    rebuys: bool = False
    tables: dict[int, Table] = field(default_factory=dict)
    where: dict[str, int] = field(default_factory=dict)
    """Player -> the table they sit at."""
    chips_at_tables: int = 0
    """Every chip sat down or added, less every chip stood up with: counted as it moves."""
    finishes: list[Finish] = field(default_factory=list)
    hands: int = 0
    most_tables: int = 0
    dealing: int = 0
    now: float = 0.0
    queue: list[tuple[float, int, int]] = field(default_factory=list)
    queued: set[int] = field(default_factory=set)
    idle: set[int] = field(default_factory=set)
    busted: set[str] = field(default_factory=set)
    """Players seated without chips: stood up once the director no longer seats them."""
    order: int = 0
    games: dict[str, int] = field(default_factory=dict)

    def settings_for(self, index: int) -> TableSettings:
        game = self.director.settings.game_of(index)  # the one tournament game of the level
        return TableSettings(game, seats=self.director.settings.seats, tournament=True, history=64)

    # -- carrying out the director's commands --------------------------------------------

    def carry_out(self, commands: Iterable[Command]) -> None:
        commands = list(commands)
        limbo: dict[str, int] = {}
        for command in commands:
            if isinstance(command, Seat):
                self._seat(command, limbo)
            elif isinstance(command, Finish):
                self.finishes.append(command)
                self._stand_up(command.player)
            elif isinstance(command, AddChips):
                table = self.tables[self.where[command.player]]
                table.top_up(command.player, command.chips, self.now)
                self.chips_at_tables += command.chips
                self.busted.discard(command.player)
            elif isinstance(command, CloseTable):
                closing = self.tables.get(command.table)
                if closing is not None:
                    # The final table's draw closes the others before it seats their players:
                    # they wait out of their seats, and must be seated in this same batch.
                    for state in closing.view(None).seats:
                        if state.player in self.busted:
                            self._stand_up(state.player)
                        else:
                            limbo[state.player] = self._stand_up(state.player)
                    del self.tables[command.table]
                self.idle.discard(command.table)
        if limbo:
            raise PlayError(f"moved out of their seats and never seated again: {sorted(limbo)}")
        for player in list(self.busted):
            entrant = self.director.entrants[player]
            if entrant.out or entrant.table != self.where.get(player):
                self._stand_up(player)
        if commands:  # only a change wakes the waiting tables: else two of them would wake
            self.wake_idle()  # each other for ever at one moment, and no hand would go on

    def _stand_up(self, player: str) -> int:
        number = self.where.pop(player, None)
        self.busted.discard(player)
        if number is None:
            return 0
        entry = self.tables[number].leave(player, self.now)
        if not isinstance(entry.event, StoodUp):
            raise PlayError(f"{player} was moved out of a hand at table {number}")
        self.chips_at_tables -= entry.event.stack
        return entry.event.stack

    def _seat(self, command: Seat, limbo: dict[str, int]) -> None:
        player = command.player
        if player in limbo:
            chips = limbo.pop(player)
        elif player in self.where:
            if command.from_table != self.where[player]:
                raise PlayError(
                    f"{player} is moved from table {command.from_table} but sits at {self.where[player]}"
                )
            chips = self._stand_up(player)
        else:
            chips = command.chips
        if chips != command.chips:
            raise PlayError(f"{player} moves with {chips} chips, the director says {command.chips}")
        table = self.tables.get(command.table)
        if table is None:
            table = self.tables[command.table] = Table(self.settings_for(self.director.level_index))
            self.idle.add(command.table)
        occupant = table.player_at(command.seat)
        if occupant is not None:  # moving later in this batch (the final table's redraw)
            limbo[occupant] = self._stand_up(occupant)
        table.sit_down(player, command.seat, chips, self.now)
        self.where[player] = command.table
        self.chips_at_tables += chips
        if chips == 0:
            self.busted.add(player)

    # -- the clock -----------------------------------------------------------------------

    def schedule(self, number: int, at: float) -> None:
        if number not in self.queued:
            self.queued.add(number)
            self.order += 1
            heapq.heappush(self.queue, (at, self.order, number))

    def wake_idle(self) -> None:
        for number in list(self.idle):
            self.idle.discard(number)
            self.schedule(number, self.now)

    def step(self, number: int) -> None:
        """Table ``number``'s turn: the seat to act acts, or a hand is dealt if it may be."""
        table = self.tables.get(number)
        if table is None:
            return
        d = self.director
        if table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            player = table.player_at(seat)
            assert player is not None
            view = table.view(seat).hand
            assert view is not None
            table.act(seat, self.bots[player].act(view), self.now)
            if table.hand_in_progress:
                self.schedule(number, self.now + self.rng.uniform(*self.action_seconds))
            else:
                self.end_hand(number, table)
            return
        self.carry_out(d.tick(self.now))
        allowed = d.may_deal(number, self.now)
        if allowed is None:
            self.idle.add(number)
            return
        index, _ = allowed
        game = d.settings.game_of(index)
        if table.settings.game != game:
            table.set_game(game, self.now)
        stacks = {s.player: s.stack for s in table.view(None).seats if s.stack > 0}
        self.carry_out(d.hand_started(number, stacks, self.now))
        table.start_hand(self.now, seed=self.rng.getrandbits(64))
        self.hands += 1
        self.games[game.name] = self.games.get(game.name, 0) + 1
        self.dealing += 1
        self.most_tables = max(self.most_tables, self.dealing)
        if table.hand_in_progress:
            self.schedule(number, self.now + self.rng.uniform(*self.action_seconds))
        else:  # every turn was the table's to play (players away, or all in on the antes)
            self.end_hand(number, table)

    def end_hand(self, number: int, table: Table) -> None:
        self.dealing -= 1
        seats = table.view(None).seats
        stacks = {s.player: s.stack for s in seats}
        for s in seats:
            if s.stack == 0:
                self.busted.add(s.player)
        self.carry_out(self.director.hand_finished(number, stacks, self.now))
        if self.rebuys:  # every busted player who may rebuy does, at once
            for player in sorted(self.busted):
                entrant = self.director.entrants[player]
                if not entrant.out and entrant.rebuy_until is not None:
                    self.carry_out(self.director.rebuy(player, self.now))
        self.check(number)
        self.schedule(number, self.now + 2.0)  # the dealer gathers the cards

    # -- the checks ----------------------------------------------------------------------

    def check(self, number: int) -> None:
        d = self.director
        if d.state not in ("running", "break"):
            return
        if self.chips_at_tables != d.chips_issued:
            raise PlayError(
                f"the tables hold {self.chips_at_tables} chips, the director issued {d.chips_issued}"
            )
        for t in [number] if self.hands % self.full_check_every else list(self.tables):
            self._check_table(t)
        if self.hands % self.full_check_every == 0:
            total = sum(table.chips_at_table() for table in self.tables.values())
            if total != d.chips_issued:
                raise PlayError(f"counted again, the tables hold {total} chips, not {d.chips_issued}")
            if set(self.tables) != set(d.tables):
                raise PlayError(f"tables {sorted(self.tables)} play, the director has {sorted(d.tables)}")

    def _check_table(self, number: int) -> None:
        table = self.tables.get(number)
        seats = self.director.tables.get(number)
        if table is None or seats is None:
            if table is not None or seats is not None:
                raise PlayError(f"table {number} is at one side only (the tables or the director)")
            return
        here = {s.seat: s.player for s in table.view(None).seats}
        if here != seats.players:
            raise PlayError(f"table {number} seats {here}, the director says {seats.players}")


def play(
    settings: TournamentSettings,
    players: Iterable[str] | None = None,
    *,
    seed: int = 0,
    bots: Callable[[str], Bot] | None = None,
    action_seconds: tuple[float, float] = (1.0, 6.0),
    away: Iterable[str] = (),
    rebuys: bool = False,
    full_check_every: int = 1,
    start_at: float = 0.0,
    max_events: int = 50_000_000,
) -> PlayResult:
    """Register ``players`` (default: as many as ``settings.max_entries``), play the tournament
    to its end with a bot in every seat and return the result. Players in ``away`` are away
    from the start to the end: dealt in, anted and folded at their turn (docs/table.md). With
    ``rebuys``, a player busted while rebuys are on rebuys at once (``AddChips``)."""
    names = list(players) if players is not None else [f"p{i}" for i in range(settings.max_entries)]
    make = bots or rule_bots(seed)
    director = Director(settings, seed=seed)
    run = _Play(
        director, random.Random(seed), {n: make(n) for n in names}, action_seconds, full_check_every, rebuys
    )
    started = time.perf_counter()
    run.now = 0.0
    for name in names:
        run.carry_out(director.register(name, run.now))
    run.now = max(run.now, start_at if settings.kind == "scheduled" else 0.0)
    if settings.start_at is not None:
        run.now = max(run.now, settings.start_at)
    run.carry_out(director.tick(run.now))
    for name in away:
        table = run.tables[run.where[name]]
        table.sit_out(name, run.now)
    for _ in range(max_events):
        if director.state in ("finished", "cancelled"):
            break
        if not run.queue:  # every table waits (a break, the final table forming): time passes
            run.now += 5.0
            run.carry_out(director.tick(run.now))
            run.wake_idle()
            continue
        at, _, number = heapq.heappop(run.queue)
        run.queued.discard(number)
        run.now = max(run.now, at)
        run.step(number)
    else:
        raise PlayError(f"the tournament did not end in {max_events} events")
    entrants = director.entrants.values()
    return PlayResult(
        places={e.name: e.place for e in entrants if e.place is not None},
        prizes={e.name: e.prize for e in entrants},
        hands=run.hands,
        most_tables=run.most_tables,
        wall_seconds=time.perf_counter() - started,
        simulated_seconds=run.now,
        finishes=run.finishes,
        games=run.games,
        pool=director.pool,
        chips_issued=director.chips_issued,
    )
