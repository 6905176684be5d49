"""What the card room shows and proves of its tournaments: a tournament's public page
(:func:`describe_director`: no card, nothing private) and its part of ``sevenstud audit``
(:func:`audit_tournaments`)."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

from sevenstud.server.protocol import HandForHand as HandForHandMessage
from sevenstud.server.protocol import (
    Outgoing,
    TournamentBreak,
    TournamentChips,
    TournamentDeal,
    TournamentFinish,
    TournamentLevel,
    TournamentLevelInfo,
    TournamentMoved,
    TournamentSeated,
    TournamentState,
    TournamentStatus,
)
from sevenstud.server.store import hands, ledger, tournament_entries, tournament_list, tournament_tables
from sevenstud.server.tournaments.cashier import director_of
from sevenstud.tournament import (
    AddChips,
    Break,
    Command,
    Deal,
    Director,
    Finish,
    HandForHand,
    NewLevel,
    Seat,
    Status,
    StructureError,
    TournamentError,
)

STATES = ("registering", "running", "break", "finished", "cancelled")
"""A tournament's states, as the lobby filters them."""


def describe_director(d: Director, tnow: float, tables: dict[int, int]) -> dict[str, Any]:
    """A director's public state: the structure, entrants, prize pool and payouts, tables with
    their counts, the level and its clock (no card, nothing private)."""
    s = d.settings
    left = [e for e in d.entrants.values() if not e.out]
    over = d.state in ("finished", "cancelled")  # no clock runs on: nothing comes next
    level = d.level
    nxt = s.level(d.level_index + 1)
    return {
        "state": d.state,
        "kind": s.kind,
        "game": s.game_at(d.level_index),
        "buy_in": s.buy_in,
        "fee": s.fee,
        "starting_chips": s.starting_chips,
        "seats": s.seats,
        "max_entries": s.max_entries,
        "min_field": s.min_field,
        "entries": d.entries,
        "players_left": len(left),
        "winner": next((e.name for e in d.entrants.values() if e.place == 1), None),
        "average_stack": (d.chips_issued // len(left)) if left else 0,
        "prize_pool": d.pool,
        "payouts": list(d.prizes()) if d.entries else [],
        "level": {
            "index": d.level_index,
            "ante": level.ante,
            "bring_in": level.bring_in,
            "small_bet": level.small_bet,
            "big_bet": level.big_bet,
            "game": s.game_at(d.level_index),
        },
        "next_level": {
            "ante": nxt.ante,
            "bring_in": nxt.bring_in,
            "small_bet": nxt.small_bet,
            "big_bet": nxt.big_bet,
            "game": s.game_at(d.level_index + 1),
        },
        "time_to_next_level": None if over else d.time_to_next_level(tnow),
        "time_to_break": None if over else d.time_to_break(tnow),
        "break_ends_in": (max(0.0, d.break_ends - tnow) if d.break_ends is not None else None),
        "hand_for_hand": d.hand_for_hand,
        "re_entries": s.re_entries,
        "late_registration": {
            "levels": s.late_registration_levels,
            # Open now: the tournament has started and a new entry is still seated at once.
            "open": s.late_registration_levels > 0 and d.late_open and d.state in ("running", "break"),
        },
        "rebuys": (
            {
                "levels": s.rebuy_levels,
                "limit": s.rebuy_limit,
                "chips": s.rebuy_chips or s.starting_chips,
                "price": s.buy_in,
            }
            if s.rebuy_levels
            else None
        ),
        "add_on": (
            {"chips": s.add_on_chips, "price": s.add_on_price or s.buy_in, "level": s.rebuy_levels}
            if s.add_on_chips
            else None
        ),
        "icm": _icm_now(d),
        "deal": (
            None
            if d.deal is None
            else {
                "proposed_by": d.deal.proposed_by,
                "accepted": sorted(d.deal.accepted & set(d.players_left())),
                "waiting_for": sorted(set(d.players_left()) - d.deal.accepted),
                "ends_in": max(0.0, d.deal.ends - tnow),
                "hand_in_progress": any(t.in_hand for t in d.tables.values()),
            }
        ),
        "structure": {
            "name": s.structure.name,
            "levels": [
                {
                    "ante": lv.ante,
                    "bring_in": lv.bring_in,
                    "small_bet": lv.small_bet,
                    "big_bet": lv.big_bet,
                    "minutes": lv.minutes,
                    "hands": lv.hands,
                }
                for lv in s.structure.levels[:20]
            ],
            "break_every": s.structure.break_every,
            "break_minutes": s.structure.break_minutes,
        },
        "entrants": sorted(
            (
                {
                    "name": e.name,
                    "chips": e.chips + e.owed,  # (chips bought during a hand: theirs, at its end)
                    "table": e.table,
                    "place": e.place,
                    "prize": e.prize,
                    "entries": e.entries,
                    "rebuys": e.rebuys,
                    "add_on": e.add_on,
                }
                for e in d.entrants.values()
            ),
            key=lambda e: (e["place"] or 0, -e["chips"], e["name"]),
        ),
        "tables": [
            {
                "number": n,
                "table_id": tables.get(n),
                "players": len(t.players),
                "chips": sum(d.entrants[p].chips for p in t.players.values()),
            }
            for n, t in sorted(d.tables.items())
            # (once it is over its last table stands empty until closed: not a table in play)
            if d.state not in ("finished", "cancelled")
        ],
    }


def _icm_now(d: Director) -> dict[str, int] | None:
    """Each player's ICM share of the prizes left, at the final table once all left are in the
    money (what a deal would pay now); None before."""
    try:
        return d.deal_offer()
    except (TournamentError, ValueError):  # (ValueError: no chips left to weigh, a moment)
        return None


def describe_you(d: Director, name: str) -> dict[str, bool]:
    """What ``name`` may ask for now (a page shows its buttons by it): a re-entry, a rebuy,
    the add-on, proposing, accepting or declining the ICM deal."""
    left = name in d.entrants and not d.entrants[name].out
    talk = d.deal
    in_hand = any(t.in_hand for t in d.tables.values())
    offer = _icm_now(d) or {}
    return {
        "may_reenter": d.can_re_enter(name),
        "may_rebuy": d.can_rebuy(name),
        "may_add_on": d.can_add_on(name),
        "may_propose_deal": left and talk is None and name in offer,
        "may_accept_deal": talk is not None and name in offer and name not in talk.accepted and not in_hand,
        "may_decline_deal": talk is not None and name in offer,
    }


def audit_tournaments(s: Any, ledger_says: Callable[[str, int], int]) -> list[str]:
    """The tournaments' part of ``sevenstud audit`` (in its snapshot session): for each, the
    chips issued are the entries' starting chips plus rebuys and add-ons, and are all in its
    box, its seats and its pots; the prize pool is the buy-ins, less the prizes paid; the
    fees are the entries'."""
    problems: list[str] = []
    for row in tournament_list.all_tournaments(s):
        where = f"tournament {row.id} ({row.state})"
        if row.director is None:
            continue
        try:
            # (while it registers, its field is its entries' rows: cashier.director_of)
            d = director_of(s, row.id, row.director, float(row.director["saved_at"]))
        except (StructureError, KeyError, TypeError, ValueError) as error:
            problems.append(f"{where}: its stored director does not load: {error}")
            continue
        st = d.settings
        tid = row.id
        entrants = list(d.entrants.values())
        issued_by_entries = (
            sum(e.entries for e in entrants) * st.starting_chips
            + sum(e.rebuys for e in entrants) * (st.rebuy_chips or st.starting_chips)
            + sum(1 for e in entrants if e.add_on) * st.add_on_chips
        )
        pool_by_entries = sum(e.entries + e.rebuys for e in entrants) * st.buy_in + sum(
            1 for e in entrants if e.add_on
        ) * (st.add_on_price or st.buy_in)
        tchips, tbox = ledger_says(ledger.TCHIPS, tid), ledger_says(ledger.TBOX, tid)
        tpool, tfee = ledger_says(ledger.TPOOL, tid), ledger_says(ledger.TFEE, tid)
        entries = tournament_entries.entries_of(s, tid)
        prizes = sum(e.prize for e in entries)
        if row.state == "cancelled":
            for label, held in (("chips", tchips), ("box", tbox), ("pool", tpool), ("fees", tfee)):
                if held:
                    problems.append(f"{where}: cancelled, yet its {label} account holds {held}")
            continue
        if d.chips_issued != issued_by_entries:
            problems.append(f"{where}: {d.chips_issued} chips issued, the entries make {issued_by_entries}")
        if -tchips != d.chips_issued:
            problems.append(f"{where}: the ledger issued {-tchips} chips, the director {d.chips_issued}")
        table_ids = list(tournament_tables.tables_of(s, tid).values())
        seated = 0
        # (ids alone: a large tournament's hands are many, and their records are not needed here)
        for sitting_id in hands.sitting_ids_at(s, table_ids):
            seated += ledger_says(ledger.SEAT, sitting_id)
        for hand_id in hands.hand_ids_at(s, table_ids):
            seated += ledger_says(ledger.POT, hand_id)
        if seated + tbox != -tchips:
            problems.append(f"{where}: {seated} chips at its tables and {tbox} off them, {-tchips} issued")
        if d.pool != pool_by_entries:
            problems.append(f"{where}: a prize pool of {d.pool}, the entries paid {pool_by_entries}")
        if tpool + prizes != d.pool:
            problems.append(f"{where}: the pool holds {tpool} and {prizes} was paid, of a pool of {d.pool}")
        if row.state == "finished" and tpool:
            problems.append(f"{where}: finished with {tpool} left in its prize pool")
        fees = sum(e.entries for e in entrants) * st.fee
        if tfee != fees:
            problems.append(f"{where}: its fees hold {tfee}, the entries paid {fees}")
    return problems


def messages_for(
    tid: int, commands: list[Command], speed: float, tables: dict[int, int]
) -> list[tuple[str | None, Outgoing]]:
    """The websocket messages of committed ``commands`` (docs/protocol.md, "Tournaments"):
    ``(player, message)``, ``player`` None for every connection at the tournament's tables, a
    name for that player's connections alone (a move, a seat at the start or a late entry's).
    Nothing private is in any of them."""
    out: list[tuple[str | None, Outgoing]] = []
    # The start's draw: its state and its first level come with the seats (a break's end
    # says "running" too, with no first level).
    started = any(isinstance(c, Status) and c.state == "running" for c in commands) and any(
        isinstance(c, NewLevel) and c.index == 0 for c in commands
    )
    for command in commands:
        if isinstance(command, Status):
            # The director's states are the model's (it checks them as it is built).
            state = typing.cast(TournamentStatus, command.state)
            out.append((None, TournamentState(tournament=tid, state=state)))
        elif isinstance(command, NewLevel):
            level = TournamentLevelInfo(
                index=command.index,
                ante=command.level.ante,
                bring_in=command.level.bring_in,
                small_bet=command.level.small_bet,
                big_bet=command.level.big_bet,
                game=command.game,
            )
            out.append((None, TournamentLevel(tournament=tid, level=level)))
        elif isinstance(command, Break):
            seconds = (command.end - command.start) / speed
            out.append((None, TournamentBreak(tournament=tid, seconds=seconds)))
        elif isinstance(command, HandForHand):
            out.append((None, HandForHandMessage(tournament=tid, on=command.on)))
        elif isinstance(command, Seat) and command.from_table is not None and command.table in tables:
            moved = TournamentMoved(
                tournament=tid,
                player=command.player,
                table=tables[command.table],
                seat=command.seat,
                chips=command.chips,
            )
            out.append((command.player, moved))
        elif isinstance(command, Seat) and command.from_table is None and command.table in tables:
            # Seated without a move: the start's draw, a late entry, a re-entry.
            seated = TournamentSeated(
                tournament=tid,
                player=command.player,
                table=tables[command.table],
                seat=command.seat,
                chips=command.chips,
                started=started,
            )
            out.append((command.player, seated))
        elif isinstance(command, Finish):
            finish = TournamentFinish(
                tournament=tid,
                player=command.player,
                place=command.place,
                prize=command.prize,
                tied=command.tied,
            )
            out.append((None, finish))
        elif isinstance(command, Deal):
            out.append((None, TournamentDeal(tournament=tid, state=command.state, player=command.player)))
        elif isinstance(command, AddChips):
            chips = TournamentChips(
                tournament=tid,
                player=command.player,
                kind=command.kind,
                chips=command.chips,
                price=command.price,
            )
            out.append((None, chips))
    return out
