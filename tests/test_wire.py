"""The wire format: every event, action, view and game to a JSON-ready dict and back, exactly;
hand records restore an identical hand at any point; everything validates against the schema."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import jsonschema
import pytest

from sevenstud.cards import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Action, ActionKind, Hand
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


def _through_json(value: dict[str, Any]) -> dict[str, Any]:
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
def test_a_bad_message_gets_an_error_naming_what_is_wrong(
    message: dict[str, Any], complaint: str
) -> None:
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
