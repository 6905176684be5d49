"""No traceback, whatever the input, in ``replay``, ``convert`` and ``show``: each bad file or
path is a one-line error naming the problem and a non-zero exit (sevenstud.history.convert,
.replay, .show); and ``replay``'s exit codes and per-file JSON records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sevenstud.cli import main
from sevenstud.deck import Deck
from sevenstud.games import Stakes, Stud, StudHiLo
from sevenstud.hand import ActionKind, Hand
from sevenstud.history.convert import ConvertError, convert, iter_loaded, tournament_number
from sevenstud.history.phh import dumps
from sevenstud.history.pokerstars import read_hands
from sevenstud.history.replay import to_phh
from sevenstud.history.text.fulltilt import read_fulltilt


def _phh_file(tmp_path: Path) -> Path:
    hand = Hand(StudHiLo(Stakes(1, 2, 5, 10)), [100, 100, 100], Deck.seeded(3))
    while not hand.is_over:
        hand.act(hand.legal_actions()[0])
    path = tmp_path / "one.phh"
    path.write_text(dumps(to_phh(hand, players=["Ann", "Bob", "Cy"])))
    return path


BAD_INPUTS = {
    "binary": ("data.bin", b"\x00\x01\x02\x03\xff", "binary file"),
    "empty": ("empty.txt", b"", "empty"),
    "other text": ("notes.txt", b"just some notes\n", "not a hand history we read"),
    "not utf-8 phh": ("latin.phh", b'variant = "F7S"\n# caf\xe9\n', "not UTF-8"),
}


def _bad(tmp_path: Path, kind: str) -> tuple[Path, str]:
    if kind == "folder":
        return tmp_path, "is a folder"
    if kind == "missing":
        return tmp_path / "nowhere.txt", "no such file"
    name, data, words = BAD_INPUTS[kind]
    path = tmp_path / name
    path.write_bytes(data)
    return path, words


KINDS = [*BAD_INPUTS, "folder", "missing"]


@pytest.mark.parametrize("kind", KINDS)
def test_replay_of_a_bad_input_is_one_line_and_exit_1(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, words = _bad(tmp_path, kind)
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    problem = [line for line in captured.out.splitlines() if line.startswith(str(path))]
    assert len(problem) == 1 and words in problem[0]
    assert "Traceback" not in captured.out + captured.err
    assert main(["replay", "--json", str(path)]) == 1
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["record"] == "file" and record["ok"] is False and words in record["error"]


@pytest.mark.parametrize("kind", KINDS)
def test_convert_and_show_of_a_bad_input_are_one_line_and_exit_1(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, words = _bad(tmp_path, kind)
    out = tmp_path / "out.phh"
    assert main(["convert", str(path), str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and not out.exists()
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_convert_refuses_to_overwrite_its_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _phh_file(tmp_path)
    before = source.read_bytes()
    assert main(["convert", str(source), str(source)]) == 1
    assert "is the input file" in capsys.readouterr().err
    assert main(["convert", str(source), str(tmp_path / "." / source.name)]) == 1
    assert source.read_bytes() == before


@pytest.mark.parametrize(
    ("target", "words"),
    [(".", "is a folder"), ("no/such/folder/x.phh", "does not exist"), ("x.out", "known: .phh")],
)
def test_convert_refuses_an_output_it_cannot_write(
    tmp_path: Path, target: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _phh_file(tmp_path)
    assert main(["convert", str(source), str(tmp_path / target)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_an_unknown_ending_is_fine_with_to(tmp_path: Path) -> None:
    source = _phh_file(tmp_path)
    assert main(["convert", str(source), str(tmp_path / "x.out"), "--to", "pokerstars"]) == 0
    assert (tmp_path / "x.out").read_text().startswith("PokerStars Hand #")


def test_replay_exits_0_only_when_every_file_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _phh_file(tmp_path)
    empty = tmp_path / "empty.phh"
    empty.write_text("")
    assert main(["replay", str(good)]) == 0
    assert main(["replay", str(good), str(empty)]) == 1
    capsys.readouterr()
    assert main(["replay", "--json", str(good), str(empty)]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["record"], r["file"], r["ok"]) for r in records] == [
        ("hand", str(good), True),
        ("file", str(good), True),
        ("file", str(empty), False),
    ]
    assert records[1]["hands"] == 1 and records[2]["hands"] == 0


def test_replay_prints_money_in_the_files_units(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = Hand(StudHiLo(Stakes(4, 5, 10, 20)), [300, 300], Deck.seeded(8))
    hand.act("bring-in")
    hand.act("fold")
    path = tmp_path / "cents.phh"
    path.write_text(
        dumps(
            to_phh(
                hand,
                players=["Ann", "Bob"],
                currency="USD",
                currency_symbol="$",
                extra={"_chips_per_unit": 100},
            )
        )
    )
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    won = sum(a.amount for a in hand.awards)
    assert f"${won // 100}.{won % 100:02d}" in out
    assert main(["replay", "--json", str(path)]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["units"] == "USD cents" and record["awards"][0]["amount"] == won


# ---------------------------------------------------------------- tournament hands (issue 19.4)

WSOP_EVENT = "2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5"
PS_TOURNAMENT_HEADER = re.compile(
    # The shape of the card room's tournament header (as in the shared PokerStars_tour_* files):
    # number, buy-in with its fee, game, Roman level and the limits, then the date.
    r"PokerStars Hand #\d+: Tournament #(\d+), (\$\d+(?:\.\d\d)?\+\$\d+(?:\.\d\d)? USD|Freeroll) "
    r"7 Card Stud Limit - Level ([IVXLC]+) \((\d+)/(\d+)\) - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d ET"
)


def _tournament_phh(tmp_path: Path, name: str = "wsop.phh", **fields: object) -> Path:
    """A stud hand at the stakes of a WSOP final table (antes 50,000, limits 200,000/400,000),
    written as PHH with ``fields`` (an ``event``, a ``level``...)."""
    stakes = Stakes(ante=50_000, bring_in=50_000, small_bet=200_000, big_bet=400_000)
    hand = Hand(Stud(stakes), [4_100_000, 8_775_000, 4_550_000], Deck.seeded(5))
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next((a for a in legal if a.kind is ActionKind.CALL), legal[0]))
    path = tmp_path / name
    path.write_text(dumps(to_phh(hand, players=["Obst", "Rast", "Tong"], **fields)))
    return path


def test_an_event_naming_a_series_event_and_a_day_is_written_as_a_tournament(tmp_path: Path) -> None:
    """Rule: a PHH hand whose event names a tournament is never written as a ring game."""
    source = _tournament_phh(tmp_path, event=WSOP_EVENT, year=2023, month=6, day=22)
    for to in ("pokerstars", "fulltilt"):
        assert convert(source, tmp_path / f"{to}.txt", to) == (1, [])
    text = (tmp_path / "pokerstars.txt").read_text()
    head = PS_TOURNAMENT_HEADER.fullmatch(text.splitlines()[0])
    assert head is not None, text.splitlines()[0]
    assert head.groups()[1:] == ("$50000+$0 USD", "I", "200000", "400000")
    assert head.group(1) == tournament_number(WSOP_EVENT)
    assert text.splitlines()[1] == f"Table '{head.group(1)} 1' 8-max"  # as '2010090015 98' is
    (item,) = read_hands(tmp_path / "pokerstars.txt").hands()
    assert (item.tournament, item.money, item.ante) == (head.group(1), False, 50_000)
    assert item.buy_in == "$50000+$0 USD"
    fulltilt = (tmp_path / "fulltilt.txt").read_text().splitlines()[0]
    assert fulltilt.startswith(
        f"Full Tilt Poker Game #1: $50000 + $0 Tournament ({head.group(1)}), Table 1 - "
        "200000/400000 Ante 50000 - Limit Stud Hi - "
    )
    (ft,) = read_fulltilt(tmp_path / "fulltilt.txt").hands()
    assert (ft.tournament, ft.money, ft.buy_in) == (head.group(1), False, "$50000+$0 USD")
    stacks = [i.hand.stacks for p in (source, *tmp_path.glob("*.txt")) for i in iter_loaded(p)]  # type: ignore[union-attr]
    assert len(stacks) == 3 and stacks[0] == stacks[1] == stacks[2]


@pytest.mark.parametrize(
    "event",
    [
        WSOP_EVENT,
        "2019 World Series of Poker Event #58: $50,000 Poker Players Championship | Final Table",
        "WPT Main Event",
        "Sunday Razz Tournament",
        "$215 Stud Hi/Lo Sit & Go",
        "Stud Championship | Day 1A",
    ],
)
def test_every_way_an_event_names_a_tournament_is_recognised(tmp_path: Path, event: str) -> None:
    source = _tournament_phh(tmp_path, event=event)
    assert convert(source, tmp_path / "out.txt", "pokerstars") == (1, [])
    assert PS_TOURNAMENT_HEADER.fullmatch((tmp_path / "out.txt").read_text().splitlines()[0])


def test_the_derived_tournament_number_is_stable_and_the_same_for_every_day_of_an_event() -> None:
    day4 = WSOP_EVENT.replace("Day 5", "Day 4")
    final = WSOP_EVENT.replace("Day 5", "Final Table")
    assert tournament_number(WSOP_EVENT) == tournament_number(day4) == tournament_number(final)
    assert tournament_number(WSOP_EVENT) != tournament_number(WSOP_EVENT.replace("2023", "2022"))
    assert tournament_number(WSOP_EVENT).isdigit()


@pytest.mark.parametrize("to", ["pokerstars", "fulltilt"])
def test_a_ring_game_at_limits_the_card_room_never_had_is_refused(tmp_path: Path, to: str) -> None:
    """Rule: never write a ring game at stakes the card room's ring games did not have unless
    asked to (``--ring``); ``--tournament`` writes it as a tournament hand."""
    source = _tournament_phh(tmp_path)  # no event, no level: nothing says it is a tournament
    target = tmp_path / "out.txt"
    with pytest.raises(ConvertError, match=r"ring game at 200000/400000.*--tournament \[NUMBER\].*--ring"):
        convert(source, target, to)
    assert not target.exists()
    assert convert(source, target, to, ring=True) == (1, [])
    assert "Tournament" not in target.read_text().splitlines()[0]
    assert convert(source, target, to, tournament="77") == (1, [])
    assert "Tournament #77," in target.read_text() or "Tournament (77)," in target.read_text()
    assert convert(source, target, to, tournament=True) == (1, [])
    assert tournament_number(source.stem) in target.read_text().splitlines()[0]


def _cash_phh(tmp_path: Path, small: int, big: int) -> Path:
    """A ring-game hand in cents (PHH ``_chips_per_unit = 100``) at limits small/big."""
    hand = Hand(Stud(Stakes(1, 2, small, big)), [100 * big, 100 * big], Deck.seeded(2))
    while not hand.is_over:
        hand.act(hand.legal_actions()[0])
    path = tmp_path / f"cash-{small}-{big}.phh"
    path.write_text(dumps(to_phh(hand, currency="USD", extra={"_chips_per_unit": 100})))
    return path


def test_ring_games_at_the_card_rooms_own_limits_are_written_as_ring_games(tmp_path: Path) -> None:
    """Each room's own ladder: PokerStars dealt $0.04/$0.08 stud, Full Tilt $2.50/$5 (both are
    in the shared hand histories); neither dealt the other's."""
    micro, odd = _cash_phh(tmp_path, 4, 8), _cash_phh(tmp_path, 250, 500)
    assert convert(micro, tmp_path / "a.txt", "pokerstars") == (1, [])
    assert "7 Card Stud Limit ($0.04/$0.08 USD)" in (tmp_path / "a.txt").read_text()
    assert convert(odd, tmp_path / "b.txt", "fulltilt") == (1, [])
    assert "$2.50/$5 Ante $0.01 - Limit Stud Hi" in (tmp_path / "b.txt").read_text()
    with pytest.raises(ConvertError, match=r"ring game at \$0.04/\$0.08, and Full Tilt dealt no ring game"):
        convert(micro, tmp_path / "c.txt", "fulltilt")
    with pytest.raises(ConvertError, match=r"ring game at \$2.50/\$5, and PokerStars dealt no ring game"):
        convert(odd, tmp_path / "d.txt", "pokerstars")
    assert convert(micro, tmp_path / "e.phhs") == (1, [])  # PHH has no card room's limits


def test_convert_command_tournament_and_ring_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _tournament_phh(tmp_path)
    out = tmp_path / "out.txt"
    assert main(["convert", str(source), str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sevenstud convert: ") and "--tournament" in err and "--ring" in err
    assert "Traceback" not in err and not out.exists()
    assert main(["convert", str(source), str(out), "--tournament", "2010090015"]) == 0
    head = out.read_text().splitlines()[0]
    assert head.startswith("PokerStars Hand #1: Tournament #2010090015, Freeroll 7 Card Stud Limit - Level I")
    assert main(["convert", str(source), str(out), "--ring"]) == 0
    assert out.read_text().startswith("PokerStars Hand #1:  7 Card Stud Limit (200000/400000)")
    assert main(["convert", str(source), str(out), "--tournament"]) == 0
    assert main(["convert", str(source), str(out), "--tournament", "x1"]) == 1
    assert "--tournament x1: expected a tournament number" in capsys.readouterr().err
    assert main(["convert", str(source), str(out), "--ring", "--tournament"]) == 2
    assert "--tournament: not allowed with argument --ring" in capsys.readouterr().err


def test_a_phh_buy_in_is_kept_and_a_bad_one_is_named(tmp_path: Path) -> None:
    source = _tournament_phh(tmp_path, event="Stud Main Event", extra={"_buy_in": "$1500+$100 USD"})
    assert convert(source, tmp_path / "out.txt") == (1, [])
    assert ", $1500+$100 USD 7 Card Stud Limit - Level I (" in (tmp_path / "out.txt").read_text()
    bad = _tournament_phh(tmp_path, "bad.phh", event="Stud Main Event", extra={"_buy_in": "fifty"})
    count, errors = convert(bad, tmp_path / "bad.txt")
    assert count == 0 and len(errors) == 1
    assert errors[0].startswith(f"{bad}: _buy_in: 'fifty' is not a buy-in as PokerStars writes one")


# -- cards nobody saw (issue 36, point 4) -------------------------------------------------------


def _unseen_phh(tmp_path: Path) -> Path:
    """The WSOP hands' shape: a player whose 3rd-street cards nobody saw (``d dh p1 ??????``),
    so that the replay must make up a door card for the bring-in to stand."""
    path = _tournament_phh(tmp_path, event=WSOP_EVENT)
    lines = path.read_text().splitlines()
    deal = next(i for i, line in enumerate(lines) if line.strip().startswith('"d dh p1 '))
    lines[deal] = '  "d dh p1 ??????",'
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("to", ["pokerstars", "fulltilt", "acr"])
def test_a_text_history_never_states_a_card_nobody_saw(
    tmp_path: Path, to: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out = _unseen_phh(tmp_path), tmp_path / f"out.{to}"
    assert main(["convert", str(source), str(out), "--to", to]) == 1
    err = capsys.readouterr().err
    assert "hand #1: Obst's up card " in err and "never seen" in err and "--fill-unknown" in err
    assert "Traceback" not in err and not out.exists()
    assert main(["convert", str(source), str(out), "--to", to, "--fill-unknown"]) == 0
    said = capsys.readouterr().out
    assert "1 hand(s) written" in said and "filled in (--fill-unknown) in 1 hand(s): 1" in said
    assert "Obst" in out.read_text()


def test_phh_output_keeps_the_cards_nobody_saw_unknown(tmp_path: Path) -> None:
    source, out = _unseen_phh(tmp_path), tmp_path / "out.phh"
    assert main(["convert", str(source), str(out)]) == 0
    assert '"d dh p1 ??????"' in out.read_text()
