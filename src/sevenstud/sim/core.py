"""One simulated match, deal by deal: what every process, pool or Ray task runs.

A :class:`Matchup` names the bots (one kind a seat, 2 to 8 seats), the game, the stakes and the
seed. Deal ``d`` is one deck (``Deck.seeded(f"sim-{seed}-{d}")``) played once for every rotation
of the seats, so that each bot holds every seat's cards once (duplicate deals). Everything a
deal uses is derived from ``(seed, d)`` alone (the deck, each bot's seed, the luck estimates'
seeds), so a deal gives the same figures in any process, in any order: :func:`play_deals` of a
block of deals is all a worker does, and the figures are summed in deal order afterwards
(:func:`summarize`).

>>> m = Matchup(("tight", "station"), seed=1, luck=False)
>>> [r.dealt for r in play_deals(m, 0, 2)] == [r.dealt for r in play_deals(m, 0, 1) + play_deals(m, 1, 2)]
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sevenstud.bots.base import Bot
from sevenstud.bots.registry import MATCH_KINDS, new_bot
from sevenstud.deck import Deck
from sevenstud.games import GAMES, Game, Stakes
from sevenstud.hand import Hand

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
LBR = "lbr"
"""The local best response's name among the players (:mod:`sevenstud.sim.lbr`)."""


class SimulationError(ValueError):
    """A match that cannot be played: an unknown bot or game, a wrong number of seats or deals."""


@dataclass(frozen=True, slots=True)
class Matchup:
    """What is played: ``players`` (a bot kind of :data:`~sevenstud.bots.registry.MATCH_KINDS`, or
    ``"lbr"``, per seat before the rotations), the game's code, the stakes (ante, bring-in, small
    bet, big bet), every seat's stack at the start of each hand in big bets, the seed, and
    whether the dealt results are corrected for the luck of the cards (:mod:`sevenstud.sim.luck`,
    needs numpy). Bots of the same kind are one entry in the results."""

    players: tuple[str, ...]
    game: str = "stud8"
    seed: int = 0
    stakes: tuple[int, int, int, int] = (1, 2, 5, 10)
    stack_bets: int = 50
    luck: bool = True
    lbr_rollouts: int = 12
    """Rollouts per action of a local best response seat (:mod:`sevenstud.sim.lbr`)."""

    def check(self) -> None:
        """Refuse, naming what is wrong, a match that cannot be played."""
        if not 2 <= len(self.players) <= 8:
            raise SimulationError(f"a match is for 2 to 8 seats, not {len(self.players)}")
        for kind in self.players:
            if kind not in MATCH_KINDS and kind != LBR:
                raise SimulationError(
                    f"unknown bot kind {kind!r}: expected one of {', '.join([*MATCH_KINDS, LBR])}"
                )
        if self.players.count(LBR) > 1 or (LBR in self.players and len(set(self.players)) > 2):
            raise SimulationError("a local best response plays against one bot kind, in one seat")
        if self.game not in GAMES:
            raise SimulationError(f"unknown game {self.game!r}: expected one of {', '.join(GAMES)}")
        if self.seed < 0:
            raise SimulationError(f"the seed must be 0 or more, not {self.seed}")
        if self.stack_bets < 1:
            raise SimulationError(f"the stacks must be at least one big bet, not {self.stack_bets}")
        if self.lbr_rollouts < 1:
            raise SimulationError(f"a local best response needs rollouts, not {self.lbr_rollouts}")
        Stakes(*self.stakes)  # a GameError (a ValueError) for stakes that make no sense

    @property
    def names(self) -> tuple[str, ...]:
        """The distinct players, in seat order: one result each."""
        return tuple(dict.fromkeys(self.players))

    @property
    def small_bet(self) -> int:
        """The small bet, the unit of the results (a thousandth of it a hand)."""
        return self.stakes[2]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal, every rotation played: each name's total chips won (``dealt``) and the same
    corrected for luck (``corrected``; equal to ``dealt`` without the luck correction)."""

    deal: int
    dealt: tuple[int, ...]
    corrected: tuple[float, ...]
    engine: str
    """``"compiled"`` or ``"pure"``: which engine played it."""


def engine_kind() -> str:
    """``"compiled"`` when this process runs the engine compiled with mypyc, else ``"pure"``."""
    import sevenstud.hand

    return "compiled" if (sevenstud.hand.__file__ or "").endswith((".so", ".pyd")) else "pure"


def deal_seed(matchup: Matchup, deal: int, rotation: int) -> int:
    """The seed of one hand (a deal in one rotation): bots and luck estimates start from it."""
    return (matchup.seed * 1_000_003 + deal) * 16 + rotation


def make_bot(
    kind: str,
    seed: int,
    name: str,
    *,
    seat_kinds: Sequence[str],
    game: Game,
    stacks: Sequence[int],
    rollouts: int,
) -> Bot:
    """A fresh bot of ``kind``; a local best response is also told what it may know of the
    hand's set-up: every seat's bot kind, the game and the starting stacks."""
    if kind == LBR:
        from sevenstud.sim.lbr import LocalBestResponse

        return LocalBestResponse(seat_kinds, game, stacks, seed=seed, name=name, rollouts=rollouts)
    return new_bot(kind, seed=seed, name=name)


def play_hand(hand: Hand, bots: Sequence[Bot], meter: object | None = None) -> None:
    """Play ``hand`` to its end, each seat's bot given only its own seat's view; ``meter`` (a
    :class:`~sevenstud.sim.luck.LuckMeter`) is told after every action."""
    if meter is None:
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None  # a hand not over always has a seat to act
            hand.act(bots[seat].act(hand.view(seat)), seat)
        return
    from sevenstud.sim.luck import LuckMeter

    assert isinstance(meter, LuckMeter)
    meter.start(hand)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(bots[seat].act(hand.view(seat)), seat)
        meter.after(hand)


def play_deals(matchup: Matchup, start: int, stop: int) -> list[DealRecord]:
    """Deals ``start`` to ``stop - 1``, each in every rotation of the seats."""
    matchup.check()
    game = GAMES[matchup.game](Stakes(*matchup.stakes))  # type: ignore[index]
    players, names = matchup.players, matchup.names
    n = len(players)
    stack = matchup.stakes[3] * matchup.stack_bets
    index = [names.index(p) for p in players]
    engine = engine_kind()
    records = []
    for d in range(start, stop):
        dealt = [0] * len(names)
        corrected = [0.0] * len(names)
        for rotation in range(n):
            # Bot i sits in seat (i + rotation) % n: over the rotations it holds every seat.
            order = [(seat - rotation) % n for seat in range(n)]
            seat_kinds = [players[i] for i in order]
            hand_seed = deal_seed(matchup, d, rotation)
            bots = [
                make_bot(
                    players[i],
                    hand_seed * 16 + i,
                    players[i],
                    seat_kinds=seat_kinds,
                    game=game,
                    stacks=[stack] * n,
                    rollouts=matchup.lbr_rollouts,
                )
                for i in order
            ]
            hand = Hand(game, [stack] * n, Deck.seeded(f"sim-{matchup.seed}-{d}"))
            meter = None
            if matchup.luck:
                from sevenstud.sim.luck import LuckMeter

                meter = LuckMeter(matchup.game, n, hand_seed)
            play_hand(hand, bots, meter)
            for seat, i in enumerate(order):
                won = hand.stacks[seat] - stack
                dealt[index[i]] += won
                corrected[index[i]] += won - (meter.luck[seat] if meter is not None else 0.0)
        records.append(DealRecord(d, tuple(dealt), tuple(corrected), engine))
    return records


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean in milli-small-bets per hand and its 95% interval's half-width."""

    msb_per_hand: float
    ci95: float

    @property
    def low(self) -> float:
        """The interval's lower end."""
        return self.msb_per_hand - self.ci95

    @property
    def high(self) -> float:
        """The interval's upper end."""
        return self.msb_per_hand + self.ci95

    def __str__(self) -> str:
        return f"{self.msb_per_hand:+.0f} ± {self.ci95:.0f}"


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's result: as dealt (duplicate deals only) and corrected for luck."""

    name: str
    seats: int
    """How many seats it held at the table."""
    dealt: Estimate
    corrected: Estimate


@dataclass(frozen=True, slots=True)
class SimResult:
    """A match's figures: ``deals`` decks, each played in every rotation (``hands`` in all)."""

    matchup: Matchup
    deals: int
    hands: int
    players: tuple[PlayerResult, ...]
    engines: tuple[str, ...]
    """The engines that played the deals (``"pure"``, ``"compiled"``), sorted."""
    cumulative: tuple[tuple[float, ...], ...]
    """Per player, its corrected result in small bets summed over the deals so far (after each
    deal: for the chart)."""
    cumulative_dealt: tuple[tuple[float, ...], ...]
    """The same, as dealt."""

    def to_json(self) -> dict[str, object]:
        """The figures as plain JSON values (no cumulative series)."""
        return {
            "game": self.matchup.game,
            "seed": self.matchup.seed,
            "players": list(self.matchup.players),
            "luck": self.matchup.luck,
            "deals": self.deals,
            "hands": self.hands,
            "engines": list(self.engines),
            "results": [
                {
                    "name": p.name,
                    "seats": p.seats,
                    "msb_per_hand": p.corrected.msb_per_hand,
                    "ci95": p.corrected.ci95,
                    "dealt_msb_per_hand": p.dealt.msb_per_hand,
                    "dealt_ci95": p.dealt.ci95,
                }
                for p in self.players
            ],
        }

    def __str__(self) -> str:
        n = len(self.matchup.players)
        m = self.matchup
        head = (
            f"{m.game}, {n} seats, {self.deals} deals x {n} rotations = {self.hands} hands, seed {m.seed}"
            f" ({', '.join(self.engines)} engine)"
        )
        unit = "mSB/hand, 95% interval"
        lines = [head]
        width = max(len(p.name) for p in self.players)
        for p in self.players:
            seats = f" ({p.seats} seats)" if p.seats > 1 else ""
            if m.luck:
                lines.append(
                    f"  {p.name:<{width}}{seats}: {p.corrected} {unit} (luck-corrected); as dealt {p.dealt}"
                )
            else:
                lines.append(f"  {p.name:<{width}}{seats}: {p.dealt} {unit} (as dealt)")
        return "\n".join(lines)


def _estimate(xs: Sequence[float]) -> Estimate:
    mean = math.fsum(xs) / len(xs)
    var = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    return Estimate(mean, Z95 * math.sqrt(var / len(xs)))


def summarize(matchup: Matchup, records: Sequence[DealRecord]) -> SimResult:
    """The figures of a match from its deals (in any order: they are sorted by deal first)."""
    records = sorted(records, key=lambda r: r.deal)
    if len(records) < 2:
        raise SimulationError(f"a match needs at least 2 deals for an interval, not {len(records)}")
    if [r.deal for r in records] != list(range(records[0].deal, records[0].deal + len(records))):
        raise SimulationError("the deals of a match must be consecutive, each once")
    n = len(matchup.players)
    sb = matchup.small_bet
    players = []
    cumulative, cumulative_dealt = [], []
    for k, name in enumerate(matchup.names):
        seats = matchup.players.count(name)
        per = 1000 / (n * seats * sb)  # chips over a deal's hands -> mSB a hand
        dealt = [r.dealt[k] * per for r in records]
        corrected = [r.corrected[k] * per for r in records]
        players.append(PlayerResult(name, seats, _estimate(dealt), _estimate(corrected)))
        run, run_dealt = 0.0, 0.0
        series, series_dealt = [], []
        for r in records:
            run += r.corrected[k] / (seats * sb)
            run_dealt += r.dealt[k] / (seats * sb)
            series.append(run)
            series_dealt.append(run_dealt)
        cumulative.append(tuple(series))
        cumulative_dealt.append(tuple(series_dealt))
    return SimResult(
        matchup,
        len(records),
        len(records) * n,
        tuple(players),
        tuple(sorted({r.engine for r in records})),
        tuple(cumulative),
        tuple(cumulative_dealt),
    )
