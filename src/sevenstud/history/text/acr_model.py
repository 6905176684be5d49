"""The pieces of an Americas Cardroom hand that the shared lines-of-a-hand model has no place
for (its errors, the jackpot fee, the running pot lines, the best five of each shown hand); the
reader is :mod:`sevenstud.history.text.acr`, the replay :mod:`sevenstud.history.text.acr_replay`."""

from __future__ import annotations

import dataclasses

from sevenstud.cards import Card
from sevenstud.history.text.model import PokerStarsError, PokerStarsHand

_ORDINAL_ENDINGS = {3: "rd"}


class ACRError(PokerStarsError):
    """An Americas Cardroom history we cannot read; ``str()`` reads ``FILE, line N: what is wrong``."""


class NotACRError(ACRError):
    """The file is not an Americas Cardroom hand history (its first line is no ACR header)."""


@dataclasses.dataclass(frozen=True, slots=True)
class PotLine:
    """``Main pot $2.12 | Rake $0.09`` (``pot`` 0) or ``Side pot(1) $0.60 | Rake $0.00``: the pot
    after the rake taken so far, written after a street's mark (``street`` 3 to 7) or at the
    showdown (``street`` 8)."""

    line: int
    street: int
    pot: int
    amount: int
    rake: int


@dataclasses.dataclass(frozen=True, slots=True)
class ShownFive:
    """What a shown hand's description says: the best high five (``None`` where it names none)
    and the low (``["8", "7", "5", "3", "2"]``, aces as ``A``; ``None``: no low named)."""

    line: int
    player: str
    five: tuple[Card, ...] | None
    low: tuple[str, ...] | None


@dataclasses.dataclass(frozen=True)
class ACRHand(PokerStarsHand):
    """One Americas Cardroom hand. ``rake`` is all the room took (its rake and the jackpot fee)
    and ``total_pot`` the pot before it, as our engine counts them; the file's ``Total pot`` is
    ``total_pot - rake``."""

    jackpot_fee: int = 0
    """The jackpot fee (``JP Fee $0.02``), a part of ``rake``."""
    pot_lines: tuple[PotLine, ...] = ()
    shows: tuple[ShownFive, ...] = ()

    @property
    def room_rake(self) -> int:
        """The rake without the jackpot fee, as the summary writes it."""
        return self.rake - self.jackpot_fee


def street_mark(street: int) -> str:
    """How the room marks a street: ``3rd STREET`` .. ``7th STREET``."""
    return f"{street}{_ORDINAL_ENDINGS.get(street, 'th')} STREET"


STREET_MARKS = {street: street_mark(street) for street in range(3, 8)}
"""The room's street marks, by street."""
