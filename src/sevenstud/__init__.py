"""sevenstud: Seven Card Stud Hi/Lo (eight or better), Seven Card Stud and Razz."""

from sevenstud.cards import (
    Card,
    CardError,
    Deck,
    DuplicateCardError,
    MalformedCardError,
    format_cards,
    parse_cards,
)

__all__ = [
    "Card",
    "CardError",
    "Deck",
    "DuplicateCardError",
    "MalformedCardError",
    "format_cards",
    "parse_cards",
]
__version__ = "0.1.0"
