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

    replay = sub.add_parser("replay", help="replay hand histories (PHH) through our engine")
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.add_argument("--json", action="store_true", help="one JSON object per hand, per line")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "play":
        from sevenstud.terminal import play_command

        return play_command(args)
    if args.command == "replay":
        from sevenstud.history.replay import replay_command

        return replay_command(args)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
