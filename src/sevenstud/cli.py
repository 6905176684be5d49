"""The ``sevenstud`` command: ``play`` (a terminal table against bots) and ``replay`` (hand
histories through our engine). Each subcommand lives in its own module; this one only parses."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sevenstud", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play Stud Hi/Lo in the terminal against bots")
    play.add_argument("--game", choices=["stud8", "stud", "razz"], default="stud8")
    play.add_argument("--bots", type=int, default=4, help="how many bots sit with you (1-7)")
    play.add_argument("--stack", type=int, default=200, help="starting chips for everybody")
    play.add_argument("--stakes", default="1/2/5/10", help="ante/bring-in/small bet/big bet")
    play.add_argument("--seed", type=int, default=None, help="repeatable deals")
    play.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    play.add_argument("--watch", action="store_true", help="bots only: watch them play")

    replay = sub.add_parser(
        "replay", help="replay hand histories (PHH or PokerStars text) through our engine"
    )
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.add_argument("--json", action="store_true", help="one JSON object per hand, per line")

    convert = sub.add_parser("convert", help="convert between PokerStars text and PHH")
    convert.add_argument("input", metavar="IN", help=".txt (PokerStars) or .phh/.phhs (PHH)")
    convert.add_argument("output", metavar="OUT", help="format from the ending, or --to")
    convert.add_argument("--to", choices=["pokerstars", "phh"], default=None)

    show = sub.add_parser("show", help="step through a hand history street by street")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--hand", default=None, help="hand number (#id) or place in file (1..)")

    from sevenstud.equity import add_arguments as add_equity_arguments

    add_equity_arguments(
        sub.add_parser("equity", help="each player's equity, exact or Monte Carlo")
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "play":
        from sevenstud.terminal import play_command

        return play_command(args)
    if args.command == "replay":
        from sevenstud.history.replay import replay_command

        return replay_command(args)
    if args.command == "convert":
        from sevenstud.history.convert import convert_command

        return convert_command(args)
    if args.command == "show":
        from sevenstud.history.show import show_command

        return show_command(args)
    if args.command == "equity":
        from sevenstud.equity import equity_command

        return equity_command(args)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
