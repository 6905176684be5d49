"""No traceback, whatever the input, in ``replay``, ``convert`` and ``show``: each bad file or
path is a one-line error naming the problem and a non-zero exit (sevenstud.history.convert,
.replay, .show); and ``replay``'s exit codes and per-file JSON records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sevenstud.cards import Deck
from sevenstud.cli import main
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import Hand
from sevenstud.history.phh import dumps
from sevenstud.history.replay import to_phh


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
