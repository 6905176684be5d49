"""``sevenstud train``'s options, apart from the training code: building the command line's
parser imports only this (every ``sevenstud`` command builds it, and must start quickly)."""

from __future__ import annotations

import argparse
from pathlib import Path

from sevenstud.cfr.population import PAST_EVERY
from sevenstud.games import GAME_CODES, StudHiLo

STUD_GAMES: tuple[str, ...] = GAME_CODES
"""The real games (abstracted: :mod:`sevenstud.cfr.stud_game`)."""
CHECK_GAMES = ("kuhn", "leduc", "ministud")
"""The games where the truth is known, each round's exploitability printed."""
TRAIN_GAMES = STUD_GAMES + CHECK_GAMES


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    """``sevenstud train``'s options."""
    # ``--ray`` is the very option ``sevenstud simulate`` has (one definition, one meaning).
    from sevenstud.sim.cluster import add_ray_argument

    parser.add_argument(
        "--game",
        choices=TRAIN_GAMES,
        default=StudHiLo.code,
        help="the game (kuhn, leduc, ministud: the checks)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        help="seats (2: the heads-up table; 3 to 7: a multiway one, its heads-up ends played by the first)",
    )
    parser.add_argument(
        "--iterations", type=int, default=1000, help="the total to reach (a resumed run counts those done)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="worker processes, or Ray tasks a round with --ray (0: every core, or the Ray cluster's CPUs)",
    )
    parser.add_argument("--batch", type=int, default=200, help="iterations per worker per round")
    add_ray_argument(parser)
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed")
    parser.add_argument(
        "--least-visits",
        type=int,
        default=0,
        metavar="N",
        help="write only the information sets self-play reached about N times or more (0: all)",
    )
    parser.add_argument(
        "--learn-heads-up-ends",
        action="store_true",
        help="a multiway table learns the heads-up ends of its hands too, and the learned bot plays"
        " them by it (default: the heads-up table plays them, in training as at the table)",
    )
    parser.add_argument(
        "--population",
        default="self:1",
        metavar="NAME:WEIGHT,...",
        help="who plays the other seats, drawn each deal by weight: self (the current strategy),"
        " past (a snapshot of the average strategy), maniac, station, and in stud8, stud and razz"
        " the rule, tight and equity bots; e.g. self:0.6,past:0.1,rule:0.1,tight:0.1,maniac:0.1"
        " (default: self-play)",
    )
    parser.add_argument(
        "--past-every",
        type=int,
        default=PAST_EVERY,
        metavar="N",
        help="with past in the population, keep a snapshot of the average strategy every N iterations",
    )
    parser.add_argument(
        "--start-from",
        default=None,
        metavar="FILE",
        help="begin a new run's current strategy at this policy file's table (shipped: the"
        " package's) and go on from its iterations (default: none, a run from nothing)",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        metavar="FILE",
        help="resume from and save to this checkpoint (default: OUT.ckpt)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("policy.json.gz"),
        metavar="FILE",
        help="the policy file to write (its other tables are kept)",
    )
