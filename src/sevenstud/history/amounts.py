"""How the text hand histories write an amount: chips as a number, money in cents as ``$0.04``
(shared by the PokerStars and Full Tilt writers and ``sevenstud replay``'s verdicts)."""

from __future__ import annotations


def format_amount(chips: int, money: bool, symbol: str = "$") -> str:
    """How PokerStars writes an amount: ``$0.04``, ``$1.60``, ``$11`` for money, ``150`` else."""
    if not money:
        return str(chips)
    whole, cents = divmod(chips, 100)
    return f"{symbol}{whole}" if cents == 0 else f"{symbol}{whole}.{cents:02d}"
