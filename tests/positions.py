"""Equity positions and helpers shared by the equity tests (``test_equity.py``) and the GPU
tests (``test_gpu.py``), which check the same positions on the device code path."""

from __future__ import annotations

from sevenstud.cards import parse_cards
from sevenstud.equity import parse_hand


def dead_except(hands: list[str], live: str) -> str:
    """Every card dead but the players' and ``live``: 3rd and 4th street with a small deck."""
    keep = {int(c) for h in hands for c in parse_hand(h) if c is not None} | {
        int(c) for c in parse_cards(live)
    }
    return " ".join(str(parse_cards([c])[0]) for c in range(52) if c not in keep)


LIVE = "Ad 2c 3s 4h 4s 5c 6h 7c 8d 9h Kh"  # eleven cards left to come from

# Eight players on 6th street: four cards left, so 7th street is a community card.
EIGHT_ON_SIXTH = [
    "2c 3c 4c 5c 6c 7c",
    "2d 3d 4d 5d 6d 7d",
    "2h 3h 4h 5h 6h 7h",
    "2s 3s 4s 5s 6s 7s",
    "8c 9c Tc Jc Qc Kc",
    "8d 9d Td Jd Qd Kd",
    "8h 9h Th Jh Qh Kh",
    "8s 9s Ts Js Qs Ks",
]
# The same with two players' down cards unknown (eight cards left).
EIGHT_ON_SIXTH_UNKNOWN = [
    "2c 3c 4c 5c 6c 7c",
    "?? ?? 4d 5d 6d 7d",
    "2h 3h 4h 5h 6h 7h",
    "2s 3s 4s 5s 6s 7s",
    "8c 9c Tc Jc Qc Kc",
    "8d 9d Td Jd Qd Kd",
    "?? ?? Th Jh Qh Kh",
    "8s 9s Ts Js Qs Ks",
]

# Four players on 6th street whose unseen dead cards run the deck out: a community card.
FOUR_RUN_OUT = ["As 2s 3s 4d 5h 6c", "Kd Kh Kc Qs Qd 9h", "7c 8c 2d 3d 4c 5c", "Ac Ad 9c 9d Th Tc"]
FOUR_RUN_OUT_DEAD = "Jd Js Jc Jh 8h 8d " + "?? " * 19
