"""sevenstud: Seven Card Stud Hi/Lo (eight or better), Seven Card Stud and Razz."""

from sevenstud.cards import (
    Card,
    CardError,
    DuplicateCardError,
    MalformedCardError,
    format_cards,
    parse_cards,
)
from sevenstud.deck import Deck

__all__ = [
    "Card",
    "CardError",
    "Deck",
    "DuplicateCardError",
    "MalformedCardError",
    "format_cards",
    "parse_cards",
]


def _version() -> str:
    # The installed distribution's version (pyproject.toml is the one place it is written).
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sevenstud")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


__version__ = _version()
"""The version of the installed ``sevenstud`` distribution."""
