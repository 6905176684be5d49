"""``sevenstud simulate``: a duplicate match between bots from the command line.

sevenstud simulate tight rule --deals 5000 --seed 1 --chart match.png
sevenstud simulate equity rule --seats 6 --ray            # a local Ray instance
sevenstud simulate lbr rule --deals 200                   # a local best response vs the rule bot
"""

from __future__ import annotations

import json
import sys
from typing import Any

from sevenstud.sim.core import LBR, Matchup, SimulationError
from sevenstud.sim.runner import ENGINES, progress_bar, simulate


def add_arguments(parser: Any) -> None:
    """The ``sevenstud simulate`` options (called by :mod:`sevenstud.cli`)."""
    from sevenstud.arguments import SEED, stakes_type, whole_number
    from sevenstud.bots.registry import MATCH_KINDS
    from sevenstud.games import GAME_CODES
    from sevenstud.sim.cluster import add_ray_argument

    parser.add_argument(
        "bots",
        nargs="+",
        metavar="KIND",
        help=f"the bots, one kind a seat ({', '.join([*MATCH_KINDS, LBR])}); --seats repeats them",
    )
    parser.add_argument("--game", choices=list(GAME_CODES), default="stud8", help="the game")
    parser.add_argument(
        "--seats",
        type=whole_number("the number of seats", least=2, most=8),
        default=None,
        metavar="N",
        help="seat this many bots, the kinds given taken in turn (default: one a kind given)",
    )
    parser.add_argument(
        "--deals",
        type=whole_number("the number of deals", least=2),
        default=1000,
        metavar="N",
        help="decks to play, each once for every rotation of the seats (hands = deals x seats)",
    )
    parser.add_argument("--seed", type=SEED, default=0, metavar="N", help="the seed of every deck and bot")
    parser.add_argument(
        "--stakes",
        type=stakes_type,
        default="1/2/5/10",
        metavar="A/B/S/B",
        help="ante/bring-in/small bet/big bet",
    )
    parser.add_argument(
        "--stack-bets",
        type=whole_number("the stack", least=1),
        default=50,
        metavar="N",
        help="every seat's stack at the start of each hand, in big bets",
    )
    parser.add_argument(
        "--no-luck",
        action="store_true",
        help="report the results as dealt only (duplicate deals, no luck correction: no numpy needed)",
    )
    parser.add_argument(
        "--workers",
        type=whole_number("the number of worker processes", least=1),
        default=None,
        metavar="N",
        help="worker processes (default: one a core)",
    )
    add_ray_argument(parser)
    parser.add_argument(
        "--engine",
        choices=list(ENGINES),
        default="auto",
        help="the engine the workers run: the compiled build when one made from these sources is"
        " found (auto), the pure one, or the compiled one or an error",
    )
    parser.add_argument(
        "--compiled", default=None, metavar="DIR", help="the compiled build (default: build/compiled)"
    )
    parser.add_argument(
        "--rollouts",
        type=whole_number("the rollouts", least=1),
        default=12,
        metavar="N",
        help="a local best response's rollouts per action",
    )
    parser.add_argument(
        "--chart", default=None, metavar="PNG", help="draw the cumulative results here (default: no chart)"
    )
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def simulate_command(args: Any) -> int:
    """``sevenstud simulate``: see ``sevenstud simulate --help``."""
    kinds = list(args.bots)
    seats = args.seats or len(kinds)
    players = tuple(kinds[i % len(kinds)] for i in range(seats))
    stakes = args.stakes
    try:
        matchup = Matchup(
            players,
            game=args.game,
            seed=args.seed,
            stakes=(stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet),
            stack_bets=args.stack_bets,
            luck=not args.no_luck,
            lbr_rollouts=args.rollouts,
        )
        matchup.check()
        if matchup.luck:
            try:
                import numpy  # noqa: F401
            except ImportError:
                raise SimulationError(
                    "the luck correction needs numpy (pip install 'sevenstud[sim]'), or use --no-luck"
                ) from None
        tell, close = progress_bar(args.deals * seats, not args.quiet and sys.stderr.isatty())
        try:
            result = simulate(
                matchup,
                args.deals,
                workers=args.workers,
                ray=args.ray,
                engine=args.engine,
                compiled=args.compiled,
                progress=tell,
            )
        finally:
            close()
        if args.chart:
            from sevenstud.sim.chart import write_chart

            write_chart(result, args.chart)
    except SimulationError as error:
        print(f"sevenstud simulate: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result)
        if args.chart:
            print(f"chart: {args.chart}")
    return 0
