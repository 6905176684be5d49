"""pots.Contender: a named tuple built fast by pots.contender (the compiled engine's hot path),
with the same fields, equality, repr and immutability as the frozen dataclass it replaced."""

from __future__ import annotations

import pytest

from sevenstud.pots import Award, Contender, Pot, contender, settle


def test_contender_builder_makes_the_same_named_tuple() -> None:
    fast = contender(7, 3, 51)
    assert type(fast) is Contender
    assert fast == Contender(7, 3, 51)
    assert (fast.high, fast.low, fast.odd_chip_key) == (7, 3, 51)
    assert repr(fast) == "Contender(high=7, low=3, odd_chip_key=51)"
    assert fast != contender(7, 3, 50)


def test_contender_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        contender(1, 0, 0).high = 2  # type: ignore[misc]


def test_settle_splits_a_hilo_pot_between_fast_built_contenders() -> None:
    # One pot of 10: seat 0 has the better high, seat 1 the only qualifying low.
    awards = settle(
        [Pot(10, (0, 1))],
        {0: contender(9, 0, 1), 1: contender(5, 4, 2)},
        high=True,
        low=True,
        odd_chip_order=[0, 1],
    )
    assert awards == [Award(0, 5, 0, "high"), Award(1, 5, 0, "low")]
