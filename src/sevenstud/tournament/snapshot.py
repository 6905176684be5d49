"""A tournament as plain JSON-ready data: its template (:func:`settings_to_record`) and its
director's whole state (:func:`director_to_record`), so that the card room stores it with every
change and takes it up again after a restart (docs/tournaments.md, "Storage and recovery").

Taking a director up again pauses its clock at the moment it was stored: the time a server was
down is no play time (the TDA's clock stops while the room cannot deal), and the moments kept in
the caller's time (a break's end, a busted player's time to rebuy) move on by the time it was
down.

>>> from sevenstud.tournament.settings import TournamentSettings
>>> d = Director(TournamentSettings(seats=2, max_entries=2), seed=1)
>>> _ = d.register("ann", now=0.0), d.register("bob", now=1.0)
>>> again = director_from_record(director_to_record(d, now=5.0), now=65.0)
>>> again.tables[1].players == d.tables[1].players, again.play_time(65.0) == d.play_time(5.0)
(True, True)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sevenstud.tournament.director import Director
from sevenstud.tournament.player_requests import DealTalk, Entrant, _Clock
from sevenstud.tournament.seating import TableSeats
from sevenstud.tournament.settings import TournamentSettings
from sevenstud.tournament.structure import Level, Structure, StructureError

_ENTRANT_FIELDS = tuple(f.name for f in dataclasses.fields(Entrant) if f.init)
_PARTS = ("entrants", "tables", "started_chips", "dealt")
"""The parts of a record that grow with the field, kept apart by :func:`director_parts`."""
RECORD_VERSION = 1
"""The version of a stored director; a record of another version is refused, naming it."""


def structure_to_record(structure: Structure) -> dict[str, Any]:
    """A structure as data."""
    return {
        "name": structure.name,
        "levels": [dataclasses.asdict(level) for level in structure.levels],
        "break_every": structure.break_every,
        "break_minutes": structure.break_minutes,
    }


def structure_from_record(record: dict[str, Any]) -> Structure:
    """The structure of :func:`structure_to_record` (checked as any structure is)."""
    try:
        levels = tuple(Level(**level) for level in record["levels"])
        return Structure(record["name"], levels, record.get("break_every"), record.get("break_minutes", 5.0))
    except (KeyError, TypeError) as error:
        raise StructureError(f"a stored structure lacks or mistypes a field: {error}") from None


_SETTINGS_RECORDS: dict[int, tuple[TournamentSettings, dict[str, Any]]] = {}
"""The record of each template lately written, by identity (a template is frozen): a director's
every write stores its template, and making its record again (every level of its structure)
was a third of a hand's write (issue 35)."""


def settings_to_record(settings: TournamentSettings) -> dict[str, Any]:
    """A template as data (a new dict each call: the caller may change it)."""
    known = _SETTINGS_RECORDS.get(id(settings))
    if known is not None and known[0] is settings:
        return dict(known[1])
    record = _settings_record(settings)
    if len(_SETTINGS_RECORDS) >= 256:
        _SETTINGS_RECORDS.clear()
    _SETTINGS_RECORDS[id(settings)] = (settings, record)  # (the template kept: its id not reused)
    return dict(record)


def _settings_record(settings: TournamentSettings) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if f.name == "structure":
            value = structure_to_record(value)
        elif isinstance(value, tuple):
            value = list(value)
        record[f.name] = value
    return record


def settings_from_record(record: dict[str, Any]) -> TournamentSettings:
    """The template of :func:`settings_to_record` (checked as any template is)."""
    fields = {f.name for f in dataclasses.fields(TournamentSettings)}
    unknown = set(record) - fields
    if unknown:
        raise StructureError(f"unknown template field(s): {', '.join(sorted(unknown))}")
    values = dict(record)
    if "structure" in values:
        values["structure"] = structure_from_record(values["structure"])
    for name in ("rotation", "paid_places_override"):
        if name in values:
            values[name] = tuple(values[name])
    try:
        return TournamentSettings(**values)
    except TypeError as error:
        raise StructureError(f"a template field is mistyped: {error}") from None


def _table_to_record(table: TableSeats) -> dict[str, Any]:
    return {
        "number": table.number,
        "seats": table.seats,
        "players": {str(seat): name for seat, name in table.players.items()},
        "in_hand": table.in_hand,
        "opened": list(table.opened),
        "hands_in_level": table.hands_in_level,
        "round_played": table.round_played,
    }


def _table_from_record(record: dict[str, Any]) -> TableSeats:
    return TableSeats(
        number=int(record["number"]),
        seats=int(record["seats"]),
        players={int(seat): str(name) for seat, name in record["players"].items()},
        in_hand=bool(record["in_hand"]),
        opened=[int(s) for s in record["opened"]],
        hands_in_level=int(record["hands_in_level"]),
        round_played=int(record["round_played"]),
    )


def director_to_record(director: Director, now: float) -> dict[str, Any]:
    """Everything the director knows, at ``now`` (its random generator's state included, so
    that the seats it draws after a restart are the ones it would have drawn)."""
    d = director
    rng_version, rng_state, rng_gauss = d._rng.getstate()
    return {
        "version": RECORD_VERSION,
        "saved_at": now,
        "settings": settings_to_record(d.settings),
        "seed": d.seed,
        "state": d.state,
        # (not dataclasses.asdict: its deep copy of each field was most of a large field's write)
        "entrants": [{name: getattr(e, name) for name in _ENTRANT_FIELDS} for e in d.entrants.values()],
        "tables": [_table_to_record(t) for t in d.tables.values()],
        "level_index": d.level_index,
        "pool": d.pool,
        "entries": d.entries,
        "chips_issued": d.chips_issued,
        "late_open": d.late_open,
        "field_final": d.field_final,
        "hand_for_hand": d.hand_for_hand,
        "hand_for_hand_round": d.hand_for_hand_round,
        "breaking": sorted(d.breaking),
        "tables_opened": d.tables_opened,
        "final_table_pending": d.final_table_pending,
        "break_due": d.break_due,
        "break_ends": d.break_ends,
        "paused": d.paused,
        "paused_at": d.paused_at,
        "deal": None
        if d.deal is None
        else {"proposed_by": d.deal.proposed_by, "ends": d.deal.ends, "accepted": sorted(d.deal.accepted)},
        "clock": {"played": d._clock.at(now), "running": d._clock.since is not None},
        "level_started": d._level_started,
        "next_break": d._next_break,
        "busted_groups": [[[name, chips] for name, chips in group] for group in d._busted_groups],
        "round_busts": [[name, chips] for name, chips in d._round_busts],
        "started_chips": dict(d._started_chips),
        "dealt": {str(t): sorted(names) for t, names in d._dealt.items()},
        "rng": [rng_version, list(rng_state), rng_gauss],
    }


def director_from_record(record: dict[str, Any], now: float) -> Director:
    """The director of :func:`director_to_record`, taken up at ``now``: its clock stands where
    it stood when stored and runs again from ``now`` (no play time for the time between), and
    the moments kept in the caller's time move on by that time."""
    if record.get("version") != RECORD_VERSION:
        raise StructureError(f"a stored director of version {record.get('version')!r}, not {RECORD_VERSION}")
    shift = max(0.0, now - float(record["saved_at"]))
    d = Director(settings_from_record(record["settings"]), seed=int(record["seed"]))
    d.state = str(record["state"])
    for e in record["entrants"]:
        entrant = Entrant(**e)
        if entrant.rebuy_until is not None:
            entrant.rebuy_until += shift
        d.enter(entrant)
    d.tables = {int(t["number"]): _table_from_record(t) for t in record["tables"]}
    d.level_index = int(record["level_index"])
    d.pool, d.entries, d.chips_issued = (
        int(record["pool"]),
        int(record["entries"]),
        int(record["chips_issued"]),
    )
    d.late_open, d.field_final = bool(record["late_open"]), bool(record["field_final"])
    d.hand_for_hand, d.hand_for_hand_round = bool(record["hand_for_hand"]), int(record["hand_for_hand_round"])
    d.breaking = {int(t) for t in record["breaking"]}
    # (a record from before the count was kept: its tables' highest, the best it can say)
    d.tables_opened = int(record.get("tables_opened", max(d.tables, default=0)))
    d.final_table_pending, d.break_due = bool(record["final_table_pending"]), bool(record["break_due"])
    d.break_ends = None if record["break_ends"] is None else float(record["break_ends"]) + shift
    d.paused = bool(record["paused"])
    paused_at = record.get("paused_at")  # (None in a record from before it was kept)
    if d.paused:
        # Paused since then, and for the time between as well; the times to rebuy, moved on
        # by that time above, stand still until the resume moves them on by the pause's.
        d.paused_at = now if paused_at is None else float(paused_at) + shift
    talk = record.get("deal")  # (a record from before the deal was talked over has none)
    if talk is not None:
        d.deal = DealTalk(str(talk["proposed_by"]), float(talk["ends"]) + shift, set(talk["accepted"]))
    clock = record["clock"]
    d._clock = _Clock(played=float(clock["played"]), since=now if clock["running"] else None)
    d._level_started = float(record["level_started"])
    d._next_break = None if record["next_break"] is None else float(record["next_break"])
    d._busted_groups = [[(str(n), int(c)) for n, c in group] for group in record["busted_groups"]]
    d._round_busts = [(str(n), int(c)) for n, c in record["round_busts"]]
    d._started_chips = {str(n): int(c) for n, c in record["started_chips"].items()}
    d._dealt = {int(t): set(names) for t, names in record["dealt"].items()}
    version, state, gauss = record["rng"]
    d._rng.setstate((version, tuple(state), gauss))
    d._left = sum(1 for e in d.entrants.values() if not e.out)
    d._reindex()
    return d


def entrant_to_record(director: Director, name: str) -> dict[str, Any]:
    """Entrant ``name`` as data, with its chips as its hand began (while one is played)."""
    e = director.entrants[name]
    record = {field: getattr(e, field) for field in _ENTRANT_FIELDS}
    record["started_chips"] = director._started_chips.get(name)
    return record


def table_to_record(director: Director, number: int) -> dict[str, Any]:
    """Table ``number`` as data, with whom its hand in progress was dealt to."""
    record = _table_to_record(director.tables[number])
    dealt = director._dealt.get(number)
    record["dealt"] = None if dealt is None else sorted(dealt)
    return record


def director_parts(
    director: Director, now: float
) -> tuple[dict[str, Any], dict[str, dict[str, Any] | None], dict[int, dict[str, Any] | None]]:
    """The director in parts, for a store that keeps each entrant and each table apart: the
    head (everything of :func:`director_to_record` but the entrants and the tables, marked
    ``"parts": True``), and the entrants and tables changed since the last call (each one's
    record; None: no longer there). A hand's write is then the size of the hand: the head and
    the few entrants and tables it changed (:meth:`Director.take_changes`)."""
    head = director_to_record_head(director, now)
    names, numbers = director.take_changes()
    entrants = {n: entrant_to_record(director, n) if n in director.entrants else None for n in names}
    tables = {t: table_to_record(director, t) if t in director.tables else None for t in numbers}
    return head, entrants, tables


def director_to_record_head(director: Director, now: float) -> dict[str, Any]:
    """:func:`director_to_record` without the parts that grow with the field."""
    d = director
    entrants, tables = d.entrants, d.tables
    d.entrants, d.tables = {}, {}  # (not built only to be thrown away)
    started, dealt = d._started_chips, d._dealt
    d._started_chips, d._dealt = {}, {}
    try:
        head = director_to_record(d, now)
    finally:
        d.entrants, d.tables, d._started_chips, d._dealt = entrants, tables, started, dealt
    for name in _PARTS:
        del head[name]
    head["parts"] = True
    return head


def director_from_parts(
    head: dict[str, Any], entrants: list[dict[str, Any]], tables: list[dict[str, Any]], now: float
) -> Director:
    """The director of a head and the records of every entrant and table
    (:func:`director_parts`), taken up at ``now`` as :func:`director_from_record` does."""
    ordered = sorted(entrants, key=lambda e: int(e["order"]))
    record = {key: value for key, value in head.items() if key != "parts"}
    record["entrants"] = [{k: v for k, v in e.items() if k != "started_chips"} for e in ordered]
    record["started_chips"] = {
        e["name"]: e["started_chips"] for e in ordered if e["started_chips"] is not None
    }
    numbered = sorted(tables, key=lambda t: int(t["number"]))
    record["tables"] = [{k: v for k, v in t.items() if k != "dealt"} for t in numbered]
    record["dealt"] = {str(t["number"]): t["dealt"] for t in numbered if t["dealt"] is not None}
    return director_from_record(record, now)


def director_moved_on(
    before: Director,
    head: dict[str, Any],
    entrants: list[dict[str, Any]],
    tables: list[tuple[int, dict[str, Any] | None]],
    now: float,
) -> Director:
    """The director of a newer ``head`` and the parts written since ``before`` was stored
    (entrants' records; each table's number and record, None: closed), taken up at ``now``:
    what another process sharing the tournament wrote, taken up at the cost of what it
    changed. ``before`` is given up (its entrants and tables become the new one's)."""
    d = director_from_record(
        {
            **{key: value for key, value in head.items() if key != "parts"},
            "entrants": [],
            "tables": [],
            "started_chips": {},
            "dealt": {},
        },
        now,
    )
    for kept in before.entrants.values():
        d.enter(kept)
    d.tables, d._started_chips, d._dealt = before.tables, before._started_chips, before._dealt
    shift = max(0.0, now - float(head["saved_at"]))
    for record in sorted(entrants, key=lambda e: int(e["order"])):
        name, started = str(record["name"]), record.get("started_chips")
        fields = {key: value for key, value in record.items() if key in _ENTRANT_FIELDS}
        if fields.get("rebuy_until") is not None:
            fields["rebuy_until"] = float(fields["rebuy_until"]) + shift
        known = d.entrants.get(name)
        if known is None:
            d.enter(Entrant(**fields))
        else:
            for key, value in fields.items():
                setattr(known, key, value)
        if started is None:
            d._started_chips.pop(name, None)
        else:
            d._started_chips[name] = int(started)
    for number, table in sorted(tables, key=lambda t: t[0]):
        if table is None:
            d.tables.pop(number, None)
            d._dealt.pop(number, None)
            continue
        d.tables[number] = _table_from_record(table)
        dealt = table.get("dealt")
        if dealt is None:
            d._dealt.pop(number, None)
        else:
            d._dealt[number] = set(dealt)
    d._left = sum(1 for e in d.entrants.values() if not e.out)
    d._reindex()
    d.take_changes()  # (all of it stored)
    return d
