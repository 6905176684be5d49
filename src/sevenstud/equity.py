"""Equity: each player's share of the pot over the cards still to come, exact or Monte Carlo.

Give each live player's cards in dealing order (two down, the door card, 4th, 5th and 6th street
up, 7th down), ``??`` for a card you do not know, and the dead cards (folded players' cards that
were seen; ``??`` for the ones that were not, which matters only for counting the deck). All
players must be on the same street, 3rd to 7th. The cards still to come are dealt as the game
deals them: one per player per street, and on 7th street, when the deck cannot give everybody a
card, one community card face up for all (docs/rules.md, "Not enough cards").

Exact when the work is within ``max_outcomes`` (two players: the players' completions and the
sets of cards they share, counted by inclusion-exclusion without listing the deals; more players:
every deal of all players but one, the last one's completions counted the same way, or every deal
when that is less work), otherwise Monte Carlo from a seed, with standard errors. ``device="cuda"``
runs the same kernels on an NVIDIA GPU through CuPy (``pip install 'sevenstud[gpu]'``, or
``'sevenstud[gpu-cuda12]'`` for CUDA 12). Every figure is a fraction
of all outcomes: ``equity`` the share of the pot (a half split two ways is a quarter each),
``scoop`` winning the whole pot alone (hi/lo: both halves outright, or the high outright when no
low qualifies), ``high_win``/``low_win`` the best hand alone, ``high_tie``/``low_tie`` sharing it;
``no_low`` is the chance that nobody's low qualifies. Figures a game does not have are ``None``.

numpy is needed (``pip install sevenstud[fast]``) and imported only when equity is computed.

>>> r = equity(["As 2s 3s 4s 5d 6h 7c", "Kd Kh Kc Qs Qd 9h 9c"], game="stud8")
>>> r.exact, r.outcomes, r.players[0].equity, r.players[1].equity
(True, 1, 0.5, 0.5)
>>> r = equity(["Ah Ad 5c", "Ks Kd 7s"], game="stud", dead="?? ?? 2c", seed=1, trials=20000)
>>> r.exact, r.outcomes, 0.6 < r.players[0].equity < 0.9
(False, 20000, True)
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from sevenstud.cards import CARDS, Card, CardError, format_cards
from sevenstud.games import GAME_CODES, STREET_NAMES, game_class
from sevenstud.refusals import Refusal, Words

DEFAULT_MAX_OUTCOMES = 20_000_000
DEFAULT_TRIALS = 1_000_000
EXACT_MEMORY_LIMIT = 40_000_000  # two players: completion incidences held in memory at once
UNKNOWN = "??"

Progress = Callable[[float], None]
Stop = Callable[[], bool]
HandInput = str | Sequence[int | str | None]


class EquityError(Refusal, ValueError):
    """Input that cannot be a stud position: a card twice, too many cards, too many players..."""


def _given_twice(first: int | str, then: int | str) -> Words:
    """Where one card was given twice (a player by seat, ``"dead"``, ``"community"``), in words
    a client's language says again (:data:`sevenstud.refusals.WORDS`)."""
    if isinstance(first, int):
        if first == then:
            return Words("player {seat} twice", seat=first)
        if isinstance(then, int):
            return Words("player {seat} and player {other}", seat=first, other=then)
        if then == "dead":
            return Words("player {seat} and the dead cards", seat=first)
        return Words("player {seat} and the community card", seat=first)
    if first == then:
        return Words("the dead cards twice")
    return Words("the dead cards and the community card")


class EquityStopped(RuntimeError):
    """``stop`` ended a computation before it had any answer: exact counting (a part of the
    outcomes is no answer), or Monte Carlo before its first block. ``progress`` is the fraction
    that was done."""

    def __init__(self, progress: float) -> None:
        super().__init__(f"stopped at {100 * progress:.0f}% before there was an answer")
        self.progress = progress


@dataclass(frozen=True)
class PlayerEquity:
    """One player's figures, fractions of all outcomes (``None``: the game has no such half).
    The ``*_se`` fields are Monte Carlo standard errors (``None`` when exact)."""

    cards: str
    equity: float
    scoop: float
    high_win: float | None
    high_tie: float | None
    low_win: float | None
    low_tie: float | None
    equity_se: float | None = None
    scoop_se: float | None = None


@dataclass(frozen=True)
class EquityResult:
    """The answer of :func:`equity`: ``outcomes`` is the number of deals counted (exact) or
    drawn (Monte Carlo); ``method`` says how."""

    game: str
    exact: bool
    outcomes: int
    no_low: float | None
    players: tuple[PlayerEquity, ...]
    method: str
    street: int
    community: bool
    seconds: float
    stopped: bool = False
    """Monte Carlo ended by ``stop`` before all its trials: ``outcomes`` is what was drawn."""

    def to_json(self) -> dict[str, Any]:
        """The object ``sevenstud equity --json`` prints."""
        data = asdict(self)
        data["players"] = [asdict(p) for p in self.players]
        return data


@dataclass(frozen=True)
class Position:
    """A checked position: what :func:`equity` hands to the kernels."""

    game: str
    hands: tuple[tuple[Card | None, ...], ...]
    street: int
    known: tuple[tuple[int, ...], ...]
    unknown: tuple[int, ...]
    community: int
    unseen: tuple[int, ...]


# ===============================================================================================
# Parsing and checking
# ===============================================================================================

_TOKEN = re.compile(r"\?\?|10[cdhsCDHS]|[2-9TJQKAtjqka][cdhsCDHS]")


def parse_hand(text: HandInput) -> list[Card | None]:
    """Cards in dealing order, ``None`` for ``??``: ``"As 2s 3s 7h"``, ``"As2s3s7h"``,
    ``"?? ?? 7h"``, or a list of cards, card numbers, strings and ``None``.

    >>> parse_hand("?? ??7h")
    [None, None, 7h]
    """
    if isinstance(text, str):
        cards: list[Card | None] = []
        pos = 0
        while pos < len(text):
            if text[pos] in " ,\t\n[]":
                pos += 1
                continue
            m = _TOKEN.match(text, pos)
            if m is None:
                bad = text[pos:].split()[0]
                raise EquityError("not_a_card", token=repr(bad[:8]), hand=repr(text))
            token = m.group(0)
            cards.append(None if token == UNKNOWN else Card.parse(token))
            pos = m.end()
        return cards
    out: list[Card | None] = []
    for item in text:
        if item is None or item == UNKNOWN:
            out.append(None)
        elif isinstance(item, str):
            try:
                out.append(Card.parse(item))
            except CardError as error:
                raise EquityError(str(error)) from None
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
            out.append(CARDS[item])
        else:
            raise EquityError(f"not a card: {item!r}")
    return out


def format_hand(cards: Iterable[Card | None]) -> str:
    """``"As 2s ?? 7h"``."""
    return " ".join(UNKNOWN if c is None else str(c) for c in cards)


def position(
    hands: Sequence[HandInput],
    *,
    game: str = "stud8",
    dead: HandInput = (),
    community: str | int | None = None,
) -> Position:
    """Check a position and work out what is still to come (see :func:`equity`)."""
    if game not in GAME_CODES:
        raise EquityError("unknown_game", game=repr(game), games=", ".join(GAME_CODES))
    parsed = [parse_hand(h) for h in hands]
    n = len(parsed)
    if not 2 <= n <= 8:
        raise EquityError("player_count", low=2, high=8, count=n)
    streets = [len(p) for p in parsed]
    for seat, count in enumerate(streets):
        if count < 3:
            # The count stands alone (no noun after it): the catalogs translate one template.
            raise EquityError("too_few_cards", seat=seat + 1, count=count)
        if count > 7:
            raise EquityError("too_many_cards_held", seat=seat + 1, count=count)
    if len(set(streets)) > 1:
        counts = ", ".join(str(c) for c in streets)
        raise EquityError("different_streets", counts=counts)
    street = streets[0]
    dead_cards = parse_hand(dead) if dead else []
    shared: Card | None = None
    if community is not None and community != "":
        parsed_community = parse_hand(community if isinstance(community, str) else [community])
        if len(parsed_community) != 1 or parsed_community[0] is None:
            raise EquityError("community_card_unknown", card=repr(community))
        shared = parsed_community[0]
        if street != 6:
            raise EquityError("community_card_street", count=street)
    seen: dict[int, int | str] = {}
    places: list[tuple[int | str, Sequence[int | None]]] = [(i + 1, p) for i, p in enumerate(parsed)]
    places.append(("dead", dead_cards))
    if shared is not None:
        places.append(("community", [shared]))
    for where, cards in places:
        for card in cards:
            if card is None:
                continue
            if card in seen:
                other = seen[card]
                raise EquityError("card_twice", card=card, places=_given_twice(other, where))
            seen[card] = where
    # Count the deck the way the dealer does (docs/rules.md, "Not enough cards").
    dead_count = len(dead_cards)
    left = 52 - n * street - dead_count - (1 if shared is not None else 0)
    if left < 0:
        raise EquityError(
            "too_many_cards", players=n, held=street, dead=dead_count, total=n * street + dead_count
        )
    community_to_come = 0
    if shared is None and street < 7:
        for next_street in range(street + 1, 7):
            left -= n
            if left < 0:
                # next_street is 4 to 6: "th" is every one's ordinal (the catalogs' template)
                raise EquityError("deck_short", street=next_street, players=n)
        if left < n:
            if left < 1:
                raise EquityError("deck_short_seventh", players=n)
            community_to_come = 1
    own_to_come = 0 if street == 7 or shared is not None else (6 - street) + (0 if community_to_come else 1)
    known = tuple(
        tuple(int(c) for c in p if c is not None) + ((int(shared),) if shared is not None else ())
        for p in parsed
    )
    unknown = tuple(sum(c is None for c in p) + own_to_come for p in parsed)
    unseen = tuple(c for c in range(52) if c not in seen)
    if sum(unknown) + community_to_come > len(unseen):  # pragma: no cover - the deck count prevents it
        raise EquityError("deck_empty")
    return Position(game, tuple(tuple(p) for p in parsed), street, known, unknown, community_to_come, unseen)


# ===============================================================================================
# The computation
# ===============================================================================================


def outcome_count(pos: Position) -> int:
    """How many equally likely ways the unknown cards can fall."""
    left = len(pos.unseen)
    total = 1
    for u in pos.unknown:
        total *= math.comb(left, u)
        left -= u
    return total * (left if pos.community else 1)


LAST_PLAYER = "inclusion-exclusion over the last player"


def exact_work(pos: Position) -> tuple[str, int]:
    """The exact method that would be used, and its work (compared with ``max_outcomes``)."""
    from sevenstud.fast.kernels import Deal, heads_up_work, last_player_plan

    deal = Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
    if len(pos.known) == 2 and not pos.community:
        return "inclusion-exclusion", heads_up_work(deal)
    outcomes = outcome_count(pos)
    plan = last_player_plan(deal)
    if plan is not None and plan.work < outcomes:
        return LAST_PLAYER, plan.work
    return "enumeration", outcomes


def equity(
    hands: Sequence[HandInput],
    *,
    game: str = "stud8",
    dead: HandInput = (),
    community: str | int | None = None,
    exact: bool | None = None,
    trials: int | None = None,
    seed: int | None = None,
    max_outcomes: int = DEFAULT_MAX_OUTCOMES,
    progress: Progress | None = None,
    device: str = "cpu",
    stop: Stop | None = None,
) -> EquityResult:
    """Each player's equity and win rates (see the module's documentation).

    ``hands``: per player, their cards in dealing order (``"As 2s 3s 7h"``, ``"?? ?? 7h"``, or a
    list); ``dead``: cards out of play; ``community``: the community card, if 7th street has
    already been dealt that way; ``game``: ``"stud8"``, ``"stud"`` or ``"razz"``.
    ``exact=True`` always enumerates, ``exact=False`` (or ``trials``) always samples, ``None``
    enumerates when the work is at most ``max_outcomes``; ``trials`` and ``seed``: the Monte
    Carlo sample; ``progress`` is called with the fraction done; ``device``: ``"cpu"``, or
    ``"cuda"``: the same kernels on an NVIDIA GPU through CuPy (exact counts identical to the
    CPU's; Monte Carlo from the GPU's own generator, so the same figures within their standard
    errors, not the same draws; a clear error when CuPy or a CUDA device is missing).
    ``stop`` is asked between blocks of work: when it says yes, Monte Carlo ends with the trials
    drawn so far (``stopped`` in its result) and exact counting raises :class:`EquityStopped`
    (as does Monte Carlo stopped before its first block). A caller that must be sure of an end
    (a server's deadline) runs the computation in a process it can kill: one numpy step, or the
    tables built before the first block, is not interrupted.
    """
    started = time.perf_counter()
    if device not in ("cpu", "cuda"):
        raise EquityError(f"unknown device {device!r}: expected cpu or cuda")
    if trials is not None and exact:
        raise EquityError("give either exact or a number of trials, not both")
    if trials is not None and trials < 1:
        raise EquityError(f"the number of trials must be positive, not {trials}")
    pos = position(hands, game=game, dead=dead, community=community)
    from sevenstud.fast import require_numpy

    require_numpy()
    from sevenstud.fast import device as devices
    from sevenstud.fast import kernels

    try:
        be = devices.backend(device)
    except devices.DeviceError as error:
        raise EquityError(str(error)) from None

    deal = kernels.Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
    method, work = exact_work(pos)

    def told(fraction: float) -> None:
        # Exact counting stops here, between its blocks: the kernels report progress after each.
        if stop is not None and stop():
            raise EquityStopped(fraction)
        if progress is not None:
            progress(fraction)

    use_exact = exact if exact is not None else (trials is None and work <= max_outcomes)
    if use_exact:
        if method == "inclusion-exclusion" and work > EXACT_MEMORY_LIMIT:
            raise EquityError(
                "exact_too_much_memory", work=f"{work:,}", limit=f"{EXACT_MEMORY_LIMIT:,}"
            )
        sizes = [*pos.unknown, *([1] if pos.community else [])]
        last = math.comb(len(pos.unseen) - sum(sizes[:-1]), sizes[-1])
        if method == "enumeration" and last > kernels.PATTERN_ROWS * 8:
            raise EquityError(
                "exact_too_many_ways", ways=f"{last:,}"
            )
        if stop is not None and stop():
            raise EquityStopped(0.0)
        watch = told if stop is not None else progress
        if method == "inclusion-exclusion":
            counts = kernels.heads_up_exact(deal, watch, be)
        elif method == LAST_PLAYER:
            counts = kernels.last_player_exact(deal, watch, be)
        else:
            counts = kernels.enumerate_exact(deal, watch, be)
        if counts.total != outcome_count(pos):  # pragma: no cover - a kernel bug
            raise AssertionError(f"counted {counts.total} outcomes, expected {outcome_count(pos)}")
    else:
        method = "monte-carlo"
        wanted = trials or DEFAULT_TRIALS
        counts = kernels.monte_carlo(deal, wanted, seed, progress, be, stop)
        if int(counts.total) == 0:
            raise EquityStopped(0.0)
        if int(counts.total) < wanted:
            result = _result(pos, counts, False, method, time.perf_counter() - started)
            return replace(result, stopped=True)
    if progress is not None:
        progress(1.0)
    return _result(pos, counts, use_exact, method, time.perf_counter() - started)


def _result(pos: Position, counts: Any, exact: bool, method: str, seconds: float) -> EquityResult:
    total = int(counts.total)
    game = pos.game
    variant = game_class(game)  # position() has checked it is one of GAME_CODES
    has_high, has_low = variant.has_high, variant.has_low

    def frac(x: int) -> float:
        return x / total

    def se(p: float) -> float | None:
        return None if exact else math.sqrt(max(p * (1 - p), 0.0) / total)

    players = []
    for i, cards in enumerate(pos.hands):
        eq = counts.equity[i] / (total * 1680)
        eq_se = None
        if not exact:
            mean_sq = counts.equity_sq[i] / (total * 1680 * 1680)
            eq_se = math.sqrt(max(mean_sq - eq * eq, 0.0) / total)
        scoop = frac(counts.scoop[i])
        players.append(
            PlayerEquity(
                cards=format_hand(cards),
                equity=eq,
                scoop=scoop,
                high_win=frac(counts.high_win[i]) if has_high else None,
                high_tie=frac(counts.high_tie[i]) if has_high else None,
                low_win=frac(counts.low_win[i]) if has_low else None,
                low_tie=frac(counts.low_tie[i]) if has_low else None,
                equity_se=eq_se,
                scoop_se=se(scoop),
            )
        )
    # Razz always has a low; stud has no low half at all.
    no_low = frac(counts.no_low) if variant.split else (0.0 if has_low else None)
    return EquityResult(
        game=game,
        exact=exact,
        outcomes=total,
        no_low=no_low,
        players=tuple(players),
        method=method,
        street=pos.street,
        community=bool(pos.community),
        seconds=seconds,
    )


# ===============================================================================================
# The command line
# ===============================================================================================


def _percent(x: float | None) -> str:
    return "     -" if x is None else f"{100 * x:6.2f}"


def format_table(result: EquityResult) -> str:
    """The readable table ``sevenstud equity`` prints."""
    how = (
        "exact"
        if result.exact
        else "Monte Carlo, standard error of equity about "
        f"{100 * max(p.equity_se or 0 for p in result.players):.2f} points"
    )
    lines = [
        f"{game_class(result.game).name}, {STREET_NAMES[result.street]}: {result.outcomes:,} outcomes ({how};"
        f" {result.method}, {result.seconds:.2f} s)"
        + ("; 7th street: a community card" if result.community else "")
    ]
    width = max(5, *(len(p.cards) for p in result.players))
    lines.append(
        f"{'hand':<{width}}  "
        + "  ".join(f"{title:>6}" for title in ("equity", "scoop", "hi win", "hi tie", "lo win", "lo tie"))
    )
    for p in result.players:
        lines.append(
            f"{p.cards:<{width}}  {_percent(p.equity)}  {_percent(p.scoop)}  {_percent(p.high_win)}  "
            f"{_percent(p.high_tie)}  {_percent(p.low_win)}  {_percent(p.low_tie)}"
        )
    if game_class(result.game).split and result.no_low is not None:
        lines.append(f"no qualifying low: {100 * result.no_low:.2f}%")
    lines.append("(percent of all outcomes)")
    return "\n".join(lines)


class _Bar:
    """A progress bar on a terminal's stderr, shown once a run has lasted half a second."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.started = time.perf_counter()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, fraction: float) -> None:
        now = time.perf_counter()
        elapsed = now - self.started
        if elapsed < 0.5 or (now - self.drawn < 0.1 and fraction < 1.0):
            return
        self.shown = True
        self.drawn = now
        filled = int(30 * min(1.0, fraction))
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {100 * fraction:5.1f}%  {elapsed:6.1f} s")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def equity_command(args: Any) -> int:
    """``sevenstud equity``: see ``sevenstud equity --help``."""
    import json
    import sys

    bar = _Bar(sys.stderr) if not args.no_progress and sys.stderr.isatty() else None
    try:
        result = equity(
            args.hands,
            game=args.game,
            dead=args.dead or (),
            community=args.community,
            exact=True if args.exact else (False if args.trials else None),
            trials=args.trials,
            seed=args.seed,
            max_outcomes=args.max_outcomes,
            progress=bar,
            device=args.device,
        )
    except (EquityError, CardError, ImportError) as error:
        if bar is not None:
            bar.close()
        print(f"sevenstud equity: {error}", file=sys.stderr)
        return 2
    if bar is not None:
        bar.close()
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_table(result))
    return 0


def add_arguments(parser: Any) -> None:
    """The ``sevenstud equity`` options (called by :mod:`sevenstud.cli`): counts and seeds are
    checked as they are parsed, so a negative seed or trial count is a one-line usage error."""
    from sevenstud.arguments import SEED, whole_number

    parser.add_argument(
        "hands",
        nargs="+",
        metavar="HAND",
        help="a player's known cards in dealing order, e.g. 'As 2s 3s 7h' or As2s3s7h;"
        " ?? for an unknown card",
    )
    parser.add_argument("--game", choices=list(GAME_CODES), default="stud8", help="the game")
    parser.add_argument(
        "--dead",
        default=None,
        metavar="CARDS",
        help="cards out of play (folded cards; ?? for unseen ones) (default: none)",
    )
    parser.add_argument(
        "--community",
        default=None,
        metavar="CARD",
        help="the community card, when 7th street was dealt as one (default: none)",
    )
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every outcome, however many")
    how.add_argument(
        "--trials",
        type=whole_number("the number of trials", least=1),
        default=None,
        metavar="N",
        help=f"Monte Carlo with N random outcomes (default: exact when --max-outcomes allows,"
        f" else {DEFAULT_TRIALS:,} trials)",
    )
    parser.add_argument(
        "--seed", type=SEED, default=None, help="Monte Carlo seed, repeatable (default: a fresh one)"
    )
    parser.add_argument(
        "--max-outcomes",
        type=whole_number("the outcome limit"),
        default=DEFAULT_MAX_OUTCOMES,
        metavar="N",
        help="enumerate when the work is at most N, else Monte Carlo",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "--device",
        choices=["cpu", "cuda"],
        default="cpu",
        help="cuda: the same kernels on an NVIDIA GPU through CuPy (pip install 'sevenstud[gpu]', or"
        " 'sevenstud[gpu-cuda12]' for CUDA 12); exact counts identical to the CPU's",
    )


__all__ = [
    "EquityError",
    "EquityResult",
    "EquityStopped",
    "PlayerEquity",
    "Position",
    "equity",
    "format_cards",
    "format_table",
    "parse_hand",
    "position",
]
