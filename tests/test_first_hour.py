"""A new user's first hour with ``sevenstud`` (issue 8, points 10, 11 and 13), tried from outside
through the command line only: help, a session at the table with every key and bad input,
quitting, rebuys, and files that are good, bad, empty, binary, folders or the input itself.
Every error is one line on stderr naming the problem, never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = Path(sys.executable).with_name("sevenstud")
COMMAND = [str(PROGRAM)] if PROGRAM.exists() else [sys.executable, "-m", "sevenstud"]
SHARED_HH = Path(__file__).resolve().parents[2] / "shared" / "hh"
RAZZ = SHARED_HH / "PokerStars_cash_Razz-USD-0.04-0.08-200911.txt"


def run(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *argv], input=stdin, capture_output=True, text=True, timeout=120, check=False,
        cwd=cwd,
    )


def error_line(result: subprocess.CompletedProcess[str], command: str) -> str:
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"sevenstud {command}: "), result.stderr
    return lines[0]


def real_hand(tmp_path: Path) -> Path:
    if not RAZZ.exists():
        pytest.skip(f"the shared hand histories are not here ({SHARED_HH})")
    copy = tmp_path / "razz.txt"
    copy.write_bytes(RAZZ.read_bytes())  # a copy: nothing is ever written into ../shared
    return copy


# ---------------------------------------------------------------- help


def test_first_hour_every_help_shows_its_defaults() -> None:
    top = run("--help")
    assert top.returncode == 0
    for command in ("play", "replay", "convert", "show", "equity"):
        assert re.search(rf"^\s+{command}\s+\S", top.stdout, re.M), command
    play = run("play", "--help").stdout
    for default in ("(default: stud8)", "(default: 4)", "(default: 200)", "(default: 1/2/5/10)"):
        assert default in " ".join(play.split()), default


# ---------------------------------------------------------------- the table


def test_first_hour_at_the_table_every_key_and_bad_input() -> None:
    # Seed 1: seat 1 (you) brings in; the prompt is "[b]ring-in 2  [r] complete to 5".
    keys = ["?", "x", "z", "call 3", "", "b", "q"]
    result = run("play", "--bots", "2", "--seed", "1", stdin="\n".join(keys) + "\n")
    out = result.stdout
    assert result.returncode == 0 and "Traceback" not in out + result.stderr
    assert "legal now: [b]ring-in 2  [r] complete to 5" in out  # ?
    assert "! you cannot check" in out  # x
    assert "! unknown action 'z'" in out
    assert "! there is nothing to call" in out  # call 3 when bringing in
    assert "! type an action" in out  # an empty line
    assert "You bring in for 2." in out  # b
    assert "Goodbye! Final stacks" in out  # q mid-hand
    assert "called off" in out


def test_first_hour_a_key_not_legal_now_is_explained_not_unknown() -> None:
    # Issue 8, point 13: the keys are the prompt's; "r" when nobody bet, "b" facing a bet, "s"
    # before the showdown are actions the hand refuses with its reason, not unknown words.
    result = run("play", "--bots", "2", "--seed", "3", stdin="b\ns\nm\nq\n")
    out = result.stdout
    assert "Your turn (3rd street): 2 chips to call" in out
    assert "unknown action 'b'" not in out and "! you cannot bet" in out
    assert "! you cannot show" in out and "! you cannot muck" in out


def test_first_hour_rebuys_are_counted_in_the_final_stacks() -> None:
    result = run("play", "--watch", "--stack", "2", "--hands", "3", "--seed", "1")
    assert result.returncode == 0
    assert re.search(r"Bot \d is busted and buys in again for 2 chips\.", result.stdout)
    assert re.search(r"\(\S+, bought in again \d times?\)", result.stdout)


def test_first_hour_end_of_input_between_hands_quits_cleanly() -> None:
    result = run("play", "--stack", "1", "--seed", "4")  # everybody is all-in on the ante
    assert result.returncode == 0 and "Goodbye! Final stacks after 1 hand:" in result.stdout


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["play", "--bots", "9"], "--bots"),
        (["play", "--stakes", "5/2/1/10"], "--stakes"),
        (["play", "--stack", "0"], "--stack"),
        (["play", "--hands", "-3"], "--hands"),
        (["play", "--seed", "-1"], "--seed"),
        (["equity", "As 2s 3s", "Kd Kh Qc", "--trials", "0"], "--trials"),
        (["equity", "As 2s 3s", "Kd Kh Qc", "--max-outcomes", "-1"], "--max-outcomes"),
        (["equity", "As 2s 3s", "Zz Kd Kh"], "Zz"),
        (["equity", "As 2s 3s", "As Kd Kh"], "As"),
        (["equity", "As 2s", "Kd Kh Qc"], "too few cards (2)"),
        (["equity", "As 2s 3s"], "not 1"),
        (["equity", "As 2s 3s", "Kd Kh Qc", "--community", "Qd"], "community"),
    ],
)
def test_first_hour_a_bad_argument_is_one_line_and_status_2(argv: list[str], named: str) -> None:
    result = run(*argv)
    assert result.returncode == 2
    assert named in error_line(result, argv[0])


# ---------------------------------------------------------------- files


def test_first_hour_files_that_cannot_be_used(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "bin.phh").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "notes.txt").write_text("hello world\n")
    (tmp_path / "folder").mkdir()
    for name, why in [
        ("empty.txt", "is empty"),
        ("bin.phh", "binary"),
        ("notes.txt", "not a hand history"),
        ("folder", "is a folder"),
        ("missing.txt", "no such file"),
    ]:
        for command in ("show", "convert"):
            argv = [command, name] + (["out.phhs"] if command == "convert" else [])
            assert why in error_line(run(*argv, cwd=tmp_path), command), (command, name)
        replayed = run("replay", "--json", name, cwd=tmp_path)
        assert replayed.returncode == 1 and "Traceback" not in replayed.stderr
        record = json.loads(replayed.stdout.splitlines()[-1])
        assert record["record"] == "file" and record["ok"] is False and why in record["error"]
    assert not (tmp_path / "out.phhs").exists()


def test_first_hour_convert_refuses_its_input_however_it_is_named(tmp_path: Path) -> None:
    source = real_hand(tmp_path)
    (tmp_path / "link.txt").symlink_to(source)
    (tmp_path / "folder").mkdir()
    before = source.read_bytes()
    for out, why in [
        ("razz.txt", "is the input"),
        ("./razz.txt", "is the input"),
        ("../" + tmp_path.name + "/razz.txt", "is the input"),
        ("link.txt", "is the input"),
        ("folder", "is a folder"),
        ("nowhere/out.phhs", "does not exist"),
        ("out.xyz", "unknown ending"),
        ("one.phh", "do not fit in one .phh"),
    ]:
        assert why in error_line(run("convert", "razz.txt", out, cwd=tmp_path), "convert"), out
    assert source.read_bytes() == before


def test_first_hour_convert_round_trip_replays(tmp_path: Path) -> None:
    real_hand(tmp_path)
    # Full Tilt dealt no $0.04/$0.08 ring game (its limits went $0.02/$0.04, $0.05/$0.10), so
    # these PokerStars hands are written as Full Tilt ring-game text only when asked (--ring).
    steps = [("all.phhs", []), ("back.txt", []), ("ft.txt", ["--to", "fulltilt", "--ring"])]
    for out, extra in steps:
        source = "razz.txt" if out == "all.phhs" else "all.phhs"
        made = run("convert", source, out, *extra, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        replayed = run("replay", "--json", out, cwd=tmp_path)
        assert replayed.returncode == 0, replayed.stdout
        summary = json.loads(replayed.stdout.splitlines()[-1])
        assert summary["ok"] and summary["hands"] == summary["replayed"] == 9, summary


def test_first_hour_replay_into_a_closed_pipe_exits_141(tmp_path: Path) -> None:
    source = real_hand(tmp_path)
    argv = " ".join([*(f"'{c}'" for c in COMMAND), "replay", *[f"'{source}'"] * 60])
    result = subprocess.run(
        f"{argv} | head -1; exit ${{PIPESTATUS[0]}}", shell=True, executable="/bin/bash",
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 141 and "Traceback" not in result.stderr
    assert result.stdout.count("\n") == 1
