"""The ``sevenstud`` command as a user meets it: ``--version``, ``python -m sevenstud``, help that
lists every command and shows defaults, and one line (never a traceback) for a bad argument, a
closed pipe, Ctrl-C and a file that cannot be read or written."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest

from sevenstud import __version__, cli

PROGRAM = Path(sys.executable).with_name("sevenstud")
COMMAND = [str(PROGRAM)] if PROGRAM.exists() else [sys.executable, "-m", "sevenstud"]


def run(*argv: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *argv], input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )


def one_line_error(result: subprocess.CompletedProcess[str], command: str) -> str:
    """The single stderr line of a failed command, checked for its shape."""
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"sevenstud {command}: "), lines[0]
    return lines[0]


def test_version_comes_from_the_package_metadata() -> None:
    assert __version__ == version("sevenstud")
    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"sevenstud {__version__}"


def test_python_dash_m_runs_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sevenstud", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and result.stdout.strip() == f"sevenstud {__version__}"
    bare = subprocess.run([sys.executable, "-m", "sevenstud"], capture_output=True, text=True, check=False)
    assert bare.returncode == 2 and "commands:" in bare.stdout and not bare.stderr


def test_top_level_help_lists_every_command() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in cli.COMMANDS:
        assert f"    {command} " in result.stdout, command
    subparsers = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(subparsers.choices) == set(cli.COMMANDS)


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_every_help_shows_the_defaults(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    subparsers = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = subparsers.choices[command]
    # A command of verbs (`sevenstud admin create|grant|...`): each verb's help, in its turn.
    verbs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {verb: [command, verb] for verb in verbs[0].choices} if verbs else {None: [command]}
    checked = 0
    for verb, argv in helps.items():
        assert cli.main([*argv, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere
        own = verbs[0].choices[verb] if verbs else parser
        options = [a for a in own._actions if a.option_strings and a.dest != "help"]
        for action in options:
            checked += 1
            assert action.help, f"{' '.join(argv)} {action.option_strings[0]} has no help"
            if action.default is None or action.default is False:
                assert "default:" in action.help or action.const is True, action.option_strings
            else:
                assert f"(default: {action.default})" in text, action.option_strings
    assert checked


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["play", "--seed", "-1"], "--seed: a seed must be 0 or more, not -1"),
        (["play", "--bots", "0"], "--bots: the number of bots must be 1 to 7, not 0"),
        (["play", "--bots", "8"], "--bots: the number of bots must be 1 to 7, not 8"),
        (["play", "--hands", "0"], "--hands: the number of hands must be 1 or more, not 0"),
        (["play", "--hands", "-3"], "--hands: the number of hands must be 1 or more, not -3"),
        (["play", "--stack", "ten"], "--stack: the stack must be a whole number, not 'ten'"),
        (["play", "--stakes", "5/2/1/10"], "--stakes: bad stakes '5/2/1/10'"),
        (["play", "--stakes", "1/2/5"], "--stakes: bad stakes '1/2/5'"),
        (["equity", "--seed", "-2", "As 2s 3s", "Kd Kh Qc"], "--seed: a seed must be 0 or more, not -2"),
        (["equity", "--trials", "0", "As 2s 3s", "Kd Kh Qc"], "--trials: the number of trials must be 1"),
        (["equity", "--trials", "-5", "As 2s 3s", "Kd Kh Qc"], "--trials: the number of trials must be 1"),
        (["equity", "--max-outcomes", "-1", "As", "Kd"], "--max-outcomes: the outcome limit must be 0 or"),
        (["play", "--game", "holdem"], "--game: invalid choice: 'holdem'"),
        (["deal"], "invalid choice: 'deal'"),
    ],
)
def test_bad_arguments_are_one_line(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == cli.EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and problem in err, err
    assert err.startswith("sevenstud") and "--help)" in err


def test_a_closed_pipe_ends_quietly_with_141() -> None:
    # `sevenstud play --watch | head -1`: the reader goes away after one line.
    process = subprocess.Popen(
        [*COMMAND, "play", "--watch", "--hands", "500", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"Seven Card Stud Hi/Lo")
    process.stdout.close()
    assert process.wait(timeout=120) == cli.EXIT_BROKEN_PIPE
    assert process.stderr.read() == b""  # no traceback, no "Exception ignored" at exit


def _interrupt(argv: list[str], ready: bytes, stdin: int | None = None) -> tuple[int, str]:
    """Start ``sevenstud argv``, wait for ``ready`` on stdout, press Ctrl-C: (status, stderr)."""
    process = subprocess.Popen(
        [*COMMAND, *argv],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # Ctrl-C must reach the child as the default SIGINT, whatever the test runner ignores.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None and process.stderr is not None
    seen = b""
    while ready not in seen:
        chunk = process.stdout.read1(4096)  # type: ignore[attr-defined]
        assert chunk, seen
        seen += chunk
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    try:
        status = process.wait(timeout=60)
    finally:
        process.kill()
    return status, process.stderr.read().decode()


def test_ctrl_c_at_the_table_exits_130() -> None:
    status, err = _interrupt(["play", "--bots", "2", "--seed", "1"], b" > ", stdin=subprocess.PIPE)
    assert status == cli.EXIT_INTERRUPTED
    assert "Traceback" not in err and err.strip() == "sevenstud play: interrupted"


def _cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (Linux's /proc; wall time elsewhere, by sleeping)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        time.sleep(3)
        return float("inf")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_in_a_long_equity_exits_130() -> None:
    argv = ["equity", "--trials", "2000000000", "--no-progress", "--seed", "1", "As 2s 3s", "Kd Kh Qc"]
    process = subprocess.Popen(
        [*COMMAND, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Inside the Monte Carlo loop (it runs for minutes) once it has used more CPU than its start
    # (imports and parsing, about 1.5 s): counted in CPU time, not wall time, which a busy
    # machine stretches past any fixed sleep (the interrupt then came before the command was
    # known, "sevenstud: interrupted").
    deadline = time.monotonic() + 60
    while _cpu_seconds(process.pid) < 3.0 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    try:
        status = process.wait(timeout=60)
    finally:
        process.kill()
    assert process.stderr is not None
    err = process.stderr.read().decode()
    assert status == cli.EXIT_INTERRUPTED, err
    assert "Traceback" not in err and err.strip().endswith("sevenstud equity: interrupted")


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (FileNotFoundError(2, "No such file or directory", "x.txt"), "x.txt: no such file or directory"),
        (IsADirectoryError(21, "Is a directory", "out"), "out: is a directory"),
        (PermissionError(13, "Permission denied", "/root/x"), "/root/x: permission denied"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "not a text file"),
        (ValueError("bad hand\nmore detail"), "bad hand"),
    ],
)
def test_an_error_that_reaches_the_top_is_one_line(
    error: Exception, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setattr(cli, "_run", failing)
    assert cli.main(["replay", "some.txt"]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert err == f"sevenstud replay: {expected}\n" or (
        err.startswith(f"sevenstud replay: {expected}") and err.count("\n") == 1
    ), err


def test_a_broken_pipe_inside_a_command_is_141(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(args: argparse.Namespace) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "_run", failing)
    assert cli.main(["replay", "some.txt"]) == cli.EXIT_BROKEN_PIPE
    assert capsys.readouterr().err == ""


def test_a_keyboard_interrupt_inside_a_command_is_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_run", failing)
    assert cli.main(["show", "some.txt"]) == cli.EXIT_INTERRUPTED
    assert capsys.readouterr().err.strip() == "sevenstud show: interrupted"


SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "hh"
SAMPLE = SHARED / "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.Cardtest.txt"


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """A copy, in a temporary folder, of one real hand (the shared folder is never written to)."""
    if not SAMPLE.exists():
        pytest.skip(f"the shared hand histories are not here ({SAMPLE})")
    source = tmp_path / "in.txt"
    source.write_bytes(SAMPLE.read_bytes())
    return source


def test_files_that_cannot_be_used_are_one_line(history: Path, tmp_path: Path) -> None:
    binary = tmp_path / "hands.txt"
    binary.write_bytes(b"\x7fELF\x00\x01\x02" * 100)
    cases = [
        (["replay", str(binary)], "replay"),
        (["show", str(binary)], "show"),
        (["show", str(tmp_path)], "show"),
        (["show", str(tmp_path / "missing.txt")], "show"),
        (["convert", str(history), str(tmp_path)], "convert"),
        (["convert", str(history), str(tmp_path / "no" / "such" / "out.txt")], "convert"),
        (["convert", str(history), str(history)], "convert"),
        (["convert", str(history), str(tmp_path / "out.xyz")], "convert"),
    ]
    for argv, command in cases:
        result = run(*argv)
        assert result.returncode != 0, argv
        assert "Traceback" not in result.stderr, (argv, result.stderr)
        assert f"sevenstud {command}: " in result.stderr, (argv, result.stderr)
    assert history.read_bytes() == SAMPLE.read_bytes()  # the input was not written over
