"""The wire format: every event, action, view and game to a JSON-ready dict and back, exactly;
hand records restore an identical hand at any point; the table's events, stream entries and
view too, and a table saved at a random point of a random session is restored exactly;
everything validates against the schema."""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction
from typing import Any

import jsonschema
import pytest

from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Action, ActionKind, Hand
from sevenstud.table import (
    ClockStarted,
    Entry,
    HandStarted,
    Leaving,
    SatDown,
    SatIn,
    SatOut,
    StoodUp,
    StreamGap,
    Table,
    TableError,
    TableSettings,
    TimedOut,
    ToppedUp,
)
from sevenstud.wire import (
    WIRE_VERSION,
    WireError,
    from_wire,
    game_from_wire,
    hand_from_record,
    hand_to_record,
    json_schema,
    to_wire,
)

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES = [
    StudHiLo(STAKES),
    Stud(STAKES),
    Razz(STAKES),
    StudHiLo(STAKES, max_raises=1, uncapped_heads_up=True, reopen_fraction=Fraction(1, 3)),
    Stud(STAKES, double_bet_on_open_pair=False, bring_in_tie_break="seat", odd_chip="lowest_seat"),
    Razz(STAKES, suit_order=(0, 2, 1, 3), first_actor_all_in="best_active", fold_without_bet=False),
    StudHiLo(STAKES, rake_percent=Fraction(5), rake_cap=3),
]
VALIDATOR = jsonschema.Draft202012Validator(json_schema())


# The compiled run (make test-compiled) is for the round trips through the compiled classes: its
# schema is the pure run's (tests/test_compiled.py), and checking every dict against it in
# jsonschema's pure Python is most of this file's time, so the pure run alone does that.
VALIDATE = not os.environ.get("SEVENSTUD_COMPILED")


def _through_json(value: dict[str, Any]) -> dict[str, Any]:
    if VALIDATE:
        VALIDATOR.validate(value)
    decoded: dict[str, Any] = json.loads(json.dumps(value))
    return decoded


def _random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    game = GAMES[seed % len(GAMES)]
    players = rng.randint(2, 8)
    stacks = [rng.choice([3, 12, 40, 200]) for _ in range(players)]
    return Hand(game, stacks, Deck.seeded(seed), auto_showdown=seed % 3 != 0)


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.code}")
def test_every_game_option_survives_the_trip(game: Any) -> None:
    assert from_wire(_through_json(to_wire(game))) == game


def test_every_event_action_and_view_survives_the_trip_exactly() -> None:
    kinds: set[str] = set()
    for seed in range(60):
        hand = _random_hand(seed)
        rng = random.Random(seed)
        while not hand.is_over:
            for seat in (*range(hand.n), None):
                view = hand.view(seat)
                assert from_wire(_through_json(to_wire(view))) == view
            legal = hand.legal_actions()
            for action in legal:
                assert from_wire(_through_json(to_wire(action))) == action
            hand.act(rng.choice(legal))
        for event in hand.events:
            wire = _through_json(to_wire(event))
            kinds.add(wire["type"])
            assert from_wire(wire) == event
    # The sample covered the interesting events, not just the everyday ones.
    assert {"action_taken", "hand_shown", "pot_awarded", "bet_returned", "hand_ended"} <= kinds


def test_a_record_restores_an_identical_hand_at_every_point() -> None:
    for seed in range(40):
        hand = _random_hand(seed)
        rng = random.Random(seed)
        while True:
            copy = hand_from_record(_through_json(hand_to_record(hand)))
            assert copy.events == hand.events
            assert copy.game == hand.game
            assert [copy.view(s) for s in range(hand.n)] == [hand.view(s) for s in range(hand.n)]
            assert copy.legal_actions() == hand.legal_actions()
            if hand.is_over:
                assert copy.awards == hand.awards
                break
            hand.act(rng.choice(hand.legal_actions()))


def test_a_game_with_a_changed_option_is_not_read_back_with_the_default() -> None:
    # PHH cannot carry max_raises=1; the record must.
    hand = Hand(StudHiLo(STAKES, max_raises=1), [100, 100], Deck.seeded(1))
    assert hand_from_record(hand_to_record(hand)).game.max_raises == 1


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        ({"type": "action", "kind": "shove", "amount": None}, "action.kind"),
        ({"type": "action", "kind": "raise", "amount": "20"}, "action.amount"),
        ({"type": "action", "kind": "raise"}, "lacks the field 'amount'"),
        ({"type": "action", "kind": "raise", "amount": 1, "x": 1}, "unknown field 'x'"),
        ({"type": "card_dealt", "seat": 0, "street": 3, "card": "Zz", "face_up": True}, "card"),
        ({"type": "what"}, "expected an event"),
        ({"type": "game", "game": "holdem", "stakes": {}}, "game.game"),
        ({"type": "game", "game": "stud", "stakes": {"ante": 1}}, "lacks the field"),
        (
            {
                "type": "game",
                "game": "stud",
                "stakes": {"ante": 1, "bring_in": 2, "small_bet": 1, "big_bet": 2},
            },
            "cannot be smaller",
        ),
    ],
)
def test_a_bad_message_gets_an_error_naming_what_is_wrong(message: dict[str, Any], complaint: str) -> None:
    with pytest.raises(WireError, match=complaint.replace(".", r"\.").replace("(", r"\(")):
        from_wire(message)


def test_a_bad_record_gets_an_error_naming_what_is_wrong() -> None:
    hand = Hand(Stud(STAKES), [100, 100], Deck.seeded(2))
    record = hand_to_record(hand)
    with pytest.raises(WireError, match="version"):
        hand_from_record({**record, "version": WIRE_VERSION + 1})
    with pytest.raises(WireError, match=r"record\.deck"):
        hand_from_record({**record, "deck": [*record["deck"][:51], "Qx"]})
    with pytest.raises(WireError, match=r"a deck has 52 cards|duplicate|twice"):
        hand_from_record({**record, "deck": [*record["deck"][:51], record["deck"][0]]})
    bad_action = [[hand.to_act, {"type": "action", "kind": "check", "amount": None}]]
    with pytest.raises(WireError, match=r"record\.actions\[0\]"):
        hand_from_record({**record, "actions": bad_action})
    with pytest.raises(WireError, match="unknown option 'colour'"):
        game_from_wire({**to_wire(hand.game), "colour": "red"})


def test_an_action_is_accepted_by_the_engine_once_decoded() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], Deck.seeded(5))
    decoded = from_wire(_through_json(to_wire(Action(ActionKind.BRING_IN))))
    assert isinstance(decoded, Action)
    hand.act(decoded)
    assert hand.actions[-1][1].kind is ActionKind.BRING_IN


def test_docs_events_md_names_every_type_and_field_of_the_schema() -> None:
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "events.md").read_text(encoding="utf-8")
    for name, definition in json_schema()["$defs"].items():
        if name in ("card", "stakes", "view", "game", "hand_record", "action"):
            continue  # described in prose
        assert f"`{name}`" in doc, f"docs/events.md does not describe {name}"
        for field in definition["properties"]:
            if field != "type":
                assert field in doc, f"docs/events.md does not name {name}.{field}"


# ---------------------------------------------------------------------- the table on the wire

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")


def _table_settings(seed: int) -> TableSettings:
    game = GAMES[seed % len(GAMES)]
    return TableSettings(game, seats=6, min_buy_in=5, max_buy_in=120, action_time=10, history=400)


def _same_table(table: Table, copy: Table) -> None:
    """Everything anyone can learn from the two tables is the same."""
    assert copy.to_record() == table.to_record()
    assert copy.number == table.number and copy.raked == table.raked
    assert copy.chips_at_table() == table.chips_at_table()
    assert copy.legal_actions() == table.legal_actions()
    assert (copy.to_act, copy.deadline, copy.hand_seats) == (table.to_act, table.deadline, table.hand_seats)
    for viewer in (None, *range(1, 7)):
        assert copy.view(viewer) == table.view(viewer)
        try:
            expected: Any = table.events_since(0, viewer)
        except StreamGap:
            expected = StreamGap
        if expected is StreamGap:
            with pytest.raises(StreamGap):
                copy.events_since(0, viewer)
        else:
            assert copy.events_since(0, viewer) == expected


def _on_both(tables: list[Table], command: str, *args: Any, **kwargs: Any) -> None:
    """The same command to the table and to its restored copy: the same entries or the same
    refusal."""
    outcomes = []
    for table in tables:
        try:
            outcomes.append(getattr(table, command)(*args, **kwargs))
        except TableError as error:
            outcomes.append(str(error))
    assert all(o == outcomes[0] for o in outcomes), command


def _random_session(seed: int, steps: int, restart_every: float) -> tuple[list[Table], int]:
    """Sessions and hands with random actions, time-outs, sitting out and leaving; at random
    points the table is saved, restored (through JSON and the schema) and checked the same, and
    from then on both are driven in lockstep. Returns the tables and how many restarts there were."""
    rng = random.Random(seed)
    tables = [Table(_table_settings(seed))]
    now, restarts = 0.0, 0
    for number, player in enumerate(PLAYERS[: rng.randint(2, 6)], 1):
        _on_both(tables, "sit_down", player, number, rng.randint(5, 120), now=now)
    for step in range(steps):
        table = tables[0]
        if rng.random() < restart_every:
            stream = rng.random() < 0.8
            copy = Table.from_record(_through_json(table.to_record(stream=stream)))
            if stream:
                _same_table(table, copy)
            else:
                assert copy.view(None) == table.view(None) and copy.number == table.number
                assert copy.events_since(table.number, 1) == ()
            tables, restarts = [table, copy], restarts + 1
        roll = rng.random()
        if table.hand_in_progress and roll < 0.8:
            seat, deadline = table.to_act, table.deadline
            assert seat is not None and deadline is not None
            if roll < 0.08:
                now = max(now, deadline)
                _on_both(tables, "time_out", seat, now=now)
            else:
                now = min(deadline, now + rng.choice([0.5, 3.0, 12.0]))
                _on_both(tables, "act", seat, rng.choice(table.legal_actions()), now=now)
        elif not table.hand_in_progress and table.can_start_hand() and roll < 0.7:
            now += 1
            _on_both(tables, "start_hand", now, seed=seed * 1000 + step)
        else:
            player = rng.choice(PLAYERS)
            command = rng.choice(["sit_out", "sit_in", "leave", "top_up", "sit_down"])
            if command == "top_up":
                _on_both(tables, command, player, rng.randint(1, 60), now=now)
            elif command == "sit_down":
                _on_both(tables, command, player, rng.randint(1, 6), rng.randint(5, 120), now=now)
            else:
                _on_both(tables, command, player, now=now)
    return tables, restarts


def test_a_table_saved_and_restored_at_random_points_goes_on_exactly_the_same() -> None:
    restarts = 0
    for seed in range(8):
        tables, made = _random_session(seed, steps=160, restart_every=0.06)
        restarts += made
        for copy in tables[1:]:
            _same_table(tables[0], copy)
    assert restarts >= 20  # the sample restarted often, mid-hand and between hands


def test_a_table_restored_without_its_stream_goes_on_from_the_same_number() -> None:
    table = Table(_table_settings(0))
    table.sit_down("ann", 1, 50, now=0)
    table.sit_down("bob", 2, 50, now=0)
    table.start_hand(now=1, seed=3)
    record = _through_json(table.to_record(stream=False))
    assert record["stream"] == [] and [d["number"] for d in record["dealt"]] == [1]
    copy = Table.from_record(record)
    assert copy.number == table.number and copy.view(2) == table.view(2)
    with pytest.raises(StreamGap, match="no longer kept"):
        copy.events_since(0, None)
    seat = table.to_act
    assert seat is not None
    action = table.legal_actions()[0]
    assert copy.act(seat, action, now=2) == table.act(seat, action, now=2)


def test_every_table_event_entry_and_view_survives_the_trip_exactly() -> None:
    kinds: set[str] = set()
    for seed in range(4):
        (table, *_), _ = _random_session(seed, steps=120, restart_every=0)
        for viewer in (None, 1 + seed % 2):  # a spectator and a seat (its own down cards shown)
            view = table.view(viewer)
            assert from_wire(_through_json(to_wire(view))) == view
            for entry in table.events_since(max(0, table.number - 200), viewer):
                wire = _through_json(to_wire(entry))
                kinds.add(wire["event"]["type"])
                assert from_wire(wire) == entry
                assert from_wire(_through_json(to_wire(entry.event))) == entry.event
    table_kinds = {"sat_down", "hand_started", "clock_started", "timed_out", "sat_out", "stood_up"}
    assert table_kinds | {"card_dealt", "action_taken", "hand_ended"} <= kinds


def test_times_read_back_as_floats_even_when_json_wrote_them_whole() -> None:
    entry = Entry(3, 12.0, 1, ClockStarted(2, 40.0, 20.0))
    wire = json.loads(json.dumps(to_wire(entry)).replace("12.0", "12").replace("40.0", "40"))
    back = from_wire(wire)
    assert isinstance(back, Entry) and back == entry
    assert isinstance(back.at, float) and isinstance(back.event, ClockStarted)
    assert isinstance(back.event.deadline, float)


def test_a_table_event_in_a_bad_message_gets_an_error_naming_what_is_wrong() -> None:
    with pytest.raises(WireError, match=r"sat_out\.reason"):
        from_wire({"type": "sat_out", "seat": 1, "player": "ann", "reason": "bored"})
    with pytest.raises(WireError, match=r"entry\.event"):
        from_wire({"type": "entry", "number": 1, "at": 0.0, "hand": None, "event": {}, "seats": []})
    with pytest.raises(WireError, match="lacks the field 'buy_in'"):
        from_wire({"type": "sat_down", "seat": 1, "player": "ann"})


def _saved(**changes: Any) -> dict[str, Any]:
    table = Table(_table_settings(1))
    table.sit_down("ann", 1, 50, now=0)
    table.sit_down("bob", 3, 50, now=0)
    table.start_hand(now=1, seed=4)
    record = _through_json(table.to_record())
    record.update(changes)
    return record


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"version": WIRE_VERSION + 1}, "version"),
        ({"deadline": None}, "without a deadline"),
        ({"in_progress": 5}, "hand in progress"),
        ({"number": -1}, "number cannot be negative"),
        ({"stream": []}, None),  # a record without its stream is a valid record
        ({"seats": "ann"}, r"table_record\.seats"),
        ({"raked": 1.5}, r"table_record\.raked"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_a_bad_table_record_gets_an_error_naming_what_is_wrong(
    change: dict[str, Any], complaint: str | None
) -> None:
    if complaint is None:
        Table.from_record(_saved(**change))
        return
    with pytest.raises(TableError, match=complaint):
        Table.from_record(_saved(**change))


def test_a_table_record_whose_parts_disagree_is_refused() -> None:
    record = _saved()
    record["seats"][1]["seat"] = 2  # bob's hand seat is table seat 3, and nobody sits there now
    with pytest.raises(TableError, match="seat 3 of hand 1"):
        Table.from_record(record)
    record = _saved()
    record["seats"][1]["player"] = "ann"
    with pytest.raises(TableError, match="comes twice"):
        Table.from_record(record)
    record = _saved()
    [*_, last_hand_event] = (e for e in record["stream"] if e["event"] is None)
    last_hand_event["index"] = 999
    with pytest.raises(TableError, match="names no event"):
        Table.from_record(record)
    record = _saved()
    record["dealt"][0]["hand"]["actions"] = [[0, {"type": "action", "kind": "check", "amount": None}]]
    with pytest.raises(TableError, match=r"dealt\[0\]\.hand"):
        Table.from_record(record)
    with pytest.raises(TableError, match="not a table record"):
        Table.from_record(to_wire(Action(ActionKind.FOLD)))
    with pytest.raises(TableError, match="not a table record"):
        Table.from_record([])  # type: ignore[arg-type]


def test_docs_events_md_gives_every_field_of_each_table_event_in_its_row() -> None:
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "events.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in doc.splitlines() if line.startswith("| `")}
    defs = json_schema()["$defs"]
    for cls in (SatDown, ToppedUp, SatOut, SatIn, Leaving, StoodUp, HandStarted, ClockStarted, TimedOut):
        name = to_wire(_example(cls))["type"]
        fields = [f for f in defs[name]["properties"] if f != "type"]
        assert name in rows, f"docs/events.md has no row for {name}"
        assert rows[name].split("|")[2].strip() == ", ".join(fields), name


def _example(cls: type) -> Any:
    examples: dict[type, Any] = {
        SatDown: SatDown(1, "ann", 50),
        ToppedUp: ToppedUp(1, "ann", 5, 55),
        SatOut: SatOut(1, "ann", "asked"),
        SatIn: SatIn(1, "ann"),
        Leaving: Leaving(1, "ann"),
        StoodUp: StoodUp(1, "ann", 55),
        HandStarted: HandStarted(1, (1, 2), ("ann", "bob"), (50, 50)),
        ClockStarted: ClockStarted(1, 30.0, 20.0),
        TimedOut: TimedOut(1, "ann", 1),
    }
    return examples[cls]
