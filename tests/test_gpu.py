"""The GPU code path (``device="cuda"``): the same integers as the CPU's.

Two kinds of tests:

* Everywhere: the device code path runs with numpy standing in for CuPy. The hook is
  :func:`sevenstud.fast.device.array_module`, replaced so that ``"cuda"`` gives the strict
  stand-in of ``tests/fake_cupy.py``: only functions CuPy has, and device arrays that refuse a
  host array in an operation or an index and refuse numpy's own functions, as CuPy does (the
  last test checks the stand-in itself). Batch evaluation must equal the CPU's on every
  five-card hand and on random six- and seven-card hands; exact equity must be identical,
  integer for integer, on heads-up positions from 3rd to 7th street, on three and four players
  (every deal, and every deal of all players but one with the last counted by
  inclusion-exclusion), with a community card, in all three games; Monte Carlo must agree with
  the exact figures within standard errors.
* Where CuPy and a CUDA device are at hand: the same checks on the GPU itself. They skip cleanly
  elsewhere.

Skipped without numpy.
"""

from __future__ import annotations

import math
from itertools import chain, combinations
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from sevenstud.equity import EquityError, EquityResult, equity, position  # noqa: E402
from sevenstud.fast import (  # noqa: E402
    device,
    enumeration,
    evaluate_batch,
    high_ranks,
    hilo8_ranks,
    kernels,
    low8_ranks,
    low_ranks,
    monte_carlo,
)
from sevenstud.fast import evaluate as fe  # noqa: E402
from tests import fake_cupy  # noqa: E402
from tests.positions import EIGHT_ON_SIXTH_UNKNOWN, FOUR_RUN_OUT, FOUR_RUN_OUT_DEAD, LIVE, dead_except  # noqa: E402


@pytest.fixture
def fake_cuda(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``device="cuda"`` runs the device code path on numpy."""
    stand_in = fake_cupy.module()
    monkeypatch.setattr(device, "array_module", lambda name: np if name == "cpu" else stand_in)
    return stand_in


def _random_hands(rng: Any, count: int, size: int) -> Any:
    return np.argsort(rng.random((count, 52), dtype=np.float32), axis=1)[:, :size].astype(np.uint8)


def _same(a: EquityResult, b: EquityResult) -> None:
    assert (a.exact, a.outcomes, a.method, a.no_low) == (b.exact, b.outcomes, b.method, b.no_low)
    assert a.players == b.players


def _deal(hands: list[str], game: str, dead: str = "") -> kernels.Deal:
    pos = position(hands, game=game, dead=dead)
    return kernels.Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)


def _fields(c: kernels.Counts) -> tuple[object, ...]:
    return (c.total, c.no_low, c.equity, c.scoop, c.high_win, c.high_tie, c.low_win, c.low_tie)


# ===============================================================================================
# Batch evaluation
# ===============================================================================================


def test_the_device_path_is_taken(fake_cuda: Any) -> None:
    be = device.backend("cuda")
    assert be.gpu and be.xp is fake_cuda and be.key() == ("cuda", id(fake_cuda), 0)
    be.sync()
    assert isinstance(evaluate_batch(np.arange(7).reshape(1, 7), device="cuda").high, fake_cuda.ndarray)
    assert fe.tables(be).HIGH is not None and kernels.Side((0, 4), "stud8", be).tables is not None
    assert not device.backend("cpu").gpu


def test_every_five_card_hand(fake_cuda: Any) -> None:
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8, count=5 * 2_598_960)
    hands = flat.reshape(-1, 5)
    cpu, gpu = evaluate_batch(hands), evaluate_batch(hands, device="cuda")
    for name in ("high", "low", "low8"):
        assert getattr(gpu, name).dtype == np.int32
        assert np.array_equal(getattr(cpu, name), fake_cuda.asnumpy(getattr(gpu, name))), name


def test_random_six_and_seven_card_hands(fake_cuda: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fe, "DEVICE_CHUNK", 1 << 17)  # several chunks
    rng = np.random.default_rng(11)
    for size, count in ((7, 600_000), (6, 200_000)):
        hands = _random_hands(rng, count, size)
        cpu = evaluate_batch(hands)
        for check in (True, False):
            gpu = evaluate_batch(hands.astype(np.int64), check=check, device="cuda")
            assert all(np.array_equal(a, b.get()) for a, b in zip(cpu, gpu, strict=True))
    hands = _random_hands(rng, 5000, 7)
    assert np.array_equal(high_ranks(hands, device="cuda").get(), high_ranks(hands))
    assert np.array_equal(low_ranks(hands, device="cuda").get(), low_ranks(hands))
    assert np.array_equal(low8_ranks(hands, device="cuda").get(), low8_ranks(hands))
    hi, lo8 = hilo8_ranks(hands, device="cuda")
    assert np.array_equal(hi.get(), high_ranks(hands)) and np.array_equal(lo8.get(), low8_ranks(hands))
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8), device="cuda").high.shape == (0,)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([[0, 1, 2, 3]], "5, 6 or 7"),
        ([[0, 1, 2, 3, 52]], "hand 0: cards must be integers 0..51"),
        ([[0, 1, 2, 3, 4], [0, 1, 2, 3, -1]], "hand 1: cards must be integers 0..51"),
        ([[0, 1, 2, 3, 4], [9, 8, 7, 9, 10]], "hand 1 holds the same card twice"),
        ([[0.0, 1, 2, 3, 4]], "integers"),
    ],
)
def test_bad_input_is_the_same_clear_error(fake_cuda: Any, hands: list[list[float]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_batch(np.array(hands))
    with pytest.raises(ValueError, match=message):
        evaluate_batch(np.array(hands), device="cuda")


# ===============================================================================================
# Exact equity: identical integers
# ===============================================================================================

EXACT = [
    # heads-up, 3rd to 7th street (inclusion-exclusion)
    (["As 2s 3s", "Kd Kh Qc"], "stud8", ""),
    (["Ah 2h 3h", "5d 6d 7d"], "razz", dead_except(["Ah 2h 3h", "5d 6d 7d"], LIVE + " Qs Jd")),
    (["As 2s 8h 7d", "3d 4d 6c Kc"], "stud", ""),
    (["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d"], "razz", "Qd"),
    (["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h"], "stud8", ""),
    (["As 2s 3s 4d 5h 6c 7d", "?? ?? Kc Qs Qd 9h ??"], "stud8", "8c"),
    (["8d 2s 3s 4d 5h 6c 7d", "?? ?? 4c 5c 6d 8h ??"], "razz", "Ad Ah"),
    # three and four players: the last one by inclusion-exclusion
    (["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"], "stud8", "Ac Ah Ts 9s 9h 8c 8h 7c 7s 6d 6h"),
    (["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"], "stud", "Ac Ah Ts 9s 9h 8c 8h 7c 7s 6d 6h"),
    (["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h", "7c 8c 2d 3d 4c 5c"], "razz", ""),
    (["As 2s 3s 7h 8d Jc", "Kd Kh Qc Js 9d 9c", "4c 5c 6c Tc 2d 3d", "Ah Ad 8h 8c 6s 5h"], "stud8", ""),
    (["As 2s 3s 4d 5h 6c 7s", "?? ?? Kc Qs Qd 9h ??", "7c 8c 2d 3d 4c 5c ??"], "stud", "Ad Ah Td"),
    # eight players on 6th street: four cards left, a community card (every deal)
    (EIGHT_ON_SIXTH_UNKNOWN, "razz", ""),
    (FOUR_RUN_OUT, "stud8", FOUR_RUN_OUT_DEAD),
]


@pytest.mark.parametrize(("hands", "game", "dead"), EXACT)
def test_exact_equity_is_identical(fake_cuda: Any, hands: list[str], game: str, dead: str) -> None:
    cpu = equity(hands, game=game, dead=dead, exact=True)
    gpu = equity(hands, game=game, dead=dead, exact=True, device="cuda")
    _same(cpu, gpu)


@pytest.mark.parametrize(
    ("hands", "game", "dead"),
    [
        (
            ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"],
            "stud8",
            "Ac Ah Ts 9s 9h 8c 8h 7c 7s 6d 6h 5d 5h",
        ),
        (["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h", "7c 8c 2d 3d 4c 5c"], "razz", "Ad Ah Td Tc 9d 9s"),
        (["As 2s 3s 4d 5h 6c 7s", "?? ?? Kc Qs Qd 9h ??", "7c 8c 2d 3d 4c 5c ??"], "stud", "Ad Ah Td Tc"),
    ],
)
def test_every_method_on_the_device_path(
    fake_cuda: Any, monkeypatch: pytest.MonkeyPatch, hands: list[str], game: str, dead: str
) -> None:
    # Small blocks: several outer deals in one block, and one outer deal over several blocks.
    # Set where they are read (enumeration, for both kernels); kernels.py holds no copy of them.
    monkeypatch.setattr(enumeration, "DEVICE_BLOCK", 1 << 12)
    monkeypatch.setattr(enumeration, "DEVICE_PATTERN_ROWS", 1 << 10)
    deal = _deal(hands, game, dead)
    be = device.backend("cuda")
    expected = _fields(kernels.enumerate_exact(deal))
    assert _fields(kernels.enumerate_exact(deal, be=be)) == expected
    assert _fields(kernels.last_player_exact(deal, be=be)) == expected
    assert _fields(kernels.last_player_exact(deal)) == expected


def test_block_sizes_are_read_where_they_are_set(fake_cuda: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernels live in several modules; each block size is read from one of them, so setting
    # it there changes the blocks (more progress steps), and kernels.py keeps no copy to mislead.
    hands = ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"]
    deal = _deal(hands, "stud8", "Ac Ah Ts 9s 9h 8c 8h 7c 7s 6d 6h 5d 5h")
    shuffled = _deal(FOUR, "stud8", dead_except(FOUR, "Ad 2c 3d 4h 5s 6h 7c 9c Th Jd Qh Ks"))
    be = device.backend("cuda")

    def steps(run: Any) -> int:
        seen: list[float] = []
        run(seen.append)
        return len(seen)

    kernels_run = [
        lambda p: kernels.enumerate_exact(deal, p, be),
        lambda p: kernels.last_player_exact(deal, p, be),
        lambda p: kernels.monte_carlo(shuffled, 20_000, 3, p, be),
    ]
    before = [steps(run) for run in kernels_run]
    monkeypatch.setattr(enumeration, "DEVICE_BLOCK", 1 << 12)
    monkeypatch.setattr(enumeration, "DEVICE_PATTERN_ROWS", 1 << 10)
    monkeypatch.setattr(monte_carlo, "DEVICE_MC_ROWS", 1 << 12)
    after = [steps(run) for run in kernels_run]
    assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)
    for name in ("DEVICE_BLOCK", "DEVICE_PATTERN_ROWS", "DEVICE_MC_ROWS"):
        assert not hasattr(kernels, name)


def test_position_blocks_give_every_deal_once(fake_cuda: Any) -> None:
    be = device.backend("cuda")
    sizes = [2, 0, 1, 2]
    expected = {tuple(row) for row in kernels.deal_pattern(9, sizes).tolist()}
    for block_rows, pattern_rows in ((7, 5), (50, 20), (1 << 20, 1 << 20)):
        seen = []
        fractions = []
        for columns, done in kernels.position_blocks(9, sizes, be, block_rows, pattern_rows):
            assert columns.shape[0] == sum(sizes)
            seen += [tuple(row) for row in columns.T.tolist()]
            fractions.append(done)
        assert len(seen) == len(expected) and set(seen) == expected
        assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_tallies_moved_to_the_host_on_the_way(fake_cuda: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    hands = ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"]
    dead = "Ac Ah Ts 9s 9h 8c 8h 7c 7s 6d 6h 5d 5h"
    once = equity(hands, dead=dead, exact=True, device="cuda")
    monkeypatch.setattr(kernels.Tallies, "FLUSH_OUTCOMES", 1000)
    _same(once, equity(hands, dead=dead, exact=True, device="cuda"))


# ===============================================================================================
# Monte Carlo on the device path
# ===============================================================================================

# Four players, twelve cards left: rejection sampling would keep too few draws, so shuffles.
FOUR = ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d", "Ah Qd 8h 8c 6s"]


@pytest.mark.parametrize(
    ("hands", "game", "dead"),
    [
        (["As 2s 3s", "Kd Kh Qc"], "stud8", ""),  # completion tables, rejection
        (["As 2s 8s", "3d 4h Kc"], "razz", ""),
        (["Ah Kh 5c 9d 9s Td", "Qs Qd 2c 3d 4s Jh", "7c 7s Jc 4d 8h 8d"], "stud", "?? ??"),
        (FOUR, "stud8", dead_except(FOUR, "Ad 2c 3d 4h 5s 6h 7c 9c Th Jd Qh Ks")),  # shuffles
        (EIGHT_ON_SIXTH_UNKNOWN, "stud8", ""),
    ],
)
def test_monte_carlo_within_four_standard_errors(
    fake_cuda: Any, hands: list[str], game: str, dead: str
) -> None:
    exact = equity(hands, game=game, dead=dead, exact=True)
    sampled = equity(hands, game=game, dead=dead, trials=150_000, seed=5, device="cuda")
    assert not sampled.exact and sampled.outcomes == 150_000 and sampled.method == "monte-carlo"
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert s.equity_se is not None and s.scoop_se is not None
        assert abs(s.equity - e.equity) <= 4 * s.equity_se + 1e-12
        assert abs(s.scoop - e.scoop) <= 4 * s.scoop_se + 1e-12
    again = equity(hands, game=game, dead=dead, trials=150_000, seed=5, device="cuda")
    assert again.players == sampled.players  # the seed repeats


def test_monte_carlo_keeps_exactly_the_trials_over_many_blocks(
    fake_cuda: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(monte_carlo, "DEVICE_MC_ROWS", 1 << 12)
    for hands in (["As 2s 3s", "Kd Kh Qc"], ["As 2s 3s", "Kd Kh Qc", "4c 5c 6c"]):
        result = equity(hands, trials=30_001, seed=2, device="cuda")
        assert result.outcomes == 30_001
        assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-12)
        low = result.players[0].low_win or 0.0
        assert 0.0 < low < 1.0


def test_stop_ends_device_monte_carlo_between_blocks_with_the_draws_so_far(
    fake_cuda: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(monte_carlo, "DEVICE_MC_ROWS", 1 << 12)
    shuffles = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h", "2s 3s 4s 5s 6s", "Ac Ad Ah As Kc"]
    for hands in (["As 2s 3s", "Kd Kh Qc"], shuffles):  # completion tables, then shuffles
        asked = iter(range(10**6))
        result = equity(hands, trials=10_000_000, seed=2, device="cuda", stop=lambda: next(asked) >= 3)  # noqa: B023
        assert result.stopped and 0 < result.outcomes < 10_000_000
        assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-12)


def test_shuffled_prefix_is_a_uniform_draw(fake_cuda: Any) -> None:
    rng = fake_cuda.random.default_rng(4)
    grid = kernels.device_shuffled_prefix(fake_cuda, rng, 60_000, 6, 3)
    assert isinstance(grid, fake_cuda.ndarray) and grid.shape == (3, 60_000)
    rows = grid.get().T.astype(np.int64)
    assert all(len(set(r)) == 3 for r in rows[:2000].tolist())
    codes = rows[:, 0] * 36 + rows[:, 1] * 6 + rows[:, 2]
    counts = np.bincount(codes, minlength=216)[np.unique(codes)]
    assert counts.size == 120  # every ordered draw of 3 of 6
    expected = 60_000 / 120
    assert float(((counts - expected) ** 2 / expected).sum()) < 200  # chi-square, 119 degrees


# ===============================================================================================
# No CuPy, no GPU: a clear error
# ===============================================================================================


def test_no_cupy_is_a_clear_error() -> None:
    try:
        import cupy  # noqa: F401

        pytest.skip("CuPy is installed")
    except ImportError:
        pass
    with pytest.raises(device.DeviceError, match=r"pip install 'sevenstud\[gpu\]' \(CUDA 13: cupy-cuda13x\)"):
        device.array_module("cuda")
    with pytest.raises(device.DeviceError, match="CuPy is not installed"):
        evaluate_batch(np.zeros((1, 7), dtype=np.uint8) + np.arange(7, dtype=np.uint8), device="cuda")
    with pytest.raises(EquityError, match="cupy-cuda13x"):
        equity(["As 2s 3s", "Kd Kh Qc"], device="cuda", trials=10)
    with pytest.raises(ValueError, match="unknown device"):
        device.array_module("tpu")


def test_the_gpu_extras_are_declared() -> None:
    import tomllib
    from pathlib import Path

    extras = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra, package in (("gpu", "cupy-cuda13x"), ("gpu-cuda12", "cupy-cuda12x")):
        assert f"'sevenstud[{extra}]'" in device.CUPY_HINT and package in device.CUPY_HINT
        assert any(req.startswith(package) for req in extras[extra]) and any(
            req.startswith("numpy") for req in extras[extra]
        )


# ===============================================================================================
# On a real GPU (skipped without CuPy and a CUDA device)
# ===============================================================================================


@pytest.fixture(scope="module")
def cupy() -> Any:
    module = pytest.importorskip("cupy")
    try:
        count = int(module.cuda.runtime.getDeviceCount())
    except Exception as error:  # no driver, no device
        pytest.skip(f"CuPy finds no CUDA device: {error}")
    if count < 1:
        pytest.skip("no CUDA device")
    return module


def test_gpu_batch_evaluation(cupy: Any) -> None:
    hands = _random_hands(np.random.default_rng(8), 1_000_000, 7)
    cpu = evaluate_batch(hands)
    gpu = evaluate_batch(cupy.asarray(hands), device="cuda")
    for name in ("high", "low", "low8"):
        assert np.array_equal(getattr(cpu, name), cupy.asnumpy(getattr(gpu, name))), name
    with pytest.raises(ValueError, match="hand 1 holds the same card twice"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [9, 8, 7, 9, 10]]), device="cuda")


@pytest.mark.parametrize(
    ("hands", "game", "dead"), [EXACT[0], EXACT[3], EXACT[5], EXACT[7], EXACT[10], EXACT[13]]
)
def test_gpu_exact_equity_is_identical(cupy: Any, hands: list[str], game: str, dead: str) -> None:
    _same(
        equity(hands, game=game, dead=dead, exact=True),
        equity(hands, game=game, dead=dead, exact=True, device="cuda"),
    )


def test_gpu_monte_carlo_within_four_standard_errors(cupy: Any) -> None:
    for hands, game in (
        (["As 2s 3s", "Kd Kh Qc"], "stud8"),
        (["Ah Kh 5c 9d 9s Td", "Qs Qd 2c 3d 4s Jh", "7c 7s Jc 4d 8h 8d"], "stud"),
    ):
        exact = equity(hands, game=game, exact=True)
        sampled = equity(hands, game=game, trials=2_000_000, seed=9, device="cuda")
        assert sampled.outcomes == 2_000_000
        for e, s in zip(exact.players, sampled.players, strict=True):
            assert s.equity_se is not None
            assert abs(s.equity - e.equity) <= 4 * s.equity_se + 1e-12
    assert math.isfinite(sampled.seconds)


# ===============================================================================================
# The stand-in itself refuses what CuPy refuses (else the tests above would prove little)
# ===============================================================================================


def test_the_stand_in_refuses_host_arrays_and_numpy_functions() -> None:
    cp = fake_cupy.module()
    dev = cp.arange(6, dtype=np.int64)
    host = np.arange(6, dtype=np.int64)
    assert int((dev * 2 + 1).sum()) == 36 and isinstance(dev.sum(), cp.ndarray)
    with pytest.raises(TypeError, match="host"):
        _ = dev + host
    with pytest.raises(TypeError, match="host"):
        dev[np.array([0, 1])] = 3
    with pytest.raises(TypeError, match="host"):
        dev.take(host)
    with pytest.raises(TypeError, match="host"):
        cp.concatenate([dev, host])
    with pytest.raises(TypeError, match=r"numpy\.vdot"):
        np.vdot(dev, dev)
    with pytest.raises(TypeError, match="take"):
        dev.take(cp.arange(2), mode="clip")
    with pytest.raises(AttributeError):
        _ = cp.put_along_axis  # a numpy function the device code must not use
    with pytest.raises(AttributeError, match="permutation"):
        cp.random.default_rng(1).permutation(5)
    with pytest.raises(ValueError, match="zero-size"):
        cp.bincount(dev[dev > 9], minlength=3)  # CuPy before 14
    assert np.array_equal(cp.asnumpy(dev[cp.asarray([4, 5])]), [4, 5])
