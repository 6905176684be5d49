"""The terminal table: ``sevenstud play`` watched, played from stdin, and run as a program."""

from __future__ import annotations

import doctest
import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sevenstud import arguments, terminal_text
from sevenstud import terminal as terminal_module
from sevenstud.cards import parse_cards
from sevenstud.cli import main
from sevenstud.dealing import deck_for
from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Action, ActionKind, ActionTaken, Hand, IllegalAction, SeatView
from sevenstud.table import Table as CardTable
from sevenstud.table import TimedOut, ToppedUp
from sevenstud.terminal import (
    TURN_SECONDS,
    Seat,
    StakesError,
    TerminalTable,
    chips,
    door_card_seat,
    holding_text,
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
    seats = [Seat(f"Bot {i}", CallingStation(), 100) for i in range(8)]
    table = TerminalTable(
        StudHiLo(Stakes(1, 2, 5, 10)), seats, seed=1, stdin=io.StringIO(""), stdout=sys.stdout
    )
    assert table.run(1) == 0
    out = capsys.readouterr().out
    assert "Not enough cards for everybody" in out and "community card" in out
    assert re.search(r"shows .* \(\+ [2-9TJQKA][cdhs] in the middle\): HI: ", out)
    assert re.search(r"wins \d+ chips? from the main pot \((high|low) half\)", out)


class Completer:
    """Completes or raises whenever it may, else calls or checks."""

    name = "completer"

    def act(self, view: SeatView) -> Action:
        for kind in (ActionKind.COMPLETE, ActionKind.RAISE, ActionKind.CALL, ActionKind.CHECK):
            for action in view.legal_actions:
                if action.kind is kind:
                    return action
        return view.legal_actions[0]


STAKES = Stakes(1, 2, 5, 10)


def set_up(seats: list[Seat], doors: str, stdin: str = "", game: object = None) -> str:
    """One hand at a set-up table: seat by seat, down cards from the low spades and hearts
    (``4s 4h``, ``5s 5h``, ...) and the given door cards in seat order; what the table printed."""
    downs = [f"{rank}s {rank}h" for rank in "4567"]
    deck = deck_for([f"{down} {door}" for down, door in zip(downs[: len(seats)], doors.split(), strict=True)])
    out = io.StringIO()
    table = TerminalTable(
        game or StudHiLo(STAKES),  # type: ignore[arg-type]
        seats,
        seed=None,
        stdin=io.StringIO(stdin),
        stdout=out,
        decks=[deck],
    )
    table.run(1)
    return out.getvalue()


def test_bring_in_passes_over_an_all_in_lowest_door_card() -> None:
    # Ann's deuce is the lowest door card, but her ante was all she had: the next player
    # clockwise, Cy, brings in, and the table says so.
    seats = [
        Seat("Bob", CallingStation(), 100),
        Seat("Ann", CallingStation(), 1),
        Seat("Cy", CallingStation(), 100),
    ]
    out = set_up(seats, "Kd 2c 9h")
    assert "*** 3RD STREET ***  Cy to bring in (Ann, lowest door card, is all-in)" in out
    assert "Cy brings in for 2 (Ann, lowest door card, is all-in)." in out
    # said in the card room's words (sevenstud.wording), as the table's log says it
    assert "Ann posts the ante of 1 and is all-in." in out


def test_bring_in_names_the_lowest_door_card() -> None:
    seats = [Seat("Bob", CallingStation(), 100), Seat("Ann", CallingStation(), 100)]
    out = set_up(seats, "Kd 2c")
    assert "*** 3RD STREET ***  Ann to bring in (lowest door card)" in out
    assert "Ann brings in for 2." in out  # the reason is in the header; nobody was passed over


def test_razz_names_the_highest_door_card() -> None:
    seats = [Seat("Bob", CallingStation(), 100), Seat("Ann", CallingStation(), 100)]
    out = set_up(seats, "Kd 2c", game=Razz(STAKES))
    assert "*** 3RD STREET ***  Bob to bring in (highest door card)" in out


def test_a_call_is_the_chips_to_put_in() -> None:
    # You bring in for 2, the bot completes to 5: calling is 3 more chips, in the turn line, the
    # prompt and the log; "call 3" is understood, "call 5" (the street total) is refused.
    seats = [Seat("You", None, 100), Seat("Bot 1", Completer(), 100)]
    out = set_up(seats, "2c Kd", stdin="b\ncall 5\ncall 3\nq\n")
    assert "Your turn (3rd street): 3 chips to call, pot 9." in out
    assert "[f]old  [c]all 3  [r]aise to 10 > call 5" in out
    assert "! a call puts in 3 chips now, not 5" in out
    assert re.search(r"^You call 3\.$", out, re.M)
    assert "Bot 1 completes to 5." in out


def test_after_a_bad_action_the_reply_offers_the_call_the_prompt_takes() -> None:
    """Issue 16, point 7: one meaning of a call's amount, the prompt's (the chips put in). After
    a bad ``bet 7`` the reply listed the engine's "call 5" (the street total), which the prompt
    then refused; now it lists "call 3", and ``call 3`` is taken. A raise typed without "to"
    is said back as the street total it was read as."""
    seats = [Seat("You", None, 100), Seat("Bot 1", Completer(), 100)]
    out = set_up(seats, "2c Kd", stdin="b\nbet 7\ncall 3\nq\n")
    assert "! you cannot bet 7: bet is not possible now (legal now: [f]old  [c]all 3  [r]aise to 10)" in out
    assert "call 5" not in out
    assert re.search(r"^You call 3\.$", out, re.M)
    out = set_up(seats, "2c Kd", stdin="b\nraise 10\nq\n")
    assert "  (raise 10 read as raise to 10)\nYou raise to 10." in out
    assert "read as" not in set_up(seats, "2c Kd", stdin="b\nraise to 10\nq\n")


def test_a_scoop_by_the_only_hand_shown_says_its_low() -> None:
    """Issue 16, point 3 (docs/rules.md, "Hi/lo split"): you show 6-5-4-3-A alone (the bot
    mucks) and win the high half and the low half, each said with its hand."""
    deck = deck_for(["Ac 3d 4h 5d 6c Kd 9s", "Qc Jh 9d 7d 2c Ts 3s"])
    out = io.StringIO()
    seats = [Seat("You", None, 100), Seat("Bot 1", CallingStation(), 100)]
    stdin = io.StringIO("b\n" + "c\n" * 8 + "q\n")
    table = TerminalTable(StudHiLo(STAKES), seats, seed=None, stdin=stdin, stdout=out, decks=[deck])
    table.run(1)
    text = out.getvalue()
    assert "You win 3 chips from the main pot (high half) with high card Ace." in text
    assert "You win 3 chips from the main pot (low half) with 6,5,4,3,A." in text


def test_an_all_in_call_of_one_chip() -> None:
    seats = [Seat("You", None, 2), Seat("Bot 1", CallingStation(), 100)]
    out = set_up(seats, "Kd 2c", stdin="c\n")
    assert "Your turn (3rd street): 1 chip to call, pot 4." in out
    assert "[c]all 1 " in out
    assert re.search(r"^You call 1 and are all-in\.$", out, re.M)


def test_your_turn_names_your_hand_so_far() -> None:
    seats = [Seat("You", None, 100), Seat("Bot 1", CallingStation(), 100)]
    out = set_up(seats, "Kd 2c", stdin="c\nq\n")  # your down cards: 4s 4h
    assert "You hold [4s] [4h] Kd: a pair of Fours; no low yet (4 toward one)." in out


def test_the_table_is_printed_once_a_street(play: Play) -> None:
    _, out, _ = play("--bots", "3", "--seed", "4", "--hands", "1", stdin="b\n" + "c\n" * 20)
    streets = re.findall(r"^\*\*\* (\d)\w\w STREET \*\*\*", out, re.M)
    assert streets and len(streets) == len(set(streets))
    tables = len(re.findall(r"^    pot \d+", out, re.M))
    showdown = "*** SHOWDOWN ***" in out
    assert tables == len(streets) + showdown
    assert out.count("Your turn") >= 2  # turns came, and they did not reprint the table


def test_hand_so_far() -> None:
    hilo, stud, razz = StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)
    assert holding_text(parse_cards("Kc Kd Ks"), stud) == "three of a kind, Kings"
    assert holding_text(parse_cards("Kc Kd 4s 4h"), stud) == "two pair, Kings and Fours"
    assert holding_text(parse_cards("Kc Kd Ks Kh"), stud) == "four of a kind, Kings"
    assert holding_text(parse_cards("Ac 9d 4s"), stud) == "high card Ace"
    assert holding_text(parse_cards("Ac 2c 4c 6c 9c"), stud) == "a flush, Ace high"
    # Eight or better: a low still possible, made, or out of reach.
    assert holding_text(parse_cards("Kc Qd 4s"), hilo) == "high card King; no low yet (4 toward one)"
    assert holding_text(parse_cards("Kc Qd Js"), hilo) == "high card King; no low"
    assert holding_text(parse_cards("Kc 2d 9s 9h"), hilo) == "a pair of Nines; no low"
    assert holding_text(parse_cards("Ac 2d 3s 4h 5c"), hilo) == "a straight, Ace to Five; low 5,4,3,2,A"
    assert holding_text(parse_cards("Ac 2d 3s 9h Tc"), hilo).endswith("no low yet (3,2,A toward one)")
    # Razz: always a low, the ace the best card.
    assert holding_text(parse_cards("Ac 2d 3s 4h 6c"), razz) == "low 6,4,3,2,A"
    assert holding_text(parse_cards("Kc 2d"), razz) == "low K,2 so far"


def test_door_card_seat_follows_the_game() -> None:
    hands = ["4s 4h 9c", "5s 5h 9d", "6s 6h 3s"]
    view = Hand(StudHiLo(STAKES), [100, 100, 100], deck_for(hands)).view(None)
    assert door_card_seat(view, StudHiLo(STAKES)) == 2  # the three
    view = Hand(Razz(STAKES), [100, 100, 100], deck_for(hands)).view(None)
    # Two nines: the higher suit (diamonds) is the higher card and brings in.
    assert door_card_seat(view, Razz(STAKES)) == 1


def test_chips_reads_one_chip_singular() -> None:
    assert (chips(1), chips(2)) == ("1 chip", "2 chips")


# ---------------------------------------------------------------------- a renderer over Table


class Ticking:
    """A clock for the terminal: one second a reading, so every time the table is told differs."""

    def __init__(self) -> None:
        self.now = 100.0
        self.readings: list[float] = []

    def __call__(self) -> float:
        self.now += 1.0
        self.readings.append(self.now)
        return self.now


def test_the_table_holds_the_seats_stacks_and_rebuys() -> None:
    # Rebuys are the table's top-ups, counted from its stream; the final stacks are the table's.
    seats = [Seat(f"Bot {i}", Completer(), 12) for i in range(3)]
    out = io.StringIO()
    terminal = TerminalTable(
        StudHiLo(STAKES), seats, seed=5, stdin=io.StringIO(""), stdout=out, clock=Ticking()
    )
    assert terminal.run(8) == 0
    table = terminal.table
    assert isinstance(table, CardTable)
    stream = table.events_since(0, None) if table.number <= 2000 else ()
    topped = [e.event for e in stream if isinstance(e.event, ToppedUp)]
    text = out.getvalue()
    assert topped and len(topped) == text.count("is busted and buys in again for 12 chips.")
    # Chips bought in = chips at the table + the house's rake (nobody took any away).
    bought = 3 * 12 + sum(e.amount for e in topped)
    assert table.chips_at_table() + table.raked == bought
    for state in table.view(None).seats:
        rebuys = sum(1 for e in topped if e.seat == state.seat)
        again = rf", bought in again {rebuys} times?" if rebuys else ""
        net = state.stack - 12 * (1 + rebuys)
        line = rf"^  {state.player}\s+{state.stack}  \({re.escape(f'{net:+d}')}{again}\)$"
        assert re.search(line, text, re.M), line


def test_the_table_is_told_the_terminals_clock() -> None:
    clock = Ticking()
    seats = [Seat("Bot 1", CallingStation(), 50), Seat("Bot 2", Completer(), 50)]
    terminal = TerminalTable(
        Stud(STAKES), seats, seed=3, stdin=io.StringIO(""), stdout=io.StringIO(), clock=clock
    )
    terminal.run(2)
    times = [e.at for e in terminal.table.events_since(0, None)]
    assert times == sorted(times) and set(times) <= set(clock.readings)
    assert len(set(times)) > 4  # sat down, dealt, and each action at its own time
    assert terminal.table.view(None).now == max(times)


class SlowReader(io.StringIO):
    """Input typed a whole day after it was asked for."""

    def __init__(self, text: str, clock: Ticking) -> None:
        super().__init__(text)
        self.clock = clock

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.clock.now += TURN_SECONDS + 1
        return super().readline()


def test_a_turn_past_its_deadline_is_timed_out_by_the_table() -> None:
    # The terminal keeps no clock rule of its own: a turn past the table's deadline is the
    # table's time-out (check if it may, else fold), and the line says so.
    clock = Ticking()
    seats = [Seat("You", None, 100), Seat("Bot 1", Completer(), 100)]
    deck = deck_for(["4s 4h 2c", "5s 5h Kd"])  # you bring in with the deuce
    out = io.StringIO()
    terminal = TerminalTable(
        StudHiLo(STAKES),
        seats,
        seed=None,
        stdin=SlowReader("b\nq\n", clock),
        stdout=out,
        decks=[deck],
        clock=clock,
    )
    terminal.run(1)
    text = out.getvalue()
    assert "You run out of time." in text
    timed = [e.event for e in terminal.table.events_since(0, 1) if isinstance(e.event, TimedOut)]
    assert [(t.seat, t.player) for t in timed] == [(1, "You")]
    assert re.search(r"^You bring in for 2\.$", text, re.M)  # a bring-in cannot be folded


class Recorder:
    """Calls along and keeps every view it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.views: list[SeatView] = []

    def act(self, view: SeatView) -> Action:
        self.views.append(view)
        return CallingStation().act(view)


def test_a_bot_sees_the_engines_view_with_the_hands_events() -> None:
    # The bot's view is the engine's own for its seat, events included, in the hand's seats:
    # the same hand played straight on the engine shows that seat exactly the same events.
    recorder = Recorder()
    seats = [Seat("Bot 1", Completer(), 100), Seat("Bot 2", recorder, 100), Seat("Bot 3", Completer(), 100)]
    deck = Deck.seeded("bot view")
    TerminalTable(
        StudHiLo(STAKES),
        seats,
        seed=None,
        stdin=io.StringIO(""),
        stdout=io.StringIO(),
        decks=[deck],
    ).run(1)
    assert recorder.views
    last = recorder.views[-1]
    assert last.seat == 1 and last.to_act == 1
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], Deck.seeded("bot view"))
    for event in last.events:
        if isinstance(event, ActionTaken):
            hand.act(event.action, event.seat)
    assert hand.view(1).events == last.events
    assert hand.view(1).cards == last.cards


def test_an_illegal_action_is_yours_not_a_seat_number(play: Play) -> None:
    _, out, _ = play("--bots", "2", "--seed", "1", stdin="raise to 999\nq\n")
    assert re.search(r"^  ! you cannot raise to 999: ", out, re.M), out
    assert "You are seat 1." in out  # the table's seats are numbered from 1


def test_hands_turned_face_up_when_betting_is_over() -> None:
    # Both all-in on 3rd street: the hands are turned face up before the last cards come.
    seats = [Seat("You", None, 3), Seat("Bot 1", CallingStation(), 100)]
    out = set_up(seats, "2c Kd", stdin="b\n")
    assert re.search(r"^You bring in for 2 and are all-in\.$", out, re.M)
    assert re.search(r"^Your hand is turned face up: 4s 4h 2c\.$", out, re.M)
    assert re.search(r"^Bot 1's hand is turned face up: 5s 5h Kd\.$", out, re.M)
    assert "*** SHOWDOWN ***" in out and "Stacks: You " in out


def test_a_stack_that_cannot_post_the_ante_is_refused(play: Play) -> None:
    # The table sits out whoever cannot post the ante: a buy-in below it is no way to play.
    code, out, err = play("--watch", "--stakes", "5/5/10/20", "--stack", "3")
    assert code == 2 and out == ""
    assert "--stack must cover the ante (5), not 3" in err


def test_the_terminals_doctests_pass() -> None:
    # The examples in the terminal's docstrings (the prompt, the reading of an answer, the
    # names of a holding) are part of what it promises; pytest here collects tests/ alone.
    for module in (terminal_module, terminal_text):
        result = doctest.testmod(module, verbose=False, report=False)
        assert result.attempted > 0, module.__name__
        assert result.failed == 0, module.__name__


def test_the_terminal_re_exports_its_words() -> None:
    # cli.py and these tests import the text helpers from sevenstud.terminal: the same
    # objects as terminal_text's, listed in its __all__ (mypy --strict needs them there).
    words = ["board_text", "chips", "door_card_seat", "hand_names", "holding_text"]
    words += ["parse_choice", "prompt_for", "table_lines"]
    for name in words:
        assert name in terminal_module.__all__, name
        assert getattr(terminal_module, name) is getattr(terminal_text, name), name
    for name in ["StakesError", "parse_stakes"]:  # --stakes, read alike by every command
        assert name in terminal_module.__all__, name
        assert getattr(terminal_module, name) is getattr(arguments, name), name
    assert all(hasattr(terminal_module, name) for name in terminal_module.__all__)
