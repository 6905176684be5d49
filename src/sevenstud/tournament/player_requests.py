"""What a player asks of the tournament director while it runs, beside playing their hands:
re-entry, a rebuy, the add-on, going away and coming back, and the ICM deal
(docs/tournaments.md, "Rulings"). :class:`PlayerRequests` is a part of
:class:`~sevenstud.tournament.director.Director` (its base): each request has ``verify_x``
(raises :class:`TournamentError` saying why not), ``can_x`` (whether it would be granted now,
what a page shows its buttons by) and ``x`` (granted: the commands to carry out), as PokerKit
does; nothing here does I/O or reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sevenstud.refusals import Refusal
from sevenstud.tournament.payouts import icm_deal
from sevenstud.tournament.seating import TableIndex, TableSeats
from sevenstud.tournament.settings import AddChips, Command, Deal, Finish, TournamentSettings


class TournamentError(Refusal, ValueError):
    """A request the tournament cannot grant now; the message says why, and nothing changed."""


@dataclass(slots=True)
class Entrant:
    """One player's part in the tournament."""

    name: str
    order: int
    """Registration order (ties in odd chips go to the earlier entrant)."""
    entries: int = 1
    rebuys: int = 0
    add_on: bool = False
    chips: int = 0
    table: int | None = None
    out: bool = False
    place: int | None = None
    prize: int = 0
    away: bool = False
    rebuy_until: float | None = None
    """Busted in the rebuy period: may rebuy until this moment."""
    owed: int = 0
    """Chips bought (a rebuy, the add-on) during a hand the player is dealt into: they join the
    stack when that hand ends, never in the middle of it."""
    noted: set[str] | None = field(default=None, init=False, repr=False, compare=False)
    """Where a change to this entrant is noted (its director's :meth:`Director.take_changes`):
    the card room writes the entrants a hand changed, not the whole field."""

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        try:
            noted = object.__getattribute__(self, "noted")
        except AttributeError:  # (being made: not yet any director's)
            return
        if noted is not None:
            noted.add(self.name)


@dataclass(slots=True)
class DealTalk:
    """An ICM deal being talked over: who asked, until when (the caller's time), who has said yes."""

    proposed_by: str
    ends: float
    accepted: set[str] = field(default_factory=set)


@dataclass(slots=True)
class _Clock:
    # Play time runs only while the tournament is running and not on a break or paused; levels
    # and breaks are measured on it.
    played: float = 0.0
    since: float | None = None

    def at(self, now: float) -> float:
        return self.played + (now - self.since if self.since is not None else 0.0)

    def stop(self, now: float) -> None:
        self.played, self.since = self.at(now), None

    def go(self, now: float) -> None:
        if self.since is None:
            self.since = now


class PlayerRequests:
    """The players' requests: a part of the :class:`~sevenstud.tournament.director.Director`,
    which holds the state named below (no slots of its own: the Director's dataclass has them)."""

    if TYPE_CHECKING:  # the Director's state and the parts of its own flow these requests use
        settings: TournamentSettings
        state: str
        entrants: dict[str, Entrant]
        tables: dict[int, TableSeats]
        level_index: int
        pool: int
        entries: int
        chips_issued: int
        late_open: bool
        field_final: bool
        final_table_pending: bool
        paused: bool
        deal: DealTalk | None
        _clock: _Clock
        _index: TableIndex
        _started_chips: dict[str, int]
        _dealt: dict[int, set[str]]

        def players_left(self) -> list[str]: ...
        def prizes(self) -> tuple[int, ...]: ...
        def _mark_out(self, entrant: Entrant) -> None: ...
        def _touch(self, table: TableSeats) -> None: ...
        def _finish(self) -> list[Command]: ...
        def _run_clock(self, now: float) -> None: ...
        def _eliminate(self, busted: list[tuple[str, int]]) -> list[Command]: ...
        def _rebalance(self, now: float) -> list[Command]: ...

    def verify_re_entry(self, player: str) -> None:
        """Raise :class:`TournamentError` saying why ``player`` may not enter again now (a
        re-entry: busted, while late registration is open, with re-entries left)."""
        s = self.settings
        known = self.entrants.get(player)
        if known is None:
            raise TournamentError("no_entry_to_make_again", player=player)
        if not s.re_entries:
            raise TournamentError("no_re_entries")
        if self.state not in ("running", "break") or not self.late_open:
            raise TournamentError("re_entries_over")
        if not known.out:
            raise TournamentError("still_in_tournament", player=player)
        if known.entries > s.re_entries:
            raise TournamentError("re_entries_used", player=player, limit=s.re_entries)
        if self.entries >= s.max_entries:
            raise TournamentError("tournament_full")

    def can_re_enter(self, player: str) -> bool:
        """Whether ``player`` may re-enter now (:meth:`verify_re_entry`)."""
        return _granted(self.verify_re_entry, player)

    # -- rebuys, add-ons, leaving ----------------------------------------------------------

    def _may_rebuy_now(self) -> bool:
        s = self.settings
        return not self.field_final and s.rebuy_levels > 0 and self.level_index < s.rebuy_levels

    def _field_open(self) -> bool:
        # Entries, rebuys or the add-on may still come: the pool is not final, so nobody can be
        # given a place (its prize) yet.
        s = self.settings
        pool_open_until = s.rebuy_levels + (1 if s.add_on_chips else 0)
        return not self.field_final and (self.late_open or self.level_index < pool_open_until)

    def verify_rebuy(self, player: str) -> Entrant:
        """``player``'s entry if they may rebuy now, else :class:`TournamentError` saying why."""
        s = self.settings
        entrant = self._entrant_in(player)
        if not s.rebuy_levels:
            raise TournamentError("no_rebuys")
        if not self._may_rebuy_now():
            if self.field_final and self.level_index < s.rebuy_levels:
                raise TournamentError("rebuys_over_bubble")
            raise TournamentError("rebuys_over")
        if s.rebuy_limit and entrant.rebuys >= s.rebuy_limit:
            raise TournamentError("rebuys_used", player=player, limit=s.rebuy_limit)
        if entrant.chips + entrant.owed > s.starting_chips:
            raise TournamentError("rebuy_stack_high", player=player)
        return entrant

    def can_rebuy(self, player: str) -> bool:
        """Whether ``player`` may rebuy now (:meth:`verify_rebuy`)."""
        return _granted(self.verify_rebuy, player)

    def rebuy(self, player: str, now: float) -> list[Command]:
        """A rebuy for ``player``: busted and within their time to rebuy, or at no more than
        the starting chips (counted as the hand in progress was dealt), while rebuys are on
        (the chips of ``rebuy_chips``, the price the buy-in, into the prize pool; no fee).
        Bought during a hand the player is in, the chips join the stack when it ends."""
        s = self.settings
        entrant = self.verify_rebuy(player)
        chips = s.rebuy_chips or s.starting_chips
        entrant.rebuys += 1
        self._add_chips(entrant, chips)
        entrant.rebuy_until = None
        self.pool += s.buy_in
        self.chips_issued += chips
        return [AddChips(player, chips, s.buy_in, "rebuy")]

    def verify_add_on(self, player: str) -> Entrant:
        """``player``'s entry if they may take the add-on now, else :class:`TournamentError`."""
        s = self.settings
        entrant = self._entrant_in(player)
        if not s.add_on_chips:
            raise TournamentError("no_add_on")
        if self.level_index != s.rebuy_levels or self.field_final:
            raise TournamentError("add_on_level")
        if entrant.add_on:
            raise TournamentError("add_on_taken", player=player)
        return entrant

    def can_add_on(self, player: str) -> bool:
        """Whether ``player`` may take the add-on now (:meth:`verify_add_on`)."""
        return _granted(self.verify_add_on, player)

    def add_on(self, player: str, now: float) -> list[Command]:
        """``player``'s one add-on, in the level after the rebuys (a break in it included);
        taken during a hand the player is in, its chips join the stack when it ends."""
        s = self.settings
        entrant = self.verify_add_on(player)
        entrant.add_on = True
        self._add_chips(entrant, s.add_on_chips)
        price = s.add_on_price or s.buy_in
        self.pool += price
        self.chips_issued += s.add_on_chips
        return [AddChips(player, s.add_on_chips, price, "add_on")]

    def _add_chips(self, entrant: Entrant, chips: int) -> None:
        # Bought during a hand the player is dealt into: the chips wait for its end (the
        # stack a hand is played with is the one it was dealt with).
        table = entrant.table
        if table is not None and entrant.name in self._dealt.get(table, ()):
            entrant.owed += chips
        else:
            entrant.chips += chips

    def leave(self, player: str, now: float) -> None:
        """``player`` leaves for good: they stay seated, their antes and bring-ins are posted and
        their hand folded at their turn until their chips are gone (the table's sitting out)."""
        self._entrant_in(player).away = True

    def come_back(self, player: str, now: float) -> None:
        """``player`` is back at the table: dealt in and playing their hands again."""
        self._entrant_in(player).away = False

    def _entrant_in(self, player: str) -> Entrant:
        entrant = self.entrants.get(player)
        if entrant is None or entrant.out or self.state not in ("running", "break"):
            raise TournamentError("not_playing_in_tournament", player=player)
        return entrant

    def _expire_rebuys(self, now: float) -> list[Command]:
        if not self.settings.rebuy_levels:
            return []  # nobody has a time to rebuy: no need to look at every entrant each tick
        if self.paused:
            return []  # a pause holds the time to rebuy with the clock
        over = not self._may_rebuy_now()
        lapsed = [
            (e.name, self._started_chips.get(e.name, 0))
            for e in self.entrants.values()
            if not e.out and e.chips == 0 and e.rebuy_until is not None and (over or now >= e.rebuy_until)
        ]
        if not lapsed:
            return []
        for name, _ in lapsed:
            self.entrants[name].rebuy_until = None
        return self._eliminate(lapsed) + self._rebalance(now)

    # -- the deal ------------------------------------------------------------------------

    def deal_offer(self) -> dict[str, int]:
        """What each player still in would take if the prizes left were split by ICM now: only
        at the final table, once everyone left is in the money."""
        left = self.players_left()
        prizes = self.prizes()
        if len(left) > len(prizes) or len(left) < 2 or self.state not in ("running", "break"):
            raise TournamentError("deal_in_the_money")
        if len(self.tables) > 1 or self.final_table_pending:
            raise TournamentError("deal_at_final_table")
        return icm_deal({p: self.entrants[p].chips for p in left}, prizes[: len(left)])

    def propose_deal(
        self, player: str, now: float, seconds: float, accepting: Collection[str] = ()
    ) -> list[Command]:
        """``player`` asks for the ICM deal: no new hand is dealt and the play clock stands still
        while it is talked over, ``seconds`` at most; the offer is made on the stacks once the
        hand in progress is over. The players of ``accepting`` (bots) say yes to it at once."""
        offer = self.deal_offer()
        if player not in offer:
            raise TournamentError("not_in_tournament", player=player)
        if self.deal is not None:
            raise TournamentError("deal_talked_over", player=self.deal.proposed_by)
        if not seconds > 0:
            raise TournamentError("deal_time_positive", seconds=repr(seconds))
        self.deal = DealTalk(player, now + seconds, set(accepting) & set(offer))
        self._clock.stop(now)
        return [Deal("proposed", player), *self._deal_after_hand(now)]

    def accept_deal(self, player: str, now: float) -> list[Command]:
        """``player`` says yes to the deal on the table; once everyone still in has, the prizes
        left are paid by it and the tournament ends, places by chips."""
        if self.deal is None:
            raise TournamentError("no_deal_proposed")
        offer = self.deal_offer()
        if player not in offer:
            raise TournamentError("not_in_tournament", player=player)
        if self._index.in_hand:
            raise TournamentError("deal_after_hand")
        self.deal.accepted.add(player)
        return [Deal("accepted", player), *self._deal_after_hand(now)]

    def decline_deal(self, player: str, now: float) -> list[Command]:
        """``player`` says no: the deal is off and play goes on."""
        if self.deal is None:
            raise TournamentError("no_deal_proposed")
        if player not in self.deal_offer():
            raise TournamentError("not_in_tournament", player=player)
        return self._deal_off(now, player)

    def _deal_off(self, now: float, player: str) -> list[Command]:
        self.deal = None
        self._run_clock(now)
        return [Deal("off", player)]

    def _deal_after_hand(self, now: float) -> list[Command]:
        # The deal's terms are the stacks between hands: a bust may have changed who is left
        # (then fewer say yes), or left no deal to make (then it is off).
        talk = self.deal
        if talk is None or self._index.in_hand:
            return []
        try:
            offer = self.deal_offer()
        except TournamentError:
            return self._deal_off(now, "")
        if set(offer) - talk.accepted:
            return []
        commands: list[Command] = []
        ranked = sorted(offer, key=lambda p: (-self.entrants[p].chips, self.entrants[p].order))
        for place, name in enumerate(ranked, start=1):
            entrant = self.entrants[name]
            self._mark_out(entrant)
            entrant.place, entrant.prize = place, offer[name]
            if entrant.table is not None:
                self.tables[entrant.table].vacate(name)
                self._touch(self.tables[entrant.table])
                entrant.table = None
            commands.append(Finish(name, place, offer[name]))
        return [*commands, Deal("done", ""), *self._finish()]


def _granted(verify: Callable[[str], object], player: str) -> bool:
    try:
        verify(player)
    except TournamentError:
        return False
    return True
