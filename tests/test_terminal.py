"""The terminal table: ``sevenstud play`` watched, played from stdin, and run as a program."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sevenstud.cli import main
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import Action, ActionKind, IllegalAction, SeatView
from sevenstud.terminal import (
    Seat,
    StakesError,
    Table,
    parse_choice,
    parse_stakes,
    prompt_for,
)

Play = Callable[..., tuple[int, str, str]]


@pytest.fixture
def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Play:
    """``play(*argv, stdin="...")`` runs ``sevenstud play``: (exit status, stdout, stderr)."""

    def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(["play", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_watch_three_hands(play: Play) -> None:
    code, out, _ = play("--watch", "--hands", "3", "--seed", "1")
    assert code == 0
    for text in (
        "=== Hand #1 ===",
        "=== Hand #3 ===",
        "*** 3RD STREET ***",
        "*** 4TH STREET ***",
        "*** 7TH STREET ***",
        "*** SHOWDOWN ***",
        "Everybody antes 1.",
    ):
        assert text in out, text
    assert "=== Hand #4 ===" not in out
    # Boards: nobody's down cards are shown to a spectator until the showdown; up cards are.
    assert re.search(r"Bot 1\s+\[xx\] \[xx\] [2-9TJQKA][cdhs]", out)
    assert re.search(r"pot \d+", out) and re.search(r"stack\s+\d+", out)
    assert re.search(r"brings in for 2\.", out)
    # The showdown names the hands and the winners.
    assert re.search(r"shows .*: HI: .+; LO: ", out)
    assert re.search(r"Bot \d wins \d+ chips? from the main pot", out)
    assert "Goodbye! Final stacks after 3 hands:" in out


def test_watch_is_repeatable(play: Play) -> None:
    first = play("--watch", "--hands", "2", "--seed", "9", "--game", "razz")
    second = play("--watch", "--hands", "2", "--seed", "9", "--game", "razz")
    assert first == second
    assert "Razz" in first[1] and "HI:" not in first[1]


def test_human_bad_input_then_quit(play: Play) -> None:
    code, out, _ = play("--bots", "2", "--seed", "1", stdin="raise to 999\nq\n")
    assert code == 0
    # The human sees their own down cards and only the others' up cards.
    assert re.search(r"You\s+\[[2-9TJQKA][cdhs]\] \[[2-9TJQKA][cdhs]\] [2-9TJQKA][cdhs]", out)
    assert re.search(r"Bot 2\s+\[xx\] \[xx\] [2-9TJQKA][cdhs]", out)
    prompt = re.search(r"^(\[.*) > raise to 999$", out, re.M)
    assert prompt, out
    assert "cannot raise to 999" in out  # the IllegalAction message
    assert out.count(prompt.group(1) + " >") == 2  # asked again after the bad input
    assert "Goodbye!" in out and "Final stacks" in out
    assert re.search(r"You\s+200\s+\(\+0\)", out)  # the unfinished hand is called off


def test_human_plays_a_hand(play: Play) -> None:
    code, out, _ = play("--bots", "3", "--seed", "4", "--hands", "1", stdin="b\n" + "c\n" * 20)
    assert code == 0
    assert re.search(r"^You (bring in|call|check)", out, re.M)
    assert "Stacks: You " in out
    assert "Goodbye! Final stacks after 1 hand:" in out


def test_end_of_input_quits(play: Play) -> None:
    code, out, _ = play("--bots", "1", "--seed", "2", stdin="")
    assert code == 0
    assert "Goodbye!" in out


def test_busted_players_buy_in_again(play: Play) -> None:
    code, out, _ = play("--watch", "--bots", "3", "--stack", "12", "--hands", "12", "--seed", "5")
    assert code == 0
    assert re.search(r"Bot \d is busted and buys in again for 12 chips\.", out)
    assert re.search(r"bought in again \d+ times?\)", out)


@pytest.mark.parametrize("stakes", ["1/2/5", "1/2/x/10", "a", "1/5/2/10", "-1/2/5/10"])
def test_bad_stakes(stakes: str, play: Play) -> None:
    code, out, err = play("--watch", "--hands", "1", f"--stakes={stakes}")
    assert code == 2 and out == ""
    assert "bad stakes" in err and stakes in err


def test_bad_options(play: Play) -> None:
    code, _, err = play("--bots", "8")
    assert code == 2 and "--bots: the number of bots must be 1 to 7, not 8" in err
    code, _, err = play("--stack", "0")
    assert code == 2 and "--stack" in err


def test_parse_stakes() -> None:
    stakes = parse_stakes("2/3/10/20")
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (2, 3, 10, 20)
    with pytest.raises(StakesError, match="ante/bring-in/small bet/big bet"):
        parse_stakes("1-2-5-10")


def test_prompt_and_choices() -> None:
    legal = [Action(ActionKind.FOLD), Action(ActionKind.CALL, 5), Action(ActionKind.RAISE, 10)]
    assert prompt_for(legal) == "[f]old  [c]all 5  [r]aise to 10"
    assert parse_choice("c", legal) == Action(ActionKind.CALL)
    assert parse_choice("raise to 10", legal) == Action(ActionKind.RAISE, 10)
    assert parse_choice("r 10", legal) == Action(ActionKind.RAISE, 10)
    assert parse_choice("F", legal) == Action(ActionKind.FOLD)
    checking = [Action(ActionKind.CHECK), Action(ActionKind.BET, 5), Action(ActionKind.BET, 10)]
    assert prompt_for(checking) == "[c]heck  [b]et 5  [b]et 10"
    assert parse_choice("c", checking) == Action(ActionKind.CHECK)
    assert parse_choice("x", checking) == Action(ActionKind.CHECK)
    assert parse_choice("b 10", checking) == Action(ActionKind.BET, 10)
    with pytest.raises(IllegalAction):
        parse_choice("dance", checking)
    with pytest.raises(IllegalAction):
        parse_choice("   ", checking)


def test_the_program_runs() -> None:
    program = Path(sys.executable).with_name("sevenstud")
    command = [str(program)] if program.exists() else [sys.executable, "-m", "sevenstud.cli"]
    result = subprocess.run(
        [*command, "play", "--watch", "--hands", "2", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "=== Hand #2 ===" in result.stdout and "Goodbye!" in result.stdout


class CallingStation:
    """Checks, calls or brings in: every hand goes to the showdown."""

    name = "station"

    def act(self, view: SeatView) -> Action:
        for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
            for action in view.legal_actions:
                if action.kind is kind:
                    return action
        return view.legal_actions[0]


def test_eight_players_share_a_community_card(capsys: pytest.CaptureFixture[str]) -> None:
    seats = [Seat(f"Bot {i}", CallingStation(), 100, 100) for i in range(8)]
    table = Table(
        StudHiLo(Stakes(1, 2, 5, 10)), seats, seed=1, stdin=io.StringIO(""), stdout=sys.stdout
    )
    assert table.run(1) == 0
    out = capsys.readouterr().out
    assert "Not enough cards for everybody" in out and "community card" in out
    assert re.search(r"shows .* \(\+ [2-9TJQKA][cdhs] in the middle\): HI: ", out)
    assert re.search(r"wins \d+ chips? from the main pot \((high|low) half\)", out)
