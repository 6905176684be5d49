"""PHH reading and writing for the stud variants (sevenstud.history.phh)."""

from __future__ import annotations

import dataclasses
import datetime
import doctest
import math
import tomllib
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sevenstud.history import phh
from sevenstud.history.phh import (
    PHHAction,
    PHHError,
    PHHHand,
    dump,
    dump_all,
    dumps,
    dumps_all,
    format_action,
    load,
    load_all,
    loads,
    loads_all,
    parse_action,
)

# A $10/$20 stud hi/lo hand written by hand, as the spec's examples write hands: TOML comments
# for the reader, a commentary ("# ...") inside some actions, the hero's cards known and the
# others' down cards unknown until the showdown. Chips: p1 puts in 12, p3 2, p4 112, p2 112 and
# wins the 238 pot with a wheel (best high and best low): 488, 626, 498, 388.
STUD8_HAND = """\
# $10/$20 seven card stud high/low eight or better.
variant = "F7S/8"
antes = [2, 2, 2, 2]
bring_in = 3
small_bet = 10
big_bet = 20
starting_stacks = [500, 500, 500, 500]
actions = [
  # Third street
  "d dh p1 ????Kc",  # Alice
  "d dh p2 Ah4d3s",  # Bob, the hero
  "d dh p3 ????8h",  # Carol
  "d dh p4 ????Qd",  # Dave
  "p2 pb",  # the 3s is the lowest door card
  "p3 f",
  "p4 cbr 10 # completes",
  "p1 cc",
  "p2 cc",
  # Fourth street
  "d dh p1 Jc",
  "d dh p2 5c",
  "d dh p4 Qs",
  "p4 cbr 10",  # the open queens act first
  "p1 f",
  "p2 cbr 20",
  "p4 cc",
  # Fifth street
  "d dh p2 2h",
  "d dh p4 9s",
  "p4 cc",
  "p2 cbr 20",
  "p4 cc",
  # Sixth street
  "d dh p2 Kd",
  "d dh p4 6d",
  "p4 cbr 20",
  "p2 cc",
  # Seventh street: the last card is dealt down
  "d dh p2 8c",
  "d dh p4 ??",
  "p4 cbr 20",
  "p2 cbr 40",
  "p4 cc",
  "p4 sm QcThQdQs9s6d7h",
  "p2 sm -  # the wheel scoops",
]
author = "Sevenstud Tests"
event = "Home game"
city = "Toronto"
country = "Canada"
time = 21:05:00
day = 14
month = 3
year = 2025
hand = 17
seats = [1, 3, 5, 7]
seat_count = 8
players = ["Alice", "Bob", "Carol", "Dave"]
finishing_stacks = [488, 626, 498, 388]
currency = "USD"
_note = "a user-defined field"
"""

RAZZ = """\
variant = "FR"
antes = [1, 1, 1]
bring_in = 1
small_bet = 4
big_bet = 8
starting_stacks = [100, 100, 100]
actions = ["d dh p1 ????Kc", "d dh p2 ????3d", "d dh p3 ????5s", "p1 pb", "p2 cbr 4", "p3 f"]
"""


def stud_hand(**changes: object) -> PHHHand:
    """A small valid F7S hand, with some fields changed."""
    fields: dict[str, object] = {
        "variant": "F7S",
        "antes": [1, 1],
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "starting_stacks": [200, 200],
        "actions": ["d dh p1 ????2c", "d dh p2 AhAd9c", "p1 pb", "p2 cbr 5", "p1 f"],
    }
    fields.update(changes)
    return PHHHand(**fields)  # type: ignore[arg-type]


def with_field(text: str, key: str, value: str | None) -> str:
    """``text`` with the top-level line ``key = ...`` replaced (or removed when value is None)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{key} = "):
            if value is None:
                del lines[i]
            else:
                lines[i] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no field {key}")


# -- reading the hand-written hand -------------------------------------------------------------


def test_the_hand_written_stud8_hand_reads() -> None:
    hand = loads(STUD8_HAND)
    assert hand.variant == "F7S/8"
    assert hand.antes == [2, 2, 2, 2]
    assert (hand.bring_in, hand.small_bet, hand.big_bet) == (3, 10, 20)
    assert hand.player_count == 4
    assert hand.players == ["Alice", "Bob", "Carol", "Dave"]
    assert hand.time == datetime.time(21, 5)
    assert hand.hand == 17
    assert hand.finishing_stacks == [488, 626, 498, 388]
    assert hand.extra == {"_note": "a user-defined field"}
    assert len(hand.actions) == 32  # TOML comments are gone, commentaries stay
    assert hand.actions[6] == "p4 cbr 10 # completes"
    assert sum(hand.finishing_stacks or []) == sum(hand.starting_stacks)


def test_the_hand_written_stud8_hand_parses_with_stud_visibility() -> None:
    actions = loads(STUD8_HAND).parsed_actions()
    assert actions[0] == PHHAction("deal_hole", player=0, cards=["??", "??", "Kc"], up=[False, False, True])
    assert actions[1].cards == ["Ah", "4d", "3s"]
    assert actions[4] == PHHAction("post_bring_in", actor=1, player=1)
    assert actions[6] == PHHAction("complete_bet_raise", actor=3, amount=10, comment="completes")
    # fourth to sixth street cards are up, the seventh is down
    assert [a.up for a in actions if a.kind == "deal_hole" and a.player == 3] == [
        [False, False, True],
        [True],
        [True],
        [True],
        [False],
    ]
    assert actions[-2].cards == ["Qc", "Th", "Qd", "Qs", "9s", "6d", "7h"]
    assert actions[-1] == PHHAction("show_muck", actor=1, shows_dealt=True, comment="the wheel scoops")
    assert [a.kind for a in actions].count("check_call") == 7


def test_the_hand_written_hand_is_legal_for_pokerkit() -> None:
    """PokerKit replays the hand to the finishing stacks written in it."""
    pokerkit = pytest.importorskip("pokerkit")
    for text in (STUD8_HAND, dumps(loads(STUD8_HAND))):
        history = pokerkit.HandHistory.loads(text)
        final = list(history)[-1]
        assert list(final.stacks) == [488, 626, 498, 388]
        assert not final.status


@pytest.mark.filterwarnings("ignore:Returning reserved:UserWarning")
def test_a_pokerkit_written_eight_handed_hand_reads_with_its_community_card() -> None:
    """Eight players to seventh street: PokerKit deals the last card to the board, 'd db'."""
    pokerkit = pytest.importorskip("pokerkit")
    auto = pokerkit.Automation
    game = pokerkit.FixedLimitSevenCardStud(
        (
            auto.ANTE_POSTING,
            auto.BET_COLLECTION,
            auto.BLIND_OR_STRADDLE_POSTING,
            auto.CARD_BURNING,
            auto.HOLE_DEALING,
            auto.BOARD_DEALING,
            auto.HOLE_CARDS_SHOWING_OR_MUCKING,
            auto.HAND_KILLING,
            auto.CHIPS_PUSHING,
            auto.CHIPS_PULLING,
        ),
        False,
        1,
        2,
        5,
        10,
    )
    state = game([200] * 8, 8)
    while state.status:
        if state.can_post_bring_in():
            state.post_bring_in()
        else:
            state.check_or_call()
    history = pokerkit.HandHistory.from_game_state(game, state)
    history.players = ["A 'quote'", 'B "quote"', "C\\", "D", "E", "F", "G", "H"]
    hand = loads(history.dumps())
    assert hand.ante_trimming_status is False
    assert hand.players is not None and hand.players[:3] == ["A 'quote'", 'B "quote"', "C\\"]
    actions = hand.parsed_actions()
    boards = [a for a in actions if a.kind == "deal_board"]
    assert len(boards) == 1 and len(boards[0].cards or []) == 1 and boards[0].up == [True]
    holes = [a for a in actions if a.kind == "deal_hole"]
    assert len(holes) == 8 * 4  # third to sixth street only
    assert loads(dumps(hand)) == hand
    replayed = list(pokerkit.HandHistory.loads(dumps(hand)))[-1]
    assert list(replayed.stacks) == list(state.stacks)


# -- round trips -------------------------------------------------------------------------------


def test_round_trip_of_the_hand_written_hand() -> None:
    hand = loads(STUD8_HAND)
    text = dumps(hand)
    assert loads(text) == hand
    assert dumps(loads(text)) == text


def test_dumps_puts_required_fields_first_then_the_spec_order_then_extra() -> None:
    text = dumps(loads(STUD8_HAND))
    keys = [line.split(" = ")[0] for line in text.splitlines() if " = " in line and line[0] != " "]
    assert keys == [
        "variant",
        "antes",
        "bring_in",
        "small_bet",
        "big_bet",
        "starting_stacks",
        "actions",
        "author",
        "event",
        "city",
        "country",
        "time",
        "day",
        "month",
        "year",
        "hand",
        "seats",
        "seat_count",
        "players",
        "finishing_stacks",
        "currency",
        "_note",
    ]
    assert 'actions = [\n  "d dh p1 ????Kc",\n  "d dh p2 Ah4d3s",\n' in text
    assert "time = 21:05:00\n" in text
    assert text.endswith('_note = "a user-defined field"\n')


def test_round_trip_of_a_minimal_hand_and_of_razz() -> None:
    for hand in (stud_hand(), stud_hand(actions=[]), loads(RAZZ)):
        assert loads(dumps(hand)) == hand
    assert "actions = []" in dumps(stud_hand(actions=[]))


def test_round_trip_of_strings_that_need_escapes_and_of_every_extra_type() -> None:
    hand = stud_hand(
        event='The "Big" one\\ with\ttab\nnewline \x01 \x7f and é, 🂡',
        players=["", "O'Brien"],
        table='Table "7"',
        hand="A-17",
        ante_trimming_status=True,
        time_limit=30.5,
        time_banks=[60, 12.5],
        time=datetime.time(23, 59, 59, 123456),
        extra={
            "_nationalities": ["Peru", "Italy"],
            "_nested": {"a b": [1, [2, 3]], "c": {"d": True}},
            "_ratio": 0.1,
            "_big": 1e300,
            "_infinite": math.inf,
            "_started": datetime.datetime(2025, 3, 14, 21, 5, tzinfo=datetime.UTC),
            "_date": datetime.date(2025, 3, 14),
            "needs quotes": "x",
            "": "empty key",
        },
        actions=['d dh p1 ????2c # a "quoted" comment \\ here', "# a no-op", ""],
    )
    text = dumps(hand)
    assert tomllib.loads(text)["event"] == hand.event
    assert loads(text) == hand


safe_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)


@settings(max_examples=60, deadline=None)
@given(
    event=safe_text,
    names=st.lists(safe_text, min_size=3, max_size=3),
    stacks=st.lists(st.integers(1, 10**18), min_size=3, max_size=3),
    ante=st.integers(0, 10**6),
    comment=safe_text,
)
def test_round_trip_property(
    event: str, names: list[str], stacks: list[int], ante: int, comment: str
) -> None:
    hand = PHHHand(
        variant="F7S",
        antes=[ante] * 3,
        bring_in=1,
        small_bet=2,
        big_bet=4,
        starting_stacks=stacks,
        actions=["d dh p1 ????2c", f"p1 f # {comment}"],
        event=event,
        players=names,
        extra={"_free": comment},
    )
    assert loads(dumps(hand)) == hand


def test_files_round_trip(tmp_path: Path) -> None:
    hand = loads(STUD8_HAND)
    path = tmp_path / "hand.phh"
    dump(hand, path)
    assert load(path) == hand
    assert load(str(path)) == hand


# -- parsing actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("d dh p1 ????7c", PHHAction("deal_hole", player=0, cards=["??", "??", "7c"])),
        ("d dh p8 Ks", PHHAction("deal_hole", player=7, cards=["Ks"])),
        ("d dh p2 ??", PHHAction("deal_hole", player=1, cards=["??"])),
        ("d db 9d", PHHAction("deal_board", cards=["9d"])),
        ("p3 pb", PHHAction("post_bring_in", actor=2, player=2)),
        ("p1 cbr 20", PHHAction("complete_bet_raise", actor=0, amount=20)),
        ("p10 cc", PHHAction("check_call", actor=9)),
        ("p2 f", PHHAction("fold", actor=1)),
        ("p2 sm AsKs2d2c7c", PHHAction("show_muck", actor=1, cards=["As", "Ks", "2d", "2c", "7c"])),
        ("p2 sm ??Ad", PHHAction("show_muck", actor=1, cards=["??", "Ad"])),
        ("p2 sm -", PHHAction("show_muck", actor=1, shows_dealt=True)),
        ("p2 sm", PHHAction("show_muck", actor=1)),
        ("", PHHAction("no_op")),
        ("   ", PHHAction("no_op")),
        ("# Burn card 6s is exposed", PHHAction("no_op", comment="Burn card 6s is exposed")),
        ("p1 cc # calls # twice", PHHAction("check_call", actor=0, comment="calls # twice")),
        (
            "  p1\t cbr   8  #  completes  ",
            PHHAction("complete_bet_raise", actor=0, amount=8, comment="completes"),
        ),
        ("p1 f #", PHHAction("fold", actor=0, comment="")),
    ],
)
def test_parse_action(line: str, expected: PHHAction) -> None:
    action = parse_action(line)
    assert action == expected
    assert action.up is None  # the notation itself never says up or down
    assert parse_action(format_action(action)) == action


def test_every_action_kind_has_a_parse() -> None:
    lines = ["d dh p1 ????7c", "d db 9d", "p1 pb", "p1 cbr 4", "p1 cc", "p1 f", "p1 sm", "#"]
    kinds = {parse_action(line).kind for line in lines}
    assert kinds == set(get_args(phh.ActionKind))


def test_action_properties_and_format() -> None:
    assert parse_action("p3 sm").is_muck
    assert not parse_action("p3 sm -").is_muck
    assert not parse_action("p3 sm ????").is_muck
    assert str(parse_action("  p1   cbr 8  # completes ")) == "p1 cbr 8 # completes"
    assert format_action(PHHAction("no_op", comment="note")) == "# note"
    assert format_action(PHHAction("deal_hole", player=2, cards=["??", "Ah"])) == "d dh p3 ??Ah"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("p1 raise 20", "unknown action 'raise'"),
        ("p1 cbr", "expected 'pN cbr AMOUNT'"),
        ("p1 cbr 7.5", "positive whole number of chips after 'cbr', got '7.5'"),
        ("p1 cbr -3", "got '-3'"),
        ("p1 cbr 0", "got '0'"),
        ("p1 cbr 10 20", "expected 'pN cbr AMOUNT'"),
        ("p1 cc now", "expected nothing after 'cc'"),
        ("p1", "expected an action after 'p1'"),
        ("p0 cc", "expected the dealer 'd' or a player"),
        ("x1 cc", "expected the dealer 'd' or a player"),
        ("d", "expected 'dh' (deal hole cards) or 'db'"),
        ("d dx p1 As", "expected 'dh' (deal hole cards) or 'db'"),
        ("d dh p1", "expected 'd dh pN CARDS'"),
        ("d dh As", "expected 'd dh pN CARDS'"),
        ("d dh p1 As Kd", "expected 'd dh pN CARDS'"),
        ("d dh q1 As", "expected the dealer 'd' or a player"),
        ("d db", "expected 'd db CARDS'"),
        ("d dh p1 ????7", "odd number of characters"),
        ("d dh p1 1c", "'1c' is not a card"),
        ("d dh p1 as", "'as' is not a card"),
        ("d dh p1 A?", "'A?' is not a card"),
        ("d dh p1 AsAs", "duplicate card: As"),
        ("p1 sm As Kd", "expected 'pN sm' (muck)"),
        ("p1 sm Zz", "'Zz' is not a card"),
        ("p1 sd", "'sd' (stand pat or discard) is a draw-game action"),
        ("p1 cc# no space", "expected whitespace before the '#'"),
    ],
)
def test_malformed_action_lines_are_named(line: str, expected: str) -> None:
    with pytest.raises(PHHError) as caught:
        parse_action(line)
    message = str(caught.value)
    assert repr(line) in message
    assert expected in message


def test_a_malformed_line_in_a_hand_is_named_with_its_index() -> None:
    text = with_field(RAZZ, "actions", '["d dh p1 ????Kc", "d dh p2 ????3d", "p1 bet 4"]')
    with pytest.raises(PHHError, match=r"actions\[2\]: bad action 'p1 bet 4': unknown action"):
        loads(text)


def test_phh_action_checks_itself() -> None:
    with pytest.raises(PHHError, match="needs an amount"):
        PHHAction("complete_bet_raise", actor=0)
    with pytest.raises(PHHError, match="not a card"):
        PHHAction("deal_board", cards=["10h"])
    with pytest.raises(PHHError, match="the dealer deals"):
        PHHAction("deal_hole", actor=0, player=0, cards=["As"])
    with pytest.raises(PHHError, match="needs actor"):
        PHHAction("fold")
    with pytest.raises(PHHError, match="one per card"):
        PHHAction("deal_hole", player=0, cards=["As"], up=[True, False])
    with pytest.raises(PHHError, match="unknown kind"):
        PHHAction("discard", actor=0)  # type: ignore[arg-type]


# -- errors in hands ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ['"NT"', '"FO/8"', '"f7s"', "7"])
def test_a_variant_that_is_not_stud_is_refused(variant: str) -> None:
    with pytest.raises(PHHError, match=r"variant: unsupported variant .*'F7S', 'F7S/8', 'FR'"):
        loads(with_field(RAZZ, "variant", variant))


@pytest.mark.parametrize(
    "key", ["variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions"]
)
def test_a_missing_required_field_is_named(key: str) -> None:
    with pytest.raises(PHHError, match=f"missing required field '{key}'"):
        loads(with_field(RAZZ, key, None))


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("bring_in", "1.5", "bring_in: expected a whole number of chips, got the float 1.5"),
        ("bring_in", "1.0", "bring_in: expected a whole number of chips, got the float 1.0"),
        ("small_bet", '"4"', "small_bet: expected a whole number of chips, got str '4'"),
        ("big_bet", "true", "big_bet: expected a whole number of chips, got bool True"),
        ("bring_in", "0", r"bring_in: expected a whole number of chips \(positive\), got 0"),
        ("antes", "[1, 1.5, 1]", r"antes\[1\]: expected a whole number of chips, got the float"),
        ("antes", "[1, -1, 1]", r"antes\[1\]: expected a whole number of chips \(at least 0\)"),
        ("antes", "1", "antes: expected an array, got int 1"),
        ("antes", "[1, 1]", "antes: expected one entry per player"),
        ("starting_stacks", "[100, inf, 100]", r"starting_stacks\[1\]: .*inf .*unknown amount"),
        ("starting_stacks", "[100]", "a hand needs at least 2 players"),
        ("actions", '["p1 pb", 3]', r"actions\[1\]: expected a string, got int 3"),
    ],
)
def test_bad_required_values_are_named(key: str, value: str, expected: str) -> None:
    with pytest.raises(PHHError, match=expected):
        loads(with_field(RAZZ, key, value))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("finishing_stacks = [1.5, 2, 3]", r"finishing_stacks\[0\]: expected a whole number"),
        ('players = ["a", "b"]', "players: expected one entry per player"),
        ("seats = [1, 2, 0]", r"seats\[2\]: expected an integer \(positive\)"),
        ("seat_count = 2", "seat_count: 2 seats cannot hold 3 players"),
        ("month = 13", "month: expected 1 to 12"),
        ("hand = 1.5", "hand: expected a string or an integer"),
        ("time = 1979-05-27T07:32:00", "time: expected a TOML local time"),
        ("ante_trimming_status = 1", "ante_trimming_status: expected true or false"),
        ("time_limit = -1", "time_limit: expected a non-negative number of seconds"),
        ("blinds_or_straddles = [0, 0, 0]", "blinds_or_straddles: not allowed in a stud hand"),
        ("min_bet = 2", "min_bet: not allowed in a stud hand"),
    ],
)
def test_bad_optional_values_are_named(line: str, expected: str) -> None:
    with pytest.raises(PHHError, match=expected):
        loads(RAZZ + line + "\n")


@pytest.mark.parametrize(
    ("actions", "expected"),
    [
        (["d dh p4 ????Kc"], r"actions\[0\] 'd dh p4 \?\?\?\?Kc': there is no player p4"),
        (["d dh p1 ????Kc", "p5 f"], r"actions\[1\] 'p5 f': there is no player p5"),
        (
            ["d dh p1 ????Kc", "d dh p2 ????Kc"],
            r"actions\[1\] .*Kc was already dealt in "
            r"actions\[0\]",
        ),
        (["d dh p1 ????Kc", "d db Kc"], r"Kc was already dealt"),
        (["d dh p1 ????Kc", "d dh p1 2c3c4c5c6c"], r"p1 would hold 8 cards"),
        (["d dh p1 ????Kc", "p1 sm -"], r"'sm -' shows the cards dealt to p1"),
        (["p2 sm -"], r"'sm -' shows the cards dealt to p2"),
    ],
)
def test_actions_are_checked_against_the_hand(actions: list[str], expected: str) -> None:
    with pytest.raises(PHHError, match=expected):
        stud_hand(starting_stacks=[100, 100, 100], antes=[0, 0, 0], actions=actions)


def test_shown_cards_may_repeat_dealt_ones_and_sm_dash_works_when_known() -> None:
    hand = stud_hand(actions=["d dh p1 As2c3d", "d dh p2 ????Kc", "p1 sm -", "p2 sm ??AhKc"])
    assert [a.kind for a in hand.parsed_actions()][-2:] == ["show_muck", "show_muck"]


def test_construction_checks_too() -> None:
    with pytest.raises(PHHError, match="bring_in: expected a whole number of chips, got the float"):
        stud_hand(bring_in=2.0)
    with pytest.raises(PHHError, match="bring_in: a required field"):
        stud_hand(bring_in=None)
    with pytest.raises(PHHError, match="extra: 'players' is a PHH field"):
        stud_hand(extra={"players": ["a", "b"]})
    with pytest.raises(PHHError, match="min_bet: not allowed"):
        stud_hand(extra={"min_bet": 2})
    with pytest.raises(PHHError, match=r"_x\[0\]: cannot write set"):
        stud_hand(extra={"_x": [set()]})
    with pytest.raises(dataclasses.FrozenInstanceError):
        stud_hand().variant = "FR"  # type: ignore[misc]


def test_not_toml_is_reported() -> None:
    with pytest.raises(PHHError, match="not valid TOML"):
        loads('variant = "F7S\n')


def test_errors_from_files_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(with_field(RAZZ, "bring_in", "2.5"), encoding="utf-8")
    with pytest.raises(PHHError, match=r"bad\.phh: bring_in: expected a whole number"):
        load(path)


# -- several hands (.phhs) ---------------------------------------------------------------------


def test_phhs_round_trip(tmp_path: Path) -> None:
    hands = [loads(STUD8_HAND), loads(RAZZ), stud_hand()]
    text = dumps_all(hands)
    assert text.startswith('[1]\nvariant = "F7S/8"\n')
    assert '\n[2]\nvariant = "FR"\n' in text and "\n[3]\n" in text
    assert loads_all(text) == hands
    path = tmp_path / "hands.phhs"
    dump_all(hands, path)
    assert load_all(path) == hands
    assert loads_all(dumps_all([])) == []


def test_phhs_written_by_hand_reads_in_order() -> None:
    text = f"[1]\n{RAZZ}\n[2]\n{STUD8_HAND}"
    hands = loads_all(text)
    assert [h.variant for h in hands] == ["FR", "F7S/8"]


def test_phhs_errors_name_the_hand() -> None:
    text = f"[1]\n{RAZZ}\n[2]\n{with_field(RAZZ, 'small_bet', '4.0')}"
    with pytest.raises(PHHError, match=r"hand \[2\]: small_bet: expected a whole number"):
        loads_all(text)
    with pytest.raises(PHHError, match=r"x: expected a table \[x\]"):
        loads_all("x = 1\n")


def test_one_hand_and_several_hands_are_told_apart() -> None:
    with pytest.raises(PHHError, match="read it with loads_all"):
        loads(dumps_all([loads(RAZZ)]))
    with pytest.raises(PHHError, match="read it with loads"):
        loads_all(RAZZ)


def test_module_doctests() -> None:
    failures, tried = doctest.testmod(phh)
    assert tried > 0 and failures == 0


# -- replaying unknown cards, and older PokerKit's capped raise (sevenstud.history.replay) ------


def _stud(actions: list[str], stacks: list[int], finishing: list[int] | None) -> PHHHand:
    return PHHHand(
        variant="F7S",
        antes=[1] * len(stacks),
        bring_in=2,
        small_bet=5,
        big_bet=10,
        starting_stacks=stacks,
        actions=actions,
        finishing_stacks=finishing,
    )


def test_a_folded_players_unknown_door_card_does_not_become_the_bring_in() -> None:
    from sevenstud.history.replay import _deck_order, _plan, play_phh

    hand = _stud(
        [
            *("d dh p1 ??????", "d dh p2 7s8s3d", "d dh p3 KhKd9c"),
            *("p2 pb", "p3 cbr 5", "p1 f", "p2 f"),
        ],
        [100, 100, 100],
        [99, 97, 104],
    )
    # Filled with the spare cards in order, p1's door card would be the 2h, lower than the 3d.
    assert str(_deck_order(_plan(hand, hand.parsed_actions()))[6]) == "2h"
    played = play_phh(hand)
    assert played.bring_in_seat == 1 and played.stacks == [99, 97, 104]
    door, bring_in = played.cards[0][2], played.cards[1][2]
    # The card we made up is above the 3d (by rank, then by suit, clubs lowest): it cannot bring in.
    assert (door.rank, door.suit) > (bring_in.rank, bring_in.suit)


def test_an_unknown_up_card_does_not_make_the_board_that_acts_first_on_a_later_street() -> None:
    from sevenstud.history.replay import play_phh

    hand = _stud(
        [
            *("d dh p1 ????2d", "d dh p2 QhJhAc", "d dh p3 TdTc9s", "p1 pb", "p2 cc", "p3 cc"),
            *("d dh p1 ??", "d dh p2 Kc", "d dh p3 8s", "p2 cbr 5", "p3 f", "p1 f"),
        ],
        [100, 100, 100],
        [97, 106, 97],
    )
    played = play_phh(hand)  # the first filling pairs p1's deuce on 4th street: p1 would act
    assert played.first_to_act[4] == 1 and played.stacks == [97, 106, 97]
    assert played.cards[0][3].rank != played.cards[0][2].rank


def test_actions_that_no_filling_of_unknown_cards_allows_still_fail_naming_the_action() -> None:
    from sevenstud.history.replay import ReplayError, play_phh

    hand = _stud(["d dh p1 ????2d", "d dh p2 QhJhAc", "d dh p3 TdTc9s", "p2 pb"], [100, 100, 100], None)
    with pytest.raises(ReplayError, match=r"actions\[3\] 'p2 pb': p2 acts, but our engine has p1"):
        play_phh(hand)


def _capped_raise(short_stack: int) -> tuple[PHHHand, list[int]]:
    """p1 raises to 10 against p2, who has ``short_stack`` chips; our engine plays it, and the
    PHH writes the raise as older PokerKit does: to what p2 can put in on 3rd street."""
    from sevenstud.deck import Deck
    from sevenstud.games import Stakes, Stud
    from sevenstud.hand import Hand
    from sevenstud.history.replay import to_phh

    deck = Deck.ordered("As Qh Ks Qd 2c 3c 4h 5h 6h 7h 8h 9h Th Jh 8c 9c")
    hand = Hand(Stud(Stakes(1, 2, 5, 10)), [100, short_stack], deck)
    for action in ("bring-in", "complete", "raise to 10", "call"):
        hand.act(action)
    while not hand.is_over:
        hand.act(hand.legal_actions()[0])
    written = to_phh(hand)
    capped = min(10, short_stack - 1)  # p2's ante is in: the most p2 can bet on 3rd street
    actions = [a.replace("p1 cbr 10", f"p1 cbr {capped}") for a in written.actions]
    return dataclasses.replace(written, actions=actions), list(hand.stacks)


def test_a_raise_written_to_what_the_all_in_opponent_has_replays_as_the_full_raise() -> None:
    from sevenstud.history.replay import play_phh

    phh_hand, stacks = _capped_raise(8)
    assert "p1 cbr 7" in phh_hand.actions
    played = play_phh(phh_hand)
    assert played.stacks == stacks and played.finishing_stacks == tuple(stacks)
    assert any(e.__class__.__name__ == "BetReturned" and e.amount == 3 for e in played.events)


def test_a_raise_short_of_the_full_raise_is_still_refused_when_the_opponent_has_more() -> None:
    from sevenstud.history.replay import ReplayError, play_phh

    phh_hand, _ = _capped_raise(30)
    bad = dataclasses.replace(
        phh_hand, actions=[a.replace("p1 cbr 10", "p1 cbr 7") for a in phh_hand.actions]
    )
    with pytest.raises(ReplayError, match=r"'p1 cbr 7': illegal under our rules"):
        play_phh(bad)


def test_the_rake_from_the_main_pot_travels_in_the_user_field_rake_from() -> None:
    from sevenstud.history.replay import ReplayError, game_of

    assert game_of(stud_hand()).rake_from == "each_pot"  # our engine's default
    assert game_of(stud_hand(extra={"_rake_from": "main_pot"})).rake_from == "main_pot"
    with pytest.raises(ReplayError, match="_rake_from: 'side' is not 'each_pot' or 'main_pot'"):
        game_of(stud_hand(extra={"_rake_from": "side"}))
