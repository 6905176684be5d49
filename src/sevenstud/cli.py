"""The ``sevenstud`` command: ``play`` (a terminal table against bots), ``replay``, ``convert``
and ``show`` (hand histories: PHH, PokerStars, Full Tilt and Americas Cardroom text) and
``equity``. Each command lives in its own module; this one parses the arguments and turns
whatever goes wrong into one line on stderr and a non-zero exit status, never a traceback:

* a reader that goes away (``sevenstud replay F | head``): exit 141, as a shell reports SIGPIPE;
* Ctrl-C: ``sevenstud <command>: interrupted`` and exit 130;
* a file that cannot be read or written, or that is not text: ``sevenstud <command>: <why>``
  and exit 1;
* an argument that makes no sense (a negative seed, 9 bots, stakes ``5/2/1/10``): exit 2.

>>> build_parser().parse_args(["play", "--bots", "2"]).bots
2
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from sevenstud.arguments import SEED, network, stakes_type, whole_number

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell shows for a program whose reader left
EXIT_INTERRUPTED = 130  # 128 + SIGINT

COMMANDS = (
    *("play", "replay", "convert", "show", "equity", "simulate", "train"),
    *("serve", "audit", "backup", "restore", "admin"),
)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` with each option's default, except where there is none to show (``None`` or an
    off switch): those options say in words what happens without them."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: ``sevenstud play: --bots: must be 1
    to 7, not 9 (see sevenstud play --help)``, exit status 2."""

    def error(self, message: str) -> NoReturn:
        message = message.removeprefix("argument ")
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


# ---------------------------------------------------------------------- argument types


class CommandError(ValueError):
    """A command that cannot run here (e.g. an extra it needs is not installed)."""


# ---------------------------------------------------------------------- the parser


def build_parser() -> argparse.ArgumentParser:
    """The ``sevenstud`` parser with every command."""
    from sevenstud import __version__
    from sevenstud.games import GAME_CODES
    from sevenstud.hand import MAX_PLAYERS

    parser = Parser(
        prog="sevenstud",
        description="Seven Card Stud Hi/Lo, Stud and Razz: play against bots, replay and convert "
        "hand histories, compute equities.",
        epilog="'sevenstud COMMAND --help' shows a command's options and their defaults.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"sevenstud {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")

    def command(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=help, formatter_class=HelpFormatter)

    from sevenstud.bots.registry import BOT_KINDS, DEFAULT_KIND

    play = command("play", "play stud in the terminal against bots (q quits)")
    play.add_argument("--game", choices=list(GAME_CODES), default="stud8", help="the game")
    play.add_argument(
        "--bots",
        type=whole_number("the number of bots", least=1, most=MAX_PLAYERS - 1),
        default=4,
        metavar="N",
        help=f"how many bots sit with you (1-{MAX_PLAYERS - 1})",
    )
    play.add_argument(
        "--stack",
        type=whole_number("the stack", least=1),
        default=200,
        metavar="CHIPS",
        help="starting chips for everybody (and the rebuy of a player who goes broke)",
    )
    play.add_argument(
        "--stakes",
        type=stakes_type,
        default="1/2/5/10",
        metavar="A/B/S/B",
        help="ante/bring-in/small bet/big bet",
    )
    play.add_argument(
        "--seed", type=SEED, default=None, metavar="N", help="repeatable deals (default: a new shuffle)"
    )
    play.add_argument(
        "--hands",
        type=whole_number("the number of hands", least=1),
        default=None,
        metavar="N",
        help="stop after this many hands (default: until you quit)",
    )
    play.add_argument("--watch", action="store_true", help="bots only: watch them play")
    play.add_argument(
        "--lang",
        choices=["en", "uk", "ru", "et"],
        default=None,
        help="the table's language (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG; else English)",
    )
    play.add_argument(
        "--bot-kind",
        choices=list(BOT_KINDS),
        default=DEFAULT_KIND,
        help="which bots sit with you: " + " ".join(f"{k.name}: {k.description}" for k in BOT_KINDS.values()),
    )

    replay = command(
        "replay", "replay hand histories (PHH, PokerStars, Full Tilt or ACR text) through our engine"
    )
    replay.add_argument("files", nargs="+", metavar="FILE", help="hand history files")
    replay.add_argument("--json", action="store_true", help="one JSON object per hand, per line")

    convert = command("convert", "convert hand histories between PHH, PokerStars, Full Tilt and ACR text")
    convert.add_argument("input", metavar="IN", help="PHH (.phh, .phhs), PokerStars, Full Tilt or ACR text")
    convert.add_argument("output", metavar="OUT", help="the file to write (format from its ending, or --to)")
    from sevenstud.history.convert import FORMATS

    convert.add_argument(
        "--to",
        choices=list(FORMATS),
        default=None,
        help="the format to write (default: from OUT's ending)",
    )
    convert.add_argument(
        "--hero",
        default=None,
        metavar="NAME",
        help="write PokerStars text from this player's point of view"
        " (default: the source's hero, else an observer)",
    )
    kind = convert.add_mutually_exclusive_group()
    kind.add_argument(
        "--tournament",
        nargs="?",
        const="",
        default=None,
        metavar="NUMBER",
        help="write every hand as a tournament hand, under this number (default: its own, else one"
        " derived from its PHH event or the file's name); hands whose PHH event names a tournament,"
        " a series event, a day or a championship are written so anyway",
    )
    kind.add_argument(
        "--ring",
        action="store_true",
        help="write every hand as a ring game, even at limits the card room's ring games never had"
        " (refused without it)",
    )
    convert.add_argument(
        "--fill-unknown",
        action="store_true",
        help="write text even for hands whose up cards the source never showed (a PHH ??), with"
        " the cards the replay fills in; said on stderr (refused without it)",
    )

    show = command(
        "show", "step through a hand history (PHH, PokerStars, Full Tilt or ACR text) street by street"
    )
    show.add_argument("file", metavar="FILE", help="a hand history file")
    show.add_argument(
        "--hand", default=None, help="hand number (#id) or place in the file (1..) (default: the first)"
    )

    from sevenstud.equity import add_arguments as add_equity_arguments

    add_equity_arguments(command("equity", "each player's equity, exact or Monte Carlo"))

    from sevenstud.sim.command import add_arguments as add_simulate_arguments

    add_simulate_arguments(
        command("simulate", "a duplicate match between bots: their results in mSB a hand, with intervals")
    )

    database_help = (
        "a SQLite file path or a postgresql:// URL"
        " (default: a SQLite file under $XDG_DATA_HOME/sevenstud, printed at start)"
    )
    serve = command("serve", "run the card room server (needs the server extra)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument(
        "--port", type=whole_number("the port", least=1, most=65535), default=8000, help="the port"
    )
    serve.add_argument("--database", default=None, metavar="URL", help=database_help)
    serve.add_argument(
        "--public-url",
        "--advertise",
        dest="public_url",
        default=None,
        metavar="URL",
        help="this server's address as clients reach it, told by the lobby (default: http://HOST:PORT)",
    )
    serve.add_argument(
        "--lease-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="how long a table's lease lasts unrenewed: a dead server's tables move after at most this",
    )
    from sevenstud.server.study.limits import add_arguments as add_equity_limits

    add_equity_limits(serve)  # --equity-jobs, --equity-seconds, ... (docs/security.md, "Equity jobs")
    serve.add_argument(
        "--limit",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="change one of the card room's limits, repeatable"
        " (default: each limit's own, listed in docs/security.md)",
    )
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        default=None,
        metavar="ADDRESS",
        help="a proxy in front whose X-Forwarded-Proto and X-Forwarded-For are believed, repeatable"
        " (default: none, and those headers are ignored)",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=None,
        metavar="HOST[:PORT]",
        help="another name this server answers to, repeatable (default: the public URL's host, the address"
        " bound, and any loopback name when served on loopback)",
    )
    serve.add_argument(
        "--allowed-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="another site whose pages may use this server, e.g. https://example.org, repeatable"
        " (default: this server's own origin only)",
    )
    serve.add_argument(
        "--api-docs", action="store_true", help="serve /docs and /redoc (they load scripts from a CDN)"
    )
    serve.add_argument(
        "--metrics-from",
        action="append",
        type=network,
        default=None,
        metavar="ADDRESS",
        help="an address or network (e.g. 10.0.0.0/8) that may read /metrics; repeat for more"
        " (default: none)",
    )
    serve.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="the server's log lines: plain text, or one JSON object a line",
    )
    serve.add_argument(
        "--pause",
        type=float,
        default=3.0,
        metavar="S",
        help="seconds between one hand's end and the next deal (the tests play hands back to back)",
    )
    serve.add_argument(
        "--bot-think",
        default=None,
        metavar="S|MIN-MAX",
        help="a bot's thinking time at a table with a person, drawn afresh for each action"
        " (default: 0.8-2.5 seconds; 0: none; bots alone and unwatched never wait)",
    )
    audit = command("audit", "check the card room's ledger and replay its stored hands")
    audit.add_argument("--database", default=None, metavar="URL", help=database_help)
    backup = command("backup", "copy the card room's SQLite database while it serves, and audit the copy")
    backup.add_argument("path", metavar="PATH", help="the new file to write (never overwritten)")
    backup.add_argument("--database", default=None, metavar="URL", help=database_help)
    restore = command("restore", "put a backup in place of the card room's SQLite database (stopped)")
    restore.add_argument("path", metavar="PATH", help="a file written by sevenstud backup")
    restore.add_argument("--database", default=None, metavar="URL", help=database_help)
    from sevenstud.server.operators.command import add_arguments as add_admin_arguments

    add_admin_arguments(
        command("admin", "the room's operators: create, grant, revoke, token, prune-guests"), database_help
    )
    from sevenstud.cfr.arguments import add_train_arguments

    add_train_arguments(command("train", "train the learned bot's policy by Monte Carlo CFR (resumable)"))
    return parser


# ---------------------------------------------------------------------- running a command


def _run(args: argparse.Namespace) -> int:
    if args.command == "play":
        from sevenstud.terminal import play_command

        return play_command(args)
    if args.command == "replay":
        from sevenstud.history.replay_files import replay_command

        return replay_command(args)
    if args.command == "convert":
        from sevenstud.history.convert import convert_command

        return convert_command(args)
    if args.command == "train":
        from sevenstud.cfr.train import train_command

        return train_command(args)
    if args.command == "show":
        from sevenstud.history.show import show_command

        return show_command(args)
    if args.command in ("serve", "audit", "backup", "restore", "admin"):
        try:
            from sevenstud.server.app import serve_command
            from sevenstud.server.audit import audit_command
            from sevenstud.server.operators.command import admin_command
            from sevenstud.server.store.backup import backup_command, restore_command
        except ImportError as error:
            raise CommandError(
                f"the card room needs the server extra (pip install 'sevenstud[server]'): {error}"
            ) from None
        commands = {
            "serve": serve_command,
            "audit": audit_command,
            "backup": backup_command,
            "restore": restore_command,
            "admin": admin_command,
        }
        return commands[args.command](args)
    if args.command == "simulate":
        from sevenstud.sim.command import simulate_command

        return simulate_command(args)
    from sevenstud.equity import equity_command

    return equity_command(args)


def _stdout_to_devnull() -> None:
    """Python's documented way out of a closed pipe: point stdout at devnull, so that the
    interpreter's last flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout is no real file (a test's capture): nothing will be flushed to a pipe


def describe_error(error: BaseException) -> str:
    """One line for an error that reached the top: the file and the reason for an ``OSError``.

    >>> describe_error(FileNotFoundError(2, "No such file or directory", "x.phh"))
    'x.phh: no such file or directory'
    >>> describe_error(IsADirectoryError(21, "Is a directory", "out"))
    'out: is a directory'
    """
    if isinstance(error, UnicodeDecodeError):
        return f"not a text file (a binary file?): byte {error.start} cannot be read as {error.encoding}"
    if isinstance(error, OSError) and error.strerror:
        reason = error.strerror[:1].lower() + error.strerror[1:]
        return f"{error.filename}: {reason}" if error.filename is not None else reason
    text = str(error).splitlines()
    return text[0] if text and text[0] else type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sevenstud`` with ``argv`` (the process's arguments by default); the exit status."""
    prog = "sevenstud"
    try:
        parser = build_parser()
        if argv is None:
            argv = sys.argv[1:]
        if not argv:  # a bare `sevenstud` (or `python -m sevenstud`): what there is to do
            parser.print_help()
            return EXIT_USAGE
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help, --version or a usage error (already printed)
            return done.code if isinstance(done.code, int) else EXIT_USAGE
        prog = f"sevenstud {args.command}"
        status = _run(args)
        sys.stdout.flush()  # inside the guard: a closed pipe shows up here at the latest
        return status
    except BrokenPipeError:
        _stdout_to_devnull()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        print(f"{prog}: {describe_error(error)}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
