"""Equity: exact results against a brute force written here, Monte Carlo against exact results,
input errors, the command line, and ``import sevenstud`` without numpy.

The brute force goes through every way the unknown cards can fall with ``itertools`` and the
pure-Python evaluator, deals the community card by its own reading of docs/rules.md ("Not enough
cards"), and splits each pot with exact fractions. The cases are small (6th and 7th street, or
3rd and 4th street with most of the deck dead) so that it stays quick, but they cover every path
of the kernels: two players by inclusion-exclusion (sets shared by the completions of every
size, completions of different sizes, low against low), more players by enumeration, the
community card, unknown down cards and dead cards, in all three games.

Skipped without numpy.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from sevenstud.cards import parse_cards
from sevenstud.cli import main
from sevenstud.equity import EquityError, EquityResult, equity, parse_hand
from sevenstud.evaluate import high_rank, low8_rank, low_rank
from tests.positions import (
    EIGHT_ON_SIXTH,
    EIGHT_ON_SIXTH_UNKNOWN,
    FOUR_RUN_OUT,
    FOUR_RUN_OUT_DEAD,
    LIVE,
    dead_except,
)

ROOT = Path(__file__).resolve().parent.parent

# ===============================================================================================
# The brute force
# ===============================================================================================


def brute_force(hands: list[str], game: str, dead: str = "") -> dict[str, object]:
    """Every outcome, counted with itertools and the pure evaluator; fractions of all outcomes."""
    players = [parse_hand(h) for h in hands]
    n, street = len(players), len(players[0])
    dead_cards = parse_hand(dead) if dead else []
    known = [[int(c) for c in p if c is not None] for p in players]
    out = {c for p in known for c in p} | {int(c) for c in dead_cards if c is not None}
    deck = [c for c in range(52) if c not in out]
    # The dealer's count: cards dealt so far, then one per player on each street to 6th; on 7th
    # street a community card when the deck cannot give every player one.
    left = 52 - n * street - len(dead_cards) - n * max(0, 6 - street)
    community = street < 7 and left < n
    to_come = [
        p.count(None) + (0 if street == 7 else (6 - street) + (0 if community else 1)) for p in players
    ]
    cache: dict[tuple[int, tuple[int, ...]], tuple[int, int]] = {}

    def ranks(i: int, extra: tuple[int, ...]) -> tuple[int, int]:
        key = (i, tuple(sorted(extra)))
        if key not in cache:
            cards = known[i] + list(extra)
            low = low8_rank(cards) if game == "stud8" else low_rank(cards)
            cache[key] = (high_rank(cards), low)
        return cache[key]

    totals = {"outcomes": 0, "no_low": 0}
    per = {k: [Fraction(0)] * n for k in ("equity", "scoop", "high_win", "high_tie", "low_win", "low_tie")}

    def showdown(extras: list[tuple[int, ...]]) -> None:
        r = [ranks(i, extras[i]) for i in range(n)]
        totals["outcomes"] += 1
        high = {i for i in range(n) if r[i][0] == max(x[0] for x in r)}
        best_low = max(x[1] for x in r)
        low = {i for i in range(n) if r[i][1] == best_low} if best_low > 0 else set()
        share = [Fraction(0)] * n
        if game == "stud":
            for i in high:
                share[i] += Fraction(1, len(high))
        elif game == "razz":
            for i in low:
                share[i] += Fraction(1, len(low))
        elif low:
            for i in high:
                share[i] += Fraction(1, 2 * len(high))
            for i in low:
                share[i] += Fraction(1, 2 * len(low))
        else:
            totals["no_low"] += 1
            for i in high:
                share[i] += Fraction(1, len(high))
        for i in range(n):
            per["equity"][i] += share[i]
            per["scoop"][i] += share[i] == 1
            per["high_win" if len(high) == 1 else "high_tie"][i] += i in high
            per["low_win" if len(low) == 1 else "low_tie"][i] += i in low

    def deal(i: int, rest: list[int], extras: list[tuple[int, ...]]) -> None:
        if i == n:
            if community:
                for card in rest:
                    showdown([(*e, card) for e in extras])
            else:
                showdown(extras)
            return
        for pick in combinations(rest, to_come[i]):
            chosen = set(pick)
            deal(i + 1, [c for c in rest if c not in chosen], [*extras, pick])

    deal(0, deck, [])
    total = totals["outcomes"]
    return {
        "outcomes": total,
        "community": community,
        "no_low": Fraction(totals["no_low"], total),
        **{k: [v / total for v in values] for k, values in per.items()},
    }


def assert_same(result: EquityResult, expected: dict[str, object]) -> None:
    assert result.exact and result.outcomes == expected["outcomes"]
    assert result.community == expected["community"]
    for i, player in enumerate(result.players):
        for name in ("equity", "scoop", "high_win", "high_tie", "low_win", "low_tie"):
            got = getattr(player, name)
            want = expected[name][i]  # type: ignore[index]
            if got is None:  # a half the game does not have
                assert (name.startswith("high") and result.game == "razz") or (
                    name.startswith("low") and result.game == "stud"
                ), name
                continue
            assert got == pytest.approx(float(want), abs=1e-12), (name, i, got, float(want))
    if result.game == "stud8":
        assert result.no_low == pytest.approx(float(expected["no_low"]), abs=1e-12)  # type: ignore[arg-type]


CASES = [
    # two players, inclusion-exclusion
    (["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h"], "stud8", ""),
    (["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h"], "stud", ""),
    (["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h"], "razz", ""),
    (["As 2s 3s 4d 5h 6c 7d", "?? ?? Kc Qs Qd 9h ??"], "stud8", ""),
    (["8d 2s 3s 4d 5h 6c 7d", "?? ?? 4c 5c 6d 8h ??"], "razz", "Ad Ah"),
    (["Ah 2h 3h", "5d 6d 7d"], "stud8", dead_except(["Ah 2h 3h", "5d 6d 7d"], LIVE)),
    (["Ah 2h 3h", "5d 6d 7d"], "razz", dead_except(["Ah 2h 3h", "5d 6d 7d"], LIVE)),
    (["Ah 2h 3h", "5d 6d 7d"], "stud", dead_except(["Ah 2h 3h", "5d 6d 7d"], LIVE)),
    (["As 2s 8h", "3d 4d 6c"], "stud8", dead_except(["As 2s 8h", "3d 4d 6c"], LIVE)),
    (["Ah 2h 3h 5h", "5d 6d 7d 9c"], "stud8", dead_except(["Ah 2h 3h 5h", "5d 6d 7d 9c"], LIVE)),
    (["Ah 2h 3h 5h", "5d 6d 7d 9c"], "razz", dead_except(["Ah 2h 3h 5h", "5d 6d 7d 9c"], LIVE)),
    (["Ah 2h 3h", "?? ?? 7d"], "stud8", dead_except(["Ah 2h 3h", "7d"], LIVE)),
    (["Ah 2h 3h", "?? ?? 7d"], "stud", dead_except(["Ah 2h 3h", "7d"], LIVE)),
    # more players, enumeration
    (
        ["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h", "7c 8c 2d 3d 4c 5c"],
        "stud8",
        "Ad Ah Td Tc 9d 9s Jd Js Jc Jh",
    ),
    (
        ["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h", "7c 8c 2d 3d 4c 5c"],
        "razz",
        "Ad Ah Td Tc 9d 9s Jd Js Jc Jh",
    ),
    (
        ["As 2s 3s 4d 5h 6c 7s", "?? ?? Kc Qs Qd 9h ??", "7c 8c 2d 3d 4c 5c ??"],
        "stud",
        "Ad Ah Td Tc 9d 9s Jd Js Jc",
    ),
    # eight players on 6th street: four cards left, a community card
    (EIGHT_ON_SIXTH, "stud8", ""),
    (EIGHT_ON_SIXTH_UNKNOWN, "razz", ""),
    # four players, the unseen dead cards run the deck out: a community card
    (FOUR_RUN_OUT, "stud8", FOUR_RUN_OUT_DEAD),
]


def _case_id(case: tuple[list[str], str, str]) -> str:
    hands, game, dead = case
    unknown = "-unknown" if any("??" in h for h in hands) else ""
    dead_count = len(parse_hand(dead)) if dead else 0
    return f"{game}-{len(hands)}players-{len(parse_hand(hands[0]))}cards{unknown}-{dead_count}dead"


@pytest.mark.parametrize(("hands", "game", "dead"), CASES, ids=[_case_id(c) for c in CASES])
def test_exact_equals_brute_force(hands: list[str], game: str, dead: str) -> None:
    result = equity(hands, game=game, dead=dead, exact=True)
    assert_same(result, brute_force(hands, game, dead))
    assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-12)


def test_the_exact_methods_agree_on_a_bigger_case() -> None:
    hands = ["As 2s 3s 9d", "4d 5h 6c 8c"]
    dead = dead_except(hands, LIVE + " 2d 3h Jc Qd Td")
    result = equity(hands, game="stud8", dead=dead, exact=True)
    assert result.method == "inclusion-exclusion"
    assert result.outcomes == math.comb(15, 3) * math.comb(12, 3)  # 3s is a player's
    from sevenstud.equity import position
    from sevenstud.fast import kernels

    pos = position(hands, game="stud8", dead=dead)
    deal = kernels.Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
    a, b = kernels.heads_up_exact(deal), kernels.enumerate_exact(deal)
    assert (a.total, a.equity, a.scoop, a.high_win, a.high_tie, a.low_win, a.low_tie, a.no_low) == (
        b.total,
        b.equity,
        b.scoop,
        b.high_win,
        b.high_tie,
        b.low_win,
        b.low_tie,
        b.no_low,
    )


THREE = ["Ah 2h 3h 9s Tc", "5d 6d 7d Js Jd", "?? 8c Qd Kd 4s"]  # 5th street, sixteen cards to come from
FOUR = ["As 2s 3h 4d 9c", "Kd Kh Kc 2c 3c", "7c 8c 9d Td 4c", "Jh Qh 5h 6h 7h"]  # 5th street


@pytest.mark.parametrize(
    ("hands", "game", "dead", "chosen"),
    [
        (THREE, "stud8", dead_except(THREE, LIVE + " Jc Th 2d 3d 5h"), True),
        (THREE, "stud", dead_except(THREE, LIVE + " Jc Th 2d 3d 5h"), True),
        (THREE, "razz", dead_except(THREE, LIVE + " Jc Th 2d 3d 5h"), True),
        (
            ["As 2s 3s 7h 8d Jc", "Kd Kh Qc Js 9d 9c", "4c 5c 6c Tc 2d 3d", "Ah Ad 8h 8c 6s 5h"],
            "stud8",
            "",
            True,
        ),
        (
            ["As 2s 3s 7h 8d Jc", "?? Kh Qc Js 9d 9c", "4c 5c 6c Tc 2d 3d", "Ah Ad 8h 8c 6s 5h"],
            "razz",
            "Qs",
            True,
        ),
        (["As 2s 3s 4d 5h 6c 7s", "?? ?? Kc Qs Qd 9h ??", "7c 8c 2d 3d 4c 5c ??"], "stud8", "Ad Ah Td", True),
        # Nine cards to come from: going through every deal is less work here.
        (FOUR, "stud8", dead_except(FOUR, "Ad 5c 6c 8d 9h Ts Js Qs Ks"), False),
    ],
)
def test_the_last_player_count_agrees_with_every_deal(
    hands: list[str], game: str, dead: str, chosen: bool
) -> None:
    from sevenstud.equity import LAST_PLAYER, exact_work, position
    from sevenstud.fast import kernels

    pos = position(hands, game=game, dead=dead)
    assert (exact_work(pos)[0] == LAST_PLAYER) == chosen
    assert not pos.community
    deal = kernels.Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
    a, b = kernels.last_player_exact(deal), kernels.enumerate_exact(deal)
    assert a.total == b.total == deal.outcomes()
    assert (a.equity, a.scoop, a.high_win, a.high_tie, a.low_win, a.low_tie, a.no_low) == (
        b.equity,
        b.scoop,
        b.high_win,
        b.high_tie,
        b.low_win,
        b.low_tie,
        b.no_low,
    )


def test_three_players_on_fifth_street_are_exact_by_default() -> None:
    hands = ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"]
    result = equity(hands, game="stud8")
    assert result.exact and result.method == "inclusion-exclusion over the last player"
    assert result.outcomes == math.comb(37, 2) * math.comb(35, 2) * math.comb(33, 2)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-12)
    sampled = equity(hands, game="stud8", trials=100_000, seed=4)
    for e, s in zip(result.players, sampled.players, strict=True):
        assert s.equity_se is not None and abs(s.equity - e.equity) <= 4 * s.equity_se


def test_quartered_low() -> None:
    # Both players have 8-6-4-3-2 for low; the first has the high: 1/2 + 1/4 against 1/4.
    result = equity(["8c 6d 4h 3s 2c Kd Kh", "8d 6c 4s 3h 2d Qd Jh"], game="stud8")
    first, second = result.players
    assert (first.equity, second.equity) == (0.75, 0.25)
    assert (first.low_tie, first.high_win, first.scoop, second.scoop) == (1.0, 1.0, 0.0, 0.0)
    # Three players: one high, a low split two ways: 1/2, 1/4, 1/4.
    result = equity(["Ac Kc Qc Jc 9c 2d 2h", "8d 6c 4s 3h 2s Qd Jh", "8h 6s 4d 3c 2c Qh Js"], game="stud8")
    assert [p.equity for p in result.players] == [0.5, 0.25, 0.25]


# ===============================================================================================
# Monte Carlo
# ===============================================================================================


@pytest.mark.parametrize(
    ("hands", "game", "dead"),
    [
        (["As 2s 3s", "Kd Kh Qc"], "stud8", ""),  # two players: completion tables
        (["As 2s 8s", "3d 4h Kc"], "razz", ""),
        (["Ah Kh 5c 9d 9s Td", "Qs Qd 2c 3d 4s Jh", "7c 7s Jc 4d 8h 8d"], "stud", "?? ??"),  # shuffles
        (EIGHT_ON_SIXTH_UNKNOWN, "stud8", ""),
    ],
)
def test_monte_carlo_within_four_standard_errors(hands: list[str], game: str, dead: str) -> None:
    exact = equity(hands, game=game, dead=dead, exact=True)
    sampled = equity(hands, game=game, dead=dead, trials=200_000, seed=12)
    assert not sampled.exact and sampled.outcomes == 200_000 and sampled.method == "monte-carlo"
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert s.equity_se is not None and s.scoop_se is not None
        assert abs(s.equity - e.equity) <= 4 * s.equity_se + 1e-12
        assert abs(s.scoop - e.scoop) <= 4 * s.scoop_se + 1e-12
    again = equity(hands, game=game, dead=dead, trials=200_000, seed=12)
    assert again.players == sampled.players  # the seed repeats


def test_shuffled_prefix_is_a_uniform_draw() -> None:
    import numpy as np

    from sevenstud.fast import kernels

    rng = np.random.default_rng(4)
    grid = kernels.shuffled_prefix(rng, 60_000, 6, 3)
    assert grid.shape == (3, 60_000)
    rows = grid.T.astype(np.int64)
    assert all(len(set(r)) == 3 for r in rows.tolist())
    codes = rows[:, 0] * 36 + rows[:, 1] * 6 + rows[:, 2]
    counts = np.bincount(codes, minlength=216)[np.unique(codes)]
    assert counts.size == 120  # every ordered draw of 3 of 6
    expected = 60_000 / 120
    assert float(((counts - expected) ** 2 / expected).sum()) < 200  # chi-square, 119 degrees
    # Nearly the whole deck (8 players on 3rd street): every draw distinct cards, each card
    # equally likely in each place.
    grid = kernels.shuffled_prefix(rng, 28_000, 28, 25)
    assert all(len(set(r)) == 25 for r in grid.T.tolist())
    for place in (0, 12, 24):
        counts = np.bincount(grid[place].astype(np.int64), minlength=28)
        assert float(((counts - 1000) ** 2 / 1000).sum()) < 70  # chi-square, 27 degrees


def test_auto_picks_exact_or_monte_carlo() -> None:
    assert equity(["As 2s 3s 4d 5h", "Kd Kh Kc Qs Qd"]).exact
    result = equity(["As 2s 3s 4d 5h", "Kd Kh Kc Qs Qd"], max_outcomes=10, trials=None)
    assert not result.exact and result.outcomes == 1_000_000
    assert not equity(["As 2s 3s", "Kd Kh Kc"], trials=1000, seed=1).exact


# ===============================================================================================
# Input
# ===============================================================================================


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        (["As 2s 3s", "As Kh Kc"], {}, "As is given twice"),
        (["As 2s 3s", "Ks Kh Kc"], {"dead": "Kh"}, "Kh is given twice"),
        (["As 2s 3s 4s 5s 6s 7s 8s", "Ks Kh Kc"], {}, "at most 7"),
        (["As 2s 3s 4s", "Ks Kh Kc"], {}, "different streets"),
        (["As 2s"], {}, "2 to 8 players"),
        (["As 2s 3s"] + [f"{r}c {r}d {r}h" for r in "23456789"], {}, "2 to 8 players"),
        (["As 2s", "Ks Kh"], {}, "at least the 3rd-street cards"),
        (["As 2s 3s", "Ks Kh Kc"], {"game": "holdem"}, "unknown game"),
        (["As 2s 3x", "Ks Kh Kc"], {}, "not a card"),
        (["As 2s 3s", "Ks Kh Kc"], {"dead": "?? " * 40}, "not enough cards"),
        (["As 2s 3s", "Ks Kh Kc"], {"community": "2c"}, "only on 7th street"),
        (["As 2s 3s", "Ks Kh Kc"], {"exact": True, "trials": 5}, "not both"),
    ],
)
def test_impossible_input_is_a_clear_error(hands: list[str], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(EquityError, match=message):
        equity(hands, **kwargs)  # type: ignore[arg-type]


def test_hands_as_lists_and_a_known_community_card() -> None:
    cards = parse_cards("As 2s 3s 4d 5h 6c")
    result = equity([[*cards, None], ["Kd", "Kh", "Kc", "Qs", "Qd", "9h", "??"]], game="stud8")
    assert result.outcomes == math.comb(40, 1) * math.comb(39, 1)
    shared = equity(["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h"], community="7c", game="stud8")
    assert shared.outcomes == 1 and shared.players[0].equity == 0.5


def test_progress_is_reported() -> None:
    seen: list[float] = []
    equity(["As 2s 3s", "Kd Kh Qc"], game="stud", trials=300_000, seed=1, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)


def test_cuda_device_is_a_clear_error_without_cuda() -> None:
    try:
        import cupy  # noqa: F401

        pytest.skip("CuPy is installed")
    except ImportError:
        pass
    hint = r"CuPy is not installed.*sevenstud\[gpu\].*cupy-cuda13x.*cupy-cuda12x"
    with pytest.raises(EquityError, match=hint):
        equity(["As 2s 3s", "Kd Kh Qc"], device="cuda")


# ===============================================================================================
# The command line
# ===============================================================================================


def test_command_line_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "--game", "stud8", "--dead", "Qc", "--json", "As 2s 3s 4d 5h", "KdKhKcQsQd"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"game", "exact", "outcomes", "no_low", "players"}
    assert (
        data["game"] == "stud8"
        and data["exact"] is True
        and data["outcomes"] == math.comb(41, 2) * math.comb(39, 2)
    )
    assert [p["cards"] for p in data["players"]] == ["As 2s 3s 4d 5h", "Kd Kh Kc Qs Qd"]
    for p in data["players"]:
        assert set(p) >= {"cards", "equity", "scoop", "high_win", "high_tie", "low_win", "low_tie"}
    assert sum(p["equity"] for p in data["players"]) == pytest.approx(1.0)


def test_command_line_table_and_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "--game", "razz", "--trials", "50000", "--seed", "3", "As 2s 3s", "?? ?? Kc"]) == 0
    out = capsys.readouterr().out
    assert "Razz, 3rd street: 50,000 outcomes (Monte Carlo" in out
    assert "As 2s 3s" in out and "?? ?? Kc" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["equity", "As 2s 3s", "As Kh Kc"],
        ["equity", "As 2s 3s"],
        ["equity", "As 2s 3s 4d", "Ks Kh Kc"],
        ["equity", "--device", "cuda", "As 2s 3s", "Ks Kh Kc"],
    ],
)
def test_command_line_errors_exit_non_zero(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    if "cuda" in argv:
        try:
            import cupy  # noqa: F401

            pytest.skip("CuPy is installed")
        except ImportError:
            pass
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert err.startswith("sevenstud equity: ") and "error:" not in err, err


def test_import_sevenstud_without_numpy() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import sevenstud, sevenstud.cli, sevenstud.equity, sevenstud.evaluate, sevenstud.hand\n"
        "from sevenstud.equity import equity, position\n"
        "position(['As 2s 3s', 'Kd Kh Qc'])\n"
        "try:\n"
        "    equity(['As 2s 3s', 'Kd Kh Qc'])\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
        "sys.exit(sevenstud.cli.main(['equity', 'As 2s 3s', 'Kd Kh Qc']))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "pip install sevenstud[fast]" in run.stdout
    assert run.returncode == 2 and "pip install sevenstud[fast]" in run.stderr


def test_progress_bar_draws_only_on_long_runs() -> None:
    import io
    import time

    from sevenstud.equity import _Bar

    quick = _Bar(io.StringIO())
    quick(0.5)
    quick.close()
    assert quick.stream.getvalue() == ""
    slow = _Bar(io.StringIO())
    slow.started = time.perf_counter() - 2
    slow(0.25)
    slow(1.0)
    slow.close()
    text = slow.stream.getvalue()
    assert "25.0%" in text and "100.0%" in text and text.endswith("\n")


# ---------------------------------------------------------------------- stop (a server's deadline)


def _stop_after(calls: int) -> Any:
    """A ``stop`` that says yes from its ``calls + 1``-th question on."""
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] > calls

    return stop


@pytest.mark.parametrize(
    "hands",
    [
        ["As 2s 3s", "Kd Kh Qc", "4c 5c 6c"],  # completion tables and rejection
        # five on 5th street: shuffles
        ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h", "2s 3s 4s 5s 6s", "Ac Ad Ah As Kc"],
    ],
)
def test_stop_ends_monte_carlo_with_exactly_the_trials_drawn_so_far(hands: list[str]) -> None:
    """The rule: a stopped sample is the first blocks of the same seed's sample, nothing else."""
    stopped = equity(hands, trials=10_000_000, seed=3, stop=_stop_after(2))
    assert stopped.stopped and not stopped.exact and 0 < stopped.outcomes < 10_000_000
    same = equity(hands, trials=stopped.outcomes, seed=3)
    assert not same.stopped and same.players == stopped.players
    assert sum(p.equity for p in stopped.players) == pytest.approx(1.0, abs=1e-12)
    assert json.loads(json.dumps(stopped.to_json()))["stopped"] is True


def test_stop_ends_exact_counting_with_equity_stopped() -> None:
    from sevenstud.equity import EquityStopped

    three = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s"]  # 5.3e14 outcomes: it would never end
    with pytest.raises(EquityStopped) as stopped:
        equity(three, exact=True, stop=_stop_after(3))
    assert 0.0 <= stopped.value.progress < 0.01
    with pytest.raises(EquityStopped):  # before a single block: nothing to give
        equity(three, trials=1000, stop=lambda: True)
    # A stop that never says yes changes nothing.
    plain = equity(["As Ad Kc 7h 2d", "Qs Qh Jc 9d 9s"], exact=True)
    asked = equity(["As Ad Kc 7h 2d", "Qs Qh Jc 9d 9s"], exact=True, stop=lambda: False)
    assert (asked.players, asked.outcomes, asked.stopped) == (plain.players, plain.outcomes, False)
